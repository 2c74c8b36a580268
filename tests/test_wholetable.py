"""The games table checked whole (domsim.results.wholetable) never clears a table that the row
checks (domsim.results.validate.row_problem) refuse: every cell of a 4-player kozel run and a
3-player draw run is edited in turn to values a hand edit or another run would put there, and
whenever the whole-table check clears the edited table, no row of it has a problem."""

from __future__ import annotations

import pyarrow as pa
import pytest
from clitools import invoke

from domsim.plan.schedule import Schedule
from domsim.results.columns import games_schema
from domsim.results.run import load_run
from domsim.results.validate import row_problem
from domsim.results.wholetable import clears

RUNS = {"kozel": ["--variant", "kozel", "-p", "duo=easy+medium", "-p", "hard"],
        "draw": ["--variant", "draw", "--players", "3", "-p", "easy", "-p", "medium", "-p",
                 "hard", "--no-duplicate"]}


@pytest.fixture(scope="module", params=list(RUNS))
def run(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(request.param) / "run"
    result = invoke("tourney", *RUNS[request.param], "--games", "6", "-j", "1", "--seed", "2",
                    "--silent", "--out", str(out))
    assert result.exit_code == 0, result.output
    return load_run(out)


def verdicts(run, rows: list[dict]) -> tuple[bool, bool]:
    """(whole-table check clears it, the row checks find no problem) of a table of `rows`."""
    table = pa.Table.from_pylist(rows, schema=games_schema(run.rules))
    config = run.config
    schedule = Schedule(config.games, len(run.pairings), run.rules.sides, config.duplicate,
                        config.seed, config.run_key)
    seen: set[int] = set()
    fine = all(row_problem(run.rules, run.entrants, run.pairings, schedule, row, seen) is None
               for row in rows)
    return clears(run.rules, run.entrants, run.pairings, schedule, table), fine


def edits(name: str, value, others: list):
    """Values a hand edit or another run might put in cell `name` holding `value`."""
    found = [None, *others]
    if isinstance(value, bool):
        return [*found, not value]
    if isinstance(value, int):
        return [*found, value + 1, value - 1, -value - 1, value + 1000]
    if isinstance(value, str):
        return [*found, value + "?", "nobody"]
    if name.startswith("time_hist"):  # a map's items (a null item aborts Arrow)
        return [*found, [], [(0, -1)], [(0, None)], value + [(0, 1)], value[1:]]
    if isinstance(value, list):
        return [*found, [], value[::-1], value + value[:1], value[:-1], [None]]
    return found


def test_an_honest_table_is_cleared_whole(run):
    assert verdicts(run, run.table.to_pylist()) == (True, True)


def test_no_edit_the_rows_refuse_is_cleared_whole(run):
    rows = run.table.to_pylist()
    refused = tried = 0
    for index, row in enumerate(rows):
        for name, value in row.items():
            if name.startswith("time_p") or name.startswith("time_max"):
                continue  # any value of the type
            others = list({repr(other[name]): other[name] for other in rows}.values())
            for edited_value in edits(name, value, others):
                if edited_value == value:
                    continue
                edited = [*rows[:index], {**row, name: edited_value}, *rows[index + 1:]]
                try:
                    cleared, fine = verdicts(run, edited)
                except (pa.ArrowException, TypeError, ValueError, OverflowError):
                    continue  # not a value of the column's type: no table holds it
                tried += 1
                refused += not fine
                assert fine or not cleared, (name, value, edited_value)
    assert tried > 100 and refused > tried // 3
