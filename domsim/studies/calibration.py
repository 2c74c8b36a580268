"""`domsim calibrate` as one study: per rule set an overview tourney, then each step of its
ladder played until decided (domsim.studies.steps), every run a session of the one driver
(runner.session) in a folder under the study's. The request is kept in calibration.json from the
start, so an interrupted calibration (Ctrl-C, or killed outright) goes on with `--resume`: runs
finished are read back, the interrupted one resumed, the rest played, to the straight run's
results."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..analysis import MIN_DEALS, SAMPLES
from ..plan.config import TourneyConfig
from ..plan.games import Plan
from ..results.folder import MANIFEST
from ..results.manifest import Outcome
from ..runner.session import Execution, run_session, study_workers
from ..runner.tourney import RunFinished, TourneyError
from .calibrate import run_calibration
from .compare import CompareResult, compare_in
from .folder import StudyFolder
from .steps import CALIBRATION, DEFAULT_MAX_GAMES, DEFAULT_TOLERANCE, Calibration, StepPlan


@dataclass(frozen=True)
class Request:
    """What a calibration plays: calibrate's options (studies.calibrate, studies.steps)."""

    variants: tuple[str, ...]
    seed: int
    games: int = 1000
    players: int | None = None
    levels: tuple[str, ...] = ()
    dial: tuple[float, ...] = ()
    run_key: str | None = None
    on_fault: str = "substitute"
    time_control: str | None = None
    tolerance: float = DEFAULT_TOLERANCE
    max_games: int = DEFAULT_MAX_GAMES
    samples: int = SAMPLES
    precision: float | None = None

    def plan(self) -> StepPlan:
        return StepPlan(self.tolerance, self.max_games, self.seed, self.run_key,
                        self.precision)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, values: dict) -> Request:
        return cls(**{key: tuple(value) if isinstance(value, list) else value
                      for key, value in values.items()})


@dataclass
class Calibrated:
    """A calibration's outcome: the overview folders played, the last run's outcome and the
    steps (calibration.json's content)."""

    folders: list[Path]
    outcome: Outcome
    calibration: dict = field(default_factory=dict)

    @property
    def partial(self) -> bool:
        return self.outcome.partial or not self.calibration.get("complete")


def overview_runs(folder: str | Path) -> list[Path]:
    """The runs a report of `folder` reads: a calibration's overview runs (one per rule set,
    those begun), else the folder itself (TourneyError, one line: its calibration.json is
    unreadable)."""
    folder = Path(folder)
    if not (folder / CALIBRATION).is_file():
        return [folder]
    return StudyFolder(folder, CALIBRATION, "calibration").read(
        lambda content: [folder / variant for variant in content["settings"]["variants"]
                         if (folder / variant / MANIFEST).is_file()])


def enclosing_calibration(runs: Sequence[str | Path]) -> dict | None:
    """The steps of the calibration the runs sit in (the folder holding them holds
    calibration.json), its ladders those of these runs: what `calibrate` gave their report. None
    when no run sits in one; TourneyError (one line) when they sit in several or it is
    unreadable."""
    paths = [Path(run).resolve() for run in runs]
    homes = sorted({path.parent for path in paths if (path.parent / CALIBRATION).is_file()})
    if not homes:
        return None
    if len(homes) > 1:
        raise TourneyError(f"the runs sit in {len(homes)} calibrations ({homes[0]}, "
                           f"{homes[1]}, ...): report each calibration's runs apart")
    names = {path.name for path in paths}
    return StudyFolder(homes[0], CALIBRATION, "calibration").read(
        lambda content: {**content, "ladders": [ladder for ladder in content.get("ladders", [])
                                                if Path(ladder["overview"]).name in names]})


def calibration_samples(calibration: dict | None) -> int:
    """The bootstrap resamplings a calibration's report was written with (its request's
    `samples`), so that a report of its runs gives the same intervals and P values; SAMPLES
    for runs in no calibration."""
    settings = (calibration or {}).get("settings")
    samples = settings.get("samples") if isinstance(settings, dict) else None
    return samples if type(samples) is int and samples >= 0 else SAMPLES


def calibration_folder(out: str | Path | None, resume: bool = True) -> StudyFolder:
    """The calibration's folder: `out`, else a new one (domsim.studies.folder)."""
    return StudyFolder.given(out, resume, CALIBRATION, "calibration", "calibrate")


def begin(request: Request, folder: StudyFolder) -> None:
    """Make the study's folder (refused if it exists: one study makes it) with its request."""
    for variant in request.variants:  # every rule set's request is checked before any folder
        TourneyConfig(variant=variant, players=request.players).rules()
    folder.create({"settings": request.to_dict()})


def resumed_request(folder: StudyFolder) -> Request:
    """The request of the calibration in `folder` (TourneyError, one line: none to resume;
    RunFinished: it is complete)."""
    return folder.saved(lambda content: Request.from_dict(content["settings"]))


def run_study(request: Request, folder: StudyFolder, execution: Execution,
              say: Callable[[str], None] = print) -> Calibrated:
    """Play the calibration in `folder` (made by `begin`, or resumed), held for this writer:
    each rule set's overview and then its steps, each run new, resumed or (finished) read
    back, all on one set of workers; `say` tells the steps."""
    with folder.held(execution.command), study_workers(execution) as execution:
        return play_study(request, folder, execution, say)


def play_study(request: Request, study: StudyFolder, execution: Execution,
               say: Callable[[str], None]) -> Calibrated:
    out = study.path

    def overview(plan: Plan, folder: Path, notes: list[str], ladder: list[str]) -> Outcome:
        if not folder.exists():
            for note in notes:
                say(f"{plan.config.variant}: {note}")
        try:
            return run_session(plan, folder, execution, resume=folder.exists(),
                               purpose="calibration", said=notes, about={"levels": ladder})
        except RunFinished:
            return Outcome(plan.config.games, plan.config.games, 0)

    def step(config: TourneyConfig, folder: Path, rule) -> CompareResult:
        return compare_in(config, folder, None, execution, rule=rule, purpose="calibration")

    steps = Calibration(out, request.plan(), step, say, request.to_dict())
    folders, outcome = run_calibration(
        list(request.variants), out, games=request.games, seed=request.seed,
        run_key=request.run_key, players=request.players, levels=request.levels,
        on_fault=request.on_fault, run=overview, time_control=request.time_control,
        dial=request.dial, min_deals=MIN_DEALS, steps=steps)
    calibration = steps.to_dict()
    complete = not outcome.partial and len(steps.ladders) == len(request.variants)
    study.save(calibration, complete)
    return Calibrated(folders, outcome, calibration | {"complete": complete})
