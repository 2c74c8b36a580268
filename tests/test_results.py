"""The run folder's format (domsim.results, docs/SCHEMA.md): typed games columns that agree with
each other, the manifest as Parquet metadata, CSV that reads back to the same typed table, and a
schema page that names every column."""

from __future__ import annotations

import json
import os
import random
import re
import resource
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from clitools import invoke
from handrun import write_run

from domsim.plan.schedule import Schedule
from domsim.results import table as table_module
from domsim.results.columns import SCHEDULED, cells, games_schema, winning_names
from domsim.results.parts import records_parts
from domsim.results.run import load_run
from domsim.results.summary import COLUMNS
from domsim.results.table import MANIFEST_KEY, read_games
from domsim.results.validate import row_problem
from domsim.rules import make_rules

SCHEMA_PAGE = Path(__file__).parent.parent / "docs" / "SCHEMA.md"
RUN = ["tourney", "--variant", "kozel", "-p", "duo=easy+medium", "-p", "hard", "--games", "4",
       "-j", "1", "--seed", "2", "--silent"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("results")
    for name, extra in (("parquet", []), ("csv", ["--output-format", "csv"])):
        assert invoke(*RUN, *extra, "--out", str(base / name)).exit_code == 0
    return base


def test_games_columns_are_typed_and_agree(runs):
    table = pq.read_table(runs / "parquet" / "games.parquet")
    kinds = table.schema
    assert pa.types.is_dictionary(kinds.field("pairing").type)
    assert pa.types.is_dictionary(kinds.field("entrant_0").type)
    assert kinds.field("winners").type == pa.list_(pa.int8())
    assert kinds.field("hand_points").type == pa.list_(pa.list_(pa.int64()))
    assert pa.types.is_map(kinds.field("time_hist_0").type)
    for row in table.to_pylist():
        assert row["winner_entrants"] == list(dict.fromkeys(row[f"entrant_{seat}"]
                                                            for seat in row["winners"]))
        assert row["entrant_0"] == row["entrant_2"] and row["entrant_1"] == row["entrant_3"]
        assert len(row["hand_points"]) == row["hands"]
        assert all(len(points) == 2 for points in row["hand_points"])
    frame = table.to_pandas()
    assert set(frame["entrant_0"].cat.categories) == {"duo", "hard"}


def first_row_check(runs):
    """The first game of the kozel run, and what the table's checks say of it edited."""
    run = load_run(runs / "parquet")
    row = run.table.slice(0, 1).to_pylist()[0]
    schedule = Schedule(run.config.games, len(run.pairings), run.rules.sides, run.config.duplicate,
                        run.config.seed)

    def problem(edits: dict) -> str | None:
        return row_problem(run.rules, run.entrants, run.pairings, schedule, {**row, **edits},
                           set())

    return run, row, problem


def test_every_column_of_the_table_is_computed_and_checked(runs):
    """COLUMNS (domsim.results.columns) makes the schema, the row and the checks: a played row
    passes, every cell the schedule decides is held to it, and only nullable cells are null."""
    run, row, problem = first_row_check(runs)
    assert list(row) == games_schema(run.rules).names
    assert problem({}) is None
    for name, column, _ in cells(run.rules):
        if column.check == SCHEDULED:
            value = row[name] + 1000 if isinstance(row[name], int) else f"{row[name]}?"
            edited = {**row, name: value}  # winner_entrants kept true to the edited names
            names = [edited[f"entrant_{seat}"] for seat in range(run.rules.players)]
            edited["winner_entrants"] = winning_names(names, row["winners"])
            assert problem(edited) == f"{name} {value!r}, but the schedule has {row[name]!r}"
        if not column.nullable:
            assert problem({name: None}) == f"no {name}"


@pytest.mark.parametrize(("edits", "message"), [
    ({"blocked_hands": 99}, "hand counts no game has"),
    ({"capicu_hands": -1}, "hand counts no game has"),
    ({"winners": [0, 0]}, "winners [0, 0], which are not seats"),
    ({"winner_entrants": ["nobody"]}, "winner_entrants ['nobody'], which are not its winners' "
                                      "names"),
    ({"faults_3": -1}, "a negative fault count"),
    ({"time_hist_1": [(3, -2)]}, "a decision-time histogram that is not counts per bucket"),
    ({"time_hist_1": None}, "a decision-time histogram that is not counts per bucket"),
    ({"time_p50_ms_0": None, "time_max_ms_0": None}, None),  # a seat that made no decision
])
def test_a_cell_no_played_game_holds_is_refused_by_its_columns_check(runs, edits, message):
    assert first_row_check(runs)[2](edits) == message


def test_games_parquet_carries_the_final_manifest(runs):
    metadata = pq.read_schema(runs / "parquet" / "games.parquet").metadata
    manifest = json.loads((runs / "parquet" / "manifest.json").read_text())
    checksums = manifest.pop("checksums")  # of the games file itself: only in manifest.json
    assert json.loads(metadata[MANIFEST_KEY.encode()]) == manifest
    assert set(checksums) == {"games.parquet"}
    assert manifest["partial"] is False


def test_csv_reads_back_to_the_same_typed_table(runs):
    schema = games_schema(make_rules("kozel", 4))
    text = (runs / "csv" / "games.csv").read_text()
    assert '"[[' in text  # hand_points as JSON
    steady = [name for name in schema.names if not name.startswith("time_")]
    from_csv = read_games(runs / "csv", schema)
    from_parquet = read_games(runs / "parquet", schema)
    assert from_csv.schema == from_parquet.schema.remove_metadata()
    assert from_csv.select(steady).to_pylist() == from_parquet.select(steady).to_pylist()
    assert from_csv.column("time_hist_0").type == schema.field("time_hist_0").type


@pytest.mark.parametrize("variant, players", [("block", 2), ("kozel", 4), ("block", 3)])
def test_the_schema_page_documents_every_column(variant, players):
    page = SCHEMA_PAGE.read_text()
    for name in games_schema(make_rules(variant, players)).names:
        assert f"`{re.sub(r'_[0-9]+$', '_N', name)}`" in page, name
    for name in COLUMNS:
        assert f"| `{name}` |" in page, name
    assert "docs/SCHEMA.md" in (SCHEMA_PAGE.parent.parent / "README.md").read_text()


def test_a_games_table_of_another_format_is_a_one_line_error(tmp_path):
    run = write_run(tmp_path / "old")
    table = pq.read_table(run / "games.parquet")
    winners = pa.array([",".join(map(str, w)) for w in table.column("winners").to_pylist()])
    old = table.set_column(table.schema.get_field_index("winners"), "winners", winners)
    pq.write_table(old, run / "games.parquet")  # as domsim wrote it before typed columns
    result = invoke("stats", str(run))
    assert result.exit_code == 1 and len(result.stderr.strip().splitlines()) == 1
    assert "cannot read the games in" in result.stderr


def test_more_records_parts_than_a_process_may_open_merge_in_game_id_order(tmp_path):
    """A long run played a pairing a batch (runner.play.by_pairing) has a records part a batch,
    their games interleaved: they merge into game-id order under a limit of open files below
    their number (a run of 2,000 batches against the common 1,024), and no merge file is left."""
    limit = len(os.listdir("/proc/self/fd")) + table_module.MERGED_AT_ONCE + 8
    parts = tmp_path / "parts"
    parts.mkdir()
    ids = list(range(10 * (limit + 50)))
    random.Random(1).shuffle(ids)
    for start in range(0, len(ids), 10):
        chunk = sorted(ids[start:start + 10])
        (parts / f"records-{chunk[0]:09d}.jsonl").write_text(
            "".join(f'{{"game_id": {game_id}, "moves": []}}\n' for game_id in chunk))
    names = sorted(path.name for path in parts.iterdir())
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
    try:
        with (tmp_path / "records.jsonl").open("w", encoding="utf-8") as target:
            table_module._merge_records(records_parts(tmp_path), target)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    merged = (tmp_path / "records.jsonl").read_text().splitlines()
    assert [json.loads(line)["game_id"] for line in merged] == list(range(len(ids)))
    assert sorted(path.name for path in parts.iterdir()) == names


def test_interleaved_parts_are_sorted_a_block_of_rounds_at_a_time(tmp_path):
    """A run played a pairing a batch interleaves its parts' games only within the block of
    rounds its batches share: those parts are sorted together, a block at a time, never the
    whole table (memory stays flat); a part whose games all come first is a run of its own."""
    def part(ids: list[int]) -> Path:
        path = tmp_path / f"games-{ids[0]:09d}.parquet"
        pq.write_table(pa.table({"game_id": pa.array(ids, pa.int64())}), path)
        return path

    singles = [part([0]), part([1])]  # the first batches: a game each
    blocks = [[part([r * 6 + pairing * 2 + seating for r in (2 * block, 2 * block + 1)
                     for seating in (0, 1) if r * 6 + pairing * 2 + seating > 1])
               for pairing in range(3)] for block in range(3)]
    runs = table_module._overlapping_runs(sorted(tmp_path.glob("games-*.parquet")))
    assert [set(run) for run in runs] == [{singles[0]}, {singles[1]}, *map(set, blocks)]
