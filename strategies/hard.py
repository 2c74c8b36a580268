"""hard (R-LEVEL): weighs every legal move with a handful of features read off the view.

Heavy tiles and doubles go early; tiles that keep a follow-up stay; numbers an opponent passed or
drew on are kept on the ends and numbers the partner lacks are not; ends that each opponent is
unlikely to match (its hand drawn from the unseen tiles it may hold) are preferred; when every
tile of the end
numbers is accounted for, the ends are locked only while we hold fewer pips; in fives games the
points made are weighed against the best reply handed to the next player; in kozel heavy tiles
weigh more near the losing line and a lone 0-0 (worth 25) is not kept. Every weight is a
constructor parameter (`hard?block=4`)."""

from __future__ import annotations

import functools
from typing import NamedTuple

from domsim.insight import fives_score
from domsim.strategy import Strategy
from domsim.tiles import (
    IS_DOUBLE,
    N_TILES,
    NUMBER_MASK,
    PIPS,
    TILE_A,
    TILE_B,
    TILES,
    mask_pips,
    tiles_of,
)
from domsim.view import Move, PlayerView

# Sets of tiles are bitmasks of tile ids here, sets of numbers 7-bit masks (see domsim.insight):
# the evaluation runs thousands of times per game. What the view shows (the voids, the unseen
# tiles, the line a move leaves and its fives count) the core reads off it.
_ID = {tile: t for t, tile in enumerate(TILES)}
_ZERO_ZERO = 0  # the id of 0-0


def _union(masks) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


#: _REACH[numbers]: the tiles showing any of the numbers.
_REACH: tuple[int, ...] = tuple(
    _union(NUMBER_MASK[n] for n in range(7) if numbers >> n & 1) for numbers in range(128)
)
#: _TILE_NUMBERS[t]: the numbers tile t shows.
_TILE_NUMBERS: tuple[int, ...] = tuple(1 << a | 1 << b for a, b in zip(TILE_A, TILE_B, strict=True))
#: _BYTE_NUMBERS[k][m]: the numbers shown by the tiles in byte k of a tile mask being m.
_BYTE_NUMBERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_union(_TILE_NUMBERS[8 * k + i] for i in range(8) if m >> i & 1 and 8 * k + i < N_TILES)
          for m in range(256))
    for k in range(4)
)


def _numbers_shown(tiles: int) -> int:
    """The numbers shown by the tiles of a mask."""
    return (_BYTE_NUMBERS[0][tiles & 0xFF] | _BYTE_NUMBERS[1][tiles >> 8 & 0xFF]
            | _BYTE_NUMBERS[2][tiles >> 16 & 0xFF] | _BYTE_NUMBERS[3][tiles >> 24])


@functools.cache
def _miss_chance(pool: int, fitting: int, drawn: int) -> float:
    """The chance that `drawn` tiles taken at random from `pool` miss all `fitting` of them."""
    chance = 1.0
    for i in range(drawn):
        chance *= max(pool - fitting - i, 0) / max(pool - i, 1)
    return chance


class _Table(NamedTuple):
    """Facts about the position shared by every move's evaluation."""

    hand: int
    voids: tuple[int, ...]  # per seat, the numbers it cannot hold
    unseen: int  # tiles neither in our hand nor on the line
    unseen_count: int
    shut: int  # numbers the next player cannot match: it lacks them, or no unseen tile shows them
    pools: tuple[tuple[int, int, int, float], ...]  # per opponent: (tiles it may hold, how many
    #                                                 of them, its hand size, its weight)
    opponent_pips: float
    shed_factor: float
    scoring: str
    next_seat: int
    partner: int | None


class Hard(Strategy):
    description = "weighted evaluation: shed, follow-ups, blocks, locks, partner, fives replies"

    def __init__(self, *, shed: float = 1.0, double: float = 2.0, follow: float = 1.5,
                 variety: float = 1.0, block: float = 4.0, lock: float = 6.0,
                 partner: float = 3.0, points: float = 1.0, reply: float = 0.8,
                 stuck: float = 8.0) -> None:
        self.weights = dict(shed=shed, double=double, follow=follow, variety=variety,
                            block=block, lock=lock, partner=partner, points=points, reply=reply,
                            stuck=stuck)

    def choose(self, view: PlayerView) -> Move:
        table = self._table(view)
        best, best_key = None, None
        for move in view.legal_moves:
            tile = move.tile
            key = (self.evaluate(view, table, move), tile.a + tile.b, tile.b, -move.end)
            if best_key is None or key > best_key:  # the first best, as max() picks
                best, best_key = move, key
        return best

    def _table(self, view: PlayerView) -> _Table:
        voids, hand, unseen = view.void_masks, view.hand_mask, view.unseen_mask
        unseen_count = unseen.bit_count()
        counts, players = view.hand_counts, view.players
        held = sum(counts) - counts[view.seat]
        pips_per_tile = mask_pips(unseen) / max(unseen_count, 1)
        opponent_pips = pips_per_tile * held / max(players - 1, 1)
        partner = view.partner()
        next_seat = (view.seat + 1) % players
        pools = []
        for seat in range(players):
            if seat != view.seat and seat != partner:
                pool = unseen & ~_REACH[voids[seat]]
                pools.append((pool, pool.bit_count(), counts[seat],
                              2.0 if seat == next_seat else 1.0))
        unmatched = 127 & ~_numbers_shown(unseen)
        return _Table(hand, voids, unseen, unseen_count, voids[next_seat] | unmatched,
                      tuple(pools), opponent_pips, self._shed_factor(view),
                      view.rules.variant.scoring, next_seat, partner)

    def evaluate(self, view: PlayerView, table: _Table, move: Move) -> float:
        w = self.weights
        tile = _ID[move.tile]
        rest = table.hand & ~(1 << tile)
        ends = view.ends_after(move)
        reach = 0  # the tiles that match an end
        for n in ends:
            reach |= NUMBER_MASK[n]
        score = w["shed"] * PIPS[tile] * table.shed_factor
        if IS_DOUBLE[tile]:
            score += w["double"]
        score += w["follow"] * (rest & reach).bit_count() / 2
        score += w["variety"] * _numbers_shown(rest).bit_count()
        score += w["block"] * self._blocking(table, ends)
        score += w["stuck"] * self._stuck(table, reach)
        score += w["lock"] * self._locking(table, reach, rest)
        if table.partner is not None:
            score -= w["partner"] * self._partner_harm(view, table, ends)
        if table.scoring == "fives":
            score += self._fives(view, table, move)
        elif table.scoring == "kozel" and tile == _ZERO_ZERO:
            score += 25 * w["shed"] / 4
        return score

    def _shed_factor(self, view: PlayerView) -> float:
        """Shedding matters more near kozel's losing line and hardly at all in classic."""
        scoring = view.rules.variant.scoring
        if scoring == "classic":
            return 0.3
        if scoring == "kozel":
            mine = view.scores[view.seat % 2] + view.carry
            return 1.0 + 2.0 * mine / view.target
        return 1.0

    def _blocking(self, table: _Table, ends: tuple[int, ...]) -> float:
        """How far the next player (an opponent unless the partner sits next) is shut out."""
        if table.next_seat == table.partner:
            return 0.0
        shut = 0
        for n in ends:
            shut += table.shut >> n & 1
        return shut / len(ends) + (1.0 if shut == len(ends) else 0.0)

    def _stuck(self, table: _Table, reach: int) -> float:
        """Chance that each opponent holds no tile in `reach` (drawing its hand from the unseen
        tiles it may hold), the next one counting double."""
        total = 0.0
        for pool, size, held, weight in table.pools:
            total += _miss_chance(size, (pool & reach).bit_count(), held) * weight
        return total

    def _locking(self, table: _Table, reach: int, rest: int) -> float:
        """Ends nobody else can match (no unseen tile in `reach`): good while we hold fewer
        pips, bad otherwise."""
        if table.unseen & reach:
            return 0.0
        return 1.0 if mask_pips(rest) < table.opponent_pips else -1.0

    def _partner_harm(self, view: PlayerView, table: _Table, ends: tuple[int, ...]) -> float:
        void = table.voids[table.partner]
        harm = 0
        for n in ends:
            harm += void >> n & 1
        harm /= len(ends)
        if view.hand_counts[table.partner] == 1:
            harm *= 3  # a partner about to go out needs an end it can match
        return harm

    def _fives(self, view: PlayerView, table: _Table, move: Move) -> float:
        """Points made now against the best reply the next player may have (R-FIVES-COUNT)."""
        w = self.weights
        made = fives_score(view.count_after(move))
        reply = self._best_reply(view, table, move)
        return w["points"] * made - w["reply"] * reply

    def _best_reply(self, view: PlayerView, table: _Table, move: Move) -> float:
        """The most the next player may score on the line `move` leaves, with an unseen tile
        showing a number it may hold, weighed by the share of the unseen tiles it holds."""
        void = table.voids[table.next_seat]
        best = 0
        for end, number in enumerate(view.ends_after(move)):
            if void >> number & 1:
                continue
            for reply in tiles_of(table.unseen & NUMBER_MASK[number]):
                best = max(best, fives_score(view.count_after(move, (TILES[reply], end))))
        share = view.hand_counts[table.next_seat] / max(table.unseen_count, 1)
        return best * min(1.0, 2 * share)
