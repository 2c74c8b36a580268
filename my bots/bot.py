#!/usr/bin/env python3
"""Example bot in its own process: speaks the seat protocol (docs/seat-protocol.md) on stdin and
stdout and imports nothing of domsim, as a bot in any language would. It plays the heaviest tile
that fits, at random among equals, from a generator seeded with the seed each game gives its seat.

Run it:   domsim play --variant block -p 'exec:python3 strategies/example_external.py' -p easy
Tune it:  ... -p 'exec:python3 strategies/example_external.py --lightest'
"""

import json
import random
import sys


def heaviest(legal_moves: list[dict], rng: random.Random, lightest: bool) -> dict:
    sign = -1 if lightest else 1
    best = max(sign * sum(move["tile"]) for move in legal_moves)
    return rng.choice([move for move in legal_moves if sign * sum(move["tile"]) == best])


def main() -> None:
    lightest = "--lightest" in sys.argv[1:]
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            reply = {"type": "hello", "protocol": 2, "name": "example_external"}
        elif kind == "game":
            rng = random.Random(message["seat_seed"])  # every game replays from its seed
            reply = {"type": "ready"}
        elif kind == "choose":
            move = heaviest(message["legal_moves"], rng, lightest)
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
