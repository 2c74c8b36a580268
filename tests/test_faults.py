"""The fault policy (R-SEAT-FAULT): `--on-fault forfeit` scores a faulting side's game as lost
(the record says why), `substitute` lets the stand-in's moves count; faults show in every printed
table, and a run warns (or stops) when an entrant's fault rate passes --max-fault-rate."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from clitools import invoke

from domsim.game import play_game
from domsim.record import forfeit_winners, verify
from domsim.rules import make_rules

BROKEN = Path(__file__).parent / "broken"
RAISES = str(BROKEN / "raises.py")


@pytest.mark.parametrize("variant, players, faulted, winners, scored", [
    ("block", 2, [True, False], [0], [1]),            # the faulting seat's win is lost
    ("block", 2, [False, True], [0], [0]),            # a clean winner keeps it
    ("block", 2, [True, True], [0], None),            # both faulted: the game stands
    ("draw", 4, [False, True, False, False], [1], [0, 2, 3]),  # the clean seats share it
    ("draw", 4, [False, True, False, False], [2], [2]),
    ("partnership", 4, [False, False, False, True], [1, 3], [0, 2]),  # a team loses together
    ("block", 2, [False, False], [0], None),          # no fault: nothing forfeited
])
def test_a_forfeit_takes_the_win_from_the_faulting_sides(variant, players, faulted, winners,
                                                         scored):
    rules = make_rules(variant, players)
    assert forfeit_winners(rules, faulted, winners) == scored


def test_forfeit_scores_the_game_lost_and_the_record_says_why_while_substitute_counts_it():
    rules = make_rules("block", 2)
    forfeited = play_game(rules, [RAISES, "easy"], 4, on_fault="forfeit")
    counted = play_game(rules, [RAISES, "easy"], 4, on_fault="substitute")
    assert forfeited["hands"] == counted["hands"]  # the same game, scored two ways
    assert forfeited["forfeit"]["seats"] == [0] and forfeited["forfeit"]["winners"] == [1]
    assert "boom in choose" in forfeited["forfeit"]["reason"]
    assert "forfeit" not in counted and counted["on_fault"] == "substitute"
    assert verify(forfeited, 0)[1] == [] and verify(counted, 0)[1] == []


def test_the_crashing_bot_loses_its_compare_and_the_block_shows_its_faults(tmp_path):
    out = tmp_path / "run"
    result = invoke("compare", RAISES, "easy", "--variant", "block", "--elo0", "0", "--elo1",
                    "50", "--seed", "3", "-j", "1", "--silent", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "H0 accepted" in result.stdout and "W-L-S: 0-" in result.stdout
    games = int(json.loads((out / "compare.json").read_text())["games"])
    assert f"Faults: raises {games} (in {games} games), easy 0 (in 0 games)" in result.stdout
    figures = json.loads((out / "compare.json").read_text())
    assert figures["verdict"] == "H0" and figures["faults"]["raises"]["games"] == games


def test_substitute_lets_the_stand_in_win_for_the_crashing_bot(tmp_path):
    result = invoke("compare", RAISES, "easy", "--variant", "block", "--elo0", "0", "--elo1",
                    "50", "--seed", "3", "-j", "1", "--silent", "--on-fault", "substitute",
                    "--out", str(tmp_path / "run"))
    assert "H1 accepted: raises is stronger" in result.stdout  # medium plays for it
    assert "a fault has the move made by the stand-in" in result.stdout


def test_the_tourney_summary_has_a_faults_column_and_the_run_warns_live(tmp_path):
    result = invoke("tourney", "--variant", "block", "-p", RAISES, "-p", "easy", "--games", "20",
                    "--seed", "1", "-j", "1", "--out", str(tmp_path / "run"),
                    "--max-fault-rate", "0.5")
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.splitlines()[:3]
    assert header.split()[-1] == "faults"
    # ranked (issue 48): easy, which won every game by forfeit, then raises
    assert rows[0].split()[1] == "easy" and rows[0].split()[-1] == "0"
    assert rows[1].split()[1] == "raises" and rows[1].split()[-1] == "20"
    assert "raises faulted in" in result.stderr and "over --max-fault-rate 50%" in result.stderr
    assert "W-L-S" in header and "0-20-0" in rows[1]  # forfeit, a tourney's default


def test_stop_on_faults_stops_the_run_resumably(tmp_path):
    out = tmp_path / "run"
    result = invoke("tourney", "--variant", "block", "-p", RAISES, "-p", "easy", "--games", "200",
                    "--seed", "1", "-j", "1", "--out", str(out), "--silent",
                    "--max-fault-rate", "0.2", "--stop-on-faults")
    assert result.exit_code == 1
    assert "stopped: raises faulted in" in result.stderr and "--resume" in result.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["partial"] and manifest["games_completed"] < 200


@pytest.mark.parametrize("command, default", [("tourney", "forfeit"), ("compare", "forfeit"),
                                              ("tune", "forfeit"), ("calibrate", "substitute")])
def test_every_command_says_its_fault_policy(command, default):
    text = " ".join(invoke(command, "--help").stdout.split())
    assert "--on-fault [forfeit|substitute]" in text
    assert f"[default: {default}]" in text.split("--on-fault", 1)[1][:600]


@pytest.mark.parametrize("variant, target", [("block", 100), ("kozel", 101), ("classic", 0)])
def test_a_forfeited_game_is_lost_by_the_whole_target_in_every_figure(tmp_path, variant, target):
    """R-SEAT-FAULT, issue 37: the forfeiting side scores 0 and the other the target (kozel:
    the reverse, its points count against; classic has none), in one hand, never with the
    stand-in's board points (on 60428d1 a bot losing every game by forfeit had +48 a game)."""
    out = tmp_path / "run"
    result = invoke("tourney", "--variant", variant, "-p", RAISES, "-p", "easy", "--games", "4",
                    "--seed", "1", "-j", "1", "--silent", "--in-process", "--out", str(out))
    assert result.exit_code == 0, result.output
    lines = {(row["pairing"], row["entrant"]): row
             for row in csv.DictReader((out / "summary.csv").open())}
    raises, easy = lines["all", "raises"], lines["all", "easy"]
    assert raises["wins"] == "0" and raises["losses"] == "4"
    for column in ("margin_per_game", "margin_per_hand"):
        assert float(raises[column]) == -target and float(easy[column]) == target
    stats = json.loads(invoke("stats", str(out), "--json", "--samples", "10").stdout)
    points = {line["entrant"]: line for line in stats["points"]}
    assert points["raises"]["margin"] == -target
