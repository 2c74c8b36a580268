"""`domsim tune`: the dial strength (strategies/dial.py) that wins a target share against a level,
or N levels evenly spaced in Elo from easy to insane (`run_levels`).

The search is a bisection on the strength from [0, 1]: each step plays the dial at the middle of
the bracket against the level on duplicate deals until a sequential test (studies.compare, GSPRT)
decides between a win rate of target - tolerance / 2 (H0: too weak, the bracket's low end moves
up) and target + tolerance / 2 (H1: too strong, its high end moves down). The tune stops after
`steps` halvings, or at a step the test cannot decide within its games. Each step plays fresh
deals (its own seed, derived from the tune's), in its own run folder out/step-K; out/tune.json
holds the search. Fresh, because the target is absolute: deals shared by every step would add
one common luck to all of them that no number of steps averages away (a tune that played the
same 400-odd deals at every step spread 0.535-0.566 across seeds).

The setting and its interval come from every step's games at once, not from the last bracket
(each test may err, 5%, so the bracket is narrower than the setting's uncertainty): a line
logit(win rate) = a + b * strength fitted by maximum likelihood (domsim.stats.fit_score_line),
the setting where it reaches the target, and Fieller's 95% interval: the strengths at which the
line's own test does not reject the target. Its covariance is robust to the deals: a deal's
games, and the same deal at every step, are one unit, as everywhere in domsim. Fieller rather
than the delta method, its linearization, because the slope is known poorly after few steps and
the interval is then lopsided; rather than the binomial profile likelihood, because that treats
the games of a deal as independent, which duplicate play makes them not. The line is local: it
is fitted to the steps within LOCAL of the bracket's middle, where the bisection plays most of
its games, since the far first steps would bend it where the curve is not straight (in
`bench/tune_coverage.py`'s synthetic dials the interval held the true setting in 96 of 100
tunes on a straight curve and 94 on a bent one; with every step, 97 and 90). The bracket is
kept, named as such."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from itertools import pairwise
from pathlib import Path

from ..analysis import pair_reference
from ..plan.config import TourneyConfig
from ..plan.pairings import builtin_levels, make_pairings, parse_entrants
from ..rules import make_rules
from ..runner.session import Execution, resume_hint, study_workers
from ..runner.tourney import TourneyError
from ..seeding import derive_seed
from ..stats import (
    ELO_PER_NATURAL,
    Z95,
    Sprt,
    elo_from_score,
    fieller_interval,
    fit_score_line,
    logit,
    score_from_elo,
)
from ..strategy import load_strategy
from ..version import __version__
from .calibrate import calibration_entrants
from .compare import COMPARE_LIMIT, compare_in
from .folder import StudyFolder

TUNE_FILE = "tune.json"
#: The narrowest indifference zone: at 0.002 a step needs some 370,000 games to decide.
MIN_TOLERANCE = 0.002
#: The most levels `--levels` spaces: in block easy to insane spans about 960 Elo, so 21 levels
#: are 48 Elo apart, about what a tune's interval spans.
MOST_LEVELS = 21
DEFAULT_STEPS = 7
DEFAULT_TOLERANCE = 0.03
DEFAULT_GAP_GAMES = 2000
#: The fit's steps lie within this distance of the bracket's middle (the bisection's fourth
#: bracket's width).
LOCAL = 1 / 16


@dataclass(frozen=True)
class TuneTarget:
    """Win `win_rate` of the games against `level` (a's share of the wins between the two; with
    3-4 seats, as `domsim compare` scores a pair), give or take `tolerance`. `elo_error` is the
    target's own standard error in Elo when it was measured on games (`run_levels`)."""

    level: str
    win_rate: float
    tolerance: float = DEFAULT_TOLERANCE
    elo_error: float = 0.0

    def check(self) -> None:
        low, high = self.bounds
        if not self.tolerance >= MIN_TOLERANCE:
            raise TourneyError(f"--tolerance {self.tolerance:g} is too narrow for any test to "
                               f"decide: give at least {MIN_TOLERANCE:g}")
        if not 0 < low < high < 1:
            raise TourneyError(f"target win rate {self.win_rate:g} +- {self.tolerance / 2:g} "
                               "must lie inside (0, 1): choose a target such as 0.65")

    @property
    def bounds(self) -> tuple[float, float]:
        return self.win_rate - self.tolerance / 2, self.win_rate + self.tolerance / 2


@dataclass(frozen=True)
class Play:
    """How every game of a tune is played; `request` is what tune.json keeps from the start (the
    tune's options, `TuneRequest`), and `resume` goes on with the tune in the folder."""

    variant: str
    players: int | None
    options: dict[str, str]
    seed: int
    execution: Execution
    on_fault: str = "forfeit"  # a test scores a fault as a loss, as fastchess does
    request: dict = field(default_factory=dict)
    resume: bool = False

    def config(self, entrants: tuple[str, ...], games: int, *label: object) -> TourneyConfig:
        """A run of its own deals: its seed derived from the tune's and the run's label."""
        return TourneyConfig(variant=self.variant, players=self.players, games=games,
                             entrants=entrants, seed=derive_seed("tune", self.seed, *label),
                             options=self.options, on_fault=self.on_fault)

    @property
    def reference(self) -> float:
        """The dial's score against an equal level."""
        rules = make_rules(self.variant, self.players, self.options)
        return pair_reference(make_pairings(2, rules.sides, "round-robin")[0], 0, 1)


@dataclass(frozen=True)
class TuneStep:
    strength: float
    games: int
    win_rate: float
    wilson_low: float
    wilson_high: float
    verdict: str | None  # "H1": stronger than the target, "H0": weaker, None: undecided
    run: str
    seed: int
    #: For an undecided step, the side its win rate's interval put it on ("H1", "H0"), which
    #: the bisection then took; None: the interval holds the target (or the step was decided).
    assumed: str | None = None


@dataclass(frozen=True)
class Estimate:
    """The setting where the fitted line reaches the target, with its 95% interval (None: the
    games do not bound it), clipped to the dial's range [0, 1]."""

    setting: float
    low: float | None
    high: float | None
    elo_per_strength: float
    games: int
    deals: int
    strengths: int  # the steps' strengths the line was fitted to

    @property
    def interval(self) -> list[float] | None:
        return None if self.low is None else [self.low, self.high]


@dataclass
class TuneResult:
    target: TuneTarget
    steps: list[TuneStep] = field(default_factory=list)
    low: float = 0.0  # the bisection bracket
    high: float = 1.0
    seconds: float = 0.0
    stopped: str | None = None  # why the search ended early (interrupted, a worker died)
    estimate: Estimate | None = None
    #: (strength, (step seed, deal id), the dial's score) of every counted game of every step
    observations: list[tuple[float, tuple[int, int], float]] = field(default_factory=list,
                                                                     repr=False)

    @property
    def bracket_middle(self) -> float:
        """The next step's strength; an undecided step played it, since it kept its bracket."""
        return round((self.low + self.high) / 2, 6)

    @property
    def setting(self) -> float:
        """The fitted setting, or the bracket's middle when the games fix no line."""
        return round(self.estimate.setting, 6) if self.estimate else self.bracket_middle

    @property
    def games(self) -> int:
        return sum(step.games for step in self.steps)


def tune_sprt(target: TuneTarget, play: Play) -> Sprt:
    """The test between the target's two bounds, in the Elo of the pair's reference score."""
    low, high = target.bounds
    return Sprt(elo_from_score(low, play.reference), elo_from_score(high, play.reference))


def check_entrants(play: Play, levels: tuple[str, ...]) -> None:
    """Load every spec a step will seat, so that a bad one fails before any folder is made."""
    rules = make_rules(play.variant, play.players, play.options)
    for entrant in parse_entrants(calibration_entrants(play.variant, play.players, levels, (0.5,)),
                                  rules):
        for spec in entrant.members:
            load_strategy(spec)


def tune_folder(out: str | Path | None, resume: bool = True) -> StudyFolder:
    """The tune's folder (the dial's or SPSA's): `out`, else a new one
    (domsim.studies.folder)."""
    return StudyFolder.given(out, resume, TUNE_FILE, "tune", "tune")


@contextmanager
def begun(out: Path, play: Play, levels: tuple[str, ...]) -> Iterator[StudyFolder]:
    """The tune's folder, held while it plays: made once every spec loads (a bad one leaves
    nothing behind), with the request in tune.json; a resumed tune goes on in its folder."""
    check_entrants(play, levels)
    study = tune_folder(out)
    if not play.resume:
        study.create(play_dict(play))
    with study.held(play.execution.command):
        yield study


def run_tune(play: Play, target: TuneTarget, out: Path, *, steps: int,
             games_per_step: int) -> TuneResult:
    """Tune the dial to one target (module docstring); write out/tune.json after every step."""
    target.check()
    with begun(out, play, (target.level,)) as study:
        result = search(play, target, out, steps, games_per_step,
                        lambda result: study.save(tune_content(result, play)))
        study.save(tune_content(result, play), complete=result.stopped is None)
    return result


def search(play: Play, target: TuneTarget, out: Path, steps: int, games_per_step: int,
           save: Callable[[TuneResult], None], label: str = "") -> TuneResult:
    """The bisection, each step in out/step-K on the deals of (seed, label, K); `save(result)`
    after every step."""
    sprt = tune_sprt(target, play)
    result = TuneResult(target)
    started = time.perf_counter()
    for k in range(steps):
        strength = result.bracket_middle
        dial, level = calibration_entrants(play.variant, play.players, (target.level,),
                                           (strength,))[::-1]
        config = play.config((dial, level), games_per_step, label, k + 1)
        compared = compare_in(config, out / f"step-{k + 1}", sprt, play.execution)
        progress = compared.progress
        pair = progress.statistics()
        verdict = progress.verdict
        result.steps.append(TuneStep(strength, progress.games, pair.win_rate, pair.wilson_low,
                                     pair.wilson_high, verdict, str(compared.out),
                                     config.seed))
        result.observations += [(strength, (config.seed, deal), score)
                                for deal, unit in zip(progress.unit_deals, progress.units,
                                                      strict=True) for score in unit]
        result.stopped = compared.stopped
        side = verdict or (None if compared.stopped else side_of(result.steps[-1], target))
        if side is not None and verdict is None:
            result.steps[-1] = replace(result.steps[-1], assumed=side)
        if side == "H1":
            result.high = strength
        elif side == "H0":
            result.low = strength
        result.estimate = fitted_setting(local_observations(result), target)
        result.seconds = time.perf_counter() - started
        save(result)
        if side is None:  # stopped, or undecided with the target inside its interval
            break
    return result


def side_of(step: TuneStep, target: TuneTarget) -> str | None:
    """Which side of the target an undecided step lies on by its 95% interval: "H1" (too
    strong) when the interval lies above the target, "H0" below, None when it holds it."""
    if step.wilson_low > target.win_rate:
        return "H1"
    if step.wilson_high < target.win_rate:
        return "H0"
    return None


def local_observations(result: TuneResult) -> list[tuple[float, tuple[int, int], float]]:
    """The games of the steps within LOCAL of the bracket's middle (all, if those played
    fewer than two strengths)."""
    near = [seen for seen in result.observations
            if abs(seen[0] - result.bracket_middle) <= LOCAL]
    return near if len({seen[0] for seen in near}) > 1 else result.observations


def fitted_setting(observations: list[tuple[float, tuple[int, int], float]],
                   target: TuneTarget) -> Estimate | None:
    """Where the line fitted to every game reaches the target, with Fieller's interval (module
    docstring); None while the games fix no rising line (one strength played, or no slope)."""
    if not observations:
        return None
    strengths, deals, scores = zip(*observations, strict=True)
    numbers: dict[tuple[int, int], int] = {}
    line = fit_score_line(strengths, scores, [numbers.setdefault(deal, len(numbers))
                                              for deal in deals])
    if line is None or line.slope <= 0:
        return None
    goal = logit(target.win_rate)
    interval = fieller_interval(line, goal, (target.elo_error / ELO_PER_NATURAL) ** 2)
    low, high = (None, None) if interval is None else (clip(interval[0]), clip(interval[1]))
    return Estimate(clip(line.x_at(goal)), low, high, line.slope * ELO_PER_NATURAL, line.games,
                    line.clusters, len(set(strengths)))


def clip(strength: float) -> float:
    return min(max(float(strength), 0.0), 1.0)


def search_dict(result: TuneResult) -> dict:
    """A search in tune.json: the setting, its interval, the bracket, the games, every step."""
    estimate = result.estimate
    return {"target": asdict(result.target), "setting": result.setting,
            "interval": estimate.interval if estimate else None,
            "interval_method": "Fieller, logistic line in the strength, deals as clusters",
            "fit": None if estimate is None else {
                "elo_per_strength": estimate.elo_per_strength, "games": estimate.games,
                "deals": estimate.deals, "strengths": estimate.strengths, "window": LOCAL},
            "bracket": [result.low, result.high], "bracket_middle": result.bracket_middle,
            "games": result.games, "seconds": result.seconds, "stopped": result.stopped,
            "steps": [asdict(step) for step in result.steps]}


def play_dict(play: Play) -> dict:
    return {"domsim": __version__, "command": list(play.execution.command), "variant": play.variant,
            "players": play.players, "options": play.options, "seed": play.seed,
            "request": play.request}


def tune_content(result: TuneResult, play: Play) -> dict:
    return play_dict(play) | search_dict(result)


def setting_text(search: dict) -> str:
    """The setting with its interval and the bracket, as printed, from a search as tune.json
    holds it (`search_dict`)."""
    fit, interval = search["fit"], search["interval"]
    if fit is None:
        said = "no interval: the games fix no rising line yet (one strength played)"
    elif interval is None:
        said = "no interval: the games cannot bound it (the slope is not significant)"
    else:
        said = (f"95% interval [{interval[0]:.4f}, {interval[1]:.4f}] (Fieller, a logistic line "
                f"fitted to {fit['games']} games on {fit['deals']} deals at {fit['strengths']} "
                f"strengths, {fit['elo_per_strength']:+.0f} Elo per unit of strength)")
    low, high = search["bracket"]
    return (f"dial?strength={search['setting']:.4f}, {said}; bisection bracket "
            f"[{low:.4f}, {high:.4f}]")


def tune_lines(saved: dict, out: Path) -> list[str]:
    """What `domsim tune` prints, from its tune.json (`tune_content`)."""
    target = saved["target"]
    low, high = TuneTarget(**target).bounds
    lines = [f"target: win {target['win_rate']:.1%} against {target['level']} "
             f"(each step: SPRT {low:.1%} vs {high:.1%} on duplicate deals), seed {saved['seed']}"]
    lines += step_lines(saved, "  ")
    lines.append(f"setting: {setting_text(saved)}, {saved['games']} games, "
                 f"{saved['seconds']:.1f} s")
    lines.append(f"results: {out / TUNE_FILE}")
    return lines


def step_lines(search: dict, indent: str) -> list[str]:
    lines = []
    words = {"H1": "too strong", "H0": "too weak", None: "undecided"}
    for k, step in enumerate(search["steps"], 1):
        verdict = words[step["verdict"]]
        if step["assumed"]:
            verdict += (f": taken as {words[step['assumed']]}, since its 95% interval lies "
                        f"{'above' if step['assumed'] == 'H1' else 'below'} the target")
        lines.append(f"{indent}step {k}: strength {step['strength']:.4f}: {step['win_rate']:.1%} "
                     f"[{step['wilson_low']:.1%}, {step['wilson_high']:.1%}] in {step['games']} "
                     f"games: {verdict}")
    return lines


def saved_lines(saved: dict, out: Path) -> list[str]:
    """What `domsim tune` prints (or would, for one stopped there) for the tune in `out` whose
    tune.json holds `saved`; none before its first search or gap is measured."""
    if "levels" in saved:
        return levels_lines(saved, out)
    return tune_lines(saved, out) if "target" in saved else []


# -- N levels evenly spaced from easy to insane ---------------------------------------------------
@dataclass(frozen=True)
class Gap:
    """How much stronger a built-in level is than the one below it, head to head on duplicate
    deals (domsim.studies.compare with a fixed number of games)."""

    weaker: str
    stronger: str
    elo: float
    low: float
    high: float
    games: int
    seconds: float
    run: str

    @property
    def error(self) -> float:
        """The standard error the 95% interval implies."""
        return (self.high - self.low) / (2 * Z95)


@dataclass
class Level:
    """Level `number` of the spacing: `elo` above easy; an end is the dial's 0 or 1 (`end`: the
    built-in level it is move for move), an inner level a search against `target`."""

    number: int
    elo: float
    end: str | None = None
    target: TuneTarget | None = None
    result: TuneResult | None = None

    @property
    def setting(self) -> float:
        return self.result.setting if self.result else (0.0 if self.number == 1 else 1.0)


@dataclass
class LevelsResult:
    count: int
    gaps: list[Gap] = field(default_factory=list)
    levels: list[Level] = field(default_factory=list)
    seconds: float = 0.0
    stopped: str | None = None

    @property
    def ladder(self) -> list[tuple[str, float]]:
        return ladder_of(self.gaps)

    @property
    def games(self) -> int:
        return (sum(gap.games for gap in self.gaps)
                + sum(level.result.games for level in self.levels if level.result))

    @property
    def monotone(self) -> bool:
        settings = [level.setting for level in self.levels]
        return all(a <= b for a, b in pairwise(settings))


def ladder_of(gaps: list[Gap]) -> list[tuple[str, float]]:
    """Each built-in level's Elo above easy: the sum of the gaps below it."""
    if not gaps:
        return []
    ladder = [(gaps[0].weaker, 0.0)]
    for gap in gaps:
        ladder.append((gap.stronger, ladder[-1][1] + gap.elo))
    return ladder


def measure_gaps(play: Play, levels: list[str], games: int, out: Path) -> list[Gap]:
    """Every step up the built-in levels, head to head on `games` duplicate games each."""
    gaps = []
    for weaker, stronger in pairwise(levels):
        started = time.perf_counter()
        low_name, high_name = calibration_entrants(play.variant, play.players, (weaker, stronger))
        compared = compare_in(play.config((high_name, low_name), games, "gap", weaker),
                              out / f"gap-{weaker}-{stronger}", None, play.execution)
        estimate = compared.progress.statistics().estimate
        gaps.append(Gap(weaker, stronger, estimate.elo, estimate.elo_low, estimate.elo_high,
                        compared.progress.games, time.perf_counter() - started, str(compared.out)))
        if compared.stopped:
            raise TourneyError(f"{compared.stopped} while measuring {stronger} against {weaker}; "
                               f"{resume_hint(out, 'tune')}")
    return gaps


def level_targets(gaps: list[Gap], count: int, reference: float,
                  tolerance: float) -> list[Level]:
    """Levels 1..count at Elo k / (count - 1) of insane's above easy; each inner one a target
    against the nearest built-in level (the win rate its Elo gap predicts, and that gap's
    error from the measured steps it sums)."""
    ladder = ladder_of(gaps)
    top = ladder[-1][1]
    levels = [Level(1, 0.0, end=ladder[0][0])]
    for k in range(1, count - 1):
        elo = top * k / (count - 1)
        nearest = min(range(len(ladder)), key=lambda i: abs(ladder[i][1] - elo))
        # The target's Elo over the reference is sum_i c_i gap_i: c_i = k/(count-1) from
        # insane's Elo, less 1 for each gap below the reference.
        weights = [k / (count - 1) - (i < nearest) for i in range(len(gaps))]
        error = sum((w * gap.error) ** 2 for w, gap in zip(weights, gaps, strict=True)) ** 0.5
        win_rate = score_from_elo(elo - ladder[nearest][1], reference)
        levels.append(Level(k + 1, elo, target=TuneTarget(ladder[nearest][0], win_rate,
                                                          tolerance, error)))
    levels.append(Level(count, top, end=ladder[-1][0]))
    return levels


def run_levels(play: Play, count: int, out: Path, *, steps: int, games_per_step: int,
               gap_games: int, tolerance: float) -> LevelsResult:
    """`count` levels evenly spaced in Elo from easy to insane. The ends need no games: the dial
    at 0 and at 1 is easy and insane move for move. The built-in levels' steps are measured on
    duplicate deals (out/gap-*), then each inner level is searched against the nearest built-in
    level (out/level-K/step-*); out/tune.json after every step."""
    if not 3 <= count <= MOST_LEVELS:
        raise TourneyError(f"--levels {count}: give 3 to {MOST_LEVELS} (the ends are easy and "
                           "insane; more levels than that lie closer than the tests can tell)")
    levels = builtin_levels()
    with begun(out, play, tuple(levels)) as study:
        return search_levels(play, count, study, levels, steps=steps,
                             games_per_step=games_per_step, gap_games=gap_games,
                             tolerance=tolerance)


def search_levels(play: Play, count: int, study: StudyFolder, levels: list[str], *, steps: int,
                  games_per_step: int, gap_games: int, tolerance: float) -> LevelsResult:
    """run_levels' measures and searches, in the held `study`."""
    out = study.path
    started = time.perf_counter()
    result = LevelsResult(count)
    result.gaps = measure_gaps(play, levels, gap_games, out)
    result.levels = level_targets(result.gaps, count, play.reference, tolerance)

    def save(complete: bool = False) -> None:
        result.seconds = time.perf_counter() - started
        study.save(levels_content(result, play), complete)

    def saver(level: Level) -> Callable[[TuneResult], None]:
        def save_level(searched: TuneResult) -> None:
            level.result = searched  # the search so far, in tune.json while it runs
            save()
        return save_level

    save()
    for level in result.levels:
        if level.target is None:
            continue
        level.target.check()
        level.result = search(play, level.target, out / f"level-{level.number}", steps,
                              games_per_step, saver(level), f"level-{level.number}")
        if level.result.stopped:
            result.stopped = level.result.stopped
            break
    save(complete=result.stopped is None)
    return result


@dataclass(frozen=True)
class TuneRequest:
    """What a tune plays: tune's options, kept in tune.json from the start (`request`) so that an
    interrupted tune resumes; `count` levels instead of one target (`level`, `win_rate`)."""

    variant: str
    seed: int
    players: int | None = None
    options: dict = field(default_factory=dict)
    on_fault: str = "forfeit"
    level: str = "medium"
    win_rate: float = 0.65
    tolerance: float = DEFAULT_TOLERANCE
    steps: int = DEFAULT_STEPS
    games: int = COMPARE_LIMIT
    count: int | None = None
    gap_games: int = DEFAULT_GAP_GAMES

    @classmethod
    def saved(cls, out: Path) -> TuneRequest:
        """The request of the tune in `out`, to resume it (TourneyError: none to resume;
        RunFinished: it is complete)."""
        return tune_folder(out).saved(lambda content: cls(**content["request"]))


def run_request(request: TuneRequest, out: Path, execution: Execution,
                resume: bool = False) -> str | None:
    """Play the tune `request` asks for in `out` (`resume`: go on with the one there), all on
    one set of workers; returns why it stopped early (None: it did not). What it found is in
    out/tune.json."""
    with study_workers(execution) as execution:
        play = Play(request.variant, request.players, request.options, request.seed, execution,
                    request.on_fault, asdict(request), resume)
        if request.count is not None:
            return run_levels(play, request.count, out, steps=request.steps,
                              games_per_step=request.games, gap_games=request.gap_games,
                              tolerance=request.tolerance).stopped
        target = TuneTarget(request.level, request.win_rate, request.tolerance)
        return run_tune(play, target, out, steps=request.steps,
                        games_per_step=request.games).stopped


def levels_content(result: LevelsResult, play: Play) -> dict:
    return play_dict(play) | {
        "levels_wanted": result.count, "spacing": "evenly in Elo from easy (dial 0) to insane "
        "(dial 1), Elo from the built-in levels' steps head to head",
        "ladder": [{"level": name, "elo_over_easy": elo} for name, elo in result.ladder],
        "gaps": [asdict(gap) | {"error": gap.error} for gap in result.gaps],
        "levels": [level_dict(level) for level in result.levels],
        "monotone": result.monotone, "games": result.games, "seconds": result.seconds,
        "stopped": result.stopped}


def level_dict(level: Level) -> dict:
    out = {"level": level.number, "elo_over_easy": level.elo, "setting": level.setting}
    if level.end:
        return out | {"interval": [level.setting, level.setting], "games": 0, "seconds": 0.0,
                      "end": f"{level.end} move for move"}
    if level.result is None:
        return out | {"target": asdict(level.target), "interval": None, "games": 0,
                      "seconds": 0.0}
    return out | search_dict(level.result)


def levels_lines(saved: dict, out: Path) -> list[str]:
    """What `domsim tune --levels N` prints, from its tune.json (`levels_content`)."""
    lines = [f"levels: {saved['levels_wanted']} evenly spaced in Elo from easy (dial 0) to "
             f"insane (dial 1), {saved['variant']}, seed {saved['seed']}",
             "built-in steps (head to head on duplicate deals, 95% interval):"]
    for gap in saved["gaps"]:
        lines.append(f"  {gap['weaker']} -> {gap['stronger']}: {gap['elo']:+.0f} Elo "
                     f"[{gap['low']:+.0f}, {gap['high']:+.0f}], {gap['games']} games, "
                     f"{gap['seconds']:.1f} s")
    for level in saved["levels"]:
        head = f"level {level['level']}: {level['elo_over_easy']:+.0f} Elo over easy: "
        if "end" in level:
            lines.append(f"{head}dial?strength={level['setting']:g} ({level['end']})")
        elif "steps" not in level:
            lines.append(f"{head}not searched ({saved['stopped']})")
        else:
            target = level["target"]
            lines.append(f"{head}win {target['win_rate']:.1%} against {target['level']} (the "
                         f"target's standard error {target['elo_error']:.0f} Elo): "
                         f"{setting_text(level)}, {level['games']} games, "
                         f"{level['seconds']:.1f} s")
    order = "increasing" if saved["monotone"] else "NOT increasing (the searches disagree)"
    lines.append(f"settings {order}; {saved['games']} games, {saved['seconds']:.1f} s")
    lines.append(f"results: {out / TUNE_FILE}")
    return lines
