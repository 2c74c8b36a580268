"""`domsim replay --run DIR`: a run's records checked against its manifest and games table, so a
record cannot claim another seating, seed, result or fault count than the run had. Each record
must say what the table's row of its game id says (who sat where, the seed of its deal, the
result, the faults), and every game of the table must have its record, once."""

from __future__ import annotations

from pathlib import Path

from .analysis import rows
from .plan.config import is_integer
from .record import read_records, verify
from .results.checksums import file_problem
from .results.folder import RECORDS
from .results.run import Run, load_run


def replayed(file: Path, run_dir: Path | None = None,
             stated: bool = True) -> tuple[list[dict], list[str]]:
    """Replay every record of `file` (`domsim replay`): the results each replay computes, and
    every problem found, one line each: an illegal action, a result the record states wrongly
    (unless `stated` is False: the file's results are ignored), and with `run_dir` (whose
    records.jsonl `file` may be) every disagreement with that run."""
    records = read_records(file)
    problems = []
    if run_dir is not None:
        run = load_run(run_dir)
        if file == run_dir / RECORDS:
            problems += [f"{file}: {problem}" for problem in
                         [file_problem(file, run.manifest.get("checksums", {}))] if problem]
        problems += audit_records(run, records)
    recomputed = []
    for index, record in enumerate(records):
        result, found = verify(record, index)
        if result is None or stated:
            problems += found
        if result is not None:
            recomputed.append(result)
    return recomputed, problems


def audit_records(run: Run, records: list[dict]) -> list[str]:
    """Every disagreement between the records and the run, one line each, in record order."""
    table = {row["game_id"]: row for row in rows(run)}
    problems, seen = [], set()
    for index, record in enumerate(records):
        game_id = record.get("game_id")
        where = f"record {index + 1} (game id {game_id!r})"
        if not is_integer(game_id) or game_id not in table:
            problems.append(f"{where}: not a finished game of the run in {run.path}")
        elif game_id in seen:
            problems.append(f"{where}: a second record of the same game")
        else:
            seen.add(game_id)
            for key, value in expected_record(run, table[game_id]).items():
                said = claimed(record, key)
                if said != value:
                    problems.append(f"{where}: {key} {said!r}, but the run has {value!r}")
    missing = sorted(set(table) - seen)
    if missing:
        problems.append(f"{len(missing)} game(s) of the run have no record, the first is game id "
                        f"{missing[0]}")
    return problems


def expected_record(run: Run, row: dict) -> dict:
    """What the record of the table's `row` must say (the row itself is the game the schedule
    put at its id: `load_run` checks that): who sat where with which seed, the result as
    scored (a forfeit's winners), the fault counts and what a fault cost."""
    seats = range(run.rules.players)
    return {
        "variant": run.rules.name,
        "run_seed": run.config.seed,
        "deal_id": row["deal_id"],
        "seed": row["seed"],
        "seats": [row[f"seat_{s}"] for s in seats],
        "entrants": [row[f"entrant_{s}"] for s in seats],
        "winners": sorted(row["winners"]),
        "scores": [row[f"score_{side}"] for side in range(run.rules.sides)],
        "faults": [row[f"faults_{s}"] for s in seats],
        "on_fault": run.config.on_fault,
    }


def claimed(record: dict, key: str) -> object:
    """What the record says for one of `expected_record`'s keys."""
    result = record.get("result") if isinstance(record.get("result"), dict) else {}
    if key == "on_fault":
        return record.get(key, "substitute")  # records of runs before forfeits substituted
    if key == "winners" and isinstance(record.get("forfeit"), dict):
        result = record["forfeit"]  # as the game is scored
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
