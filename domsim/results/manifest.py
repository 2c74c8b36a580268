"""manifest.json: what produced a run and how far it got (docs/SCHEMA.md). A new run's manifest
is written before its first game; each session adds itself to `sessions`, says the run is
`partial` while it plays, and when it ends records how far the run got and the checksums of the
files it wrote. The manifest is only ever replaced whole (domsim.results.atomic)."""

from __future__ import annotations

import json
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

import pyarrow as pa

from .._core import ENGINE
from ..plan.config import TourneyConfig
from ..plan.games import Plan
from ..plan.pairings import pairing_label
from ..spec import Spec
from ..version import __version__
from .atomic import write_json
from .checksums import file_digest, run_checksums
from .folder import MANIFEST, RunError
from .summary import Tally


class Planned(Protocol):
    """A run's plan (domsim.plan) bound to its folder (domsim.runner.tourney.Tourney)."""

    out: Path
    schema: pa.Schema
    plan: Plan

    @property
    def config(self) -> TourneyConfig: ...

    def tally(self) -> Tally: ...


@dataclass
class Outcome:
    """How a session ended: games done of the total, and why it stopped early if it did."""

    done: int
    total: int
    played: int
    stopped: str | None = None  # "interrupted", or what broke

    @property
    def partial(self) -> bool:
        return self.done < self.total


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def read_manifest(out: Path) -> dict:
    """The manifest of the run in `out` (RunError: none, or not one domsim can read)."""
    try:
        manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RunError(f"{out} holds no {MANIFEST}: it is not a tourney folder") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunError(f"cannot read {out / MANIFEST}: {exc}") from None
    except RecursionError:
        raise RunError(f"cannot read {out / MANIFEST}: nested too deeply to be a manifest: "
                       "restore it") from None
    if not isinstance(manifest, dict):
        raise RunError(f"cannot read {out / MANIFEST}: it holds no JSON object")
    return manifest


def manifest_config(manifest: dict, out: Path) -> dict:
    """The settings the run was made with (`config`), as plain values."""
    config = manifest.get("config")
    if not isinstance(config, dict):
        raise RunError(f"{out / MANIFEST} has no config table: it was not written by domsim "
                       "or was edited; start a new run")
    return config


def new_manifest(run: Planned, command: Sequence[str], purpose: str,
                 describe: Callable[[Spec], dict]) -> dict:
    """`purpose`: tourney, compare or calibration (whose entrants form a ladder, weakest first);
    `describe` says what a strategy spec is and how it runs."""
    plan = run.plan
    config, rules = plan.config, plan.rules
    per_pairing = plan.schedule.games_per_pairing()
    return {
        "purpose": purpose,
        "domsim_version": __version__,
        "engine": ENGINE,
        "python": platform.python_version(),
        "command": command,
        "variant": rules.name,
        "players": rules.players,
        "options": rules.options(),
        "seed": config.seed,
        "games": config.games,
        "duplicate": config.duplicate,
        "entrants": [{"name": entrant.name, "members": [describe(spec) for spec in entrant.members]}
                     for entrant in plan.entrants],
        "pairings": [{"pairing": pairing_label(plan.entrants, p), "games": n}
                     for p, n in zip(plan.pairings, per_pairing, strict=True)],
        "config": config.to_dict(),
        "started": now(),
    } | ({"deals": deals_info(config, len(plan.deals))} if config.deals else {})


def deals_info(config: TourneyConfig, count: int) -> dict:
    path = Path(config.deals)
    return {"file": str(path.resolve()), "sha256": file_digest(path), "count": count,
            "order": config.deals_order}


def begin_session(out: Path, manifest: dict, session: dict) -> None:
    """Add `session` to the run's sessions and write the manifest, the run partial meanwhile."""
    manifest["sessions"] = [*manifest.get("sessions", []), session]
    write_json(out / MANIFEST, {**manifest, "partial": True})


def end_session(manifest: dict, session: dict, outcome: Outcome) -> None:
    """Record in `manifest` how the session ended and how far the run got."""
    session.update(ended=now(), games_played=outcome.played)
    if outcome.stopped:
        session["stopped"] = outcome.stopped
    manifest.update(ended=session["ended"], games_completed=outcome.done,
                    partial=outcome.partial)
    manifest.pop("checksums", None)  # an earlier session's: not of the files written now


def seal_manifest(out: Path, manifest: dict, config: TourneyConfig) -> None:
    """Write the manifest with the checksums of the files just written."""
    manifest["checksums"] = run_checksums(out, config.output_format, config.records)
    write_json(out / MANIFEST, manifest)
