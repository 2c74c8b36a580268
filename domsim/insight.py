"""What can be read off a PlayerView: unseen tiles, numbers each seat is known to lack, the open
ends and fives count a move would leave. Pure functions over public values, for strategies."""

from __future__ import annotations

from .tiles import TILES, Tile
from .view import Move, PlayerView


def played_tiles(view: PlayerView) -> set[Tile]:
    return {e.tile for e in view.history if e.kind == "play"}


def unseen_tiles(view: PlayerView) -> set[Tile]:
    """Tiles in other hands, the boneyard or out of play: neither in my hand nor on the line."""
    return set(TILES) - played_tiles(view) - set(view.hand)


def known_voids(view: PlayerView) -> list[set[int]]:
    """Per seat, the numbers it cannot hold now. A pass adds the open numbers; a draw means the
    seat lacked them before drawing, and the tiles it drew and kept lack them too (it plays the
    first that fits), but older knowledge no longer covers the new tiles, so a draw resets."""
    voids: list[set[int]] = [set() for _ in range(view.players)]
    for event in view.history:
        if event.kind == "pass":
            voids[event.seat].update(event.open_numbers)
        elif event.kind == "draw":
            voids[event.seat] = set(event.open_numbers)
    return voids


def other_number(tile: Tile, number: int) -> int:
    return tile.b if tile.a == number else tile.a


def ends_after(view: PlayerView, move: Move) -> list[int]:
    """The numbers on the ends after `move` (short spinner sides opening are not added)."""
    if not view.end_counts:
        return [move.tile.a, move.tile.b]
    ends = [n for n in view.ends if n is not None]
    ends[move.end] = other_number(move.tile, view.ends[move.end])
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
