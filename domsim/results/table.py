"""The games table as a file: assembled from the parts when a session ends, and read back.

The table is typed (domsim.results.columns): names are dictionary-encoded strings, `winners` a
list of seats, `winner_entrants` a list of names, `hand_points` a list (per hand) of lists (per
side) and each seat's decision-time histogram a map from bucket to count. games.parquet carries
the manifest as its key-value metadata (`domsim.manifest`). CSV cannot hold lists or maps:
there those columns are JSON text, and `read_games` turns them back into the same typed table.
Both are written in game-id order through a temporary file, a part at a time, or where the
parts' games interleave (a run whose batches each held one pairing: domsim.runner.play.
by_pairing) a block of rounds' parts at a time, sorted: memory stays flat."""

from __future__ import annotations

import contextlib
import heapq
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from .atomic import replacing
from .folder import RECORDS, game_parts, games_file, games_sources
from .parts import records_parts

#: The key of games.parquet's metadata that holds the manifest (as JSON).
MANIFEST_KEY = "domsim.manifest"
#: Rows per row group of games.parquet. One per part would do, but a writer keeps every row
#: group's metadata (with column statistics) until it closes: memory would grow with the games.
ROW_GROUP_ROWS = 5_000
#: Records files merged at once (`_merge_records`): well under the 1,024 files a process may
#: commonly hold open.
MERGED_AT_ONCE = 64


def assemble(out: Path, schema: pa.Schema, output_format: str, records: bool,
             manifest: dict) -> Path:
    """Write games.<format> (and records.jsonl) from the parts, atomically; return the table.
    The Parquet file carries the manifest as metadata; CSV holds lists and maps as JSON."""
    path = games_file(out, output_format)
    parquet = output_format == "parquet"
    runs = _overlapping_runs(game_parts(out))
    with replacing(path) as temp, _writer(temp, schema, parquet, manifest) as writer:
        for group in _row_groups(runs, schema):
            writer.write_table(_for_file(group, parquet))
    if records:
        with replacing(out / RECORDS) as temp, temp.open("w", encoding="utf-8") as target:
            if all(len(run) == 1 for run in runs):
                for part in records_parts(out):
                    target.write(part.read_text(encoding="utf-8"))
            else:
                _merge_records(records_parts(out), target)
    return path


def _overlapping_runs(parts: list[Path]) -> list[list[Path]]:
    """The parts (none empty) in runs whose game ids overlap, each run's games after the last
    run's: one part a run where each part's games come before the next part's; the parts of
    one block of rounds a run where batches of one pairing each interleave (runner.play.
    by_pairing), so that a run, not the whole table, is what is sorted in memory."""
    spans = []
    for part in parts:
        ids = pq.read_table(part, columns=["game_id"]).column("game_id")
        if len(ids):
            spans.append((pc.min(ids).as_py(), pc.max(ids).as_py(), part))
    runs: list[list[Path]] = []
    reach = -1
    for first, last, part in sorted(spans, key=lambda span: span[0]):
        if runs and first <= reach:
            runs[-1].append(part)
        else:
            runs.append([part])
        reach = max(reach, last)
    return runs


def _row_groups(runs: list[list[Path]], schema: pa.Schema) -> Iterator[pa.Table]:
    """The games of `runs` in game-id order, in groups of at least `ROW_GROUP_ROWS` rows."""
    group: list[pa.Table] = []
    rows = 0
    for run in runs:
        table = pa.concat_tables(pq.read_table(part, schema=schema) for part in run)
        group.append(table if len(run) == 1 else table.sort_by("game_id"))
        rows += len(table)
        if rows >= ROW_GROUP_ROWS:
            yield pa.concat_tables(group)
            group, rows = [], 0
    if group:
        yield pa.concat_tables(group)


def _merge_records(parts: list[Path], target: TextIO) -> None:
    """Write the records of `parts`, each in game-id order, merged into game-id order a line at
    a time (memory stays flat), `MERGED_AT_ONCE` files at a time: a long run has a part a batch,
    more than a process may hold open. Merges of merges are kept beside the parts as temporary
    files (a resume sweeps what a crash leaves) and removed."""
    made: list[Path] = []
    try:
        while len(parts) > MERGED_AT_ONCE:
            merged = []
            for start in range(0, len(parts), MERGED_AT_ONCE):
                merged.append(parts[0].parent / f".merged-{len(made):06d}.jsonl.tmp")
                made.append(merged[-1])
                with merged[-1].open("w", encoding="utf-8") as into:
                    _merge_into(parts[start:start + MERGED_AT_ONCE], into)
            parts = merged
        _merge_into(parts, target)
    finally:
        for path in made:
            path.unlink(missing_ok=True)


def _merge_into(parts: list[Path], target: TextIO) -> None:
    with contextlib.ExitStack() as opened:
        files = [opened.enter_context(part.open(encoding="utf-8")) for part in parts]
        target.writelines(heapq.merge(*files, key=_record_game_id))


def _record_game_id(line: str) -> int:
    """The game id of a record line as the worker writes it, `{"game_id": N, ...`."""
    return int(line.split(",", 1)[0].split(":", 1)[1])


def with_manifest(schema: pa.Schema, manifest: dict) -> pa.Schema:
    return schema.with_metadata({MANIFEST_KEY: json.dumps(manifest)})


def _writer(temp: Path, schema: pa.Schema, parquet: bool, manifest: dict):
    if parquet:
        return pq.ParquetWriter(str(temp), with_manifest(schema, manifest))
    return pacsv.CSVWriter(str(temp), csv_schema(schema))


def _for_file(table: pa.Table, parquet: bool) -> pa.Table:
    return table if parquet else csv_table(table)


def read_games(path: Path, schema: pa.Schema, finished: bool = False,
               columns: list[str] | None = None) -> pa.Table:
    """The finished games in game-id order, from `games_sources`: every column, or `columns`."""
    parts, file = games_sources(path, finished)
    wanted = None if columns is None else list(dict.fromkeys(["game_id", *columns]))
    if parts:
        table = pa.concat_tables(pq.read_table(part, schema=schema, columns=wanted)
                                 for part in parts)
    elif file is None:
        table = schema.empty_table()
    elif file.suffix == ".parquet":
        table = pq.read_table(file, schema=schema, columns=wanted)
    else:
        table = read_csv_games(file, schema)
    table = table if wanted is None else table.select(wanted)
    ids = table.column("game_id").to_numpy()
    if (ids[1:] >= ids[:-1]).all():  # as written: sorting would copy the whole table
        return table
    return table.sort_by("game_id")


def table_manifest(file: Path) -> dict:
    """The manifest games.parquet carries (KeyError if it carries none)."""
    return json.loads(pq.read_schema(file).metadata[MANIFEST_KEY.encode()])


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
