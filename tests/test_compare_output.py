"""`domsim compare` in fastchess's words: the final block (Games, W, L, D, Points, the five
pentanomial bins, Elo and nElo with errors, LOS, LLR with its bounds and elo0/elo1) and the
SPRT's --alpha and --beta."""

from __future__ import annotations

import math
import re
from pathlib import Path
from types import SimpleNamespace

from clitools import invoke

from domsim.compare import ptnml
from domsim.plan.config import TourneyConfig
from domsim.runner.tourney import Tourney, games_to_play


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
        r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+), Points: ", text).groups())
    assert wins + losses + draws == games
    bins = [int(n) for n in re.search(r"Ptnml\(0-2\): \[(.*)\]", text).group(1).split(", ")]
    deals = int(re.search(r"\((\d+) complete deals\)", text).group(1))
    assert len(bins) == 5 and sum(bins) == deals
    lower, upper = math.log(0.2 / 0.9), math.log(0.8 / 0.1)
    llr = re.search(r"LLR: (\S+) \((\S+), (\S+)\) \[0.00, 100.00\]", text)
    assert (float(llr.group(2)), float(llr.group(3))) == (round(lower, 2), round(upper, 2))
    assert float(llr.group(1)) >= upper and "H1 accepted" in text
    assert re.search(r"Elo: [-\d.]+ \+/- [\d.]+, nElo: [-\d.]+ \+/- [\d.]+", text)
    assert "LOS: " in text


def test_watched_batches_start_with_single_deals_then_ten():
    tourney = Tourney(TourneyConfig("classic", games=30, entrants=("easy", "medium")), Path())
    watch = SimpleNamespace(decided=False, deal_games=2)
    sizes = [len(batch.game_ids) for batch in games_to_play(tourney, set(), 2, watch)]
    assert sizes == [2, 2, 20, 6]
