"""Which game is which: game ids map to (pairing, deal, seating), and a game's seed comes from the
run seed and its deal id only, so every pairing and every seating of a deal gets the same deals
whatever the worker, backend or resume (R-RNG).

Game ids run deal set by deal set: round j holds deal j for every pairing in turn, each played in
every seating (duplicate) or in one seating that rotates with j; with deal groups, round j holds
one deal per group of pairings. Any prefix of the ids is thus
spread evenly over the pairings, and `games` need not be a multiple of anything."""

from __future__ import annotations

import itertools
from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from ..seeding import game_seed

GameIds = TypeVar("GameIds", int, np.ndarray)


@dataclass(frozen=True)
class Slot:
    """Where one game id falls."""

    game_id: int
    deal_id: int
    pairing: int
    seating: int
    seed: int


@dataclass(frozen=True)
class Schedule:
    games: int
    pairings: int
    sides: int
    duplicate: bool
    seed: int
    run_key: str | None = None  # the run's secret (domsim.seeding.game_seed)
    #: The pairings in this many equal groups, in order, each group dealt deals of its own (1:
    #: every pairing plays every deal).
    deal_groups: int = 1

    @property
    def seatings_per_deal(self) -> int:
        return self.sides if self.duplicate else 1

    @property
    def round_games(self) -> int:
        """The games of one round: every pairing in every seating it plays the round's deals in
        (a bot meets each of them at most once a seat it holds, whatever the round)."""
        return self.pairings * self.seatings_per_deal

    @property
    def lanes(self) -> int:
        """The games of a round that share its deals: a pairing's place in its deal group, in
        each seating it plays (every pairing's, with one deal group)."""
        return self.round_games // self.deal_groups

    def lane(self, game_id: int) -> int:
        """A game's lane (of `lanes`): the games of one lane, a game a deal group a round, never
        share a deal, and hold the same places of their pairings' seats."""
        pairing, within = divmod(game_id % self.round_games, self.seatings_per_deal)
        return (pairing % (self.pairings // self.deal_groups)) * self.seatings_per_deal + within

    def slot(self, game_id: int) -> Slot:
        deal, pairing, seating = self.placed(game_id)
        return Slot(game_id, deal, pairing, seating, game_seed(self.seed, deal, self.run_key))

    def placed(self, game_id: GameIds) -> tuple[GameIds, GameIds, GameIds]:
        """(deal, pairing, seating) of a game id, or of each of an array of them."""
        per_deal = self.seatings_per_deal
        round_, rest = divmod(game_id, self.round_games)
        pairing, within = divmod(rest, per_deal)
        deal = round_ * self.deal_groups + pairing // (self.pairings // self.deal_groups)
        return deal, pairing, within if self.duplicate else round_ % self.sides

    def games_per_pairing(self) -> list[int]:
        """Counted per pairing, not per game: a run may plan more games than could be walked."""
        per_deal = self.seatings_per_deal
        deal_sets, rest = divmod(self.games, self.round_games)
        return [deal_sets * per_deal + min(per_deal, max(0, rest - p * per_deal))
                for p in range(self.pairings)]

    @property
    def whole_deal_sets(self) -> bool:
        """Whether every deal is played in every seating of every pairing."""
        return self.games % self.round_games == 0


def batches(game_ids: Iterable[int], size: int, singles: int = 0, small: int | None = None,
            most: int | None = None) -> Iterator[list[int]]:
    """Runs of consecutive ids cut into batches of at most `size` (a batch is one part file),
    made as they are asked for; the first `singles` batches hold one game each, so the progress
    bar has a rate from the first game on (a batch of slow games can take minutes). With
    `small`, only that many batches after the singles hold up to `size`, the rest up to `most`:
    what watches the run between batches (a fault rate, say) sees its first games early, and
    the bulk of the run plays in big batches."""
    batch: list[int] = []
    made = 0
    for game_id in game_ids:
        limit = 1 if made < singles else \
            size if small is None or most is None or made < singles + small else most
        if batch and (batch[-1] != game_id - 1 or len(batch) >= limit):
            yield batch
            batch = []
            made += 1
        batch.append(game_id)
    if batch:
        yield batch


def pairing_batches(schedule: Schedule, games: int, done: Container[int], size: int,
                    singles: int, small: int, most: int) -> Iterator[list[int]]:
    """The ids below `games` not in `done` in batches of one pairing each (every seating of its
    deals, in id order), made as they are asked for: the first `singles` batches hold one game
    each (the first ids), the next `small` up to `size` and the rest up to `most`; each pairing
    in turn over a block of rounds, so every pairing is played from the start."""
    per_deal, round_games = schedule.seatings_per_deal, schedule.round_games
    first = list(itertools.islice((g for g in range(games) if g not in done), singles))
    yield from ([game_id] for game_id in first)
    rounds, start, made = -(-games // round_games), 0, singles
    while start < rounds:
        end = min(rounds, start + max(1, (size if made < singles + small else most) // per_deal))
        for pairing in range(schedule.pairings):
            ids = [game_id for r in range(start, end) for seating in range(per_deal)
                   if (game_id := r * round_games + pairing * per_deal + seating) < games
                   and game_id not in done and game_id not in first]
            if ids:
                yield ids
                made += 1
        start = end
