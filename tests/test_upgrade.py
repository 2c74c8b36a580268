"""`domsim upgrade`: run folders written by domsim 0.1 (kept in tests/data/legacy-0.1: a
finished kozel run with records, a finished block run as CSV, and a crashed fives run with its
parts) rewritten in this version's format, the old folder only read; readers of an old folder
say to upgrade it."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from clitools import invoke, one_line_error
from test_tourney import table

import domsim

LEGACY = Path(__file__).parent / "data" / "legacy-0.1"


@pytest.fixture
def legacy(tmp_path):
    """A copy of the 0.1 folders, to show that upgrading does not touch them."""
    shutil.copytree(LEGACY, tmp_path / "old")
    return tmp_path / "old"


def tree_digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def untimed(path: Path) -> list[dict]:
    records = [json.loads(line) for line in path.read_text().splitlines()]
    return [{k: v for k, v in record.items() if k != "timing"} for record in records]


def test_an_upgraded_run_equals_the_run_this_version_plays_from_its_seed(legacy, tmp_path):
    """easy and medium play as they did in 0.1 (R-RNG), so the upgraded table and records are
    what this version writes for the same settings, timing aside."""
    before = tree_digest(legacy)
    result = invoke("upgrade", str(legacy / "kozel"), str(tmp_path / "new"))
    assert result.exit_code == 0 and "4 of 4 games" in result.output and "complete" in result.output
    fresh = invoke("tourney", "--variant", "kozel", "-p", "easy", "-p", "medium", "-g", "4",
                   "--seed", "3", "--records", "--silent", "--out", str(tmp_path / "fresh"),
                   "--on-fault", "substitute")  # 0.1's policy
    assert fresh.exit_code == 0
    assert table(tmp_path / "new") == table(tmp_path / "fresh")
    assert untimed(tmp_path / "new" / "records.jsonl") == untimed(
        tmp_path / "fresh" / "records.jsonl")
    manifest = json.loads((tmp_path / "new" / "manifest.json").read_text())
    assert manifest["upgraded"]["domsim_version"] == "0.1.0" and manifest["checksums"]
    assert invoke("replay", "--run", str(tmp_path / "new")).exit_code == 0
    assert tree_digest(legacy) == before


def test_a_csv_run_upgrades_to_typed_columns(legacy, tmp_path):
    assert invoke("upgrade", str(legacy / "block"), str(tmp_path / "new")).exit_code == 0
    assert not (tmp_path / "new" / "games.parquet").exists()  # the run keeps its format
    stats = invoke("stats", str(tmp_path / "new"), "--json", "--samples", "50")
    assert stats.exit_code == 0 and json.loads(stats.output)["games"] == 24
    games = invoke("replay", "--run", str(tmp_path / "new"))
    assert games.exit_code == 1 and "records" in games.output + games.stderr  # none were kept
    text = (tmp_path / "new" / "games.csv").read_text().splitlines()
    assert "entrant_0" in text[0] and "winner_entrants" in text[0]


@pytest.mark.slow
def test_a_crashed_run_upgrades_partial_and_resumes_to_the_end(legacy, tmp_path):
    result = invoke("upgrade", str(legacy / "partial"), str(tmp_path / "new"))
    assert result.exit_code == 0 and "100 of 400 games" in result.output
    assert "--resume" in result.output
    resumed = invoke("tourney", "--out", str(tmp_path / "new"), "--resume", "--silent", "-j", "2")
    assert resumed.exit_code == 0, resumed.output
    rows = table(tmp_path / "new")
    assert [row["game_id"] for row in rows] == list(range(400))
    old = pq.read_table(legacy / "partial" / "parts" / "games-000000050.parquet").to_pylist()
    assert [(r["seat_0"], r["score_0"], r["score_1"]) for r in rows[50:100]] == [
        (r["seat_0"], r["score_0"], r["score_1"]) for r in old]


def test_readers_of_an_old_folder_say_to_upgrade_and_nothing_is_written(legacy, tmp_path):
    before = tree_digest(legacy)
    for args in (("stats", str(legacy / "kozel")),
                 ("tourney", "--out", str(legacy / "partial"), "--resume"),
                 ("replay", "--run", str(legacy / "kozel"))):
        one_line_error(invoke(*args), "convert it with `domsim upgrade")
    with pytest.raises(ValueError, match="convert it with `domsim upgrade"):
        domsim.load(legacy / "kozel")
    assert tree_digest(legacy) == before


def test_upgrade_refuses_a_current_run_and_an_existing_folder(legacy, tmp_path):
    assert invoke("upgrade", str(legacy / "kozel"), str(tmp_path / "new")).exit_code == 0
    one_line_error(invoke("upgrade", str(tmp_path / "new"), str(tmp_path / "again")),
                   "nothing to upgrade")
    one_line_error(invoke("upgrade", str(legacy / "block"), str(tmp_path / "new")),
                   "already exists")
    one_line_error(invoke("upgrade", str(tmp_path / "nowhere"), str(tmp_path / "x")),
                   "give the folder of a domsim 0.1 run")
    assert not (tmp_path / "again").exists() and not (tmp_path / "x").exists()
