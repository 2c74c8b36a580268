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
weighting lowered the win rate against hard by about 3 points). With a game clock
(`--time-control`) it spends a share of what is left on each decision. Deterministic for a game
seed and fixed parameters without a budget or a clock."""

from __future__ import annotations

from domsim.clock import budget_seconds
from domsim.rules import Rules
from domsim.search import insane_move
from domsim.strategy import Strategy
from domsim.view import Move, PlayerView, move_value

#: Deals per decision by default, by player count, and what domsim 0.1 used (the baseline that
#: bench/strength.py --baseline plays: `insane?samples=96`, 128 in fives, 224 with 3-4 players).
#: On the core, 512 deals beat 96 by +0.49 pips a hand in block [+0.32, +0.66] over 1,000 paired
#: games (median decision 0.4 ms), and 2,048 beat 224 in kozel and partnership (see the README).
DEFAULT_SAMPLES = {2: 512, 3: 2048, 4: 2048}


#: The least budget a clocked decision gets (0 would mean no budget at all).
MIN_BUDGET_MS = 0.01


def default_samples(rules: Rules) -> int:
    """Deals per decision by default (`DEFAULT_SAMPLES`)."""
    return DEFAULT_SAMPLES[rules.players]


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
        return move_value(insane_move(view, seed, samples=samples, beta=beta,
                                      **self.options_now()))

    def options_now(self) -> dict:
        """The search's options for this decision: with a game clock, the time budget is a share
        of what is left on it (domsim.clock.budget_seconds; the smaller of the two if
        `budget_ms` is set too), so the choice then depends on the machine's speed."""
        if self.clock is None:
            return self.options
        budget = max(budget_seconds(self.clock) * 1000, MIN_BUDGET_MS)
        own = self.options["budget_ms"]
        return {**self.options, "budget_ms": min(own, budget) if own else budget}
