#!/usr/bin/env python3
"""Hostile seat-protocol bot on purpose (imports nothing of domsim): misbehaves as argv[1] says,
else plays the first legal move. Cases: version (speaks the old protocol 1), garbage (writes
lines that are not JSON, then a move), silent (never answers `choose`), noread (never reads
stdin after hello, writes nothing), long (a 2 MiB line), exit (exits at the first `choose`),
mumble (writes a line that is not JSON, then exits with status 0), illegal (answers a tile it
does not hold), error (answers `error`), late (answers after `late` s), chatter (writes a line
of text instead of its hello, then waits a minute), crash (writes a traceback to stderr and
exits with status 1 before its hello)."""

import json
import sys
import time

how = sys.argv[1] if len(sys.argv) > 1 else ""


def say(message: dict) -> None:
    print(json.dumps(message), flush=True)


if how == "chatter":
    print("thinking...", flush=True)
    time.sleep(60)
if how == "crash":
    print("Traceback (most recent call last):\nValueError: no weights found", file=sys.stderr)
    sys.exit(1)

for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        say({"type": "hello", "protocol": 1 if how == "version" else 2})
        if how == "noread":
            time.sleep(3600)
    elif kind == "game":
        say({"type": "ready"})
    elif kind == "game_over":
        say({"type": "done"})
    elif kind == "choose":
        move = message["legal_moves"][0]
        if how == "garbage":
            print("thinking...", flush=True)
            print("[1, 2]", flush=True)
        elif how == "silent":
            continue
        elif how == "long":
            print("x" * (2 << 20), flush=True)
        elif how == "exit":
            sys.exit(4)
        elif how == "mumble":
            print("thinking...", flush=True)
            sys.exit(0)
        elif how == "illegal":
            held = {tuple(t) for t in message["hand"]}
            move = {"tile": next([a, b] for a in range(7) for b in range(a, 7)
                                 if (a, b) not in held), "end": 0}
        elif how == "error":
            say({"type": "error", "id": message["id"], "message": "cannot think"})
            continue
        elif how == "late":
            time.sleep(float(sys.argv[2]))
        say({"type": "move", "id": message["id"], **move})
