"""The summary: per entrant over all pairings and per pairing, games, wins, losses, shared games,
win rate (Wilson 95% interval; a shared game counts as the entrant's share of the winners), points
margin per game and per hand (95% interval) and faults. Its Elo columns are the statistics'
(domsim.analysis.summary_lines): over all pairings the entrant's one rating, per pairing its head
to head over deals. Also the standings a run shows while it plays (their Elo: the win rate's
against the field, a running estimate).

The margin interval is taken over *units* — one deal of one pairing, i.e. all its seatings — not
over games, because the seatings of a duplicate deal are correlated; a unit's value is the
entrant's mean margin over its games. Rows must arrive in game-id order, in which each unit's
games are consecutive, so only running sums are kept and memory stays flat."""

from __future__ import annotations

import csv
import io
from array import array
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..dialcurve import level_indices
from ..record import forfeit_winners
from ..rules import Rules
from ..stats import (
    ELO_CLAMP,
    bootstrap_ratings,
    moments_interval,
    wilson_interval,
)
from .atomic import write_atomic
from .config import TourneyConfig
from .folder import SUMMARY
from .pairings import Entrant, pairing_label

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

    def add(self, value: float) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value

    def interval(self) -> tuple[float, float, float]:
        return moments_interval(self.n, self.total, self.squares)


@dataclass
class Line:
    """One summary line being accumulated."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    shared: int = 0
    share: float = 0.0
    faults: int = 0
    faulted: int = 0  # games in which a seat of the entrant faulted
    per_game: Moments = field(default_factory=Moments)
    per_hand: Moments = field(default_factory=Moments)
    unit: object = None
    unit_sums: list[float] = field(default_factory=lambda: [0.0, 0.0, 0])

    def add(self, unit: object, share: float, margin: float, hands: int, faults: int) -> None:
        if unit != self.unit:
            self.close_unit()
            self.unit = unit
        self.games += 1
        self.share += share
        self.wins += share == 1
        self.losses += share == 0
        self.shared += 0 < share < 1
        self.faults += faults
        self.faulted += faults > 0
        self.unit_sums[0] += margin
        self.unit_sums[1] += margin / hands
        self.unit_sums[2] += 1

    def close_unit(self) -> None:
        game_sum, hand_sum, count = self.unit_sums
        if count:
            self.per_game.add(game_sum / count)
            self.per_hand.add(hand_sum / count)
        self.unit_sums = [0.0, 0.0, 0]

    def rate(self) -> tuple[float, float, float]:
        """(win rate, its Wilson interval); needs no closed unit, so it can be read while games
        come in."""
        low, high = wilson_interval(self.share, self.games)
        return self.share / self.games if self.games else 0.0, low, high

    def values(self) -> list:
        """The line's columns, its Elo columns (the statistics') left empty."""
        self.close_unit()
        self.unit = None
        return [self.games, self.wins, self.losses, self.shared, *self.rate(),
                None, None, None, None, *self.per_game.interval(), *self.per_hand.interval(),
                self.faults]


def outcome(rules: Rules, sides: set[int], winners: list[int]) -> float:
    """An entrant's share of a game's win: 1 win, 0 loss, in between shared (no winner: even)."""
    if not winners:
        return len(sides) / rules.sides
    mine = sum(rules.side_of(seat) in sides for seat in winners)
    return mine / len(winners)


def side_outcome(rules: Rules, pairing: tuple[int, ...], seating: int,
                 winners: list[int]) -> tuple[list[int], list[float]]:
    """(entrant on each side, each side's share of the win) of a game: seating r puts slot
    (side - r) mod sides on each side (R-DUP); the shares are the summary's."""
    return (side_entrants(rules, pairing, seating),
            [outcome(rules, {side}, winners) for side in range(rules.sides)])


def side_entrants(rules: Rules, pairing: tuple[int, ...], seating: int) -> list[int]:
    return [pairing[(side - seating) % rules.sides] for side in range(rules.sides)]


def margin(rules: Rules, sides: set[int], hand_points: list[list[int]]) -> float:
    """The entrant's points minus its opponents' (mean per side), summed over the hands; kozel
    records points against a side, so its sign is turned."""
    totals = [sum(column) for column in zip(*hand_points, strict=True)]
    if not totals:
        return 0.0
    mine = [t for side, t in enumerate(totals) if side in sides]
    theirs = [t for side, t in enumerate(totals) if side not in sides] or mine
    total = sum(mine) / len(mine) - sum(theirs) / len(theirs)
    return -total if rules.variant.points_against else total


def faults_forfeit(config: TourneyConfig) -> bool:
    """Whether a fault in the run forfeits the game (else the stand-in's moves count)."""
    return config.on_fault == "forfeit"


def counted_points(rules: Rules, row: dict, forfeits: bool) -> list[list[int]]:
    """A game's points per hand as the figures count them. In a run whose faults forfeit
    (`forfeits`), a forfeited game is one hand that the forfeiting sides lose by the whole
    target: they score 0, the others the target (kozel records points against: the reverse;
    classic has no points), never the board points the stand-in played to."""
    if forfeits:
        faulted = [row[f"faults_{seat}"] > 0 for seat in range(rules.players)]
        if forfeit_winners(rules, faulted, row["winners"]) is not None:
            winning = {rules.side_of(seat) for seat in row["winners"]}
            won, lost = ((0, rules.target) if rules.variant.points_against
                         else (rules.target, 0))
            return [[won if side in winning else lost for side in range(rules.sides)]]
    return row["hand_points"]


class Tally:
    """Summary lines fed with games-table rows in game-id order; `forfeits`: the run's faults
    forfeit the game (`counted_points`)."""

    def __init__(self, rules: Rules, entrants: list[Entrant],
                 pairings: list[tuple[int, ...]], forfeits: bool = False) -> None:
        self.rules = rules
        self.forfeits = forfeits
        # Every game's deal, entrant on each side and share of each side: the live standings'
        # joint ratings, on the scale of the final table's.
        self.deals, self.on_sides, self.shares = array("q"), array("q"), array("d")
        self.entrants = entrants
        self.pairings = {pairing_label(entrants, p): p for p in pairings}
        self.lines: dict[tuple[str, int], Line] = {(ALL, e): Line() for e in range(len(entrants))}
        for label, pairing in self.pairings.items():
            for e in dict.fromkeys(pairing):
                self.lines[label, e] = Line()

    def add(self, row: dict) -> None:
        rules, label = self.rules, row["pairing"]
        pairing = self.pairings[label]
        winners = row["winners"]
        hand_points = counted_points(rules, row, self.forfeits)
        on_sides, shares = side_outcome(rules, pairing, row["seating"], winners)
        self.deals.append(row["deal_id"])
        self.on_sides.extend(on_sides)
        self.shares.extend(shares)
        for e in dict.fromkeys(pairing):
            sides = {side for side in range(rules.sides)
                     if pairing[(side - row["seating"]) % rules.sides] == e}
            faults = sum(row[f"faults_{s}"] for s in range(rules.players)
                         if rules.side_of(s) in sides)
            values = (outcome(rules, sides, winners), margin(rules, sides, hand_points),
                      len(hand_points), faults)
            unit = (label, row["deal_id"])
            self.lines[label, e].add(unit, *values)
            self.lines[ALL, e].add(unit, *values)

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
                                   len(names), samples=0, centre=level_indices(names))
        order = sorted(range(len(names)), key=lambda e: (-fitted.ratings.elo[e],
                                                         -self.lines[ALL, e].share))
        rows = [("#", "entrant", "games", "W-L-S", "points", "score", "Elo", "faults")]
        for rank, e in enumerate(order, 1):
            line = self.lines[ALL, e]
            bound = fitted.bounds[e]
            elo = (elo_cell(bound, fitted.ratings.elo[e], fitted.low[e], fitted.high[e])
                   if bound in ("lower", "upper") else signed_elo(fitted.ratings.elo[e]))
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
    """A short text table of summary.csv for the terminal, columns sized to their contents."""
    header = ("pairing", "entrant", "games", "W-L-S", "win rate [95% CI]", "Elo [95% CI]",
              "margin/game [95% CI]", "faults")
    with path.open(encoding="utf-8", newline="") as source:
        rows = [_summary_cells(row) for row in csv.DictReader(source)]
    return columns([header, *rows])


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
                                                   for key in ("elo", "elo_low", "elo_high")))
    return (row["pairing"], row["entrant"], row["games"],
            f"{row['wins']}-{row['losses']}-{row['shared']}", rate, elo, margin, row["faults"])


def elo_cell(bound: str | None, elo: float | None, low: float | None,
             high: float | None) -> str:
    """An Elo with its 95% interval, a sweep's as its one-sided bound, the anchor as such; an
    interval whose ends print alike as no spread, an unbounded end (the score clamp's) as
    infinite: never "[-0, +0]" or "[-1200, +1200]"."""
    if elo is None:
        return "-"
    if bound == "anchor":
        return f"{signed_elo(elo)} (Elo 0)"
    if bound == "lower" and low is not None:
        return f"> {signed_elo(low)}"
    if bound == "upper" and high is not None:
        return f"< {signed_elo(high)}"
    if low is None or high is None:  # no resampling asked for (--samples 0)
        return f"{signed_elo(elo)} (no interval)"
    if bound == "unmeasured" or signed_elo(low) == signed_elo(high):
        return f"{signed_elo(elo)} (no spread)"
    return f"{signed_elo(elo)} [{signed_elo(low)}, {signed_elo(high)}]"


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
