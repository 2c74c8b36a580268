"""`domsim compare` in fastchess's words: the final block (Games, W, L, D, Points, the five
pentanomial bins, Elo and nElo with errors, LOS, LLR with its bounds and elo0/elo1) and the
SPRT's --alpha and --beta."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from types import SimpleNamespace

from clitools import invoke

from domsim.plan.config import TourneyConfig
from domsim.runner.play import games_to_play
from domsim.runner.tourney import Tourney
from domsim.stats import elo_estimate
from domsim.studies.compare import elo_error, elo_line, ptnml


def test_ptnml_counts_deals_by_their_score_in_quarters():
    assert ptnml([(0.0, 1), (0.25, 2), (0.5, 3), (1.0, 4)]) == [1, 2, 3, 0, 4]
    assert ptnml([(1 / 3, 2), (0.7, 1)]) == [0, 2, 0, 1, 0]  # between quarters: the nearest


def test_the_final_block_adds_up_and_the_bounds_follow_alpha_and_beta(tmp_path):
    result = invoke("compare", "hard", "easy", "--variant", "classic", "--seed", "5", "-j", "1",
                    "--silent", "--elo0", "0", "--elo1", "100", "--alpha", "0.1", "--beta",
                    "0.2", "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    text = result.stdout
    games, wins, losses, draws = map(int, re.search(
        r"Games: (\d+), W-L-S: (\d+)-(\d+)-(\d+), Points: ", text).groups())
    assert wins + losses + draws == games
    bins = [int(n) for n in re.search(r"Ptnml\(0-2\): \[(.*)\]", text).group(1).split(", ")]
    deals = int(re.search(r"\((\d+) complete deals\)", text).group(1))
    assert len(bins) == 5 and sum(bins) == deals
    lower, upper = math.log(0.2 / 0.9), math.log(0.8 / 0.1)
    llr = re.search(r"LLR: (\S+) \((\S+), (\S+)\) \[0.00, 100.00\]", text)
    assert (float(llr.group(2)), float(llr.group(3))) == (round(lower, 2), round(upper, 2))
    assert float(llr.group(1)) >= upper and "H1 accepted" in text
    assert re.search(r"Elo: [-\d.]+ \[[-+\d.]+, [-+\d.]+\], nElo: [-\d.]+ \+/- [\d.]+", text)
    assert "LOS: " in text


def test_watched_batches_start_with_single_deals_then_ten():
    tourney = Tourney.of(TourneyConfig("classic", games=30, entrants=("easy", "medium")), Path())
    watch = SimpleNamespace(decided=False, deal_games=2)
    sizes = [len(batch.game_ids) for batch in games_to_play(tourney, set(), 2, watch)]
    assert sizes == [2, 2, 20, 6]


def test_an_interval_reaching_a_score_of_one_is_open_there_as_stats_says(tmp_path):
    """3 deals scoring 1/2, 1, 1: the score interval reaches 1, where Elo is unbounded. The
    final block, compare.json and `stats` give the same ends, the open one infinite (null in
    JSON), never the score clamp's +-1200 or a +/- error spanning it."""
    estimate = elo_estimate([0.5, 1.0, 1.0], games_per_unit=2)
    assert estimate.score_high == 1.0 and elo_error(estimate) is None
    assert elo_line(estimate).startswith(f"Elo: {estimate.elo:.2f} [{estimate.elo_low:+.2f}, "
                                         "+inf], nElo: ")
    run = tmp_path / "run"
    result = invoke("compare", "hard", "easy", "--variant", "fives", "--games", "6", "--seed",
                    "3", "--silent", "--out", str(run))
    assert result.exit_code == 0, result.output
    figures = json.loads((run / "compare.json").read_text())
    pair = json.loads(invoke("stats", str(run), "--json").stdout)["pairs"][0]
    assert figures["deals"] == 3 and figures["elo_high"] is None and figures["elo_error"] is None
    assert (figures["elo_low"], figures["elo_high"]) == (pair["elo_low"], pair["elo_high"])
    assert f"Elo: {figures['elo']:.2f} [{figures['elo_low']:+.2f}, +inf]" in result.stdout
