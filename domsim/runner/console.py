"""What a run shows while it works: the progress bar and the run's log (console and run.log),
with worker log records forwarded to the parent through multiprocessing-logging."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from multiprocessing_logging import install_mp_handler
from tqdm import tqdm
from tqdm.contrib.logging import logging_redirect_tqdm

from .. import __version__
from ..results.summary import Tally

LOGGER = "domsim"
log = logging.getLogger("domsim.runner")


@contextmanager
def run_logging(log_file: Path, quiet: bool) -> Iterator[None]:
    """Log `domsim.*` to stderr (warnings; errors only when quiet) and to `log_file` (info),
    from the parent and from forked workers, without breaking the progress bar.

    tqdm's redirect is entered before the multiprocessing handler wraps the handlers (the other
    order duplicates lines); workers must be forked inside this block to inherit the handler."""
    logger = logging.getLogger(LOGGER)
    saved = logger.handlers[:], logger.level, logger.propagate
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(logging.ERROR if quiet else logging.WARNING)
    console.setFormatter(logging.Formatter("domsim: %(levelname)s: %(message)s"))
    to_file = logging.FileHandler(log_file, encoding="utf-8")
    to_file.setFormatter(logging.Formatter(
        "%(asctime)s %(processName)s %(name)s %(levelname)s %(message)s"))
    logger.handlers = [console, to_file]
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        with logging_redirect_tqdm(loggers=[logger]):
            for handler in logger.handlers:  # tqdm's stand-in for `console` drops its level
                if handler is not to_file:
                    handler.setLevel(console.level)
            install_mp_handler(logger)
            try:
                yield
            finally:
                for handler in logger.handlers:
                    handler.close()  # drains the records workers sent
    finally:
        logger.handlers, logger.level, logger.propagate = saved
        console.close()
        to_file.close()


def log_header(command: list[str], seed: int, entrants: list[str], runs: dict[str, str]
               ) -> None:
    """What starts a session in run.log: the command, the version, the seed, the entrants and
    how each strategy runs (`runs`: spec -> in process, or in its own sandboxed process)."""
    log.info("command: %s", " ".join(command))
    log.info("domsim %s, seed %d", __version__, seed)
    log.info("entrants: %s", "; ".join(entrants))
    for spec, how in runs.items():
        log.info("%s: %s", spec, how)


@dataclass
class Standings:
    """When to show the standings: every `games` games and/or every `seconds` seconds (0: never);
    they go to run.log and, unless `quiet`, above the progress bar."""

    games: int = 0
    seconds: float = 0.0
    quiet: bool = False
    last_games: int = 0
    last_time: float = field(default_factory=time.monotonic)

    def due(self, done: int) -> bool:
        by_games = self.games and done - self.last_games >= self.games
        by_time = self.seconds and time.monotonic() - self.last_time >= self.seconds
        return bool(by_games or by_time)

    def show(self, lines: list[str]) -> None:
        for line in lines:
            log.info("%s", line)
            if not self.quiet:
                tqdm.write(line, file=sys.stderr)


class ProgressBar:
    """One bar in the parent counting games, with the current leader (off when stderr is not a
    terminal or when asked to be silent), and the standings when they are due."""

    def __init__(self, total: int, done: int, silent: bool,
                 standings: Standings | None = None) -> None:
        self.bar = tqdm(total=total, initial=done, unit="game", file=sys.stderr,
                        disable=silent or not sys.stderr.isatty(), dynamic_ncols=True)
        self.total, self.done = total, done
        self.standings = standings or Standings()

    def __call__(self, games: int, tally: Tally, note: str = "") -> None:
        """Count `games` more; `note` follows the leader on the bar."""
        self.bar.update(games)
        self.done += games
        leader = tally.leader()
        if leader:
            self.bar.set_postfix_str(f"leader {leader[0]} {leader[1]:.1%}{note}", refresh=False)
        if self.standings.due(self.done):
            self.standings.show(tally.standings(self.done, self.total))
            self.standings.last_games, self.standings.last_time = self.done, time.monotonic()

    def finish_early(self) -> None:
        """The run stopped before the total by design (a sequential test decided): end full."""
        self.bar.total = self.bar.n
        self.bar.refresh()

    def close(self) -> None:
        self.bar.close()
