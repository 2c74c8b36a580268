"""What a seat in its own process costs (docs/seat-protocol.md): the round trip per decision for
a trivial bot, and games per second of easy against easy in process and against an isolated
easy (the same strategy through `python -m domsim.seat_host`), in one process, no pool.

    python bench/seat.py [--variant block] [--games 300] [--decisions 5000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from domsim.bot import BotPool, bot_command
from domsim.engine import State, start_next_hand
from domsim.game import play, play_hand
from domsim.protocol import ViewEncoder, game_message
from domsim.rules import make_rules
from domsim.seeding import deal_rng
from domsim.view import ViewBuilder

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = f"exec:{sys.executable} {ROOT / 'strategies' / 'example_external.py'}"
ISOLATED_EASY = "domsim.strategies.easy:Easy"  # a module spec: not kept in process as a level


class Collect:
    """Plays the first legal move and keeps every view it is shown."""

    def __init__(self) -> None:
        self.views = []

    def choose(self, view):
        self.views.append(view)
        return view.legal_moves[0]


def sample_views(rules, count: int) -> list:
    collect, seed = Collect(), 0
    while len(collect.views) < count:
        state, rng, views = State(rules), deal_rng(seed), ViewBuilder()
        while not state.match_over:
            start_next_hand(state, rng)
            play_hand(state, [collect] * rules.players, views)
        seed += 1
    return collect.views[:count]


def round_trips(spec: str, views: list) -> list[float]:
    """Seconds per `choose` round trip (encode, pipe, the bot's answer, decode)."""
    command = bot_command(spec, isolate=True)
    times = []
    with BotPool() as pool:
        bot = pool.take(command)
        bot.ask(game_message(views[0].rules, 0, 1, None), 10, "ready")
        encoder = ViewEncoder()
        for request, view in enumerate(views, 1):
            started = time.perf_counter()
            bot.ask(encoder.encode(request, view), 10, "move", request)
            times.append(time.perf_counter() - started)
    return times


def games_per_second(rules, specs: list[str], games: int, isolate: bool) -> float:
    with BotPool() as bots:
        play(rules, specs, 0, isolate=isolate, bots=bots)  # start the bot processes
        started = time.perf_counter()
        for seed in range(1, games + 1):
            play(rules, specs, seed, isolate=isolate, keep_hands=False, bots=bots)
        return games / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="block")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--decisions", type=int, default=5000)
    args = parser.parse_args()
    rules = make_rules(args.variant)
    views = sample_views(rules, args.decisions)
    encoder = ViewEncoder()
    started = time.perf_counter()
    for request, view in enumerate(views):
        encoder.encode(request, view)
    encoding = (time.perf_counter() - started) / len(views)
    print(f"{args.variant}: {len(views)} decisions, encoding a view: {encoding * 1e6:.1f} us")
    for name, spec in (("example_external.py (exec:)", EXAMPLE),
                       ("easy through domsim.seat_host", ISOLATED_EASY)):
        times = round_trips(spec, views)
        print(f"round trip per decision, {name}: median {statistics.median(times) * 1e6:.1f} us,"
              f" mean {statistics.fmean(times) * 1e6:.1f} us, p99 "
              f"{sorted(times)[int(len(times) * 0.99)] * 1e6:.1f} us")
    in_process = games_per_second(rules, ["easy"] * rules.players, args.games, False)
    isolated = games_per_second(rules, [ISOLATED_EASY] + ["easy"] * (rules.players - 1),
                                args.games, True)
    print(f"games/s, one process: easy vs easy {in_process:.0f}; isolated easy vs easy "
          f"{isolated:.0f} ({isolated / in_process:.0%} of in process)")


if __name__ == "__main__":
    main()
