"""Game clocks, as engine testers set them (fastchess's `tc=60+0.5`): `--time-control BASE+INC`
gives each seat BASE seconds for the whole game and adds INC seconds after each of its moves. A
seat whose clock runs out has its move made for it and is handed to the stand-in for the rest of
the game: a timeout fault (R-SEAT-FAULT). The per-move limit still applies beside it.

Only decisions with a choice are timed (forced moves are made for the seat, at no cost). A
strategy reads its clock before each decision from `self.clock` (a `ClockReading`, None without
a clock): insane and the dial spend a share of what is left (`budget_seconds`)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import NamedTuple

from .errors import DomsimError

#: BASE or BASE+INC, in seconds (decimals allowed).
PATTERN = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(?:\+\s*(\d+(?:\.\d*)?|\.\d+)\s*)?$")
#: The decisions a search level plans to spread the rest of its clock over.
MOVES_TO_GO = 25
#: The share of the increment a search level spends on top (the rest is a margin).
INCREMENT_SHARE = 0.8


class TimeControlError(DomsimError):
    """A time control that cannot be read; the message is one line."""


@dataclass(frozen=True)
class TimeControl:
    base: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        found = PATTERN.match(text) if isinstance(text, str) else None
        base, increment = (float(found[1]), float(found[2] or 0)) if found else (0.0, 0.0)
        if not found or not (math.isfinite(base) and base > 0 and math.isfinite(increment)):
            raise TimeControlError(f"time control {text!r} is not BASE+INC: seconds per game, "
                                   "and seconds added per move, e.g. 60+0.5 (or 60)")
        return cls(base, increment)

    def __str__(self) -> str:
        return f"{self.base:g}+{self.increment:g}"


def is_time_control(value: object) -> bool:
    try:
        TimeControl.parse(value)
    except TimeControlError:
        return False
    return True


class ClockReading(NamedTuple):
    """What a strategy sees of its clock before a decision: seconds left, and added per move."""

    remaining: float
    increment: float


class GameClock:
    """One seat's clock for one game."""

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        self.remaining = control.base

    def reading(self) -> ClockReading:
        return ClockReading(self.remaining, self.control.increment)

    def spend(self, seconds: float) -> bool:
        """Charge a decision; False when the flag fell (the clock ran out), else the increment
        is added."""
        self.remaining -= seconds
        if self.remaining < 0:
            return False
        self.remaining += self.control.increment
        return True


def budget_seconds(clock: ClockReading) -> float:
    """What a search level spends on one decision: a share of what is left, and most of the
    increment, never more than half the clock."""
    share = clock.remaining / MOVES_TO_GO + INCREMENT_SHARE * clock.increment
    return max(0.0, min(share, clock.remaining / 2))
