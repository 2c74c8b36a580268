"""Calibration sized to its question (domsim.studies.steps): each step of a ladder is played until a
sequential test decides it (significant at 95%, equal within the tolerance, or the game cap),
on small fast ladders; levels.json validates against docs/levels.schema.json."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import jsonschema
import pytest
from clitools import invoke, one_line_error

from domsim.results.atomic import strict_json
from domsim.stats import elo_estimate
from domsim.studies.steps import (
    EQUAL,
    STRONGER,
    WEAKER,
    Step,
    StepRule,
    chained_levels,
    looks,
)

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "docs" / "levels.schema.json").read_text())


def test_the_looks_double_up_to_the_cap():
    assert looks(30, 1000) == (30, 60, 120, 240, 480, 960, 1000)
    assert looks(30, 960) == (30, 60, 120, 240, 480, 960)
    assert looks(30, 10) == (10,)


def deals(rng, p, n):
    """n deals of 2 seatings, each game won by the upper level with chance p."""
    return [[float(rng.random() < p), float(rng.random() < p)] for _ in range(n)]


def test_the_rule_decides_only_at_its_looks_and_says_which_way():
    rule = StepRule(30.0, looks(30, 2000))
    rng = random.Random(1)
    assert rule.z == pytest.approx(2.734, abs=0.001)  # Bonferroni over 8 looks at 5%
    strong = deals(rng, 0.8, 30)
    assert rule.verdict(strong, 2, 0.5) == STRONGER
    assert rule.verdict(strong[:29], 2, 0.5) is None  # no look at 29 deals
    assert rule.verdict(deals(rng, 0.2, 30), 2, 0.5) == WEAKER
    assert rule.verdict(deals(rng, 0.5, 30), 2, 0.5) is None  # too few deals to say equal
    even = [[1.0, 0.0]] * 480 + [[1.0, 1.0], [0.0, 0.0]] * 240
    assert rule.verdict(even, 2, 0.5) == EQUAL


def test_equal_levels_are_seldom_called_different():
    """The looks' Bonferroni intervals keep the chance of calling equal levels different,
    at any look, within the report's 5% (here 400 ladders of a fair coin: expect <= 20)."""
    rule = StepRule(30.0, looks(30, 960))
    rng, wrong = random.Random(7), 0
    for _ in range(400):
        units = deals(rng, 0.5, 960)
        for look in rule.looks:
            verdict = rule.verdict(units[:look], 2, 0.5)
            if verdict is not None:
                wrong += verdict != EQUAL
                break
    assert wrong <= 20


def test_levels_chain_the_steps_and_add_their_spreads():
    """One estimate per step (issue 37): the level above the weakest is its step, interval and
    all (on 60428d1 the report gave block's easy->medium [+193, +510], the step [+246, +563])."""
    steps = [type("S", (), {"elo": 100.0, "elo_low": 60.0, "elo_high": 130.0})(),
             type("S", (), {"elo": 50.0, "elo_low": 20.0, "elo_high": 90.0})()]
    levels = chained_levels(["a", "b", "c"], steps)
    assert [line["elo"] for line in levels] == [0.0, 100.0, 150.0]
    assert (levels[1]["low"], levels[1]["high"]) == (60.0, 130.0)
    assert levels[2]["high"] - levels[2]["elo"] == pytest.approx(50.0)  # hypot(30, 40)
    assert levels[2]["elo"] - levels[2]["low"] == pytest.approx(50.0)  # hypot(40, 30)


#: The greedy bot plays in its own process: its steps deal from a key, this one, not a random one.
RUN_KEY = "5eed" * 8
CALIBRATE = ["calibrate", "--variant", "block", "--games", "1", "--seed", "4", "-j", "2",
             "--silent", "--samples", "10"]


@pytest.mark.slow
def test_a_step_of_equal_levels_stops_equal_within_the_tolerance(tmp_path):
    """medium and the example greedy bot both play the heaviest tile: equal within 80 Elo. The
    greedy bot plays in its own process, so the deals come from a secret key unless one is
    given: a run key makes the test's deals (and so its verdict) the same every time."""
    out = tmp_path / "cal"
    result = invoke(*CALIBRATE, "--level", "medium", "--level",
                    str(ROOT / "strategies" / "example_greedy.py"), "--tolerance-elo", "80",
                    "--run-key", RUN_KEY, "--out", str(out))
    assert result.exit_code == 0, result.output
    step = json.loads((out / "calibration.json").read_text())["ladders"][0]["steps"][0]
    assert step["verdict"] == EQUAL and step["reason"].startswith("equal within \u00b180 Elo")
    assert -80 <= step["elo_low"] <= step["elo_high"] <= 80
    assert f"after {step['games']:,} games" in result.stdout
    manifest = json.loads((Path(step["folder"]) / "manifest.json").read_text())
    assert manifest["compare"]["verdict"] == EQUAL and manifest["purpose"] == "calibration"
    assert manifest["compare"]["rule"]["tolerance_elo"] == 80
    assert manifest["compare"]["games"] == step["games"]
    levels = json.loads((out / "levels.json").read_text())
    jsonschema.validate(levels, SCHEMA)
    assert levels["rule_sets"][0]["levels"][1]["vs_below"]["verdict"] == EQUAL


@pytest.mark.slow
def test_a_step_that_reaches_the_cap_is_undecided_and_its_settings_are_withheld(tmp_path):
    out = tmp_path / "cal"
    result = invoke(*CALIBRATE, "--level", "medium", "--level",
                    str(ROOT / "strategies" / "example_greedy.py"), "--tolerance-elo", "5",
                    "--max-games", "60", "--setting", "0", "--setting", "0.2",
                    "--run-key", RUN_KEY, "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "undecided at the cap of 60 games" in result.stdout
    levels = json.loads((out / "levels.json").read_text())
    jsonschema.validate(levels, SCHEMA)
    rule_set = levels["rule_sets"][0]
    assert rule_set["levels"][1]["vs_below"]["verdict"] == "undecided"
    assert levels["tolerance_elo"] == 5
    for setting in rule_set["dial"]:  # every setting with its interval, or why not
        assert setting["low"] <= setting["strength"] <= setting["high"]
        assert setting["spec"].startswith("dial?strength=")
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<b>block</b>: medium -&gt; example_greedy undecided at the cap of 60 games" in page
    assert [line["name"] for line in rule_set["levels"]] == ["medium", "example_greedy"]
    assert page.index('class="summary"') < page.index("Settings to ship") < page.index(
        "The dial's curve") < page.index("<details")


def test_levels_json_of_a_report_from_runs_validates(tmp_path):
    from handrun import write_run

    run = write_run(tmp_path / "run", purpose="calibration")
    assert invoke("report", str(run), "--out", str(tmp_path / "rep"), "--samples", "10"
                  ).exit_code == 0
    levels = json.loads((tmp_path / "rep" / "levels.json").read_text())
    jsonschema.validate(levels, SCHEMA)
    assert levels["tolerance_elo"] is None and levels["rule_sets"][0]["source"] == "overview"
    assert [line["name"] for line in levels["rule_sets"][0]["levels"]] == ["easy", "medium",
                                                                          "hard"]
    assert levels["rule_sets"][0]["zero"] == "easy = 0"


def test_a_gauntlet_is_reported_as_a_gauntlet(tmp_path):
    """Issue 48: a gauntlet's report charted "Ladder steps" (my_bot -> easy about -700) and its
    levels.json made the first entrant the base level. A run that is no calibration has no
    ladder: no steps, no levels.json, its entrants ranked."""
    run = tmp_path / "run"
    assert invoke("tourney", "--variant", "block", "--format", "gauntlet", "-p", "medium", "-p",
                  "easy", "-p", "hard", "--games", "8", "--seed", "1", "-j", "1", "--silent",
                  "--out", str(run)).exit_code == 0
    assert invoke("report", str(run), "--out", str(tmp_path / "rep"), "--samples", "10"
                  ).exit_code == 0
    page = (tmp_path / "rep" / "report.html").read_text()
    assert "<h1>Who is strongest</h1>" in page and "Ladder steps" not in page
    assert "steps side by side" not in page and "levels.json" not in page
    assert not (tmp_path / "rep" / "levels.json").exists()
    assert not (tmp_path / "rep" / "charts" / "steps.svg").exists()
    assert (tmp_path / "rep" / "tables" / "steps.csv").read_text().count("\n") == 1


def test_bad_tolerances_and_caps_are_refused(tmp_path):
    for bad in ("0", "-5", "nan", "401"):
        for name in ("--tolerance-elo", "--tolerance"):  # its old name too (issue 48)
            assert invoke(*CALIBRATE, name, bad, "--out", str(tmp_path / "x")).exit_code == 2
    assert invoke(*CALIBRATE, "--max-games", "1", "--out", str(tmp_path / "y")).exit_code == 2
    one_line_error(invoke("calibrate", "--variant", "nope", "--precision", "20"),
                   "unknown variant")


def test_with_a_precision_a_step_plays_on_until_its_interval_is_that_narrow():
    """--precision ELO (issue 37): significant is not enough; the look's corrected interval
    must also be at most +-ELO."""
    loose, tight = (StepRule(30.0, looks(30, 4000), precision) for precision in (None, 40.0))
    rng = random.Random(3)
    units = deals(rng, 0.75, 4000)
    first = {rule: next(look for look in rule.looks
                        if rule.verdict(units[:look], 2, 0.5) is not None)
             for rule in (loose, tight)}
    assert first[loose] == 30 and first[tight] > first[loose]
    estimate = elo_estimate([sum(u) / 2 for u in units[:first[tight]]], 2, 0.5, z=tight.z)
    assert estimate.elo_high - estimate.elo_low <= 80
    before = tight.looks[tight.looks.index(first[tight]) - 1]
    wide = elo_estimate([sum(u) / 2 for u in units[:before]], 2, 0.5, z=tight.z)
    assert wide.elo_high - wide.elo_low > 80 and wide.elo_low > 0  # significant, too wide


@pytest.mark.slow
def test_calibrate_precision_measures_each_step_to_that_width(tmp_path):
    out = tmp_path / "cal"
    result = invoke("calibrate", "--variant", "classic", "--level", "easy", "--level", "medium",
                    "--games", "1", "--seed", "3", "-j", "2", "--silent", "--samples", "10",
                    "--precision", "60", "--out", str(out))
    assert result.exit_code == 0, result.output
    step = json.loads((out / "calibration.json").read_text())["ladders"][0]["steps"][0]
    assert step["elo_high"] - step["elo_low"] <= 120
    assert "measured to \u00b160 Elo" in step["reason"]
    rule = json.loads((Path(step["folder"]) / "manifest.json").read_text())["compare"]["rule"]
    assert rule["precision_elo"] == 60


def test_a_steps_interval_reaching_a_score_of_one_is_open_there(tmp_path):
    """fives easy -> hard, 30 deals scoring 95%: the score interval reaches 1, where Elo is
    unbounded. The step's line, calibration.json, levels.json and the levels above it say so
    (+inf, null), as `stats` and `compare` do, never the score clamp's +1200."""
    out = tmp_path / "cal"
    result = invoke("calibrate", "--variant", "fives", "--games", "1", "--seed", "2", "-j", "2",
                    "--silent", "--samples", "10", "--level", "easy", "--level", "hard",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    step = json.loads((out / "calibration.json").read_text())["ladders"][0]["steps"][0]
    assert step["win_high"] == 1.0 and step["win_rate"] < 1.0
    assert step["elo_high"] is None and step["elo_low"] > 0
    assert f"[{step['elo_low']:+.0f}, +inf]" in result.stdout and "1200" not in result.stdout
    levels = json.loads((out / "levels.json").read_text())
    jsonschema.validate(levels, SCHEMA)
    hard = levels["rule_sets"][0]["levels"][1]
    assert hard["elo_high"] is None and hard["elo_low"] == pytest.approx(step["elo_low"])
    assert (out / "report.html").is_file()


@pytest.mark.parametrize("low, high", [(-math.inf, 40.0), (12.0, math.inf), (-5.0, 7.0)])
def test_a_step_read_back_from_its_json_has_its_open_ends_infinite_again(low, high):
    """calibration.json writes an open end null (strict JSON): read back, it is infinite."""
    step = Step("fives", "easy", "hard", 60, 30, STRONGER, 0.9, 0.8, 1.0, 380.0, low, high,
                "stronger", "cal/fives")
    written = json.loads(strict_json(step.to_dict()))
    assert Step.from_dict(written) == step
