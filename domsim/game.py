"""Playing one game (a match: hands until the target; classic: one hand) between strategies, and
the game record it produces (GAME-RECORD.md)."""

from __future__ import annotations

from .engine import State, start_next_hand
from .record import game_record, hand_record
from .rules import Rules
from .seeding import deal_rng, seat_rng
from .strategy import Strategy, StrategyError, make_strategy
from .view import ViewBuilder, move_int


def play_hand(state: State, strategies: list[Strategy], views: ViewBuilder) -> None:
    """Play the current hand to its end; strategies are asked only when they have a choice."""
    while not state.hand_over:
        if state.step_forced():
            continue
        moves = state.legal_moves()
        if len(moves) == 1:
            state.play(moves[0])
            continue
        view = views.view(state, moves)
        choice = strategies[state.to_move].choose(view)
        if choice not in view.legal_moves:
            raise StrategyError(f"seat {state.to_move} returned {choice!r}, not a legal move")
        state.play(move_int(choice))


def play_game(rules: Rules, specs: list[str], seed: int) -> dict:
    """Play a whole game from `seed` with the strategy specs seated in order; return its record."""
    if len(specs) != rules.players:
        raise StrategyError(f"{rules.name} needs {rules.players} strategies, got {len(specs)}")
    strategies = [make_strategy(spec, seat_rng(seed, seat)) for seat, spec in enumerate(specs)]
    for seat, strategy in enumerate(strategies):
        strategy.start_game(seat, rules)
    rng = deal_rng(seed)
    state = State(rules)
    views = ViewBuilder()
    hands = []
    while not state.match_over:
        start_next_hand(state, rng)
        deal = (state.hands[:], state.boneyard[:], state.leader)
        play_hand(state, strategies, views)
        hands.append(hand_record(*deal, state.history, state.hand_results[-1]))
    for strategy in strategies:
        strategy.end_game(tuple(state.scores), state.match_winners)
    return game_record(rules, specs, seed, hands, state)
