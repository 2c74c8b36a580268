"""The referee's state of one match: hands as tile bitmasks, the line as open-end numbers, and the
scores. Plays, draws and passes are integer arithmetic; `copy()` is cheap enough for search.

Moves are ints: `tile << 2 | end`. For the lead, `end` 0 lays the tile as "a-b" (end 0 shows a)
and 1 lays it flipped. Actions in `history` are ints too, see `action_*` below."""

from __future__ import annotations

from ..rules import Rules
from ..tiles import IS_DOUBLE, NUMBER_MASK, PIPS, TILE_A, TILE_B, tiles_of
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


def move_tile(move: int) -> int:
    return move >> 2


def move_end(move: int) -> int:
    return move & 3



class State:
    """A match in progress. Build one with `State(rules)` and start hands with `start_hand`."""

    __slots__ = (
        "rules", "n", "hands", "boneyard", "drawn", "ends", "end_counts", "n_ends", "spinner_arm",
        "spinner_depth", "arm_len", "line_count", "to_move", "passes", "last_player", "history",
        "hand_over", "hand_points", "scores", "carry", "leader", "hand_number", "match_over",
        "hand_results", "match_winners", "lead_tile",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.n = rules.players
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
        self.arm_len = [0, 0]
        self.line_count = 0
        self.to_move = leader
        self.leader = leader
        self.lead_tile = lead_tile
        self.passes = 0
        self.last_player = -1
        self.history: list[int] = []
        self.hand_over = False
        self.hand_points = [0] * self.rules.sides
        self.hand_number += 1

    def copy(self) -> State:
        """An independent copy for search; the rules and finished results are shared."""
        new = State.__new__(State)
        for name in State.__slots__:
            setattr(new, name, getattr(self, name))
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
        ends = self.ends
        mask = 0
        for e in range(self.n_ends):
            mask |= 1 << ends[e]
        return mask

    def playable_mask(self, seat: int) -> int:
        """Tiles of `seat` that fit some open end (the whole hand before the lead)."""
        hand = self.hands[seat]
        if self.line_count == 0:
            return hand if self.lead_tile < 0 else hand & (1 << self.lead_tile)
        ends = self.ends
        fit = NUMBER_MASK[ends[0]] | NUMBER_MASK[ends[1]]
        if self.n_ends == 4:
            fit |= NUMBER_MASK[ends[2]] | NUMBER_MASK[ends[3]]
        return hand & fit

    def legal_moves(self) -> list[int]:
        """The plays open to the seat to move; empty when it must draw or pass."""
        hand = self.hands[self.to_move]
        if self.line_count == 0:
            fit = hand if self.lead_tile < 0 else hand & (1 << self.lead_tile)
            return [t << 2 for t in tiles_of(fit)]
        moves = []
        ends = self.ends
        for e in range(self.n_ends):
            fit = hand & NUMBER_MASK[ends[e]]
            if fit:
                moves.extend(t << 2 | e for t in tiles_of(fit))
        return moves

    def can_draw(self) -> bool:
        return self.rules.variant.draws and self.drawn < len(self.boneyard)

    # -- actions -----------------------------------------------------------------------------
    def play(self, move: int) -> None:
        """Lay a tile. The caller guarantees the move is legal (see `legal_moves`)."""
        seat = self.to_move
        tile = move >> 2
        end = move & 3
        self.hands[seat] &= ~(1 << tile)
        self.history.append(seat << 2 | tile << 4 | end << 9)
        capicu = False
        if self.line_count == 0:
            self._lay_lead(tile, end)
        else:
            capicu = self._attach(tile, end)
        self.line_count += 1
        self.passes = 0
        self.last_player = seat
        if self.rules.variant.scoring == "fives" and self._score_fives(seat, tile):
            return
        if not self.hands[seat]:
            self._finish(scoring.settle_domino(self, seat, capicu))
        else:
            self.to_move = (seat + 1) % self.n

    def _lay_lead(self, tile: int, flipped: int) -> None:
        a, b = (TILE_B[tile], TILE_A[tile]) if flipped else (TILE_A[tile], TILE_B[tile])
        self.ends[0], self.ends[1] = a, b
        weight = 2 if a == b else 1
        self.end_counts[0], self.end_counts[1] = a * weight, b * weight
        self.n_ends = 2
        if a == b and self.rules.variant.spinner:
            self.spinner_arm = 2  # the lead itself: both long sides are arms 0 and 1

    def _attach(self, tile: int, end: int) -> bool:
        """Attach to an open end; returns whether this play is a capicú (R-DETAIL)."""
        ends = self.ends
        capicu = (
            self.n_ends == 2 and ends[0] != ends[1] and not IS_DOUBLE[tile]
            and {TILE_A[tile], TILE_B[tile]} == {ends[0], ends[1]}
        )
        number = ends[end]
        new = TILE_B[tile] if TILE_A[tile] == number else TILE_A[tile]
        ends[end] = new
        double = IS_DOUBLE[tile]
        # A short side's first tile starts counting there; a double at an end counts both halves.
        self.end_counts[end] = new * 2 if double else new
        if end < 2:
            self.arm_len[end] += 1
            if self.rules.variant.spinner:
                self._grow_spinner(end, double)
        return capicu

    def _grow_spinner(self, arm: int, double: bool) -> None:
        """R-SPINNER: the first double becomes the spinner; once both of its long sides hold a
        tile, its two short sides open as ends 2 and 3 (counting nothing until played on)."""
        if self.spinner_arm == -1:
            if double:
                self.spinner_arm = arm
                self.spinner_depth = self.arm_len[arm]
            return
        if self.n_ends == 4:
            return
        if self.spinner_arm == 2:
            both_long = self.arm_len[0] > 0 and self.arm_len[1] > 0
        else:
            both_long = arm == self.spinner_arm and self.arm_len[arm] > self.spinner_depth
        if both_long:
            number = self.spinner_number()
            self.ends[2] = self.ends[3] = number
            self.n_ends = 4

    def spinner_number(self) -> int:
        """The spinner's number, or -1 before any double was played (allfives)."""
        if self.spinner_arm == -1:
            return -1
        for action in self.history:
            tile = action >> 4 & 31
            if action & 3 == PLAY and IS_DOUBLE[tile]:
                return TILE_A[tile]
        return -1

    def fives_count(self) -> int:
        """R-FIVES-COUNT / R-SPINNER: the open-end total after the last play."""
        if self.line_count == 1:
            return PIPS[self.history[-1] >> 4 & 31]
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
        self.history.append(DRAW | seat << 2 | tile << 4 | self.open_numbers() << 11)
        self.hands[seat] |= 1 << tile
        return tile

    def pass_turn(self) -> None:
        """The seat to move passes (cannot play, nothing to draw); n passes in a row block."""
        seat = self.to_move
        self.history.append(PASS | seat << 2 | self.open_numbers() << 11)
        self.passes += 1
        if self.passes == self.n:
            self._finish(scoring.settle_block(self))
        else:
            self.to_move = (seat + 1) % self.n

    def step_forced(self) -> bool:
        """Draw or pass for a seat with no play; returns False when the seat can play."""
        if self.playable_mask(self.to_move):
            return False
        if self.can_draw():
            self.draw()
        else:
            self.pass_turn()
        return True

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
