"""Writing a file whole or not at all: through a temporary file beside it and `os.replace`, so
a crash or a full disk leaves the old file (or none), never half a new one."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


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
    write_atomic(path, strict_json(data, indent=2) + "\n")


def strict_json(data: object, indent: int | None = None) -> str:
    """`data` as standard JSON: an infinite or nan float (a sweep's rating, an open end) is
    null, where the line's `bound` or `one_sided` says which end is open."""
    return json.dumps(finite(data), indent=indent, allow_nan=False)


def finite(data: object) -> object:
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: finite(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [finite(value) for value in data]
    return data
