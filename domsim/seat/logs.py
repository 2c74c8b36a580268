"""What a bot puts in the run's log: its stderr and protocol notes, at INFO under
`BOTS_LOGGER`, within a budget per game and per process of domsim in a run."""

from __future__ import annotations

import fcntl
import logging
import os
import select
import struct
import termios
import time
from collections import deque

from ..printable import printable

BOTS_LOGGER = "domsim.seats"  # bots' stderr and protocol notes, at INFO
log = logging.getLogger(BOTS_LOGGER)

#: Bytes of a bot's stderr and unknown lines logged per game, and per process of domsim (a
#: worker) in a run: beyond, they are read and dropped, and the cap is logged once.
LOG_BYTES_PER_GAME = 64 << 10
LOG_BYTES_PER_PROCESS = 1 << 20
#: Bytes run.log adds to each line around its text (time, process, logger, level, separators).
LOG_LINE_OVERHEAD = 64
#: Longest stderr line logged; longer ones are cut.
LOG_LINE = 1000
#: Longest wait for a bot's stderr to be logged before its next game's name applies.
SETTLE_SECONDS = 0.1


class LogBudget:
    """What one bot process may put in the run's log: `LOG_BYTES_PER_GAME` a game, within
    `LOG_BYTES_PER_PROCESS` for every bot of this process in a run; each cap is logged once."""

    _process_left = LOG_BYTES_PER_PROCESS

    def __init__(self, label: str) -> None:
        self.named = self.label = ""
        self.name(label)
        self._game_left = LOG_BYTES_PER_GAME
        self._capped = False
        self.reading = False  # the stderr reader holds bytes it has not logged yet

    def name(self, label: str) -> None:
        """Its lines named `label` from now on (escaped once, not at every line)."""
        if label != self.named:
            self.named, self.label = label, printable(label, lines=False)

    def settle(self, stderr: int, seconds: float = SETTLE_SECONDS) -> None:
        """Wait, at most `seconds`, until the reader of the `stderr` pipe has logged all that
        is in it: what the bot wrote before the next game is named by the game it came in."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                pending = struct.unpack("i", fcntl.ioctl(stderr, termios.FIONREAD, b"\0" * 4))[0]
            except OSError:  # the reader closed it: nothing more comes
                return
            if not pending and not self.reading:  # in this order (log_stderr)
                return
            time.sleep(0.001)

    @classmethod
    def new_run(cls) -> None:
        """A run starts with the whole allowance of a process, also in a worker that played
        earlier runs (a study's: domsim.runner.studypool)."""
        cls._process_left = LOG_BYTES_PER_PROCESS

    def new_game(self) -> None:
        self._game_left, self._capped = LOG_BYTES_PER_GAME, False

    def write(self, text: str) -> None:
        size = len(self.label.encode()) + len(text.encode()) + LOG_LINE_OVERHEAD
        if size <= min(self._game_left, LogBudget._process_left):
            self._game_left -= size
            LogBudget._process_left -= size
            log.info("%s: %s", self.label, printable(text, lines=False))
        elif not self._capped:
            self._capped = True
            which = ("this game's" if self._game_left < LogBudget._process_left
                     else "this worker's")
            log.info("%s: more output dropped: %s log allowance (%d KiB a game, %d KiB a "
                     "worker) is spent", self.label, which, LOG_BYTES_PER_GAME >> 10,
                     LOG_BYTES_PER_PROCESS >> 10)


def named_here(text: str, renames: tuple[tuple[str, str], ...], form: str = "{}") -> str:
    """`text` (an error domsim's host reported, a traceback's line) with the paths of the bot's
    files, where they appear as `form` says (a traceback's `File "{}"`), as this process names
    them (`renames`: (inside, here); a sandboxed bot sees them under /bot)."""
    for inside, here in sorted(renames, key=lambda pair: -len(pair[0])):
        text = text.replace(form.format(inside), form.format(here))
    return text


def log_stderr(stream, budget: LogBudget, renames: tuple[tuple[str, str], ...] = (),
               tail: deque[str] | None = None) -> None:
    """A bot's stderr to the run's log (never to the terminal), in lines of at most `LOG_LINE`
    characters, within its budget, the files a traceback quotes named as here (`named_here`),
    its last lines kept in `tail` (for the error of a bot that fails to start); read to the end
    whatever it writes, so the bot never blocks on a full pipe and domsim never holds more than
    a chunk of it."""
    def write(line: bytes) -> None:
        text = named_here(line[:LOG_LINE].decode(errors="replace").rstrip(), renames,
                          'File "{}"')
        if text and tail is not None:
            tail.append(text)
        budget.write("stderr: " + text)

    fd, pending = stream.fileno(), b""
    readable = select.poll()  # not select(): a worker of many bots may hold fds past 1024
    readable.register(fd, select.POLLIN)
    with stream:
        try:
            while readable.poll():
                budget.reading = True  # before the read: `settle` sees the bytes or the flag
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                *lines, pending = (pending + chunk).split(b"\n")
                if len(pending) > LOG_LINE:
                    lines.append(pending)
                    pending = b""
                for line in lines:
                    write(line)
                budget.reading = False
            if pending:
                write(pending)
        finally:
            budget.reading = False
