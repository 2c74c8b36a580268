"""The referee's state of one match, `State`, from the Rust core (domsim._core), and how the
actions of its history read.

`State` holds hands as tile bitmasks and the line as open-end numbers. Moves are ints:
`tile << 2 | end`; for the lead, `end` 0 lays the tile as "a-b" (end 0 shows a) and 1 lays it
flipped. Its attributes: `rules`, `n`, `hands`, `boneyard` (draw order), `drawn`, `ends` (-1:
not open), `end_counts`, `n_ends`, `line_count`, `to_move`, `passes`, `history` (action ints),
`hand_over`, `hand_points`, `scores`, `carry`, `leader`, `hand_number`, `match_over`,
`match_winners`, `hand_results`, `last_hand_result`, `lead_tile`, `spinner`, `fit`, `draws`,
`fives`, `spins`, `plain_line`; the rules are applied by `play`, `draw`, `pass_turn`,
`step_forced`, `advance` and `start_next_hand`, which raise ValueError for what the rules do
not allow."""

from __future__ import annotations

from .._core import State

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


__all__ = ["DRAW", "PASS", "PLAY", "State", "action_end", "action_kind", "action_open_numbers",
           "action_seat", "action_tile"]
