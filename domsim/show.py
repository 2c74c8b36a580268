"""`domsim show`: any game of a run, or of a records file, as a transcript. A run's game comes from
its records.jsonl when the run kept records, else it is played again from its seed and seats
exactly as the run's worker played it (R-RNG), and checked against the run's games table.

Games are named as stored: a run's by its game id (0, 1, ...), a file's by its game id when it
has one, else by its place in the file counting from 1, as replay's messages name them."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow.compute as pc

from .audit import claimed, expected_record
from .record import RecordError, game_label, read_records
from .results.folder import RECORDS, RunError
from .results.run import Run
from .runner.tourney import Tourney
from .runner.worker import play_batch
from .seat.seats import log as fault_log


@dataclasses.dataclass(frozen=True)
class ShownGame:
    record: dict
    index: int  # its place in the file it came from (0: the first)
    name: str  # which game of which run or file
    how: str = ""  # how it was found, after the name in the header line
    problems: tuple[str, ...] = ()  # how a game played again differs from the run's

    @property
    def source(self) -> str:
        """Where it came from, for the header line."""
        return f"{self.name}, {self.how}" if self.how else self.name


def run_game(run: Run, game_id: int) -> ShownGame:
    """Game `game_id` of the run (RunError if it is not one of its finished games)."""
    ids = run.table["game_id"]
    found = run.table.filter(pc.equal(ids, game_id)).to_pylist()
    if not found:
        raise RunError(f"the run in {run.path} has no finished game {game_id}: its game ids are "
                       f"{_ranges(sorted(ids.to_pylist()))}")
    stored = run.path / RECORDS
    if stored.is_file():
        record = _stored(stored, game_id)
        if record is not None:
            return ShownGame(record, 0, f"game id {game_id} of {run.path}", f"from {stored.name}")
    config = dataclasses.replace(run.config, records=True)
    with _faults_untold():
        result = play_batch(Tourney.of(config, run.path).batch([game_id]))
    record = json.loads(result.records[0])
    problems = tuple(f"played again, {key} is {claimed(record, key)!r}, but the run has "
                     f"{value!r}" for key, value in expected_record(run, found[0]).items()
                     if claimed(record, key) != value)
    return ShownGame(record, 0, f"game id {game_id} of {run.path}", "played again from its seed "
                     "and seats (the run kept no records)", problems)


@contextmanager
def _faults_untold() -> Iterator[None]:
    """A game played again tells its faults in its result (`by forfeit (...: exception at hand
    2)`), not as warnings with tracebacks, as the run's log did when it was played."""
    saved, fault_log.disabled = fault_log.disabled, True
    try:
        yield
    finally:
        fault_log.disabled = saved


def file_game(path: Path, game: int | None) -> ShownGame:
    """Game `game` of a records file: the record with that game id, or for records without one,
    the game-th of the file from 1; None: the file's only game."""
    records = read_records(path)
    if game is None:
        if len(records) > 1:
            raise RecordError(f"{path} holds {len(records)} games: choose one with --game N")
        game = records[0].get("game_id", 1)
    for index, record in enumerate(records):
        if game_label(record, index) in (f"game id {game}", f"game {game}"):
            return ShownGame(record, index, f"{game_label(record, index)} of {path}")
    raise RecordError(f"{path} has no game {game}: give a game id it holds, or for records "
                      f"without one a place from 1 to {len(records)}")


def _stored(path: Path, game_id: int) -> dict | None:
    """The record of `game_id` in a run's records.jsonl (each line starts with its game id)."""
    prefix = f'{{"game_id": {game_id},'
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.startswith(prefix):
                return json.loads(line)
    return None


def _ranges(ids: list[int]) -> str:
    """0-99, 120-139: the ids as runs of consecutive numbers."""
    runs: list[list[int]] = []
    for game_id in ids:
        if runs and game_id == runs[-1][1] + 1:
            runs[-1][1] = game_id
        else:
            runs.append([game_id, game_id])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs)
