"""How often two insane specs choose differently from the same position and seed, per variant.

    python bench/agreement.py [--games 40] [--variant V ...] [--insane insane]
                              [--versus 'insane?preset=v0.2']

Plays insane against the other spec as bench/strength.py --versus seats them (insane on the even
seats, the same game seeds) and at every decision (more than one legal move) of either side asks
both specs, with the seat's seed for that decision, which move they choose; each side plays its
own. Prints per variant the decisions asked, the share on which the two differ (Wilson 95%
interval), the decisions per game and the share of games with no differing decision. A game in
which none differs is the same game with the seats swapped, so its duplicate pair's difference
is exactly 0: the lower this share, the more of strength.py's interval is the luck of games that
took different turns."""

from __future__ import annotations

import argparse
import multiprocessing

from domsim.strategies.insane import Insane

from domsim.game import play_game
from domsim.rules import VARIANTS, make_rules
from domsim.search import insane_move
from domsim.seeding import game_seed
from domsim.stats import wilson_interval
from domsim.strategy import Strategy, load_strategy
from domsim.view import Move, PlayerView, move_value

#: Per game in this process: [decisions asked, decisions on which the two specs differ].
COUNTS = [0, 0]
SPECS: dict[str, str] = {}


class Probe(Strategy):
    """Plays `own`'s move, and counts whether `other` would have chosen the same with the seed."""

    def __init__(self, *, own: str = "insane", other: str = "insane") -> None:
        self.own, self.other = (_insane(SPECS[name]) for name in (own, other))

    def choose(self, view: PlayerView) -> Move:
        seed = self.rng.getrandbits(64)
        own, other = (insane_move(view, seed, **bot.search_options(view))
                      for bot in (self.own, self.other))
        COUNTS[0] += 1
        COUNTS[1] += own != other
        return move_value(own)


def _insane(spec: str) -> Insane:
    bot = load_strategy(spec)(None)
    if not isinstance(bot, Insane):
        raise SystemExit(f"{spec} is not an insane spec")
    return bot


def play(job: tuple[str, int]) -> tuple[int, int]:
    """Game `index` with insane on the even seats: its decisions asked and those that differ."""
    variant, index = job
    rules = make_rules(variant)
    specs = ["agreement:Probe?own=a&other=b" if seat % 2 == 0 else
             "agreement:Probe?own=b&other=a" for seat in range(rules.players)]
    COUNTS[:] = [0, 0]
    play_game(rules, specs, game_seed(20261130, index), move_time_limit=None)
    return COUNTS[0], COUNTS[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--variant", action="append", choices=list(VARIANTS))
    parser.add_argument("--insane", default="insane")
    parser.add_argument("--versus", default="insane?preset=v0.2")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    SPECS.update(a=args.insane, b=args.versus)
    print(f"{args.insane} against {args.versus}, the same seed at each decision")
    print(f"{'variant':<16} {'games':>5} {'decisions':>9} {'differ [95% CI]':>24} "
          f"{'per game':>8} {'same games':>10}")
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for variant in args.variant or list(VARIANTS):
            games = pool.map(play, [(variant, i) for i in range(args.games)])
            asked = sum(g[0] for g in games)
            differ = sum(g[1] for g in games)
            low, high = wilson_interval(differ, asked)
            same = sum(g[1] == 0 for g in games) / len(games)
            print(f"{variant:<16} {len(games):>5} {asked:>9} {differ / asked:>7.2%} "
                  f"[{low:.2%}, {high:.2%}] {asked / len(games):>8.1f} {same:>10.0%}",
                  flush=True)


if __name__ == "__main__":
    import agreement  # the Probe specs load this module by name: share its globals

    agreement.main()
