"""A run folder taken for a session: a new one made (refused if it exists) or a resumable one
checked against the settings given, and locked for this writer alone (runner.lock)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..plan.config import TourneyConfig
from ..plan.games import Plan
from ..results.folder import MANIFEST, PARTS
from ..results.legacy import legacy_problem
from ..results.manifest import deals_info, manifest_config, read_manifest
from ..results.parts import clean_parts
from ..seat.command import bot_command, run_key_for
from .lock import LockedError, RunLock
from .tourney import RunFinished, Tourney, TourneyError


def open_tourney(plan: Plan, out: Path, resume: bool, command: Sequence[str] = (),
                 keep_seeds: bool = False) -> Tourney:
    """Take the folder (new, or a resumable run with the same settings) for this writer alone;
    the caller closes the tourney to let it go. A new run with bots in their own process gets a
    secret key unless it has one or `keep_seeds` (an old run upgraded keeps its games' seeds)."""
    if not (resume or keep_seeds) and plan.config.run_key is None:
        plan = plan.keyed(run_key_for((spec for entrant in plan.entrants
                                       for spec in entrant.members), plan.config.isolate, None))
    # A new run's settings are checked before its folder is made: a bad one writes nothing.
    check_no_bot_names(out, plan)
    tourney = None if resume else Tourney(plan, out)
    lock = resume_lock(out, command) if resume else new_folder_lock(out, command)
    try:
        if resume:
            tourney = Tourney(resumable_plan(out, plan), out)
        tourney.lock = lock
        (out / PARTS).mkdir(exist_ok=True)
        tourney.damaged = clean_parts(out) if resume else []
    except BaseException:
        lock.release()
        raise
    return tourney


def check_no_bot_names(out: Path, plan: Plan) -> None:
    """Refuse a bot whose files or arguments name a folder holding the run's folder: here, where
    the run's real folder is known (a Tourney is also made to check settings or read a run)."""
    for entrant in plan.entrants:
        for spec in entrant.members:
            if command := bot_command(spec, plan.config.isolate):
                command.check_not_holding(out, "this run's folder (--out)")


def new_folder_lock(out: Path, command: Sequence[str]) -> RunLock:
    """Create the folder (refused if it exists: only one run can make it) and lock it."""
    new_folder(out, "run")
    return take_lock(out, command)


def new_folder(out: Path, what: str) -> None:
    """Create the `--out` folder of a new run or study (`what`), refused if it exists."""
    try:
        out.mkdir(parents=True)
    except FileExistsError:
        raise TourneyError(f"{out} already exists: choose another --out, or add --resume to "
                           f"finish the {what} in it") from None
    except OSError as exc:
        raise TourneyError(f"cannot create --out {out}: {exc.strerror}: choose another "
                           "folder") from None


def resume_lock(out: Path, command: Sequence[str]) -> RunLock:
    if not out.is_dir():
        raise TourneyError(f"--resume: {out} is not a folder: give the --out of the run to "
                           "finish")
    return take_lock(out, command)


def take_lock(out: Path, command: Sequence[str]) -> RunLock:
    try:
        return RunLock.acquire(out, command)
    except LockedError as exc:
        raise TourneyError(str(exc)) from None
    except OSError as exc:
        raise TourneyError(f"cannot lock {out}: {exc.strerror}") from None


def resumable_plan(out: Path, plan: Plan) -> Plan:
    """`plan` for going on with the run in `out`, which must have its settings (its secret key
    is kept where none is given: a study resuming its runs never saw their keys) and not be
    finished (RunFinished: every game played, or its test decided)."""
    manifest = resume_manifest(out)
    if problem := legacy_problem(manifest, out):
        raise TourneyError(problem)
    saved = TourneyConfig.from_dict(manifest_config(manifest, out))
    if plan.config.run_key is None:
        plan = plan.keyed(saved.run_key)
    config = plan.config
    if saved != config:
        raise TourneyError(f"--resume: the settings differ from those of the run in {out}: "
                           f"{describe_difference(saved, config)}")
    if config.deals and deals_info(config, 0)["sha256"] != manifest.get("deals", {}).get("sha256"):
        raise TourneyError(f"--resume: {config.deals} changed since the run in {out} began: "
                           "restore it, or start a new run")
    if manifest.get("partial") is False:
        raise RunFinished(f"{out} is already complete ({manifest.get('games_completed')} "
                          "games): nothing to resume, nothing changed")
    return plan


def resume_manifest(out: Path) -> dict:
    """The manifest of the run `--resume` goes on with (TourneyError: there is none)."""
    if not (out / MANIFEST).is_file():
        raise TourneyError(f"--resume: {out} holds no {MANIFEST}: nothing to resume")
    return read_manifest(out)


def describe_difference(saved: TourneyConfig, given: TourneyConfig) -> str:
    return "; ".join(f"{key} was {old!r}, now {new!r}"
                     for key, old, new in saved.differences(given))
