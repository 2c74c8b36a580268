"""The rules engine: a thin, typed face over the Rust core (domsim._core), which holds the only
implementation of the rules: dealing and leads (R-DEAL, R-LEAD), legal moves and play
(R-LINE, R-MUST, R-SPINNER), the end of a hand and its scoring (R-END, R-SCORE-BASIC, R-FIVES,
R-CLASSIC, R-KOZEL, R-PARTNERSHIP, R-PARTNERSHIP-1V1) and the match."""

from __future__ import annotations

from .._core import MatchRng, by_lot, deal, first_lead, next_leader, round_to_five
from .results import HandResult
from .state import (
    DRAW,
    PASS,
    PLAY,
    Action,
    IllegalDraw,
    IllegalMove,
    IllegalPass,
    InvalidPosition,
    NoHandInPlay,
    State,
)


def start_next_hand(state: State, rng) -> None:
    """Deal the next hand of `state`'s match from the match generator (a `MatchRng`, or any
    generator with `getrandbits`) and decide its lead."""
    state.start_next_hand(rng)


__all__ = [
    "DRAW", "PASS", "PLAY", "Action", "HandResult", "IllegalDraw", "IllegalMove", "IllegalPass",
    "InvalidPosition", "MatchRng", "NoHandInPlay", "State", "by_lot", "deal", "first_lead",
    "next_leader", "round_to_five", "start_next_hand",
]
