"""Example search bot to copy, built on the core's library calls (domsim.search): perfect-
information Monte Carlo. Sample deals consistent with what the seat knows, value every legal
move on each (exactly once few tiles are left, by a playout before), play the best on average.

Run it:   domsim play --variant block -p strategies/example_pimc.py -p hard
Tune it:  domsim tourney --variant block -p 'strategies/example_pimc.py?deals=64' -p insane
"""

from statistics import fmean

from domsim.search import hand_value, play_out, sample_deals, solvable, solve
from domsim.strategy import Strategy
from domsim.view import Move, PlayerView, move_int


class Pimc(Strategy):
    description = "example: sampled deals, each move solved exactly late and played out before"

    def __init__(self, *, deals: int = 32, exact_tiles: int = 8) -> None:
        self.deals = deals
        self.exact_tiles = exact_tiles

    def choose(self, view: PlayerView) -> Move:
        values: dict[Move, list[float]] = {move: [] for move in view.legal_moves}
        for deal, _weight in sample_deals(view, self.deals, self.rng.getrandbits(64)):
            seed = self.rng.getrandbits(64)  # the same playout luck for every move on a deal
            for move in view.legal_moves:
                after = deal.copy()
                after.play(move_int(move))
                values[move].append(self.value(after, view.seat, seed))
        return max(view.legal_moves, key=lambda move: fmean(values[move]))

    def value(self, state, seat: int, seed: int) -> float:
        if state.hand_over:
            return hand_value(state, seat)
        if solvable(state, self.exact_tiles):
            return solve(state, seat)
        return hand_value(play_out(state, seed), seat)
