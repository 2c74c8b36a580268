"""What a tourney is: the settings that decide its results (workers, backend and the progress bar
do not). The same settings come from the command line, a scenario file or a run's manifest."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

from ..game import MOVE_TIME_LIMIT
from ..rules import Rules, make_rules
from ..strategy import StrategyError
from .pairings import FORMATS, builtin_levels

OUTPUT_FORMATS = ("parquet", "csv")


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

    def rules(self) -> Rules:
        return make_rules(self.variant, self.players, self.options)

    def entrant_names(self) -> list[str]:
        return list(self.entrants) or builtin_levels()

    def check(self) -> None:
        """Refuse values no run can use (rules and specs are checked when they are loaded)."""
        if self.games < 1:
            raise StrategyError(f"games must be at least 1, got {self.games}")
        if self.format not in FORMATS:
            raise StrategyError(f"format {self.format!r}: use {' or '.join(FORMATS)}")
        if self.output_format not in OUTPUT_FORMATS:
            raise StrategyError(f"output format {self.output_format!r}: use parquet or csv")
        if self.move_time_limit < 0:
            raise StrategyError(f"move time limit must be >= 0, got {self.move_time_limit}")

    def to_dict(self) -> dict:
        out = asdict(self)
        out["entrants"] = list(self.entrants)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> TourneyConfig:
        known = {f.name for f in fields(cls)}
        values = {key: value for key, value in data.items() if key in known}
        values["entrants"] = tuple(values.get("entrants", ()))
        values["options"] = {str(k): str(v) for k, v in values.get("options", {}).items()}
        return cls(**values)
