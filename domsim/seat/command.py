"""Which specs leave the process, and how each is started (`bot_command`): the program an
`exec:` spec names, or domsim's seat host loading a strategy file or module in a process of its
own; the files that define it, for the manifest and the sandbox."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from ..spec import Spec
from ..strategy import StrategyError, check_registered, existing_file


@dataclass(frozen=True)
class BotCommand:
    """How to start one bot: its argv and working folder, the files that define it (the
    program and scripts it names, or the strategy file the host loads, as the spec names them),
    and where those are in this process (what the sandbox must show it)."""

    spec: Spec
    argv: tuple[str, ...]
    cwd: str
    files: tuple[str, ...]
    found: tuple[str, ...] = ()
    python_path: tuple[str, ...] = ()  # where a module spec's module is found

    def about(self) -> dict:
        """For the manifest: the spec, the command, and a sha256 of each file that defines it."""
        return {"spec": self.spec.text, "origin": f"process: {shlex.join(self.argv)}",
                "files": {name: _digest(Path(self.cwd, name)) for name in self.files}}


def _digest(path: Path) -> str:
    """The sha256 of a file, or of a folder's files (their names and contents, in order)."""
    if not path.is_dir():
        return hashlib.sha256(path.read_bytes()).hexdigest()
    digest = hashlib.sha256()
    for file in sorted(f for f in path.rglob("*") if f.is_file()):
        digest.update(str(file.relative_to(path)).encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()


def bot_command(spec: Spec, isolate: bool | None) -> BotCommand | None:
    """The process a spec runs in, or None for a strategy played in process: a built-in level,
    any spec but `exec:` when `isolate` is False, and a class defined in the session, which
    exists only in this process and its forks (`check_spec` refuses one when `isolate` is
    True)."""
    return _command_in(spec, isolate, os.getcwd())


@functools.lru_cache(maxsize=256)
def _command_in(spec: Spec, isolate: bool | None, cwd: str) -> BotCommand | None:
    """`bot_command` run from `cwd`, worked out once per worker: a tourney asks it every game."""
    if spec.kind == "exec":
        return _exec_command(spec, cwd)
    if isolate is False or spec.trusted or spec.kind == "session":
        return None
    if spec.kind == "name":  # a registered name: known here, or a typo
        check_registered(spec.target.strip())
    # A file shipped to this process (a Dask worker) is loaded from its copy; the host runs
    # elsewhere than here (in the sandbox, in /tmp): the path is made absolute.
    argv = (sys.executable, "-m", "domsim.seat.host")
    extra = spec.files
    if spec.path:
        found = str(existing_file(spec.path).resolve())
        return BotCommand(spec, (*argv, spec.text.replace(spec.path, found, 1)), cwd,
                          (spec.path, *extra), (found, *_found(extra, cwd)))
    origin, root = _module_origin(spec.module)
    return BotCommand(spec, (*argv, spec.text), cwd, (*origin, *extra),
                      (*origin, *_found(extra, cwd)), root)


def _names_path(cwd: str, arg: str) -> bool:
    """Whether a command's argument names a file or folder of the bot's (an argument too long
    to be a path, or otherwise no path, is just an argument; the current folder and those above
    it are never the bot's: `.` would show it every run kept there)."""
    try:
        path = Path(cwd, arg).resolve()
        return path.is_file() or path.is_dir() and not Path(cwd).resolve().is_relative_to(path)
    except (OSError, ValueError, RuntimeError):
        return False


def _found(files: tuple[str, ...], cwd: str) -> tuple[str, ...]:
    """The absolute paths of the files and folders a spec's `files=` names (StrategyError for
    one that does not exist, or for the current folder or one above it)."""
    for name in files:
        if not Path(cwd, name).exists():
            raise StrategyError(f"file {name!r} named by files= not found (looked in {cwd}): "
                                "check the path")
        if not _names_path(cwd, name):
            raise StrategyError(f"files= names {name!r}, the current folder or one above it: "
                                "name the bot's own files and folders")
    return tuple(str(Path(cwd, name).resolve()) for name in files)


def _module_origin(module: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The file (or, for a package, the folder) of the top-level module a `module:Class` spec
    names, and the folder it is imported from (for the sandbox, which shows the bot only its
    own files); nothing for a registered name ("") or a module not found."""
    try:
        found = importlib.util.find_spec(module.partition(".")[0]) if module else None
    except (ImportError, ValueError):
        return (), ()
    origin = found.origin if found else None
    if not origin or not Path(origin).is_file():
        return (), ()
    package = found.submodule_search_locations is not None
    own = Path(origin).parent if package else Path(origin)
    return (str(own.resolve()),), (str(own.resolve().parent),)


def in_process_reason(spec: Spec, isolate: bool | None) -> str:
    """How a spec `bot_command` keeps in process plays, and why, for the manifest."""
    if spec.trusted:
        return "in process (a built-in level)"
    if spec.kind == "session":
        return "in process (defined in this Python session)"
    return "in process (--in-process): it can read the referee's memory" if isolate is False \
        else "in process"


def _exec_command(spec: Spec, cwd: str) -> BotCommand:
    try:
        argv = shlex.split(spec.command)
    except ValueError as exc:
        raise StrategyError(f"cannot read the command of {spec.text!r}: {exc}: check its "
                            "quotes") from None
    if not argv:
        raise StrategyError(f"{spec.text!r} names no program: write exec:PROGRAM [ARGUMENTS]")
    program = argv[0]
    if os.sep not in program and shutil.which(program) is None:
        raise StrategyError(f"{spec.text!r}: program {program!r} is not on PATH: give its path")
    if os.sep in program and not os.access(Path(cwd, program), os.X_OK):
        raise StrategyError(f"{spec.text!r}: {program} is not an executable file (looked in "
                            f"{cwd}): check the path and chmod +x")
    files = tuple(arg for arg in argv if _names_path(cwd, arg))
    return BotCommand(spec, tuple(argv), cwd, files, tuple(str(Path(cwd, f)) for f in files))
