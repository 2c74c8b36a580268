"""What a run shows while it works: the progress bar and the run's log (console and run.log),
with worker log records forwarded to the parent through multiprocessing-logging."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from multiprocessing_logging import install_mp_handler
from tqdm import tqdm
from tqdm.contrib.logging import logging_redirect_tqdm

from .summary import Tally

LOGGER = "domsim"


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


class ProgressBar:
    """One bar in the parent counting games, with the current leader; off when stderr is not a
    terminal or when asked to be silent."""

    def __init__(self, total: int, done: int, silent: bool) -> None:
        self.bar = tqdm(total=total, initial=done, unit="game", file=sys.stderr,
                        disable=silent or not sys.stderr.isatty(), dynamic_ncols=True)

    def __call__(self, games: int, tally: Tally) -> None:
        self.bar.update(games)
        leader = tally.leader()
        if leader:
            self.bar.set_postfix_str(f"leader {leader[0]} {leader[1]:.1%}", refresh=False)

    def close(self) -> None:
        self.bar.close()
