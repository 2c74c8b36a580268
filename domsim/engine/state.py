"""The referee's state of one match: hands as tile bitmasks, the line as open-end numbers, and the
scores. Plays, draws and passes are integer arithmetic; `copy()` is cheap enough for search.

Moves are ints: `tile << 2 | end`. For the lead, `end` 0 lays the tile as "a-b" (end 0 shows a)
and 1 lays it flipped. Actions in `history` are ints too, see `action_*` below."""

from __future__ import annotations

from collections.abc import Callable
from functools import reduce
from operator import or_

from ..rules import Rules
from ..tiles import (
    ALL_TILES_MASK,
    IS_DOUBLE,
    N_TILES,
    NUMBER_MASK,
    OTHER_NUMBER,
    TILE_A,
    TILE_B,
    tiles_of,
)
from . import scoring

PLAY, DRAW, PASS = 0, 1, 2


def action_kind(action: int) -> int:
    return action & 3


def action_seat(action: int) -> int:
    return action >> 2 & 3


def action_tile(action: int) -> int:
    return action >> 4 & 31


def action_end(action: int) -> int:
    return action >> 9 & 3


def action_open_numbers(action: int) -> int:
    """For a draw or pass: bitmask of the numbers showing on the open ends at that moment."""
    return action >> 11


def _subsets(mask: int) -> list[int]:
    subs = [0]
    for t in tiles_of(mask):
        subs += [s | 1 << t for s in subs]
    return subs


# Lookup tables for the hot path. Python 3.11 specializes indexing but not shifts or bitwise
# operations, and `&` with a negative int (`~bit`) takes a slow path: a table lookup is cheaper.
# - _END_MOVES[e][fit]: the moves onto end e of the tiles in `fit`, a subset of a NUMBER_MASK, as
#   a list: two ends' moves are then one list concatenation (a new list, the tables untouched);
# - _LEAD_MOVES[k][byte]: the lead moves of the tiles in byte k of a hand;
# - _TILE_AND_END[move]: (tile, end) of a move;
# - _ALL_BUT[tile]: the set without `tile`, to take it out of a hand;
# - _PLAY_ACTION[seat][move], _PASS_ACTION[seat][open numbers]: the history action;
# - _TWO_ENDS_FIT[a][b]: the tiles fitting two ends that show a and b;
# - _OPEN_NUMBERS[fit]: the numbers showing on the open ends (a bitmask), told by `fit`, the tiles
#   that fit them, which holds the double of each; none before the lead, when `fit` is the whole
#   set or the forced lead tile;
# - _ATTACH[tile][number]: (the number an end shows once `tile` is laid against `number`,
#   what that end then adds to the fives count): a double counts both halves; a spinner's short
#   side starts counting with its first tile.
_END_MOVES: tuple[dict[int, list[int]], ...] = tuple(
    {fit: [t << 2 | end for t in tiles_of(fit)] for n in NUMBER_MASK for fit in _subsets(n)}
    for end in range(4)
)
_END_MOVES_0, _END_MOVES_1 = _END_MOVES[:2]
_LEAD_MOVES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(t << 2 for t in tiles_of(byte << 8 * k)) for byte in range(256)) for k in range(4)
)
_TILE_AND_END: tuple[tuple[int, int], ...] = tuple((move >> 2, move & 3) for move in range(128))
_ALL_BUT: tuple[int, ...] = tuple(ALL_TILES_MASK & ~(1 << t) for t in range(N_TILES))
_PLAY_ACTION: tuple[tuple[int, ...], ...] = tuple(
    tuple(seat << 2 | (move >> 2) << 4 | (move & 3) << 9 for move in range(128))
    for seat in range(4)
)
_PASS_ACTION: tuple[tuple[int, ...], ...] = tuple(
    tuple(PASS | seat << 2 | numbers << 11 for numbers in range(128)) for seat in range(4)
)
_TWO_ENDS_FIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(NUMBER_MASK[a] | NUMBER_MASK[b] for b in range(7)) for a in range(7)
)
_OPEN_NUMBERS: dict[int, int] = {
    **{reduce(or_, (NUMBER_MASK[n] for n in range(7) if numbers >> n & 1), 0): numbers
       for numbers in range(128)},
    ALL_TILES_MASK: 0,
    **{1 << t: 0 for t in range(N_TILES)},
}
_ATTACH: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((OTHER_NUMBER[t << 3 | n], OTHER_NUMBER[t << 3 | n] * (2 if IS_DOUBLE[t] else 1))
          for n in range(7))
    for t in range(N_TILES)
)
#: _NEXT_SEAT[players][seat]: who plays after `seat`.
_NEXT_SEAT = {n: (*range(1, n), 0) for n in range(2, 5)}


class State:
    """A match in progress. Build one with `State(rules)` and start hands with `start_hand`."""

    __slots__ = (
        "rules", "n", "hands", "boneyard", "drawn", "ends", "end_counts", "n_ends", "spinner_arm",
        "spinner_depth", "arm_len", "line_count", "to_move", "passes", "history",
        "hand_over", "hand_points", "scores", "carry", "leader", "hand_number", "match_over",
        "hand_results", "match_winners", "lead_tile", "spinner", "fit", "next_seat", "draws",
        "fives", "spins", "plain_line",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.n = rules.players
        self.next_seat = _NEXT_SEAT[rules.players]
        # The rule switches the hot path tests, read once instead of through rules.variant.
        self.draws = rules.variant.draws
        self.fives = rules.variant.scoring == "fives"
        self.spins = rules.variant.spinner
        self.scores = [0] * rules.sides
        self.carry = 0
        self.hand_number = -1
        self.leader = -1
        self.match_over = False
        self.match_winners: tuple[int, ...] = ()
        self.hand_results: list[scoring.HandResult] = []
        self.hand_over = True

    # -- hands -------------------------------------------------------------------------------
    def start_hand(self, hands: list[int], boneyard: list[int], leader: int, lead_tile: int = -1):
        """Begin the next hand from a deal. `lead_tile` >= 0 forces the lead (R-LEAD)."""
        self.hands = list(hands)
        self.boneyard = list(boneyard)
        self.drawn = 0
        self.ends = [-1, -1, -1, -1]
        self.end_counts = [0, 0, 0, 0]
        self.n_ends = 0
        self.spinner_arm = -1
        self.spinner_depth = 0
        self.spinner = -1
        self.arm_len = [0, 0]  # tiles on each long side, counted in spinner games only
        self.line_count = 0
        self.fit = ALL_TILES_MASK if lead_tile < 0 else 1 << lead_tile
        self.plain_line = False  # a line of two ends where no play scores, once there is a lead
        self.to_move = leader
        self.leader = leader
        self.lead_tile = lead_tile
        self.passes = 0
        self.history: list[int] = []
        self.hand_over = False
        self.hand_points = [0] * len(self.scores)  # per side, like the scores
        self.hand_number += 1

    def copy(self) -> State:
        """An independent copy for search; the rules and finished results are shared."""
        new = State.__new__(State)
        # Slot by slot, not a loop over __slots__: five times faster, and search copies a lot.
        # tests/test_engine_fastpath.py checks that no slot is missed.
        new.rules, new.n, new.next_seat = self.rules, self.n, self.next_seat
        new.draws, new.fives, new.spins = self.draws, self.fives, self.spins
        new.boneyard, new.drawn, new.lead_tile = self.boneyard, self.drawn, self.lead_tile
        new.n_ends, new.fit, new.plain_line = self.n_ends, self.fit, self.plain_line
        new.spinner_arm, new.spinner_depth = self.spinner_arm, self.spinner_depth
        new.spinner, new.line_count = self.spinner, self.line_count
        new.to_move, new.passes = self.to_move, self.passes
        new.hand_over, new.carry, new.leader = self.hand_over, self.carry, self.leader
        new.hand_number, new.match_over = self.hand_number, self.match_over
        new.match_winners = self.match_winners
        new.hands = self.hands[:]
        new.ends = self.ends[:]
        new.end_counts = self.end_counts[:]
        new.arm_len = self.arm_len[:]
        new.history = self.history[:]
        new.hand_points = self.hand_points[:]
        new.scores = self.scores[:]
        new.hand_results = self.hand_results[:]
        return new

    # -- what may be done --------------------------------------------------------------------
    def open_numbers(self) -> int:
        """Bitmask of the numbers showing on the playable ends."""
        return _OPEN_NUMBERS[self.fit]

    def playable_mask(self, seat: int) -> int:
        """Tiles of `seat` that fit some open end (the whole hand before the lead)."""
        return self.hands[seat] & self.fit

    def legal_moves(self) -> list[int]:
        """The plays open to the seat to move; empty when it must draw or pass."""
        hand = self.hands[self.to_move]
        ends = self.ends
        if self.n_ends == 2:
            return (_END_MOVES_0[hand & NUMBER_MASK[ends[0]]]
                    + _END_MOVES_1[hand & NUMBER_MASK[ends[1]]])
        if self.n_ends == 0:
            fit = hand & self.fit
            return [*_LEAD_MOVES[0][fit & 255], *_LEAD_MOVES[1][fit >> 8 & 255],
                    *_LEAD_MOVES[2][fit >> 16 & 255], *_LEAD_MOVES[3][fit >> 24]]
        return [*_END_MOVES[0][hand & NUMBER_MASK[ends[0]]],
                *_END_MOVES[1][hand & NUMBER_MASK[ends[1]]],
                *_END_MOVES[2][hand & NUMBER_MASK[ends[2]]],
                *_END_MOVES[3][hand & NUMBER_MASK[ends[3]]]]

    def can_draw(self) -> bool:
        return self.draws and self.drawn < len(self.boneyard)

    # -- actions -----------------------------------------------------------------------------
    def play(self, move: int) -> None:
        """Lay a tile. The caller guarantees the move is legal (see `legal_moves`)."""
        seat = self.to_move
        tile, end = _TILE_AND_END[move]
        hand = self.hands[seat] & _ALL_BUT[tile]
        self.hands[seat] = hand
        self.history.append(_PLAY_ACTION[seat][move])
        self.passes = 0
        self.line_count += 1
        if self.plain_line:
            # The common case, kept short: attach to one of two ends, nothing to score.
            ends = self.ends
            ends[end], self.end_counts[end] = _ATTACH[tile][ends[end]]
            self.fit = _TWO_ENDS_FIT[ends[0]][ends[1]]
        else:
            if self.line_count == 1:
                self._lay_lead(tile, end)
            else:
                self._attach(tile, end)
            if self.fives and self._score_fives(seat, tile):
                return
        if hand:
            self.to_move = self.next_seat[seat]
        else:
            self._finish(scoring.settle_domino(self, seat, tile))

    def _attach(self, tile: int, end: int) -> None:
        ends = self.ends
        ends[end], self.end_counts[end] = _ATTACH[tile][ends[end]]
        if self.spins and end < 2:
            self._grow_spinner(end, IS_DOUBLE[tile], ends[end])
        if self.n_ends == 2:
            self.fit = _TWO_ENDS_FIT[ends[0]][ends[1]]
        else:
            self.fit = _TWO_ENDS_FIT[ends[0]][ends[1]] | _TWO_ENDS_FIT[ends[2]][ends[3]]

    def _lay_lead(self, tile: int, flipped: int) -> None:
        a, b = (TILE_B[tile], TILE_A[tile]) if flipped else (TILE_A[tile], TILE_B[tile])
        self.ends[0], self.ends[1] = a, b
        weight = 2 if a == b else 1
        self.end_counts[0], self.end_counts[1] = a * weight, b * weight
        self.n_ends = 2
        self.fit = _TWO_ENDS_FIT[a][b]
        self.plain_line = not (self.spins or self.fives)
        if a == b and self.spins:
            self.spinner_arm = 2  # the lead itself: both long sides are arms 0 and 1
            self.spinner = a

    def _grow_spinner(self, arm: int, double: bool, number: int) -> None:
        """R-SPINNER: the first double becomes the spinner; once both of its long sides hold a
        tile, its two short sides open as ends 2 and 3 (counting nothing until played on).
        A tile showing `number` was just laid on long side `arm`, which it lengthens."""
        self.arm_len[arm] += 1
        if self.spinner_arm == -1:
            if double:
                self.spinner_arm = arm
                self.spinner_depth = self.arm_len[arm]
                self.spinner = number
            return
        if self.n_ends == 4:
            return
        if self.spinner_arm == 2:
            both_long = self.arm_len[0] > 0 and self.arm_len[1] > 0
        else:
            both_long = arm == self.spinner_arm and self.arm_len[arm] > self.spinner_depth
        if both_long:
            self.ends[2] = self.ends[3] = self.spinner
            self.n_ends = 4

    def spinner_number(self) -> int:
        """The spinner's number, or -1 before any double was played (allfives)."""
        return self.spinner

    def fives_count(self) -> int:
        """R-FIVES-COUNT / R-SPINNER: the open-end total after the last play."""
        if self.line_count == 1:  # the lone lead's two ends are its two numbers
            return self.ends[0] + self.ends[1]
        counts = self.end_counts
        total = counts[0] + counts[1]
        if self.n_ends == 4:
            total += counts[2] + counts[3]
        return total

    def _score_fives(self, seat: int, tile: int) -> bool:
        """Score a multiple of 5; returns True when that reached the target (R-TARGET)."""
        total = self.fives_count()
        if total and total % 5 == 0:
            self.hand_points[seat] += total
            self.scores[seat] += total
            if self.scores[seat] >= self.rules.target:
                self._finish(scoring.settle_target(self, seat))
                return True
        return False

    def draw(self) -> int:
        """The seat to move draws the next boneyard tile (only when it cannot play)."""
        seat = self.to_move
        tile = self.boneyard[self.drawn]
        self.drawn += 1
        self.history.append(DRAW | seat << 2 | tile << 4 | _OPEN_NUMBERS[self.fit] << 11)
        self.hands[seat] |= 1 << tile
        return tile

    def pass_turn(self) -> None:
        """The seat to move passes (cannot play, nothing to draw); n passes in a row block."""
        seat = self.to_move
        self.history.append(_PASS_ACTION[seat][_OPEN_NUMBERS[self.fit]])
        self.passes += 1
        if self.passes == self.n:
            self._finish(scoring.settle_block(self))
        else:
            self.to_move = self.next_seat[seat]

    def step_forced(self) -> bool:
        """Draw or pass for a seat with no play; returns False when the seat can play."""
        if self.hands[self.to_move] & self.fit:
            return False
        if self.draws and self.drawn < len(self.boneyard):
            self.draw()
        else:
            self.pass_turn()
        return True

    def play_out(self, choose: Callable[[list[int]], int]) -> None:
        """Play the hand to its end, `choose(moves)` picking every play from `legal_moves()`.

        The same game, call for call, as `while not hand_over: if not step_forced():
        play(choose(legal_moves()))`, only faster: a fast path for search playouts (on a
        `copy()`). Plain attaches (two ends, no spinner, no fives, not the last tile) are made
        here; the rest goes through the public methods."""
        while not self.hand_over and not self.plain_line:
            if not self.step_forced():
                self.play(choose(self.legal_moves()))
        hands, ends, counts, history = self.hands, self.ends, self.end_counts, self.history
        moves_0, moves_1, numbers = _END_MOVES_0, _END_MOVES_1, NUMBER_MASK
        tile_and_end, all_but, attach = _TILE_AND_END, _ALL_BUT, _ATTACH
        play_action, two_ends_fit = _PLAY_ACTION, _TWO_ENDS_FIT
        next_seat = self.next_seat
        fit = self.fit
        while not self.hand_over:
            seat = self.to_move
            hand = hands[seat]
            if not hand & fit:
                if self.draws and self.drawn < len(self.boneyard):
                    self.draw()
                else:
                    self.pass_turn()
                continue
            move = choose(moves_0[hand & numbers[ends[0]]] + moves_1[hand & numbers[ends[1]]])
            tile, end = tile_and_end[move]
            hand &= all_but[tile]
            if not hand:
                self.play(move)
                return
            hands[seat] = hand
            history.append(play_action[seat][move])
            ends[end], counts[end] = attach[tile][ends[end]]
            self.fit = fit = two_ends_fit[ends[0]][ends[1]]
            self.line_count += 1
            self.passes = 0
            self.to_move = next_seat[seat]

    def _finish(self, result: scoring.HandResult) -> None:
        self.hand_over = True
        self.hand_results.append(result)
        winners = scoring.match_winners(self)
        if winners is not None:
            self.match_over = True
            self.match_winners = winners

    # -- derived facts -----------------------------------------------------------------------
    def hand_counts(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def boneyard_left(self) -> int:
        return len(self.boneyard) - self.drawn

