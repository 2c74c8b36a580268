"""The ratings every surface of a run shows (summary.csv, `domsim stats`, `Results.ratings()`,
the report): one per entrant from the joint fit of every game, Elo 0 the mean of the anchor's
entrants, and per pairing the entrant's head to head over deals. Here, in the run folder's format,
so that the runner writing summary.csv and the analysis reading a run compute them alike."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ..plan.pairings import Entrant, level_indices
from ..rules import Rules
from ..stats import ELO_CLAMP, EloEstimate, RatingIntervals, bootstrap_ratings, elo_estimate
from .sides import shares_of
from .summary import ALL, Tally


@dataclass
class Outcomes:
    """Per game g: its deal and pairing index, the entrant on each side and each side's share of
    the win (as the summary counts it)."""

    deal_id: np.ndarray
    pairing: np.ndarray
    side_entrants: np.ndarray
    shares: np.ndarray


def outcomes_of(rules: Rules, entrants: list[Entrant], pairings: list[tuple[int, ...]],
                table: pa.Table) -> Outcomes:
    """The outcomes of the games in a games table of a run with these rules and entrants."""
    pairing, entrant, share, _ = shares_of(rules, entrants, pairings, table)
    return Outcomes(table.column("deal_id").to_numpy().astype(np.int64), pairing, entrant,
                    share)


#: Bootstrap resamplings and seed of every rating a run's files and commands show by default.
SAMPLES, SEED = 1000, 0


def anchor_indices(entrants: list[Entrant], manifest: dict) -> list[int]:
    """The entrants whose mean rating is Elo 0, the one convention of every surface: a
    calibration's levels (as its manifest lists them), else the entrants that are not dial
    settings (so the zero is the same whichever settings a run played), else all."""
    names = [entrant.name for entrant in entrants]
    levels = manifest.get("levels")
    if isinstance(levels, list) and levels and set(levels) <= set(names):
        return [names.index(name) for name in levels]
    return level_indices(entrants)


def rate_outcomes(games: Outcomes, entrants: list[Entrant], manifest: dict,
                  samples: int = SAMPLES, seed: int = SEED,
                  centre: tuple[int, ...] | None = None) -> RatingIntervals:
    """`ratings` of the games of a run with these entrants and manifest."""
    if centre is None:
        centre = tuple(anchor_indices(entrants, manifest))
    return bootstrap_ratings(games.deal_id, games.side_entrants, games.shares, len(entrants),
                             samples, seed, centre=centre)


def number(value: float) -> float | None:
    """A rating's value as plain data: nan (an open end, no interval) is None."""
    return None if math.isnan(value) else float(value)


def summary_lines(tally: Tally, pairings: list[tuple[int, ...]], seatings: int,
                  games: Outcomes, fitted: RatingIntervals) -> list[dict]:
    """The summary lines (summary.csv) of a run's games (a Tally fed with them), with
    the Elo columns every surface shows: over all pairings the entrant's one rating
    (`ratings`), per pairing its head to head over the pairing's complete deals against the
    share of the sides an equal would win (`pairing_estimate`: in two-sided games the head to
    head that `stats` and `compare` show)."""
    out = []
    for scope, e, line in tally.rows():
        if scope == ALL:
            values = (fitted.ratings.elo[e], fitted.low[e], fitted.high[e], fitted.bounds[e])
        else:
            pairing = tally.pairings[scope]
            values = estimate_values(pairing_estimate(games, pairings.index(pairing), e,
                                                      pairing, seatings))
        elo, low, high, bound = values
        line.update(elo=number(elo), elo_low=number(low), elo_high=number(high),
                    elo_bound=bound or "")
        out.append(line)
    return out


def pairing_estimate(games: Outcomes, p: int, e: int, pairing: tuple[int, ...],
                     seatings: int) -> EloEstimate:
    """Entrant e's Elo in pairing p from its share of each complete deal's games, against the
    share of its sides an equal holds."""
    met = games.pairing == p
    scores = (games.shares[met] * (games.side_entrants[met] == e)).sum(axis=1)
    units: dict[int, list[float]] = defaultdict(list)
    for deal, score in zip(games.deal_id[met].tolist(), scores.tolist(), strict=True):
        units[deal].append(score)
    complete = [sum(unit) / len(unit) for unit in units.values() if len(unit) == seatings]
    return elo_estimate(complete, seatings, pairing.count(e) / len(pairing))


def estimate_values(estimate: EloEstimate) -> tuple[float, float, float, str | None]:
    """(Elo, low, high, bound) of a head-to-head estimate as the ratings give them: a sweep's
    Elo is +-infinity and its bound the end it has (the open end nan); an end at the score
    clamp (a score interval reaching 0 or 1) is infinite, never the clamp's +-1200; no complete
    deal, no estimate (all nan)."""
    if not estimate.units:
        return math.nan, math.nan, math.nan, None
    if estimate.one_sided == "lower":
        return math.inf, estimate.elo_low, math.nan, "lower"
    if estimate.one_sided == "upper":
        return -math.inf, math.nan, estimate.elo_high, "upper"
    return estimate.elo, open_end(estimate.elo_low), open_end(estimate.elo_high), None


def open_end(elo: float) -> float:
    """An interval's end, infinite where it is the score clamp's."""
    return math.copysign(math.inf, elo) if abs(elo) >= ELO_CLAMP else elo


def open_ends(interval: dict) -> dict:
    """An interval (`elo_low`, `elo_high`) read back from JSON, where an open end is null
    (results.atomic.strict_json), with its open ends infinite again."""
    low, high = interval["elo_low"], interval["elo_high"]
    return interval | {"elo_low": -math.inf if low is None else low,
                       "elo_high": math.inf if high is None else high}


