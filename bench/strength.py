"""insane against hard, and a cheater that sees every hand against hard, per variant, over
duplicate deals (each deal played twice with the seats swapped), with 95% intervals.

    python bench/strength.py [--games 400] [--variant V ...] [--insane 'insane?samples=24']
                             [--baseline 'insane?samples=64'] [--cheater-games 0]
    python bench/strength.py --versus 'insane?preset=v0.2' [--insane insane] [--games N]
                             [--reseed] [--first DEAL]

Prints per variant: insane's game win rate over hard (Wilson interval) and points margin per
hand (interval over deal pairs), the cheater's win rate and margin over hard, the fraction
insane/cheater of the margins (classic, which scores no points: of the win rates above 50%), and
insane's median and p95 decision time (decisions with more than one legal move). The targets:
insane beats hard at 95% everywhere, fraction >= 0.5, median <= 20 ms with 2 players and <= 50 ms
with 4. Timings are the deciding thread's CPU time in worker processes (a busy machine inflates
them less than wall-clock time).

With --baseline, a second insane spec plays the same deals too, and a line under the variant's
prints insane's paired difference over it (margin per hand; classic: win share), with its 95%
interval: a change to insane is judged on the same deals, which cancels most of their luck.

With --versus, insane plays that spec itself on duplicate boards instead (no hard, no cheater;
play_duel): per variant its margin per hand over it (classic: its win share less a half) with a
95% interval over the deals, each side's search CPU per game (the decisions' thread time) and
their ratio, and each side's median and p99 decision CPU time. The verdict is ok when insane
is not weaker (the interval's low end above -0.15 pips a hand; classic: above -0.02 of a game)
at no more than half the other's CPU a game. Games per variant by default: 1,000 in block,
kozel and partnership, 600 in the others. Decision times everywhere are the deciding thread's CPU
time, which a busy machine inflates far less than wall-clock time."""

from __future__ import annotations

import argparse
import copy
import math
import multiprocessing
import os
import random
import statistics
import time

import cheater  # bench/cheater.py: the script's own directory is first on sys.path
from ladder import hand_margin, outcome  # bench/ladder.py

from domsim.engine import State, start_next_hand
from domsim.game import play_game, play_hand
from domsim.rules import VARIANTS, make_rules
from domsim.seeding import deal_rng, game_seed, seat_rng
from domsim.stats import mean_interval, wilson_interval
from domsim.strategy import Strategy, load_strategy
from domsim.view import ViewBuilder

HARD = "hard"
BOTS = "cheater"  # bench/cheater.py, imported by module name so its hooks are shared
#: --versus: games per variant by default (others: DUEL_GAMES_OTHERS), the margin's lowest
#: acceptable low end (pips a hand; classic: win share) and the most CPU it may take.
DUEL_GAMES = {"block": 1000, "kozel": 1000, "partnership": 1000}
DUEL_GAMES_OTHERS = 600
NOT_WEAKER = -0.15
NOT_WEAKER_CLASSIC = -0.02
CPU_SHARE = 0.5


def play_pair(job: tuple[str, int, str, int]) -> tuple[float, float, list[float]]:
    """Deal `index` played twice, seats swapped: A's mean win share and margin per hand, and
    the decision times recorded meanwhile."""
    variant, players, spec_a, index = job
    rules = make_rules(variant, players)
    seed = game_seed(20261130, index)
    shares, margins = [], []
    for a_seats_even in (True, False):
        specs = [spec_a if (seat % 2 == 0) == a_seats_even else HARD
                 for seat in range(rules.players)]
        record = play_game(rules, specs, seed, move_time_limit=None)
        share, margin = outcome(record, {s for s in range(rules.players)
                                         if (s % 2 == 0) == a_seats_even})
        shares.append(share)
        margins.append(margin)
    times = cheater.DECISION_TIMES[:]
    cheater.DECISION_TIMES.clear()
    return sum(shares) / 2, sum(margins) / 2, times


def play_duel(job: tuple[str, int, str, str, int]) -> tuple[float, float, list[float],
                                                             list[float]]:
    """Deal `index` as duplicate boards: the game played once, A on the even seats (odd index:
    the odd seats) against B, and each of its hands played again from the same start (deal,
    leader, scores) with the seats swapped, each seat's generator where the game's stood. A's
    mean win share and margin per hand over the boards (each board the mean of its two
    seatings), and both sides' decision times. Two specs that choose alike play every board
    identically and score it exactly 0, whatever the game before it."""
    variant, players, spec_a, spec_b, index = job
    rules = make_rules(variant, players)
    seed = game_seed(20261130, index)
    seats_a = {s for s in range(players) if s % 2 == index % 2}
    seats_b = set(range(players)) - seats_a
    factories = load_strategy(spec_a), load_strategy(spec_b)

    def seated(swapped: bool, rngs: list[random.Random]) -> list[Strategy]:
        bots = [factories[0 if (s in seats_a) != swapped else 1](rng)
                for s, rng in enumerate(rngs)]
        for s, bot in enumerate(bots):
            bot.start_game(s, rules)
        return bots

    bots = seated(False, [seat_rng(seed, s) for s in range(players)])
    deals, state = deal_rng(seed), State(rules)
    shares, margins = [], []
    while not state.match_over:
        start_next_hand(state, deals)
        board = state.copy()
        play_hand(board, seated(True, [copy.deepcopy(bot.rng) for bot in bots]), ViewBuilder())
        play_hand(state, bots, ViewBuilder())
        shares.append((hand_share(state, seats_a) + hand_share(board, seats_b)) / 2)
        margins.append((hand_margin(rules, state.last_hand_result.points, seats_a)
                        + hand_margin(rules, board.last_hand_result.points, seats_b)) / 2)
    times = cheater.DECISION_TIMES[:], cheater.RIVAL_TIMES[:]
    cheater.DECISION_TIMES.clear()
    cheater.RIVAL_TIMES.clear()
    return statistics.mean(shares), statistics.mean(margins), *times


def hand_share(state: State, seats: set[int]) -> float:
    """The seats' share of the win of the hand just over."""
    winners = set(state.last_hand_result.winners)
    return len(winners & seats) / len(winners) if winners else 0.5


def timed(spec: str, bot: str = "TimedInsane") -> str:
    """The insane spec as a timed bot of bench/cheater.py, parameters kept."""
    _, _, query = spec.partition("?")
    return f"{BOTS}:{bot}" + (f"?{query}" if query else "")


def run(pool, variant: str, players: int, spec: str, games: int):
    jobs = [(variant, players, spec, i) for i in range(games // 2)]
    return pool.map(play_pair, jobs, chunksize=4)


def summary(pairs) -> tuple[float, float, float, float, float, float]:
    games = 2 * len(pairs)
    wins = 2 * sum(p[0] for p in pairs)
    low, high = wilson_interval(wins, games)
    margin, m_low, m_high = mean_interval([p[1] for p in pairs])
    return wins / games, low, high, margin, m_low, m_high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None,
                        help="games per pairing (even; default 400, with --versus see above)")
    parser.add_argument("--cheater-games", type=int, default=None,
                        help="games for the cheater (default: --games; 0: no cheater)")
    parser.add_argument("--variant", action="append", choices=list(VARIANTS))
    parser.add_argument("--insane", default="insane", help="insane's spec, e.g. insane?samples=16")
    parser.add_argument("--baseline", help="an insane spec to compare with on the same deals")
    parser.add_argument("--versus", help="an insane spec to play insane against head to head")
    parser.add_argument("--reseed", action="store_true",
                        help="--versus: that side searches other deals than its seeds give (with "
                             "the same spec as --insane, an A/A duel: the margin's chance spread)")
    parser.add_argument("--first", type=int, default=0,
                        help="--versus: the first deal's index (a later run adds other deals)")
    parser.add_argument("--workers", type=int, default=1,
                        help="worker processes (the machine is shared: 1)")
    args = parser.parse_args()
    if args.versus:
        duel(args)
        return
    args.games = args.games or 400
    cheater.install()
    print(f"{'variant':<16} {'n':>1} {'games':>5} {'insane win [95% CI]':>22} "
          f"{'insane margin [95% CI]':>24} {'c. win':>6} {'cheater margin [95% CI]':>25} "
          f"{'frac':>5} {'p50 ms':>6} {'p95 ms':>6}  verdict  secs")
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for variant in args.variant or list(VARIANTS):
            players = make_rules(variant).players
            started = time.perf_counter()
            pairs = run(pool, variant, players, timed(args.insane), args.games)
            cheats = run(pool, variant, players, f"{BOTS}:Cheater",
                         args.games if args.cheater_games is None else args.cheater_games)
            report(variant, players, pairs, cheats, time.perf_counter() - started)
            if args.baseline:
                base = run(pool, variant, players, timed(args.baseline), args.games)
                report_baseline(variant, args.baseline, pairs, base)


def duel(args) -> None:
    print(f"insane = {args.insane}, versus {args.versus}; load average before: "
          f"{os.getloadavg()[0]:.1f}")
    print(f"{'variant':<16} {'n':>1} {'games':>5} {'margin [95% CI]':>22} "
          f"{'CPU ms/game':>17} {'ratio':>5} {'p50 ms':>11} {'p99 ms':>11}  verdict  secs")
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for variant in args.variant or list(VARIANTS):
            players = make_rules(variant).players
            games = args.games or DUEL_GAMES.get(variant, DUEL_GAMES_OTHERS)
            started = time.perf_counter()
            rival = timed(args.versus, "ReseededRival" if args.reseed else "TimedRival")
            jobs = [(variant, players, timed(args.insane), rival, i)
                    for i in range(args.first, args.first + games // 2)]
            pairs = pool.map(play_duel, jobs, chunksize=4)
            report_duel(variant, players, pairs, time.perf_counter() - started)


def report_duel(variant: str, players: int, pairs, secs: float) -> None:
    points = scores_points(variant)
    mean, low, high = mean_interval([p[1] if points else p[0] - 0.5 for p in pairs])
    games = 2 * len(pairs)
    cpu = [sum(t for p in pairs for t in p[k]) * 1000 / games for k in (2, 3)]
    ratio = cpu[0] / cpu[1] if cpu[1] else float("nan")
    (a50, a99), (b50, b99) = (decision_times(pairs, k, 0.99) for k in (2, 3))
    ok = low > (NOT_WEAKER if points else NOT_WEAKER_CLASSIC) and ratio <= CPU_SHARE
    print(f"{variant:<16} {players:>1} {games:>5} {mean:>+6.2f} [{low:>+6.2f}, {high:>+6.2f}] "
          f"{cpu[0]:>7.1f} / {cpu[1]:>7.1f} {ratio:>5.2f} {a50:>5.2f}/{b50:>5.2f} "
          f"{a99:>5.1f}/{b99:>5.1f}  {'ok' if ok else 'SHORT':<7} {secs:5.0f}", flush=True)


def decision_times(pairs, index: int = 2, top: float = 0.95) -> tuple[float, float]:
    """Median and `top` quantile of the decision times at `index` of each pair, in ms."""
    return median_and_top([t for p in pairs for t in p[index]], top)


def median_and_top(seconds: list[float], top: float) -> tuple[float, float]:
    """Median and `top` quantile of decision times given in seconds, in ms."""
    times = sorted(t * 1000 for t in seconds)
    if not times:
        return 0.0, 0.0
    return statistics.median(times), times[int(top * (len(times) - 1))]


def scores_points(variant: str) -> bool:
    """classic scores no points (R-CLASSIC): there the edge is the win rate above a half."""
    return VARIANTS[variant].scoring != "classic"


def report(variant: str, players: int, pairs, cheats, secs: float) -> None:
    win, low, high, margin, m_low, m_high = summary(pairs)
    c_win, _, _, c_margin, c_low, c_high = summary(cheats) if cheats else (math.nan,) * 6
    p50, p95 = decision_times(pairs)
    points = scores_points(variant)
    edge, c_edge = (margin, c_margin) if points else (win - 0.5, c_win - 0.5)
    fraction = edge / c_edge if c_edge > 0 else float("nan")
    limit = 20 if players == 2 else 50
    beats = low > 0.5 and (m_low > 0 or not points)
    ok = beats and fraction >= 0.5 and p50 <= limit
    verdict = ("ok" if ok else "SHORT") if cheats else "-"  # no cheater, no fraction to judge
    print(f"{variant:<16} {players:>1} {2 * len(pairs):>5} {win:>6.1%} [{low:.1%}, {high:.1%}] "
          f"{margin:>6.2f} [{m_low:>6.2f}, {m_high:>6.2f}] {c_win:>6.1%} "
          f"{c_margin:>7.2f} [{c_low:>6.2f}, {c_high:>6.2f}] {fraction:>5.2f} "
          f"{p50:>6.1f} {p95:>6.1f}  {verdict:<7} {secs:5.0f}", flush=True)


def report_baseline(variant: str, spec: str, pairs, base) -> None:
    """insane's paired difference over the baseline on the same deal pairs."""
    index = 1 if scores_points(variant) else 0
    mean, low, high = mean_interval([a[index] - b[index] for a, b in zip(pairs, base, strict=True)])
    p50, p95 = decision_times(base)
    what = "margin per hand" if index else "win share"
    print(f"{'':<16}   vs {spec}: {what} {mean:+.2f} [{low:+.2f}, {high:+.2f}] on the same deals "
          f"(its p50 {p50:.1f} ms, p95 {p95:.1f} ms)", flush=True)


if __name__ == "__main__":
    main()
