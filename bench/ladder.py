"""The difficulty ladder (R-LEVEL): easy vs medium and medium vs hard in every variant, over
duplicate deals (each deal played twice with the seats swapped), with 95% intervals.

    python bench/ladder.py [--games 2000] [--variant V ...] [--workers 2]

Prints, per variant and pairing, the stronger level's game win rate (Wilson interval) against
its fair share of the seats, its points margin per hand (interval over deals), and whether the
step is significant (the interval's low end above the fair share)."""

from __future__ import annotations

import argparse
import multiprocessing
import time

from domsim.game import play_game
from domsim.rules import VARIANTS, Rules, make_rules
from domsim.seeding import game_seed
from domsim.stats import mean_interval, wilson_interval

LEVELS = {
    "easy": "domsim.strategies.easy:Easy",
    "medium": "domsim.strategies.medium:Medium",
    "hard": "domsim.strategies.hard:Hard",
}
PAIRINGS = (("medium", "easy"), ("hard", "medium"))


def seatings(players: int) -> list[set[int]]:
    """The seats of the stronger level A in each seating of a deal: with an even count A holds
    every other seat (a team in team games) and the seats swap; with 3 players A holds one seat
    and it rotates, so A's fair share of wins is 1/3."""
    if players % 2 == 0:
        return [set(range(0, players, 2)), set(range(1, players, 2))]
    return [{seat} for seat in range(players)]


def fair_share(players: int) -> float:
    return len(seatings(players)[0]) / players


def outcome(record: dict, seats_of_a: set[int]) -> tuple[float, float]:
    """(win share of A, A's points margin per hand) for one game."""
    winners = set(record["result"]["winners"])
    share = len(winners & seats_of_a) / len(winners) if winners else 0.5
    rules = make_rules(record["variant"], record["players"], record["options"])
    margin = sum(hand_margin(rules, hand["result"]["points"], seats_of_a)
                 for hand in record["hands"])
    return share, margin / len(record["hands"])


def hand_margin(rules: Rules, points: list[int], seats_of_a: set[int]) -> float:
    """A's points margin in one hand whose sides scored `points`: its sides' mean less the
    others' (kozel: reversed, it records points against the losers)."""
    sides_a = {rules.side_of(s) for s in seats_of_a}
    mine = sum(points[s] for s in sides_a) / len(sides_a)
    theirs = sum(p for s, p in enumerate(points) if s not in sides_a) / (
        len(points) - len(sides_a))
    return theirs - mine if rules.variant.scoring == "kozel" else mine - theirs


def play_pair(job: tuple[str, int, str, str, int]) -> tuple[float, float]:
    """Play deal `index` once per seating; return A's mean win share and margin per hand (a and b
    name a level of LEVELS or are specs)."""
    variant, players, a, b, index = job
    rules = make_rules(variant, players)
    seed = game_seed(20261129, index)
    shares, margins = [], []
    for seats_a in seatings(players):
        specs = [LEVELS.get(a, a) if seat in seats_a else LEVELS.get(b, b)
                 for seat in range(players)]
        share, margin = outcome(play_game(rules, specs, seed), seats_a)
        shares.append(share)
        margins.append(margin)
    return sum(shares) / len(shares), sum(margins) / len(margins)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing (even)")
    parser.add_argument("--variant", action="append", choices=list(VARIANTS))
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args()
    variants = args.variant or list(VARIANTS)
    print(f"{'variant':<16} {'n':>2} {'pairing':<15} {'games':>6} {'fair':>5} "
          f"{'win rate [95% CI]':>24} "
          f"{'margin/hand [95% CI]':>26}  verdict   secs")
    context = multiprocessing.get_context("fork")
    with context.Pool(args.workers) as pool:
        for variant in variants:
            rules = make_rules(variant, args.players)
            for a, b in PAIRINGS:
                started = time.perf_counter()
                per_deal = len(seatings(rules.players))
                jobs = [(variant, rules.players, a, b, i) for i in range(args.games // per_deal)]
                deals = pool.map(play_pair, jobs, chunksize=25)
                report(variant, rules.players, a, b, deals, time.perf_counter() - started)


def report(variant: str, players: int, a: str, b: str, deals: list[tuple[float, float]],
           secs: float) -> None:
    games = len(seatings(players)) * len(deals)
    wins = games * sum(share for share, _ in deals) / len(deals)
    low, high = wilson_interval(wins, games)
    margin, m_low, m_high = mean_interval([m for _, m in deals])
    fair = fair_share(players)
    verdict = "ok" if low > fair else "NOT SIG"
    print(f"{variant:<16} {players:>2} {a + '>' + b:<15} {games:>6} {fair:>5.0%} "
          f"{wins / games:>7.1%} [{low:.1%}, {high:.1%}] "
          f"{margin:>8.2f} [{m_low:>6.2f}, {m_high:>6.2f}]  {verdict:<8} {secs:5.0f}", flush=True)


if __name__ == "__main__":
    main()
