#!/usr/bin/env python3
"""Example bot in its own process: speaks the seat protocol (docs/seat-protocol.md) on stdin and
stdout and imports nothing of domsim, as a bot in any language would. It plays the heaviest tile
that fits, a double worth `doubles` pips more, at random among equals, from a generator seeded
with the seed each game gives its seat. It declares `doubles` in its `hello`, and takes its value
from each `game` message's `parameters` (0 when none is given).

Run it:   domsim play --variant block -p 'exec:python3 strategies/example_external.py' -p easy
Set it:   ... -p 'exec?doubles=2.5:python3 strategies/example_external.py'
Tune it:  domsim tune --variant block --strategy 'exec:python3 strategies/example_external.py'
              --param doubles=0:8 --against medium
Turn it:  ... -p 'exec:python3 strategies/example_external.py --lightest'
"""

import json
import random
import sys


def heaviest(legal_moves: list[dict], rng: random.Random, lightest: bool,
             doubles: float) -> dict:
    sign = -1 if lightest else 1

    def worth(move: dict) -> float:
        a, b = move["tile"]
        return sign * (a + b + doubles * (a == b))

    best = max(map(worth, legal_moves))
    return rng.choice([move for move in legal_moves if worth(move) == best])


def main() -> None:
    lightest = "--lightest" in sys.argv[1:]
    rng, doubles = random.Random(0), 0.0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            reply = {"type": "hello", "protocol": 2, "name": "example_external",
                     "parameters": {"doubles": "float"}}
        elif kind == "game":
            rng = random.Random(message["seat_seed"])  # every game replays from its seed
            doubles = float(message.get("parameters", {}).get("doubles", 0))
            reply = {"type": "ready"}
        elif kind == "choose":
            move = heaviest(message["legal_moves"], rng, lightest, doubles)
            reply = {"type": "move", "id": message["id"], **move}
        elif kind == "game_over":
            reply = {"type": "done"}
        elif kind == "quit":
            return
        else:  # "hand", and any message a later protocol version adds
            continue
        print(json.dumps(reply), flush=True)
        if kind == "game":  # stderr goes to the run's log, never to the terminal
            print(f"example_external: seat {message['seat']}", file=sys.stderr)


if __name__ == "__main__":
    main()
