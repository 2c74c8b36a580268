"""Broken on purpose: plays its first legal move until hand 2, then raises RuntimeError."""

from domsim.strategy import Strategy


class LateCrash(Strategy):
    def choose(self, view):
        if view.hand_number >= 1:
            raise RuntimeError("boom in hand 2")
        return view.legal_moves[0]
