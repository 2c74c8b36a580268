"""medium (R-LEVEL): dumps its heaviest playable tile first; in fives and allfives it takes the
best immediate score first. In classic, where only going out counts, a double (the tile with
the fewest places to go) is dumped before anything heavier."""

from domsim.insight import fives_score
from domsim.strategy import Strategy
from domsim.view import Move, PlayerView


class Medium(Strategy):
    description = "heaviest playable tile first; in fives games the best immediate score"

    def choose(self, view: PlayerView) -> Move:
        scoring = view.rules.variant.scoring
        fives, classic = scoring == "fives", scoring == "classic"

        def key(move: Move) -> tuple[int, bool, int, int]:
            tile = move.tile
            points = fives_score(view.count_after(move)) if fives else 0
            double_first = classic and tile.a == tile.b
            return points, double_first, tile.a + tile.b, tile.b

        return max(view.legal_moves, key=key)
