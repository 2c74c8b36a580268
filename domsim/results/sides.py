"""The games of a games table seen by sides, whole columns at once (Arrow and numpy, no Python per
game): the entrant on each side, each side's share of the win, its points and its faults. What
the summary, the standings, the ratings and the points per hand all add up.

A side's share of a game is the share of the winners seated on it (no winner: an equal share for
every side). Its points are its points summed over the game's hands; in a run whose faults
forfeit, a forfeited game counts as one hand that the forfeiting sides lose by the whole target:
they score 0 and the others the target (kozel records points against: the reverse; classic has
no points), never the board points the stand-in played to."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..plan.pairings import Entrant, pairing_label
from ..rules import Rules


@dataclass
class Sides:
    """Per game g: its deal and pairing index, and per side j its entrant, share of the win,
    points and faults; and the hands the points were counted over."""

    deal: np.ndarray
    pairing: np.ndarray
    entrant: np.ndarray  # (games, sides)
    share: np.ndarray  # (games, sides)
    points: np.ndarray  # (games, sides)
    hands: np.ndarray
    faults: np.ndarray  # (games, sides)

    def points_of(self, e: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(the games entrant e played, its sides' mean points in them, the other sides' mean
        points: its own where it holds every side)."""
        own = self.entrant == e
        plays = own.any(axis=1)
        own, points = own[plays], self.points[plays]
        mine = (points * own).sum(axis=1) / own.sum(axis=1)
        others = (~own).sum(axis=1)
        theirs = np.where(others > 0, (points * ~own).sum(axis=1) / np.maximum(others, 1), mine)
        return plays, mine, theirs

    def margins(self, rules: Rules, e: int) -> tuple[np.ndarray, np.ndarray]:
        """(the games entrant e played, its points margin in each: `margin`)."""
        plays, mine, theirs = self.points_of(e)
        return plays, margin(rules, mine, theirs)


def margin(rules: Rules, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """An entrant's sides' mean points less the other sides'; kozel's sign turned, so higher is
    better."""
    return (theirs - mine) if rules.variant.points_against else (mine - theirs)


def sides_of(rules: Rules, entrants: list[Entrant], pairings: list[tuple[int, ...]],
             table: pa.Table, forfeits: bool) -> Sides:
    """The games of `table` (of a run with these rules, entrants and pairings) by sides;
    `forfeits`: the run's faults forfeit the game."""
    games, sides = table.num_rows, rules.sides
    pairing, entrant, share, won = shares_of(rules, entrants, pairings, table)
    side_of = seat_sides(rules)
    faults = np.zeros((games, sides))
    for seat in range(rules.players):
        faults[:, side_of[seat]] += column(table, f"faults_{seat}").to_numpy()
    points, hands = hand_totals(games, sides, column(table, "hand_points"))
    hands = hands.astype(np.int64)
    if forfeits:
        lost = faults > 0
        forfeited = lost.any(axis=1) & ~lost.all(axis=1)
        winner, loser = ((0, rules.target) if rules.variant.points_against
                         else (rules.target, 0))
        points[forfeited] = np.where(won[forfeited] > 0, winner, loser)
        hands[forfeited] = 1
    return Sides(column(table, "deal_id").to_numpy(), pairing, entrant, share, points, hands,
                 faults)


#: The columns `shares_of` reads.
SHARE_COLUMNS = ["deal_id", "pairing", "seating", "winners"]


def shares_of(rules: Rules, entrants: list[Entrant], pairings: list[tuple[int, ...]],
              table: pa.Table) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(each game's pairing index, the entrant on each side, each side's share of the win, the
    winners seated on each side), from SHARE_COLUMNS."""
    games, sides = table.num_rows, rules.sides
    pairing = codes(column(table, "pairing"),
                    [pairing_label(entrants, pairing) for pairing in pairings])
    seating = column(table, "seating").to_numpy()
    entrant = np.array(pairings, dtype=np.int64).reshape(len(pairings), sides)[
        pairing[:, None], (np.arange(sides)[None, :] - seating[:, None]) % sides]
    won = per_side(games, sides, column(table, "winners"), seat_sides(rules))
    count = won.sum(axis=1, keepdims=True)
    return pairing, entrant, np.where(count > 0, won / np.maximum(count, 1), 1 / sides), won


def seat_sides(rules: Rules) -> np.ndarray:
    """The side of each seat."""
    return np.array([rules.side_of(seat) for seat in range(rules.players)])


def codes(texts: pa.Array, known: list[str]) -> np.ndarray:
    """Each of `texts` as its index in `known` (-1: not among them)."""
    found = pc.index_in(texts, value_set=pa.array(known, type=pa.string()))
    return pc.fill_null(found, -1).to_numpy().astype(np.int64)


def column(table: pa.Table, name: str) -> pa.Array:
    """A column as one array, a dictionary column's as its strings."""
    values = table.column(name).combine_chunks()
    return values.dictionary_decode() if pa.types.is_dictionary(values.type) else values


def per_side(games: int, sides: int, seats: pa.Array, side_of: np.ndarray) -> np.ndarray:
    """How many of each game's listed seats sit on each side."""
    counts = np.zeros(games * sides)
    flat = seats.flatten().to_numpy().astype(np.int64)
    rows = pc.list_parent_indices(seats).to_numpy()
    np.add.at(counts, rows * sides + side_of[flat], 1)
    return counts.reshape(games, sides)


def hand_totals(games: int, sides: int, hand_points: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """(each side's points summed over each game's hands, each game's hands)."""
    hands = hand_points.flatten()
    game = pc.list_parent_indices(hand_points).to_numpy()
    points = hands.flatten().to_numpy().reshape(-1, sides)
    totals = np.stack([np.bincount(game, weights=points[:, side], minlength=games)
                       for side in range(sides)], axis=1)
    return totals, np.bincount(game, minlength=games)
