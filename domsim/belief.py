"""What a seat can believe about the hidden tiles (R-VIEW), read off its PlayerView only, and
exact uniform sampling of the deals consistent with it.

Locations are the other seats in order, then the rest: the boneyard in draw games, the tiles out
of play in block with 2-3 players (unknown, not absent: they may be any tile), nothing when all
28 are dealt. A tile may lie in a seat's hand unless the seat is known to lack one of its numbers
(`insight.known_voids`, R-MUST) or the first hand's lead shows it was not dealt (R-LEAD: it
would have been led instead) and the seat has not drawn since. The rest takes any tile.

Sampling groups the unseen tiles by the set of locations allowed to them, counts the completions
with a dynamic programme over groups and remaining capacities, and deals group by group in
proportion to those counts: every consistent deal is equally likely, and no loop can stall."""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate
from math import factorial

from .engine import first_lead
from .engine import by_lot
from .insight import known_voids, unseen_tiles
from .tiles import N_TILES, NUMBER_MASK, PIPS
from .view import PlayerView


class Belief:
    """The unseen tiles, where each may lie, and how many tiles each location holds."""

    def __init__(self, seats: tuple[int, ...], sizes: tuple[int, ...],
                 allowed: dict[int, int]) -> None:
        """`seats`: the other seats; `sizes[i]`: tiles at location i (the other seats, then the
        rest); `allowed[tile]`: bitmask of the locations that may hold the unseen tile."""
        if sum(sizes) != len(allowed):
            raise ValueError(f"{len(allowed)} unseen tiles for locations of sizes {sizes}")
        self.seats = seats
        self.sizes = sizes
        self.allowed = allowed
        by_mask: dict[int, list[int]] = {}
        for tile, mask in sorted(allowed.items()):
            by_mask.setdefault(mask, []).append(tile)
        # The most constrained groups first: their choices are the fewest.
        self.groups = sorted(by_mask.items(), key=lambda g: (g[0].bit_count(), g[0]))
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self._choices: dict[tuple[int, tuple[int, ...]], tuple[list, list[int]]] = {}

    @property
    def rest(self) -> int:
        """The index of the rest location (boneyard or out of play)."""
        return len(self.seats)

    def count(self) -> int:
        """The number of deals consistent with the belief."""
        return self._count(0, self.sizes)

    def sample(self, rng: random.Random) -> tuple[dict[int, list[int]], list[int]]:
        """One deal drawn uniformly: (seat -> tiles, the rest in a uniform random order)."""
        caps = self.sizes
        placed: list[list[int]] = [[] for _ in caps]
        for index, (_, tiles) in enumerate(self.groups):
            splits, cumulative = self._split_choices(index, caps)
            if not cumulative:
                raise ValueError("no deal is consistent with the view")
            split = splits[bisect_right(cumulative, rng.randrange(cumulative[-1]))]
            shuffled = tiles[:]
            _shuffle(rng, shuffled)
            start = 0
            for location, k in enumerate(split):
                placed[location] += shuffled[start:start + k]
                start += k
            caps = tuple(c - k for c, k in zip(caps, split, strict=True))
        _shuffle(rng, placed[self.rest])
        return dict(zip(self.seats, placed, strict=False)), placed[self.rest]

    def _count(self, index: int, caps: tuple[int, ...]) -> int:
        if index == len(self.groups):
            return 0 if any(caps) else 1
        key = (index, caps)
        if key not in self._memo:
            _, cumulative = self._split_choices(index, caps)
            self._memo[key] = cumulative[-1] if cumulative else 0
        return self._memo[key]

    def _split_choices(self, index: int, caps: tuple[int, ...]) -> tuple[list, list[int]]:
        """The ways group `index` can be split over the locations given the capacities left,
        with cumulative weights: ways to choose the tiles times completions of the rest."""
        key = (index, caps)
        if key not in self._choices:
            mask, tiles = self.groups[index]
            splits, weights = [], []
            for split in _splits(len(tiles), caps, mask):
                left = tuple(c - k for c, k in zip(caps, split, strict=True))
                ways = _multinomial(len(tiles), split) * self._count(index + 1, left)
                if ways:
                    splits.append(split)
                    weights.append(ways)
            self._choices[key] = splits, list(accumulate(weights))
        return self._choices[key]


def _shuffle(rng: random.Random, items: list) -> None:
    """`rng.shuffle(items)` without its Python call per item (search samples many deals): the
    same Fisher-Yates, each index drawn with `getrandbits` and redrawn when too large."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        width = i.bit_length()
        j = getrandbits(width)
        while j > i:
            j = getrandbits(width)
        items[i], items[j] = items[j], items[i]


def _splits(total: int, caps: tuple[int, ...], mask: int, location: int = 0):
    """Every tuple of counts per location summing to `total`, within `caps`, zero outside
    `mask`."""
    if location == len(caps) - 1:
        if total <= caps[location] and (total == 0 or mask >> location & 1):
            yield (total,)
        return
    top = min(total, caps[location]) if mask >> location & 1 else 0
    for k in range(top + 1):
        for tail in _splits(total - k, caps, mask, location + 1):
            yield (k, *tail)


def _multinomial(total: int, parts: tuple[int, ...]) -> int:
    ways = factorial(total)
    for k in parts:
        ways //= factorial(k)
    return ways


def belief_of(view: PlayerView) -> Belief:
    """The belief of the seat to move, from what its view shows (R-VIEW)."""
    seats = tuple(s for s in range(view.players) if s != view.seat)
    unseen = sorted(t.id for t in unseen_tiles(view))
    held = tuple(view.hand_counts[s] for s in seats)
    sizes = (*held, len(unseen) - sum(held))
    voids = known_voids(view)
    drew = {e.seat for e in view.history if e.kind == "draw"}
    undealt = not_dealt(view)
    allowed = {}
    for tile in unseen:
        mask = 1 << len(seats)  # the rest may hold anything
        for location, seat in enumerate(seats):
            lacks = any(NUMBER_MASK[n] >> tile & 1 for n in voids[seat])
            if not lacks and (tile not in undealt or seat in drew):
                mask |= 1 << location
        allowed[tile] = mask
    return Belief(seats, sizes, allowed)


def not_dealt(view: PlayerView) -> set[int]:
    """Tiles the first hand's named lead shows were dealt to nobody (R-LEAD, R-LEAD-DEALT): any
    tile that the lead rule would have preferred to the tile actually led."""
    plays = [e for e in view.history if e.kind == "play"]
    if view.hand_number != 0 or not plays or by_lot(view.rules):
        return set()
    led = plays[0].tile.id
    return {t.id for t in unseen_tiles(view)
            if first_lead(view.rules, [1 << led | 1 << t.id])[1] == t.id}


@lru_cache(maxsize=8)
def _play_weights(beta: float) -> tuple[list[float], list[list[float]]]:
    """Each tile's weight exp(beta * pips), and the total weight of a tile mask's k-th byte."""
    weights = [math.exp(beta * PIPS[t]) for t in range(N_TILES)]
    by_byte = [[sum(weights[8 * k + i] for i in range(8) if byte >> i & 1 and 8 * k + i < N_TILES)
                for byte in range(256)] for k in range(4)]
    return weights, by_byte


class PlayModel:
    """How likely the other seats' observed plays were on a sampled deal, under a model of play
    that prefers heavy tiles: each playable tile is chosen with probability proportional to
    exp(beta * pips). Only plays made since the seat last drew are used (a hand before a draw
    is not known from a deal of the present). The first hand's named lead was no choice."""

    def __init__(self, view: PlayerView, fits: list[int], beta: float) -> None:
        """`fits[i]`: the tiles fitting the open ends before action i of the view's history."""
        self.weights, self.byte_weights = _play_weights(beta)
        forced_lead = view.hand_number == 0 and not by_lot(view.rules)
        later = [0] * view.players
        drew = [False] * view.players
        evidence = []
        for index in range(len(view.history) - 1, -1, -1):
            event = view.history[index]
            if event.kind == "draw":
                drew[event.seat] = True
            elif event.kind == "play":
                later[event.seat] |= 1 << event.tile.id
                choice = not (index == 0 and forced_lead)
                if event.seat != view.seat and not drew[event.seat] and choice:
                    evidence.append((event.seat, event.tile.id, fits[index], later[event.seat]))
        self.evidence = evidence

    def likelihood(self, hands: list[int]) -> float:
        weights = self.weights
        w0, w1, w2, w3 = self.byte_weights
        value = 1.0
        for seat, tile, fit, later in self.evidence:
            playable = (hands[seat] | later) & fit
            value *= weights[tile] / (w0[playable & 255] + w1[playable >> 8 & 255]
                                      + w2[playable >> 16 & 255] + w3[playable >> 24])
        return value
