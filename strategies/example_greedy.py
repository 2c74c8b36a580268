"""Example strategy to copy: play the heaviest tile that fits.

Run it:   domsim play --variant block -p strategies/example_greedy.py -p easy
Tune it:  domsim play --variant block -p 'strategies/example_greedy.py?doubles_first=true' -p easy
"""

from domsim.strategy import Strategy
from domsim.view import Move, PlayerView


class Greedy(Strategy):
    # One line for `domsim strategies`.
    description = "example: heaviest playable tile first, random among equals"

    # Keyword arguments with int/float/bool/str annotations are set from the spec (`?key=value`).
    def __init__(self, *, doubles_first: bool = False) -> None:
        self.doubles_first = doubles_first

    def choose(self, view: PlayerView) -> Move:
        # view.legal_moves holds every play allowed now; return one of them, unchanged.
        def weight(move: Move) -> tuple[bool, int]:
            return self.doubles_first and move.tile.is_double, move.tile.pips

        best = max(weight(move) for move in view.legal_moves)
        heaviest = [move for move in view.legal_moves if weight(move) == best]
        # Randomness only from self.rng: it comes from the game seed, so every game replays.
        return self.rng.choice(heaviest)
