"""What a tourney is: the settings that decide its results (workers, backend and the progress bar
do not). The same settings come from the command line, a scenario file or a run's manifest."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from ..clock import TimeControl, is_time_control
from ..deals import ORDERS
from ..errors import DomsimError
from ..limits import MOVE_TIME_LIMIT, ON_FAULT, SEAT_MEMORY_MB, SEAT_MEMORY_RANGE
from ..record import FAULT_POLICIES
from ..rules import Rules, make_rules
from ..seeding import is_run_key
from ..suggest import did_you_mean
from .pairings import FORMATS, builtin_levels

#: The games file's formats: games.parquet or games.csv.
OUTPUT_FORMATS = ("parquet", "csv")


class ConfigError(DomsimError):
    """A setting no run can use; the message is one line naming the setting and what it allows."""


def is_integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_positive_integer(value: object) -> bool:
    return is_integer(value) and value >= 1


def _is_specs(value: object) -> bool:
    return isinstance(value, list | tuple) and all(isinstance(spec, str) for spec in value)


def _is_options(value: object) -> bool:
    return isinstance(value, dict) and all(isinstance(v, str) or is_integer(v)
                                           for v in value.values())


def _is_seconds(value: object) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value) and value >= 0)


Check = tuple[Callable[[object], bool], str]  # (test, what is allowed)

#: Every tourney setting with what it accepts, for each source of settings: command line,
#: scenario file, a resumed run's manifest.
SETTINGS: dict[str, Check] = {
    "variant": (lambda v: isinstance(v, str), "a rule set (see `domsim variants`)"),
    "players": (lambda v: v is None or is_integer(v), "an integer number of players"),
    "games": (is_positive_integer, "a positive integer"),
    "entrants": (_is_specs, "a list of strategy specs (a+b: a team)"),
    "format": (lambda v: v in FORMATS, " or ".join(FORMATS)),
    "seed": (is_integer, "an integer"),
    "duplicate": (lambda v: isinstance(v, bool), "true or false"),
    "options": (_is_options, "a table of rule options, each an integer or a string"),
    "move_time_limit": (_is_seconds, "a number of seconds >= 0 (0: no limit)"),
    "records": (lambda v: isinstance(v, bool), "true or false"),
    "isolate": (lambda v: v is None or isinstance(v, bool), "true or false"),
    "sandbox": (lambda v: isinstance(v, bool), "true or false"),
    "seat_memory": (lambda v: is_integer(v) and (v == 0 or min(SEAT_MEMORY_RANGE) <= v
                                                  <= max(SEAT_MEMORY_RANGE)),
                     f"0 (no limit) or {SEAT_MEMORY_RANGE[0]} to {SEAT_MEMORY_RANGE[1]} MiB"),
    "output_format": (lambda v: v in OUTPUT_FORMATS, " or ".join(OUTPUT_FORMATS)),
    "deals": (lambda v: v is None or isinstance(v, str) and v != "", "a deals file's path"),
    "deals_order": (lambda v: v in ORDERS, " or ".join(ORDERS)),
    "on_fault": (lambda v: v in FAULT_POLICIES, " or ".join(FAULT_POLICIES)),
    "run_key": (lambda v: v is None or is_run_key(v),
                "32 hex digits (a run's key, from its manifest)"),
    "time_control": (lambda v: v is None or is_time_control(v),
                     "BASE+INC: seconds per game, seconds added per move (e.g. 60+0.5)"),
    "deal_groups": (is_positive_integer, "a positive integer that divides the pairings"),
}


def check_settings(values: dict, accepted: dict[str, Check]) -> None:
    """Refuse an unknown key or a value its check does not accept (ConfigError)."""
    for key, value in values.items():
        if key not in accepted:
            raise ConfigError(f"unknown key {key!r} ({did_you_mean(key, accepted)}allowed: "
                              f"{', '.join(accepted)})")
        test, allowed = accepted[key]
        if not test(value):
            raise ConfigError(f"{key} must be {allowed}, got {value!r}")


@dataclass(frozen=True)
class TourneyConfig:
    variant: str
    players: int | None = None
    games: int = 1000
    entrants: tuple[str, ...] = ()
    format: str = "round-robin"
    seed: int = 0
    duplicate: bool = True
    options: dict[str, str] = field(default_factory=dict)
    move_time_limit: float = MOVE_TIME_LIMIT  # seconds; 0: no limit
    records: bool = False
    output_format: str = "parquet"
    deals: str | None = None  # a deals file (domsim.deals): fixed first hands instead of seeded
    deals_order: str = "in-order"
    # Every strategy but the built-in levels in its own process (None: the default, and then
    # one defined in the session stays in process; False: every strategy in process).
    isolate: bool | None = None
    seat_memory: int = SEAT_MEMORY_MB  # MiB per bot process; 0: no limit
    sandbox: bool = True  # bot processes in the sandbox (domsim.seat.sandbox)
    # What a fault costs; a run's manifest without the key was played before forfeits existed.
    on_fault: str = ON_FAULT
    time_control: str | None = None  # BASE+INC: a clock per seat and game (domsim.clock)
    # The run's secret, mixed into every game seed when bots play in their own process
    # (domsim.seeding.game_seed); None: seeds from `seed` alone.
    run_key: str | None = None
    # The pairings in this many equal groups, each dealt its own deals (plan.schedule).
    deal_groups: int = 1

    def rules(self) -> Rules:
        return make_rules(self.variant, self.players, self.options)

    def clock(self) -> TimeControl | None:
        return TimeControl.parse(self.time_control) if self.time_control else None

    def entrant_names(self) -> list[str]:
        return list(self.entrants) or builtin_levels()

    def check(self) -> None:
        """Refuse values no run can use (rules and specs are checked when they are loaded)."""
        check_settings(self.to_dict(), SETTINGS)

    def to_dict(self) -> dict:
        """The settings as plain values; a run on seeded deals leaves the deals settings out,
        so its manifest reads as those of runs made before fixed deals."""
        out = asdict(self)
        out["entrants"] = list(self.entrants)
        if self.deals is None:
            del out["deals"], out["deals_order"]
        if self.time_control is None:  # as the manifests of runs made before clocks
            del out["time_control"]
        if self.run_key is None:  # as the manifests of runs made before keys
            del out["run_key"]
        if self.deal_groups == 1:  # as the manifests of runs made before deal groups
            del out["deal_groups"]
        return out

    def differences(self, other: TourneyConfig) -> list[tuple[str, object, object]]:
        """(setting, this one's value, the other's) for every setting in which they differ."""
        mine, theirs = self.to_dict(), other.to_dict()
        return [(key, mine.get(key), theirs.get(key)) for key in dict.fromkeys([*mine, *theirs])
                if mine.get(key) != theirs.get(key)]

    @classmethod
    def from_dict(cls, data: dict) -> TourneyConfig:
        """Settings from plain values (ConfigError names the first bad key)."""
        check_settings(data, SETTINGS)
        values = dict(data)
        values["entrants"] = tuple(values.get("entrants", ()))
        values["options"] = {str(k): str(v) for k, v in values.get("options", {}).items()}
        return cls(**values)
