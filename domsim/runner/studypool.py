"""The local workers of a study (domsim.studies): one pool of forked workers for all the study's
sessions, where each session would otherwise fork its own. A worker keeps its bot processes from
batch to batch (domsim.runner.worker), so a worker that outlives a session keeps them for the
next: a bot starts once a study, not once a session (an SPSA tune plays a session a round).

What a worker keeps for a run is let go at the first batch of the next one, which then plays as
on fresh workers: what the worker learnt of the bots (the specs that hung, the commands asked one
move at a time, the log allowance spent) is forgotten, and its bots of the commands the run does
not play, or that it had learnt to ask one move at a time, are killed. The workers log through a
queue of their own, to the log of the session being played (console.LastingWorkersLog). A pool
that breaks or is killed (a worker died, a second Ctrl-C) is replaced by fresh workers when next
asked for; the study's end, however it ends, shuts the workers down."""

from __future__ import annotations

import concurrent.futures
import itertools
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from contextlib import contextmanager

from ..seat.command import bot_command
from ..seat.logs import LogBudget
from ..seat.process import forget_asked_alone
from ..seat.seats import forget_hung_games
from .console import LastingWorkersLog, close_worker_logging
from .local import LocalPool, local_executor
from .worker import Batch, BatchResult, run_confinement, worker_bots


class StudyPool:
    """`workers` local worker processes forked at the study's first batch and kept for all its
    sessions, each of which plays on them through an executor of its own (`serving`); `close`
    shuts them down. A session of fewer games than workers leaves some idle."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: LocalPool | None = None
        self._log: LastingWorkersLog | None = None
        self._sessions = itertools.count(1)

    @contextmanager
    def serving(self) -> Iterator[Callable[[], Executor]]:
        """What makes a session's executor; when the session ends, what its workers logged is
        in its log."""
        try:
            yield self.executor
        finally:
            if self._log is not None:
                close_worker_logging(list(self._log.retired))  # broken pools' logs
                self._log.retired = ()
                self._log.drain()

    def executor(self) -> SessionExecutor:
        """A session's executor on the study's workers, forked anew if there are none (the
        first session, or the pool broke or was killed)."""
        if self._pool is None or self._pool.ended:
            retired = () if self._log is None else (self._log, *self._log.retired)
            self._log = LastingWorkersLog(retired)
            self._pool = local_executor(self.workers, log=self._log)
        return SessionExecutor(self._pool, next(self._sessions))

    def close(self) -> None:
        """Shut the workers down (idle: every session has waited for its batches), their bots
        with them, and close their log."""
        if self._pool is not None and not self._pool.ended:
            self._pool.shutdown(wait=True)
        if self._log is not None:
            close_worker_logging([self._log])


class SessionExecutor(Executor):
    """One session's executor on a StudyPool's workers: its batches go there marked with the
    session's number; shutting it down waits for (or cancels) its own batches and leaves the
    workers be; killing it kills them, as the stream does when one died."""

    def __init__(self, pool: LocalPool, session: int) -> None:
        self.pool, self.session = pool, session
        self._unfinished: set[Future] = set()
        self._lock = threading.Lock()

    def submit(self, fn: Callable[[Batch], BatchResult], batch: Batch, /) -> Future:
        future = self.pool.submit(_play_in_session, self.session, fn, batch)
        with self._lock:
            self._unfinished.add(future)
        future.add_done_callback(self._finished)
        return future

    def _finished(self, future: Future) -> None:
        with self._lock:
            self._unfinished.discard(future)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            unfinished = list(self._unfinished)
        if cancel_futures:
            for future in unfinished:
                future.cancel()
        if wait:
            concurrent.futures.wait(unfinished)

    def kill_workers(self) -> None:
        self.pool.kill_workers()


_session = 0  # in a worker: the session whose batches it plays


def _play_in_session(session: int, play: Callable[[Batch], BatchResult],
                     batch: Batch) -> BatchResult:
    """In a worker: `play(batch)`, the worker first readied for the batch's run if it is a new
    one (module docstring)."""
    global _session
    if session != _session:
        _session = session
        let_earlier_runs_go(batch)
    return play(batch)


def let_earlier_runs_go(batch: Batch) -> None:
    """Forget what the worker learnt of the bots in earlier runs (their lanes among it), and
    kill its bots of the commands `batch`'s run does not play, and of those it had learnt to
    ask one move at a time (a fresh worker's would ask several)."""
    config = batch.config
    commands = {bot_command(spec, config.isolate) for entrant in batch.entrants
                for spec in entrant.members}
    asked_alone = forget_asked_alone()
    worker_bots(run_confinement(config)).keep_for_run(commands - asked_alone)
    forget_hung_games()
    LogBudget.new_run()
