"""One base for every error domsim raises to a user (issue 50, item 3): `domsim.DomsimError`,
a ValueError, with the core's RulesError under it."""

from __future__ import annotations

import importlib
import inspect

import pytest
from test_imports import package_modules

import domsim

#: Exceptions that never reach a user, with their kinds: a seat's fault (recorded in the games,
#: not raised) and what ends a run's stream early (turned into the run's `stopped`).
INTERNAL = {"domsim.seat.process.BotFault", "domsim.runner.console.FaultRateExceeded",
            "domsim.runner.play.Decided"}


def error_classes() -> dict[str, type]:
    """Every Exception subclass the package's modules define, by dotted name."""
    found = {}
    for name in package_modules():
        module = importlib.import_module(name)
        for value in vars(module).values():
            if inspect.isclass(value) and issubclass(value, Exception) \
                    and value.__module__.startswith("domsim"):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


def test_every_error_the_package_defines_sits_under_domsim_error():
    found = error_classes()
    assert {"domsim._core.RulesError", "domsim._core.IllegalMove", "domsim.strategy.StrategyError",
            "domsim.runner.tourney.TourneyError", "domsim.runner.tourney.RunFinished",
            "domsim.results.folder.RunError", "domsim.seat.sandbox.SandboxError",
            "domsim.seat.protocol.ProtocolError", "domsim.plan.config.ConfigError"} <= set(found)
    internal = tuple(found[name] for name in INTERNAL)
    outside = sorted(name for name, cls in found.items()
                     if not issubclass(cls, (domsim.DomsimError, *internal)))
    assert outside == []
    assert issubclass(domsim.DomsimError, ValueError)


def test_a_user_catches_the_rules_and_the_runs_errors_with_the_one_base(tmp_path):
    with pytest.raises(domsim.DomsimError, match="unknown variant"):
        domsim.tourney("nothing", ["easy", "medium"], games=2)
    with pytest.raises(domsim.DomsimError, match="holds no manifest.json"):
        domsim.load(tmp_path)
