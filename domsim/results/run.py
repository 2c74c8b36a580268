"""A run read back from its folder: manifest.json for the settings, then the part files while
they exist (a partial or running run: they hold every finished game) or else the games file,
each checked against its checksum, the manifest against the copy games.parquet carries, and
every game against the run's schedule. What the statistics, the report and the API read."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from ..plan.config import TourneyConfig
from ..plan.pairings import Entrant, make_pairings, parse_entrants
from ..rules import Rules
from ..strategy import one_line
from .checksums import file_problem, part_problem
from .columns import games_schema
from .folder import MANIFEST, RunError, games_sources
from .legacy import legacy_problem
from .manifest import read_manifest
from .table import read_games, table_manifest
from .validate import table_problem


@dataclass
class Run:
    """A run folder read back: its settings, entrants, pairings and finished games."""

    path: Path
    manifest: dict
    config: TourneyConfig
    rules: Rules
    entrants: list[Entrant]
    pairings: list[tuple[int, ...]]
    table: pa.Table

    @property
    def names(self) -> list[str]:
        return [entrant.name for entrant in self.entrants]

    @property
    def seatings_per_deal(self) -> int:
        return self.rules.sides if self.config.duplicate else 1


def load_run(path: Path) -> Run:
    """Read the run in `path` (RunError if there is none, it has no finished game, or a file
    is damaged or edited)."""
    if not path.is_dir():
        raise RunError(f"{path} is not a folder: give the --out folder of a tourney")
    manifest = read_manifest(path)
    if problem := legacy_problem(manifest, path):
        raise RunError(problem)
    try:
        config = TourneyConfig.from_dict(manifest["config"])
        rules = config.rules()
        entrants = parse_entrants(config.entrant_names(), rules)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RunError(f"cannot read {path / MANIFEST}: {one_line(exc)}") from None
    pairings = make_pairings(len(entrants), rules.sides, config.format)
    finished = manifest.get("partial") is False
    table = read_checked_games(path, rules, manifest.get("checksums", {}), finished)
    if problem := manifest_problem(path, config, finished):
        raise RunError(problem)
    if table.num_rows == 0:
        raise RunError(f"{path} holds no finished game yet")
    run = Run(path, manifest, config, rules, entrants, pairings, table)
    check_games(run)
    return run


def read_checked_games(path: Path, rules: Rules, checksums: dict, finished: bool) -> pa.Table:
    """The finished games (`read_games`), each file checked against its checksum first: a part
    against its own, the games file against the manifest's."""
    schema = games_schema(rules)
    parts, file = games_sources(path, finished)
    for source, problem in ([(part, part_problem(part)) for part in parts] if parts else
                            [(file, file_problem(file, checksums))] if file else []):
        if problem:
            raise RunError(f"{source}: {problem}: {damaged_hint(path)}")
    try:
        return read_games(path, schema, finished)
    except (pa.ArrowException, OSError, ValueError, KeyError, TypeError) as exc:
        raise RunError(f"cannot read the games in {path} as this domsim's games table "
                       f"(docs/SCHEMA.md): {one_line(exc)}; a run written by another domsim "
                       f"version is read by that version, otherwise {damaged_hint(path)}") from None


def manifest_problem(path: Path, config: TourneyConfig, finished: bool) -> str | None:
    """Whether manifest.json's settings differ from the copy games.parquet carries in its
    metadata (CSV and part files carry none: their rows are checked against the schedule)."""
    _, file = games_sources(path, finished)
    if file is None or file.suffix != ".parquet":
        return None
    try:
        own = table_manifest(file)["config"]
        differs = "; ".join(f"{key} {said!r}, the games' {played!r}" for key, said, played
                            in config.differences(TourneyConfig.from_dict(own)))
    except (KeyError, TypeError, ValueError, RecursionError, pa.ArrowException):
        return None  # no copy to hold it to (a table written by hand, say)
    if not differs:
        return None
    return (f"{path / MANIFEST} does not match the run its games table holds ({differs}): the "
            "manifest was edited or comes from another run; restore it")


def damaged_hint(path: Path) -> str:
    return (f"the file was damaged or edited; if the run is partial, `domsim tourney --out {path} "
            "--resume` plays its games again, else run the tourney again")


def check_games(run: Run) -> None:
    """Every game is one the run's schedule holds, with cells a played game can have."""
    problem = table_problem(run.config, run.rules, run.entrants, run.pairings, run.table)
    if problem:
        raise RunError(f"the games of {run.path} hold {problem}: the files were edited or come "
                       "from different runs")

