"""Reading back the points a table works out (domsim.tabletalk): the person's table and the game
page print the same sums."""

from __future__ import annotations

import re


def evaluate(terms: str) -> int:
    """`17 + 7 (the other hands) - 2 (to the nearest 5)` summed."""
    numbers = re.sub(r"\([^)]*\)", "", terms).split()
    return int(numbers[0]) + sum(int(n) * (1 if sign == "+" else -1)
                                 for sign, n in zip(numbers[1::2], numbers[2::2], strict=True))
