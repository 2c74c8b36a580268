"""The summary: per entrant over all pairings and per pairing, games, wins, losses, shared games,
win rate (Wilson 95% interval; a shared game counts as the entrant's share of the winners), points
margin per game and per hand (95% interval) and faults. Its Elo columns are the statistics'
(domsim.analysis.summary_lines): over all pairings the entrant's one rating, per pairing its head
to head over deals. Also the standings a run shows while it plays, on the same scale.

The margin interval is taken over *units* — one deal of one pairing, i.e. all its seatings — not
over games, because the seatings of a duplicate deal are correlated; a unit's value is the
entrant's mean margin over its games. The games come in game-id order, whole columns at a time
(domsim.results.sides: no Python per game); running sums are kept, and a unit's only until its
games are all in."""

from __future__ import annotations

import csv
import io
import math
from array import array
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa

from ..plan.config import TourneyConfig
from ..plan.pairings import Entrant, level_indices, pairing_label
from ..rules import Rules
from ..stats import (
    ELO_CLAMP,
    bootstrap_ratings,
    moments_interval,
    shown_elo,
    wilson_interval,
)
from .atomic import write_atomic
from .folder import SUMMARY
from .sides import sides_of

ALL = "all"
COLUMNS = ("pairing", "entrant", "games", "wins", "losses", "shared", "win_rate", "win_rate_low",
           "win_rate_high", "elo", "elo_low", "elo_high", "elo_bound", "margin_per_game",
           "margin_per_game_low",
           "margin_per_game_high", "margin_per_hand", "margin_per_hand_low", "margin_per_hand_high",
           "faults")


@dataclass
class Moments:
    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, values: np.ndarray) -> None:
        """Add the values in order (a running sum, as one by one)."""
        self.n += len(values)
        self.total = running_sum(self.total, values)
        self.squares = running_sum(self.squares, values * values)

    def interval(self) -> tuple[float, float, float]:
        return moments_interval(self.n, self.total, self.squares)


def running_sum(start: float, values: np.ndarray) -> float:
    """start + values[0] + values[1] + ..., added in that order (numpy's sum pairs them)."""
    return float(np.cumsum(np.concatenate(([start], values)))[-1]) if len(values) else start


@dataclass
class Line:
    """One summary line being accumulated, from whole columns of its entrant's games. A unit's
    margins count once all its games are in (`seatings` of them; at the end, whatever it has)."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    shared: int = 0
    share: float = 0.0
    faults: int = 0
    faulted: int = 0  # games in which a seat of the entrant faulted
    per_game: Moments = field(default_factory=Moments)
    per_hand: Moments = field(default_factory=Moments)
    #: Units not complete yet: unit -> [margin sum, margin-per-hand sum, games].
    open: dict[int, list[float]] = field(default_factory=dict)

    def add(self, units: np.ndarray, share: np.ndarray, margin: np.ndarray, hands: np.ndarray,
            faults: np.ndarray, seatings: int) -> None:
        """Games in game-id order: each one's unit, the entrant's share, margin, hands and
        faults."""
        self.games += len(share)
        self.share = running_sum(self.share, share)
        self.wins += int((share == 1).sum())
        self.losses += int((share == 0).sum())
        self.shared += int(((share > 0) & (share < 1)).sum())
        self.faults += int(faults.sum())
        self.faulted += int((faults > 0).sum())
        keys, inverse = np.unique(units, return_inverse=True)
        sums = np.stack([np.bincount(inverse, weights=margin, minlength=len(keys)),
                         np.bincount(inverse, weights=margin / hands, minlength=len(keys)),
                         np.bincount(inverse, minlength=len(keys))], axis=1)
        last = np.zeros(len(keys), dtype=np.int64)
        np.maximum.at(last, inverse, np.arange(len(units)))
        carried = np.array([key in self.open for key in keys.tolist()], dtype=bool)
        for index in np.flatnonzero(carried):  # the units an earlier batch began
            sums[index] += self.open.pop(int(keys[index]))
        done = sums[:, 2] >= seatings
        for index in np.flatnonzero(~done):
            self.open[int(keys[index])] = sums[index].tolist()
        self.close(sums[done][np.argsort(last[done], kind="stable")])

    def close(self, sums: np.ndarray) -> None:
        """Count units whose games are all in: (margin sum, per-hand sum, games) each."""
        self.per_game.add(sums[:, 0] / sums[:, 2])
        self.per_hand.add(sums[:, 1] / sums[:, 2])

    def rate(self) -> tuple[float, float, float]:
        """(win rate, its Wilson interval); needs no closed unit, so it can be read while games
        come in."""
        low, high = wilson_interval(self.share, self.games)
        return self.share / self.games if self.games else 0.0, low, high

    def values(self) -> list:
        """The line's columns, its Elo columns (the statistics') left empty; units still
        open count as they are."""
        if self.open:
            self.close(np.array(list(self.open.values())))
            self.open = {}
        return [self.games, self.wins, self.losses, self.shared, *self.rate(),
                None, None, None, None, *self.per_game.interval(), *self.per_hand.interval(),
                self.faults]


def faults_forfeit(config: TourneyConfig) -> bool:
    """Whether a fault in the run forfeits the game (else the stand-in's moves count)."""
    return config.on_fault == "forfeit"


class Tally:
    """Summary lines fed with the games in game-id order, whole columns at a time
    (domsim.results.sides); `forfeits`: the run's faults forfeit the game; `seatings`: the
    games of a deal in one pairing."""

    def __init__(self, rules: Rules, entrants: list[Entrant],
                 pairings: list[tuple[int, ...]], forfeits: bool = False,
                 seatings: int | None = None) -> None:
        self.rules = rules
        self.forfeits = forfeits
        self.seatings = seatings or rules.sides
        # Every game's deal, entrant on each side and share of each side: the live standings'
        # joint ratings, on the scale of the final table's.
        self.deals, self.on_sides, self.shares = array("q"), array("q"), array("d")
        self.entrants = entrants
        self.pairing_list = list(pairings)
        self.pairings = {pairing_label(entrants, p): p for p in pairings}
        self.lines: dict[tuple[str, int], Line] = {(ALL, e): Line() for e in range(len(entrants))}
        for label, pairing in self.pairings.items():
            for e in dict.fromkeys(pairing):
                self.lines[label, e] = Line()

    def add_table(self, table: pa.Table) -> None:
        """Count the games of `table` (games-table columns), which follow those counted."""
        if not table.num_rows:
            return
        rules = self.rules
        games = sides_of(rules, self.entrants, self.pairing_list, table, self.forfeits)
        self.deals.extend(games.deal.tolist())
        self.on_sides.extend(games.entrant.ravel().tolist())
        self.shares.extend(games.share.ravel().tolist())
        units = games.pairing * 2 ** 40 + games.deal
        labels = list(self.pairings)
        for e in range(len(self.entrants)):
            plays, margin = games.margins(rules, e)
            if not plays.any():
                continue
            own = games.entrant[plays] == e
            values = (units[plays], (games.share[plays] * own).sum(axis=1), margin,
                      games.hands[plays], (games.faults[plays] * own).sum(axis=1))
            self.lines[ALL, e].add(*values, self.seatings)
            pairing = games.pairing[plays]
            for p in np.unique(pairing).tolist():
                met = pairing == p
                self.lines[labels[p], e].add(*(value[met] for value in values), self.seatings)

    def leader(self) -> tuple[str, float] | None:
        """The entrant with the best win rate over all pairings so far."""
        played = [(line.share / line.games, e) for (scope, e), line in self.lines.items()
                  if scope == ALL and line.games]
        if not played:
            return None
        rate, e = max(played)
        return self.entrants[e].name, rate

    def fault_rates(self) -> list[tuple[str, int, int]]:
        """(entrant, games in which it faulted, games) over all its games so far."""
        return [(self.entrants[e].name, line.faulted, line.games)
                for (scope, e), line in self.lines.items() if scope == ALL]

    def rows(self) -> list[tuple[str, int, dict]]:
        """(scope, entrant index, its summary line by COLUMNS)."""
        return [(scope, e, dict(zip(COLUMNS, [scope, self.entrants[e].name, *line.values()],
                                    strict=True)))
                for (scope, e), line in self.lines.items()]

    def standings(self, done: int, total: int) -> list[str]:
        """The entrants over all their games so far, strongest first, as a text table, rated
        as the final table rates them (the joint fit, Elo 0 the mean of the levels) without its
        intervals, which the end's resamplings give."""
        names = [entrant.name for entrant in self.entrants]
        fitted = bootstrap_ratings(np.frombuffer(self.deals, dtype=np.int64),
                                   np.frombuffer(self.on_sides, dtype=np.int64).reshape(
                                       -1, self.rules.sides),
                                   np.frombuffer(self.shares).reshape(-1, self.rules.sides),
                                   len(names), samples=0, centre=level_indices(self.entrants))
        order = sorted(range(len(names)), key=lambda e: (-fitted.ratings.elo[e],
                                                         -self.lines[ALL, e].share))
        rows = [("#", "entrant", "games", "W-L-S", "points", "score", "Elo", "faults")]
        for rank, e in enumerate(order, 1):
            line = self.lines[ALL, e]
            bound = fitted.bounds[e]
            elo = (elo_cell(bound, fitted.ratings.elo[e], fitted.low[e], fitted.high[e],
                            line.games) if bound in ("lower", "upper")
                   else signed_elo(fitted.ratings.elo[e]))
            rows.append((str(rank), names[e], str(line.games),
                         f"{line.wins}-{line.losses}-{line.shared}", f"{line.share:g}",
                         f"{line.rate()[0]:.1%}", elo, str(line.faults)))
        zero = ", ".join(names[c] for c in fitted.centre)
        return [f"Standings after {done} of {total} games (W-L-S: won, lost, shared; points: a "
                f"win 1, a shared win the share; Elo: the joint fit, mean of {zero} = 0, "
                "intervals at the end)", *columns(rows)]


def write_summary(out: Path, lines: list[dict]) -> None:
    """summary.csv: the lines' COLUMNS, floats to 6 significant digits."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(COLUMNS)
    for line in lines:
        writer.writerow([f"{value:.6g}" if isinstance(value, float) else value
                         for value in (line[column] for column in COLUMNS)])
    write_atomic(out / SUMMARY, text.getvalue())


def summary_table(path: Path) -> list[str]:
    """A short text table of summary.csv for the terminal, columns sized to their contents,
    strongest first over all pairings and within each pairing, as the standings are. Its two
    Elo figures are two quantities in two columns: over all pairings the entrant's rating (the
    joint fit of every game), per pairing the head to head over the pairing's deals."""
    header = ("pairing", "entrant", "games", "W-L-S", "win rate [95% CI]",
              "rating [95% CI]", "head to head Elo", "margin/game [95% CI]", "faults")
    with path.open(encoding="utf-8", newline="") as source:
        rows = list(csv.DictReader(source))
    groups = list(dict.fromkeys(row["pairing"] for row in rows))
    ranked = sorted(rows, key=lambda row: (groups.index(row["pairing"]), *_weaker(row)))
    return columns([header, *map(_summary_cells, ranked)])


def _weaker(row: dict) -> tuple[float, float, float]:
    """A summary line's sort key, the strongest least: its Elo (a sweep's +-infinity beyond
    every measured one, two sweeps by their bounds: stats.shown_elo), then its win rate; no
    Elo (a run rated without them) ranks by the win rate alone."""
    def number(key: str) -> float:
        return float(row[key]) if row[key] else -math.inf

    line = {"elo": number("elo"), "low": number("elo_low"), "high": number("elo_high"),
            "bound": row["elo_bound"]}
    return -line["elo"], -shown_elo(line), -float(row["win_rate"])


def columns(rows: list[tuple[str, ...]]) -> list[str]:
    """Rows of cells as aligned text: the first two columns to the left, the others right."""
    widths = [max(len(cells[i]) for cells in rows) for i in range(len(rows[0]))]
    return [" ".join(cell.ljust(w) if i < 2 else cell.rjust(w)
                     for i, (cell, w) in enumerate(zip(cells, widths, strict=True))).rstrip()
            for cells in rows]


def _summary_cells(row: dict) -> tuple[str, ...]:
    rate = (f"{float(row['win_rate']):.1%} [{float(row['win_rate_low']):.1%}, "
            f"{float(row['win_rate_high']):.1%}]")
    margin = interval_cell(*(float(row[f"margin_per_game{end}"]) for end in ("", "_low", "_high")),
                           ".2f")
    elo = elo_cell(row.get("elo_bound") or None, *(float(row[key]) if row[key] else None
                                                   for key in ("elo", "elo_low", "elo_high")),
                   int(row["games"]))
    rating, pair = (elo, "") if row["pairing"] == ALL else ("", elo)
    return (row["pairing"], row["entrant"], row["games"],
            f"{row['wins']}-{row['losses']}-{row['shared']}", rate, rating, pair, margin,
            row["faults"])


def elo_cell(bound: str | None, elo: float | None, low: float | None,
             high: float | None, games: int | None = None) -> str:
    """An Elo with its 95% interval, a sweep's as what it is (`sweep_text`, over `games` when
    known), the anchor as such; an interval whose ends print alike as no spread, an unbounded
    end (the score clamp's) as infinite: never "[-0, +0]" or "[-1200, +1200]"."""
    if elo is None:
        return "-"
    if bound == "anchor":
        return f"{signed_elo(elo)} (Elo 0)"
    if (bound == "lower" and low is not None) or (bound == "upper" and high is not None):
        return sweep_text(bound, low, high, games)
    if low is None or high is None:  # no resampling asked for (--samples 0)
        return f"{signed_elo(elo)} (no interval)"
    if bound == "unmeasured" or signed_elo(low) == signed_elo(high):
        return f"{signed_elo(elo)} (no spread)"
    return f"{signed_elo(elo)} [{signed_elo(low)}, {signed_elo(high)}]"


def sweep_text(bound: str, low: float | None, high: float | None, games: int | None = None,
               said: bool = False) -> str:
    """A sweep (every game won: a `lower` bound, `low`; or lost: `upper`, `high`) as what it
    is, its one-sided 97.5% bound shown only on the side of the result: a sweep won bounded
    below at or under 0 is no evidence of strength yet (read as "> -34" it would say the
    opposite of the result), so it says so. `said`: a bound says what it is."""
    won = bound == "lower"
    limit = low if won else high
    swept = f"{'won' if won else 'lost'} all {games:,} games" if games is not None else (
        f"{'won' if won else 'lost'} every game")
    if (limit > 0) if won else (limit < 0):
        return (f"{swept}: {'at least' if won else 'at most'} {signed_elo(limit)}"
                + (" (a one-sided 97.5% bound)" if said else ""))
    return f"{swept}: too few deals to bound"


def signed_elo(value: float) -> str:
    """A whole Elo with its sign ("+0", never "-0"); an unbounded one (infinite, or at the
    score clamp) as +-inf."""
    if abs(value) >= ELO_CLAMP:
        return "+inf" if value > 0 else "-inf"
    return f"{round(value):+d}"


def interval_cell(value: float, low: float, high: float, spec: str) -> str:
    """A value with its interval, in `spec`; an interval of one point (every unit alike: no
    spread measured, as a margin in a rule set without points) as the value alone."""
    if low == high:
        return f"{value:{spec}} (no spread)"
    return f"{value:{spec}} [{low:{spec}}, {high:{spec}}]"
