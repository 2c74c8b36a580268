"""The move alarm: interrupting an in-process strategy call that overruns its time limit.

Where possible (Unix, the main thread, SIGALRM unused by anyone else: e.g. a worker process of
a pool), SIGALRM raises `MoveTimeout` inside a call whose time is up, so even a strategy that
would never return is stopped. `MoveTimeout` derives from BaseException so a strategy's
`except Exception` does not swallow it.

The signal is sent to the main thread itself (`pthread_kill`) by one clock thread per process.
A process-wide timer (`setitimer`) would not do: its signal goes to any thread that does not
block it, such as a BLAS thread numpy started before domsim was imported, and a signal handled
on another thread does not wake the main thread from the strategy's `time.sleep`."""

from __future__ import annotations

import math
import os
import signal
import threading
import time


class MoveTimeout(BaseException):
    """Raised inside a strategy that overran its time limit."""


class MoveAlarm:
    """A context that installs the SIGALRM handler for one game when it can (module docstring);
    `arm(now)` before a strategy call, `disarm()` after: attribute writes, no system call.
    Inactive, both do nothing. It also turns a real SIGINT during the game into
    `interrupted`, so that a strategy's own KeyboardInterrupt is told from the user's."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.active = False
        self.armed = False
        self.deadline = 0.0
        self.calls = 0  # calls armed so far: the clock rings once per call
        self.interrupted = False  # a real SIGINT arrived during the game
        self._watching_sigint = False

    def __enter__(self) -> MoveAlarm:
        main = threading.current_thread() is threading.main_thread()
        self._watching_sigint = main and signal.getsignal(signal.SIGINT) is \
            signal.default_int_handler
        if self._watching_sigint:
            signal.signal(signal.SIGINT, self._sigint)
        self.active = (self.seconds is not None and main and hasattr(signal, "pthread_kill")
                       and signal.getsignal(signal.SIGALRM) == signal.SIG_DFL)
        if self.active:
            signal.signal(signal.SIGALRM, self._ring)
            CLOCK.watch(self)
        return self

    def __exit__(self, *exc_info) -> None:
        if self._watching_sigint:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        if self.active:
            self.armed = False
            CLOCK.unwatch()  # no signal is sent after this: SIG_DFL would end the process
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
            self.active = False

    def _sigint(self, signum, frame) -> None:
        self.interrupted = True
        raise KeyboardInterrupt

    def _ring(self, signum, frame) -> None:
        # A ring that finds no call over its time (between calls, or the clock a little early
        # for a newer call) must not hit domsim's own code: it is dropped.
        if self.armed and time.perf_counter() >= self.deadline:
            self.armed = False
            raise MoveTimeout

    def arm(self, now: float, seconds: float | None = None) -> None:
        """Before a call starting at `now` (time.perf_counter()) that may take `seconds` (None:
        the alarm's own; a shorter one, such as what is left on a clock, may ring late: the
        clock thread sleeps up to the alarm's own seconds, and the call is timed anyway)."""
        if self.active:
            self.deadline = now + (self.seconds if seconds is None else
                                   min(seconds, self.seconds))
            self.calls += 1
            self.armed = True

    def disarm(self) -> None:
        self.armed = False


class AlarmClock:
    """The thread that rings the watched alarm's main thread when its armed call's time is up.

    It never has to be woken for a call or a game (waking it costs the game's thread the GIL,
    every few actions, for as long as it waits for it): between rings it sleeps until the
    armed call's deadline, or for one time limit (`period`), and a call armed meanwhile is due
    later than that. Only an alarm with a shorter limit than the last wakes it."""

    def __init__(self) -> None:
        self._reset()
        os.register_at_fork(after_in_child=self._reset)  # the thread does not survive a fork

    def _reset(self) -> None:
        self.alarm: MoveAlarm | None = None
        self.period = math.inf  # the longest the clock sleeps
        self.lock = threading.Lock()  # held while ringing, so that unwatch waits for a ring
        self.changed = threading.Event()
        self.thread: threading.Thread | None = None

    def watch(self, alarm: MoveAlarm) -> None:
        with self.lock:
            self.alarm = alarm
        shorter, self.period = alarm.seconds < self.period, alarm.seconds
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, args=(threading.main_thread().ident,),
                                           name="domsim-move-alarm", daemon=True)
            start_without_signals(self.thread)
        elif shorter:
            self.changed.set()

    def unwatch(self) -> None:
        with self.lock:
            self.alarm = None

    def _run(self, main: int) -> None:
        rung = None  # the (alarm, call) last rung for: a call is rung once
        while True:
            alarm, wait = self.alarm, self.period
            if alarm is not None and alarm.armed and (alarm, alarm.calls) != rung:
                call, left = alarm.calls, alarm.deadline - time.perf_counter()
                if left <= 0:
                    rung = alarm, call
                    with self.lock:
                        if self.alarm is alarm:
                            signal.pthread_kill(main, signal.SIGALRM)
                    continue
                wait = min(wait, left)
            self.changed.wait(None if wait == math.inf else wait)
            self.changed.clear()


CLOCK = AlarmClock()


def start_without_signals(thread: threading.Thread) -> None:
    """Start `thread` with SIGALRM and SIGINT blocked in it: the kernel then delivers them to
    the thread running the game, whose alarm must interrupt a strategy's sleep
    (domsim.seat.seats)."""
    if not hasattr(signal, "pthread_sigmask"):
        thread.start()
        return
    saved = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGINT})
    try:
        thread.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, saved)
