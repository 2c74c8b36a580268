"""Run folders of domsim 0.1, read as 0.1 wrote them, for `domsim upgrade` (domsim.upgrade)
to rewrite in this version's format; every other reader refuses them with `legacy_problem`.

0.1 wrote `winners` as text ("0,2"), `hand_points` and the time histograms as JSON text, no
entrant columns, records without their run seed, deal and entrants, and no checksums."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from .columns import TIMING_PREFIX
from .folder import RECORDS, RunError, game_parts, games_file, records_part

#: Versions whose run folders only `domsim upgrade` reads (untyped columns, no checksums).
LEGACY_VERSIONS = ("0.1.",)
#: The 0.1 CSV columns read as text: what is now a list or a map, and names (a hash or a spec
#: of digits alone would otherwise be read as a number).
LEGACY_TEXT = ("winners", "hand_points", "pairing", "variant", "options_hash")


def legacy_problem(manifest: dict, path: Path) -> str | None:
    """What to do with a run folder of an older format (None: it is of this one)."""
    version = str(manifest.get("domsim_version", ""))
    if not version.startswith(LEGACY_VERSIONS):
        return None
    return (f"{path} was written by domsim {version}, in an older format: convert it with "
            f"`domsim upgrade {path} NEW_DIR`, then use NEW_DIR")


def legacy_games(old: Path, manifest: dict) -> Iterator[tuple[dict, str | None]]:
    """Each finished game's row and record line (None without records), in game-id order: from
    the final files of a finished run, from its parts otherwise."""
    config = manifest["config"]
    records = config.get("records", False)
    if manifest.get("partial") is False:
        table = _legacy_table(games_file(old, config.get("output_format", "parquet")))
        lines = _lines(old / RECORDS) if records else None
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
        raise RunError(f"cannot read {path}: {exc}; upgrade needs the run's games "
                       "table") from None


def _lines(path: Path) -> Iterator[str]:
    try:
        with path.open(encoding="utf-8") as source:
            yield from (line for line in source if line.strip())
    except OSError as exc:
        raise RunError(f"cannot read {path}: {exc.strerror}") from None
