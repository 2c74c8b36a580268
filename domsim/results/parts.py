"""A run's part files: every finished batch is written as its own part (`parts/games-<first
id>.parquet`, with its records and its checksum file), whole or absent, so the set of parts is
exactly what `--resume` trusts and what the statistics of an unfinished run read."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .atomic import replacing, write_atomic
from .checksums import checksum_path, part_problem, write_checksums
from .folder import PARTS, game_parts


def write_part(out: Path, games: pa.Table, records: list[str]) -> None:
    """One finished batch: its records, its games' checksum, then its games (a games-table
    slice, whose file marks the batch as done)."""
    parts = out / PARTS
    name = f"{games.column('game_id')[0].as_py():09d}"
    written = []
    if records:
        written.append(parts / f"records-{name}.jsonl")
        write_atomic(written[-1], "".join(line + "\n" for line in records))
    path = parts / f"games-{name}.parquet"
    with replacing(path) as temp:
        pq.write_table(games, temp)
        write_checksums(checksum_path(path),
                        {path.name: temp, **{record.name: record for record in written}})


def done_game_ids(out: Path) -> set[int]:
    done: set[int] = set()
    for part in game_parts(out):
        done.update(pq.read_table(part, columns=["game_id"]).column("game_id").to_pylist())
    return done


def records_parts(out: Path) -> list[Path]:
    return sorted((out / PARTS).glob("records-*.jsonl"))


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
    for leftover in [*records_parts(out), *parts.glob("games-*.sha256")]:
        if leftover.stem.replace("records-", "games-") not in finished:
            leftover.unlink()
    return damaged
