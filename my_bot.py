from domsim.strategy import Strategy
from domsim.view import Move, PlayerView


class MyBot(Strategy):
    description = "heaviest tile first, a double worth more"  # shown by `domsim strategies`

    def __init__(self, *, doubles: float = 1.0) -> None:  # my_bot.py?doubles=2.5
        self.doubles = doubles

    def choose(self, view: PlayerView) -> Move:
        def worth(move: Move) -> tuple:
            return move.tile.pips + self.doubles * move.tile.is_double, self.rng.random()
        return max(view.legal_moves, key=worth)
