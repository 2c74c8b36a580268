"""The dial (strategies/dial.py): its ends are easy and insane move for move, it replays from a
seed, a stronger setting wins more; its fitted curve and recommendations (domsim.studies.dialcurve);
`domsim calibrate --dial` and `domsim tune`."""

from __future__ import annotations

import csv
import json
import math
import random
from pathlib import Path
from types import SimpleNamespace

import jsonschema
import numpy as np
import pytest
from clitools import invoke, one_line_error
from domsim.strategies.dial import Dial
from domsim.strategies.easy import Easy
from domsim.strategies.insane import Insane

from domsim.engine import State, start_next_hand
from domsim.game import play_game, play_hand
from domsim.rules import make_rules
from domsim.runner.session import Execution
from domsim.stats import Z95, fieller_interval, fit_score_line, logit, score_from_elo
from domsim.strategy import Strategy
from domsim.studies import tune as tune_module
from domsim.studies.calibrate import calibration_entrants
from domsim.studies.dialcurve import band, monotone_fit, recommendations, setting_for, strength_of
from domsim.studies.tune import Gap, Play, TuneTarget, level_targets, run_tune
from domsim.view import ViewBuilder

ROOT = Path(__file__).resolve().parent.parent


class Twin(Strategy):
    """Plays the dial's move and records whether `reference` would have played it from the
    generator the dial hands on after drawing its coin (one random() draw)."""

    def __init__(self, dial: Dial, reference: Strategy, seed: int) -> None:
        self.dial, self.reference, self.same = dial, reference, []
        self.dial.rng = random.Random(seed)

    def choose(self, view):
        behind = random.Random()
        behind.setstate(self.dial.rng.getstate())
        behind.random()
        self.reference.rng = behind
        expected = self.reference.choose(view)
        played = self.dial.choose(view)
        self.same.append(played == expected)
        return played


@pytest.mark.parametrize(("variant", "players"), [("block", 2), ("allfives", 3), ("kozel", 4),
                                                  ("partnership", 4), ("classic", 2)])
def test_dial_ends_are_easy_and_insane_move_for_move_r_level(variant, players):
    """R-LEVEL: at strength 0 the dial plays easy's move, at 1 insane's, at every decision."""
    for strength, reference in ((0.0, Easy), (1.0, lambda: Insane(samples=8))):
        state = State(make_rules(variant, players))
        start_next_hand(state, random.Random(players))
        seats = [Twin(Dial(strength=strength, samples=8), reference(), seat)
                 for seat in range(players)]
        play_hand(state, seats, ViewBuilder())
        decisions = [same for seat in seats for same in seat.same]
        assert decisions and all(decisions), (strength, decisions)


def test_dial_replays_from_the_game_seed_r_rng():
    """R-RNG: the same seed replays the same game move for move; another seed plays another."""
    rules = make_rules("draw", 2)
    specs = ["dial?strength=0.5&samples=8", "medium"]
    first = play_game(rules, specs, 21, move_time_limit=None)
    assert play_game(rules, specs, 21, move_time_limit=None)["hands"] == first["hands"]
    assert play_game(rules, specs, 22, move_time_limit=None)["hands"] != first["hands"]


def test_a_stronger_dial_setting_wins_more():
    """0.8 against 0.2 on 60 duplicate block deals: well over half the games (the bench measures
    every step with intervals)."""
    rules = make_rules("block", 2)
    wins = 0
    for deal in range(60):
        for seats in (["dial?strength=0.8&samples=8", "dial?strength=0.2"],
                      ["dial?strength=0.2", "dial?strength=0.8&samples=8"]):
            winners = play_game(rules, seats, deal, move_time_limit=None)["result"]["winners"]
            wins += seats.index("dial?strength=0.8&samples=8") in winners
    assert wins / 120 > 0.6


def test_dial_strength_outside_0_1_is_a_one_line_error():
    one_line_error(invoke("play", "--variant", "block", "-p", "dial?strength=1.5", "-p", "easy"),
                   "strength must be between 0 and 1")


# -- the curve ------------------------------------------------------------------------------------
def test_an_unbounded_interval_end_widens_the_band_to_infinity():
    """A dial setting that won every game has no upper Elo bound (None): the band's high end is
    infinite there, and the fit of the others' ends is kept."""
    points = [{"strength": 0.0, "low": -80.0, "high": -20.0},
              {"strength": 1.0, "low": 40.0, "high": None}]
    assert [p["fitted"] for p in band(points, "high")] == [-20.0, math.inf]
    assert [p["fitted"] for p in band(points, "low")] == [-80.0, 40.0]
    points[0]["low"] = None
    assert [p["fitted"] for p in band(points, "low")] == [-math.inf, 40.0]


def test_monotone_fit_pools_adjacent_violators():
    assert monotone_fit([0, 100, 80, 200], [1, 1, 1, 1]) == [0, 90, 90, 200]
    assert monotone_fit([0, 100, 80], [1, 1, 3]) == [0, 85, 85]
    assert monotone_fit([3, 2, 1], [1, 1, 1]) == [2, 2, 2]


def _line(name, elo, spread=40.0):
    return {"name": name, "elo": elo, "low": elo - spread, "high": elo + spread}


RATING = {"entrants": [_line("easy", 0), _line("medium", 300), _line("insane", 900),
                       _line("dial?strength=0", 10), _line("dial?strength=0.5", 400),
                       _line("dial?strength=1", 880)]}


def test_setting_for_interpolates_the_fitted_curve():
    points = [{"strength": 0.0, "fitted": 0.0}, {"strength": 0.5, "fitted": 400.0},
              {"strength": 1.0, "fitted": 800.0}]
    assert setting_for(100, points) == pytest.approx(0.125)
    assert setting_for(600, points) == pytest.approx(0.75)
    assert setting_for(0, points) == 0.0
    assert setting_for(900, points) == 1.0 and setting_for(-1, points) == 0.0


def test_recommendations_place_the_levels_and_space_n_levels_evenly():
    rows = {row["target"]: row for row in recommendations(RATING, spacing=3)}
    medium = rows["as strong as medium"]["setting"]
    assert medium == pytest.approx(0.5 * (300 - 10) / (400 - 10))
    insane = rows["as strong as insane"]  # 900: above the dial's 880
    assert insane["setting"] == 1.0 and not insane["on_curve"]
    assert rows["as strong as medium"]["on_curve"]
    assert rows["level 2 of 3"]["elo"] == pytest.approx(450)
    assert rows["level 2 of 3"]["setting"] == pytest.approx(0.5 + 0.5 * 50 / 480)
    assert rows["level 2 of 3"]["win_rate_vs_previous"] == pytest.approx(score_from_elo(450))
    assert rows["level 1 of 3"]["win_rate_vs_previous"] is None
    assert recommendations({"entrants": RATING["entrants"][:3]}) == []


def test_every_setting_has_its_interval_and_thin_or_wide_ones_are_withheld():
    rows = recommendations(RATING, spacing=3)
    for row in rows:
        assert row["low"] <= row["setting"] <= row["high"]
    medium = next(row for row in rows if row["target"] == "as strong as medium")
    # the band: 300 +- 40 Elo meets the low curve (-30, 360, 840) and the high one (50, ...)
    assert medium["low"] == pytest.approx(0.5 * (260 - 50) / (440 - 50))
    assert medium["high"] == pytest.approx(0.5 * (340 + 30) / (360 + 30))
    assert medium["withheld"] is None
    insane = next(row for row in rows if row["target"] == "as strong as insane")
    assert insane["withheld"] is None  # 900 is beyond 880, but within its interval
    far = recommendations({"entrants": [*RATING["entrants"][:2], _line("insane", 1000),
                                        *RATING["entrants"][3:]]}, spacing=3)
    assert next(r for r in far if "insane" in r["target"])["withheld"] == (
        "beyond the dial's measured curve")
    wide = recommendations({"entrants": [_line("easy", 0), _line("medium", 300, 400),
                                         _line("dial?strength=0", 0),
                                         _line("dial?strength=1", 600)]})
    assert "spans more than 0.25 of the dial: play more games" in next(
        r for r in wide if r["target"] == "as strong as medium")["withheld"]
    thin = recommendations(RATING, 3, "too few deals")
    assert {row["withheld"] for row in thin} == {"too few deals"}


def test_settings_without_intervals_keep_their_strength_and_are_withheld_saying_why():
    """Ratings not resampled (--samples 0) have no intervals (None): each setting keeps its
    strength, has no interval and is withheld saying what to do; a level whose own interval is
    open withholds its setting and the spaced levels (which take the ends' widths)."""
    bare = {"samples": 0, "entrants": [{**line, "low": None, "high": None}
                                       for line in RATING["entrants"]]}
    rows = {row["target"]: row for row in recommendations(bare, spacing=3)}
    assert rows["as strong as medium"]["setting"] == pytest.approx(0.5 * (300 - 10) / (400 - 10))
    for row in rows.values():
        assert row["low"] is None and row["high"] is None
        assert "--samples 0" in row["withheld"] and "--samples 1000" in row["withheld"]
    open_end = {"entrants": [{**RATING["entrants"][0], "high": None}, *RATING["entrants"][1:]]}
    rows = {row["target"]: row for row in recommendations(open_end, spacing=3)}
    assert rows["as strong as easy"]["withheld"] == (
        "its target's 95% interval is open: play more games")
    assert rows["level 2 of 3"]["high"] is None
    assert rows["as strong as medium"]["withheld"] is None


def test_calibrate_with_samples_0_reports_the_settings_without_intervals(tmp_path):
    out = tmp_path / "cal"
    result = invoke("calibrate", "--variant", "block", "--level", "easy", "--level", "medium",
                    "--setting", "0", "--setting", "1", "--games", "24", "--max-games", "24",
                    "--seed", "1", "-j", "1", "--silent", "--samples", "0", "--out", str(out))
    assert result.exit_code == 0, result.output
    shipped = read_rows(out / "tables" / "settings.csv")
    assert len(shipped) == 7
    for row in shipped:
        assert 0 <= float(row["setting"]) <= 1 and row["low"] == row["high"] == ""
        assert "--samples 0" in row["withheld"]
    levels = json.loads((out / "levels.json").read_text())
    jsonschema.validate(levels, json.loads((ROOT / "docs" / "levels.schema.json").read_text()))


def test_strength_of_reads_the_dial_from_a_spec_or_a_team():
    assert strength_of("dial?strength=0.3") == 0.3
    assert strength_of("dial") == Dial().strength
    assert strength_of("dial?strength=0.7+hard") == 0.7
    assert strength_of("hard") is None and strength_of("nosuch") is None


def test_only_kozel_partners_a_level_with_hard_r_level():
    """R-LEVEL: the hard partner is kozel's rule; partnership calibrates whole teams."""
    levels = ("easy", "hard")
    assert calibration_entrants("partnership", None, levels, (0.5,)) == [
        "easy", "hard", "dial?strength=0.5"]
    assert calibration_entrants("kozel", None, levels, (0.5, 1.0)) == [
        "easy+hard", "hard", "dial?strength=0.5+hard", "dial?strength=1"]


# -- the commands ---------------------------------------------------------------------------------
@pytest.mark.slow
def test_calibrate_dial_plays_the_settings_beside_the_levels(tmp_path):
    out = tmp_path / "cal"
    result = invoke("calibrate", "--variant", "block", "--level", "easy", "--level", "medium",
                    "--setting", "0", "--setting", "1", "--games", "24", "--seed", "3",
                    "-j", "1", "--silent", "--samples", "10", "--out", str(out))
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "block" / "manifest.json").read_text())
    assert [e["name"] for e in manifest["entrants"]] == [
        "easy", "medium", "dial?strength=0", "dial?strength=1"]
    assert "easy -> medium" in result.stdout and "medium -> dial" not in result.stdout
    curve = read_rows(out / "tables" / "block-2p-dial.csv")
    assert [row["strength"] for row in curve] == ["0", "1"]
    fitted = [float(row["fitted"]) for row in curve]
    assert fitted == sorted(fitted)
    shipped = {row["target"]: row for row in read_rows(out / "tables" / "settings.csv")}
    assert set(shipped) == {"as strong as easy", "as strong as medium",
                            *(f"level {k} of 5" for k in range(1, 6))}
    for row in shipped.values():  # always with its interval
        assert 0 <= float(row["low"]) <= float(row["setting"]) <= float(row["high"]) <= 1
    assert (out / "charts" / "block-2p-dial.svg").is_file()
    assert 'title="block-2p-dial.svg"' in (out / "report.html").read_text(encoding="utf-8")


def read_rows(path):
    with path.open(newline="", encoding="utf-8") as source:
        return list(csv.DictReader(source))


#: The fake comparisons' tune: block, seed 1, one worker.
PLAY = Play("block", None, {}, 1, Execution())


def _fake_compare(threshold, slope=30.0):
    """A compare whose test says H1 (too strong) above `threshold` and H0 below it, with 150
    deals of two games won with the logistic chance slope * (strength - threshold) + logit(0.65)
    (drawn from a generator seeded by the strength, so the fake replays)."""
    def run(config, out, sprt, execution, **_):
        strength = strength_of(config.entrants[0])
        verdict = "H1" if strength > threshold else "H0"
        chance = 1 / (1 + math.exp(-(slope * (strength - threshold) + math.log(0.65 / 0.35))))
        draw = random.Random(strength)
        units = [[float(draw.random() < chance) for _ in range(2)] for _ in range(150)]
        pair = SimpleNamespace(win_rate=0.5, wilson_low=0.4, wilson_high=0.6)
        progress = SimpleNamespace(games=300, verdict=verdict, statistics=lambda: pair,
                                   units=units, unit_deals=list(range(150)))
        return SimpleNamespace(progress=progress, out=out, stopped=None)
    return run


def test_tune_bisects_towards_the_strength_its_tests_point_to(tmp_path, monkeypatch):
    monkeypatch.setattr(tune_module, "compare_in", _fake_compare(0.3))
    result = run_tune(PLAY, TuneTarget("medium", 0.65), tmp_path / "t", steps=6,
                      games_per_step=100)
    assert [step.strength for step in result.steps] == [0.5, 0.25, 0.375, 0.3125, 0.28125,
                                                        0.296875]
    assert result.low == 0.296875 and result.high == 0.3125 and result.games == 1800
    saved = json.loads((tmp_path / "t" / "tune.json").read_text())
    assert saved["bracket"] == [0.296875, 0.3125] and len(saved["steps"]) == 6
    low, high = saved["interval"]
    assert low < saved["setting"] < high
    assert abs(saved["setting"] - 0.3) < 0.03  # the line the fake draws from, 8 errors wide
    near = [step for step in saved["steps"]  # the fit is local to the bracket
            if abs(step["strength"] - saved["bracket_middle"]) <= tune_module.LOCAL]
    assert 1 < len(near) < 6 and saved["fit"]["strengths"] == len(near)
    assert saved["fit"]["games"] == 300 * len(near)
    assert saved["fit"]["deals"] == 150 * len(near)  # each step on deals of its own
    assert len({step["seed"] for step in saved["steps"]}) == 6
    assert saved["fit"]["elo_per_strength"] > 0


def _undecided_compare(threshold, width=0.04):
    """A compare whose test never decides, with a win rate interval of +-`width` around the
    chance 0.65 + (strength - threshold)."""
    def run(config, out, sprt, execution, **_):
        strength = strength_of(config.entrants[0])
        rate = 0.65 + (strength - threshold)
        pair = SimpleNamespace(win_rate=rate, wilson_low=rate - width, wilson_high=rate + width)
        units = [[1.0, 0.0]] * 50
        progress = SimpleNamespace(games=100, verdict=None, statistics=lambda: pair,
                                   units=units, unit_deals=list(range(50)))
        return SimpleNamespace(progress=progress, out=out, stopped=None)
    return run


def test_tune_bisects_past_an_undecided_step_by_its_interval(tmp_path, monkeypatch):
    """No step decides, yet each interval lies clear of 65% until 0.3125 (65.25% +- 4 holds
    it): the bisection goes on by the intervals, says what it took, and stops there."""
    monkeypatch.setattr(tune_module, "compare_in", _undecided_compare(0.3))
    result = run_tune(PLAY, TuneTarget("medium", 0.65), tmp_path / "t", steps=7,
                      games_per_step=100)
    assert [(step.strength, step.assumed) for step in result.steps] == [
        (0.5, "H1"), (0.25, "H0"), (0.375, "H1"), (0.3125, None)]
    assert (result.low, result.high) == (0.25, 0.375)
    saved = json.loads((tmp_path / "t" / "tune.json").read_text())
    lines = tune_module.step_lines(saved, "")
    assert lines[0].endswith("undecided: taken as too strong, since its 95% interval lies "
                             "above the target")
    assert lines[3].endswith("undecided")
    assert [step["assumed"] for step in saved["steps"]] == ["H1", "H0", "H1", None]


def test_tune_interval_widens_with_the_targets_own_error(tmp_path, monkeypatch):
    monkeypatch.setattr(tune_module, "compare_in", _fake_compare(0.3))
    widths = []
    for error in (0.0, 60.0):
        result = run_tune(PLAY, TuneTarget("medium", 0.65, elo_error=error),
                          tmp_path / f"t{error:g}", steps=4, games_per_step=100)
        widths.append(result.estimate.high - result.estimate.low)
    assert widths[1] > widths[0]


def test_fieller_interval_covers_the_setting_of_a_known_line():
    """Games drawn from logit p = -1 + 2 x at five strengths, in deals of two: the interval
    holds the x where p = 0.6 in about 95% of 200 replications (at least 88%), and Fieller's
    interval needs a significant slope."""
    goal = logit(0.6)
    truth = (goal + 1) / 2
    rng = np.random.default_rng(5)
    x = np.repeat(np.linspace(0.4, 0.9, 5), 300)
    deals = np.arange(len(x)) // 2
    covered = 0
    for _ in range(200):
        scores = (rng.random(len(x)) < 1 / (1 + np.exp(1 - 2 * x))).astype(float)
        low, high = fieller_interval(fit_score_line(x, scores, deals), goal)
        covered += low <= truth <= high
    assert covered >= 176
    flat = fit_score_line([0, 1] * 20, [1, 0, 0, 1] * 10, list(range(40)))
    assert fieller_interval(flat, goal) is None
    assert fit_score_line([0.5] * 10, [1, 0] * 5, list(range(10))) is None


def test_tune_command_plays_steps_and_writes_its_search(tmp_path):
    out = tmp_path / "tune"
    result = invoke("tune", "--variant", "block", "--against", "easy", "--win-rate", "0.6",
                    "--steps", "2", "--games", "40", "--seed", "4", "-j", "1", "--silent",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    saved = json.loads((out / "tune.json").read_text())
    assert saved["steps"][0]["strength"] == 0.5 and saved["command"][0] == "domsim"
    low, high = saved["bracket"]
    assert low <= saved["bracket_middle"] <= high
    assert saved["interval"] is None or saved["interval"][0] <= saved["setting"] <= (
        saved["interval"][1])
    assert saved["games"] == sum(step["games"] for step in saved["steps"])
    assert (out / "step-1" / "manifest.json").is_file()
    assert result.stdout.splitlines()[-2].startswith("setting: dial?strength=")
    assert result.stdout.splitlines()[0].endswith("seed 4")


def test_tune_errors(tmp_path):
    one_line_error(invoke("tune", "--variant", "block", "--win-rate", "0.99",
                          "--win-rate-tolerance", "0.1", "--out", str(tmp_path / "a")),
                   "must lie inside (0, 1)")
    one_line_error(invoke("tune", "--variant", "nope", "--out", str(tmp_path / "b")),
                   "unknown variant")
    one_line_error(invoke("tune", "--variant", "block", "--out", str(tmp_path)),
                   "already exists")
    one_line_error(invoke("tune", "--variant", "block", "--against", "nosuch", "--games", "4",
                          "--out", str(tmp_path / "c")), "unknown strategy 'nosuch'")
    one_line_error(invoke("tune", "--variant", "block", "--against", "dial?strength=2",
                          "--out", str(tmp_path / "d")), "strength must be between 0 and 1")
    assert not (tmp_path / "c").exists() and not (tmp_path / "d").exists()


# -- tune --levels --------------------------------------------------------------------------------
def _gap(weaker, stronger, elo, error):
    half = error * Z95
    return Gap(weaker, stronger, elo, elo - half, elo + half, 100, 1.0, "")


def test_level_targets_space_the_ladder_evenly_against_the_nearest_level():
    gaps = [_gap("easy", "medium", 400, 20), _gap("medium", "hard", 250, 16),
            _gap("hard", "insane", 200, 12)]
    levels = level_targets(gaps, 5, 0.5, 0.03)
    assert [level.elo for level in levels] == pytest.approx([0, 212.5, 425, 637.5, 850])
    assert (levels[0].end, levels[-1].end) == ("easy", "insane")
    assert [level.target.level for level in levels[1:-1]] == ["medium", "medium", "hard"]
    assert levels[1].target.win_rate == pytest.approx(score_from_elo(212.5 - 400))
    assert levels[3].target.win_rate == pytest.approx(score_from_elo(637.5 - 650))
    # level 2 is 1/4 of insane's Elo less medium's: 0.25 (g1 + g2 + g3) - g1
    assert levels[1].target.elo_error == pytest.approx(
        math.hypot(0.75 * 20, 0.25 * 16, 0.25 * 12))


@pytest.mark.slow
def test_tune_levels_searches_each_inner_level_and_writes_them(tmp_path):
    out = tmp_path / "levels"
    result = invoke("tune", "--variant", "block", "--levels", "4", "--gap-games", "40",
                    "--games", "200", "--steps", "3", "--win-rate-tolerance", "0.2", "--seed", "4",
                    "-j", "1", "--silent", "--out", str(out))
    assert result.exit_code == 0, result.output
    saved = json.loads((out / "tune.json").read_text())
    assert [gap["weaker"] for gap in saved["gaps"]] == ["easy", "medium", "hard"]
    ladder = [line["elo_over_easy"] for line in saved["ladder"]]
    levels = saved["levels"]
    assert [level["level"] for level in levels] == [1, 2, 3, 4]
    assert [level["elo_over_easy"] for level in levels] == pytest.approx(
        [ladder[-1] * k / 3 for k in range(4)])
    assert (levels[0]["setting"], levels[-1]["setting"]) == (0.0, 1.0)
    settings = [level["setting"] for level in levels]
    assert settings == sorted(settings) and saved["monotone"]
    for level in levels[1:-1]:
        assert level["steps"] and level["games"] == sum(s["games"] for s in level["steps"])
        assert level["seconds"] > 0 and level["target"]["level"] in ("easy", "medium", "hard",
                                                                      "insane")
        if level["interval"] is not None:
            assert level["interval"][0] <= level["setting"] <= level["interval"][1]
        assert (out / f"level-{level['level']}" / "step-1" / "manifest.json").is_file()
    assert saved["games"] == (sum(gap["games"] for gap in saved["gaps"])
                              + sum(level["games"] for level in levels))
    lines = result.stdout.splitlines()
    assert lines[0].startswith("levels: 4 evenly spaced") and lines[-2].startswith("settings ")
    assert sum(line.startswith("level ") for line in lines) == 4


def test_tune_levels_errors(tmp_path):
    for count in ("2", "22", str(10**20)):  # 10^20 once hung before any game
        one_line_error(invoke("tune", "--variant", "block", "--levels", count, "--out",
                              str(tmp_path / "a")), "give 3 to 21")
    one_line_error(invoke("tune", "--variant", "block", "--levels", "5", "--against", "hard",
                          "--out", str(tmp_path / "b")), "sets its own targets")
    one_line_error(invoke("tune", "--variant", "block", "--gap-games", "5", "--out",
                          str(tmp_path / "c")), "goes with --levels")
    one_line_error(invoke("tune", "--variant", "block", "--win-rate-tolerance", "1e-300", "--out",
                          str(tmp_path / "c")), "too narrow for any test to decide")
    assert not any((tmp_path / name).exists() for name in "abc")


def test_settings_of_a_run_with_too_few_deals_are_withheld_saying_what_is_needed():
    """The issue's run: the dial with --games 720 has 10 deals; 2,160 games give the 30."""
    from domsim.pages.report import settings_rows

    stats = {"ladder": {"enough_deals": False, "deals": 10, "levels": [{"elo": -50.0}]},
             "games": 720, "seatings_per_deal": 2, "ratings": RATING}
    rows = settings_rows(stats, "block-2p")
    assert {row["withheld"] for row in rows} == {
        "too few deals: 10 of the 30 a setting needs (about 2,160 games)"}
    assert all(row["low"] <= row["setting"] <= row["high"] for row in rows)
    assert rows[0]["elo"] == pytest.approx(50.0)  # over the weakest level's -50
