"""Search building blocks from the core (domsim._core), for insane and for bot authors.

From a `PlayerView` (R-VIEW: nothing but what the seat knows):

- `Belief(view, seed)`: what each other seat cannot hold (from passes and draws, R-MUST, and
  the first hand's named lead, R-LEAD), `count()` of the consistent deals and `sample()` of one,
  every consistent deal equally likely.
- `sample_deals(view, count, seed, beta=0.0)`: `count` deals as `State`s at the view's position
  with every hidden hand filled in, each with its weight under a play model preferring heavy
  tiles (`beta` 0: weight 1; `play_likelihood` gives one deal's).
- `move_features(view)`: the learned play model's features of each legal move (domsim.playmodel,
  issue 39), from the view only; `model_likelihood(view, hands, model)` how likely the other
  seats' plays were on a deal under each seat's mixture of that model, the heavy-tile one and the
  uniform one.
- `play_out(state, seat, seed, random_share=0.1, block=4.0, follow=2.0)`: play a copy of a deal
  to the end of the hand with insane's playout policy and return the hand's value for `seat`.
  Any Python policy works too: `state.copy().play_out(choose)`, then `hand_value`.
- `solve(state, seat)`: the exact value for `seat`'s side when every seat sees every hand
  (alpha-beta with a transposition table); for two sides, no spinner, nothing left to draw
  (`solvable(state, max_tiles)` tells).
- `hand_value(state, seat)`: a finished hand's value in the variant's currency: the side's
  points minus the others' mean (kozel reversed), classic's win share plus `CLASSIC_PIP` a pip,
  and `MATCH_SHARE` of the target more or less when the hand decides the match.

`insane_move` is insane's whole decision (strategies/insane.py: its parameters, and `floor`,
`loss` and `drop`, the sequential stop: after `floor` deals, a move whose regret (how much it may
still beat the best by) is below `drop` is no longer played out, and the decision stops once the
expected loss of choosing the best move so far is below `loss`, with `against_cap` both against
the choice the cap would make; their defaults stop only when one move is left; `merge_mirrors`
values a tile once when it fits two open ends that are mirror images; `keyed_stream` works a
playout's random numbers out from one key a deal as they are needed instead of drawing 64 for
every deal);
`perfect_information_move` the same search on a fully known State (a reference that sees every
hand). The searches release
the GIL; seeds are ints (take one from a strategy's generator: `self.rng.getrandbits(64)`), so
a search is reproducible from the game seed. See strategies/example_pimc.py for a bot built on
these."""

from ._core import (
    CLASSIC_PIP,
    MATCH_SHARE,
    Belief,
    hand_value,
    insane_move,
    model_likelihood,
    move_features,
    perfect_information_move,
    play_likelihood,
    play_out,
    sample_deals,
    solvable,
    solve,
)

__all__ = ["CLASSIC_PIP", "MATCH_SHARE", "Belief", "hand_value", "insane_move",
           "model_likelihood", "move_features", "perfect_information_move", "play_likelihood",
           "play_out", "sample_deals", "solvable", "solve"]
