"""The local backend: a process pool of forked workers.

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
from concurrent.futures import ProcessPoolExecutor

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


class LocalPool(ProcessPoolExecutor):
    """The pool of forked workers, which can be ended at once."""

    def kill_workers(self) -> None:
        """SIGKILL every worker (they ignore the stop signals) and shut down without waiting, as
        Python 3.14's ProcessPoolExecutor.kill_workers does."""
        for process in list((self._processes or {}).values()):
            process.kill()
        self.shutdown(wait=False, cancel_futures=True)

    @property
    def ended(self) -> bool:
        """Whether it takes no more work: a worker died (it is broken) or it was shut down."""
        return bool(self._broken) or self._shutdown_thread


def local_executor(workers: int, games: int | None = None,
                   log: LastingWorkersLog | None = None) -> LocalPool:
    """A pool of `workers` processes, but never more than the `games` to play: a fork pool starts
    every worker at once, so `--workers 100000000` for two games would fork a hundred million.
    Its workers log through a queue of the pool's own (renew_worker_logging), or through `log`,
    for workers that outlive the session."""
    workers = max(1, min(workers, games)) if games is not None else workers
    if log is None:
        renew_worker_logging()
    context = multiprocessing.get_context("fork")
    return LocalPool(max_workers=workers, mp_context=context, initializer=_start_worker,
                     initargs=(os.getpid(), context.Value("i", 0), log))
