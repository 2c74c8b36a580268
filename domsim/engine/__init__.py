"""The rules engine: match state, dealing and leads, scoring."""

from .deal import deal, first_lead, next_leader, start_next_hand
from .scoring import HandResult
from .state import DRAW, PASS, PLAY, State

__all__ = [
    "DRAW", "PASS", "PLAY", "HandResult", "State", "deal", "first_lead", "next_leader",
    "start_next_hand",
]
