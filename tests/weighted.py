"""A strategy file with one numeric parameter, for the tests that tune or send a strategy's
parameters (test_spsa, test_seats, test_api_studies): heaviest tile first, a double worth
`double` pips more."""

from domsim.strategy import Strategy


class Weighted(Strategy):
    description = "heaviest tile first, doubles by a weight"

    def __init__(self, *, double: float = 1.0) -> None:
        self.double = double

    def choose(self, view):
        return max(view.legal_moves, key=lambda m: (m.tile.pips + self.double * m.tile.is_double,
                                                    self.rng.random()))
