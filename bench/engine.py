"""Engine speed benchmark: random-play hands per second for every variant and player count.

A hand is timed whole: `start_next_hand` (the deal and the lead) and play to `hand_over`; a
finished match is replaced by a new `State`. Two paths are measured:

- raw: the generic engine loop, `step_forced` / `legal_moves` / `play` with `random.choice`;
- views: `domsim.game.play_hand` with the easy strategy, which builds a PlayerView per decision.

With the bench extra installed (`pip install -e '.[bench]'`) the peers of bench/peers.py run in
the same process and the ratios against the targets are printed.

Run from the repo root: `python bench/engine.py [--seconds S] [--variant NAME ...]`.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import peers  # bench/peers.py: the script's own directory is first on sys.path

from domsim.engine import State, start_next_hand
from domsim.game import play_hand
from domsim.rules import VARIANTS, Rules, make_rules
from domsim.seeding import seat_rng
from domsim.strategy import make_strategy
from domsim.view import ViewBuilder

HandLoop = Callable[[Rules, float, int], float]


def _timed_hands(rules: Rules, seconds: float, play: Callable[[State], None], rng) -> float:
    """Deal and play hands of `rules` for about `seconds`; return hands per second."""
    state = State(rules)
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if state.match_over:
            state = State(rules)
        start_next_hand(state, rng)
        play(state)
        hands += 1
        now = time.perf_counter()
        if now >= deadline:
            return hands / (now - start)


def raw_hands_per_second(rules: Rules, seconds: float, seed: int) -> float:
    """The generic engine loop, every choice uniformly random."""
    rng = random.Random(seed)
    choice = rng.choice

    def play(state: State) -> None:
        while not state.hand_over:
            if not state.step_forced():
                state.play(choice(state.legal_moves()))

    return _timed_hands(rules, seconds, play, rng)


def view_hands_per_second(rules: Rules, seconds: float, seed: int) -> float:
    """`play_hand` with one easy strategy per seat: a PlayerView per real decision."""
    strategies = [make_strategy("easy", seat_rng(seed, seat)) for seat in range(rules.players)]
    for seat, strategy in enumerate(strategies):
        strategy.start_game(seat, rules)
    views = ViewBuilder()

    def play(state: State) -> None:
        play_hand(state, strategies, views)

    return _timed_hands(rules, seconds, play, random.Random(seed))


PATHS: dict[str, HandLoop] = {"raw": raw_hands_per_second, "views": view_hands_per_second}


def measure_engine(variants: list[str], seconds: float, seed: int) -> dict[tuple, float]:
    """{(variant, players, path): hands/s} for every allowed player count of `variants`."""
    figures = {}
    for name in variants:
        for players in VARIANTS[name].player_counts:
            rules = make_rules(name, players)
            for path, loop in PATHS.items():
                figures[name, players, path] = loop(rules, seconds, seed)
    return figures


def measure_peers(seconds: float, seed: int) -> dict[str, float | None]:
    """Hands/s of each peer, None for a peer that is not installed."""
    runs = {
        "openspiel block": lambda: peers.openspiel_block_hands_per_second(seconds, seed),
        "openspiel team": lambda: peers.openspiel_team_hands_per_second(seconds, seed),
        "dominoes 4p": lambda: peers.dominoes_hands_per_second(4, seconds, seed),
    }
    figures: dict[str, float | None] = {}
    for name, run in runs.items():
        try:
            figures[name] = run()
        except ImportError as err:
            print(f"peer {name} skipped: {err}")
            figures[name] = None
    return figures


#: (label, our figure's key, peer, target ratio or None when there is no target)
RATIOS = (
    ("raw block-2p / openspiel block", ("block", 2, "raw"), "openspiel block", 20.0),
    ("views block-2p / openspiel block", ("block", 2, "views"), "openspiel block", 5.0),
    ("raw block-4p / dominoes 4p", ("block", 4, "raw"), "dominoes 4p", 5.0),
    ("raw partnership / dominoes 4p", ("partnership", 4, "raw"), "dominoes 4p", 5.0),
    ("raw partnership / openspiel team", ("partnership", 4, "raw"), "openspiel team", None),
    ("views partnership / openspiel team", ("partnership", 4, "views"), "openspiel team", None),
)


def print_engine_table(figures: dict[tuple, float]) -> None:
    print(f"{'variant':<17}{'players':>8}{'raw hands/s':>14}{'views hands/s':>15}")
    for name, players, path in figures:
        if path == "raw":
            raw, views = figures[name, players, "raw"], figures[name, players, "views"]
            print(f"{name:<17}{players:>8}{raw:>14,.0f}{views:>15,.0f}")


def print_ratio_table(figures: dict[tuple, float], peer_figures: dict[str, float | None]) -> None:
    print()
    for name, rate in peer_figures.items():
        print(f"peer {name:<28}" + ("not installed" if rate is None else f"{rate:>10,.0f} hands/s"))
    print()
    print(f"{'ratio':<38}{'ratio':>8}{'target':>8}  verdict")
    for label, key, peer, target in RATIOS:
        ours, theirs = figures.get(key), peer_figures.get(peer)
        if ours is None or theirs is None:
            continue
        ratio = ours / theirs
        verdict = "-" if target is None else ("met" if ratio >= target else "MISSED")
        target_text = "-" if target is None else f">={target:g}x"
        print(f"{label:<38}{ratio:>7.1f}x{target_text:>8}  {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.5,
                        help="seconds per variant, player count and path (default 1.5)")
    parser.add_argument("--peer-seconds", type=float, default=3.0,
                        help="seconds per peer (default 3)")
    parser.add_argument("--variant", action="append", choices=list(VARIANTS),
                        help="only this variant (repeatable); default all")
    parser.add_argument("--no-peers", action="store_true", help="skip the peer libraries")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    figures = measure_engine(args.variant or list(VARIANTS), args.seconds, args.seed)
    print_engine_table(figures)
    if not args.no_peers:
        print_ratio_table(figures, measure_peers(args.peer_seconds, args.seed))


if __name__ == "__main__":
    main()
