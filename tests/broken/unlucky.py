"""Broken on purpose, in some games only: in a game whose generator first draws below `share`,
its `at`th decision does `how`: `exit` (the process exits with status 3), `hang` (sleeps a
minute), `late` (sleeps `delay` seconds once) or `flood` (writes 5 MiB of junk lines to every
descriptor it can, the seat host's replies among them). Every decision first sleeps `pause`
seconds, every game's start `start` seconds. Which games is fixed by each game's seat seed, so a
run and its replay break the same games."""

import contextlib
import os
import time

from domsim.strategy import Strategy


class Unlucky(Strategy):
    def __init__(self, *, how: str = "exit", share: float = 0.25, at: int = 3,
                 delay: float = 0.5, pause: float = 0.0, start: float = 0.0) -> None:
        self.how, self.share, self.at = how, share, at
        self.delay, self.pause, self.start = delay, pause, start
        self.decisions = 0
        self.unlucky: bool | None = None

    def start_game(self, seat, rules) -> None:
        time.sleep(self.start)

    def choose(self, view):
        if self.unlucky is None:
            self.unlucky = self.rng.random() < self.share
        self.decisions += 1
        time.sleep(self.pause)
        if self.unlucky and self.decisions == self.at:
            if self.how == "exit":
                os._exit(3)
            if self.how == "flood":
                for fd in range(3, 16):
                    with contextlib.suppress(OSError):
                        os.write(fd, b"junk\n" * (5 << 18))
                return view.legal_moves[0]
            time.sleep(60 if self.how == "hang" else self.delay)
        return view.legal_moves[0]
