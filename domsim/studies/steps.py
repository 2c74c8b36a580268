"""Calibration sized to its question: each step of a ladder (a level against the one below it) is
played head to head on fresh duplicate deals until it is decided, as fishtest and fastchess play
a test until it is decided rather than for a fixed count.

The test looks at the deals played so far at planned points (`looks`: the first after
`FIRST_LOOK` deals, then each time the deals double, up to the game cap) and stops at the first
look where the step's Elo interval over deals
- lies above 0: the upper level is stronger, significant at the report's level (95%);
- lies below 0: it is weaker (the ladder is not increasing there), as significant;
- lies within +-tolerance Elo: the two are equal within the tolerance;
or when the cap is reached: undecided. Each look's interval is the (1 - 0.05 / looks) one
(Bonferroni), so that the chance that any of the planned looks errs stays within the report's 5%.
The interval every surface shows is the one judged: the last look's, which holds the step's Elo
with 95% confidence however the step stopped (the plain 95% interval at a stop the data chose
would not)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from itertools import pairwise
from pathlib import Path
from statistics import NormalDist

from ..plan.config import TourneyConfig
from ..plan.games import round_up
from ..plan.pairings import default_name, split_name
from ..results.atomic import write_json
from ..results.manifest import read_manifest
from ..results.ratings import open_end, open_ends
from ..rules import make_rules
from ..seeding import derive_seed
from ..stats import EloEstimate, elo_estimate
from .compare import CompareResult
from .dialcurve import strength_of

#: The report's level: its intervals are 95% ones, its steps significant at 5%.
ALPHA = 0.05
#: Elo within which two neighbouring levels count as equal.
DEFAULT_TOLERANCE = 30.0
#: The most games a step plays.
DEFAULT_MAX_GAMES = 20000
#: Deals before the first look: fewer cannot show the spread between deals.
FIRST_LOOK = 30
STRONGER, WEAKER, EQUAL = "stronger", "weaker", "equal"
#: The file in a calibration's folder that holds every ladder's steps and levels.
CALIBRATION = "calibration.json"


def looks(first: int, most: int) -> tuple[int, ...]:
    """The deal counts at which the test looks: first, twice that, ..., and `most`."""
    if most <= first:
        return (most,)
    points = [first]
    while points[-1] * 2 < most:
        points.append(points[-1] * 2)
    return (*points, most)


@dataclass(frozen=True)
class StepRule:
    """compare.StopRule for one step: a verdict at each planned look (module docstring); with a
    `precision`, only once the look's interval is also at most that wide on each side."""

    tolerance: float
    looks: tuple[int, ...]
    precision: float | None = None

    @property
    def z(self) -> float:
        return NormalDist().inv_cdf(1 - ALPHA / (2 * len(self.looks)))

    def describe(self) -> dict:
        return {"test": "Elo interval over deals at planned looks (Bonferroni)",
                "tolerance_elo": self.tolerance, "precision_elo": self.precision,
                "looks_deals": list(self.looks), "z": self.z}

    def estimate(self, units: list[list[float]], per_unit: int, ref: float) -> EloEstimate:
        """The step's Elo over these deals with the interval a look judges."""
        return elo_estimate([sum(u) / len(u) for u in units], per_unit, ref, z=self.z)

    def verdict(self, units: list[list[float]], per_unit: int, ref: float) -> str | None:
        if len(units) not in self.looks:
            return None
        estimate = self.estimate(units, per_unit, ref)
        if self.precision is not None and not (
                estimate.one_sided is None
                and estimate.elo_high - estimate.elo_low <= 2 * self.precision):
            return None
        if estimate.elo_low > 0:
            return STRONGER
        if estimate.elo_high < 0:
            return WEAKER
        if -self.tolerance <= estimate.elo_low and estimate.elo_high <= self.tolerance:
            return EQUAL
        return None


@dataclass(frozen=True)
class StepPlan:
    """How every step is played: the tolerance, the most games a step plays, the seed, the
    run key (None: each step with bots in their own process draws its own) and the precision
    (None: a step stops once decided; else also not before its interval is +-precision)."""

    tolerance: float = DEFAULT_TOLERANCE
    max_games: int = DEFAULT_MAX_GAMES
    seed: int = 0
    run_key: str | None = None
    precision: float | None = None


@dataclass
class Step:
    """One step's outcome, as calibration.json and the report give it."""

    variant: str
    lower: str
    upper: str
    games: int
    deals: int
    verdict: str | None
    win_rate: float  # the upper level's score against the lower, over counted games
    win_low: float  # its interval over deals, the one judged (95% over the looks)
    win_high: float
    elo: float
    elo_low: float  # infinite where the score interval reaches 0 or 1 (as `stats`)
    elo_high: float
    reason: str
    folder: str
    stopped: str | None = None  # interrupted, ...: the calibration stops too
    looks: int = 1  # the looks planned: each interval is the (1 - 0.05 / looks) one

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, values: dict) -> Step:
        """A step as calibration.json holds it, where an open end is null."""
        return cls(**open_ends(values))


def step_reason(verdict: str | None, games: int, plan: StepPlan, stopped: str | None) -> str:
    """Why the step stopped, in a short sentence."""
    measured = "" if plan.precision is None else f", measured to \u00b1{plan.precision:g} Elo"
    if verdict == STRONGER:
        return f"stronger, significant at 95%{measured} after {games:,} games"
    if verdict == WEAKER:
        return f"WEAKER, significant at 95%{measured} after {games:,} games"
    if verdict == EQUAL:
        return f"equal within \u00b1{plan.tolerance:g} Elo{measured} after {games:,} games"
    if stopped:
        return f"undecided: {stopped} after {games:,} games"
    return f"undecided at the cap of {plan.max_games:,} games"


def play_step(variant: str, players: int | None, options: dict, lower: str, upper: str,
              index: int, out: Path, plan: StepPlan, overview: TourneyConfig,
              compare: Callable[..., CompareResult]) -> Step:
    """The upper level against the lower on fresh duplicate deals until decided (`compare`
    plays: run_compare with the session's workers and output); the clocks and the per-move
    limit are the `overview` run's."""
    per_deal = make_rules(variant, players, options).sides  # every deal in every seating
    config = TourneyConfig(variant=variant, players=players,
                           games=round_up(plan.max_games, per_deal), entrants=(upper, lower),
                           options=dict(options),
                           seed=derive_seed("calibration step", plan.seed, variant, index)
                           % 2**63, move_time_limit=overview.move_time_limit,
                           time_control=overview.time_control, run_key=plan.run_key)
    rule = StepRule(plan.tolerance, looks(FIRST_LOOK, config.games // per_deal), plan.precision)
    result = compare(config, out, rule)
    progress = result.progress
    estimate = rule.estimate(progress.units, progress.per_unit, progress.ref)
    games = progress.games
    return Step(variant, name_of(lower), name_of(upper), games, estimate.units,
                progress.verdict, estimate.score, estimate.score_low, estimate.score_high,
                estimate.elo, open_end(estimate.elo_low), open_end(estimate.elo_high),
                step_reason(progress.verdict, games, plan, result.stopped), str(out),
                result.stopped, len(rule.looks))


def name_of(entrant: str) -> str:
    """An entrant's name as the runs give it (a file by its stem)."""
    name, spec = split_name(entrant)
    return name or default_name(spec)


def chained_levels(names: list[str], steps: list[Step]) -> list[dict]:
    """Each level's Elo over the weakest, the sum of the steps below it, with a 95% interval
    from the steps' (independent runs: each side's half-widths add in quadrature), so the level
    above the weakest has exactly its step's estimate and interval."""
    levels = [{"name": names[0], "elo": 0.0, "low": 0.0, "high": 0.0}]
    elo, below, above = 0.0, 0.0, 0.0
    for name, step in zip(names[1:], steps, strict=True):
        elo += step.elo
        below = math.hypot(below, step.elo - step.elo_low)
        above = math.hypot(above, step.elo_high - step.elo)
        levels.append({"name": name, "elo": elo, "low": elo - below, "high": elo + above})
    return levels


def step_line(step: Step) -> str:
    return (f"{step.variant} {step.lower} -> {step.upper}: {step.elo:+.0f} Elo "
            f"[{step.elo_low:+.0f}, {step.elo_high:+.0f}], {step.upper} scores "
            f"{step.win_rate:.1%} [{step.win_low:.1%}, {step.win_high:.1%}] "
            f"({interval_words(step.looks)}): {step.reason} ({step.deals:,} deals)")


def interval_words(looks: int) -> str:
    """What a step's interval is, in a few words."""
    if looks == 1:
        return "95% interval"
    return f"95% over its {looks} looks: the interval judged"


def saved_lines(saved: dict, out: Path) -> list[str]:
    """Each step of the calibration in `out` as `domsim calibrate` told it, from its
    calibration.json (`saved`): every step of each ladder finished."""
    return [step_line(Step.from_dict(step)) for ladder in saved.get("ladders", ())
            for step in ladder["steps"]]


def ladder_specs(config: TourneyConfig, overview: Path) -> list[str]:
    """The specs of the ladder's levels, weakest first: the overview's `levels` (every level
    given, a dial setting given as a level too), else its entrants but the dial's settings."""
    levels = read_manifest(overview).get("levels")
    if levels:
        return list(config.entrants[:len(levels)])
    return [name for name in config.entrants if strength_of(name) is None]


@dataclass
class Calibration:
    """run_calibration's `steps`: plays each variant's ladder step by step after its overview
    run, tells each step (`say`) and keeps calibration.json in `out` up to date."""

    out: Path
    plan: StepPlan
    compare: Callable[..., CompareResult]
    say: Callable[[str], None]
    settings: dict = field(default_factory=dict)  # what the study was asked (to resume it)
    ladders: dict[str, dict] = field(default_factory=dict)

    def __call__(self, config: TourneyConfig, out: Path) -> bool:
        names = ladder_specs(config, out / config.variant)
        steps = []
        for index, (lower, upper) in enumerate(pairwise(names)):
            folder = out / "steps" / f"{config.variant}-{index + 1}"
            step = play_step(config.variant, config.players, config.options, lower, upper,
                             index, folder, self.plan, config, self.compare)
            self.say(step_line(step))
            steps.append(step)
            if step.stopped:
                return False
        self.ladders[config.variant] = {
            "variant": config.variant, "players": config.rules().players,
            "overview": str(out / config.variant),
            "levels": chained_levels([name_of(n) for n in names], steps),
            "specs": list(names), "steps": [step.to_dict() for step in steps]}
        write_json(self.out / CALIBRATION, self.to_dict())
        return True

    def to_dict(self) -> dict:
        return {"alpha": ALPHA, "tolerance": self.plan.tolerance,
                "precision": self.plan.precision,
                "max_games": self.plan.max_games, "seed": self.plan.seed,
                "first_look_deals": FIRST_LOOK, "settings": self.settings, "complete": False,
                "ladders": list(self.ladders.values())}
