"""What a run shows and writes about itself: summary.csv's Elo per entrant, the live standings,
the run.log header, and games per pairing rounded to whole deals."""

from __future__ import annotations

import csv
import json

import pytest
from clitools import invoke
from handrun import CONFIG, GAMES, write_run

from domsim import __version__
from domsim.analysis import run_statistics
from domsim.results.run import load_run
from domsim.results.summary import Tally
from domsim.runner.console import Standings

FAST = ["tourney", "--variant", "classic", "-p", "easy", "-p", "medium", "-p", "hard", "--seed",
        "4", "-j", "1"]


def test_summary_elo_is_the_ratings_and_the_head_to_head_of_stats(tmp_path):
    """One rating per entrant: summary.csv's rows over all pairings carry the ratings `stats`
    gives (Elo 0 the mean of the levels), its pairing rows the head to head over deals."""
    run = load_run(write_run(tmp_path / "r"))
    figures = run_statistics(run)
    rows = {(r["pairing"], r["entrant"]): r for r in figures["summary"]}
    for line in figures["ratings"]["entrants"]:
        row = rows["all", line["name"]]
        assert (row["elo"], row["elo_low"], row["elo_high"]) == (
            line["elo"], line["low"], line["high"])
    assert sum(line["elo"] for line in figures["ratings"]["entrants"]) == pytest.approx(0)
    for pair in figures["pairs"]:
        a = rows[f"{pair['a']} vs {pair['b']}", pair["a"]]
        b = rows[f"{pair['a']} vs {pair['b']}", pair["b"]]
        assert (a["elo"], a["elo_low"], a["elo_high"]) == pytest.approx(
            (pair["elo"], pair["elo_low"], pair["elo_high"]))
        assert (b["elo"], b["elo_low"], b["elo_high"]) == pytest.approx(
            (-pair["elo"], -pair["elo_high"], -pair["elo_low"]))
    assert rows["all", "hard"]["elo"] > rows["all", "medium"]["elo"] > rows["all", "easy"]["elo"]


def test_standings_rank_the_entrants_strongest_first(tmp_path):
    run = load_run(write_run(tmp_path / "r"))
    tally = Tally(run.rules, run.entrants, run.pairings)
    tally.add_table(run.table)
    lines = tally.standings(12, CONFIG.games)
    assert lines[0].startswith("Standings after 12 of 12 games (W-L-S")
    ranked = [line.split()[1] for line in lines[2:]]
    assert ranked == ["hard", "medium", "easy"]
    assert lines[2].split()[2:5] == ["8", "6-1-1", "6.5"]  # hard: game 8 shared with easy
    standings = Standings(games=5)
    assert not standings.due(4) and standings.due(5)
    assert not Standings().due(10 ** 6)


def test_standings_reach_run_log_and_the_terminal_and_the_log_starts_with_the_run(tmp_path):
    out = tmp_path / "run"
    result = invoke(*FAST, "--games", "12", "--standings-every", "6", "--out", str(out))
    assert result.exit_code == 0
    assert result.stderr.count("Standings after") == 2
    log = (out / "run.log").read_text().splitlines()
    assert "INFO command: domsim" in log[0]  # sys.argv: here the test runner's
    assert f"domsim {__version__}, seed 4" in log[1] and "entrants: easy; medium; hard" in log[2]
    assert sum("Standings after" in line for line in log) == 2
    quiet = invoke(*FAST, "--games", "6", "--standings-every", "6", "--silent",
                   "--out", str(tmp_path / "quiet"))
    assert "Standings" not in quiet.stderr
    assert "Standings after 6" in (tmp_path / "quiet" / "run.log").read_text()


def test_games_per_pairing_round_up_to_whole_deals_and_say_so(tmp_path):
    out = tmp_path / "run"
    result = invoke(*FAST, "--games-per-pairing", "3", "--silent", "--out", str(out))
    assert result.exit_code == 0
    with (out / "summary.csv").open() as source:
        games = {r["pairing"]: r["games"] for r in csv.DictReader(source) if r["pairing"] != "all"}
    assert set(games.values()) == {"4"} and len(games) == 3
    loud = invoke(*FAST, "--games-per-pairing", "3", "--out", str(tmp_path / "loud"))
    assert "3 games per pairing rounded up to 4: whole deals, each in 2 seatings" in loud.stderr
    clash = invoke(*FAST, "--games-per-pairing", "3", "--games", "9", "--out", str(tmp_path / "x"))
    assert clash.exit_code == 1 and "no --games" in clash.stderr


def test_stats_gives_the_ladder_verdict_to_calibration_runs_only(tmp_path):
    plain = write_run(tmp_path / "plain")
    text = invoke("stats", str(plain), "--samples", "20").stdout
    assert not any(line.startswith("ladder") for line in text.splitlines())
    assert "strongest first" in text
    ranked = text[text.index("strongest first"):].splitlines()[2:5]  # after the header
    assert [line.split()[0] for line in ranked] == ["hard", "medium", "easy"]
    calibration = write_run(tmp_path / "calibration")
    manifest = json.loads((calibration / "manifest.json").read_text())
    (calibration / "manifest.json").write_text(json.dumps({**manifest, "purpose": "calibration"}))
    text = invoke("stats", str(calibration), "--samples", "20").stdout
    assert "ladder strictly increasing in entrant order" in text
    ranked = text[text.index("whole deals)"):].splitlines()[2:5]
    assert [line.split()[0] for line in ranked] == ["easy", "medium", "hard"]


def test_a_resumed_run_stands_on_all_its_games(tmp_path):
    out = write_run(tmp_path / "run", GAMES[:8], output_format="parts")
    result = invoke("tourney", "--out", str(out), "--resume", "-j", "1",
                    "--standings-every", "1")
    assert result.exit_code == 0, result.output
    block = result.stderr[result.stderr.index("Standings after 9 of 12"):].splitlines()[2:5]
    assert sum(int(line.split()[2]) for line in block) == 2 * 9
