"""The local backend: a process pool of forked workers (for a run whose batches have homes, one
pool a worker: `LocalPool`).

`concurrent.futures.ProcessPoolExecutor` with an explicit fork context (never the platform
default: multiprocessing-logging needs fork, and Python 3.14 defaults to forkserver) rather than
`multiprocessing.Pool`, because a worker killed outright breaks the executor (BrokenProcessPool)
instead of leaving its batch pending forever. Workers ignore SIGINT, SIGTERM and SIGHUP, which a
terminal or `kill` may send the whole process group: the parent gets them too and lets running
batches finish and writes them. Workers die with the parent: on Linux the kernel kills them when
it goes (PR_SET_PDEATHSIG), however it goes, so none plays on unseen. Workers run the seat
watchdog: a strategy call that hangs past its limit by far kills its worker
(domsim.seat.watchdog). A pool ends at once when told to (`kill_workers`): what they were playing
is lost, to be played on resume. A study keeps one pool for all its sessions
(domsim.runner.studypool)."""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import multiprocessing.sharedctypes
import os
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor

from ..seat.process import keep_bots_on
from ..seat.watchdog import enable_watchdog
from .console import LastingWorkersLog, renew_worker_logging
from .signals import STOPS

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _start_worker(parent: int, started: multiprocessing.sharedctypes.Synchronized,
                  log: LastingWorkersLog | None) -> None:
    # What the parent left for the cyclic collector (a notebook's closed Dask client, say) is
    # never collected here: its finalizer would wait on threads a forked child does not have,
    # and the watchdog would then kill the worker.
    gc.freeze()
    for stop in STOPS:
        signal.signal(stop, signal.SIG_IGN)
    die_with_parent(parent)
    if log is not None:
        log.take_over()
    enable_watchdog()
    with started.get_lock():  # the workers' CPUs in turn: each keeps to its own with its bots
        index = started.value
        started.value += 1
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    keep_bots_on(cpus[index % len(cpus)] if cpus else None)


def die_with_parent(parent: int) -> None:
    """Have the kernel SIGKILL this process when its parent ends (Linux; elsewhere a no-op)."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        return  # not allowed here (a sandbox, say): the worker lives as before
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


#: Batches more than the least busy worker's a batch's home worker may have waiting before the
#: batch goes to the least busy instead (whose bots for that home then start).
SPARE = 2


class LocalPool(Executor):
    """The forked workers, which can be ended at once. With `homes`, each worker is a pool of
    its own and the batches of one home (Batch.home: a pairing's) go to one worker, which holds
    that pairing's bots, unless it has `SPARE` more batches waiting than the least busy; the
    other batches go to the least busy. A worker that dies breaks its pool (BrokenProcessPool),
    and the stream then kills the others (`kill_workers`), as it does one pool's."""

    def __init__(self, max_workers: int, homes: bool = False, **settings) -> None:
        self._pools = [ProcessPoolExecutor(max_workers=1, **settings)
                       for _ in range(max_workers)] if homes else \
            [ProcessPoolExecutor(max_workers=max_workers, **settings)]
        self._waiting = [0] * len(self._pools)  # batches given each pool, not finished
        self._lock = threading.Lock()

    def submit(self, fn: Callable, /, *args, **kwargs) -> Future:
        # The batch is the last argument (domsim.runner.stream, .studypool).
        index = self._pool_for(getattr(args[-1] if args else None, "home", None))
        future = self._pools[index].submit(fn, *args, **kwargs)
        future.add_done_callback(lambda _: self._finished(index))
        return future

    def _pool_for(self, home: int | None) -> int:
        with self._lock:
            least = min(range(len(self._pools)), key=self._waiting.__getitem__)
            own = least if home is None else home % len(self._pools)
            chosen = own if self._waiting[own] <= self._waiting[least] + SPARE else least
            self._waiting[chosen] += 1
            return chosen

    def _finished(self, index: int) -> None:
        with self._lock:
            self._waiting[index] -= 1

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        for pool in self._pools:
            pool.shutdown(wait=wait, cancel_futures=cancel_futures)

    def kill_workers(self) -> None:
        """SIGKILL every worker (they ignore the stop signals) and shut down without waiting, as
        Python 3.14's ProcessPoolExecutor.kill_workers does."""
        for pool in self._pools:
            for process in list((pool._processes or {}).values()):
                process.kill()
            pool.shutdown(wait=False, cancel_futures=True)

    @property
    def ended(self) -> bool:
        """Whether it takes no more work: a worker died (it is broken) or it was shut down."""
        return any(bool(pool._broken) or pool._shutdown_thread for pool in self._pools)


def local_executor(workers: int, games: int | None = None,
                   log: LastingWorkersLog | None = None, homes: bool = False) -> LocalPool:
    """A pool of `workers` processes, but never more than the `games` to play: a fork pool starts
    every worker at once, so `--workers 100000000` for two games would fork a hundred million.
    Its workers log through a queue of the pool's own (renew_worker_logging), or through `log`,
    for workers that outlive the session. With `homes`, a worker for each batch's home (a run
    played a pairing a batch: domsim.runner.play.by_pairing)."""
    workers = max(1, min(workers, games)) if games is not None else workers
    if log is None:
        renew_worker_logging()
    context = multiprocessing.get_context("fork")
    return LocalPool(max_workers=workers, homes=homes, mp_context=context,
                     initializer=_start_worker,
                     initargs=(os.getpid(), context.Value("i", 0), log))
