"""Broken on purpose: plays a tile it does not hold (always a well-formed Move)."""

from domsim.strategy import Strategy
from domsim.tiles import TILES
from domsim.view import Move


class Illegal(Strategy):
    def choose(self, view):
        not_mine = next(tile for tile in TILES if tile not in view.hand)
        return Move(not_mine, 0)
