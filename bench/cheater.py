"""Reference bots for bench/strength.py, never offered as strategies: a cheater that sees every
hand (the ceiling insane is measured against), and insane with its decision times recorded.

The cheater reads the referee's State through a hook: `install()` makes domsim.game build views
with `PeekingViews`, which remembers the state it last built a view from."""

from __future__ import annotations

import time

from domsim.strategies.insane import Insane

import domsim.game
from domsim.search import insane_move, perfect_information_move
from domsim.strategy import Strategy
from domsim.view import Move, PlayerView, ViewBuilder, move_value

_seen = {}
#: CPU seconds per decision of every TimedInsane (and TimedRival) in this process, drained by the
#: benchmark.
DECISION_TIMES: list[float] = []
RIVAL_TIMES: list[float] = []


class PeekingViews(ViewBuilder):
    def view(self, state, moves):
        _seen["state"] = state
        return super().view(state, moves)


def install() -> None:
    domsim.game.ViewBuilder = PeekingViews


class Cheater(Strategy):
    """insane's search, with insane's playouts, on the true hands. The boneyard's tiles are known
    (they are the ones in no hand and not on the line) but not their order, which nobody sees:
    each sample shuffles it. With one deal to search, fewer samples and a deeper exact solver
    than insane's serve it best."""

    def __init__(self, *, samples: int = 24, exact_tiles: int = 10, random_share: float = 0.25,
                 block: float = 4.0, follow: float = 2.0) -> None:
        self.options = dict(samples=samples, exact_tiles=exact_tiles, random_share=random_share,
                            block=block, follow=follow)

    def choose(self, view: PlayerView) -> Move:
        state = _seen["state"]
        assert state.to_move == view.seat, "install() the view hook before playing"
        seed = self.rng.getrandbits(64)
        return move_value(perfect_information_move(state, seed, **self.options))


class TimedInsane(Insane):
    """insane, recording each decision's CPU time (the search runs on the calling thread), every
    search seed XORed with `salt` (0 here: insane's own seeds)."""

    times = DECISION_TIMES
    salt = 0

    def choose(self, view: PlayerView) -> Move:
        started = time.thread_time()
        seed = self.rng.getrandbits(64) ^ self.salt
        move = move_value(insane_move(view, seed, **self.search_options(view)))
        self.times.append(time.thread_time() - started)
        return move


class TimedRival(TimedInsane):
    """The same, recording into RIVAL_TIMES: the other side of a duel of two insane specs."""

    times = RIVAL_TIMES


class ReseededRival(TimedRival):
    """The other side searching other deals than its seeds give: a duel of a spec against itself
    (an A/A duel) then shows how far the margin of two equally strong sides strays by chance."""

    salt = 0x5EED_5A17
