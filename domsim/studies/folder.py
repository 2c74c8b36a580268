"""A study's folder, for every study that loops over runs (calibration, the dial's tune, SPSA):
made once with the study's request in its file, held by one writer while a session plays in it,
read back to resume, and rewritten with the study's state after every run, `complete` last.
Each run of the study is a run folder of its own under it (runner.session)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..results.atomic import write_json
from ..runner.opening import new_folder, take_lock
from ..runner.session import default_out
from ..runner.tourney import RunFinished, TourneyError

T = TypeVar("T")
#: What reading a study's file raises when it is unreadable or not what a study writes.
UNREADABLE = (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError)


@dataclass(frozen=True)
class StudyFolder:
    """The folder `path` of a study (`what`: calibration, tune) whose request and state are
    kept in `file` (calibration.json, tune.json, spsa.json)."""

    path: Path
    file: str
    what: str

    @classmethod
    def given(cls, out: str | Path | None, resume: bool, file: str, what: str,
              name: str) -> StudyFolder:
        """The folder the user gave, else a new one under results/ named after `name`
        (TourneyError: --resume without one)."""
        if out is None and resume:
            raise TourneyError(f"--resume needs --out DIR: the folder of the {what}")
        return cls(Path(out) if out is not None else default_out(name), file, what)

    def create(self, content: dict) -> None:
        """Make the folder (refused if it exists: one study makes it) with `content` in its
        file, not complete."""
        new_folder(self.path, self.what)
        self.save(content)

    def save(self, content: dict, complete: bool = False) -> None:
        write_json(self.path / self.file, content | {"complete": complete})

    def content(self) -> dict:
        """What the study's file holds."""
        return json.loads((self.path / self.file).read_text(encoding="utf-8"))

    def read(self, make: Callable[[dict], T], resuming: bool = False) -> T:
        """`make` of what the study's file holds (TourneyError, one line: the file cannot be
        read, or is not what a study writes; `resuming` says so and to start a new study)."""
        try:
            return make(self.content())
        except UNREADABLE as exc:
            problem = f"cannot read the {self.what} in {self.path / self.file} " \
                      f"({type(exc).__name__})"
            raise TourneyError(f"--resume: {problem}: start a new {self.what}" if resuming
                               else problem) from None

    def saved(self, make: Callable[[dict], T]) -> T:
        """The study to resume, made by `make` from its file's content (TourneyError, one line:
        none to resume; RunFinished: the study is complete)."""
        if not (self.path / self.file).is_file():
            raise TourneyError(f"--resume: {self.path} holds no {self.file}: give the --out of "
                               f"a {self.what}")
        content, made = self.read(lambda content: (content, make(content)), resuming=True)
        if content.get("complete"):
            raise RunFinished(f"{self.path} is already complete: nothing to resume, nothing "
                              "changed")
        return made

    @contextmanager
    def held(self, command: Sequence[str]) -> Iterator[None]:
        """The folder for this writer alone while the study plays (TourneyError, one line: in
        use by another); each run under it is held on its own too."""
        lock = take_lock(self.path, command)
        try:
            yield
        finally:
            lock.release()
