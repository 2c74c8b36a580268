"""The dial (strategies/dial.py) against its targets, on duplicate deals with 95% intervals.

    python bench/dial.py [--games 1000] [--variant V ...] [--settings 0,0.25,0.5,0.75,1]
                         [--workers 2] [--no-tune] [--tune-variant block] [--fresh-games 4000]
                         [--tune-seed S ...] [--reference-games 4000]

Prints, per variant: each step up the dial (the stronger setting against the weaker one: not
weaker when the interval's high end reaches the fair share), both ends against their levels
(dial 0 against easy, dial 1 against insane: Elo within 100), and then `domsim tune`'s
65%-against-medium search in block with its games and time, its setting and 95% interval, and the
setting's win rate measured afterwards on fresh deals (other seeds than the tune's). With
--reference-games, first the setting itself on fresh deals: the dial at five strengths around
it, the same line fitted to all their games, and where it reaches 65%; then how many tunes'
intervals hold it."""

from __future__ import annotations

import argparse
import multiprocessing
import tempfile
import time
from itertools import pairwise
from pathlib import Path

from ladder import fair_share, play_pair, seatings

from domsim.rules import VARIANTS, make_rules
from domsim.runner.session import Execution
from domsim.stats import elo_from_score, wilson_interval
from domsim.studies.compare import run_compare
from domsim.studies.dialcurve import DEFAULT_SETTINGS, dial_spec
from domsim.studies.tune import Play, TuneTarget, fitted_setting, run_tune

FRESH_DEALS = 1_000_000  # fresh deals start at this deal index: no tune step plays them
END_TOLERANCE = 100  # Elo


def play(pool, variant: str, players: int, a: str, b: str, deals: int,
         first: int = 0) -> tuple[float, float, float, int]:
    """a's win rate over `deals` duplicate deals from deal `first` on, its interval, games."""
    jobs = [(variant, players, a, b, first + i) for i in range(deals)]
    shares = [share for share, _ in pool.map(play_pair, jobs, chunksize=25)]
    games = len(seatings(players)) * len(shares)
    rate = sum(shares) / len(shares)
    low, high = wilson_interval(rate * games, games)
    return rate, low, high, games


def line(label: str, players: int, figures: tuple[float, float, float, int], verdict: str,
         secs: float) -> str:
    rate, low, high, games = figures
    ref = fair_share(players)
    elo = [elo_from_score(value, ref) for value in (rate, low, high)]
    return (f"  {label:<40} {games:>6} {rate:>7.1%} [{low:.1%}, {high:.1%}]  "
            f"{elo[0]:>+5.0f} Elo [{elo[1]:+.0f}, {elo[2]:+.0f}]  {verdict:<12} {secs:5.0f} s")


def dial_steps(pool, variant: str, settings: list[float], games: int) -> None:
    players = make_rules(variant).players
    per_deal = len(seatings(players))
    print(f"{variant} ({players} players; fair share {fair_share(players):.0%}):", flush=True)
    specs = [dial_spec(s) for s in settings]
    checks = [(upper, lower, "not weaker") for lower, upper in pairwise(specs)]
    checks += [(specs[0], "easy", "end"), (specs[-1], "insane", "end")]
    for a, b, kind in checks:
        started = time.perf_counter()
        figures = play(pool, variant, players, a, b, games // per_deal)
        elo = elo_from_score(figures[0], fair_share(players))
        if kind == "end":
            verdict = "ok" if abs(elo) <= END_TOLERANCE else "FAR"
        else:
            verdict = "ok" if figures[2] >= fair_share(players) else "WEAKER"
        print(line(f"{a} vs {b}", players, figures, verdict, time.perf_counter() - started),
              flush=True)


REFERENCE_STRENGTHS = (0.48, 0.51, 0.54, 0.57, 0.60)


def reference_setting(variant: str, games: int, workers: int) -> float:
    """The 65%-against-medium setting measured on `games` fresh games at each of
    REFERENCE_STRENGTHS (fixed counts, no test, no bisection), by the tune's own fit."""
    target = TuneTarget("medium", 0.65)
    play = Play(variant, None, {}, 7, Execution(workers, command=("bench/dial.py",)))
    observations = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for strength in REFERENCE_STRENGTHS:
            config = play.config((dial_spec(strength), target.level), games, "reference",
                                 strength)
            progress = run_compare(config, Path(folder) / f"{strength:g}", None,
                                   play.execution).progress
            observations += [(strength, (config.seed, deal), score)
                             for deal, unit in zip(progress.unit_deals, progress.units,
                                                   strict=True) for score in unit]
    estimate = fitted_setting(observations, target)
    print(f"reference: {variant}, 65% against medium at {estimate.setting:.4f} "
          f"[{estimate.low:.4f}, {estimate.high:.4f}] from {estimate.games} fresh games at "
          f"{', '.join(map(str, REFERENCE_STRENGTHS))}, {time.perf_counter() - started:.0f} s",
          flush=True)
    return estimate.setting


def tune_accuracy(pool, variant: str, fresh_games: int, workers: int, seed: int,
                  reference: float | None) -> bool | None:
    """One tune, its setting measured on fresh deals; whether its interval holds `reference`."""
    target = TuneTarget("medium", 0.65)
    print(f"tune: {variant}, win {target.win_rate:.0%} against {target.level}, seed {seed}",
          flush=True)
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        play = Play(variant, None, {}, seed, Execution(workers, command=("bench/dial.py",)))
        result = run_tune(play, target, Path(folder) / "tune", steps=7, games_per_step=20000)
        secs = time.perf_counter() - started
    interval = result.estimate.interval if result.estimate else None
    shown = "none" if interval is None else f"[{interval[0]:.4f}, {interval[1]:.4f}]"
    print(f"  setting {result.setting:.4f}, 95% interval {shown}, bracket [{result.low:.4f}, "
          f"{result.high:.4f}], {len(result.steps)} steps, {result.games} games, {secs:.0f} s",
          flush=True)
    players = make_rules(variant).players
    started = time.perf_counter()
    figures = play(pool, variant, players, dial_spec(result.setting), target.level,
                   fresh_games // len(seatings(players)), FRESH_DEALS)
    miss = figures[0] - target.win_rate
    verdict = "ok" if abs(miss) <= 0.03 else "MISSED"
    print(line(f"fresh deals: {dial_spec(result.setting)} vs medium", players, figures,
               f"{miss:+.1%} {verdict}", time.perf_counter() - started), flush=True)
    if reference is None or interval is None:
        return None
    return interval[0] <= reference <= interval[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per check")
    parser.add_argument("--variant", action="append", choices=list(VARIANTS))
    parser.add_argument("--settings", default=",".join(f"{s:g}" for s in DEFAULT_SETTINGS))
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--no-tune", action="store_true")
    parser.add_argument("--no-steps", action="store_true", help="only the tunes")
    parser.add_argument("--tune-variant", default="block", choices=list(VARIANTS))
    parser.add_argument("--fresh-games", type=int, default=4000)
    parser.add_argument("--tune-seed", type=int, action="append",
                        help="seed of a tune (repeat for several; default 20261201)")
    parser.add_argument("--reference-games", type=int, default=0,
                        help="games at each reference strength (0: no reference)")
    args = parser.parse_args()
    settings = sorted(float(s) for s in args.settings.split(","))
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for variant in [] if args.no_steps else args.variant or list(VARIANTS):
            dial_steps(pool, variant, settings, args.games)
        seeds = [] if args.no_tune else args.tune_seed or [20261201]
        reference = (reference_setting(args.tune_variant, args.reference_games, args.workers)
                     if args.reference_games and seeds else None)
        held = [tune_accuracy(pool, args.tune_variant, args.fresh_games, args.workers, seed,
                              reference) for seed in seeds]
        if reference is not None:
            print(f"the reference setting is inside {sum(h is True for h in held)} of "
                  f"{len(held)} tunes' 95% intervals", flush=True)


if __name__ == "__main__":
    main()
