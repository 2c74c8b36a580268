"""Example strategy to copy: remember which numbers the opponents lack, and leave those numbers
on the ends so that they have to draw or pass.

A seat that draws or passes shows that it holds none of the numbers open at that moment; every
such event is in `view.history` with those numbers in `event.open_numbers`.

Run it:   domsim play --variant draw -p strategies/example_counter.py -p easy
"""

from domsim.rules import Rules
from domsim.strategy import Strategy
from domsim.view import Move, PlayerView


class Counter(Strategy):
    description = "example: keeps numbers the opponents passed or drew on at the ends"

    def start_game(self, seat: int, rules: Rules) -> None:
        # Optional hook, called before each game: who the opponents are is fixed for the game
        # (in team games the partner is on the same side).
        mine = rules.side_of(seat)
        self.opponents = {s for s in range(rules.players) if rules.side_of(s) != mine}

    def choose(self, view: PlayerView) -> Move:
        lacking = self.numbers_opponents_lack(view)

        # The heaviest play among those leaving the most lacked numbers showing; then at random.
        def value(move: Move) -> tuple[int, int]:
            ends = self.ends_after(view, move)
            return sum(number in lacking for number in ends), move.tile.pips

        best = max(value(move) for move in view.legal_moves)
        return self.rng.choice([move for move in view.legal_moves if value(move) == best])

    def numbers_opponents_lack(self, view: PlayerView) -> set[int]:
        lacking: set[int] = set()
        for event in view.history:  # this hand's plays, draws and passes, in order
            # (one that drew may have found such a number since: good enough for an example)
            if event.kind in ("draw", "pass") and event.seat in self.opponents:
                lacking.update(event.open_numbers)
        return lacking

    @staticmethod
    def ends_after(view: PlayerView, move: Move) -> list[int]:
        """The numbers showing after `move` (a lead shows both halves of its tile)."""
        ends = [number for number in view.ends if number is not None]
        if not ends:
            return [move.tile.a, move.tile.b]
        touching = view.ends[move.end]
        ends.remove(touching)
        return [*ends, move.tile.b if move.tile.a == touching else move.tile.a]
