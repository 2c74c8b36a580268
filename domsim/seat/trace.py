"""`--debug`: the seat protocol's lines, to a file or the terminal (cutechess-cli's `-debug`)."""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import time
from collections.abc import Iterator

from ..printable import printable

#: `--debug`: where every line of the seat protocol is written, named in the environment so a
#: run's local workers inherit it: a file (a run folder's protocol.log), or "-" for stderr.
TRACE = "DOMSIM_PROTOCOL_TRACE"


class Trace:
    """The seat protocol's lines, each with the time, the bot and the game: `>` to the bot, `<`
    from it. Lines are appended whole, so the workers of one run can share the file."""

    def __init__(self, target: str) -> None:
        self.file = None if target == "-" else open(target, "a", buffering=1,  # noqa: SIM115
                                                    encoding="utf-8")

    def write(self, label: str, game: str, way: str, line: bytes) -> None:
        text = printable(line.decode("utf-8", "backslashreplace").rstrip("\n"), lines=False)
        stream = self.file or sys.stderr  # stderr as it is now: a test may have swapped it
        stream.write(f"{time.strftime('%H:%M:%S')} {label} {game} {way} {text}\n")


@functools.cache
def protocol_trace(target: str | None) -> Trace | None:
    return None if not target else Trace(target)


@contextlib.contextmanager
def traced(target: str | None) -> Iterator[None]:
    """While it lasts, a bot started in this process, or in a worker forked from it, traces
    the seat protocol to `target` (a file, or "-": stderr; None: no trace)."""
    before = os.environ.get(TRACE)
    if target is not None:
        os.environ[TRACE] = target
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(TRACE, None)
        else:
            os.environ[TRACE] = before
