"""Playing one game (a match: hands until the target; classic: one hand) between strategies, and
the game record it produces (GAME-RECORD.md)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from .engine import State, start_next_hand
from .record import game_record, hand_record
from .rules import Rules
from .seat import MoveAlarm, Seat
from .seeding import deal_rng, derive_seed, seat_rng
from .strategy import Strategy, StrategyError, StrategyFactory, load_strategy
from .view import Move, PlayerView, ViewBuilder, move_int

#: Seconds a strategy may take per decision in a headless run (R-SEAT-FAULT; online it is 60).
MOVE_TIME_LIMIT = 5.0
#: The built-in bot that takes over a faulty seat (R-SEAT-FAULT).
STAND_IN = "medium"


class Chooser(Protocol):
    def choose(self, view: PlayerView) -> Move: ...


def play_hand(state: State, players: Sequence[Chooser], views: ViewBuilder) -> None:
    """Play the current hand to its end; players are asked only when they have a choice.

    `players` are Seats (play_game) or bare strategies (trusted, e.g. benchmarks); a move that
    is not legal is a bug of the caller and raises StrategyError."""
    while not state.hand_over:
        if state.step_forced():
            continue
        moves = state.legal_moves()
        if len(moves) == 1:
            state.play(moves[0])
            continue
        view = views.view(state, moves)
        choice = players[state.to_move].choose(view)
        if choice not in view.legal_moves:
            raise StrategyError(f"seat {state.to_move} returned {choice!r}, not a legal move")
        state.play(move_int(choice))


def play_game(rules: Rules, specs: list[str], seed: int, *,
              move_time_limit: float | None = MOVE_TIME_LIMIT, stand_in: str = STAND_IN) -> dict:
    """Play a whole game from `seed` with the strategy specs seated in order; return its record.

    Every spec is loaded before the game starts (StrategyError if one cannot be). A faulty seat
    never stops the game (R-SEAT-FAULT, see domsim.seat): a move later than `move_time_limit`
    seconds (None: no limit) is made by the `stand_in` bot, a seat that raises or plays an
    illegal move is handed to it. The record gets `faults` and `timing` per seat."""
    if len(specs) != rules.players:
        raise StrategyError(f"{rules.name} needs {rules.players} strategies, got {len(specs)}")
    factories = [load_strategy(spec) for spec in specs]
    stand_in_factory = load_strategy(stand_in)
    with MoveAlarm(move_time_limit) as alarm:
        seats = [Seat(seat, factory, seat_rng(seed, seat), _stand_in(stand_in_factory, seed, seat),
                      alarm, f"game seed {seed}, seat {seat} ({factory.spec})")
                 for seat, factory in enumerate(factories)]
        record = _play(rules, specs, seats, seed)
    faults, timing = zip(*(seat.report() for seat in seats), strict=True)
    return {**record, "faults": list(faults), "timing": list(timing)}


def _stand_in(factory: StrategyFactory, seed: int, seat: int) -> Callable[[], Strategy]:
    """Builds the seat's stand-in bot when first needed, with its own generator."""
    return lambda: factory(random.Random(derive_seed("stand-in", seed, seat)))


def _play(rules: Rules, specs: list[str], seats: list[Seat], seed: int) -> dict:
    for seat in seats:
        seat.start_game(rules)
    rng = deal_rng(seed)
    state = State(rules)
    views = ViewBuilder()
    hands = []
    while not state.match_over:
        start_next_hand(state, rng)
        deal = (state.hands[:], state.boneyard[:], state.leader)
        play_hand(state, seats, views)
        hands.append(hand_record(*deal, state.history, state.hand_results[-1]))
    for seat in seats:
        seat.end_game(tuple(state.scores), state.match_winners)
    return game_record(rules, specs, seed, hands, state)
