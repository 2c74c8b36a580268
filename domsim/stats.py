"""Statistics over game outcomes: small pure functions with the formulas named."""

from __future__ import annotations

import math
from statistics import fmean, stdev

Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (successes may be fractional: a shared win is 1/2)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return (centre - spread) / denominator, (centre + spread) / denominator


def mean_interval(values: list[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean with a normal-approximation 95% interval: (mean, low, high)."""
    if not values:
        return 0.0, 0.0, 0.0
    mean = fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = z * stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half
