"""Scenario files: a tourney written down in TOML, run by `domsim run FILE`.

The keys mirror `domsim tourney`'s options (`entrants` is the list of `-p` specs, `options` a table
of rule options). The tourney's settings are checked by the same table as those of the command
line and of a resumed run (`config.SETTINGS`), the rules and entrants by the plan and the
strategies by the check the command line passes (runner.tourney.check_config), and every error
names the file: `scenarios/x.toml: games must be a positive integer, got 0`.
Paths in the file (strategy files, `deals`, `out`) are taken from the file's folder, so a scenario
runs the same from any folder."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import DomsimError
from ..limits import BACKENDS, MAX_WORKERS
from ..rules import RulesError
from ..spec import Spec
from ..strategy import StrategyError
from .config import (
    SETTINGS,
    Check,
    ConfigError,
    TourneyConfig,
    check_settings,
    is_integer,
    is_positive_integer,
)
from .games import Plan
from .pairings import split_name, team_members

#: Keys that say how a scenario runs, not what it plays (`target` joins the rule options).
RUN_SETTINGS: dict[str, Check] = {
    "workers": (lambda v: is_integer(v) and 1 <= v <= MAX_WORKERS, f"1 to {MAX_WORKERS}"),
    "out": (lambda v: isinstance(v, str) and v != "", "a folder path"),
    "backend": (lambda v: v in BACKENDS, " or ".join(BACKENDS)),
    "scheduler": (lambda v: isinstance(v, str), "a Dask scheduler address (tcp://host:8786)"),
    "target": (is_positive_integer, "a positive integer"),
}


class ScenarioError(DomsimError):
    """A scenario file that cannot be run; the message is one line and names the file."""


@dataclass(frozen=True)
class Scenario:
    """A loaded scenario: `settings` as the command line's explicitly given ones, and how to
    run it (None: not in the file)."""

    settings: dict
    out: Path | None
    workers: int | None
    backend: str | None
    scheduler: str | None


def load_scenario(path: Path,
                  check: Callable[[TourneyConfig], object] = Plan.of) -> Scenario:
    """Read and check a scenario: its keys and values, then what `check` builds of its settings
    (by default the plan: its rules and entrants; the command line passes the runner's check,
    which also loads every strategy), every error naming the file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{path}: cannot read it: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ScenarioError(f"{path}: nested too deeply to be a scenario") from None
    try:
        scenario = _scenario(data, path.parent)
        check(TourneyConfig.from_dict({"seed": 0, **scenario.settings}))
    except (ConfigError, RulesError, StrategyError) as exc:
        raise ScenarioError(f"{path}: {exc}") from None
    return scenario


def _scenario(data: dict, folder: Path) -> Scenario:
    check_settings(data, SETTINGS | RUN_SETTINGS)
    if "variant" not in data:
        raise ConfigError("missing key 'variant': choose a rule set (see `domsim variants`)")
    if "scheduler" in data and data.get("backend") != "dask":
        raise ConfigError("scheduler is for backend = \"dask\": add it or drop the scheduler")
    settings = {key: value for key, value in data.items() if key in SETTINGS}
    if "target" in data:
        if "target" in data.get("options", {}):
            raise ConfigError("target is given twice, as target and as options.target: keep "
                              "one")
        settings["options"] = {**data.get("options", {}), "target": data["target"]}
    if "entrants" in settings:
        settings["entrants"] = [_entrant_from(folder, text) for text in settings["entrants"]]
    if "deals" in settings:
        settings["deals"] = _path_from(folder, settings["deals"])
    out = data.get("out")
    return Scenario(settings, Path(_path_from(folder, out)) if out else None,
                    data.get("workers"), data.get("backend"), data.get("scheduler"))


def _path_from(folder: Path, path: str) -> str:
    """A path written in the scenario, as seen from the current folder."""
    return path if Path(path).expanduser().is_absolute() else os.path.normpath(folder / path)


def _entrant_from(folder: Path, text: str) -> str:
    """An entrant whose strategy files are given from the scenario's folder (a name, a module or
    an `exec:` program is left as written)."""
    name, spec = split_name(text)
    members = team_members(spec)
    files = [Spec.of(member).path for member in members]
    if not any(files):
        return text
    moved = [member if file is None else _path_from(folder, file) + member[len(file):]
             for member, file in zip(members, files, strict=True)]
    return (f"{name}=" if name else "") + "+".join(moved)
