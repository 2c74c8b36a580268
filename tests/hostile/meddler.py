"""Hostile on purpose: reads and changes what it can reach of the referee, then plays the first
legal move. `what` picks the attack; every one is harmless in its own process.

- spy: walks gc.get_objects() and the caller's frames for the referee's State and records the
  other hands it finds in FOUND and on stderr (and, if `report` names a file, appends the
  count to it);
- target: sets view.rules.target to 1 with object.__setattr__;
- reseed: reseeds every random.Random it can find."""

import contextlib
import gc
import random
import sys
from pathlib import Path

from domsim.engine import State
from domsim.strategy import Strategy

FOUND: list[int] = []  # per decision: how many hidden hands the bot could read


def referee_states() -> list[State]:
    found = [obj for obj in gc.get_objects() if isinstance(obj, State)]
    frame = sys._getframe()
    while frame is not None:
        found += [value for value in frame.f_locals.values() if isinstance(value, State)]
        frame = frame.f_back
    return found


class Meddler(Strategy):
    def __init__(self, *, what: str = "spy", report: str = "") -> None:
        self.what = what
        self.report = report

    def choose(self, view):
        if self.what == "spy":
            hidden = sum(1 for state in referee_states()
                         for seat, mask in enumerate(state.hands) if seat != view.seat and mask)
            FOUND.append(hidden)
            print(f"spy found {hidden}", file=sys.stderr)  # out of a sandbox: the run's log
            if self.report:
                with contextlib.suppress(OSError), Path(self.report).open("a") as out:
                    out.write(f"{hidden}\n")  # refused in the sandbox
        elif self.what == "target":
            object.__setattr__(view.rules, "target", 1)
        elif self.what == "reseed":
            for obj in gc.get_objects():
                if isinstance(obj, random.Random):
                    obj.seed(0)
        return view.legal_moves[0]


class Plain(Strategy):
    """The control: the same moves, no meddling."""

    def choose(self, view):
        return view.legal_moves[0]
