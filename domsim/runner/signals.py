"""What the stop signals do to a session: SIGINT (Ctrl-C), SIGTERM and SIGHUP all interrupt it
the same way (running batches finish and are written, the run stays resumable; a second one
meanwhile gives up the running batches: domsim.runner.stream), and none may break off
the writing of the result files once it has begun.

Handlers can only be set from the main thread; elsewhere (a session run in a thread through the
Python API) the process's own handlers stay as they are."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextmanager
def stops_handled_by(handler: Callable | int) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = [signal.signal(stop, handler) for stop in STOPS]
    try:
        yield
    finally:
        for stop, previous in zip(STOPS, saved, strict=True):
            signal.signal(stop, previous)


def stops_interrupt():
    """Every stop signal raises KeyboardInterrupt, as Ctrl-C does."""
    return stops_handled_by(signal.default_int_handler)


def stops_ignored():
    """Stop signals are ignored: for the few seconds that write the result files, so that a
    run is never left half written (its parts removed before the manifest says so, say)."""
    return stops_handled_by(signal.SIG_IGN)


@contextmanager
def stops_deferred() -> Iterator[None]:
    """A stop signal waits for the block to end, then interrupts as Ctrl-C does: what the block
    counts and what it writes stay the same."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # within stops_ignored: so be it
        yield
        return
    caught: list[int] = []
    with stops_handled_by(lambda signum, frame: caught.append(signum)):
        yield
    if caught:
        raise KeyboardInterrupt
