"""One rating per entrant, one convention: summary.csv, `stats`, `Results.ratings()` and the
report give every entrant the same estimate and interval (Elo 0 the mean of the levels); no
printed interval has equal bounds; a sweep is a one-sided bound everywhere; a schedule seating an
entrant on two sides says so and rates it per side held."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from clitools import invoke

from domsim import api

ROOT = Path(__file__).resolve().parents[1]

BOUNDS = re.compile(r"\[([-+]?\d+(?:\.\d+)?)%?, ([-+]?\d+(?:\.\d+)?)%?\]")


def equal_bounds(text: str) -> list[str]:
    return [m.group(0) for m in BOUNDS.finditer(text) if m.group(1) == m.group(2)]


def read_summary(out) -> dict:
    with (out / "summary.csv").open(newline="") as source:
        return {(row["pairing"], row["entrant"]): row for row in csv.DictReader(source)}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("rating") / "run"
    result = invoke("tourney", "--variant", "classic", "-p", "easy", "-p", "medium", "-p", "hard",
                    "--games", "60", "--seed", "3", "-j", "1", "--silent", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out, result.stdout


def test_every_surface_gives_each_entrant_the_same_rating_and_interval(run, tmp_path):
    out, printed = run
    summary = read_summary(out)
    stats = json.loads(invoke("stats", str(out), "--json").stdout)
    api_ratings = {row.entrant: row for row in api.load(out).ratings().itertuples()}
    report = invoke("report", str(out), "--out", str(tmp_path / "rep"))
    assert report.exit_code == 0, report.output
    with (tmp_path / "rep" / "tables" / "classic-2p-ratings.csv").open(newline="") as source:
        charted = {row["name"]: row for row in csv.DictReader(source)}
    assert stats["ratings"]["centre"] == ["easy", "medium", "hard"]
    for line in stats["ratings"]["entrants"]:
        name, values = line["name"], (line["elo"], line["low"], line["high"])
        row = summary["all", name]
        assert tuple(float(row[k]) for k in ("elo", "elo_low", "elo_high")) == pytest.approx(
            values, rel=1e-5)
        mine = api_ratings[name]
        assert (mine.elo, mine.low, mine.high) == pytest.approx(values)
        assert tuple(float(charted[name][k]) for k in ("elo", "low", "high")) == pytest.approx(
            values, rel=1e-5, abs=1)  # the report prints whole Elo
        assert line["low"] < line["elo"] < line["high"]
    texts = [printed, invoke("stats", str(out)).stdout, report.stdout]
    assert not [bad for text in texts for bad in equal_bounds(text)]


def test_a_sweep_is_a_one_sided_bound_on_every_surface(tmp_path):
    out = tmp_path / "run"
    printed = invoke("tourney", "--variant", "block", "-p", "hard", "-p", "easy", "--games", "12",
                     "--seed", "2", "-j", "1", "--silent", "--out", str(out)).stdout
    summary = read_summary(out)
    if summary["all", "hard"]["wins"] != "12":
        pytest.skip("hard did not sweep easy on these deals")
    stats = json.loads(invoke("stats", str(out), "--json").stdout)
    hard = next(line for line in stats["ratings"]["entrants"] if line["name"] == "hard")
    # Its Elo is +infinity (JSON has none: null), its bound in `low` (issue 37: never in elo).
    assert hard["bound"] == "lower" and hard["high"] is None and hard["elo"] is None
    assert summary["all", "hard"]["elo_bound"] == "lower"
    assert summary["all", "hard"]["elo"] == "inf" and summary["all", "hard"]["elo_high"] == ""
    assert float(summary["all", "hard"]["elo_low"]) == pytest.approx(hard["low"], abs=1e-3)
    assert summary["hard vs easy", "hard"]["elo_bound"] == "lower"
    assert summary["hard vs easy", "easy"]["elo"] == "-inf"
    shown = f"won all 12 games: at least {hard['low']:+.0f}"  # issue 48: what it is, not "> +14"
    assert shown in printed and shown in invoke("stats", str(out)).stdout
    ratings = api.load(out).ratings()
    assert ratings.loc[ratings.entrant == "hard", "bound"].item() == "lower"
    assert ratings.entrant.tolist() == ["hard", "easy"]  # strongest first: the sweep's +inf
    assert not equal_bounds(printed)


def test_small_runs_rank_by_results_and_print_no_clamp_or_equal_ends(tmp_path):
    """Issue 37, as reported on 60428d1: hard (16-0) ranked below example_greedy as "> -74",
    an interval "[+21, +1200]", "side 1 vs side 0 -0 [-0, +0]". Here every listing puts the
    sweep first, the clamp's end prints as infinite and no interval has equal ends."""
    out = tmp_path / "run"
    printed = invoke("tourney", "--variant", "block", "--games", "24", "--seed", "1", "-p",
                     str(ROOT / "strategies" / "example_greedy.py"), "-p", "easy", "-p", "hard",
                     "--in-process", "-j", "1", "--silent", "--out", str(out)).stdout
    summary = read_summary(out)
    if summary["all", "hard"]["wins"] != "16":
        pytest.skip("hard did not sweep on these deals")
    text = invoke("stats", str(out)).stdout
    ranked = text.split("strongest first\n")[1].splitlines()[1:4]
    assert [line.split()[0] for line in ranked] == ["hard", "example_greedy", "easy"]
    assert "hard won or lost every game, outside it" in text
    assert api.load(out).ratings().entrant.tolist() == ["hard", "example_greedy", "easy"]
    for shown in (printed, text):
        assert "1200" not in shown and "1199" not in shown and "-0]" not in shown
        assert "[-0," not in shown and not equal_bounds(shown)


def test_an_anchor_of_one_entrant_shows_no_interval(tmp_path):
    out = tmp_path / "run"
    invoke("tourney", "--variant", "classic", "-p", "dial?strength=0.5", "-p", "medium",
           "--games", "20", "--seed", "2", "-j", "1", "--silent", "--out", str(out))
    text = invoke("stats", str(out)).stdout
    assert "(Elo, medium = 0;" in text and "+0 (Elo 0)" in text and not equal_bounds(text)


def test_an_entrant_seated_on_two_sides_is_said_and_rated_per_side(tmp_path):
    out = tmp_path / "run"
    result = invoke("tourney", "--variant", "draw", "--players", "4", "-p", "easy", "-p",
                    "medium", "-p", "hard", "--games", "16", "--seed", "1", "-j", "1",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "fewer entrants than sides: easy holds 2 sides of every game" in result.stderr
    assert "easy holds 2 sides" in invoke("stats", str(out)).stdout
    row = read_summary(out)["easy vs medium vs hard vs easy", "easy"]
    stats = json.loads(invoke("stats", str(out), "--json").stdout)
    # Per pairing: its win rate against the share of equals holding 2 of 4 sides.
    rate = float(row["win_rate"])
    expected = 400 * __import__("math").log10(rate / (1 - rate)) if 0 < rate < 1 else None
    assert expected is None or abs(float(row["elo"]) - expected) < 200
    assert stats["seated_twice"].startswith("fewer entrants than sides")


def test_the_elo_zero_is_read_off_the_plan_not_by_loading_entrant_names():
    """Issue 50: summary.csv's zero (the levels' mean, a dial setting left out) comes from the
    plan's entrants, their specs, not from loading a strategy by each entrant's name: a named
    dial setting is one too."""
    from domsim.plan.pairings import level_indices, parse_entrants
    from domsim.results.ratings import anchor_indices
    from domsim.rules import make_rules

    entrants = parse_entrants(["easy", "mine=dial?strength=0.3", "dial", "medium"],
                              make_rules("block"))
    assert level_indices(entrants) == [0, 3]
    assert anchor_indices(entrants, {}) == [0, 3]
    assert anchor_indices(entrants, {"levels": ["medium"]}) == [3]
    assert level_indices(entrants[1:3]) == [0, 1]  # all dial settings: every one
