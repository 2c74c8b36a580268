"""`domsim replay --run DIR`: a run's records checked against its manifest and games table, so a
record cannot claim another seating, seed, result or fault count than the run had. Each record
must be the game the schedule put at its game id (who sat where, the seed of its deal), with the
table row's result and faults; every game of the table must have its record, once."""

from __future__ import annotations

from ..analysis import Run, rows
from ..record import is_int
from .pairings import seat_specs
from .schedule import Schedule


def audit_records(run: Run, records: list[dict]) -> list[str]:
    """Every disagreement between the records and the run, one line each, in record order."""
    schedule = Schedule(run.config.games, len(run.pairings), run.rules.sides,
                        run.config.duplicate, run.config.seed)
    table = {row["game_id"]: row for row in rows(run)}
    problems, seen = [], set()
    for index, record in enumerate(records):
        game_id = record.get("game_id")
        where = f"game {index} (game id {game_id!r})"
        if not is_int(game_id) or game_id not in table:
            problems.append(f"{where}: not a finished game of the run in {run.path}")
        elif game_id in seen:
            problems.append(f"{where}: a second record of the same game")
        else:
            seen.add(game_id)
            for key, value in expected_record(run, schedule, table[game_id]).items():
                said = claimed(record, key)
                if said != value:
                    problems.append(f"{where}: {key} {said!r}, but the run has {value!r}")
    missing = sorted(set(table) - seen)
    if missing:
        problems.append(f"{len(missing)} game(s) of the run have no record, the first is game id "
                        f"{missing[0]}")
    return problems


def expected_record(run: Run, schedule: Schedule, row: dict) -> dict:
    """What the record of the table's `row` must say: where the schedule seated whom, with which
    seed, and the row's result and fault counts."""
    slot = schedule.slot(row["game_id"])
    seats = range(run.rules.players)
    return {
        "variant": run.rules.name,
        "run_seed": run.config.seed,
        "deal_id": slot.deal_id,
        "seed (schedule)": slot.seed,
        "seed (games table)": row["seed"],
        "seats (schedule)": seat_specs(run.rules, run.entrants, run.pairings[slot.pairing],
                                       slot.seating),
        "seats (games table)": [row[f"seat_{s}"] for s in seats],
        "winners": [int(seat) for seat in row["winners"].split(",") if seat],
        "scores": [row[f"score_{side}"] for side in range(run.rules.sides)],
        "faults": [row[f"faults_{s}"] for s in seats],
    }


def claimed(record: dict, key: str) -> object:
    """What the record says for one of `expected_record`'s keys."""
    key = key.partition(" ")[0]
    result = record.get("result") if isinstance(record.get("result"), dict) else {}
    if key == "winners":
        try:
            return sorted(result.get(key) or [])
        except TypeError:
            return result.get(key)
    if key == "scores":
        return result.get(key)
    if key == "faults":
        faults = record.get("faults")
        try:
            return [seat["timeouts"] + seat["errors"] + seat["illegal"] for seat in faults]
        except (TypeError, KeyError):
            return faults
    return record.get(key)
