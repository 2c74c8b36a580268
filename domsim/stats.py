"""Statistics over game outcomes: small pure functions with the formulas named."""

from __future__ import annotations

import math

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
    return moments_interval(len(values), math.fsum(values), math.fsum(v * v for v in values), z)


def moments_interval(n: int, total: float, total_squares: float,
                     z: float = Z95) -> tuple[float, float, float]:
    """`mean_interval` from running sums (n, sum, sum of squares), so a stream needs no list:
    half-width z * s / sqrt(n) with the sample variance s^2 = (sum_sq - sum^2 / n) / (n - 1)."""
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = total / n
    if n < 2:
        return mean, mean, mean
    variance = max(0.0, (total_squares - total * total / n) / (n - 1))
    half = z * math.sqrt(variance / n)
    return mean, mean - half, mean + half
