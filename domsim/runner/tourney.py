"""A tourney bound to its run folder: the plan (domsim.plan) with its strategies checked for how
they run, the games table's schema, the batches sent to workers and what the manifest says of each
strategy; and the runner's one-line error."""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from ..deals import Deal
from ..errors import DomsimError
from ..plan.config import TourneyConfig
from ..plan.games import Plan
from ..plan.pairings import Entrant
from ..plan.schedule import Schedule
from ..results.checksums import file_digest
from ..results.columns import games_schema
from ..results.manifest import new_manifest
from ..results.summary import Tally, faults_forfeit
from ..rules import Rules
from ..seat.command import bot_command, in_process_reason
from ..seat.process import check_spec
from ..spec import Spec
from ..strategy import StrategyError, load_strategy
from .lock import RunLock
from .worker import Batch, run_confinement


class TourneyError(DomsimError):
    """An output folder or resume request that cannot be honoured; the message is one line."""


class RunFinished(TourneyError):
    """`--resume` of a run that has every game: nothing to do, and nothing was changed."""


@dataclass
class Tourney:
    """A tourney's plan (domsim.plan) bound to its folder, with the strategies checked for how
    they run and the games table's schema."""

    plan: Plan
    out: Path
    schema: pa.Schema = field(init=False)
    lock: RunLock | None = field(default=None, repr=False, compare=False)
    damaged: list[str] = field(default_factory=list)  # parts a resume found damaged, dropped

    def __post_init__(self) -> None:
        for entrant in self.plan.entrants:
            for spec in entrant.members:
                check_spec(spec, self.config.isolate, run_confinement(self.config))
        self.schema = games_schema(self.plan.rules)

    @classmethod
    def of(cls, config: TourneyConfig, out: Path) -> Tourney:
        """The tourney these settings plan, bound to `out`."""
        return cls(Plan.of(config), out)

    @property
    def config(self) -> TourneyConfig:
        return self.plan.config

    @property
    def rules(self) -> Rules:
        return self.plan.rules

    @property
    def entrants(self) -> list[Entrant]:
        return self.plan.entrants

    @property
    def pairings(self) -> list[tuple[int, ...]]:
        return self.plan.pairings

    @property
    def schedule(self) -> Schedule:
        return self.plan.schedule

    @property
    def deals(self) -> list[Deal]:
        return self.plan.deals

    def how_strategies_run(self) -> dict[str, str]:
        """Each strategy's spec -> in process or in its own (sandboxed) process."""
        return {spec.text: how_it_runs(spec, self.config) for entrant in self.entrants
                for spec in entrant.members}

    def manifest_for(self, command: Sequence[str], purpose: str) -> dict:
        """A new run's manifest (`purpose`: tourney, compare or calibration)."""
        return new_manifest(self, command, purpose, lambda spec: strategy_info(spec, self.config))

    def tally(self) -> Tally:
        return Tally(self.rules, self.entrants, self.pairings, faults_forfeit(self.config),
                     self.schedule.seatings_per_deal)

    def close(self) -> None:
        """Let another writer have the folder."""
        if self.lock:
            self.lock.release()

    def batch(self, game_ids: list[int], home: int | None = None) -> Batch:
        return Batch(self.config, tuple(self.entrants), tuple(self.pairings), self.schedule,
                     tuple(game_ids),
                     tuple(self.plan.fixed_deal(g) for g in game_ids if self.deals), home)


def check_config(config: TourneyConfig) -> None:
    """Build the tourney these settings make, writing nothing: the rules, the entrants and
    every strategy load (ConfigError, RulesError, StrategyError: one line)."""
    Tourney.of(config, Path())


def how_it_runs(spec: Spec, config: TourneyConfig) -> str:
    """In process or in its own (sandboxed) process, for the manifest and the run's header."""
    if bot_command(spec, config.isolate) is None:
        return in_process_reason(spec, config.isolate)
    return run_confinement(config).about()


def strategy_info(spec: Spec, config: TourneyConfig) -> dict:
    """The spec, how it runs (`runs`), where its class comes from, and a sha256 of the file
    that defines it (of the class's source for one defined in a session without a file, as in
    a notebook); for a bot in its own process, its command and the sha256 of each file that
    defines it."""
    command = bot_command(spec, config.isolate)
    if command is not None:
        return command.about() | {"runs": how_it_runs(spec, config)}
    factory = load_strategy(spec)
    info = {"spec": spec.text, "runs": how_it_runs(spec, config), "origin": factory.origin,
            "class": factory.cls.__qualname__}
    try:
        source = Path(inspect.getsourcefile(factory.cls) or "")
        return info | {"source": str(source), "sha256": file_digest(source)}
    except (OSError, TypeError) as exc:
        if spec.kind != "session":
            raise StrategyError(f"cannot hash the source of strategy {spec.text!r}: {exc}") \
                from None
    try:
        text = inspect.getsource(factory.cls)
    except (OSError, TypeError):
        return info | {"source": "the session (no source text to hash)", "sha256": None}
    return info | {"source": "the session (the class's source text)",
                   "sha256": hashlib.sha256(text.encode()).hexdigest()}
