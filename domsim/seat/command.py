"""Which specs leave the process, and how each is started (`bot_command`): the program an
`exec:` spec names, or domsim's seat host loading a strategy file or module in a process of its
own; the files that define it, for the manifest and the sandbox, each checked to be the bot's
own (`_check_own`): no link out of its folder, no run folder, no file too big to digest."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import shlex
import shutil
import stat
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..results.folder import MANIFEST
from ..seeding import run_key
from ..spec import Spec
from ..strategy import StrategyError, check_registered, existing_file, local_file

#: How a Python starts domsim's seat host (`python -m domsim.seat.host SPEC`).
HOST = ("-m", "domsim.seat.host")


@dataclass(frozen=True)
class BotCommand:
    """How to start one bot: its argv and working folder, the files that define it (the
    program and scripts it names, or the strategy file the host loads, as the spec names them),
    and where those are in this process (what the sandbox must show it). Two are equal when they
    start the same process: the seat's spec is not compared, since a strategy's parameters go
    with each game (Spec.without_parameters), so a pool hands one process to specs that differ
    only in them, as a tune's nudged values do."""

    spec: Spec = field(compare=False)
    argv: tuple[str, ...]
    cwd: str
    files: tuple[str, ...]
    found: tuple[str, ...] = ()
    python_path: tuple[str, ...] = ()  # where a module spec's module is found

    @property
    def hosted(self) -> bool:
        """Whether domsim's own seat host runs it (a strategy file or module), which plays
        `host.TABLES` games at once; an `exec:` program offers what it likes."""
        return self.argv[1:3] == HOST

    def about(self) -> dict:
        """For the manifest: the spec, the command, and a sha256 of each file that defines it."""
        return {"spec": self.spec.text, "origin": f"process: {shlex.join(self.argv)}",
                "files": {name: _digest(Path(self.cwd, name)) for name in self.files}}

    def check_not_holding(self, folder: Path, what: str) -> None:
        """StrategyError when a path of the bot's holds `folder` (`what`: the run's --out)."""
        inside = Path(os.path.abspath(folder)).resolve()
        for name, found in zip(self.files, self.found, strict=False):
            if inside.is_relative_to(Path(found).resolve()):
                raise StrategyError(f"{self.spec.text!r} names {name!r}, which holds {what} "
                                    f"{folder}: a bot is shown only its own files")


#: The largest file a bot's spec may name (its digest, for the manifest, is read in chunks).
MAX_BOT_FILE_BYTES = 4 << 30
_CHUNK = 1 << 20


def _digest(path: Path) -> str:
    """The sha256 of a file, or of a folder's files (their names and contents, in order; a link
    inside by its target's name, as the sandbox shows it: not followed)."""
    digest = hashlib.sha256()
    if not path.is_dir():
        _hash_file(path, digest)
        return digest.hexdigest()
    for file in _files_under(path):
        digest.update(str(file.relative_to(path)).encode() + b"\0")
        if file.is_symlink():
            digest.update(b"-> " + os.readlink(file).encode())
        elif stat.S_ISREG(file.lstat().st_mode):  # not a pipe, which no one may ever write
            _hash_file(file, digest)
    return digest.hexdigest()


def _hash_file(path: Path, digest) -> None:
    with path.open("rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)


def _files_under(folder: Path) -> list[Path]:
    """Every file and link under `folder`, in order, links to folders not followed."""
    return sorted(Path(root, name) for root, folders, files in os.walk(folder)
                  for name in (*files, *(f for f in folders if Path(root, f).is_symlink())))


def _check_own(spec: Spec, names: tuple[str, ...], cwd: str, code: str | None = None) -> None:
    """StrategyError, in one line, for a path a spec names (as `files=` or an `exec:` argument)
    that is not the bot's own: one that is, or passes through, a link resolving outside the
    folder holding the link (the links of the user's own folders, above the current one or the
    bot's `code`, are not the bot's; its code itself, a strategy file or an `exec:` program,
    may be a link); one in or holding a domsim run folder (its manifest says the seed and key);
    one holding a file over `MAX_BOT_FILE_BYTES`, or code that big."""
    here = Path(cwd)
    code_folder = Path(os.path.normpath(Path(cwd, code))).parent if code else here
    _check_sizes(spec, [Path(cwd, code).resolve()] if code else [])
    for name in names:
        path = Path(os.path.normpath(Path(cwd, name)))
        base = next((folder for folder in (here, code_folder) if path.is_relative_to(folder)),
                    path.parent)
        step = base
        for part in path.relative_to(base).parts:
            step = step / part
            if step.is_symlink() and not step.resolve().is_relative_to(step.parent.resolve()):
                raise StrategyError(f"{spec.text!r}: {name!r} passes through {step}, a link to "
                                    f"{step.resolve()}, outside its folder: a bot is shown only "
                                    "its own files")
        _check_contents(spec, name, path.resolve())


def _check_contents(spec: Spec, name: str, real: Path) -> None:
    runs = [folder for folder in (real, *real.parents) if _is_run_folder(folder)]
    files = _files_under(real) if real.is_dir() else [real]
    runs += [file.parent for file in files if file.name == MANIFEST and _is_run_folder(file.parent)]
    if runs:
        raise StrategyError(f"{spec.text!r}: {name!r} holds or is in the run folder {runs[0]}, "
                            "whose manifest says its seed and key: name the bot's own files")
    _check_sizes(spec, files)


def _check_sizes(spec: Spec, files: list[Path]) -> None:
    for file in files:
        size = file.lstat().st_size
        if size > MAX_BOT_FILE_BYTES:
            raise StrategyError(f"{spec.text!r}: {file} ({size / (1 << 30):.1f} GiB) is over the "
                                f"{MAX_BOT_FILE_BYTES >> 30} GiB a bot's file may be")


def _is_run_folder(folder: Path) -> bool:
    """Whether `folder` holds domsim's own manifest (a run's, a study's)."""
    manifest = folder / MANIFEST
    try:
        if not manifest.is_file():  # not a pipe either: opening one waits for a writer
            return False
        with manifest.open("rb") as file:
            return b'"domsim_version"' in file.read(1 << 16)
    except OSError:
        return False


def bot_command(spec: Spec, isolate: bool | None) -> BotCommand | None:
    """The process a spec runs in, or None for a strategy played in process: a built-in level,
    any spec but `exec:` when `isolate` is False, and a class defined in the session, which
    exists only in this process and its forks (`check_spec` refuses one when `isolate` is
    True)."""
    if spec.kind != "exec" and (isolate is False or spec.trusted or spec.kind == "session"):
        return None
    started = _command_in(spec.without_parameters(), os.getcwd())
    return started if started.spec == spec else replace(started, spec=spec)


def run_key_for(specs: Iterable[Spec], isolate: bool | None, given: str | None) -> str | None:
    """The key of a new run (or of a game played alone) of `specs`: `given`, else, where any
    of them plays in its own process, a secret one (domsim.seeding.run_key), so that no bot can
    work out the deals from a guessed seed."""
    return run_key(given, any(bot_command(spec, isolate) is not None for spec in specs))


@functools.lru_cache(maxsize=256)
def _command_in(spec: Spec, cwd: str) -> BotCommand:
    """`bot_command` of a spec without its parameters that leaves the process, run from `cwd`,
    worked out (its files walked and checked) once per worker: a tourney asks it every game, a
    tune with each value."""
    if spec.kind == "exec":
        return _exec_command(spec, cwd)
    if spec.kind == "name":  # a registered name: known here, or a typo
        check_registered(spec.target.strip())
    # A file shipped to this process (a Dask worker) is loaded from its copy; the host runs
    # elsewhere than here (in the sandbox, in /tmp): the path is made absolute.
    argv = (sys.executable, *HOST)
    extra = spec.files
    if spec.path:
        found = str(existing_file(spec.path).resolve())
        return BotCommand(spec, (*argv, spec.text.replace(spec.path, found, 1)), cwd,
                          (spec.path, *extra),
                          (found, *_found(spec, extra, cwd, str(local_file(spec.path)))))
    origin, root = _module_origin(spec.module)
    return BotCommand(spec, (*argv, spec.text), cwd, (*origin, *extra),
                      (*origin, *_found(spec, extra, cwd)), root)


def _names_path(cwd: str, arg: str) -> bool:
    """Whether a command's argument names a file or folder of the bot's (an argument too long
    to be a path, or otherwise no path, is just an argument; the current folder and those above
    it are never the bot's: `.` would show it every run kept there)."""
    try:
        path = Path(cwd, arg).resolve()
        return path.is_file() or path.is_dir() and not Path(cwd).resolve().is_relative_to(path)
    except (OSError, ValueError, RuntimeError):
        return False


def _found(spec: Spec, files: tuple[str, ...], cwd: str, code: str | None = None
           ) -> tuple[str, ...]:
    """The absolute paths of the files and folders a spec's `files=` names (StrategyError for
    one that does not exist, for the current folder or one above it, or one not the bot's own:
    `_check_own`)."""
    for name in files:
        if not Path(cwd, name).exists():
            raise StrategyError(f"file {name!r} named by files= not found (looked in {cwd}): "
                                "check the path")
        if not _names_path(cwd, name):
            raise StrategyError(f"files= names {name!r}, the current folder or one above it: "
                                "name the bot's own files and folders")
    _check_own(spec, files, cwd, code)
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
    _check_own(spec, tuple(arg for arg in argv[1:] if arg in files), cwd,
               program if program in files else None)
    return BotCommand(spec, tuple(argv), cwd, files, tuple(str(Path(cwd, f)) for f in files))
