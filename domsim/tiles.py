"""Tiles of the double-six set (R-SET) as ids 0..27, with the lookup tables the engine's bit
arithmetic runs on, and the public `Tile` value strategies and records see."""

from __future__ import annotations

from typing import NamedTuple

N_TILES = 28
N_NUMBERS = 7

#: TILE_A[t] <= TILE_B[t] are the two numbers of tile t; ids run 0-0, 0-1, .., 0-6, 1-1, .., 6-6.
TILE_A: tuple[int, ...] = tuple(a for a in range(7) for b in range(a, 7))
TILE_B: tuple[int, ...] = tuple(b for a in range(7) for b in range(a, 7))
PIPS: tuple[int, ...] = tuple(a + b for a, b in zip(TILE_A, TILE_B, strict=True))
IS_DOUBLE: tuple[bool, ...] = tuple(a == b for a, b in zip(TILE_A, TILE_B, strict=True))
_ID = {(a, b): t for t, (a, b) in enumerate(zip(TILE_A, TILE_B, strict=True))}

#: NUMBER_MASK[n]: bitmask of the 7 tiles that show number n.
NUMBER_MASK: tuple[int, ...] = tuple(
    sum(1 << t for t in range(N_TILES) if n in (TILE_A[t], TILE_B[t])) for n in range(N_NUMBERS)
)
ALL_TILES_MASK = (1 << N_TILES) - 1

#: BIT_TILES[m] for a byte m: the tile offsets set in it, so a mask is walked 8 bits at a time.
_BYTE_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(8) if m >> i & 1) for m in range(256)
)


def tile_id(a: int, b: int) -> int:
    """The id of the tile showing a and b, in either order."""
    return _ID[(a, b) if a <= b else (b, a)]


def other_number(tile: int, number: int) -> int:
    """The number on `tile` that is not the touching `number` (a double shows it twice)."""
    a = TILE_A[tile]
    return TILE_B[tile] if a == number else a


#: OTHER_NUMBER[tile << 3 | number]: `other_number` as a table for the hot paths.
OTHER_NUMBER: tuple[int, ...] = tuple(other_number(t, n) for t in range(N_TILES) for n in range(8))


def tiles_of(mask: int) -> list[int]:
    """Tile ids set in a bitmask, ascending."""
    out = []
    base = 0
    while mask:
        out.extend(base + i for i in _BYTE_BITS[mask & 0xFF])
        mask >>= 8
        base += 8
    return out


def mask_of(tiles) -> int:
    """Bitmask of an iterable of tile ids."""
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask


#: _BYTE_PIPS[k][m]: the pips of the tiles set in byte k of a mask being m.
_BYTE_PIPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(PIPS[8 * k + i] for i in _BYTE_BITS[m] if 8 * k + i < N_TILES) for m in range(256))
    for k in range(4)
)


def mask_pips(mask: int) -> int:
    """Sum of the pips of the tiles in a mask."""
    return (_BYTE_PIPS[0][mask & 0xFF] + _BYTE_PIPS[1][mask >> 8 & 0xFF]
            + _BYTE_PIPS[2][mask >> 16 & 0xFF] + _BYTE_PIPS[3][mask >> 24 & 0xFF])


def heaviness(tile: int) -> tuple[int, int]:
    """Sort key for "heaviest tile" (R-SET): pips, then the larger half."""
    return PIPS[tile], TILE_B[tile]


class Tile(NamedTuple):
    """A tile as plain values: `a <= b`. `str(Tile(3, 5)) == "3-5"`."""

    a: int
    b: int

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"

    @property
    def pips(self) -> int:
        return self.a + self.b

    @property
    def is_double(self) -> bool:
        return self.a == self.b

    @property
    def id(self) -> int:
        return tile_id(self.a, self.b)


TILES: tuple[Tile, ...] = tuple(Tile(a, b) for a, b in zip(TILE_A, TILE_B, strict=True))


def tile_name(tile: int) -> str:
    """Record spelling of a tile id: "a-b", smaller first."""
    return f"{TILE_A[tile]}-{TILE_B[tile]}"


_HOW = 'write it as "a-b" with 0 <= a, b <= 6'


def parse_tile(value) -> tuple[int, int]:
    """Read a tile as written: "3-5", "5-3", "5|3" or [5, 3]. Returns the two numbers in the order
    written (the order matters for a lead's ends). Raises ValueError with a one-line message."""
    if isinstance(value, list | tuple) and len(value) == 2:
        first, second = value
    elif isinstance(value, str):
        parts = value.replace("|", "-").split("-")
        if len(parts) != 2:
            raise ValueError(f"bad tile {value!r}: {_HOW}")
        first, second = parts
    else:
        raise ValueError(f"bad tile {value!r}: {_HOW}")
    if any(isinstance(x, bool) or not isinstance(x, int | str) for x in (first, second)):
        raise ValueError(f"bad tile {value!r}: {_HOW}")
    try:
        a, b = int(first), int(second)
    except (TypeError, ValueError):
        raise ValueError(f"bad tile {value!r}: {_HOW}") from None
    if not (0 <= a <= 6 and 0 <= b <= 6):
        raise ValueError(f"bad tile {value!r}: numbers run 0..6")
    return a, b
