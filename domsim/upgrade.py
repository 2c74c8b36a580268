"""`domsim upgrade`: a run folder written by domsim 0.1 (read by domsim.results.legacy)
rewritten, in a new folder, in this version's format (docs/SCHEMA.md), so that stats, report,
replay and --resume read it. What 0.1 did not write is derived again from the row and the run's
settings; nothing is played, and the old folder is only read. A partial run comes out partial
(its finished games), to be resumed."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import closing
from pathlib import Path

import pyarrow as pa

from .plan.config import TourneyConfig
from .plan.games import Plan
from .record import seal
from .results.columns import TIMING_PREFIX, Place, winning_names
from .results.finish import finish
from .results.folder import MANIFEST
from .results.legacy import legacy_games, legacy_problem
from .results.manifest import Outcome, manifest_config, now, read_manifest
from .results.parts import write_part
from .runner.opening import open_tourney
from .runner.tourney import Tourney, TourneyError
from .version import __version__

BATCH = 1000


def upgrade_run(old: Path, new: Path, command: Sequence[str]) -> Outcome:
    """Write the run in `old` (0.1) to the new folder `new`; returns its games done of total."""
    if not (old / MANIFEST).is_file():
        raise TourneyError(f"{old} holds no {MANIFEST}: give the folder of a domsim 0.1 run")
    manifest = read_manifest(old)
    if legacy_problem(manifest, old) is None:
        raise TourneyError(f"{old} is not a run of an older format (domsim "
                           f"{manifest.get('domsim_version')}): nothing to upgrade")
    tourney = open_tourney(Plan.of(TourneyConfig.from_dict(manifest_config(manifest, old))), new,
                           False, command, keep_seeds=True)
    with closing(tourney):
        done = 0
        for rows, records in _batches(legacy_games(old, manifest)):
            converted = [upgrade_row(tourney, row) for row in rows]
            lines = [upgrade_record(tourney, row, line) for row, line in zip(converted, records,
                                                                              strict=True)]
            write_part(new, pa.Table.from_pylist(converted, schema=tourney.schema),
                       lines if tourney.config.records else [])
            done += len(rows)
        upgraded = {**manifest, "domsim_version": __version__,
                    "upgraded": {"from": str(old.resolve()),
                                 "domsim_version": manifest.get("domsim_version"), "at": now()}}
        session = {"command": list(command), "upgrade": True, "started": now()}
        upgraded["sessions"] = [*manifest.get("sessions", []), session]
        outcome = Outcome(done, tourney.config.games, 0)
        finish(tourney, upgraded, session, outcome, None)
    return outcome


def _batches(games: Iterator[tuple[dict, str | None]]) -> Iterator[tuple[list, list]]:
    rows, records = [], []
    for row, record in games:
        rows.append(row)
        records.append(record)
        if len(rows) == BATCH:
            yield rows, records
            rows, records = [], []
    if rows:
        yield rows, records


def upgrade_row(tourney: Tourney, row: dict) -> dict:
    """A 0.1 row in this version's columns."""
    if not isinstance(row.get("winners"), str):
        raise TourneyError(f"game id {row.get('game_id')}: its winners are not 0.1's text: this "
                           "is not a run folder of domsim 0.1")
    slot = tourney.schedule.slot(row["game_id"])
    names = Place(tourney.rules, tourney.entrants, tourney.pairings[slot.pairing], slot).names
    winners = [int(seat) for seat in row["winners"].split(",") if seat != ""]
    new = {**row, "winners": winners, "hand_points": json.loads(row["hand_points"]),
           **{f"entrant_{seat}": name for seat, name in enumerate(names)},
           "winner_entrants": winning_names(names, winners)}
    for seat in range(tourney.rules.players):
        key = f"{TIMING_PREFIX}hist_{seat}"
        new[key] = {int(k): n for k, n in json.loads(row[key] or "{}").items()}
    return new


def upgrade_record(tourney: Tourney, row: dict, line: str | None) -> str | None:
    """A 0.1 record with the run seed, deal and entrants this version's records carry, the
    mark that its deals are its seed's (0.1 dealt with the same generator), its fault policy
    (0.1 substituted) and its digest."""
    if line is None:
        return None
    record = json.loads(line)
    entrants = [row[f"entrant_{seat}"] for seat in range(tourney.rules.players)]
    return json.dumps(seal({"game_id": record.pop("game_id"), "run_seed": tourney.config.seed,
                            "deal_id": row["deal_id"], "entrants": entrants, **record,
                            "dealt_from_seed": True, "on_fault": "substitute"}))


