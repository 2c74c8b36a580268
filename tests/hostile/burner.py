"""Honest but slow: burns `cpu` seconds of its own CPU time at every decision, then plays the
first legal move; a victim whose move times depend only on the CPU it is given
(tests/test_hostile.py: a spinning opponent must not make it late)."""

import time

from domsim.strategy import Strategy


class Burner(Strategy):
    def __init__(self, *, cpu: float = 0.03) -> None:
        self.cpu = cpu

    def choose(self, view):
        until = time.thread_time() + self.cpu
        while time.thread_time() < until:
            pass
        return view.legal_moves[0]
