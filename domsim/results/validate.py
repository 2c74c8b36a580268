"""Whether a games table can be what its run played: every row is the game its id names in the
run's schedule (deal, pairing, seating, seed, who sat where), once, with cells a played game can
have (each column's check, domsim.results.columns). The statistics read nothing else, so a table
edited by hand or taken from another run is refused in one line instead of breaking a formula."""

from __future__ import annotations

import pyarrow as pa

from ..plan.config import TourneyConfig
from ..plan.pairings import Entrant
from ..plan.schedule import Schedule
from ..rules import Rules
from .columns import Place, cell_problem, scheduled_cells
from .wholetable import clears


def table_problem(config: TourneyConfig, rules: Rules, entrants: list[Entrant],
                  pairings: list[tuple[int, ...]], table: pa.Table) -> str | None:
    """The first row that its run cannot have played, and why; None if every row can be."""
    schedule = Schedule(config.games, len(pairings), rules.sides, config.duplicate, config.seed,
                        config.run_key, config.deal_groups)
    if clears(rules, entrants, pairings, schedule, table):  # whole columns at once
        return None
    seen: set[int] = set()
    for batch in table.to_batches():
        for row in batch.to_pylist():
            problem = row_problem(rules, entrants, pairings, schedule, row, seen)
            if problem:
                return f"game id {row['game_id']}: {problem}"
    return None


def row_problem(rules: Rules, entrants: list[Entrant], pairings: list[tuple[int, ...]],
                schedule: Schedule, row: dict, seen: set[int]) -> str | None:
    """Why the run cannot have played the row (its game id recorded in `seen`), or None."""
    if problem := cell_problem(rules, row):
        return problem
    game_id = row["game_id"]
    if not 0 <= game_id < schedule.games:
        return f"outside the run's {schedule.games} games"
    if game_id in seen:
        return "a second row"
    seen.add(game_id)
    slot = schedule.slot(game_id)
    place = Place(rules, entrants, pairings[slot.pairing], slot)
    return next((f"{key} {row[key]!r}, but the schedule has {value!r}"
                 for key, value in scheduled_cells(place).items() if row[key] != value), None)
