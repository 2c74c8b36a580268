"""PlayerView (R-VIEW): what a person at one seat knows, as immutable plain values. A strategy
gets nothing else: never another hand's tiles, never the boneyard order.

`PlayerView` and `ViewBuilder` come from the core (domsim._core): a view is frozen (no attribute
can be set or added) and builds its Python values only when they are read. Its fields:
`rules`, `seat`, `hand` (own Tiles, ascending), `ends` (the number on each open end, None for
an end not open: 2 ends, 4 with a spinner), `history` (every Event of this hand in order),
`hand_counts`, `boneyard_count`, `can_draw`, `scores` (per side: seat, or team 0 = seats 0
and 2 in team games), `carry`, `target`, `hand_number`, `leader`, `spinner` (its number or
None), `end_counts` (what each open end adds to the fives count now: a double there counts both
halves, an empty short side of the spinner 0; while the lead is alone the count is its pip total
instead) and `legal_moves` (the plays allowed now, as Moves); `players`, `variant` and `line`
(the plays of the hand), and `partner()` (the partner's seat in team games, else None). What
the view shows, read by the core: `void_masks` (per seat, the numbers it is known not to hold,
R-MUST, as 7-bit masks), `unseen_mask` and `hand_mask` (tile masks: bit t is tile id t),
`count_after(move, reply=None)` (the fives count, R-FIVES-COUNT, once `move` and then `reply` is
laid) and `ends_after(move)` (the numbers on the open ends then); `domsim.insight` gives them as
sets and lists. The seats use `with_rules(rules)` (the same view holding a strategy's own copy
of the rules) and `PlayerView.from_parts(...)` (a view from its values, as the seat host
rebuilds one)."""

from __future__ import annotations

import functools
from typing import NamedTuple

from ._core import PlayerView, ViewBuilder, register_view
from .engine.state import PLAY, Action
from .tiles import TILES, Tile

KINDS = ("play", "draw", "pass")


class Move(NamedTuple):
    """A play: `tile` laid on open end `end` (the lead uses end 0)."""

    tile: Tile
    end: int

    def __str__(self) -> str:
        return f"{self.tile}@{self.end}"


class Event(NamedTuple):
    """One public action of the hand. `tile` and `end` are None for draws and passes (nobody sees
    a drawn tile); `open_numbers` are the numbers the ends showed when a seat drew or passed,
    which that seat is known not to have held at that moment."""

    seat: int
    kind: str  # play | draw | pass
    tile: Tile | None
    end: int | None
    open_numbers: tuple[int, ...]


_MOVES = tuple(Move(TILES[m >> 2], m & 3) for m in range(28 * 4))


def move_value(move: int) -> Move:
    return _MOVES[move]


def move_int(move: Move) -> int:
    return move.tile.id << 2 | move.end


def event_of(action: int) -> Event:
    a = Action.of(action)
    if a.kind == PLAY:
        return Event(a.seat, "play", TILES[a.tile], a.end, ())
    numbers = tuple(n for n in range(7) if a.open_numbers >> n & 1)
    return Event(a.seat, KINDS[a.kind], None, None, numbers)


# Events are immutable, so one per distinct action serves every view (the core's ViewBuilder
# calls this once per action of a hand). The core builds views of these values, handed to it.
register_view(tiles=TILES, moves=_MOVES, event_of=functools.cache(event_of))

__all__ = ["KINDS", "Event", "Move", "PlayerView", "ViewBuilder", "event_of", "move_int",
           "move_value"]
