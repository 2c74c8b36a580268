"""A games table checked whole, column by column (Arrow and numpy, no Python per row), against
the conditions `validate.row_problem` checks a row for: the cells no played game can hold and
the schedule's cells. It only ever clears a table: one it cannot clear is read row by row by
domsim.results.validate, whose message names the first row the run cannot have played."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..plan.pairings import Entrant
from ..plan.schedule import Schedule, Slot
from ..rules import Rules
from ..seeding import game_seed
from .columns import COLUMNS, TIMING_PREFIX, Place, cells, scheduled_cells
from .sides import codes, column

#: Scheduled cells that change with the deal; the others are fixed by pairing and seating.
DEALT = ("deal_id", "seed")
HISTOGRAM = f"{TIMING_PREFIX}hist_{{}}"
#: The columns whose own check (domsim.results.columns) these checks stand for: a column that
#: gains a check is read row by row until it is covered here too.
COVERED = frozenset({"winners", "winner_entrants", "hands", "blocked_hands", "capicu_hands",
                     "hand_points", "faults_{}", HISTOGRAM})


def clears(rules: Rules, entrants: list[Entrant], pairings: list[tuple[int, ...]],
           schedule: Schedule, table: pa.Table) -> bool:
    """Whether every row is a game the run can have played (False: read it row by row)."""
    checks: list[Callable[[], bool]] = [
        lambda: no_nulls(rules, table),
        lambda: ids_in_the_run(schedule, table),
        lambda: as_scheduled(rules, entrants, pairings, schedule, table),
        lambda: winners_fit(rules, entrants, table),
        lambda: counts_fit(rules, table),
        lambda: points_fit(rules, table),
    ]
    if {kind.name for kind in COLUMNS if callable(kind.check)} != COVERED:
        return False
    try:
        return all(check() for check in checks)
    except (pa.ArrowException, ValueError, TypeError, KeyError, IndexError, OverflowError):
        return False


def numbers(table: pa.Table, name: str) -> np.ndarray:
    return table.column(name).to_numpy()


def no_nulls(rules: Rules, table: pa.Table) -> bool:
    """No null where the column allows none, nor where its check would be handed one."""
    return all(table.column(name).null_count == 0 for name, kind, _ in cells(rules)
               if not kind.nullable or callable(kind.check))


def ids_in_the_run(schedule: Schedule, table: pa.Table) -> bool:
    ids = numbers(table, "game_id")
    return bool(ids.min() >= 0 and ids.max() < schedule.games
                and np.unique(ids).size == ids.size)


def as_scheduled(rules: Rules, entrants: list[Entrant], pairings: list[tuple[int, ...]],
                 schedule: Schedule, table: pa.Table) -> bool:
    """Each scheduled cell as the schedule has it: the deal's from the game id, the others
    looked up by (pairing, seating)."""
    deal, pairing, seating = schedule.placed(numbers(table, "game_id"))
    deals, which = np.unique(deal, return_inverse=True)
    seeds = np.array([game_seed(schedule.seed, int(d), schedule.run_key) for d in deals],
                     dtype=np.int64)
    if not (np.array_equal(numbers(table, "deal_id"), deal)
            and np.array_equal(numbers(table, "seed"), seeds[which])):
        return False
    combos = [[scheduled_cells(Place(rules, entrants, pairings[p], Slot(d, d, p, s, d)))
               for p in range(len(pairings)) for s in range(rules.sides)] for d in (0, 1)]
    if any({k: v for k, v in a.items() if k not in DEALT} != {k: v for k, v in b.items()
                                                             if k not in DEALT}
           for a, b in zip(*combos, strict=True)):
        return False  # a scheduled cell varies with the deal: only the rows can tell
    combo = pairing * rules.sides + seating
    for name in combos[0][0]:
        if name not in DEALT:
            expected = np.array([cells_[name] for cells_ in combos[0]], dtype=object)[combo]
            if not np.array_equal(column(table, name).to_numpy(zero_copy_only=False),
                                  expected):
                return False
    return True


def winners_fit(rules: Rules, entrants: list[Entrant], table: pa.Table) -> bool:
    """Winners are seats, once each, at least one; winner_entrants their entrants' names, each
    once, in the winners' order."""
    winners = column(table, "winners")
    seats = winners.flatten().to_numpy().astype(np.int64)
    row = pc.list_parent_indices(winners).to_numpy()
    if not (pc.min(pc.list_value_length(winners)).as_py() >= 1
            and seats.min() >= 0 and seats.max() < rules.players
            and np.unique(row * rules.players + seats).size == seats.size):
        return False
    names = [entrant.name for entrant in entrants]
    at_seat = np.stack([codes(column(table, f"entrant_{seat}"), names)
                        for seat in range(rules.players)], 1)
    if (at_seat < 0).any():
        return False
    named = at_seat[row, seats]
    again = np.zeros(named.size, dtype=bool)
    for back in range(1, rules.players):  # a name already named earlier in its row's list
        again[back:] |= (row[back:] == row[:-back]) & (named[back:] == named[:-back])
    said = column(table, "winner_entrants")
    said_names = codes(said.flatten(), names)
    counts = np.bincount(row[~again], minlength=table.num_rows)
    return bool(np.array_equal(pc.list_value_length(said).to_numpy(), counts)
                and np.array_equal(said_names, named[~again]))


def counts_fit(rules: Rules, table: pa.Table) -> bool:
    """At least one hand; hand counts within the hands; fault counts and decision-time counts
    never negative."""
    hands = numbers(table, "hands")
    fits = hands.min() >= 1 and all(
        ((counted := numbers(table, name)) >= 0).all() and (counted <= hands).all()
        for name in ("blocked_hands", "capicu_hands"))
    faults = all(numbers(table, f"faults_{seat}").min() >= 0 for seat in range(rules.players))
    times = all(
        (items := column(table, HISTOGRAM.format(seat)).items).null_count == 0
        and (items.to_numpy() >= 0).all() for seat in range(rules.players))
    return bool(fits and faults and times)


def points_fit(rules: Rules, table: pa.Table) -> bool:
    """Each hand's points: one integer per side, for every hand played."""
    points = column(table, "hand_points")
    hands = points.flatten()
    return bool(np.array_equal(pc.list_value_length(points).to_numpy(), numbers(table, "hands"))
                and hands.null_count == 0
                and (pc.list_value_length(hands).to_numpy() == rules.sides).all()
                and hands.flatten().null_count == 0)
