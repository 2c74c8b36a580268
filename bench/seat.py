"""What a seat in its own process costs (docs/seat-protocol.md): CPU per game of
strategies/example_greedy.py against easy in process and isolated (through `python -m
domsim.seat_host`, in the sandbox and without it), counting the bot processes' CPU too, in one
run; and the round trip per decision of a trivial bot and of easy through the host.

    python bench/seat.py [--variant block] [--games 4000] [--decisions 5000]

The target (issue 21): isolated CPU per game at most 2x in process."""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import statistics
import sys
import time
from pathlib import Path

from domsim.bot import BotPool, Confinement, _children, bot_command, keep_bots_on
from domsim.engine import State, start_next_hand
from domsim.game import play, play_hand
from domsim.protocol import ViewEncoder, game_message
from domsim.rules import make_rules
from domsim.seeding import deal_rng
from domsim.view import ViewBuilder

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = f"exec:{sys.executable} {ROOT / 'strategies' / 'example_external.py'}"
GREEDY = str(ROOT / "strategies" / "example_greedy.py")
ISOLATED_EASY = "domsim.strategies.easy:Easy"  # a module spec: not kept in process as a level


class Collect:
    """Plays the first legal move and keeps every decision it is shown: the state (a copy) and
    the view of it."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.decisions = []

    def choose(self, view):
        self.decisions.append((self.state.copy(), view))
        return view.legal_moves[0]


def sample_decisions(rules, count: int) -> list:
    decisions, seed = [], 0
    while len(decisions) < count:
        state, rng, views = State(rules), deal_rng(seed), ViewBuilder()
        collect = Collect(state)
        while not state.match_over:
            start_next_hand(state, rng)
            play_hand(state, [collect] * rules.players, views)
        decisions += collect.decisions
        seed += 1
    return decisions[:count]


def round_trips(spec: str, decisions: list) -> list[float]:
    """Seconds per `choose` round trip (encode, pipe, the bot's answer, decode)."""
    command = bot_command(spec, isolate=True)
    times = []
    with BotPool() as pool:
        bot = pool.take(command)
        bot.ask(game_message(decisions[0][1].rules, 0, 1, None), 10, "ready")
        encoder = ViewEncoder()
        for request, (state, view) in enumerate(decisions, 1):
            message = state if bot.compact else encoder.encode(request, view)
            started = time.perf_counter()
            bot.ask(message, 10, "move", request)
            times.append(time.perf_counter() - started)
    return times


def cpu_seconds() -> float:
    """This process's CPU and that of its children that ended."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def descendants_cpu() -> float:
    """CPU seconds of every live descendant of this process and of the children they reaped,
    from /proc: a bot's, read before it is killed (killed, a sandbox's processes are never
    reaped by bwrap, so their time would not reach this process's children's)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total, frontier = 0, [os.getpid()]
    while frontier:
        children = [child for pid in frontier for child in _children(pid)]
        for child in children:
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{child}/stat").read_text().rpartition(")")[2].split()
                total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
        frontier = children
    return total / ticks


def cpu_per_game(rules, specs: list[str], games: int, isolate: bool,
                 confinement: Confinement) -> float:
    """CPU seconds per game, bots' included (their start-up too: a worker starts each once)."""
    started = cpu_seconds()
    with BotPool(confinement) as bots:
        for seed in range(games):
            play(rules, specs, seed, isolate=isolate, keep_hands=False, bots=bots)
        bots_cpu = descendants_cpu()
        spent = cpu_seconds() - started
    return (spent + bots_cpu) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="block")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--decisions", type=int, default=5000)
    args = parser.parse_args()
    rules = make_rules(args.variant)
    specs = [GREEDY] + ["easy"] * (rules.players - 1)
    cpu = min(os.sched_getaffinity(0))
    keep_bots_on(cpu)  # as a worker of the local pool does
    os.sched_setaffinity(0, {cpu})  # in process too: both ways measured on the same CPU
    base = cpu_per_game(rules, specs, args.games, False, Confinement())
    print(f"{args.variant}, {args.games} games of example_greedy vs easy, CPU per game "
          "(bots' included):")
    print(f"  in process                  {base * 1e3:7.3f} ms")
    for label, confinement in (("isolated, in the sandbox", Confinement()),
                               ("isolated, --no-sandbox", Confinement(sandboxed=False))):
        cost = cpu_per_game(rules, specs, args.games, True, confinement)
        print(f"  {label:<27} {cost * 1e3:7.3f} ms  {cost / base:.2f}x in process "
              f"(target <= 2x)")
    decisions = sample_decisions(rules, args.decisions)
    for name, spec in (("example_external.py (exec:, JSON)", EXAMPLE),
                       ("easy through domsim.seat_host (compact)", ISOLATED_EASY)):
        times = round_trips(spec, decisions)
        print(f"round trip per decision, {name}: median {statistics.median(times) * 1e6:.1f} us,"
              f" p99 {sorted(times)[int(len(times) * 0.99)] * 1e6:.1f} us")


if __name__ == "__main__":
    main()
