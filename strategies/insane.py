"""insane (R-LEVEL): remembers every tile played, every draw and pass, infers what each player
cannot hold, samples deals consistent with all of it uniformly, and plays every legal move out to
the end of the hand on each before choosing (the search runs in the core: domsim.search).

Strength is set by `samples` (deals per decision, the most; 0: `default_samples`), `budget_ms` (a
time budget per decision, 0: none; with one the choice depends on the machine's speed),
`exact_tiles` (tiles in hands from which the exact solver takes over), `random_share` (how often a
playout makes a random move instead of its policy's), `block` and `follow` (the pips a playout adds
to a tile that leaves the next seat nothing to play, or the mover a tile for the ends; see
the core's playout policy) and `beta` (how strongly a deal is weighted by the other seats' plays
preferring heavy tiles, 0: no weighting; negative, the default: 0.4, but 0 in classic, where the
weighting lowered the win rate against hard by about 3 points). Deterministic for a game seed and
fixed parameters without a budget."""

from __future__ import annotations

from domsim.rules import Rules
from domsim.search import insane_move
from domsim.strategy import Strategy
from domsim.view import Move, PlayerView, move_value


def default_samples(rules: Rules) -> int:
    """Deals per decision by default: 96 with 2 players (128 in fives, where more deals
    raised the margin over hard by 1.27 pips a hand on 1,000 games), 224 with more; the median
    decision then took 9-20 ms and 30-35 ms on this shared 2-core machine."""
    if rules.players > 2:
        return 224
    return 128 if rules.variant.scoring == "fives" and not rules.variant.spinner else 96


class Insane(Strategy):
    description = "samples consistent deals and plays every move out (exact solver late)"

    def __init__(self, *, samples: int = 0, budget_ms: float = 0.0, exact_tiles: int = 7,
                 random_share: float = 0.1, block: float = 4.0, follow: float = 2.0,
                 beta: float = -1.0) -> None:
        self.samples = samples
        self.options = dict(budget_ms=budget_ms, exact_tiles=exact_tiles,
                            random_share=random_share, block=block, follow=follow)
        self.beta = beta

    def choose(self, view: PlayerView) -> Move:
        samples = self.samples or default_samples(view.rules)
        beta = self.beta
        if beta < 0:
            beta = 0.0 if view.rules.variant.scoring == "classic" else 0.4
        seed = self.rng.getrandbits(64)
        return move_value(insane_move(view, seed, samples=samples, beta=beta, **self.options))
