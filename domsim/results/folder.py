"""The run folder's layout: which file holds what, and where the finished games are.

A run folder holds manifest.json (what produced the run: domsim.results.manifest), the games
table (games.parquet, or games.csv: domsim.results.table), summary.csv, run.log, records.jsonl
with --records, and while the run is unfinished its part files under parts/
(domsim.results.parts), each with a checksum file (domsim.results.checksums). Every file and
column is described in docs/SCHEMA.md."""

from __future__ import annotations

from pathlib import Path

from ..errors import DomsimError
from ..plan.config import OUTPUT_FORMATS

MANIFEST = "manifest.json"
SUMMARY = "summary.csv"
RECORDS = "records.jsonl"
PARTS = "parts"


class RunError(DomsimError):
    """A folder that holds no readable run; the message is one line."""


def games_file(out: Path, output_format: str) -> Path:
    return out / f"games.{output_format}"


def game_parts(out: Path) -> list[Path]:
    return sorted((out / PARTS).glob("games-*.parquet"))


def records_part(part: Path) -> Path:
    """The records part that goes with a games part."""
    return part.with_name(part.name.replace("games-", "records-").replace(".parquet", ".jsonl"))


def games_sources(path: Path, finished: bool = False) -> tuple[list[Path], Path | None]:
    """Where the finished games are: the parts while they exist (unless the run is `finished`:
    a run killed while removing them leaves some behind), else the games file (None: none)."""
    files = [games_file(path, form) for form in OUTPUT_FORMATS if games_file(path, form).is_file()]
    parts = [] if finished and files else game_parts(path)
    return parts, None if parts or not files else files[0]
