"""Engine speed benchmark: random-play hands per second for every variant and player count.

A hand is timed whole: `start_next_hand` (the deal and the lead) and play to `hand_over`; a
finished match is replaced by a new `State`. Three paths are measured:

- raw: the generic engine loop in Python, `step_forced` / `legal_moves` / `play` on the core's
  State, picking uniformly;
- views: `domsim.game.play_hand` with the easy strategy, which builds a PlayerView per decision;
- native: the core's own loop, `domsim._core.random_play` (uniform picks from its generator):
  the engine's speed with no Python in the loop, against the peers' engines driven from Python,
  which is the only way they run.

The random players of the raw path and of every peer pick a move the same way,
`moves[int(random() * len(moves))]` (`peers.pick`), which costs less than `random.choice`; the
peers using it too keeps the comparison fair. (The views path's easy strategy picks its own way.)

With the bench extra installed (`pip install -e '.[bench]'`) the peers of bench/peers.py run in
the same process and the ratios against the targets are printed. Every figure, ours and the
peers', is the best of `--repeats` runs made in interleaved rounds, and counts hands per second
of this process's CPU time (`--clock wall`: elapsed time), to keep ratios sound on a busy machine.

Run from the repo root: `python bench/engine.py [--seconds S] [--variant NAME ...]`.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from functools import partial

import peers  # bench/peers.py: the script's own directory is first on sys.path

from domsim._core import random_play
from domsim.engine import State, start_next_hand
from domsim.game import play_hand
from domsim.rules import VARIANTS, Rules, make_rules
from domsim.seeding import seat_rng
from domsim.strategy import load_strategy
from domsim.view import ViewBuilder

Clock = Callable[[], float]
HandLoop = Callable[[Rules, float, int, Clock], float]
CLOCKS: dict[str, Clock] = {"cpu": time.process_time, "wall": time.perf_counter}


def _timed_hands(rules: Rules, seconds: float, play: Callable[[State], None], rng,
                 clock: Clock) -> float:
    """Deal and play hands of `rules` for about `seconds` of `clock`; return hands per second."""
    state = State(rules)
    hands = 0
    start = clock()
    deadline = start + seconds
    while True:
        if state.match_over:
            state = State(rules)
        start_next_hand(state, rng)
        play(state)
        hands += 1
        if hands % 8 == 0:  # the CPU clock costs a system call: read it every few hands
            now = clock()
            if now >= deadline:
                return hands / (now - start)


def raw_hands_per_second(rules: Rules, seconds: float, seed: int, clock: Clock) -> float:
    """The generic engine loop, every choice uniformly random."""
    rng = random.Random(seed)
    random_ = rng.random

    def play(state: State) -> None:
        while not state.hand_over:
            if not state.step_forced():
                moves = state.legal_moves()
                state.play(moves[int(random_() * len(moves))])  # peers.pick, inlined

    return _timed_hands(rules, seconds, play, rng, clock)


def native_hands_per_second(rules: Rules, seconds: float, seed: int, clock: Clock) -> float:
    """The core's own loop (`domsim._core.random_play`): deal and play uniformly at random with
    no Python in the loop, in chunks until `seconds` of `clock` have passed."""
    chunk, hands = 2000, 0
    start = clock()
    while clock() - start < seconds:
        random_play(rules, chunk, seed + hands)
        hands += chunk
    return hands / (clock() - start)


def view_hands_per_second(rules: Rules, seconds: float, seed: int, clock: Clock) -> float:
    """`play_hand` with one easy strategy per seat: a PlayerView per real decision."""
    strategies = [load_strategy("easy")(seat_rng(seed, seat)) for seat in range(rules.players)]
    for seat, strategy in enumerate(strategies):
        strategy.start_game(seat, rules)
    views = ViewBuilder()

    def play(state: State) -> None:
        play_hand(state, strategies, views)

    return _timed_hands(rules, seconds, play, random.Random(seed), clock)


PATHS: dict[str, HandLoop] = {
    "raw": raw_hands_per_second,
    "views": view_hands_per_second,
    "native": native_hands_per_second,
}


Run = Callable[[float, int], float]  # (seconds, seed) -> hands/s


def engine_runs(variants: list[str], clock: Clock) -> dict[tuple, Run]:
    """{(variant, players, path): run} for every allowed player count of `variants`."""
    return {
        (name, players, path): partial(loop, make_rules(name, players), clock=clock)
        for name in variants for players in VARIANTS[name].player_counts
        for path, loop in PATHS.items()
    }


def _on_clock(run: Run, clock: Clock) -> Run:
    """A peer's measure, which times elapsed seconds, converted to hands per `clock` second."""
    def measure(seconds: float, seed: int) -> float:
        wall, ours = time.perf_counter(), clock()
        rate = run(seconds, seed)
        return rate * (time.perf_counter() - wall) / (clock() - ours)
    return measure


def peer_runs(clock: Clock) -> dict[str, Run]:
    """{peer: run} for the installed peers; says which are missing."""
    runs = (
        ("openspiel block", "open_spiel", peers.openspiel_block_hands_per_second),
        ("openspiel team", "open_spiel", peers.openspiel_team_hands_per_second),
        ("dominoes 4p", "dominoes",
         lambda seconds, seed: peers.dominoes_hands_per_second(4, seconds, seed)),
    )
    installed = peers.available()  # imports the peers now, not inside a timed run
    for name, package, _ in runs:
        if installed[package] is None:
            print(f"peer {name} skipped: {package} is not installed; run: "
                  "pip install -e '.[bench]'")
    return {name: _on_clock(run, clock) for name, package, run in runs if installed[package]}


def measure(runs: dict, seconds: dict, repeats: int) -> dict[object, float]:
    """The best hands/s of each run over `repeats` rounds, the runs of `key` sharing
    `seconds[key]`. Every round runs every contender once, so ours and the peers' runs are spread
    alike over the whole benchmark and meet the same load on a busy machine."""
    best: dict = {}
    for round_ in range(repeats):
        print(f"round {round_ + 1} of {repeats}", file=sys.stderr)
        for key, run in runs.items():
            best[key] = max(best.get(key, 0.0), run(seconds[key] / repeats, round_))
    return best


#: (label, our figure's key, peer, target ratio or None when there is no target)
RATIOS = (
    ("native block-2p / openspiel block", ("block", 2, "native"), "openspiel block", 150.0),
    ("native block-4p / dominoes 4p", ("block", 4, "native"), "dominoes 4p", 40.0),
    ("native partnership / dominoes 4p", ("partnership", 4, "native"), "dominoes 4p", None),
    ("raw block-2p / openspiel block", ("block", 2, "raw"), "openspiel block", None),
    ("raw block-4p / dominoes 4p", ("block", 4, "raw"), "dominoes 4p", None),
    # 2.5x the 11.4x of the pure-Python engine, measured against the same peer on this machine.
    ("views block-2p / openspiel block", ("block", 2, "views"), "openspiel block", 28.5),
    ("views partnership / openspiel team", ("partnership", 4, "views"), "openspiel team", None),
)


def print_engine_table(figures: dict[tuple, float]) -> None:
    print("random-play hands/s (deal included)")
    print(f"{'variant':<17}{'players':>8}" + "".join(f"{path:>12}" for path in PATHS))
    for name, players, path in figures:
        if path == "raw":
            rates = "".join(f"{figures[name, players, p]:>12,.0f}" for p in PATHS)
            print(f"{name:<17}{players:>8}{rates}")


def print_ratio_table(figures: dict[tuple, float], peer_figures: dict[str, float]) -> None:
    print()
    for name, rate in peer_figures.items():
        print(f"peer {name:<28}{rate:>10,.0f} hands/s")
    print()
    print(f"{'ratio':<48}{'ratio':>8}{'target':>8}  verdict")
    for label, key, peer, target in RATIOS:
        ours, theirs = figures.get(key), peer_figures.get(peer)
        if ours is None or theirs is None:
            continue
        ratio = ours / theirs
        verdict = "-" if target is None else ("met" if ratio >= target else "MISSED")
        target_text = "-" if target is None else f">={target:g}x"
        print(f"{label:<48}{ratio:>7.1f}x{target_text:>8}  {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="seconds per variant, player count and path (default 1)")
    parser.add_argument("--peer-seconds", type=float, default=3.0,
                        help="seconds per peer (default 3)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="rounds of runs; each figure is its best run (default 5)")
    parser.add_argument("--variant", action="append", choices=list(VARIANTS),
                        help="only this variant (repeatable); default all")
    parser.add_argument("--no-peers", action="store_true", help="skip the peer libraries")
    parser.add_argument("--clock", choices=list(CLOCKS), default="cpu",
                        help="cpu: per second of this process's CPU time (default); "
                             "wall: per elapsed second")
    args = parser.parse_args()

    clock = CLOCKS[args.clock]
    print(f"clock: {args.clock}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    ours = engine_runs(args.variant or list(VARIANTS), clock)
    theirs = {} if args.no_peers else peer_runs(clock)
    seconds = {**dict.fromkeys(ours, args.seconds), **dict.fromkeys(theirs, args.peer_seconds)}
    figures = measure({**ours, **theirs}, seconds, args.repeats)
    print_engine_table({key: figures[key] for key in ours})
    if theirs:
        print_ratio_table(figures, {name: figures[name] for name in theirs})

if __name__ == "__main__":
    main()
