"""Result files: the games table (one row per game), its part files, records, and atomic writes.

Crash safety: every finished batch is written as its own part file (`parts/games-<first id>.*`)
through a temporary file and `os.replace`, so a part is either whole or absent, and the set of
parts is exactly what `--resume` trusts. Each part carries a checksum file (`sha256sum` format,
written before the part appears) so a part damaged or edited later is found, by `--resume` (which
plays its games again) and by the statistics (which refuse it). The final `games.parquet`/
`games.csv` and `records.jsonl` are assembled from the parts in game-id order, one part at a time
(memory stays flat), again through a temporary file; the parts are removed only once every game
is in."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from ..game import PlayedGame
from ..record import fault_count, match_result
from ..results.folder import (  # noqa: F401 (checksum_path and file_digest: the writer's names too)
    PARTS,
    TIMING_PREFIX,
    checksum_path,
    csv_schema,
    csv_table,
    file_digest,
    game_parts,
    part_problem,
    with_manifest,
)
from ..results.pairings import Entrant, pairing_label, seat_entrants
from ..results.schedule import Slot
from ..rules import Rules

#: Rows per row group of games.parquet. One per part would do, but a writer keeps every row
#: group's metadata (with column statistics) until it closes: memory would grow with the games.
ROW_GROUP_ROWS = 5_000


def options_hash(rules: Rules) -> str:
    """A short hash of everything that decides the rules of a game."""
    text = json.dumps([rules.name, rules.players, rules.options()], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def game_row(rules: Rules, rules_hash: str, slot: Slot, entrants: list[Entrant],
             pairing: tuple[int, ...], game: PlayedGame) -> dict:
    """The games-table row of one played game; `rules_hash` is `options_hash(rules)`."""
    result, hands = match_result(game.state), game.state.hand_results
    row = {"game_id": slot.game_id, "deal_id": slot.deal_id,
           "pairing": pairing_label(entrants, pairing), "seating": slot.seating,
           "variant": rules.name, "options_hash": rules_hash, "seed": slot.seed}
    row.update({f"seat_{s}": spec for s, spec in enumerate(game.specs)})
    row["winners"] = game.winners
    row.update(entrant_columns(rules, entrants, pairing, slot.seating, row["winners"]))
    row.update({f"score_{side}": score for side, score in enumerate(result["scores"])})
    row.update({
        "hands": len(hands),
        "blocked_hands": sum(hand.end == "blocked" for hand in hands),
        "capicu_hands": sum(hand.capicu for hand in hands),
        "dry": result.get("dry", False),
        "hand_points": [list(hand.points) for hand in hands],
    })
    for s, (faults, timing) in enumerate(zip(game.faults, game.timing, strict=True)):
        row[f"faults_{s}"] = fault_count(faults)
        row[f"{TIMING_PREFIX}p50_ms_{s}"] = timing["p50_ms"]
        row[f"{TIMING_PREFIX}max_ms_{s}"] = timing["max_ms"]
        row[f"{TIMING_PREFIX}hist_{s}"] = {int(k): n for k, n in timing["histogram"].items()}
    return row


def entrant_columns(rules: Rules, entrants: list[Entrant], pairing: tuple[int, ...],
                    seating: int, winners: list[int]) -> dict:
    """The entrant of every seat, and the winning entrants, of a game in this seating."""
    names = [entrants[e].name for e in seat_entrants(rules, pairing, seating)]
    return {**{f"entrant_{s}": name for s, name in enumerate(names)},
            "winner_entrants": list(dict.fromkeys(names[s] for s in winners))}


# -- atomic files ---------------------------------------------------------------------------------
def temp_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.tmp")


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A temporary file to write, that replaces `path` when the block ends well and is removed
    when it fails (a full disk, say), so a failed write leaves nothing behind."""
    temp = temp_path(path)
    try:
        yield temp
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)


def write_atomic(path: Path, text: str) -> None:
    with replacing(path) as temp:
        temp.write_text(text, encoding="utf-8")


def write_json(path: Path, data: dict) -> None:
    write_atomic(path, json.dumps(data, indent=2) + "\n")


# -- parts ----------------------------------------------------------------------------------------
def write_part(out: Path, schema: pa.Schema, game_ids: tuple[int, ...], rows: list[dict],
               records: list[str]) -> None:
    """One finished batch: its records, its rows' checksum, then its rows (the rows mark the
    batch as done)."""
    parts = out / PARTS
    name = f"{game_ids[0]:09d}"
    written = []
    if records:
        written.append(parts / f"records-{name}.jsonl")
        write_atomic(written[-1], "".join(line + "\n" for line in records))
    path = parts / f"games-{name}.parquet"
    with replacing(path) as temp:
        pq.write_table(pa.Table.from_pylist(rows, schema=schema), temp)
        sums = [(file_digest(temp), path.name)]
        sums += [(file_digest(record), record.name) for record in written]
        write_atomic(checksum_path(path), "".join(f"{hex}  {file}\n" for hex, file in sums))


def done_game_ids(out: Path) -> set[int]:
    done: set[int] = set()
    for part in game_parts(out):
        done.update(pq.read_table(part, columns=["game_id"]).column("game_id").to_pylist())
    return done


def read_rows(out: Path) -> Iterator[dict]:
    """Every finished row, in game-id order, one part in memory at a time."""
    for part in game_parts(out):
        yield from pq.read_table(part).to_pylist()


def assemble(out: Path, schema: pa.Schema, output_format: str, records: bool,
             manifest: dict) -> Path:
    """Write games.<format> (and records.jsonl) from the parts, atomically; return the table.
    The Parquet file carries the manifest as metadata; CSV holds lists and maps as JSON."""
    path = out / f"games.{output_format}"
    parquet = output_format == "parquet"
    with replacing(path) as temp, _writer(temp, schema, parquet, manifest) as writer:
        group: list[pa.Table] = []
        rows = 0
        for part in game_parts(out):
            group.append(pq.read_table(part, schema=schema))
            rows += len(group[-1])
            if rows >= ROW_GROUP_ROWS:
                writer.write_table(_for_file(pa.concat_tables(group), parquet))
                group, rows = [], 0
        if group:
            writer.write_table(_for_file(pa.concat_tables(group), parquet))
    if records:
        with replacing(out / "records.jsonl") as temp, temp.open("w", encoding="utf-8") as target:
            for part in sorted((out / PARTS).glob("records-*.jsonl")):
                target.write(part.read_text(encoding="utf-8"))
    return path


def _writer(temp: Path, schema: pa.Schema, parquet: bool, manifest: dict):
    if parquet:
        return pq.ParquetWriter(str(temp), with_manifest(schema, manifest))
    return pacsv.CSVWriter(str(temp), csv_schema(schema))


def _for_file(table: pa.Table, parquet: bool) -> pa.Table:
    return table if parquet else csv_table(table)


def remove_parts(out: Path) -> None:
    for part in (out / PARTS).iterdir():
        part.unlink()
    (out / PARTS).rmdir()


def clean_parts(out: Path) -> list[str]:
    """Drop what a crash may leave (temp files, records and checksums of a batch whose rows are
    absent) and every damaged part, so its games are played again; say which parts were
    damaged and how."""
    parts = out / PARTS
    for temp in parts.glob(".*.tmp"):
        temp.unlink()
    damaged = []
    for part in game_parts(out):
        problem = part_problem(part)
        if problem:
            damaged.append(f"{part}: {problem}")
            part.unlink()  # first: a part without its rows is no longer trusted
    finished = {part.stem for part in game_parts(out)}
    for leftover in [*parts.glob("records-*.jsonl"), *parts.glob("games-*.sha256")]:
        if leftover.stem.replace("records-", "games-") not in finished:
            leftover.unlink()
    return damaged
