"""Broken on purpose: sleeps `delay` seconds in each of its first `times` decisions."""

import time

from domsim.strategy import Strategy


class Slow(Strategy):
    def __init__(self, *, delay: float = 30.0, times: int = 1) -> None:
        self.delay = delay
        self.times = times

    def choose(self, view):
        if self.times > 0:
            self.times -= 1
            time.sleep(self.delay)
        return view.legal_moves[-1]
