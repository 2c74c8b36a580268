"""How a hand ends and what it is worth, per scoring scheme (R-SCORE-BASIC, R-FIVES, R-CLASSIC,
R-KOZEL, R-PARTNERSHIP, R-PARTNERSHIP-1V1), and when the match is decided."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..tiles import mask_pips, tile_id

if TYPE_CHECKING:
    from .state import State

_LONE_ZERO = 1 << tile_id(0, 0)


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand's outcome. `points`/`scores` are per side (seat, or team in team games)."""

    end: str  # domino | blocked | target
    winners: tuple[int, ...]  # seats
    points: tuple[int, ...]
    scores: tuple[int, ...]
    carry: int = 0
    maker: int = -1  # the seat that went out or made the fish
    capicu: bool = False


def round_to_five(points: int) -> int:
    """Nearest multiple of 5; remainder 1-2 rounds down, 3-4 up (R-FIVES)."""
    return (points + 2) // 5 * 5


def kozel_value(hand: int) -> int:
    """R-KOZEL-25: a hand holding only 0-0 counts 25."""
    return 25 if hand == _LONE_ZERO else mask_pips(hand)


def _team_seats(state: State, team: int) -> tuple[int, ...]:
    return tuple(s for s in range(state.n) if s % 2 == team)


def _award(state: State, end: str, winners: tuple[int, ...], points: list[int], **extra):
    """Add `points` (per side) to the hand and the match, and build the hand's result."""
    for side, p in enumerate(points):
        state.hand_points[side] += p
        state.scores[side] += p
    return HandResult(end, winners, tuple(state.hand_points), tuple(state.scores),
                      carry=state.carry, maker=state.last_player, **extra)


def settle_domino(state: State, seat: int, capicu: bool) -> HandResult:
    """The hand ends because `seat` played its last tile."""
    rules = state.rules
    scheme = rules.variant.scoring
    points = [0] * rules.sides
    pips = [mask_pips(h) for h in state.hands]
    if scheme in ("basic", "fives", "p1v1"):
        won = sum(pips)
        points[seat] = round_to_five(won) if scheme == "fives" else won
        return _award(state, "domino", (seat,), points)
    if scheme == "classic":
        return _award(state, "domino", (seat,), points)
    team = seat % 2
    if scheme == "kozel":
        losers = 1 - team
        points[losers] = sum(kozel_value(state.hands[s]) for s in _team_seats(state, losers))
        points[losers] += state.carry
        state.carry = 0
        return _award(state, "domino", _team_seats(state, team), points)
    points[team] = _partnership_points(state, pips, team)
    if capicu:
        points[team] += rules.capicu_bonus
    return _award(state, "domino", _team_seats(state, team), points, capicu=capicu)


def _partnership_points(state: State, pips: list[int], team: int) -> int:
    if state.rules.count == "losers":
        return sum(pips[s] for s in _team_seats(state, 1 - team))
    return sum(pips)


def settle_block(state: State) -> HandResult:
    """The hand is blocked: every seat passed in turn (R-BLOCK-PASSES)."""
    rules = state.rules
    scheme = rules.variant.scoring
    points = [0] * rules.sides
    if rules.variant.teams:
        return _settle_team_block(state, scheme, points)
    pips = [mask_pips(h) for h in state.hands]
    low = min(pips)
    lowest = tuple(s for s in range(state.n) if pips[s] == low)
    if scheme == "classic":
        return _award(state, "blocked", lowest, points)
    if len(lowest) > 1:
        return _award(state, "blocked", (), points)
    winner = lowest[0]
    if scheme == "p1v1":
        won = sum(pips)
    else:
        won = sum(pips) - low - low
        if scheme == "fives":
            won = round_to_five(won)
    points[winner] = won
    return _award(state, "blocked", (winner,), points)


def _settle_team_block(state: State, scheme: str, points: list[int]) -> HandResult:
    value = kozel_value if scheme == "kozel" else mask_pips
    team_sums = [sum(value(state.hands[s]) for s in _team_seats(state, t)) for t in (0, 1)]
    if scheme == "kozel":
        if team_sums[0] == team_sums[1]:
            state.carry += team_sums[0]  # eggs: carried to the next hand's losers
            return _award(state, "blocked", (), points)
        losers = 0 if team_sums[0] > team_sums[1] else 1
        points[losers] = team_sums[losers] + state.carry
        state.carry = 0
        return _award(state, "blocked", _team_seats(state, 1 - losers), points)
    if state.rules.fish == "maker":
        team = state.last_player % 2
    elif team_sums[0] == team_sums[1]:
        return _award(state, "blocked", (), points)
    else:
        team = 0 if team_sums[0] < team_sums[1] else 1
    points[team] = _partnership_points(state, [mask_pips(h) for h in state.hands], team)
    return _award(state, "blocked", _team_seats(state, team), points)


def settle_target(state: State, seat: int) -> HandResult:
    """R-TARGET: a fives score reached the target mid-hand; the scorer alone wins, nothing more
    is scored (the fives points were already added)."""
    return HandResult("target", (seat,), tuple(state.hand_points), tuple(state.scores),
                      maker=seat)


def match_winners(state: State) -> tuple[int, ...] | None:
    """The match's winning seats once it is decided, else None."""
    rules = state.rules
    scheme = rules.variant.scoring
    last = state.hand_results[-1]
    if scheme == "classic":
        return last.winners
    if scheme == "kozel":
        for team in (0, 1):
            if state.scores[team] >= rules.target:
                return _team_seats(state, 1 - team)
        return None
    reached = [side for side, score in enumerate(state.scores) if score >= rules.target]
    if not reached:
        return None
    if rules.variant.teams:
        return _team_seats(state, reached[0])
    return (reached[0],)
