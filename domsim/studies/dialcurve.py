"""The dial's curve: Elo against the dial's strength (strategies/dial.py), fitted monotone, and
the settings a designer ships: the one matching each built-in level and N evenly spaced levels.

From a run's ratings (`domsim.analysis.ratings_dict`): the entrants that are dial settings give
the curve's points, the others (the built-in levels) are placed on it."""

from __future__ import annotations

import math
import random
from itertools import pairwise

from ..stats import Z95, score_from_elo, shown_elo
from ..strategies.dial import Dial
from ..strategy import StrategyError, load_strategy

#: The dial settings `domsim calibrate --dial` plays by default: both ends and three between.
DEFAULT_SETTINGS = (0.0, 0.25, 0.5, 0.75, 1.0)
#: The levels a designer asks for by default: five, evenly spaced in Elo from easy to insane.
DEFAULT_SPACING = 5


def dial_spec(strength: float) -> str:
    return f"dial?strength={strength:g}"


def strength_of(name: str) -> float | None:
    """The dial strength an entrant plays at (a team: its first member), None if not the dial."""
    try:
        factory = load_strategy(name.split("+")[0])
    except StrategyError:
        return None
    if not issubclass(factory.cls, Dial):
        return None
    return factory(random.Random(0)).strength


def split_dial(rating: dict) -> tuple[list[dict], list[dict]]:
    """(the built-in levels' rating lines, the dial's lines with their strength, weakest first);
    a sweep's line placed at its bound (`shown_elo`), where a curve can use it."""
    levels, dial = [], []
    for line in rating["entrants"]:
        line = {**line, "elo": shown_elo(line)}
        strength = strength_of(line["name"])
        if strength is None:
            levels.append(line)
        else:
            dial.append({**line, "strength": strength})
    return levels, sorted(dial, key=lambda line: line["strength"])


def without_dial(rating: dict) -> dict:
    """The ratings with the dial's entrants left out: the ladder is the levels'."""
    return {**rating, "entrants": split_dial(rating)[0]}


def monotone_fit(values: list[float], weights: list[float]) -> list[float]:
    """The weighted least-squares non-decreasing fit (pool adjacent violators)."""
    blocks: list[list[float]] = []  # [mean, weight, count]
    for value, weight in zip(values, weights, strict=True):
        blocks.append([value, weight, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            (m1, w1, c1), (m2, w2, c2) = blocks.pop(-2), blocks.pop()
            blocks.append([(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, c1 + c2])
    return [mean for mean, _, count in blocks for _ in range(int(count))]


def curve(dial: list[dict]) -> list[dict]:
    """The dial's points with their fitted (monotone) Elo, each weighted by its interval."""
    weights = [1 / max((line["high"] - line["low"]) / (2 * Z95), 1.0) ** 2
               if line["low"] is not None and line["high"] is not None else 1e-6 for line in dial]
    fitted = monotone_fit([line["elo"] for line in dial], weights)
    return [{**line, "fitted": value} for line, value in zip(dial, fitted, strict=True)]


def setting_for(elo: float, points: list[dict]) -> float:
    """The lowest strength whose fitted Elo reaches `elo` (linear between the points), the
    curve's end where `elo` lies beyond it."""
    pairs = [(point["strength"], point["fitted"]) for point in points]
    for (s0, e0), (s1, e1) in pairwise(pairs):
        if e0 < elo <= e1:
            return s0 + (s1 - s0) * (elo - e0) / (e1 - e0)
    return pairs[-1][0] if elo > pairs[-1][1] else pairs[0][0]


def on_curve(elo: float, points: list[dict]) -> bool:
    return points[0]["fitted"] <= elo <= points[-1]["fitted"]


#: A setting whose 95% interval is wider than this share of the dial is withheld.
MAX_WIDTH = 0.25


def band(points: list[dict], key: str) -> list[dict]:
    """The monotone fit of the points' interval ends (`low` or `high`): the curve's band. An
    unbounded end (None: a setting that won or lost every game) is infinite."""
    weights = [1.0] * len(points)
    unbounded = -math.inf if key == "low" else math.inf
    ends = [unbounded if point[key] is None else point[key] for point in points]
    fitted = monotone_fit(ends, weights)
    return [{"strength": point["strength"], "fitted": value}
            for point, value in zip(points, fitted, strict=True)]


def unmeasured(rating: dict) -> str:
    """Why a setting whose target has no 95% interval is withheld, and what to do."""
    if rating.get("samples") == 0:
        return ("no 95% interval: the ratings were not resampled (--samples 0); "
                "calibrate with --samples 1000 to ship it")
    return "its target's 95% interval is open: play more games"


def spaced_half(first: dict, last: dict, share: float) -> float | None:
    """Half the interval of a spaced level `share` of the way from `first` to `last` (their
    widths interpolated), None when either end's interval was not measured."""
    if None in (first["low"], first["high"], last["low"], last["high"]):
        return None
    return ((1 - share) * (first["high"] - first["low"])
            + share * (last["high"] - last["low"])) / 2


def targets_of(levels: list[dict], spacing: int) -> list[tuple]:
    """(target, Elo, its interval's low and high end or None, expected win rate against the one
    below or None): the levels, then `spacing` levels evenly spaced from the first to the last."""
    targets = [(f"as strong as {line['name']}", line["elo"], line["low"], line["high"], None)
               for line in levels]
    first, last = levels[0], levels[-1]
    step = (last["elo"] - first["elo"]) / (spacing - 1) if spacing > 1 else 0.0
    for k in range(spacing):
        half = spaced_half(first, last, k / (spacing - 1) if spacing > 1 else 0.0)
        elo = first["elo"] + k * step
        targets.append((f"level {k + 1} of {spacing}", elo,
                        None if half is None else elo - half,
                        None if half is None else elo + half,
                        score_from_elo(step) if k else None))
    return targets


def recommendations(rating: dict, spacing: int = DEFAULT_SPACING,
                    withheld: str | None = None) -> list[dict]:
    """The settings to ship: one per built-in level (the dial's setting as strong as it) and
    `spacing` levels evenly spaced in Elo from the weakest to the strongest level, each with its
    expected win rate against the one below it, and its 95% interval: the strengths where the
    curve's band reaches the ends of the target's own interval (None when the target's interval
    was not measured). A setting is `withheld` (the reason; None: shipped) when the caller says
    the evidence is too thin, when its target has no interval, when its target lies beyond the
    curve's band (the ends' intervals included) or its interval spans more than MAX_WIDTH.
    Empty without dial entrants."""
    levels, dial = split_dial(rating)
    points = curve(dial)
    if not points or not levels:
        return []
    lows, highs = band(points, "low"), band(points, "high")
    rows = []
    for target, elo, elo_low, elo_high, win_rate in targets_of(levels, spacing):
        low = high = reason = None
        if elo_low is None or elo_high is None or rating.get("samples") == 0:
            reason = unmeasured(rating)
        else:
            ends = (setting_for(elo_low, highs), setting_for(elo_high, lows))
            low, high = min(ends), max(ends)
            reachable = lows[0]["fitted"] <= elo <= highs[-1]["fitted"]
            reason = (None if reachable else "beyond the dial's measured curve") or (
                f"its interval [{low:.2f}, {high:.2f}] spans more than {MAX_WIDTH:g} of the "
                "dial: play more games" if high - low > MAX_WIDTH else None)
        rows.append({"target": target, "elo": elo, "setting": setting_for(elo, points),
                     "low": low, "high": high, "on_curve": on_curve(elo, points),
                     "win_rate_vs_previous": win_rate, "withheld": withheld or reason})
    return rows
