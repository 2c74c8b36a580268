"""The games table, one entry of COLUMNS per column: its name, its Arrow type, how its cell is
computed from a played game and where the game fell in the run, and how a table read back
checks it. docs/SCHEMA.md says what each column means.

A column is `per` seat (`faults_{}`: faults_0, faults_1, ...), `per` side or one. Its check is
SCHEDULED (the cell is what the run's schedule says for the game id: computed again from the
place alone and compared), a `Test` of the cell in its row, or None: any value of the type.
Only a `nullable` column may hold a null. `games_schema`, `game_row`, `scheduled_cells` and
`cell_problem` all read COLUMNS, so a new column is one entry here and its line in
docs/SCHEMA.md."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Protocol

import pyarrow as pa

from ..engine import State
from ..plan.config import is_integer
from ..plan.pairings import Entrant, pairing_label, seat_entrants, seat_specs
from ..plan.schedule import Slot
from ..record import fault_count, match_result
from ..rules import Rules
from ..spec import Spec

TIMING_PREFIX = "time_"
NAME = pa.dictionary(pa.int32(), pa.string())
#: Decision-time bucket (domsim.timing.time_bucket) -> decisions in it.
HISTOGRAM = pa.map_(pa.int16(), pa.int64())
#: The check of a cell the schedule decides.
SCHEDULED = "scheduled"


class PlayedGame(Protocol):
    """What a row reads of a finished game (domsim.game.PlayedGame)."""

    state: State
    faults: list[dict]
    timing: list[dict]

    @property
    def winners(self) -> list[int]: ...


@dataclass(frozen=True)
class Place:
    """Where a game falls in its run: the rules, the entrants, its pairing and its slot."""

    rules: Rules
    entrants: Sequence[Entrant]
    pairing: tuple[int, ...]
    slot: Slot

    @cached_property
    def names(self) -> list[str]:
        """The entrant's name at each seat."""
        return [self.entrants[e].name
                for e in seat_entrants(self.rules, self.pairing, self.slot.seating)]

    @cached_property
    def specs(self) -> list[Spec]:
        """The strategy spec at each seat."""
        return seat_specs(self.rules, list(self.entrants), self.pairing, self.slot.seating)


@dataclass
class Facts:
    """What a row's cells are computed from: the game's place and, once played, the game."""

    place: Place
    game: PlayedGame | None = None

    @cached_property
    def result(self) -> dict:
        return match_result(self.game.state)

    @property
    def hands(self) -> list:
        return self.game.state.hand_results

    @cached_property
    def winners(self) -> list[int]:
        return self.game.winners


#: A cell's test: (cell, its row, the rules) -> what no played game holds there (None: a
#: played game can hold it).
Test = Callable[[object, dict, Rules], str | None]


@dataclass(frozen=True)
class Column:
    name: str  # with `{}` where the seat or side goes
    type: pa.DataType
    compute: Callable[[Facts, int], object]  # (the game, its seat or side) -> the cell
    check: Test | str | None = None  # SCHEDULED, a test, or None: anything of the type
    per: str = ""  # "seat", "side" or "": one column
    nullable: bool = False  # a null is a cell a played game can have

    def names(self, players: int, sides: int) -> list[str]:
        if not self.per:
            return [self.name]
        return [self.name.format(n) for n in range(players if self.per == "seat" else sides)]


def options_hash(rules: Rules) -> str:
    """A short hash of everything that decides the rules of a game."""
    text = json.dumps([rules.name, rules.players, rules.options()], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def winning_names(names: list[str], winners: list[int]) -> list[str]:
    """The names of the entrants that won, each once, from the names at each seat."""
    return list(dict.fromkeys(names[seat] for seat in winners))


def seat_row(row: dict, prefix: str, rules: Rules) -> list:
    """A row's per-seat cells `prefix{seat}`, in seat order."""
    return [row[f"{prefix}{seat}"] for seat in range(rules.players)]


def _hand_count(cell: int, row: dict, rules: Rules) -> str | None:
    """A count of hands no larger than the hands played (and at least one hand played)."""
    return None if row["hands"] >= 1 and 0 <= cell <= row["hands"] else "hand counts no game has"


def _winners(cell: list, row: dict, rules: Rules) -> str | None:
    seats = set(range(rules.players))
    if cell and len(set(cell)) == len(cell) and set(cell) <= seats:
        return None
    return f"winners {cell!r}, which are not seats"


def _winner_entrants(cell: list, row: dict, rules: Rules) -> str | None:
    if cell == winning_names(seat_row(row, "entrant_", rules), row["winners"]):
        return None
    return f"winner_entrants {cell!r}, which are not its winners' names"


def _hand_points(cell: list, row: dict, rules: Rules) -> str | None:
    if len(cell) == row["hands"] and all(hand is not None and len(hand) == rules.sides
                                         and all(map(is_integer, hand)) for hand in cell):
        return None
    return f"hand_points that are not {rules.sides} integers for each of {row['hands']} hands"


def _fault_count(cell: int, row: dict, rules: Rules) -> str | None:
    return None if cell >= 0 else "a negative fault count"


def _histogram(cell: list[tuple[int, int]] | None, row: dict, rules: Rules) -> str | None:
    """A map read back: (bucket, count) pairs, the counts never negative (a seat that made no
    decision has an empty map, never a null)."""
    if cell is not None and all(count is not None and count >= 0 for _, count in cell):
        return None
    return "a decision-time histogram that is not counts per bucket"


def _timing(key: str) -> Callable[[Facts, int], object]:
    return lambda facts, seat: facts.game.timing[seat][key]


COLUMNS = (
    # in the run's range and once in the table (validate.table_problem)
    Column("game_id", pa.int64(), lambda f, _: f.place.slot.game_id),
    Column("deal_id", pa.int64(), lambda f, _: f.place.slot.deal_id, SCHEDULED),
    Column("pairing", NAME, lambda f, _: pairing_label(list(f.place.entrants), f.place.pairing),
           SCHEDULED),
    Column("seating", pa.int64(), lambda f, _: f.place.slot.seating, SCHEDULED),
    Column("variant", NAME, lambda f, _: f.place.rules.name, SCHEDULED),
    # not held to the rules: `variant` and the manifest's config are
    Column("options_hash", NAME, lambda f, _: options_hash(f.place.rules)),
    Column("seed", pa.int64(), lambda f, _: f.place.slot.seed, SCHEDULED),
    Column("seat_{}", NAME, lambda f, seat: f.place.specs[seat].text, SCHEDULED, per="seat"),
    Column("entrant_{}", NAME, lambda f, seat: f.place.names[seat], SCHEDULED, per="seat"),
    Column("winners", pa.list_(pa.int8()), lambda f, _: f.winners, _winners),
    Column("winner_entrants", pa.list_(pa.string()),
           lambda f, _: winning_names(f.place.names, f.winners), _winner_entrants),
    Column("score_{}", pa.int64(), lambda f, side: f.result["scores"][side], per="side"),
    Column("hands", pa.int64(), lambda f, _: len(f.hands), _hand_count),
    Column("blocked_hands", pa.int64(),
           lambda f, _: sum(hand.end == "blocked" for hand in f.hands), _hand_count),
    Column("capicu_hands", pa.int64(), lambda f, _: sum(hand.capicu for hand in f.hands),
           _hand_count),
    Column("dry", pa.bool_(), lambda f, _: f.result.get("dry", False)),
    Column("hand_points", pa.list_(pa.list_(pa.int64())),
           lambda f, _: [list(hand.points) for hand in f.hands], _hand_points),
    Column("faults_{}", pa.int64(), lambda f, seat: fault_count(f.game.faults[seat]),
           _fault_count, per="seat"),
    Column(f"{TIMING_PREFIX}p50_ms_{{}}", pa.float64(), _timing("p50_ms"), per="seat",
           nullable=True),
    Column(f"{TIMING_PREFIX}max_ms_{{}}", pa.float64(), _timing("max_ms"), per="seat",
           nullable=True),
    Column(f"{TIMING_PREFIX}hist_{{}}", HISTOGRAM,
           lambda f, seat: {int(k): n for k, n in f.game.timing[seat]["histogram"].items()},
           _histogram, per="seat", nullable=True),
)


def cells(rules: Rules) -> tuple[tuple[str, Column, int], ...]:
    """(name, column, seat or side) of every cell of a row, in the table's order."""
    return _cells(rules.players, rules.sides)


@cache  # every row written or checked asks for them
def _cells(players: int, sides: int) -> tuple[tuple[str, Column, int], ...]:
    return tuple((name, column, n) for column in COLUMNS
                 for n, name in enumerate(column.names(players, sides)))


def games_schema(rules: Rules) -> pa.Schema:
    """The games table of a run with these rules: one row per game (docs/SCHEMA.md)."""
    return pa.schema([(name, column.type) for name, column, _ in cells(rules)])


def game_row(place: Place, game: PlayedGame) -> dict:
    """The games-table row of one played game."""
    facts = Facts(place, game)
    return {name: column.compute(facts, n) for name, column, n in cells(place.rules)}


def scheduled_cells(place: Place) -> dict:
    """The cells the schedule decides for the game at `place`."""
    facts = Facts(place)
    return {name: column.compute(facts, n) for name, column, n in cells(place.rules)
            if column.check == SCHEDULED}


def cell_problem(rules: Rules, row: dict) -> str | None:
    """What no played game can hold in the row's own cells (the schedule's are checked
    against it apart), or None."""
    for name, column, _ in cells(rules):
        if row[name] is None and not column.nullable:
            return f"no {name}"
    for name, column, _ in cells(rules):
        if callable(column.check) and (problem := column.check(row[name], row, rules)):
            return problem
    return None
