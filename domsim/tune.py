"""`domsim tune`: the dial strength (strategies/dial.py) that wins a target share against a level.

A bisection on the strength from [0, 1]: each step plays the dial at the middle of the bracket
against the level on duplicate deals until a sequential test (domsim.compare, GSPRT)
decides between a win rate of target - tolerance / 2 (H0: too weak, the bracket's low end moves
up) and target + tolerance / 2 (H1: too strong, its high end moves down). The tune stops after
`steps` halvings, or at a step the test cannot decide within its games (the win rate there is
inside the tolerance). Every step plays the same deals (the same seed), in its own run folder
out/step-K; out/tune.json holds the whole search."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import __version__
from .analysis import pair_reference
from .compare import run_compare
from .results.config import TourneyConfig
from .results.pairings import make_pairings, parse_entrants
from .rules import make_rules
from .runner.calibrate import calibration_entrants
from .runner.output import write_json
from .runner.tourney import TourneyError
from .stats import Sprt, elo_from_score
from .strategy import load_strategy

TUNE_FILE = "tune.json"
DEFAULT_STEPS = 7
DEFAULT_TOLERANCE = 0.03


@dataclass(frozen=True)
class TuneTarget:
    """Win `win_rate` of the games against `level` (a's share of the wins between the two; with
    3-4 seats, as `domsim compare` scores a pair), give or take `tolerance`."""

    level: str
    win_rate: float
    tolerance: float = DEFAULT_TOLERANCE

    def check(self) -> None:
        low, high = self.bounds
        if not 0 < low < high < 1:
            raise TourneyError(f"target win rate {self.win_rate:g} +- {self.tolerance / 2:g} "
                               "must lie inside (0, 1): choose a target such as 0.65")

    @property
    def bounds(self) -> tuple[float, float]:
        return self.win_rate - self.tolerance / 2, self.win_rate + self.tolerance / 2


@dataclass(frozen=True)
class TuneStep:
    strength: float
    games: int
    win_rate: float
    wilson_low: float
    wilson_high: float
    verdict: str | None  # "H1": stronger than the target, "H0": weaker, None: undecided
    run: str


@dataclass
class TuneResult:
    target: TuneTarget
    steps: list[TuneStep] = field(default_factory=list)
    low: float = 0.0
    high: float = 1.0
    seconds: float = 0.0
    stopped: str | None = None  # why the search ended early (interrupted, a worker died)

    @property
    def setting(self) -> float:
        """The bracket's middle: the strength an undecided step played, since it kept the
        bracket it was the middle of."""
        return round((self.low + self.high) / 2, 6)

    @property
    def games(self) -> int:
        return sum(step.games for step in self.steps)


def tune_sprt(target: TuneTarget, variant: str, players: int | None,
              options: dict[str, str]) -> Sprt:
    """The test between the target's two bounds, in the Elo of the pair's reference score."""
    rules = make_rules(variant, players, options)
    ref = pair_reference(make_pairings(2, rules.sides, "round-robin")[0], 0, 1)
    low, high = target.bounds
    return Sprt(elo_from_score(low, ref), elo_from_score(high, ref))


def check_entrants(variant: str, players: int | None, options: dict[str, str],
                   level: str) -> None:
    """Load every spec a step will seat, so that a bad one fails before any folder is made."""
    rules = make_rules(variant, players, options)
    names = calibration_entrants(variant, players, (level,), (0.5,))
    for entrant in parse_entrants(names, rules):
        for spec in entrant.members:
            load_strategy(spec)


def run_tune(variant: str, players: int | None, options: dict[str, str], target: TuneTarget,
             out: Path, *, seed: int, steps: int, games_per_step: int, workers: int,
             silent: bool, command: list[str]) -> TuneResult:
    """Bisect the dial's strength (module docstring); write out/tune.json after every step."""
    target.check()
    if out.exists():
        raise TourneyError(f"{out} already exists: choose another --out")
    check_entrants(variant, players, options, target.level)
    out.mkdir(parents=True)
    sprt = tune_sprt(target, variant, players, options)
    result = TuneResult(target)
    started = time.perf_counter()
    for k in range(steps):
        strength = result.setting
        dial, level = calibration_entrants(variant, players, (target.level,), (strength,))[::-1]
        config = TourneyConfig(variant=variant, players=players, games=games_per_step,
                               entrants=(dial, level), seed=seed, options=options)
        compared = run_compare(config, out / f"step-{k + 1}", sprt, workers=workers,
                               silent=silent, command=command)
        pair = compared.progress.statistics()
        verdict = compared.progress.verdict
        result.steps.append(TuneStep(strength, compared.progress.games, pair.win_rate,
                                     pair.wilson_low, pair.wilson_high, verdict,
                                     str(compared.out)))
        result.stopped = compared.stopped
        if verdict == "H1":
            result.high = strength
        elif verdict == "H0":
            result.low = strength
        result.seconds = time.perf_counter() - started
        write_json(out / TUNE_FILE, tune_manifest(result, variant, players, options, seed,
                                                  command))
        if verdict is None:  # undecided within its games, or stopped
            break
    return result


def tune_manifest(result: TuneResult, variant: str, players: int | None,
                  options: dict[str, str], seed: int, command: list[str]) -> dict:
    return {"domsim": __version__, "command": command, "variant": variant, "players": players,
            "options": options, "seed": seed, "target": asdict(result.target),
            "setting": result.setting, "interval": [result.low, result.high],
            "games": result.games, "seconds": result.seconds, "stopped": result.stopped,
            "steps": [asdict(step) for step in result.steps]}


def tune_lines(result: TuneResult, out: Path, seed: int) -> list[str]:
    """What `domsim tune` prints."""
    target = result.target
    low, high = target.bounds
    lines = [f"target: win {target.win_rate:.1%} against {target.level} "
             f"(each step: SPRT {low:.1%} vs {high:.1%} on duplicate deals), seed {seed}"]
    for k, step in enumerate(result.steps, 1):
        verdict = {"H1": "too strong", "H0": "too weak", None: "undecided"}[step.verdict]
        lines.append(f"  step {k}: strength {step.strength:.4f}: {step.win_rate:.1%} "
                     f"[{step.wilson_low:.1%}, {step.wilson_high:.1%}] in {step.games} games: "
                     f"{verdict}")
    lines.append(f"setting: dial?strength={result.setting:.4f} (bracket "
                 f"[{result.low:.4f}, {result.high:.4f}]), {result.games} games, "
                 f"{result.seconds:.1f} s")
    lines.append(f"results: {out / TUNE_FILE}")
    return lines

