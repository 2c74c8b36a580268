"""The local backend: a process pool of forked workers.

`concurrent.futures.ProcessPoolExecutor` with an explicit fork context (never the platform
default: multiprocessing-logging needs fork, and Python 3.14 defaults to forkserver) rather than
`multiprocessing.Pool`, because a worker killed outright breaks the executor (BrokenProcessPool)
instead of leaving its batch pending forever. Workers ignore SIGINT: Ctrl-C reaches the parent,
which lets running batches finish and writes them. Workers run the seat watchdog: a strategy
call that hangs past its limit by far kills its worker (domsim.seat.Watchdog)."""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor

from ..seat import enable_watchdog


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _start_worker() -> None:
    # What the parent left for the cyclic collector (a notebook's closed Dask client, say) is
    # never collected here: its finalizer would wait on threads a forked child does not have,
    # and the watchdog would then kill the worker.
    gc.freeze()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    enable_watchdog()


def local_executor(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                               initializer=_start_worker)
