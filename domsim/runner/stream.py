"""Batches in flight on an executor (local worker processes or Dask), their results handed on in
the order they were made (game-id order but where a run plays a pairing a batch); a stop lets
the running batches finish, and a worker that dies has its batches played again, isolated."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace

from .signals import stops_ignored
from .worker import Batch, BatchResult, play_batch

log = logging.getLogger("domsim.runner")


class Abandoned(KeyboardInterrupt):
    """A second stop signal while the running batches finished: they were given up."""


def stream(executor_factory: Callable[[], Executor], jobs: Iterator[Batch], window: int,
           keep: Callable[[BatchResult], None]) -> bool:
    """Keep `window` batches in flight and hand results to `keep` in submission order;
    on any exception, let running batches finish and keep those that did before re-raising (a
    stop signal meanwhile gives them up: Abandoned). Returns whether a worker died (see below).

    When a worker process dies (a strategy's os._exit, a signal, a fork that went wrong), the
    batches not finished are played again on a fresh executor, and so is the rest of the run,
    with every strategy but the built-in levels in its own process: there, what killed the
    worker only ends a bot process, a fault of its seat. Nothing is lost or played twice."""
    batches = _Batches(executor_factory)
    try:
        for job in jobs:
            batches.submit(job)
            if len(batches.pending) >= window:
                batches.keep_first(keep)
        while batches.pending:
            batches.keep_first(keep)
    except BrokenProcessPool:
        batches.abandon(keep)  # the running batches failed with the pool: nothing to wait for
        raise
    except KeyboardInterrupt:
        log.warning("stopping: the running games finish and are written (stop again to give "
                    "them up)")
        batches.stop(keep)
        raise
    except BaseException:
        batches.stop(keep)
        raise
    batches.executor.shutdown(wait=True)
    return batches.rescued


class _Batches:
    """The batches in flight on an executor, oldest first (a job and its future)."""

    def __init__(self, executor_factory: Callable[[], Executor]) -> None:
        self.executor_factory = executor_factory
        self.executor = executor_factory()
        self.pending: deque[tuple[Batch, Future | None]] = deque()
        self.rescued = False  # a worker died: the rest of the run is isolated

    def submit(self, job: Batch) -> None:
        job = isolated(job) if self.rescued else job
        try:
            self.pending.append((job, self.executor.submit(play_batch, job)))
        except BrokenProcessPool:
            self.pending.append((job, None))
            self._rescue(job)

    def keep_first(self, keep: Callable[[BatchResult], None]) -> None:
        job, future = self.pending[0]
        try:
            result = future.result()
        except BrokenProcessPool:
            self._rescue(job)
            return
        self.pending.popleft()
        keep(result)

    def _rescue(self, job: Batch) -> None:
        """After a worker died: resubmit, isolated, every batch that did not finish (already
        isolated: re-raise the BrokenProcessPool being handled)."""
        if job.config.isolate is not False:
            raise  # the BrokenProcessPool the caller's except clause is handling
        log.warning("a worker process died while playing games %d-%d: they, the other "
                    "unfinished games and the rest of the run are played with every strategy "
                    "but the built-in levels in its own process", job.game_ids[0],
                    job.game_ids[-1])
        shut_down_now(self.executor)  # what the other workers play failed with the pool
        self.executor = self.executor_factory()
        self.rescued = True
        for index, (old_job, future) in enumerate(self.pending):
            if future is None or not (future.done() and future.exception() is None):
                new_job = isolated(old_job)
                self.pending[index] = new_job, self.executor.submit(play_batch, new_job)

    def stop(self, keep: Callable[[BatchResult], None]) -> None:
        """Let running batches finish and keep those that did, in order; a stop signal meanwhile
        gives up those still running (Abandoned)."""
        try:
            for _, future in self.pending:
                if future is not None:
                    future.cancel()
            self.executor.shutdown(wait=True, cancel_futures=True)
        except KeyboardInterrupt:
            self.abandon(keep)
            raise Abandoned from None
        with stops_ignored():
            self.keep_finished(keep)

    def abandon(self, keep: Callable[[BatchResult], None]) -> None:
        """End the executor at once, losing what it was playing, and keep what had finished."""
        with stops_ignored():
            shut_down_now(self.executor)
            self.keep_finished(keep)

    def keep_finished(self, keep: Callable[[BatchResult], None]) -> None:
        for _, future in self.pending:
            if future is not None and future.done() and not future.cancelled() \
                    and future.exception() is None:
                keep(future.result())


def shut_down_now(executor: Executor) -> None:
    """Shut `executor` down without waiting for what it runs: its workers killed where it has
    them (the local pool's), its futures cancelled (Dask's)."""
    kill = getattr(executor, "kill_workers", None)
    if kill is not None:
        kill()
    else:
        executor.shutdown(wait=False, cancel_futures=True)


def isolated(job: Batch) -> Batch:
    return replace(job, config=replace(job.config, isolate=True))
