"""The run folder's files: the runner writes them, the analysis reads them.

A run folder holds manifest.json (what produced the run), the games table (games.parquet, or
games.csv), summary.csv, run.log, records.jsonl with --records, and while the run is unfinished
its part files under parts/. Every column is described in docs/SCHEMA.md.

The games table is typed: names are dictionary-encoded strings, `winners` a list of seats,
`winner_entrants` a list of names, `hand_points` a list (per hand) of lists (per side) and each
seat's decision-time histogram a map from bucket to count. games.parquet carries the manifest as
its key-value metadata (`domsim.manifest`). CSV cannot hold lists or maps: there those columns
are JSON text, and `read_games` turns them back into the same typed table."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from ..rules import Rules

MANIFEST = "manifest.json"
PARTS = "parts"
#: The key of games.parquet's metadata that holds the manifest (as JSON).
MANIFEST_KEY = "domsim.manifest"
TIMING_PREFIX = "time_"
NAME = pa.dictionary(pa.int32(), pa.string())
#: Decision-time bucket (domsim.timing.time_bucket) -> decisions in it.
HISTOGRAM = pa.map_(pa.int16(), pa.int64())


#: Versions whose run folders only `domsim upgrade` reads (untyped columns, no checksums).
LEGACY_VERSIONS = ("0.1.",)


def legacy_problem(manifest: dict, path: Path) -> str | None:
    """What to do with a run folder of an older format (None: it is of this one)."""
    version = str(manifest.get("domsim_version", ""))
    if not version.startswith(LEGACY_VERSIONS):
        return None
    return (f"{path} was written by domsim {version}, in an older format: convert it with "
            f"`domsim upgrade {path} NEW_DIR`, then use NEW_DIR")


def games_schema(rules: Rules) -> pa.Schema:
    """The games table of a run with these rules: one row per game (docs/SCHEMA.md)."""
    seats, sides = range(rules.players), range(rules.sides)
    columns = [("game_id", pa.int64()), ("deal_id", pa.int64()), ("pairing", NAME),
               ("seating", pa.int64()), ("variant", NAME), ("options_hash", NAME),
               ("seed", pa.int64())]
    columns += [(f"seat_{s}", NAME) for s in seats]
    columns += [(f"entrant_{s}", NAME) for s in seats]
    columns += [("winners", pa.list_(pa.int8())), ("winner_entrants", pa.list_(pa.string()))]
    columns += [(f"score_{side}", pa.int64()) for side in sides]
    columns += [("hands", pa.int64()), ("blocked_hands", pa.int64()),
                ("capicu_hands", pa.int64()), ("dry", pa.bool_()),
                ("hand_points", pa.list_(pa.list_(pa.int64())))]
    columns += [(f"faults_{s}", pa.int64()) for s in seats]
    columns += [(f"{TIMING_PREFIX}p50_ms_{s}", pa.float64()) for s in seats]
    columns += [(f"{TIMING_PREFIX}max_ms_{s}", pa.float64()) for s in seats]
    columns += [(f"{TIMING_PREFIX}hist_{s}", HISTOGRAM) for s in seats]
    return pa.schema(columns)


def with_manifest(schema: pa.Schema, manifest: dict) -> pa.Schema:
    return schema.with_metadata({MANIFEST_KEY: json.dumps(manifest)})


def game_parts(out: Path) -> list[Path]:
    return sorted((out / PARTS).glob("games-*.parquet"))


def file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as source:
        while chunk := source.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def checksum_path(part: Path) -> Path:
    return part.with_suffix(".sha256")


def records_part(part: Path) -> Path:
    return part.with_name(part.name.replace("games-", "records-").replace(".parquet", ".jsonl"))


def part_problem(part: Path) -> str | None:
    """Why the part (and the records that go with it) cannot be trusted, or None."""
    try:
        lines = checksum_path(part).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return "its checksum file is missing"
    except (OSError, UnicodeDecodeError) as exc:
        return f"its checksum file cannot be read ({exc})"
    expected = dict(line.split("  ", 1)[::-1] for line in lines if "  " in line)
    if part.name not in expected:
        return "its checksum file does not list it"
    for file in (part, records_part(part)):
        if file.name not in expected:
            continue
        try:
            if file_digest(file) != expected[file.name]:
                return f"{file.name} does not match its checksum"
        except OSError as exc:
            return f"{file.name} cannot be read ({exc.strerror})"
    return None


def games_sources(path: Path, finished: bool = False) -> tuple[list[Path], Path | None]:
    """Where the finished games are: the parts while they exist (unless the run is `finished`:
    a run killed while removing them leaves some behind), else the games file (None: none)."""
    files = [path / name for name in ("games.parquet", "games.csv") if (path / name).is_file()]
    parts = [] if finished and files else game_parts(path)
    return parts, None if parts or not files else files[0]


def read_games(path: Path, schema: pa.Schema, finished: bool = False) -> pa.Table:
    """The finished games in game-id order, from `games_sources`."""
    parts, file = games_sources(path, finished)
    if parts:
        table = pa.concat_tables(pq.read_table(part, schema=schema) for part in parts)
    elif file is None:
        return schema.empty_table()
    elif file.suffix == ".parquet":
        table = pq.read_table(file, schema=schema)
    else:
        table = read_csv_games(file, schema)
    return table.sort_by("game_id")


# -- CSV: lists and maps as JSON text -----------------------------------------------------------
def _is_nested(kind: pa.DataType) -> bool:
    return pa.types.is_list(kind) or pa.types.is_map(kind)


def _as_text(kind: pa.DataType) -> bool:
    return _is_nested(kind) or pa.types.is_dictionary(kind)


def csv_schema(schema: pa.Schema) -> pa.Schema:
    """The games table as CSV holds it: lists and maps as JSON, names as plain strings."""
    return pa.schema([pa.field(f.name, pa.string()) if _as_text(f.type) else f for f in schema])


def csv_table(table: pa.Table) -> pa.Table:
    """`table` in the CSV schema."""
    columns = []
    for field, column in zip(table.schema, table.columns, strict=True):
        if _is_nested(field.type):
            column = pa.array([json.dumps(value) for value in column.to_pylist()], pa.string())
        elif pa.types.is_dictionary(field.type):
            column = column.cast(pa.string())
        columns.append(column)
    return pa.table(columns, schema=csv_schema(table.schema))


def read_csv_games(path: Path, schema: pa.Schema) -> pa.Table:
    options = pacsv.ConvertOptions(column_types=csv_schema(schema), strings_can_be_null=False)
    text = pacsv.read_csv(path, convert_options=options)
    columns = []
    for field, column in zip(schema, text.columns, strict=True):
        if pa.types.is_map(field.type):
            column = pa.array([[tuple(pair) for pair in json.loads(value)]
                               for value in column.to_pylist()], field.type)
        elif _is_nested(field.type):
            column = pa.array([json.loads(value) for value in column.to_pylist()], field.type)
        elif pa.types.is_dictionary(field.type):
            column = column.dictionary_encode()
        columns.append(column)
    return pa.table(columns, schema=schema)
