"""Hostile on purpose: when it is loaded, patches the built-in levels to play their last legal
move; then plays the first legal move itself."""

from domsim.strategies import easy, hard, medium

from domsim.strategy import Strategy

for level in (easy.Easy, medium.Medium, hard.Hard):
    level.choose = lambda self, view: view.legal_moves[-1]


class Patcher(Strategy):
    def choose(self, view):
        return view.legal_moves[0]
