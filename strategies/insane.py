"""insane (R-LEVEL): remembers every tile played, every draw and pass, infers what each player
cannot hold, samples deals consistent with all of it uniformly, and plays every legal move out to
the end of the hand on each before choosing (the search runs in the core: domsim.search).

A `preset` names a whole search (`PRESETS`): `history`, the default, lean reading the other
seats' plays through issue 51's learned play model (domsim/play_model_history.json: the seats'
history too, and hidden units; issue 39's model in the variants it does not cover) and, in
partnership and kozel, playing the other seats' first move of each playout as that model says they
play; `model`, lean reading them through issue 39's model (commit 455ac6a's insane, whose games
`insane?preset=model` replays move for move); `lean` (commit 60428d1's insane, whose games
`insane?preset=lean` replays move for move), and `v0.2`, insane as it was before it learnt to stop
early (commit 541f5f4; `insane?preset=v0.2` replays its games move for move). Any parameter given
explicitly overrides the preset's:

`samples` (deals per decision, the most; 0: the preset's, by player count), `floor` (deals drawn
before the decision may stop on its loss or budget, 0: the preset's; a move clearly beaten drops out
from 8 deals on, or the floor if lower), `loss` (the decision stops once the expected loss of
choosing the best move so far, under a normal law of its paired differences with the others, is
below this, in the variant's currency: pips, classic's win share; negative: the preset's, by
variant), `against_cap` (1: that loss is against the choice the cap of deals would make, whose
paired differences spread around today's by their standard error times the square root of the share
of the cap still to draw, rather than against infinitely many deals; 0: not; negative: the
preset's), `drop` (past the floor, a move whose regret, how much it is expected to beat the best by
under the same normal law, is below this is no longer played out, in the variant's currency; 0: only
moves clearly beaten drop out; negative: the preset's, by variant), `merge_mirrors` (1: a tile that
fits both of two open ends showing the same number and counting alike is valued on one of them only,
as the other leaves the mirror image, which the rules treat alike but insane's playouts do not
quite; 0: not; negative: the preset's), `keyed_stream` (1: a playout's random numbers are
worked out from one key a deal when it needs them, rather than 64 drawn for every deal, of which
most go unused: the same law, other numbers; 0: not, as v0.2; negative: the preset's),
`budget_ms` (a time budget per decision, 0: none; with one
the choice depends on the machine's speed), `exact_tiles` (tiles in hands from which the exact
solver takes over; negative: the preset's, by variant), `random_share` (how often a playout makes a
random move instead of its policy's), `block` and `follow` (the pips a playout adds to a tile that
leaves the next seat nothing to play, or the mover a tile for the ends; see the core's playout
policy) and `beta` (how strongly a deal is weighted by the other seats' plays preferring heavy
tiles, 0: no weighting; negative, the default: 0.4, but 0 in classic, where the weighting lowered
the win rate against hard by about 3 points), `model` (1: weight each deal instead by how likely
the other seats' plays were under a mixture, per seat, of the learned play model shipped in
domsim/play_model.json (domsim.playmodel, fitted per variant and role on insane's own games),
the heavy-tile model (`beta`) and the uniform one, so that a seat the learned model predicts badly
is read by the others; 0: not; negative: the preset's, on in `model`) and `model_share` (the
learned model's prior share of that mixture, the rest split evenly) and `model_scale` (its weights
times this: above 1 a sharper filter of the deals, below 1 a softer one) and `resample` (deals
drawn for each one searched, picked among them by weight and weighted by their mean, so that the
playouts go where the weighting puts its weight; 0: the preset's, 1: each deal drawn is
searched) and `model_moves` (with the learned model on, the other seats' first this many moves of
each playout are drawn from it, so that a playout plays the table as the model says it plays; 0:
the playout policy plays every seat; negative: the preset's). With a game clock
(`--time-control`) it spends a share of what is left on each decision. Deterministic for a game
seed and fixed parameters without a budget or a clock."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from domsim.clock import budget_seconds
from domsim.playmodel import model_weights
from domsim.search import insane_move
from domsim.strategy import Strategy
from domsim.view import Move, PlayerView, move_value


@dataclass(frozen=True)
class Tuning:
    """How a variant's decisions are searched under the cap of deals: the sequential stop
    (`floor`, `loss`, `against_cap`), the regret below which a move drops out (`drop`), whether
    mirror-image moves are valued once (`merge_mirrors`) and the tiles in hands from which the
    exact solver takes over (`exact_tiles`), and the other seats' moves of each playout drawn
    from the learned model (`model_moves`); the defaults are domsim 0.2's."""

    floor: int = 8
    loss: float = 0.0
    against_cap: bool = False
    drop: float = 0.0
    merge_mirrors: bool = False
    exact_tiles: int = 7
    model_moves: int = 0


@dataclass(frozen=True)
class Preset:
    """A whole search: deals per decision at most by player count, its tuning by variant
    (domsim 0.2's where none is given) and whether its playouts' random numbers are keyed."""

    samples: dict[int, int]
    tunings: dict[str, Tuning] = field(default_factory=dict)
    keyed_stream: bool = False
    model: bool = False
    model_file: str = "play_model"
    resample: int = 1

    def tuning(self, variant: str) -> Tuning:
        return self.tunings.get(variant, Tuning())


#: lean's tuning by variant (see docs/INSANE.md for how each was measured). Mirror
#: images are merged only in block and classic: elsewhere insane's playouts break ties on the
#: first end, so the two images play out differently and merging measurably lost.
LEAN = {
    "block": Tuning(floor=32, loss=0.05, drop=0.03, merge_mirrors=True, exact_tiles=6),
    "draw": Tuning(floor=32, loss=0.005, against_cap=True, drop=0.002),
    "fives": Tuning(floor=64, loss=0.02, against_cap=True, drop=0.002),
    "allfives": Tuning(floor=32, against_cap=True, drop=0.007),
    "classic": Tuning(floor=32, loss=0.004, merge_mirrors=True),
    "kozel": Tuning(floor=128, loss=0.01, against_cap=True, drop=0.002),
    "partnership": Tuning(floor=128, against_cap=True, drop=0.001),
    "partnership-1v1": Tuning(floor=32, against_cap=True, drop=0.005),
}
#: history's: lean's, and in partnership and kozel, where issue 51's model reads the table, each
#: playout's first move of the other seats drawn from it (docs/INSANE.md).
HISTORY = {**LEAN, **{variant: replace(LEAN[variant], model_moves=1)
                      for variant in ("partnership", "kozel")}}
#: `v0.2`: 512 deals a decision with 2 players, 2,048 with 3-4, stopping only when one move beats
#: every other at 3 standard errors (on the core, 512 deals beat domsim 0.1's 96 by +0.49 pips a
#: hand in block [+0.32, +0.66] over 1,000 paired games, and 2,048 beat 224 in kozel and
#: partnership).
SAMPLES = {2: 512, 3: 2048, 4: 2048}
PRESETS = {"v0.2": Preset(samples=SAMPLES),
           "lean": Preset(samples=SAMPLES, tunings=LEAN, keyed_stream=True),
           "model": Preset(samples=SAMPLES, tunings=LEAN, keyed_stream=True, model=True),
           "history": Preset(samples=SAMPLES, tunings=HISTORY, keyed_stream=True, model=True,
                             model_file="play_model_history")}
#: The learned model's prior share in each seat's mixture (the rest split evenly between the
#: heavy-tile and uniform models).
MODEL_SHARE = 0.6
DEFAULT_PRESET = "history"

#: The least budget a clocked decision gets (0 would mean no budget at all).
MIN_BUDGET_MS = 0.01


class Insane(Strategy):
    description = "samples consistent deals and plays every move out (exact solver late)"

    def __init__(self, *, preset: str = DEFAULT_PRESET, samples: int = 0, floor: int = 0,
                 loss: float = -1.0, budget_ms: float = 0.0, exact_tiles: int = -1,
                 random_share: float = 0.1, block: float = 4.0, follow: float = 2.0,
                 beta: float = -1.0, against_cap: int = -1, drop: float = -1.0,
                 merge_mirrors: int = -1, keyed_stream: int = -1, model: int = -1,
                 model_share: float = MODEL_SHARE, model_scale: float = 1.0,
                 resample: int = 0, model_moves: int = -1) -> None:
        if preset not in PRESETS:
            raise ValueError(f"insane has no preset {preset!r}: use one of {', '.join(PRESETS)}")
        self.preset = PRESETS[preset]
        self.samples = samples
        self.floor = floor
        self.loss = loss
        self.exact_tiles = exact_tiles
        self.options = dict(budget_ms=budget_ms, random_share=random_share, block=block,
                            follow=follow)
        self.beta = beta
        self.against_cap = against_cap
        self.drop = drop
        self.merge_mirrors = merge_mirrors
        self.keyed_stream = keyed_stream
        self.model = model
        if not 0 <= model_share <= 1:
            raise ValueError(f"insane's model_share is a share, 0..1, not {model_share}")
        rest = (1 - model_share) / 2
        self.prior = (model_share, rest, rest)
        self.model_scale = model_scale
        self.resample = resample
        self.model_moves = model_moves

    def choose(self, view: PlayerView) -> Move:
        seed = self.rng.getrandbits(64)
        return move_value(insane_move(view, seed, **self.search_options(view)))

    def search_options(self, view: PlayerView) -> dict:
        """insane_move's options for this view: the preset's where no parameter overrides."""
        samples = self.samples or self.preset.samples[view.rules.players]
        beta = self.beta
        if beta < 0:
            beta = 0.0 if view.rules.variant.scoring == "classic" else 0.4
        tuning = self.preset.tuning(view.rules.variant.name)
        floor = self.floor or tuning.floor
        loss = self.loss if self.loss >= 0 else tuning.loss
        against_cap = tuning.against_cap if self.against_cap < 0 else bool(self.against_cap)
        drop = self.drop if self.drop >= 0 else tuning.drop
        merge = tuning.merge_mirrors if self.merge_mirrors < 0 else bool(self.merge_mirrors)
        exact = self.exact_tiles if self.exact_tiles >= 0 else tuning.exact_tiles
        keyed = self.preset.keyed_stream if self.keyed_stream < 0 else bool(self.keyed_stream)
        learned = self.preset.model if self.model < 0 else bool(self.model)
        variant = view.rules.variant.name
        weights = (model_weights(variant, self.preset.model_file, self.model_scale)
                   or model_weights(variant, scale=self.model_scale)) if learned else None
        model = {} if weights is None else dict(model=weights, prior=self.prior)
        resample = self.resample or self.preset.resample
        moves = self.model_moves if self.model_moves >= 0 else tuning.model_moves
        return dict(samples=samples, beta=beta, floor=floor, loss=loss, against_cap=against_cap,
                    drop=drop, merge_mirrors=merge, exact_tiles=exact, keyed_stream=keyed,
                    resample=resample, model_moves=moves, **model, **self.options_now())

    def options_now(self) -> dict:
        """The search's options for this decision: with a game clock, the time budget is a share
        of what is left on it (domsim.clock.budget_seconds; the smaller of the two if
        `budget_ms` is set too), so the choice then depends on the machine's speed."""
        if self.clock is None:
            return self.options
        budget = max(budget_seconds(self.clock) * 1000, MIN_BUDGET_MS)
        own = self.options["budget_ms"]
        return {**self.options, "budget_ms": min(own, budget) if own else budget}
