"""A finished hand's result as the core reports it (plain values, no rules here)."""

from __future__ import annotations

from typing import NamedTuple

from .._core import register_results


class HandResult(NamedTuple):
    """One hand's outcome. `points`/`scores` are per side (seat, or team in team games)."""

    end: str  # domino | blocked | target
    winners: tuple[int, ...]  # seats
    points: tuple[int, ...]
    scores: tuple[int, ...]
    carry: int = 0
    maker: int = -1  # the seat that went out or made the fish
    capicu: bool = False


register_results(HandResult)  # the core builds State.hand_results of it
