"""Issue 48: a game's result has one source, the one the run scored (domsim.record.GameResult),
and every surface tells it with its reason: the games table, `--game-lines`, `show`'s transcript
(from records.jsonl, or played again), the game page and the person's table after `q`. On
455ac6a a forfeited game was shown as won by the bot that forfeited."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from clitools import invoke

from domsim.cli import main
from domsim.engine import State
from domsim.pages.gamepage import game_frames
from domsim.record import GameResult, read_records
from domsim.rules import make_rules

LATE_CRASH = str(Path(__file__).parent / "broken" / "late_crash.py")
#: How every surface words the forfeit of the bot that raises in hand 2.
FORFEIT = "easy wins by forfeit (crashy: exception at hand 2"


@pytest.fixture(scope="module")
def forfeited(tmp_path_factory):
    """A tourney in which crashy raises in hand 2 of every game, kept twice: with records and
    without (whose games `show` plays again); (its output, the two folders)."""
    runs = tmp_path_factory.mktemp("forfeits")
    outputs = []
    for name, kept in (("kept", ["--records"]), ("played", [])):
        result = invoke("tourney", "--variant", "fives", "-p", f"crashy={LATE_CRASH}", "-p",
                        "easy", "--games", "4", "--seed", "1", "-j", "1", "--in-process",
                        "--game-lines", *kept, "--out", str(runs / name))
        assert result.exit_code == 0, result.output
        outputs.append(result.stdout)
    return outputs[0], runs / "kept", runs / "played"


def forfeited_rows(run: Path) -> list[dict]:
    rows = pq.read_table(run / "games.parquet").to_pylist()
    faulted = [row for row in rows if row["faults_0"] + row["faults_1"]]
    assert faulted and all(row["winner_entrants"] == ["easy"] for row in faulted)
    return faulted


def test_game_lines_name_the_tables_winner_by_forfeit_with_its_reason(forfeited):
    output, run, _ = forfeited
    for row in forfeited_rows(run):
        (line,) = [line for line in output.splitlines()
                   if line.startswith(f"Finished game {row['game_id']} ")]
        assert f"): {FORFEIT}) {{on the board " in line, line
        assert f"crashy {row['score_0' if row['entrant_0'] == 'crashy' else 'score_1']}" in line


@pytest.mark.parametrize("folder", [1, 2], ids=["from records", "played again"])
def test_show_and_the_page_tell_the_tables_winner_by_forfeit(forfeited, tmp_path, folder):
    run = forfeited[folder]
    for row in forfeited_rows(run):
        game = str(row["game_id"])
        shown = invoke("show", str(run), "--game", game)
        assert shown.exit_code == 0, shown.output
        last = shown.stdout.strip().splitlines()[-1]
        assert last.startswith(f"Game over: {FORFEIT}; on the board "), last
        page = tmp_path / f"game{game}.html"
        assert invoke("show", str(run), "--game", game, "--html", str(page)).exit_code == 0
        outcome = re.search(r'"outcome":"([^"]*)"', page.read_text())[1]
        assert outcome == last.removeprefix("Game over: ") + "."


def test_the_record_read_back_gives_the_result_the_table_scored(forfeited):
    _, run, _ = forfeited
    records = {record["game_id"]: record for record in read_records(run / "records.jsonl")}
    for row in forfeited_rows(run):
        record = records[row["game_id"]]
        assert record["forfeit"]["winners"] == row["winners"]
        crashy = record["entrants"].index("crashy")
        assert record["faults"][crashy]["first_kind"] == "exception"
        assert record["faults"][crashy]["first_hand"] == 2
        assert game_frames(record)["outcome"].startswith(FORFEIT)


def test_a_result_names_sides_and_says_a_shared_win():
    rules = make_rules("block", 2)
    state = State(rules)
    drawn = GameResult((0, 1), True, (0, 0), {})
    assert drawn.words(rules, ["easy", "hard"]) == "easy and hard share the win"
    assert GameResult((), True, (0, 0), {}).words(rules, ["easy", "hard"]) == "nobody wins"
    assert GameResult((1,), True, (3, 9), {}).line(rules, ["easy", "easy"]) == (
        "easy (seat 1) wins (scores easy (seat 0) 3, easy (seat 1) 9)")
    assert GameResult.of(rules, state, None, "forfeit").words(rules, ["a", "b"]) == (
        "not finished")
    teams = make_rules("partnership", 4)
    assert GameResult((1, 3), True, (10, 70), {0: "timeout at hand 4"}).words(
        teams, ["a", "b", "c", "d"]) == "b and d wins by forfeit (a and c: timeout at hand 4)"


def test_play_after_q_ends_with_who_won_in_words(tmp_path):
    """`domsim play` with a person who types `q`: the stand-in plays on, and the last line says
    who won by name, as the table did before (never `winners seats [1]`)."""
    record = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["play", "--variant", "fives", "-p", "human", "-p", "hard",
                                       "--seed", "4", "--record", str(record)], input="q\n",
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    (last,) = [line for line in result.stdout.splitlines() if line.startswith("Game over: ")]
    winner = {0: "human", 1: "hard"}[json.loads(record.read_text())["result"]["winners"][0]]
    assert re.fullmatch(rf"Game over: {winner} wins \(scores human \d+, hard \d+\)", last)


def test_old_records_without_the_fault_hand_still_say_the_kind():
    """A record of domsim before the first fault's kind and hand were kept names the kind it
    counted."""
    from domsim.record import fault_words

    assert fault_words({"timeouts": 0, "errors": 2, "illegal": 0}) == "exception"
    assert fault_words({"timeouts": 1, "errors": 0, "illegal": 0, "first_kind": "timeout",
                        "first_hand": 0}) == "timeout before the first hand"
    assert json.dumps(fault_words({"timeouts": 0, "errors": 0, "illegal": 1,
                                   "first_kind": "illegal move", "first_hand": 3})) == (
        '"illegal move at hand 3"')
