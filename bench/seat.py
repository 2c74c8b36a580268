"""What a seat in its own process costs (docs/seat-protocol.md): CPU per game of
strategies/example_greedy.py against easy in process and isolated (through `python -m
domsim.seat.host`, in the sandbox and without it), counting the bot processes' CPU too, in one
run, the games played as a worker plays a batch's (`GAMES_AT_ONCE` at a time, each bot
answering for all its tables in one round trip: domsim.seat.tables) and, for comparison, one at
a time; and the round trip per decision of a trivial bot and of easy through the host.

    python bench/seat.py [--variant block] [--games 4000] [--decisions 5000]

The target (issue 21): isolated CPU per game at most 2x in process."""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import resource
import statistics
import sys
import time
from pathlib import Path

from domsim.engine import State, start_next_hand
from domsim.game import play, play_hand
from domsim.limits import MOVE_TIME_LIMIT
from domsim.rules import make_rules
from domsim.seat.alarm import MoveAlarm
from domsim.seat.command import bot_command
from domsim.seat.kill import child_pids
from domsim.seat.pool import BotPool
from domsim.seat.process import Confinement, keep_bots_on
from domsim.seat.protocol import ViewEncoder, game_message
from domsim.seat.tables import GAMES_AT_ONCE, play_at_once
from domsim.seeding import deal_rng
from domsim.spec import Spec
from domsim.view import ViewBuilder

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = f"exec:{sys.executable} {ROOT / 'strategies' / 'example_external.py'}"
GREEDY = str(ROOT / "strategies" / "example_greedy.py")
ISOLATED_EASY = "domsim.strategies.easy:Easy"  # a module spec: not kept in process as a level
ROUNDS = 4  # each way plays its games in this many turns, in turn with the others


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
    command = bot_command(Spec.of(spec), isolate=True)
    times = []
    with BotPool() as pool:
        bot, _ = pool.take(command)
        bot.ask(game_message(decisions[0][1].rules, 0, 1, None), 10, "ready")
        encoder = ViewEncoder()
        for request, (state, view) in enumerate(decisions, 1):
            message = state if bot.compact else encoder.encode(request, view)
            started = time.perf_counter()
            bot.ask(message, 10, "move", request)
            times.append(time.perf_counter() - started)
    return times


def decisions_made(rules, specs: list[str], seed: int) -> int:
    """How many decisions seat 0 (the bot) makes in the game of `seed`."""
    return play(rules, specs, seed, keep_hands=False).timing[0]["decisions"]


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def tree_cpu(roots: list[int]) -> float:
    """CPU seconds of the live processes `roots` and all their descendants, from /proc (a
    sandbox's processes are never reaped by domsim, so their time would not reach its
    children's)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total, frontier = 0, roots
    while frontier:
        for pid in frontier:
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
                total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
        frontier = [child for pid in frontier for child in child_pids(pid)]
    return total / ticks


class Way:
    """One way of playing the games, with its bots kept across rounds as a worker keeps them;
    `cpu` sums this process's CPU and the bots' (their start-up too) over its games."""

    def __init__(self, label: str, isolate: bool, confinement: Confinement,
                 at_once: int = GAMES_AT_ONCE) -> None:
        self.label, self.isolate, self.at_once = label, isolate, at_once
        self.bots = BotPool(confinement)
        self.cpu, self.games = 0.0, 0

    def play(self, rules, specs: list[str], seeds: range) -> None:
        """The games of `seeds`, several at once as a worker plays a batch's
        (domsim.seat.tables)."""
        before = own_cpu() + self.bots_cpu()
        with MoveAlarm(MOVE_TIME_LIMIT) as alarm:
            play_at_once([functools.partial(play, rules, specs, seed, isolate=self.isolate,
                                            keep_hands=False, bots=self.bots, alarm=alarm)
                          for seed in seeds], self.at_once)
        self.cpu += own_cpu() + self.bots_cpu() - before
        self.games += len(seeds)

    def bots_cpu(self) -> float:
        return tree_cpu(self.bots.pids())


def bare_round_trip(count: int = 20000) -> float:
    """CPU seconds, both sides, of one round trip of a short line between two processes on
    this CPU that do nothing else: the floor of a decision in its own process (two context
    switches and four system calls)."""
    requests, replies = os.pipe(), os.pipe()
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    child = os.fork()
    if child == 0:  # the echo
        for _ in range(count):
            os.write(replies[1], os.read(requests[0], 100))
        os._exit(0)
    before = own_cpu()
    for _ in range(count):
        os.write(requests[1], b"c 1 2 3\n")
        os.read(replies[0], 100)
    spent = own_cpu() - before
    os.waitpid(child, 0)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    for fd in (*requests, *replies):
        os.close(fd)
    echo = usage.ru_utime + usage.ru_stime - reaped.ru_utime - reaped.ru_stime
    return (spent + echo) / count


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
    ways = [Way("in process", False, Confinement()),
            Way("isolated, in the sandbox", True, Confinement()),
            Way("isolated, --no-sandbox", True, Confinement(sandboxed=False)),
            Way("in the sandbox, 1 at a time", True, Confinement(), at_once=1)]
    chunk = -(-args.games // ROUNDS)
    for start in range(0, args.games, chunk):  # interleaved: a drift of the machine hits all
        for way in ways:
            way.play(rules, specs, range(start, min(start + chunk, args.games)))
    base = ways[0].cpu / ways[0].games
    print(f"{args.variant}, {args.games} games of example_greedy vs easy, CPU per game "
          f"(bots' included; {ROUNDS} rounds, interleaved):")
    print(f"  {ways[0].label:<28} {base * 1e3:7.3f} ms")
    for way in ways[1:]:
        cost = way.cpu / way.games
        target = " (target <= 2x)" if way is ways[1] else ""
        print(f"  {way.label:<28} {cost * 1e3:7.3f} ms  {cost / base:.2f}x in process{target}")
        way.bots.close()
    decisions_per_game = sum(decisions_made(rules, specs, seed) for seed in range(200)) / 200
    print(f"  the overhead per decision of the bot ({decisions_per_game:.0f} a game): "
          f"{(ways[1].cpu / ways[1].games - base) / decisions_per_game * 1e6:.1f} us; a bare "
          f"pipe round trip between two processes on this CPU: {bare_round_trip() * 1e6:.1f} us")
    decisions = sample_decisions(rules, args.decisions)
    for name, spec in (("example_external.py (exec:, JSON)", EXAMPLE),
                       ("easy through domsim.seat.host (compact)", ISOLATED_EASY)):
        times = round_trips(spec, decisions)
        print(f"round trip per decision, {name}: median {statistics.median(times) * 1e6:.1f} us,"
              f" p99 {sorted(times)[int(len(times) * 0.99)] * 1e6:.1f} us")


if __name__ == "__main__":
    main()
