"""domsim.stats and domsim.analysis: each formula against values worked out by hand or by an
independent formula, the GSPRT on synthetic data, the ratings' score equations, the bootstrap over
whole deals, and the statistics of a hand-built run."""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import numpy as np
import pyarrow.parquet as pq
import pytest
from clitools import invoke, one_line_error
from handrun import GAMES, write_run

from domsim.analysis import run_statistics
from domsim.results.folder import RunError
from domsim.results.run import load_run
from domsim.stats import (
    NELO_PER_T,
    Z95,
    Sprt,
    bootstrap_ratings,
    critical_value,
    deal_weights,
    elo_estimate,
    elo_from_score,
    fit_ratings,
    gsprt_llr,
    gsprt_llr_t,
    mean_interval,
    mle_with_mean,
    mle_with_t,
    outcome_counts,
    score_from_elo,
    t_cdf,
    t_quantile,
    variance_saving,
    wilson_interval,
)
from domsim.timing import histogram_percentile, time_bucket, time_histogram

ELO_3 = 400 * math.log10(3)  # the Elo of a 3:1 score


# -- single formulas ------------------------------------------------------------------------------
def test_wilson_interval_of_one_win_in_four():
    low, high = wilson_interval(1, 4)
    assert (round(low, 4), round(high, 4)) == (0.0456, 0.6994)


def test_elo_of_a_score_and_back():
    assert elo_from_score(0.75) == pytest.approx(ELO_3)
    assert elo_from_score(0.5) == 0
    assert score_from_elo(-ELO_3) == pytest.approx(0.25)
    # holding 2 of 3 seats, a score of 2/3 is no edge, and 6/7 means 3 times as strong per seat
    assert elo_from_score(2 / 3, ref=2 / 3) == pytest.approx(0)
    assert elo_from_score(6 / 7, ref=2 / 3) == pytest.approx(ELO_3)
    assert elo_from_score(1.0) == pytest.approx(400 * math.log10(999))  # clamped, finite


def test_elo_estimate_of_pairs_by_hand():
    """Pairs scoring 1 and 1/2: mean 3/4, variance 1/16, error sqrt(1/32); two pairs leave one
    degree of freedom (Student's t 12.706: the interval is the whole range), eight pairs 7
    (t 2.365)."""
    estimate = elo_estimate([1.0, 0.5], games_per_unit=2)
    assert estimate.units == 2 and estimate.score == 0.75
    assert estimate.elo == pytest.approx(ELO_3)
    assert estimate.los == 0.75  # one deal won, one even: the sign test's P(Bin(2, 1/2) <= 1)
    assert (estimate.score_low, estimate.score_high) == (0.0, 1.0)  # cut at whole scores
    assert estimate.elo_low == elo_from_score(0.0)
    eight = elo_estimate([1.0, 0.5] * 4, games_per_unit=2)
    assert eight.score_low == pytest.approx(0.75 - 2.364624 * math.sqrt(1 / 16 / 8), rel=1e-6)
    assert eight.elo_low == pytest.approx(elo_from_score(eight.score_low))
    # normalized Elo: per-game deviation sqrt(2 * 1/16)
    assert estimate.nelo == pytest.approx(0.25 / math.sqrt(1 / 8) * 800 / math.log(10))
    assert estimate.nelo_low < estimate.nelo < estimate.nelo_high


def test_elo_estimate_without_spread():
    assert elo_estimate([0.5, 0.5]).los == 0.5
    assert elo_estimate([1.0, 1.0]).los == 0.875  # two deals won: P(Bin(3, 1/2) <= 2)
    nothing = elo_estimate([])
    assert nothing.units == 0 and nothing.los == 0.5
    assert math.isfinite(nothing.elo_low) and nothing.elo_low < -1000 < 1000 < nothing.elo_high


def test_pentanomial_outcome_counts():
    assert outcome_counts([0.5, 1, 0.25, 0.5, 0.5]) == [(0.25, 1), (0.5, 3), (1.0, 1)]


def test_variance_saving_by_hand():
    """Games 1,0 | 1,0 | 0,1 | 1,1: game variance 15/64, pair means 1/2,1/2,1/2,1 with variance
    3/64; independent pairs would have 15/128, so the ratio is 0.4."""
    saving = variance_saving([[1, 0], [1, 0], [0, 1], [1, 1]])
    assert saving.game_variance == pytest.approx(15 / 64)
    assert saving.unit_variance == pytest.approx(3 / 64)
    assert saving.games_per_unit == 2
    assert saving.ratio == pytest.approx(0.4)


# -- GSPRT ---------------------------------------------------------------------------------------
def test_gsprt_on_wins_and_losses_is_walds_llr():
    """With two outcomes the most likely distribution of mean s is Bernoulli(s)."""
    units = [1.0] * 7 + [0.0] * 3
    expected = 7 * math.log(0.6 / 0.5) + 3 * math.log(0.4 / 0.5)
    assert gsprt_llr(units, 0.5, 0.6) == pytest.approx(expected)


def test_mle_with_mean_is_the_constrained_maximum():
    values, probs = [0, 0.25, 0.5, 0.75, 1], [0.1, 0.2, 0.3, 0.25, 0.15]
    q = mle_with_mean(values, probs, 0.45)
    assert sum(q) == pytest.approx(1) and min(q) > 0
    assert sum(v * p for v, p in zip(values, q, strict=True)) == pytest.approx(0.45)
    best = sum(p * math.log(x) for p, x in zip(probs, q, strict=True))
    rng = random.Random(1)
    for _ in range(200):  # any other distribution with mean 0.45 is less likely
        d = [rng.uniform(-1, 1) for _ in values]
        # project d onto {sum d = 0, sum v d = 0}
        a = np.array([[1.0] * 5, values])
        d = np.array(d) - a.T @ np.linalg.solve(a @ a.T, a @ np.array(d))
        other = np.array(q) + 0.01 * d
        if other.min() > 0:
            assert sum(p * math.log(x) for p, x in zip(probs, other, strict=True)) < best


def test_mle_with_t_has_the_t_value():
    values, probs = [0, 0.25, 0.5, 0.75, 1], [0.1, 0.2, 0.3, 0.25, 0.15]
    q = mle_with_t(values, probs, 0.5, 0.1)
    mu = sum(v * p for v, p in zip(values, q, strict=True))
    sigma = math.sqrt(sum(p * (v - mu) ** 2 for v, p in zip(values, q, strict=True)))
    assert sum(q) == pytest.approx(1)
    assert (mu - 0.5) / sigma == pytest.approx(0.1, abs=1e-6)


def test_gsprt_agrees_with_the_brownian_approximation():
    """fishtest's test counts: the exact GSPRT and the approximation
    N (s1 - s0)(2 mu - s0 - s1) / (2 var) agree closely for close hypotheses."""
    counts = [10789, 19328, 33806, 19402, 10543]
    units = [i / 4 for i, n in enumerate(counts) for _ in range(n)]
    s0, s1 = score_from_elo(-3), score_from_elo(1)
    n, mean = len(units), sum(units) / len(units)
    variance = sum((u - mean) ** 2 for u in units) / n
    approximation = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    assert gsprt_llr(units, s0, s1) == pytest.approx(approximation, rel=0.01)
    # normalized Elo: t-values of the bounds per pair, as in fishtest
    t0, t1 = (e / NELO_PER_T * math.sqrt(2) for e in (-3, 1))
    t = (mean - 0.5) / math.sqrt(variance)
    approximation = n / 2 * math.log((1 + (t - t0) ** 2) / (1 + (t - t1) ** 2))
    assert gsprt_llr_t(units, 0.5, t0, t1) == pytest.approx(approximation, rel=0.05)


def pairs(rng: random.Random, probs: list[float]) -> list[float]:
    return rng.choices([0, 0.25, 0.5, 0.75, 1], probs, k=1)[0]


def run_sprt(sprt: Sprt, probs: list[float], seed: int) -> tuple[str | None, int]:
    rng, units = random.Random(seed), []
    while len(units) < 20000:
        units.append(pairs(rng, probs))
        if len(units) % 10 == 0:
            verdict = sprt.verdict(sprt.llr(units, games_per_unit=2))
            if verdict:
                return verdict, len(units)
    return None, len(units)


@pytest.mark.parametrize("model", ["logistic", "normalized"])
def test_sprt_accepts_h1_on_a_clearly_stronger_side_and_h0_on_equals(model):
    sprt = Sprt(0, 40, model=model)
    stronger = [0.05, 0.15, 0.35, 0.25, 0.20]  # mean score 0.5875: about +61 Elo
    equal = [0.1, 0.2, 0.4, 0.2, 0.1]
    assert run_sprt(sprt, stronger, 1)[0] == "H1"
    assert run_sprt(sprt, equal, 2)[0] == "H0"
    assert math.isclose(sprt.lower, math.log(0.05 / 0.95))
    assert math.isclose(sprt.upper, math.log(0.95 / 0.05))


# -- ratings ------------------------------------------------------------------------------------
def both_seatings(results: list[tuple[int, int, int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """(a, b, wins of a, games) per pairing, each game played in both seatings with the same
    winner, so no side is favoured."""
    entrants, shares = [], []
    for a, b, wins, games in results:
        for game in range(games):
            won = 1.0 if game < wins else 0.0
            entrants += [(a, b), (b, a)]
            shares += [(won, 1 - won), (1 - won, won)]
    return np.array(entrants), np.array(shares)


def test_ratings_of_a_consistent_round_robin_are_exact():
    """A beats B 3:1, B beats C 3:1, A beats C 9:1: the Bradley-Terry model fits these exactly
    with strengths 9:3:1, i.e. steps of 400 log10 3 Elo."""
    entrants, shares = both_seatings([(0, 1, 3, 4), (1, 2, 3, 4), (0, 2, 9, 10)])
    ratings = fit_ratings(entrants, shares, 3, prior_draws=0)
    assert ratings.elo == pytest.approx([0, -ELO_3, -2 * ELO_3])
    assert ratings.side_elo == pytest.approx([0, 0], abs=1e-9)
    with_prior = fit_ratings(entrants, shares, 3)
    assert -ELO_3 < with_prior.elo[1] < 0  # the prior pulls towards equal


def test_side_term_takes_the_seat_advantage():
    """Equals, and side 0 wins 3 games of 4: the entrants are equal, side 1 is -log10(3)*400."""
    entrants = np.array([(0, 1), (1, 0)] * 4)
    shares = np.array([(1.0, 0.0)] * 6 + [(0.0, 1.0)] * 2)
    ratings = fit_ratings(entrants, shares, 2, prior_draws=0)
    assert ratings.elo == pytest.approx([0, 0], abs=1e-9)
    assert ratings.side_elo == pytest.approx([0, -ELO_3])


def test_three_sides_fit_the_first_place_model():
    """3 seats rotated: A wins 1/2, B 1/3, C 1/6 in every seating: strengths 3:2:1."""
    entrants, shares = [], []
    for rotation in range(3):
        seats = [(i + rotation) % 3 for i in range(3)]
        for winner, times in ((0, 3), (1, 2), (2, 1)):
            for _ in range(times):
                entrants.append(seats)
                shares.append([1.0 if seats[j] == winner else 0.0 for j in range(3)])
    ratings = fit_ratings(np.array(entrants), np.array(shares), 3, prior_draws=0)
    assert ratings.elo == pytest.approx([0, -400 * math.log10(1.5), -ELO_3])


def test_ratings_satisfy_the_score_equations_with_shared_wins():
    """At the maximum, each entrant's expected score equals its actual one (shared wins as
    half), computed here with the plain logistic formula."""
    entrants = np.array([(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)] * 3)
    rng = np.random.default_rng(4)
    won = rng.choice([0.0, 0.5, 1.0], size=len(entrants))
    shares = np.stack([won, 1 - won], axis=1)
    ratings = fit_ratings(entrants, shares, 3, prior_draws=0)
    r = ratings.elo
    theta = ratings.side_elo
    expected = np.zeros(3)
    actual = np.zeros(3)
    for (a, b), (sa, _) in zip(entrants, shares, strict=True):
        p = 1 / (1 + 10 ** ((r[b] + theta[1] - r[a] - theta[0]) / 400))
        expected[a] += p
        expected[b] += 1 - p
        actual[a] += sa
        actual[b] += 1 - sa
    assert expected == pytest.approx(actual, abs=1e-6)


def test_a_perfect_record_stays_finite_with_the_prior():
    entrants = np.array([(0, 1), (1, 0)] * 5)
    shares = np.array([(1.0, 0.0), (0.0, 1.0)] * 5)
    ratings = fit_ratings(entrants, shares, 2)
    assert -1000 < ratings.elo[1] < -100


def test_deal_weights_keep_every_game_of_a_deal_together():
    deal_index = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2])
    rng = np.random.default_rng(0)
    for _ in range(50):
        weights = deal_weights(deal_index, 3, rng)
        for deal in range(3):
            assert len(set(weights[deal_index == deal])) == 1
        drawn = [weights[deal_index == deal][0] for deal in range(3)]
        assert sum(drawn) == 3


def test_bootstrap_resamples_whole_deals():
    """Every deal is won once by each entrant (the lucky hand wins in both seatings), so every
    resampling of whole deals keeps them exactly level (no spread: unmeasured, within
    stats.TIE_ELO); resampling games would not."""
    entrants = np.array([(0, 1), (1, 0)] * 20)
    shares = np.array([(1.0, 0.0), (1.0, 0.0), (0.0, 1.0), (0.0, 1.0)] * 10)
    deals = np.arange(40) // 2
    fitted = bootstrap_ratings(deals, entrants, shares, 2, samples=200, seed=3)
    assert fitted.bounds[1] == "unmeasured" and fitted.ratings.elo[1] == pytest.approx(0)
    assert fitted.p_better[1, 0] == 0.5
    games = bootstrap_ratings(np.arange(40), entrants, shares, 2, samples=200, seed=3)
    assert games.high[1] - games.low[1] > 50
    assert fitted.side_high[1] > fitted.side_low[1]


def test_probability_of_being_stronger():
    entrants, shares = both_seatings([(0, 1, 30, 40), (1, 2, 20, 40), (0, 2, 31, 40)])
    deals = np.arange(len(entrants)) // 2
    fitted = bootstrap_ratings(deals, entrants, shares, 3, samples=300, seed=1)
    p = fitted.p_better
    assert p + p.T == pytest.approx(np.ones((3, 3)))
    assert p[0, 1] > 0.99 and p[0, 2] > 0.99
    assert 0.2 < p[1, 2] < 0.8  # 20 of 40: no evidence either way
    assert fitted.low[1] < fitted.ratings.elo[1] < fitted.high[1]


# -- a hand-built run ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def hand_stats(tmp_path_factory):
    run = load_run(write_run(tmp_path_factory.mktemp("stats") / "run"))
    return run_statistics(run, samples=50)


def test_pair_statistics_of_the_hand_run(hand_stats):
    """easy vs medium: easy loses deal 0 in both seatings and wins one game of deal 1, so
    1-3-0 and pair scores 0 and 1/2 (see tests/handrun.py)."""
    pairs = {(p["a"], p["b"]): p for p in hand_stats["pairs"]}
    em = pairs["easy", "medium"]
    assert (em["games"], em["wins"], em["losses"], em["shared"]) == (4, 1, 3, 0)
    assert (round(em["wilson_low"], 4), round(em["wilson_high"], 4)) == (0.0456, 0.6994)
    assert em["units"] == 2 and em["outcomes"] == [[0.0, 1], [0.5, 1]]
    assert em["elo"] == pytest.approx(-ELO_3)
    assert em["los"] == 0.25  # one deal lost, one even (the sign test): P(Bin(2, 1/2) <= 0)
    assert em["nelo"] == pytest.approx(-0.25 / math.sqrt(0.125) * 800 / math.log(10))
    assert em["variance_ratio"] == pytest.approx(0.0625 / (0.1875 / 2))
    eh = pairs["easy", "hard"]  # a shared game (winners 0,1) counts one half
    assert (eh["wins"], eh["losses"], eh["shared"], eh["win_rate"]) == (0, 3, 1, 0.125)
    assert eh["outcomes"] == [[0.0, 1], [0.25, 1]]
    mh = pairs["medium", "hard"]
    assert (mh["wins"], mh["losses"], mh["score"]) == (1, 3, 0.25)


def test_ratings_of_the_hand_run(hand_stats):
    rating = hand_stats["ratings"]
    elo = {line["name"]: line["elo"] for line in rating["entrants"]}
    assert sum(elo.values()) == pytest.approx(0, abs=1e-9)  # centred on the levels' mean
    assert rating["centre"] == ["easy", "medium", "hard"]
    assert elo["easy"] < elo["medium"] < elo["hard"]
    for line in rating["entrants"]:  # the weakest level too: no anchor without an interval
        assert line["low"] <= line["elo"] <= line["high"] and line["low"] < line["high"]
    assert hand_stats["ladder"]["levels"] == [
        {key: line[key] for key in ("name", "elo", "low", "high", "bound", "games")}
        for line in rating["entrants"]]
    assert rating["p_better"]["hard"]["easy"] + rating["p_better"]["easy"]["hard"] == 1
    assert hand_stats["ladder"]["increasing"]
    assert [step["to"] for step in hand_stats["ladder"]["steps"]] == ["medium", "hard"]


def test_hands_points_and_times_of_the_hand_run(hand_stats):
    overall = hand_stats["hands"][-1]
    assert overall == {"pairing": "all", "games": 12, "hands": 12, "domino": 10 / 12,
                       "blocked": 2 / 12, "capicu": 1 / 12, "dry_games": 1 / 12}
    easy = hand_stats["points"][0]
    assert easy == {"entrant": "easy", "hands": 8, "points": 10 / 8, "opponents": 60 / 8,
                    "margin": -50 / 8}
    times = {line["strategy"]: line for line in hand_stats["timing"]}
    # easy decides three times in 1, 3, 7, 9 ms (seat 0 of games 0, 2, 6, 8) and in 20, 40, 80,
    # 100 ms (seat 1 of games 1, 3, 7, 9): 24 decisions; the 12th is 9 ms, the 23.76th 100 ms,
    # each reported as the geometric middle of its bucket [10^(k/8), 10^((k+1)/8)).
    easy = times["easy"]
    assert (easy["games"], easy["decisions"], easy["max_ms"]) == (8, 24, 100.0)
    assert easy["p50_ms"] == 10 ** ((math.floor(8 * math.log10(9)) + 0.5) / 8)
    assert easy["p99_ms"] == 10 ** (16.5 / 8)
    summary = {(row["pairing"], row["entrant"]): row for row in hand_stats["summary"]}
    assert summary["all", "hard"]["wins"] == 6 and summary["all", "hard"]["shared"] == 1


def test_partial_run_uses_complete_deals_for_pairs(tmp_path):
    run = load_run(write_run(tmp_path / "run", GAMES[:7]))  # deal 1 has one game of 6
    stats = run_statistics(run, samples=10)
    assert stats["partial"] and stats["games"] == 7
    em = next(p for p in stats["pairs"] if (p["a"], p["b"]) == ("easy", "medium"))
    assert em["games"] == 3 and em["units"] == 1


def test_a_running_run_is_read_from_its_part_files(tmp_path):
    path = write_run(tmp_path / "run", GAMES[:10], output_format="parts")
    assert not list(path.glob("games.*"))
    run = load_run(path)
    assert run.table.column("game_id").to_pylist() == list(range(10))
    assert run_statistics(run, samples=5)["partial"]


def test_run_errors(tmp_path):
    with pytest.raises(RunError, match="is not a folder"):
        load_run(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(RunError, match="holds no manifest.json"):
        load_run(tmp_path / "empty")
    run = write_run(tmp_path / "none", [])
    with pytest.raises(RunError, match="no finished game"):
        load_run(run)
    (run / "manifest.json").write_text("{")
    with pytest.raises(RunError, match="cannot read"):
        load_run(run)


# -- the commands --------------------------------------------------------------------------------
def test_stats_command_prints_the_hand_run(tmp_path):
    run = write_run(tmp_path / "run")
    result = invoke("stats", str(run), "--samples", "20")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "block, 2 players, 12 games (complete), 2 seating(s) per deal" in out
    assert "easy vs medium: 4 games, W-L-S 1-3-0, win rate 25.0% [4.6%, 69.9%]" in out
    assert f"Elo {-ELO_3:+.1f}" in out
    assert "deal outcomes (score of easy: count) 0:1 1/2:1" in out
    # easy's margin per game over its four deal units: -10, 0 (easy vs medium), -10, -5
    margin_line = next(line for line in out.splitlines() if line.strip().startswith("all: easy"))
    assert margin_line.split()[2] == "-6.25"
    # issue 48: the side term sits apart from the entrants, under a title of its own
    entrants = out.split("faults\n")[1].split("\n\n")[0].splitlines()
    assert sorted(line.split()[0] for line in entrants) == ["easy", "hard", "medium"]
    assert "\n\nSide advantage (Elo of sitting on a side over side 0" in out
    figures = json.loads(invoke("stats", str(run), "--json", "--samples", "20").stdout)
    assert figures["games"] == 12 and figures["entrants"] == ["easy", "medium", "hard"]
    assert {(p["a"], p["b"]) for p in figures["pairs"]} == {
        ("easy", "medium"), ("easy", "hard"), ("medium", "hard")}


def test_stats_command_errors(tmp_path):
    one_line_error(invoke("stats", str(tmp_path / "nowhere")), "is not a folder")
    one_line_error(invoke("stats", str(tmp_path)), "holds no manifest.json")
    assert invoke("stats", str(tmp_path), "--samples", "-1").exit_code == 2


COMPARE = ["compare", "hard", "easy", "--variant", "classic", "--seed", "5", "--silent"]


def without_timing(path):
    table = pq.read_table(path / "games.parquet")
    return table.drop_columns([c for c in table.column_names if c.startswith("time_")])


def test_compare_stops_on_h1_with_the_same_verdict_for_any_workers(tmp_path):
    """hard against easy with H1 = +100 Elo: the test decides on the prefix of finished deals,
    so 1 and 2 workers stop at the same deal with the same games."""
    results = [invoke(*COMPARE, "--elo0", "0", "--elo1", "100", "-j", str(workers),
                      "--out", str(tmp_path / str(workers))) for workers in (1, 2)]
    for result in results:
        assert result.exit_code == 0, result.output
    texts = [r.stdout.rsplit("results:", 1)[0] for r in results]
    assert texts[0] == texts[1]
    assert "verdict: H1 accepted: hard is stronger than easy" in texts[0]
    games = int(texts[0].split("games: ")[1].split()[0])
    assert games % 2 == 0 and games < 20000
    assert without_timing(tmp_path / "1").equals(without_timing(tmp_path / "2"))
    assert without_timing(tmp_path / "1").num_rows == games
    manifest = json.loads((tmp_path / "1" / "manifest.json").read_text())
    assert manifest["compare"]["verdict"] == "H1" and not manifest["partial"]
    assert manifest["compare"]["llr"] >= math.log(0.95 / 0.05)
    # the run is a tourney folder: `domsim stats` reads the same deals
    stats = json.loads(invoke("stats", str(tmp_path / "1"), "--json", "--samples", "5").stdout)
    assert stats["pairs"][0]["units"] == games // 2
    text = invoke("stats", str(tmp_path / "1"), "--samples", "5").stdout
    assert "SPRT of hard against easy (logistic Elo, H0: 0, H1: 100): LLR" in text
    assert f"H1 after {games} games" in text


def test_compare_accepts_h0_for_a_strategy_against_itself(tmp_path):
    result = invoke("compare", "easy", "domsim.strategies.easy:Easy", "--variant", "classic",
                    "--seed", "1", "--elo0", "0", "--elo1", "150", "-j", "1", "--silent",
                    "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    assert "verdict: H0 accepted" in result.stdout


def test_compare_with_a_fixed_number_of_games(tmp_path):
    result = invoke(*COMPARE, "--games", "6", "-j", "1", "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    assert "verdict: none asked for" in result.stdout and "SPRT" not in result.stdout
    assert "games: 6 (3 complete deals)" in result.stdout
    assert without_timing(tmp_path / "run").num_rows == 6


def test_compare_errors(tmp_path):
    one_line_error(invoke(*COMPARE, "--elo0", "0"), "give --elo0 and --elo1 together")
    one_line_error(invoke(*COMPARE, "--elo0", "10", "--elo1", "5"), "must be above --elo0")
    one_line_error(invoke("compare", "easy", "hard", "--variant", "nope", "--out",
                          str(tmp_path / "a")), "nope")
    one_line_error(invoke("compare", "easy", "nobody", "--variant", "classic", "--out",
                          str(tmp_path / "b")), "nobody")
    one_line_error(invoke(*COMPARE, "--out", str(tmp_path)), "already exists")
    assert invoke(*COMPARE, "--games", "0").exit_code == 2


def test_compare_stops_undecided_at_the_limit(tmp_path):
    result = invoke(*COMPARE, "--elo0", "0", "--elo1", "5", "--games", "6", "-j", "1",
                    "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    assert "verdict: none (the test had not decided at the limit of 6 games)" in result.stdout
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["compare"]["verdict"] is None and manifest["games_completed"] == 6


def test_decision_time_histograms_merge_and_give_percentiles_within_a_bucket():
    """Buckets are [10^(k/8), 10^((k+1)/8)) ms: 1 ms is bucket 0, 1.3 ms still 0, 1.34 ms 1."""
    assert (time_bucket(1.0), time_bucket(1.3), time_bucket(1.34), time_bucket(0.0)) == (
        0, 0, 1, -48)
    counts = time_histogram([1.0] * 90 + [100.0] * 10)
    assert counts == {0: 90, 16: 10}
    spread = [0.0, 1e-9, 1e-6, 0.0123, 0.5, 7.0, 7.5, 1e4, 3e6]
    assert time_histogram(spread) == dict(Counter(map(time_bucket, spread)))
    assert [time_bucket(ms) for ms in spread] == [
        math.floor(math.log10(max(ms, 1e-6)) * 8) for ms in spread]
    assert histogram_percentile(counts, 50) == 10 ** (0.5 / 8)
    assert histogram_percentile(counts, 95) == 10 ** (16.5 / 8)
    assert abs(histogram_percentile(counts, 95) / 100 - 1) < 0.16
    with pytest.raises(ValueError):
        histogram_percentile({}, 50)


@pytest.mark.parametrize(("df", "quantile"), [(1, 12.706205), (2, 4.302653), (3, 3.182446),
                                              (5, 2.570582), (10, 2.228139), (30, 2.042272),
                                              (100, 1.983972)])
def test_student_t_quantiles_match_the_tables(df, quantile):
    assert t_quantile(0.975, df) == pytest.approx(quantile, abs=1e-6)
    assert t_cdf(quantile, df) == pytest.approx(0.975, abs=1e-7)
    assert t_cdf(-quantile, df) == pytest.approx(0.025, abs=1e-7)


def test_small_samples_take_student_t_and_large_ones_the_normal_quantile():
    assert critical_value(Z95, 4) == pytest.approx(3.182446, abs=1e-6)
    assert critical_value(Z95, 1) == math.inf
    assert critical_value(Z95, 5000) == Z95
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert (mean, high - mean) == (2.5, pytest.approx(3.182446 * math.sqrt(5 / 3 / 4)))
