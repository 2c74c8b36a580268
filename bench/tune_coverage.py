"""How often `domsim tune`'s 95% interval holds the true setting, on synthetic dials whose curve
is known: the real search (bisection, an SPRT per step, the fit, Fieller's interval) with the
games drawn instead of played, so a hundred tunes take a minute or two.

    python bench/tune_coverage.py [--curve line|bent] [--tunes 100] [--seed 1]

A deal is two games with the seats swapped: the dial wins game 1 with the chance
logistic(eta(s) + luck) and game 2 with logistic(eta(s) - luck), luck ~ N(0, 1) per deal, so
the deal's games are correlated as duplicate play makes them. eta is a line near the block dial
(+1,216 Elo per unit of strength), or the same line bent (a quadratic term). The true setting
is where the win rate over deals (luck averaged out) is 65%."""

from __future__ import annotations

import argparse
import math
import tempfile
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from domsim.runner.session import Execution
from domsim.studies import tune as tune_module
from domsim.studies.dialcurve import strength_of
from domsim.studies.tune import Play, TuneTarget, run_tune

TARGET = 0.65
CURVES = {"line": lambda s: -3.0 + 7.0 * s,
          "bent": lambda s: -3.3 + 7.0 * s + 12.0 * (s - 0.5) ** 2}
LOOK_EVERY = 4  # deals between two looks of the test (the real compare looks after every deal)


def win_rate(eta, strength: float, luck: np.ndarray) -> float:
    return float(np.mean(1 / (1 + np.exp(-(eta(strength) + luck)))))


def true_setting(eta) -> float:
    luck = np.random.default_rng(99).normal(0, 1, 200_000)
    low, high = 0.0, 1.0
    for _ in range(50):
        middle = (low + high) / 2
        low, high = (middle, high) if win_rate(eta, middle, luck) < TARGET else (low, middle)
    return (low + high) / 2


def drawn_compare(eta, rng: np.random.Generator):
    """compare_in's stand-in: deals drawn until the step's SPRT decides."""
    def run(config, out, sprt, execution, **_):
        strength = strength_of(config.entrants[0])
        counts, units, verdict = {}, [], None
        for deal in range(config.games // 2):
            luck = rng.normal()
            games = [float(rng.random() < 1 / (1 + math.exp(-(eta(strength) + sign * luck))))
                     for sign in (1, -1)]
            units.append(games)
            key = sum(games) / 2
            counts[key] = counts.get(key, 0) + 1
            if deal % LOOK_EVERY == LOOK_EVERY - 1:
                verdict = sprt.verdict(sprt.llr(counts, 2, 0.5))
                if verdict:
                    break
        pair = SimpleNamespace(win_rate=0.5, wilson_low=0.4, wilson_high=0.6)
        progress = SimpleNamespace(games=2 * len(units), verdict=verdict, units=units,
                                   unit_deals=list(range(len(units))), statistics=lambda: pair)
        return SimpleNamespace(progress=progress, out=out, stopped=None)
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--curve", choices=list(CURVES), default="line")
    parser.add_argument("--tunes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    eta = CURVES[args.curve]
    truth = true_setting(eta)
    tune_module.compare_in = drawn_compare(eta, np.random.default_rng(args.seed))
    held, in_bracket, widths, settings = 0, 0, [], []
    for k in range(args.tunes):
        with tempfile.TemporaryDirectory() as folder:
            result = run_tune(Play("block", None, {}, k, Execution()),
                              TuneTarget("medium", TARGET), Path(folder) / "t", steps=7,
                              games_per_step=20000)
        estimate = result.estimate
        if estimate is not None and estimate.low is not None:
            held += estimate.low <= truth <= estimate.high
            widths.append(estimate.high - estimate.low)
        in_bracket += result.low <= truth <= result.high
        settings.append(result.setting)
    print(f"{args.curve}: true setting {truth:.4f}; the 95% interval holds it in {held} of "
          f"{args.tunes} tunes (median width {np.median(widths):.4f}), the last bracket in "
          f"{in_bracket}; settings {np.mean(settings):.4f} +- {np.std(settings):.4f} (sd)")


if __name__ == "__main__":
    main()
