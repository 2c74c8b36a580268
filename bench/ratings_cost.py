"""What the joint ratings of a run's summary cost as the entrants grow: `bootstrap_ratings` (the
fit and its resamplings of whole deals, as `rate_outcomes` calls it) on synthetic outcomes of N
entrants, wall and CPU seconds per N.

The outcomes: round-robin or gauntlet pairings (`make_pairings`), --deals deals per pairing, each
played in both seatings; a deal is shared by every pairing (as a run's deals are). The entrants'
strengths, a side advantage, a luck of the deal that favours one seat in both seatings, and
shared wins are drawn from --seed, so every N is realistic and reproducible.

    taskset -c 1 python bench/ratings_cost.py [--form gauntlet] [--entrants 4 8 ... 200]
        [--samples 1000] [--baseline REV] [--profile N]

--baseline REV also times domsim/stats.py as it was at git revision REV, in the same process on
the same data (the trustworthy ratio on a noisy machine), and prints the largest difference of
the two in ratings and interval ends (Elo). --profile N prints cProfile's top functions for N.
BLAS runs on one thread."""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse  # noqa: E402
import cProfile  # noqa: E402
import importlib.util  # noqa: E402
import pstats  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from types import ModuleType  # noqa: E402

import numpy as np  # noqa: E402

from domsim import stats  # noqa: E402
from domsim.plan.pairings import make_pairings  # noqa: E402
from domsim.results.ratings import SAMPLES, SEED  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def outcomes(entrants: int, form: str, deals: int, seed: int, sides: int = 2
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(deal ids, side entrants, shares) of every game: each pairing plays `deals` deals in every
    seating (the pairing rotated)."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 0.6, entrants)
    side_edge = np.r_[0.0, rng.normal(0.1, 0.05, sides - 1)]
    pairings = np.array(make_pairings(entrants, sides, form))
    deal_luck = rng.normal(0, 0.5, (deals, sides))
    deal_ids, on_sides, shares = [], [], []
    for deal in range(deals):
        for seating in range(sides):
            seated = np.roll(pairings, seating, axis=1)
            logits = strength[seated] + side_edge + deal_luck[deal]
            p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
            winner = (p.cumsum(axis=1) < rng.random((len(p), 1))).sum(axis=1)
            share = np.eye(sides)[winner]
            share[rng.random(len(p)) < 0.1] = 1 / sides  # no winner: equal shares
            deal_ids.append(np.full(len(p), deal))
            on_sides.append(seated)
            shares.append(share)
    return np.concatenate(deal_ids), np.concatenate(on_sides), np.concatenate(shares)


def baseline_stats(revision: str) -> ModuleType:
    """domsim/stats.py as it was at `revision`, as a module of its own."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{revision}:domsim/stats.py"],
                            capture_output=True, text=True, check=True).stdout
    spec = importlib.util.spec_from_loader("baseline_stats", loader=None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # for its dataclasses
    exec(compile(source, f"{revision}:domsim/stats.py", "exec"), module.__dict__)
    return module


def timed(module: ModuleType, data: tuple, entrants: int, samples: int
          ) -> tuple[float, float, stats.RatingIntervals]:
    """(wall seconds, CPU seconds, the result) of the ratings of `data`."""
    wall, cpu = time.perf_counter(), time.process_time()
    fitted = module.bootstrap_ratings(*data, entrants, samples, SEED,
                                      centre=tuple(range(entrants)))
    return time.perf_counter() - wall, time.process_time() - cpu, fitted


def largest_difference(a: stats.RatingIntervals, b: stats.RatingIntervals) -> float:
    """The largest difference in Elo of the ratings, interval ends and side terms (the same nan
    or infinity in both counts as equal)."""
    pairs = [(a.ratings.elo, b.ratings.elo), (a.low, b.low), (a.high, b.high),
             (a.ratings.side_elo, b.ratings.side_elo), (a.side_low, b.side_low),
             (a.side_high, b.side_high), (a.difference_low, b.difference_low),
             (a.difference_high, b.difference_high)]
    alike = [(x == y) | (np.isnan(x) & np.isnan(y)) for x, y in pairs]
    with np.errstate(invalid="ignore"):  # inf - inf where both are alike
        return float(max(np.max(np.abs(x - y)[~same], initial=0.0)
                         for (x, y), same in zip(pairs, alike, strict=True)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, nargs="+",
                        default=[4, 8, 16, 32, 64, 128, 200])
    parser.add_argument("--form", choices=["round-robin", "gauntlet"], default="gauntlet")
    parser.add_argument("--deals", type=int, default=2, help="deals per pairing")
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", help="a git revision whose stats.py to time alongside")
    parser.add_argument("--profile", type=int, help="profile the ratings of this many entrants")
    args = parser.parse_args()
    baseline = baseline_stats(args.baseline) if args.baseline else None
    print(f"{args.form}, {args.deals} deals a pairing in 2 seatings, {args.samples} samples; "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)
    for entrants in args.entrants:
        data = outcomes(entrants, args.form, args.deals, args.seed)
        games = len(data[0])
        if args.profile == entrants:
            cProfile.runctx("timed(stats, data, entrants, args.samples)", globals(), locals(),
                            "/tmp/ratings_cost.prof")
            pstats.Stats("/tmp/ratings_cost.prof").sort_stats("cumulative").print_stats(20)
        wall, cpu, fitted = timed(stats, data, entrants, args.samples)
        line = f"N={entrants:>4} games={games:>6}: {wall:8.2f} s wall {cpu:8.2f} s CPU"
        if baseline:
            old_wall, old_cpu, old = timed(baseline, data, entrants, args.samples)
            line += (f" | baseline {old_wall:8.2f} s wall {old_cpu:8.2f} s CPU | "
                     f"{old_wall / wall:6.1f}x; largest difference "
                     f"{largest_difference(fitted, old):.1e} Elo, "
                     f"{np.abs(fitted.p_better - old.p_better).max():.3f} in p_better")
        print(line, flush=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
