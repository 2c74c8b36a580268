"""dial: one continuous strength between easy and insane, for a designer to turn.

At each decision it plays insane's move with probability `strength`, else easy's (a uniformly
random legal move): `dial?strength=0` is easy, `dial?strength=1` is insane, and every setting in
between mixes the two move by move. A mixture of the weakest and the strongest level needs no
per-move values from the search, it is cheap where it is weak (the search runs only on the
decisions it plays), and it is monotonic by construction: raising the strength only turns random
moves into insane's. `samples` passes on to insane (0: insane's default), and so does a game
clock (insane spends a share of it). Deterministic for a game seed without a clock, like every
level."""

from __future__ import annotations

from domsim.strategies.insane import Insane

from domsim.strategy import Strategy
from domsim.view import Move, PlayerView


class Dial(Strategy):
    description = "insane's move with probability `strength`, else a random one (easy)"

    def __init__(self, *, strength: float = 0.5, samples: int = 0) -> None:
        if not 0.0 <= strength <= 1.0:
            raise ValueError(f"strength must be between 0 and 1, got {strength:g}")
        self.strength = strength
        self.insane = Insane(samples=samples)

    def choose(self, view: PlayerView) -> Move:
        if self.rng.random() < self.strength:
            self.insane.rng, self.insane.clock = self.rng, self.clock
            return self.insane.choose(view)
        return self.rng.choice(view.legal_moves)
