"""Broken on purpose: raises RuntimeError in `where` (__init__, start_game, choose, end_game)."""

from domsim.strategy import Strategy


class Raises(Strategy):
    def __init__(self, *, where: str = "choose") -> None:
        self.where = where
        self.calls = 0
        self._maybe_raise("__init__")

    def _maybe_raise(self, method: str) -> None:
        if method == self.where:
            raise RuntimeError(f"boom in {method}")

    def start_game(self, seat, rules) -> None:
        self._maybe_raise("start_game")

    def choose(self, view):
        self.calls += 1
        self._maybe_raise("choose")
        return view.legal_moves[0]

    def end_game(self, scores, winners) -> None:
        self._maybe_raise("end_game")
