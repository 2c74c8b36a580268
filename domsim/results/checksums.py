"""The sha256 of a run's files, so that a file damaged or edited after it was written is found:
each part has a checksum file beside it (sha256sum format, written before the part appears),
and the manifest's `checksums` hold those of the final games file and records."""

from __future__ import annotations

import hashlib
from pathlib import Path

from .atomic import write_atomic
from .folder import MANIFEST, RECORDS, games_file, records_part


def file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as source:
        while chunk := source.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def checksum_path(part: Path) -> Path:
    return part.with_suffix(".sha256")


def write_checksums(path: Path, files: dict[str, Path]) -> None:
    """`path` in sha256sum format: the digest of each file (as it is now) under its name."""
    write_atomic(path, "".join(f"{file_digest(file)}  {name}\n" for name, file in files.items()))


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


def run_checksums(out: Path, output_format: str, records: bool) -> dict[str, str]:
    """The manifest's `checksums`: sha256 of the games file and records the statistics read."""
    files = [games_file(out, output_format), *([out / RECORDS] if records else [])]
    return {file.name: file_digest(file) for file in files}


def file_problem(file: Path, checksums: dict) -> str | None:
    """Whether a finished run's games file differs from the checksum its manifest records (runs
    without one are read as they are)."""
    expected = checksums.get(file.name) if isinstance(checksums, dict) else None
    if expected is None:
        return None
    return None if file_digest(file) == expected else "does not match its checksum in " + MANIFEST
