"""How a hand ends and what it is worth, per scoring scheme (R-SCORE-BASIC, R-FIVES, R-CLASSIC,
R-KOZEL, R-PARTNERSHIP, R-PARTNERSHIP-1V1), and when the match is decided."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..tiles import IS_DOUBLE, mask_pips, tile_id

if TYPE_CHECKING:
    from .state import State

_LONE_ZERO = 1 << tile_id(0, 0)


class HandResult(NamedTuple):
    """One hand's outcome. `points`/`scores` are per side (seat, or team in team games).
    A named tuple rather than a frozen dataclass: as immutable, and built in a fifth of the time
    (one per hand, which counts in random playouts)."""

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


#: _TEAM_SEATS[team]: the seats of team 0 or 1 (R-PARTNERSHIP: the team games are played by 4).
_TEAM_SEATS = ((0, 2), (1, 3))


def _pips_left(state: State, seats: tuple[int, ...]) -> int:
    """The pips in the hands of `seats`: the pips of their union, the hands being disjoint."""
    return mask_pips(sum(map(state.hands.__getitem__, seats)))


def _award(state: State, end: str, maker: int, winners: tuple[int, ...], side: int = -1,
           points: int = 0, capicu: bool = False) -> HandResult:
    """Add `points` to `side`'s hand and match score (a hand scores for one side at most, none
    when `side` is -1) and build the hand's result."""
    if side >= 0:
        state.hand_points[side] += points
        state.scores[side] += points
    return HandResult(end, winners, tuple(state.hand_points), tuple(state.scores), state.carry,
                      maker, capicu)


def settle_domino(state: State, seat: int, tile: int) -> HandResult:
    """The hand ends because `seat` played its last tile, `tile`."""
    rules = state.rules
    scheme = rules.variant.scoring
    if scheme == "classic":
        return _award(state, "domino", seat, (seat,))
    if scheme in ("basic", "fives", "p1v1"):
        won = mask_pips(sum(state.hands))  # every other hand's pips; the hands are disjoint
        return _award(state, "domino", seat, (seat,), seat,
                      round_to_five(won) if scheme == "fives" else won)
    team = seat % 2
    if scheme == "kozel":
        losers = 1 - team
        points = sum(kozel_value(state.hands[s]) for s in _TEAM_SEATS[losers])
        points += state.carry
        state.carry = 0
        return _award(state, "domino", seat, _TEAM_SEATS[team], losers, points)
    points = _partnership_points(state, team)
    capicu = _capicu(state, tile)
    if capicu:
        points += rules.capicu_bonus
    return _award(state, "domino", seat, _TEAM_SEATS[team], team, points, capicu)


def _capicu(state: State, tile: int) -> bool:
    """Whether the last tile, just laid, made a capicú (R-DETAIL): not a double, it fitted both
    open ends, which showed different numbers. Once it is laid both ends show the same number,
    the one of its halves that it was not laid against; no other last tile leaves them so."""
    ends = state.ends
    return state.n_ends == 2 and not IS_DOUBLE[tile] and ends[0] == ends[1]


def _partnership_points(state: State, team: int) -> int:
    if state.rules.count == "losers":
        return _pips_left(state, _TEAM_SEATS[1 - team])
    return mask_pips(sum(state.hands))


def settle_block(state: State) -> HandResult:
    """The hand is blocked: every seat passed in turn (R-BLOCK-PASSES)."""
    rules = state.rules
    scheme = rules.variant.scoring
    maker = state.to_move  # the passes went round the table, back to the seat that played last
    if rules.variant.teams:
        return _settle_team_block(state, scheme, maker)
    pips = list(map(mask_pips, state.hands))
    low = min(pips)
    if scheme == "classic":
        return _award(state, "blocked", maker,
                      tuple(s for s in range(state.n) if pips[s] == low))
    if pips.count(low) > 1:
        return _award(state, "blocked", maker, ())
    winner = pips.index(low)
    if scheme == "p1v1":
        won = sum(pips)
    else:
        won = sum(pips) - low - low
        if scheme == "fives":
            won = round_to_five(won)
    return _award(state, "blocked", maker, (winner,), winner, won)


def _settle_team_block(state: State, scheme: str, maker: int) -> HandResult:
    if scheme == "kozel":
        team_sums = [sum(kozel_value(state.hands[s]) for s in seats) for seats in _TEAM_SEATS]
        if team_sums[0] == team_sums[1]:
            state.carry += team_sums[0]  # eggs: carried to the next hand's losers
            return _award(state, "blocked", maker, ())
        losers = 0 if team_sums[0] > team_sums[1] else 1
        points = team_sums[losers] + state.carry
        state.carry = 0
        return _award(state, "blocked", maker, _TEAM_SEATS[1 - losers], losers, points)
    if state.rules.fish == "maker":
        team = maker % 2
    else:
        pips_0, pips_1 = _pips_left(state, _TEAM_SEATS[0]), _pips_left(state, _TEAM_SEATS[1])
        if pips_0 == pips_1:
            return _award(state, "blocked", maker, ())
        team = 0 if pips_0 < pips_1 else 1
    return _award(state, "blocked", maker, _TEAM_SEATS[team], team,
                  _partnership_points(state, team))


def settle_target(state: State, seat: int) -> HandResult:
    """R-TARGET: a fives score reached the target mid-hand; the scorer alone wins, nothing more
    is scored (the fives points were already added)."""
    return HandResult("target", (seat,), tuple(state.hand_points), tuple(state.scores),
                      maker=seat)


def match_winners(state: State) -> tuple[int, ...] | None:
    """The match's winning seats once it is decided, else None."""
    rules = state.rules
    scheme = rules.variant.scoring
    if scheme == "classic":
        return state.hand_results[-1].winners
    scores = state.scores
    if max(scores) < rules.target:
        return None
    if scheme == "kozel":  # the team that reached the target has lost
        return _TEAM_SEATS[1 if scores[0] >= rules.target else 0]
    side = next(side for side, score in enumerate(scores) if score >= rules.target)
    if rules.variant.teams:
        return _TEAM_SEATS[side]
    return (side,)
