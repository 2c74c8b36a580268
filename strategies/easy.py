"""easy (R-LEVEL): plays any tile that fits, uniformly at random from the legal moves."""

from domsim.strategy import Strategy
from domsim.view import Move, PlayerView


class Easy(Strategy):
    description = "uniform random legal move"

    def choose(self, view: PlayerView) -> Move:
        return self.rng.choice(view.legal_moves)
