"""Hostile on purpose: a strategy (played by domsim's seat host, several games at once in one
round trip) that says on stderr `quitter: start ID` at each game's start (ID: its seat's first
random draw, the same if the game is played again) and, in a game whose generator first draws
below `share`, exits at its `at`th decision after saying `quitter: exits`: a bot that would
like the games it shares a round trip with played again."""

import os
import sys

from domsim.strategy import Strategy


class Quitter(Strategy):
    def __init__(self, *, share: float = 0.1, at: int = 3) -> None:
        self.share, self.at = share, at
        self.decisions = 0
        self.unlucky = False

    def start_game(self, seat, rules) -> None:
        draw = self.rng.random()
        self.unlucky = draw < self.share
        print(f"quitter: start {draw!r}", file=sys.stderr, flush=True)

    def choose(self, view):
        self.decisions += 1
        if self.unlucky and self.decisions == self.at:
            print("quitter: exits", file=sys.stderr, flush=True)
            os._exit(3)
        return view.legal_moves[0]
