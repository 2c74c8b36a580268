"""A seat at the table under R-SEAT-FAULT: the strategy sitting there, in process (`Seat`) or
in its own process over the seat protocol (`BotSeat`, docs/seat-protocol.md), its time limit and
its faults.

A bot in its own process is timed from outside: past the limit its move is made for it, and one
that has not answered `GRACE_SECONDS` later is killed and its seat handed to the stand-in for the
rest of the game (a fresh process plays its next game). In process the guarantees are weaker
(docs/BOTS.md, "What in-process mode guarantees, and what it does not").

In process the time limit is enforced two ways. Portably, every call is timed and a move that comes
back late is discarded. Where possible the move alarm (domsim.seat.alarm) also interrupts a strategy
that would never return, by raising `MoveTimeout` inside it. Elsewhere (threads, other platforms)
a strategy that never returns hangs its game: nothing in-process can stop it. Whatever a strategy
raises, even SystemExit, KeyboardInterrupt or GeneratorExit, is a fault of its seat; a real Ctrl-C
(SIGINT seen by the game's thread) still stops the game. A process forked inside a strategy call
exits at once. After `MAX_CONSECUTIVE_TIMEOUTS` late moves in a row the seat is handed to the
stand-in, so a hung strategy costs seconds, not hours; in a pool worker the `Watchdog` ends a
call that not even the alarm can stop."""

from __future__ import annotations

import logging
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ..clock import GameClock
from ..engine import HandResult, State
from ..limits import GRACE_SECONDS
from ..printable import printable
from ..record import FAULT_KINDS
from ..rules import Rules, private_copy
from ..seeding import seat_seed
from ..spec import Spec
from ..strategy import Strategy, StrategyFactory, one_line, short_repr
from ..timing import time_histogram
from ..view import Move, PlayerView, ViewBuilder
from .alarm import MoveAlarm, MoveTimeout
from .command import BotCommand
from .pool import BotPool
from .process import STARTUP_SECONDS, Ask, BotFault, BotTimeout
from .protocol import ViewEncoder, game_message, game_over_message, hand_message, move_of
from .tables import answer
from .watchdog import watchdog

log = logging.getLogger("domsim.faults")
#: The attribute of a fault's log record that says whose fault of which kind in which game:
#: (spec, kind, game), for the terminal's digest of faults (domsim.runner.console).
FAULT = "fault"

#: Fault kinds, as counted in the record's `faults` entries, and as logged.
TIMEOUT, EXCEPTION, ILLEGAL = tuple(FAULT_KINDS)

#: Late moves in a row after which the seat is handed to the stand-in for the rest of the game.
MAX_CONSECUTIVE_TIMEOUTS = 3
#: Games of one worker process in a run in which a spec's seat was handed over for timing out,
#: after which its later games there start with the stand-in (a hung bot costs seconds, not
#: hours).
MAX_HUNG_GAMES = 3
#: The exit status of a process forked inside an in-process strategy call (it exits at once).
FORKED_IN_STRATEGY = 86


@dataclass
class SeatFaults:
    """What went wrong at one seat in one game (the record's `faults` entry)."""

    timeouts: int = 0
    errors: int = 0
    illegal: int = 0
    replaced: bool = False
    first: str | None = None
    # The first fault's kind in words (FAULT_KINDS) and the hand it came in, from 1 (0: before
    # the first hand); a record holds them only once there is a fault.
    first_kind: str | None = None
    first_hand: int | None = None


class GuardedSeat:
    """What every seat shares: its faults and decision times, and the stand-in bot that plays
    for it. `playing` turns False when the seat is handed to the stand-in for the game."""

    def __init__(self, seat: int, spec: Spec, stand_in: Callable[[], Strategy],
                 limit: float | None, game: str, clock: GameClock | None = None) -> None:
        self.seat = seat
        self.spec = spec
        self.hand = 0  # the hand in play, from 1 (0: before the first), as the game sets it
        self.move_limit = limit
        self.clock = clock
        self.game = game  # as the log names it: `game 12` (its id in the run), else by seed
        self.label = f"{game}, seat {seat} ({spec.label})"
        self.faults = SeatFaults()
        self.decision_times: list[float] = []
        self.playing = True
        self._late_in_a_row = 0
        self._make_stand_in = stand_in
        self._stand_in: Strategy | None = None
        self._rules: Rules | None = None
        #: The moves the stand-in made, by (hand number, place in the hand's actions): the fault
        #: kind that handed it the move, or "" when the seat was already handed over.
        self.stand_in_moves: dict[tuple[int, int], str] = {}
        self._fault_unmarked: str | None = None
        if _hung_games[spec] >= MAX_HUNG_GAMES:
            self._fault(TIMEOUT, f"timed out in {MAX_HUNG_GAMES} earlier games of this worker: "
                                 "the stand-in plays from the start")

    @property
    def limit(self) -> float | None:
        """The most the next decision may take: the per-move limit, or what is left on the
        clock if that is less (None: no limit)."""
        if self.clock is None or not self.playing:
            return self.move_limit
        left = max(self.clock.remaining, 0.0)
        return left if self.move_limit is None else min(self.move_limit, left)

    def _spent(self, elapsed: float) -> bool:
        """Count a decision's time, and charge the clock: False (a fault, the seat handed to
        the stand-in) when it ran out."""
        self.decision_times.append(elapsed)
        if self.clock is None or self.clock.spend(elapsed):
            return True
        self._fault(TIMEOUT, f"out of time on its {self.clock.control} clock")
        return False

    def end_hand(self, result: HandResult) -> None:
        """Told at the end of every hand (in process: nothing to do)."""

    def close(self) -> None:
        """After the game (in process: nothing to do)."""

    @property
    def stand_in(self) -> Strategy:
        """The built-in bot that plays the seat's moves when its strategy cannot."""
        if self._stand_in is None:
            self._stand_in = self._make_stand_in()
            self._stand_in.start_game(self.seat, self._rules)
        return self._stand_in

    def stand_in_move(self, view: PlayerView) -> Move:
        """The stand-in's move for this seat, remembered for the record."""
        self.stand_in_moves[view.hand_number, len(view.history)] = self._fault_unmarked or ""
        self._fault_unmarked = None
        return self.stand_in.choose(view)

    def _late(self, message: str, exc_info=None) -> None:
        """A move past the limit: made for the seat; too many in a row hand the seat over."""
        self._late_in_a_row += 1
        drop = self._late_in_a_row >= MAX_CONSECUTIVE_TIMEOUTS
        if drop:
            message += f" ({MAX_CONSECUTIVE_TIMEOUTS} moves in a row)"
        self._fault(TIMEOUT, message, drop=drop, exc_info=exc_info)

    def _fault(self, kind: str, message: str, drop: bool = True, exc_info=None) -> None:
        if drop and kind == TIMEOUT and self.playing:
            _hung_games[self.spec] += 1
        count = getattr(self.faults, kind)
        setattr(self.faults, kind, count + 1)
        message = printable(message, lines=False)  # a bot's words: for the record, log, terminal
        self._fault_unmarked = FAULT_KINDS[kind]
        if self.faults.first is None:
            self.faults.first = message
            self.faults.first_kind, self.faults.first_hand = FAULT_KINDS[kind], self.hand
        if drop:
            self.playing = False
            self.faults.replaced = True
            outcome = "a bot takes over the seat for the rest of the game"
        else:
            outcome = "its move is made for it" if kind == TIMEOUT else "the game goes on"
        if count == 0 or drop:
            log.warning("%s: %s: %s; %s", self.label, FAULT_KINDS[kind], message, outcome,
                        exc_info=exc_info,
                        extra={FAULT: (self.spec.label, FAULT_KINDS[kind], self.game)})

    def report(self) -> tuple[dict, dict]:
        """(faults, timing) for the game record; times in milliseconds."""
        times = self.decision_times
        timing = {
            "decisions": len(times),
            "p50_ms": round(statistics.median(times) * 1000, 3) if times else None,
            "max_ms": round(max(times) * 1000, 3) if times else None,
            "histogram": {str(k): n for k, n in time_histogram(t * 1000 for t in times).items()},
        }
        faults = dict(vars(self.faults))  # asdict() would deep-copy: slow, per game
        if faults["first_kind"] is None:  # no fault: the entry as records always held it
            del faults["first_kind"], faults["first_hand"]
        return faults, timing


class Seat(GuardedSeat):
    """One seat's strategy in process, guarded: `choose` always returns one of the view's legal
    moves.

    A late move is made by the stand-in bot (the seat keeps its strategy); an exception or an
    illegal move, or a constructor or `start_game` that fails, hands the seat to the stand-in for
    the rest of the game. Each fault is counted, and the first of each kind is logged at WARNING
    on `domsim.faults` with its traceback."""

    def __init__(self, seat: int, factory: StrategyFactory, rng: random.Random,
                 stand_in: Callable[[], Strategy], alarm: MoveAlarm, game: str,
                 clock: GameClock | None = None) -> None:
        super().__init__(seat, factory.spec, stand_in, alarm.seconds, game, clock)
        self.alarm = alarm
        self._own_rules = not factory.spec.trusted  # the built-in levels are trusted
        self.strategy: Strategy | None = None
        built = self._call(factory, rng) if self.playing else _FAILED
        if built is not _FAILED:
            self.strategy = built

    def start_game(self, rules: Rules) -> None:
        self._rules = private_copy(rules) if self._own_rules else rules
        if self.playing:
            self._call(self.strategy.start_game, self.seat, self._rules)

    def end_game(self, scores: tuple[int, ...], winners: tuple[int, ...]) -> None:
        if self.playing:
            self._call(self.strategy.end_game, scores, winners, drop=False)

    def choose(self, view: PlayerView) -> Move:
        if self._own_rules:  # changing its copy of the rules changes nothing of the referee's
            view = view.with_rules(self._rules)
        if not self.playing:
            return self.stand_in_move(view)
        if self.clock is not None:
            self.strategy.clock = self.clock.reading()
        choice = self._call(self.strategy.choose, view, timed=True)
        if choice is _FAILED:
            return self.stand_in_move(view)
        move = _as_legal_move(choice, view.legal_moves)
        if move is None:
            self._fault(ILLEGAL, f"returned {short_repr(choice)}, not one of its legal moves")
            return self.stand_in_move(view)
        return move

    def _call(self, method: Callable, *args, timed: bool = False, drop: bool = True):
        """One strategy call under the time limit; on a fault, record it and return _FAILED.

        A late `choose` (`timed`) keeps the strategy; any other fault drops it if `drop`. A
        timed call's duration, whatever its outcome, joins `decision_times`."""
        global _in_strategy
        started, limit = time.perf_counter(), self.limit
        in_time = True
        try:
            try:
                self.alarm.arm(started, limit)
                if limit is None:
                    watchdog.stop()  # no limit: nothing may end a long think
                else:
                    watchdog.allow(started, limit + GRACE_SECONDS)
                _in_strategy = True
                result = method(*args)
            finally:
                _in_strategy = False
                self.alarm.disarm()
                elapsed = time.perf_counter() - started
                if timed:
                    in_time = self._spent(elapsed)
        except MoveTimeout:
            if not in_time:
                return _FAILED
            if timed:
                self._late(f"interrupted at the {limit:g} s limit", exc_info=True)
            else:
                self._fault(TIMEOUT, f"interrupted at the {limit:g} s limit", drop=drop,
                            exc_info=True)
            return _FAILED
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt) and self.alarm.interrupted:
                raise  # a real Ctrl-C: the run stops (and resumes)
            self._fault(EXCEPTION, one_line(exc), drop=drop, exc_info=exc)
            return _FAILED
        if not in_time:
            return _FAILED
        if timed and limit is not None and elapsed > limit:
            self._late(f"took {elapsed:.3f} s, over the {limit:g} s limit")
            return _FAILED
        if timed:
            self._late_in_a_row = 0
        return result


_hung_games: Counter[Spec] = Counter()  # spec -> games handed over for timeouts, this run
_in_strategy = False  # True while an in-process strategy runs (the fork guard reads it)


def forget_hung_games() -> None:
    """A run starts with no spec counted as hung, also in a worker that played earlier runs (a
    study's: domsim.runner.studypool)."""
    _hung_games.clear()


def _exit_if_forked_in_strategy() -> None:
    if _in_strategy:
        os._exit(FORKED_IN_STRATEGY)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_exit_if_forked_in_strategy)


class BotSeat(GuardedSeat):
    """One seat played by a bot in its own process (taken from `pool`), timed from outside.

    A bot that answers late has its move made for it; one that has not answered `GRACE_SECONDS`
    past the limit, dies, or breaks the protocol is killed and the seat handed to the stand-in;
    one that answers `error` or an illegal move is handed over too (its process plays on in the
    next game)."""

    def __init__(self, seat: int, command: BotCommand, pool: BotPool, seed: int,
                 stand_in: Callable[[], Strategy], limit: float | None, game: str,
                 clock: GameClock | None = None, deal: frozenset = frozenset(),
                 lane: object = None) -> None:
        super().__init__(seat, command.spec, stand_in, limit, game, clock)
        self.pool = pool
        self.seed = seed
        # Sent with `game`: the process may have been started for a spec of other values.
        self.parameters = command.spec.parameter_values
        self.bot = None
        self.table: int | None = None  # of the bot's, when it plays several games at once
        self._request = 0
        self._views = ViewEncoder()
        if not self.playing:
            return
        watchdog.allow(time.perf_counter(), STARTUP_SECONDS + GRACE_SECONDS)
        try:
            self.bot, self.table = pool.take(command, deal, lane)
        except BotFault as exc:
            kind = TIMEOUT if isinstance(exc, BotTimeout) else EXCEPTION
            self._fault(kind, f"the bot could not start: {exc}")

    def start_game(self, rules: Rules) -> None:
        self._rules = rules
        if self.playing:
            self.bot.new_game(self.game, self.spec)
            message = game_message(rules, self.seat, seat_seed(self.seed, self.seat), self.limit,
                                   self.parameters)
            self._ask(Ask(message, "ready", STARTUP_SECONDS, table=self.table))

    def play(self, state: State, moves: list[int], views: ViewBuilder) -> list[int] | None:
        """Make this seat's move in `state` (`moves` its legal moves) and go on to the next
        choice, as `State.play_choice` does. A compact bot is asked of the state straight
        from the core: no PlayerView is built unless the stand-in moves instead."""
        view = None
        if self.playing:
            self._request += 1
            if self.bot.compact:
                request = state
            else:
                view = views.view(state, moves)
                request = self._views.encode(self._request, view)
            reply = self._timed_reply(request)
            if reply is not None:
                index = reply if type(reply) is int else reply.get("index")
                if type(index) is not int:  # a move named by its tile and end
                    if view is None:
                        view = views.view(state, moves)
                    move = move_of(reply, view.legal_moves)
                    index = None if move is None else view.legal_moves.index(move)
                if index is not None and 0 <= index < len(moves):
                    return state.play_index(index)
                self._fault(ILLEGAL, f"{_what_it_did(reply)}, not one of its legal moves")
        if view is None:
            view = views.view(state, moves)
        return state.play_choice(view, self.stand_in_move(view))

    def _timed_reply(self, request: State | bytes) -> dict | int | None:
        """The bot's `move` reply to `request` (BotProcess.answer), timed against the limit;
        None after a fault or a late answer (the stand-in moves)."""
        limit = self.limit  # before the clock is charged
        wait = None if limit is None else limit + GRACE_SECONDS
        reply, elapsed = self._ask(Ask(request, "move", wait, limit, self._request, self.table))
        if not self._spent(elapsed) or reply is None:
            return None
        if limit is not None and elapsed > limit:
            self._late(f"answered after {elapsed:.3f} s, over the {limit:g} s limit")
            return None
        self._late_in_a_row = 0
        return reply

    def end_hand(self, result: HandResult) -> None:
        # domsim's own host (compact) has no use for `hand`: a Strategy has no hand hook.
        if self.bot is not None and not self.bot.compact:
            watchdog.allow(time.perf_counter(), STARTUP_SECONDS + GRACE_SECONDS)
            try:
                self.bot.tell(hand_message(result))
            except BotFault as exc:
                self._lost(EXCEPTION, str(exc))

    def end_game(self, scores: tuple[int, ...], winners: tuple[int, ...]) -> None:
        if self.bot is not None:
            self._ask(Ask(game_over_message(scores, winners), "done", STARTUP_SECONDS,
                          table=self.table), drop=False)

    def close(self) -> None:
        if self.bot is not None:
            self.pool.give(self.bot, self.table)
            self.bot = None

    def _ask(self, ask: Ask, drop: bool = True) -> tuple[dict | int | None, float]:
        """The bot's reply and the seconds it took, the reply None after a fault (a bot that
        cannot answer is killed). With no time limit the watchdog is stopped: a bot may think
        as long as it likes."""
        started = time.perf_counter()
        if ask.wait is None:
            watchdog.stop()
        else:
            watchdog.allow(started, ask.wait + GRACE_SECONDS)
        try:
            reply, elapsed = answer(self.bot, ask)
        except BotFault as exc:
            timeout = isinstance(exc, BotTimeout)
            self._lost(TIMEOUT if timeout else EXCEPTION, f"{exc}: killed" if timeout else str(exc))
            return None, (time.perf_counter() - started if exc.seconds is None else exc.seconds)
        if type(reply) is not int and reply["type"] == "error":
            said = reply.get("message")
            # domsim's host reports what a Python strategy raised, as a fault in process reads
            text = (str(said)[:200] if reply.get("raised")
                    else f"the bot reported: {short_repr(said)}")
            self._fault(EXCEPTION, text, drop=drop)
            return None, elapsed
        return reply, elapsed

    def _lost(self, kind: str, message: str) -> None:
        self.bot.close()
        self.bot = None
        self._fault(kind, message)


_FAILED = object()  # what `_call` returns after a fault


def _what_it_did(reply: dict) -> str:
    """A bot's illegal reply in its own terms: what the strategy returned, as domsim's seat host
    says (`returned`), else the reply."""
    returned = reply.get("returned")
    if isinstance(returned, str):
        return f"returned {returned[:300]}"
    return f"answered {short_repr(reply)}"


def _as_legal_move(choice: object, legal_moves: tuple[Move, ...]) -> Move | None:
    """The legal Move equal to `choice`, or None. Only a Move or a plain tuple can qualify; any
    error while comparing a strange object counts as an illegal move."""
    if type(choice) not in (Move, tuple):
        return None
    try:
        return legal_moves[legal_moves.index(choice)]
    except Exception:
        return None
