"""The referee's state of one match, `State`, from the Rust core (domsim._core), and `Action`,
how the actions of its history read.

`State` holds hands as tile bitmasks and the line as open-end numbers. Moves are ints:
`tile << 2 | end`; for the lead, `end` 0 lays the tile as "a-b" (end 0 shows a) and 1 lays it
flipped. Its attributes, all read-only: `rules`, `n`, `hands`, `boneyard` (draw order),
`drawn`, `ends` (-1: not open), `end_counts`, `n_ends`, `line_count`, `to_move`, `passes`,
`history` (action ints, read with `Action.of`), `hand_over`, `hand_points`, `scores`, `carry`,
`leader`, `hand_number`, `match_over`, `match_winners`, `won_dry`, `hand_results`,
`last_hand_result`, `lead_tile`, `spinner`, `fit`, `draws`, `fives`, `spins`, `plain_line`.
The rules are applied by `start_hand`, `start_next_hand`, `play`, `draw`, `pass_turn`,
`step_forced`, `advance`, `play_choice` and `play_out`, which raise a `RulesError` subclass
(`IllegalMove`, `IllegalDraw`, `IllegalPass`, `NoHandInPlay`, `InvalidPosition`) for what the
rules do not allow; `State.from_position(...)` builds a match at a validated position."""

from __future__ import annotations

from typing import NamedTuple

from .._core import (
    IllegalDraw,
    IllegalMove,
    IllegalPass,
    InvalidPosition,
    NoHandInPlay,
    State,
    decode_action,
    encode_action,
)

PLAY, DRAW, PASS = 0, 1, 2


class Action(NamedTuple):
    """One action of a hand's history. `Action.of(bits)` reads the int the core records and
    `action.bits` writes it (the core's encoding, domsim._core.encode_action)."""

    kind: int  # PLAY | DRAW | PASS
    seat: int
    tile: int = 0  # the tile played or drawn (0 for a pass, and for a draw others see)
    end: int = 0  # a play's open end (a lead: 0 as written, 1 flipped)
    open_numbers: int = 0  # a draw's or pass's bitmask of the numbers the ends showed

    @classmethod
    def of(cls, bits: int) -> Action:
        return cls._make(decode_action(bits))

    @property
    def bits(self) -> int:
        return encode_action(*self)

    @property
    def move(self) -> int:
        """A play as a move int, `tile << 2 | end`."""
        return self.tile << 2 | self.end


__all__ = ["DRAW", "PASS", "PLAY", "Action", "IllegalDraw", "IllegalMove", "IllegalPass",
           "InvalidPosition", "NoHandInPlay", "State"]
