"""The strategy contract and how a strategy is named.

A strategy is a class with `choose(view) -> Move`. domsim builds one instance per seat per game,
sets `self.rng` (a `random.Random` derived from the game seed and the seat) before the game, and
calls the optional hooks `start_game(seat, rules)` and `end_game(view_of_final_scores)`. It is
consulted only when it has a real choice to make: draws, passes and single legal plays are made
for it."""

from __future__ import annotations

import importlib
import random

from .rules import Rules
from .view import Move, PlayerView


class StrategyError(ValueError):
    """A strategy spec that cannot be resolved; the message is one line."""


class Strategy:
    """Base class for strategies. Subclasses override `choose`; `description` is one line."""

    description = ""
    rng: random.Random

    def start_game(self, seat: int, rules: Rules) -> None:
        """Called once before the first hand of each game."""

    def choose(self, view: PlayerView) -> Move:
        raise NotImplementedError

    def end_game(self, scores: tuple[int, ...], winners: tuple[int, ...]) -> None:
        """Called once when the game is over."""


BUILTIN = {
    "easy": "domsim.strategies.easy:Easy",
}


def load_strategy_class(spec: str) -> type[Strategy]:
    """Resolve a spec to a strategy class: a built-in level or `package.module:ClassName`."""
    target = BUILTIN.get(spec, spec)
    module_name, sep, class_name = target.partition(":")
    if not sep:
        raise StrategyError(
            f"unknown strategy {spec!r}: use {', '.join(BUILTIN)} or package.module:ClassName"
        )
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise StrategyError(f"cannot load strategy {spec!r}: {exc}") from None
    return cls


def make_strategy(spec: str, rng: random.Random) -> Strategy:
    strategy = load_strategy_class(spec)()
    strategy.rng = rng
    return strategy
