"""A seat at the table under R-SEAT-FAULT: the strategy sitting there, its time limit, its faults.

The time limit is enforced two ways. Portably, every call is timed and a move that comes back
late is discarded. Where possible (Unix, the main thread, SIGALRM unused by anyone else: e.g. a
worker process of a pool), a one-shot `setitimer` alarm also interrupts a strategy that would
never return, by raising `MoveTimeout` inside it; `MoveTimeout` derives from BaseException so a
strategy's `except Exception` does not swallow it. Elsewhere (threads, other platforms) a
strategy that never returns hangs its game: nothing in-process can stop it."""

from __future__ import annotations

import logging
import random
import reprlib
import signal
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from .rules import Rules
from .stats import time_histogram
from .strategy import Strategy, StrategyFactory, one_line
from .view import Move, PlayerView

log = logging.getLogger("domsim.faults")

#: Fault kinds, as counted in the record's `faults` entries, and as logged.
TIMEOUT, EXCEPTION, ILLEGAL = "timeouts", "errors", "illegal"
KIND_WORDS = {TIMEOUT: "timeout", EXCEPTION: "exception", ILLEGAL: "illegal move"}

_short = reprlib.Repr()  # for whatever a strategy returns: bounded, and safe if repr() fails
_short.maxother = _short.maxstring = 100


class MoveTimeout(BaseException):
    """Raised inside a strategy that overran its time limit."""


class MoveAlarm:
    """A context that installs the SIGALRM handler for one game when it can (module docstring);
    `arm(now)` before a strategy call, `disarm()` after. Inactive, both do nothing.

    The timer is not set and cleared around every call (two system calls per decision): an
    alarm left pending by an earlier call that rings before the current call's time is up sets
    itself again for the time left, and one that rings between calls is dropped. So while a call
    runs an alarm is always pending, due at the latest when the call's time is up."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.active = False
        self._armed = False
        self._pending = False
        self._deadline = 0.0

    def __enter__(self) -> MoveAlarm:
        self.active = (
            self.seconds is not None
            and hasattr(signal, "setitimer")
            and threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGALRM) == signal.SIG_DFL
        )
        if self.active:
            signal.signal(signal.SIGALRM, self._ring)
        return self

    def __exit__(self, *exc_info) -> None:
        if self.active:
            self._armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            self._pending = False
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
            self.active = False

    def _ring(self, signum, frame) -> None:
        # An alarm that rings between calls must not hit domsim's own code: it is dropped.
        self._pending = False
        if not self._armed:
            return
        left = self._deadline - time.perf_counter()
        if left > 0:
            self._set(left)
            return
        self._armed = False
        raise MoveTimeout

    def _set(self, seconds: float) -> None:
        self._pending = True
        signal.setitimer(signal.ITIMER_REAL, seconds)

    def arm(self, now: float) -> None:
        """Before a call starting at `now` (time.perf_counter())."""
        if self.active:
            self._deadline = now + self.seconds
            self._armed = True
            if not self._pending:
                self._set(self.seconds)

    def disarm(self) -> None:
        self._armed = False


@dataclass
class SeatFaults:
    """What went wrong at one seat in one game (the record's `faults` entry)."""

    timeouts: int = 0
    errors: int = 0
    illegal: int = 0
    replaced: bool = False
    first: str | None = None


class Seat:
    """One seat's strategy, guarded: `choose` always returns one of the view's legal moves.

    A late move is made by the stand-in bot (the seat keeps its strategy); an exception or an
    illegal move, or a constructor or `start_game` that fails, hands the seat to the stand-in for
    the rest of the game. Each fault is counted, and the first of each kind is logged at WARNING
    on `domsim.faults` with its traceback."""

    def __init__(self, seat: int, factory: StrategyFactory, rng: random.Random,
                 stand_in: Callable[[], Strategy], alarm: MoveAlarm, label: str) -> None:
        self.seat = seat
        self.limit = alarm.seconds
        self.alarm = alarm
        self.label = label
        self.faults = SeatFaults()
        self.decision_times: list[float] = []
        self._make_stand_in = stand_in
        self._stand_in: Strategy | None = None
        self._rules: Rules | None = None
        self.strategy: Strategy | None = None
        built = self._call(factory, rng)
        if built is not _FAILED:
            self.strategy = built

    def start_game(self, rules: Rules) -> None:
        self._rules = rules
        if self.strategy is not None:
            self._call(self.strategy.start_game, self.seat, rules)

    def end_game(self, scores: tuple[int, ...], winners: tuple[int, ...]) -> None:
        if self.strategy is not None:
            self._call(self.strategy.end_game, scores, winners, drop=False)

    def choose(self, view: PlayerView) -> Move:
        if self.strategy is None:
            return self.stand_in.choose(view)
        choice = self._call(self.strategy.choose, view, timed=True)
        if choice is _FAILED:
            return self.stand_in.choose(view)
        move = _as_legal_move(choice, view.legal_moves)
        if move is None:
            self._fault(ILLEGAL, f"returned {_short.repr(choice)}, not one of its legal moves")
            return self.stand_in.choose(view)
        return move

    @property
    def stand_in(self) -> Strategy:
        """The built-in bot that plays the seat's moves when its strategy cannot."""
        if self._stand_in is None:
            self._stand_in = self._make_stand_in()
            self._stand_in.start_game(self.seat, self._rules)
        return self._stand_in

    def _call(self, method: Callable, *args, timed: bool = False, drop: bool = True):
        """One strategy call under the time limit; on a fault, record it and return _FAILED.

        A late `choose` (`timed`) keeps the strategy; any other fault drops it if `drop`. A
        timed call's duration, whatever its outcome, joins `decision_times`."""
        started = time.perf_counter()
        try:
            try:
                self.alarm.arm(started)
                result = method(*args)
            finally:
                self.alarm.disarm()
                elapsed = time.perf_counter() - started
                if timed:
                    self.decision_times.append(elapsed)
        except MoveTimeout:
            self._fault(TIMEOUT, f"interrupted at the {self.limit:g} s limit",
                        drop=drop and not timed, exc_info=True)
            return _FAILED
        except (Exception, SystemExit) as exc:
            self._fault(EXCEPTION, one_line(exc), drop=drop, exc_info=exc)
            return _FAILED
        if timed and self.limit is not None and elapsed > self.limit:
            self._fault(TIMEOUT, f"took {elapsed:.3f} s, over the {self.limit:g} s limit",
                        drop=False)
            return _FAILED
        return result

    def _fault(self, kind: str, message: str, drop: bool = True, exc_info=None) -> None:
        count = getattr(self.faults, kind)
        setattr(self.faults, kind, count + 1)
        if self.faults.first is None:
            self.faults.first = message
        if drop:
            self.strategy = None
            self.faults.replaced = True
            outcome = "a bot takes over the seat for the rest of the game"
        else:
            outcome = "its move is made for it" if kind == TIMEOUT else "the game goes on"
        if count == 0:
            log.warning("%s: %s: %s; %s", self.label, KIND_WORDS[kind], message, outcome,
                        exc_info=exc_info)

    def report(self) -> tuple[dict, dict]:
        """(faults, timing) for the game record; times in milliseconds."""
        times = self.decision_times
        timing = {
            "decisions": len(times),
            "p50_ms": round(statistics.median(times) * 1000, 3) if times else None,
            "max_ms": round(max(times) * 1000, 3) if times else None,
            "histogram": {str(k): n for k, n in time_histogram(t * 1000 for t in times).items()},
        }
        return dict(vars(self.faults)), timing  # asdict() would deep-copy: slow, per game


_FAILED = object()  # what `_call` returns after a fault


def _as_legal_move(choice: object, legal_moves: tuple[Move, ...]) -> Move | None:
    """The legal Move equal to `choice`, or None. Only a Move or a plain tuple can qualify; any
    error while comparing a strange object counts as an illegal move."""
    if type(choice) not in (Move, tuple):
        return None
    try:
        return legal_moves[legal_moves.index(choice)]
    except Exception:
        return None
