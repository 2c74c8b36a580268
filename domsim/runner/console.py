"""What a run shows while it works: the progress bar and the run's log (console and run.log),
with worker log records forwarded to the parent through multiprocessing-logging."""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from multiprocessing_logging import MultiProcessingHandler
from tqdm.auto import tqdm
from tqdm.contrib.logging import logging_redirect_tqdm

from ..printable import PrintableFormatter
from ..record import GameResult
from ..results.summary import Tally
from ..rules import Rules
from ..seat.process import WEAKER
from ..seat.seats import FAULT
from ..version import __version__

LOGGER = "domsim"
log = logging.getLogger("domsim.runner")


@contextmanager
def run_logging(log_file: Path, quiet: bool) -> Iterator[None]:
    """Log `domsim.*` to stderr (warnings; errors only when quiet) and to `log_file` (info),
    from the parent and from forked workers, without breaking the progress bar.

    tqdm's redirect is entered before the multiprocessing handlers wrap the handlers (the other
    order duplicates lines); workers must be forked inside this block to inherit them (each
    pool after `renew_worker_logging`)."""
    logger = logging.getLogger(LOGGER)
    saved = logger.handlers[:], logger.level, logger.propagate
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(logging.ERROR if quiet else logging.WARNING)
    console.setFormatter(PrintableFormatter("domsim: %(levelname)s: %(message)s"))
    to_file = logging.FileHandler(log_file, encoding="utf-8")
    to_file.setFormatter(PrintableFormatter(
        "%(asctime)s %(processName)s %(name)s %(levelname)s %(message)s"))
    logger.handlers = [console, to_file]
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        with logging_redirect_tqdm(loggers=[logger]):
            for handler in logger.handlers:  # tqdm's stand-in for `console` drops its level
                if handler is not to_file:
                    handler.setLevel(console.level)
            logger.handlers = [WorkerLogHandler(handler if handler is to_file
                                                else FaultDigest(handler))
                               for handler in logger.handlers]
            try:
                yield
            finally:
                close_worker_logging(logger.handlers)
    finally:
        logger.handlers, logger.level, logger.propagate = saved
        console.close()
        to_file.close()


#: After an entrant's first fault of a kind, how often the terminal says how many more.
DIGEST_SECONDS = 60.0
#: Games a digest line names; it counts the rest.
DIGEST_GAMES = 10


class FaultDigest(logging.Handler):
    """The terminal's side of faults (run.log keeps every one): an entrant's first fault of a
    kind in full, then at most one line every `DIGEST_SECONDS` with how many more and in which
    games, instead of a line a fault."""

    def __init__(self, handler: logging.Handler, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        super().__init__(handler.level)
        self.handler, self.clock = handler, clock
        self.shown: dict[tuple[str, str], float] = {}
        self.held: dict[tuple[str, str], list[str]] = defaultdict(list)

    def emit(self, record: logging.LogRecord) -> None:
        fault = getattr(record, FAULT, None)
        if fault is None:
            self.handler.handle(record)
            return
        spec, kind, game = fault
        key, now = (spec, kind), self.clock()
        if key not in self.shown:
            self.shown[key] = now
            self.handler.handle(record)
            return
        self.held[key].append(game)
        if now - self.shown[key] >= DIGEST_SECONDS:
            self.shown[key] = now
            self.handler.handle(self._digest(record, spec, kind, self.held.pop(key)))

    @staticmethod
    def _digest(record: logging.LogRecord, spec: str, kind: str,
                games: list[str]) -> logging.LogRecord:
        named = ", ".join(games[:DIGEST_GAMES]) + (", ..." if len(games) > DIGEST_GAMES else "")
        return logging.makeLogRecord({
            "name": record.name, "levelno": record.levelno, "levelname": record.levelname,
            "msg": "%s: %d more %s faults (%s; every one in run.log)",
            "args": (spec, len(games), kind, named)})


class WorkerLogHandler(MultiProcessingHandler):
    """multiprocessing-logging's handler (forked workers send their records to the parent),
    made safe against a worker killed outright. Such a worker may die holding the queue's lock,
    or half way through a record: the queue then carries nothing more. So the parent writes its
    own records at once, never through the queue (else they would be lost and its exit would
    wait for them forever), and each pool of workers gets a queue of its own
    (`renew_worker_logging`)."""

    def __init__(self, handler: logging.Handler, retired: tuple[WorkerLogHandler, ...] = ()):
        super().__init__(f"domsim-log-{type(handler).__name__}", sub_handler=_OneAtATime(handler))
        self.parent = os.getpid()
        self.retired = retired  # earlier pools' handlers (close_worker_logging)

    def _send(self, record: logging.LogRecord) -> None:
        if os.getpid() == self.parent:
            self.sub_handler.emit(record)
        else:
            super()._send(record)


class _OneAtATime(logging.Handler):
    """`handler` under its lock: the parent's threads and the queue's receiver thread (which
    calls emit without it) both write through it. Closing leaves `handler` open: every pool's
    WorkerLogHandler shares it, and run_logging closes it last."""

    def __init__(self, handler: logging.Handler) -> None:
        super().__init__(handler.level)
        self.handler = handler

    def emit(self, record: logging.LogRecord) -> None:
        self.handler.handle(record)


#: How long a session's end waits for the log records of lasting workers (LastingWorkersLog).
DRAIN_SECONDS = 5.0
#: The attribute of LastingWorkersLog's drain marks.
DRAIN_MARK = "domsim_drain_mark"


class LastingWorkersLog(WorkerLogHandler):
    """The log of workers that outlive a session (a study's: domsim.runner.studypool): installed
    in them alone (`take_over`), it brings their records through one queue for as long as they
    live, and hands each to the `domsim` logger's handlers of the moment, those of the session
    being played (`run_logging`); `drain` waits for what they sent before the session's log
    closes."""

    def __init__(self, retired: tuple[WorkerLogHandler, ...] = ()) -> None:
        super().__init__(_ToTheSession(), retired)
        self.marks = 0  # drain marks sent through the queue

    def take_over(self) -> None:
        """In a worker: its `domsim` records go through this handler, and only this one."""
        logging.getLogger(LOGGER).handlers = [self]

    def drain(self, seconds: float = DRAIN_SECONDS) -> None:
        """Wait until every record the workers have sent is handed on, `seconds` at most (a
        worker killed in the middle of one never finishes it). The queue counts a record from
        a worker's put, before it is sent: once it counts none, a mark sent after them is
        handed on after the last."""
        deadline = time.monotonic() + seconds
        while self.queue.qsize() and time.monotonic() < deadline:
            time.sleep(0.01)
        self.marks += 1
        self.queue.put(logging.makeLogRecord({DRAIN_MARK: self.marks}))
        self.sub_handler.handler.wait_for(self.marks, deadline - time.monotonic())


class _ToTheSession(logging.Handler):
    """The parent's side of LastingWorkersLog: each worker record to the `domsim` logger's
    handlers of the moment; a drain mark tells the drain it has come."""

    def __init__(self) -> None:
        super().__init__()
        self.passed = threading.Condition()
        self.mark = 0

    def emit(self, record: logging.LogRecord) -> None:
        mark = getattr(record, DRAIN_MARK, None)
        if mark is None:
            logging.getLogger(LOGGER).handle(record)
            return
        with self.passed:
            self.mark = mark
            self.passed.notify_all()

    def wait_for(self, mark: int, seconds: float) -> None:
        with self.passed:
            self.passed.wait_for(lambda: self.mark >= mark, max(seconds, 0.0))


def renew_worker_logging() -> None:
    """Before forking a pool: its workers log through a new queue, so a worker of an earlier pool
    killed while it wrote to that pool's queue cannot silence or hang them."""
    logger = logging.getLogger(LOGGER)
    logger.handlers = [WorkerLogHandler(h.sub_handler.handler, (h, *h.retired))
                       if isinstance(h, WorkerLogHandler) else h for h in logger.handlers]


def close_worker_logging(handlers: list[logging.Handler]) -> None:
    """Close the handlers and the earlier pools' ones, all at once: each drains what its workers
    sent, waiting 5 s at most (for good, where a killed worker's records never came)."""
    every = [old for handler in handlers for old in (handler, *getattr(handler, "retired", ()))]
    closing = [threading.Thread(target=handler.close) for handler in every]
    for thread in closing:
        thread.start()
    for thread in closing:
        thread.join()


def log_header(command: list[str], seed: int, entrants: list[str], runs: dict[str, str]
               ) -> None:
    """What starts a session in run.log: the command, the version, the seed, the entrants and
    how each strategy runs (`runs`: spec -> in process, or in its own sandboxed process)."""
    log.info("command: %s", " ".join(command))
    log.info("domsim %s, seed %d", __version__, seed)
    log.info("entrants: %s", "; ".join(entrants))
    for spec, how in runs.items():
        log.info("%s: %s", spec, how)
    for weaker in dict.fromkeys(how.partition(WEAKER)[2] for how in runs.values()):
        if weaker:
            log.warning("the bots' sandbox is weaker on this machine: %s (docs/seat-protocol.md, "
                        "The sandbox)", weaker)


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
        say(lines, self.quiet)


def say(lines: list[str], quiet: bool) -> None:
    """Plain lines for the user, above the progress bar (unless `quiet`) and in run.log: what
    was rounded, the standings; never a WARNING, which is for what went wrong."""
    for line in lines:
        log.info("%s", line)
        if not quiet:
            tqdm.write(line, file=sys.stderr)


class FaultRateExceeded(Exception):
    """An entrant faulted in more of its games than --max-fault-rate allows, and the run was
    asked to stop for it; the message says who and how often."""


@dataclass
class FaultWatch:
    """Warns, once per entrant and while the run plays, when an entrant has faulted in more than
    `rate` of its games (after at least MIN_GAMES of them); with `stop`, stops the run instead
    (FaultRateExceeded: the run is partial and resumes). `rate` None: never."""

    rate: float | None = None
    stop: bool = False
    warned: set = field(default_factory=set)

    MIN_GAMES = 10

    def check(self, tally: Tally) -> None:
        if self.rate is None:
            return
        for name, faulted, games in tally.fault_rates():
            if games < self.MIN_GAMES or faulted <= self.rate * games or name in self.warned:
                continue
            self.warned.add(name)
            what = (f"{name} faulted in {faulted} of its {games} games ({faulted / games:.0%}, "
                    f"over --max-fault-rate {self.rate:.0%})")
            if self.stop:
                raise FaultRateExceeded(f"stopped: {what}")
            log.warning("%s: see run.log for its faults; --stop-on-faults stops such a run",
                        what)


def game_line(row: dict, result: GameResult, rules: Rules) -> str:
    """A finished game as cutechess prints one: `Finished game 12 (easy vs hard): hard wins
    {easy 55, hard 107, 5 hands}`, the game by its stored id (as `show --game` takes it), its
    result as scored, each side's score by its entrant; a forfeit's reason after its winner, as
    cutechess gives one, and the scores as the board's: `easy wins by forfeit (crashy: exception
    at hand 3) {on the board crashy 107, easy 17, 14 hands, 1 fault}`."""
    names = [row[f"entrant_{seat}"] for seat in range(rules.players)]
    board = ("on the board " if result.forfeits else "") + result.board(rules, names)
    faults = sum(row[f"faults_{seat}"] for seat in range(rules.players))
    said = f", {faults} fault{'s' * (faults != 1)}" if faults else ""
    return (f"Finished game {row['game_id']} ({row['pairing']}): {result.words(rules, names)} "
            f"{{{board}, {row['hands']} hands{said}}}")


class ProgressBar:
    """One bar in the parent counting games, with the current leader (off when stderr is not a
    terminal or when asked to be silent), and the standings when they are due. A run a test
    may end early (`open_ended`) counts up to its `total` without a bar to fill: its end is the
    test's, never a guess from the most it may play."""

    def __init__(self, total: int, done: int, silent: bool,
                 standings: Standings | None = None, faults: FaultWatch | None = None,
                 game_lines: bool = False, open_ended: bool = False) -> None:
        self.bar = tqdm(total=None if open_ended else total, initial=done, file=sys.stderr,
                        unit=" games" if open_ended else "game",
                        desc=f"up to {total}" if open_ended else None,
                        disable=silent or not sys.stderr.isatty(), dynamic_ncols=True)
        self.total, self.done = total, done
        self.standings = standings or Standings()
        self.faults = faults or FaultWatch()
        self.game_lines = game_lines  # a line on stdout for each finished game

    def __call__(self, rows: list[dict], results: list[GameResult], tally: Tally,
                 note: str = "") -> None:
        """Count the games of `rows` (their games-table rows, and `results`); `note` follows
        the leader."""
        for row, result in zip(rows, results, strict=True) if self.game_lines else ():
            tqdm.write(game_line(row, result, tally.rules))
        self.bar.update(len(rows))
        self.done += len(rows)
        leader = tally.leader()
        if leader:
            self.bar.set_postfix_str(f"leader {leader[0]} {leader[1]:.1%}{note}", refresh=False)
        if self.standings.due(self.done):
            self.standings.show(tally.standings(self.done, self.total))
            self.standings.last_games, self.standings.last_time = self.done, time.monotonic()
        self.faults.check(tally)

    def close(self) -> None:
        self.bar.close()
