"""What can be read off a PlayerView: unseen tiles, numbers each seat is known to lack, the open
ends and fives count a move would leave. Pure functions over public values, for strategies.

Sets of tiles come as `set[Tile]` or, for speed, as bitmasks of tile ids (bit t: tile t, see
domsim.tiles); sets of numbers as `set[int]` or as 7-bit masks (bit n: number n)."""

from __future__ import annotations

import functools

from .tiles import ALL_TILES_MASK, TILES, Tile, tiles_of
from .view import Move, PlayerView

#: _BIT[tile]: the bit of a Tile in a tile mask.
_BIT = {tile: 1 << t for t, tile in enumerate(TILES)}


def tile_mask(tiles) -> int:
    """Bitmask of an iterable of Tiles."""
    return sum(map(_BIT.__getitem__, tiles))


def history_masks(view: PlayerView) -> tuple[int, list[int]]:
    """In one pass over the history: the tiles played (a tile mask) and per seat
    the numbers it cannot hold (7-bit masks, `known_voids`)."""
    return read_events(view.history, 0, [0] * view.players)


def read_events(events, played: int, voids: list[int]) -> tuple[int, list[int]]:
    """`history_masks` carried on over more `events` from the `played` and `voids` (updated in
    place) of the events before them."""
    for event in events:
        kind = event.kind
        if kind == "play":
            played |= _BIT[event.tile]
        elif kind == "pass":
            voids[event.seat] |= _number_mask(event.open_numbers)
        elif kind == "draw":
            voids[event.seat] = _number_mask(event.open_numbers)
    return played, voids


def unseen_mask(view: PlayerView) -> int:
    """`unseen_tiles` as a tile mask."""
    return ALL_TILES_MASK & ~history_masks(view)[0] & ~tile_mask(view.hand)


def unseen_tiles(view: PlayerView) -> set[Tile]:
    """Tiles in other hands, the boneyard or out of play: neither in my hand nor on the line."""
    return {TILES[t] for t in tiles_of(unseen_mask(view))}


@functools.cache
def _number_mask(numbers: tuple[int, ...]) -> int:
    mask = 0
    for n in numbers:
        mask |= 1 << n
    return mask


def known_voids(view: PlayerView) -> list[set[int]]:
    """Per seat, the numbers it cannot hold now. A pass adds the open numbers; a draw means the
    seat lacked them before drawing, and the tiles it drew and kept lack them too (it plays the
    first that fits), but older knowledge no longer covers the new tiles, so a draw resets."""
    return [{n for n in range(7) if void >> n & 1} for void in history_masks(view)[1]]


def other_number(tile: Tile, number: int) -> int:
    return tile.b if tile.a == number else tile.a


def ends_after(view: PlayerView, move: Move) -> list[int]:
    """The numbers on the ends after `move` (short spinner sides opening are not added)."""
    if not view.end_counts:
        return [move.tile.a, move.tile.b]
    ends = list(view.ends[:len(view.end_counts)])  # the open ends come first
    ends[move.end] = other_number(move.tile, ends[move.end])
    return ends


def count_after(view: PlayerView, move: Move) -> int:
    """The fives count (R-FIVES-COUNT, R-SPINNER) right after `move`."""
    if not view.end_counts:
        return move.tile.pips
    number = other_number(move.tile, view.ends[move.end])
    added = number * 2 if move.tile.is_double else number
    return sum(view.end_counts) - view.end_counts[move.end] + added


def fives_score(count: int) -> int:
    """Points a play making this count scores in fives and allfives."""
    return count if count and count % 5 == 0 else 0
