"""Whether a games table can be what its run played: every row is the game its id names in the
run's schedule (deal, pairing, seating, seed, who sat where), once, with cells a played game can
have. The statistics read nothing else, so a table edited by hand or taken from another run is
refused in one line instead of breaking a formula."""

from __future__ import annotations

import pyarrow as pa

from ..rules import Rules
from .config import TourneyConfig, is_integer
from .folder import TIMING_PREFIX
from .pairings import Entrant, pairing_label, seat_entrants, seat_specs
from .schedule import Schedule


def table_problem(config: TourneyConfig, rules: Rules, entrants: list[Entrant],
                  pairings: list[tuple[int, ...]], table: pa.Table) -> str | None:
    """The first row that its run cannot have played, and why; None if every row can be."""
    schedule = Schedule(config.games, len(pairings), rules.sides, config.duplicate, config.seed)
    seen: set[int] = set()
    for batch in table.to_batches():
        for row in batch.to_pylist():
            problem = cell_problem(rules, config.games, row, seen) or next(
                (f"{key} {row[key]!r}, but the schedule has {value!r}" for key, value in
                 scheduled(rules, entrants, pairings, schedule, row["game_id"]).items()
                 if row[key] != value), None)
            if problem:
                return f"game id {row['game_id']}: {problem}"
    return None


def scheduled(rules: Rules, entrants: list[Entrant], pairings: list[tuple[int, ...]],
              schedule: Schedule, game_id: int) -> dict:
    """The games-table cells the schedule decides for a game id."""
    slot = schedule.slot(game_id)
    pairing = pairings[slot.pairing]
    seats = seat_specs(rules, entrants, pairing, slot.seating)
    names = [entrants[e].name for e in seat_entrants(rules, pairing, slot.seating)]
    return {"variant": rules.name, "deal_id": slot.deal_id,
            "pairing": pairing_label(entrants, pairing),
            "seating": slot.seating, "seed": slot.seed,
            **{f"seat_{seat}": spec for seat, spec in enumerate(seats)},
            **{f"entrant_{seat}": name for seat, name in enumerate(names)}}


def cell_problem(rules: Rules, games: int, row: dict, seen: set[int]) -> str | None:
    """What no played game can hold in its own cells (and the game id's range and uniqueness,
    recorded in `seen`)."""
    empty = [key for key, value in row.items()
             if value is None and not key.startswith(TIMING_PREFIX)]
    if empty:
        return f"no {empty[0]}"
    game_id, hands = row["game_id"], row["hands"]
    if not 0 <= game_id < games:
        return f"outside the run's {games} games"
    if game_id in seen:
        return "a second row"
    seen.add(game_id)
    if hands < 1 or not 0 <= row["blocked_hands"] <= hands or not 0 <= row["capicu_hands"] <= hands:
        return "hand counts no game has"
    winners = row["winners"]
    if not winners or len(set(winners)) < len(winners) or not set(winners) <= set(
            range(rules.players)):
        return f"winners {winners!r}, which are not seats"
    names = [row[f"entrant_{seat}"] for seat in range(rules.players)]
    if row["winner_entrants"] != list(dict.fromkeys(names[seat] for seat in winners)):
        return f"winner_entrants {row['winner_entrants']!r}, which are not its winners' names"
    if any(row[f"faults_{seat}"] < 0 for seat in range(rules.players)):
        return "a negative fault count"
    if not is_hand_points(row["hand_points"], hands, rules.sides):
        return f"hand_points that are not {rules.sides} integers for each of {hands} hands"
    if not all(is_histogram(row[f"{TIMING_PREFIX}hist_{seat}"]) for seat in range(rules.players)):
        return "a decision-time histogram that is not counts per bucket"
    return None


def is_hand_points(points: list, hands: int, sides: int) -> bool:
    return (len(points) == hands
            and all(hand is not None and len(hand) == sides
                    and all(map(is_integer, hand)) for hand in points))


def is_histogram(counts: list[tuple[int, int]] | None) -> bool:
    """A map column read back: (bucket, count) pairs, the counts never negative (a seat that
    made no decision has an empty map, never a null)."""
    return counts is not None and all(count is not None and count >= 0 for _, count in counts)
