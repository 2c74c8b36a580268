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

from dataclasses import dataclass

from domsim.insight import (
    count_after,
    ends_after,
    fives_score,
    known_voids,
    other_number,
    unseen_tiles,
)
from domsim.strategy import Strategy
from domsim.tiles import Tile
from domsim.view import Move, PlayerView

_ZERO_ZERO = Tile(0, 0)


@dataclass(frozen=True, slots=True)
class _Table:
    """Facts about the position shared by every move's evaluation."""

    voids: list[set[int]]
    unseen: set[Tile]
    unseen_by_number: list[int]
    opponent_pips: float
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
        return max(view.legal_moves,
                   key=lambda m: (self.evaluate(view, table, m), m.tile.pips, m.tile.b, -m.end))

    def _table(self, view: PlayerView) -> _Table:
        unseen = unseen_tiles(view)
        by_number = [0] * 7
        for tile in unseen:
            by_number[tile.a] += 1
            if not tile.is_double:
                by_number[tile.b] += 1
        others = [s for s in range(view.players) if s != view.seat]
        held = sum(view.hand_counts[s] for s in others)
        pips_per_tile = sum(t.pips for t in unseen) / max(len(unseen), 1)
        opponent_pips = pips_per_tile * held / max(len(others), 1)
        partner = view.partner()
        return _Table(known_voids(view), unseen, by_number, opponent_pips,
                      (view.seat + 1) % view.players, partner)

    def evaluate(self, view: PlayerView, table: _Table, move: Move) -> float:
        w = self.weights
        tile = move.tile
        rest = [t for t in view.hand if t != tile]
        ends = ends_after(view, move)
        score = w["shed"] * tile.pips * self._shed_factor(view, rest)
        if tile.is_double:
            score += w["double"]
        score += w["follow"] * sum(1 for t in rest if t.a in ends or t.b in ends) / 2
        score += w["variety"] * len({n for t in rest for n in t})
        score += w["block"] * self._blocking(view, table, ends)
        score += w["stuck"] * self._stuck(view, table, ends)
        score += w["lock"] * self._locking(table, ends, rest)
        if table.partner is not None:
            score -= w["partner"] * self._partner_harm(view, table, ends)
        if view.rules.variant.scoring == "fives":
            score += self._fives(view, table, move)
        if view.rules.variant.scoring == "kozel" and tile == _ZERO_ZERO:
            score += 25 * w["shed"] / 4
        return score

    def _shed_factor(self, view: PlayerView, rest: list[Tile]) -> float:
        """Shedding matters more near kozel's losing line and hardly at all in classic."""
        scoring = view.rules.variant.scoring
        if scoring == "classic":
            return 0.3
        if scoring == "kozel":
            mine = view.scores[view.seat % 2] + view.carry
            return 1.0 + 2.0 * mine / view.target
        return 1.0

    def _blocking(self, view: PlayerView, table: _Table, ends: list[int]) -> float:
        """How far the next player (an opponent unless the partner sits next) is shut out."""
        if table.next_seat == table.partner:
            return 0.0
        void = table.voids[table.next_seat]
        shut = sum(1 for n in ends if n in void or table.unseen_by_number[n] == 0)
        return shut / len(ends) + (1.0 if shut == len(ends) else 0.0)

    def _stuck(self, view: PlayerView, table: _Table, ends: list[int]) -> float:
        """Chance that each opponent holds no tile for these ends (drawing its hand from the
        unseen tiles it may hold), the next one counting double."""
        total = 0.0
        for seat in range(view.players):
            if seat == view.seat or seat == table.partner:
                continue
            void = table.voids[seat]
            pool = [t for t in table.unseen if t.a not in void and t.b not in void]
            fitting = sum(1 for t in pool if t.a in ends or t.b in ends)
            chance = 1.0
            for i in range(view.hand_counts[seat]):
                chance *= max(len(pool) - fitting - i, 0) / max(len(pool) - i, 1)
            total += chance * (2.0 if seat == table.next_seat else 1.0)
        return total

    def _locking(self, table: _Table, ends: list[int], rest: list[Tile]) -> float:
        """Ends nobody else can match: good while we hold fewer pips, bad otherwise."""
        if any(table.unseen_by_number[n] for n in ends):
            return 0.0
        mine = sum(t.pips for t in rest)
        return 1.0 if mine < table.opponent_pips else -1.0

    def _partner_harm(self, view: PlayerView, table: _Table, ends: list[int]) -> float:
        void = table.voids[table.partner]
        harm = sum(1 for n in ends if n in void) / len(ends)
        if view.hand_counts[table.partner] == 1:
            harm *= 3  # a partner about to go out needs an end it can match
        return harm

    def _fives(self, view: PlayerView, table: _Table, move: Move) -> float:
        """Points made now against the best reply the next player may have (R-FIVES-COUNT)."""
        w = self.weights
        count = count_after(view, move)
        made = fives_score(count)
        reply = self._best_reply(view, table, move, count)
        return w["points"] * made - w["reply"] * reply

    def _best_reply(self, view: PlayerView, table: _Table, move: Move, count: int) -> float:
        if not view.end_counts:
            ends = [(move.tile.a, move.tile.a * (2 if move.tile.is_double else 1)),
                    (move.tile.b, move.tile.b * (2 if move.tile.is_double else 1))]
            total = sum(c for _, c in ends)
        else:
            ends = [(n, c) for n, c in zip(view.ends, view.end_counts, strict=False)
                    if n is not None]
            number = other_number(move.tile, view.ends[move.end])
            ends[move.end] = (number, number * 2 if move.tile.is_double else number)
            total = count
        void = table.voids[table.next_seat]
        best = 0
        for tile in table.unseen:
            for number, counted in ends:
                if number in (tile.a, tile.b) and number not in void:
                    new = other_number(tile, number)
                    best = max(best, fives_score(total - counted + (2 * new if tile.is_double
                                                                     else new)))
        share = view.hand_counts[table.next_seat] / max(len(table.unseen), 1)
        return best * min(1.0, 2 * share)
