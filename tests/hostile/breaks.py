"""Hostile on purpose: breaks its process or the interpreter in `choose`, as `how` says, on the
decision numbered `at` (0: the first), and plays the first legal move until then."""

import contextlib
import hashlib
import os
import signal
import time

from domsim.strategy import Strategy


class Unstoppable(BaseException):
    pass


def long_c_call() -> bytes:
    # Minutes in one C call: no Python signal handler (SIGALRM's) runs before it returns.
    return hashlib.pbkdf2_hmac("sha256", b"key", b"salt", 10**9)


ACTIONS = {
    "exit": lambda: os._exit(1),
    "kill": lambda: os.kill(os.getpid(), signal.SIGKILL),
    "system_exit": lambda: exec("raise SystemExit(3)"),
    "keyboard_interrupt": lambda: exec("raise KeyboardInterrupt"),
    "generator_exit": lambda: exec("raise GeneratorExit"),
    "base_exception": lambda: exec("raise Unstoppable('no')", {"Unstoppable": Unstoppable}),
    "sleep": lambda: time.sleep(1e9),
    "ignore_alarm": lambda: (signal.signal(signal.SIGALRM, signal.SIG_IGN), time.sleep(1e9)),
    "catch_timeout": lambda: catch_everything(),
    "c_loop": long_c_call,
    "memory": lambda: bytearray(8 << 30),
}


def catch_everything() -> None:
    while True:
        with contextlib.suppress(BaseException):  # MoveTimeout too
            time.sleep(1e9)


class Breaks(Strategy):
    def __init__(self, *, how: str = "exit", at: int = 0) -> None:
        self.how = how
        self.at = at
        self.decisions = 0

    def choose(self, view):
        self.decisions += 1
        if self.decisions > self.at:
            ACTIONS[self.how]()
        return view.legal_moves[0]
