#!/usr/bin/env python3
"""Hostile on purpose: a seat-protocol bot (imports nothing of domsim) whose every word to the
user carries terminal escape sequences: clear screen, a window title, a clipboard write (OSC
52), a carriage return and a forged domsim line. It writes them to stderr, in its hello's
name, in a line that is not JSON, and in the `error` it answers its first `choose` with (the
seat then goes to the stand-in: the game finishes)."""

import json
import sys

FORGED = ("\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07\r"
          "domsim: WARNING: game 3, seat 1 (easy): timeout\x1b[31m\x9b2J")


def say(message: dict) -> None:
    print(json.dumps(message), flush=True)


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        print(FORGED, file=sys.stderr, flush=True)
        say({"type": "hello", "protocol": 2, "name": FORGED})
    elif kind == "game":
        say({"type": "ready"})
    elif kind == "game_over":
        say({"type": "done"})
    elif kind == "choose":
        print(f"not json {FORGED}", flush=True)
        say({"type": "error", "id": message["id"], "message": FORGED})
    elif kind == "quit":
        break
