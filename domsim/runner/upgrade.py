"""`domsim upgrade`: a run folder written by domsim 0.1 rewritten, in a new folder, in this
version's format (docs/SCHEMA.md), so that stats, report, replay and --resume read it.

0.1 wrote `winners` as text ("0,2"), `hand_points` and the time histograms as JSON text, no
entrant columns, records without their run seed, deal and entrants, and no checksums. Every one
of these is derived again from the row and the run's settings; nothing is played, and the old
folder is only read. A partial run comes out partial (its finished games), to be resumed."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import closing
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from .. import __version__
from ..record import seal
from ..results.columns import TIMING_PREFIX, Place, winning_names
from ..results.config import TourneyConfig
from ..results.finish import finish
from ..results.folder import MANIFEST, game_parts, legacy_problem, records_part
from ..results.manifest import Outcome, manifest_config, now, read_manifest
from ..results.parts import write_part
from .tourney import Tourney, TourneyError, open_tourney

#: The 0.1 CSV columns read as text: what is now a list or a map, and names (a hash or a spec
#: of digits alone would otherwise be read as a number).
LEGACY_TEXT = ("winners", "hand_points", "pairing", "variant", "options_hash")
BATCH = 1000


def upgrade_run(old: Path, new: Path, command: Sequence[str]) -> Outcome:
    """Write the run in `old` (0.1) to the new folder `new`; returns its games done of total."""
    if not (old / MANIFEST).is_file():
        raise TourneyError(f"{old} holds no {MANIFEST}: give the folder of a domsim 0.1 run")
    manifest = read_manifest(old)
    if legacy_problem(manifest, old) is None:
        raise TourneyError(f"{old} is not a run of an older format (domsim "
                           f"{manifest.get('domsim_version')}): nothing to upgrade")
    tourney = open_tourney(TourneyConfig.from_dict(manifest_config(manifest, old)), new, False,
                           command)
    with closing(tourney):
        done = 0
        for rows, records in _batches(legacy_games(old, manifest)):
            converted = [upgrade_row(tourney, row) for row in rows]
            lines = [upgrade_record(tourney, row, line) for row, line in zip(converted, records,
                                                                              strict=True)]
            write_part(new, tourney.schema, tuple(r["game_id"] for r in converted), converted,
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


def legacy_games(old: Path, manifest: dict) -> Iterator[tuple[dict, str | None]]:
    """Each finished game's row and record line (None without records), in game-id order: from
    the final files of a finished run, from its parts otherwise."""
    config = manifest["config"]
    records = config.get("records", False)
    if manifest.get("partial") is False:
        table = _legacy_table(old / f"games.{config.get('output_format', 'parquet')}")
        lines = _lines(old / "records.jsonl") if records else None
        for row in table.to_pylist():
            yield row, next(lines) if lines else None
        return
    for part in game_parts(old):
        lines = _lines(records_part(part)) if records else None
        for row in pq.read_table(part).to_pylist():
            yield row, next(lines) if lines else None


def _legacy_table(path: Path) -> pa.Table:
    try:
        if path.suffix == ".parquet":
            return pq.read_table(path)
        names = pacsv.read_csv(path).column_names
        text = {name: pa.string() for name in names
                if name in LEGACY_TEXT or name.startswith((f"{TIMING_PREFIX}hist_", "seat_"))}
        return pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(column_types=text))
    except (OSError, pa.ArrowException) as exc:
        raise TourneyError(f"cannot read {path}: {exc}; upgrade needs the run's games "
                           "table") from None


def _lines(path: Path) -> Iterator[str]:
    try:
        with path.open(encoding="utf-8") as source:
            yield from (line for line in source if line.strip())
    except OSError as exc:
        raise TourneyError(f"cannot read {path}: {exc.strerror}") from None


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


