"""Reference bots for bench/strength.py, never offered as strategies: a cheater that sees every
hand and the boneyard (the ceiling insane is measured against), and insane with its decision
times recorded.

The cheater reads the referee's State through a hook: `install()` makes domsim.game build views
with `PeekingViews`, which remembers the state it last built a view from."""

from __future__ import annotations

import time

from domsim.strategies.insane import Insane

import domsim.game
from domsim.search import Judge, Search
from domsim.strategy import Strategy
from domsim.view import Move, PlayerView, ViewBuilder, move_int, move_value

_seen = {}
#: Seconds per decision of every TimedInsane in this process, drained by the benchmark.
DECISION_TIMES: list[float] = []


class PeekingViews(ViewBuilder):
    def view(self, state, moves):
        _seen["state"] = state
        return super().view(state, moves)


def install() -> None:
    domsim.game.ViewBuilder = PeekingViews


class Cheater(Strategy):
    """insane's search on the true deal: every hand and the boneyard order are known."""

    def __init__(self, *, samples: int = 24, exact_tiles: int = 10,
                 random_share: float = 0.25) -> None:
        self.options = dict(samples=samples, exact_tiles=exact_tiles, random_share=random_share)

    def choose(self, view: PlayerView) -> Move:
        state = _seen["state"]
        assert state.to_move == view.seat, "install() the view hook before playing"
        search = Search(Judge(view.rules, view.seat), **self.options)
        moves = [move_int(m) for m in view.legal_moves]
        return move_value(search.best(moves, lambda rng: (state.copy(), 1.0), self.rng))


class TimedInsane(Insane):
    def choose(self, view: PlayerView) -> Move:
        started = time.perf_counter()
        move = super().choose(view)
        DECISION_TIMES.append(time.perf_counter() - started)
        return move
