"""What can be read off a PlayerView: unseen tiles, numbers each seat is known to lack, the open
ends and fives count a move would leave. The core reads them (PlayerView's `unseen_mask`,
`void_masks`, `hand_mask`, `count_after` and `ends_after`, and `fives_points`); these are the
same values as sets and lists, for strategies.

Sets of tiles come as `set[Tile]` or, for speed, as bitmasks of tile ids (bit t: tile t, see
domsim.tiles); sets of numbers as `set[int]` or as 7-bit masks (bit n: number n)."""

from __future__ import annotations

from . import tiles
from ._core import fives_points
from .tiles import TILES, Tile, tiles_of
from .view import Move, PlayerView

#: _BIT[tile]: the bit of a Tile in a tile mask.
_BIT = {tile: 1 << t for t, tile in enumerate(TILES)}


def tile_mask(tiles) -> int:
    """Bitmask of an iterable of Tiles."""
    return sum(map(_BIT.__getitem__, tiles))


def unseen_mask(view: PlayerView) -> int:
    """`unseen_tiles` as a tile mask (`view.unseen_mask`)."""
    return view.unseen_mask


def unseen_tiles(view: PlayerView) -> set[Tile]:
    """Tiles in other hands, the boneyard or out of play: neither in my hand nor on the line."""
    return {TILES[t] for t in tiles_of(view.unseen_mask)}


def known_voids(view: PlayerView) -> list[set[int]]:
    """Per seat, the numbers it cannot hold now (R-MUST; as masks: `view.void_masks`). A pass
    adds the open numbers; a draw means the seat lacked them before drawing, and the tiles it
    drew and kept lack them too (it plays the first that fits), but older knowledge no longer
    covers the new tiles, so a draw resets."""
    return [{n for n in range(7) if void >> n & 1} for void in view.void_masks]


def other_number(tile: Tile, number: int) -> int:
    """The number on `tile` that is not the touching `number` (a double shows it twice)."""
    return tiles.other_number(tile.id, number)


def ends_after(view: PlayerView, move: Move) -> list[int]:
    """The numbers on the ends after `move` (short spinner sides opening are not added;
    `view.ends_after`)."""
    return list(view.ends_after(move))


def count_after(view: PlayerView, move: Move) -> int:
    """The fives count (R-FIVES-COUNT, R-SPINNER) right after `move` (`view.count_after`, which
    also takes a reply laid after it)."""
    return view.count_after(move)


#: fives_score(count): points a play making this count scores in fives and allfives (R-FIVES).
fives_score = fives_points
