"""The Python API, for scripts and notebooks: play a tourney, a comparison or one game, and get
the results as pandas DataFrames. `domsim tourney` and `domsim run` are calls of `tourney`.

An entrant is a spec (as `-p` takes it), a Strategy subclass or a Strategy instance defined in
the session (every seat of every game plays a fresh copy), or a pair of these (a team, in team
variants); pass a dict to name them. Without `out` the run is played in a temporary folder that
is removed once its results are read; with `out` the run folder is kept, as `domsim tourney`
writes it. Local workers are forked, so a class defined in a notebook reaches them as it is;
the Dask backend ships it to the cluster's workers."""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .analysis import SAMPLES, outcomes, ratings, ratings_dict, run_statistics
from .clock import TimeControl
from .game import LoneSeeds, play_game
from .human import Terminal, is_human
from .limits import MOVE_TIME_LIMIT, SEAT_MEMORY_MB
from .pages import notebook
from .plan.config import TourneyConfig
from .plan.games import Plan
from .results.folder import MANIFEST, SUMMARY, RunError
from .results.legacy import legacy_problem
from .results.manifest import read_manifest
from .results.run import Run, load_run
from .results.summary import ALL
from .rules import make_rules
from .runner.console import FaultWatch, Standings
from .runner.local import default_workers
from .runner.session import Execution, resolve_config, run_session
from .runner.tourney import TourneyError
from .seat.process import Confinement, check_spec
from .seat.trace import traced
from .seeding import run_seed
from .spec import Spec
from .stats import Sprt
from .strategy import Strategy, define_strategy
from .studies import spsa
from .studies.calibrate import calibration_variants
from .studies.calibration import Request as CalibrationRequest
from .studies.calibration import (
    begin,
    calibration_folder,
    calibration_samples,
    enclosing_calibration,
    overview_runs,
    resumed_request,
    run_study,
)
from .studies.compare import (
    COMPARE_LIMIT,
    DEFAULT_BOUNDS,
    CompareResult,
    check_bounds,
    compare_figures,
    compare_lines,
    read_comparison,
    resume_config,
    run_compare,
)
from .studies.folder import StudyFolder
from .studies.steps import CALIBRATION
from .studies.steps import DEFAULT_MAX_GAMES as DEFAULT_STEP_GAMES
from .studies.steps import DEFAULT_TOLERANCE as DEFAULT_STEP_TOLERANCE
from .studies.steps import saved_lines as calibration_lines
from .studies.tune import (
    DEFAULT_GAP_GAMES,
    DEFAULT_STEPS,
    TUNE_FILE,
    TuneRequest,
    run_request,
    tune_folder,
)
from .studies.tune import DEFAULT_TOLERANCE as DEFAULT_TUNE_TOLERANCE
from .studies.tune import saved_lines as tune_lines

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

Member = str | type[Strategy] | Strategy
Entrant = Member | tuple[Member, Member]
Entrants = Sequence[Entrant] | Mapping[str, Entrant]
#: An entrant faulting in more than this share of its games is warned of while the run plays.
MAX_FAULT_RATE = 0.1


class Results:
    """A run read back: `games` (one row per game, as games.parquet), `summary` (as
    summary.csv), the `manifest`, `path` (None when the folder was not kept), `partial` and
    `stopped` (why the session ended early, if it did). The games table is read when first
    asked for, so a long run kept on disk costs no memory until then."""

    def __init__(self, path: Path, manifest: dict, kept: bool = True,
                 stopped: str | None = None) -> None:
        self._folder, self.manifest, self.stopped = path, manifest, stopped
        self.path = path if kept else None

    @property
    def partial(self) -> bool:
        return bool(self.manifest.get("partial"))

    def __repr__(self) -> str:
        m = self.manifest
        where = f" in {self.path}" if self.path else ""
        return (f"<{type(self).__name__}: {m.get('variant')}, {m.get('games_completed')} of "
                f"{m.get('games')} games{' (partial)' if self.partial else ''}{where}>")

    @functools.cached_property
    def run(self) -> Run:
        """The run as the analysis reads it (its games table as Arrow)."""
        return load_run(self._folder)

    @functools.cached_property
    def games(self) -> pd.DataFrame:
        return self.run.table.to_pandas()

    @functools.cached_property
    def summary(self) -> pd.DataFrame:
        import pandas as pd

        return pd.read_csv(self._folder / SUMMARY)

    def ratings(self, samples: int = 1000) -> pd.DataFrame:
        """Joint Elo of every entrant with its 95% bootstrap interval over whole deals,
        strongest first: the ratings of summary.csv, `domsim stats` and the report (Elo 0 the
        mean of the levels; `bound` "lower"/"upper" for a sweep's one-sided bound, whose open
        end is None, "anchor" for the one entrant Elo 0 is pinned to), and its faults."""
        import pandas as pd

        fitted = ratings_dict(self.run, ratings(self.run, outcomes(self.run), samples))
        table = pd.DataFrame(fitted["entrants"]).rename(columns={"name": "entrant"})
        return table.sort_values("elo", ascending=False, ignore_index=True)

    def statistics(self, samples: int = 1000) -> dict:
        """Every statistic of the run, as `domsim stats --json` prints it."""
        return run_statistics(self.run, samples)

    def crosstable(self) -> pd.DataFrame:
        """Row entrant's share of the wins against the column entrant (NaN: never met)."""
        return notebook.crosstable(self.run)

    def per_entrant(self) -> pd.DataFrame:
        """One row per game and entrant in it: its share of the win, margin, hands, faults."""
        return notebook.per_entrant(self.run)

    def plot_ratings(self, samples: int = 1000) -> Figure:
        """`ratings()` as a chart: each entrant's Elo with its 95% interval."""
        return notebook.ratings_figure(self.ratings(samples), repr(self).strip("<>"))

    def plot_crosstable(self) -> Figure:
        """`crosstable()` as a heatmap."""
        return notebook.crosstable_figure(self.crosstable(), repr(self).strip("<>"))

    def _repr_html_(self) -> str:
        return notebook.summary_html(repr(self).strip("<>"), self.summary)

    def read_all(self) -> Results:
        """Read every file now (before a temporary folder goes)."""
        _ = self.run, self.games, self.summary
        return self


class Comparison(Results):
    """A comparison's results, with the test's outcome: `verdict` ("H1", "H0" or None), `llr`,
    `figures` (every figure of the final block: what compare.json holds) and `lines` (what
    `domsim compare` prints)."""

    def __init__(self, result: CompareResult, kept: bool) -> None:
        super().__init__(result.out, read_manifest(result.out), kept, result.stopped)
        self.verdict, self.llr = result.progress.verdict, result.progress.llr
        self.figures = compare_figures(result)
        lines = compare_lines(result)  # the last names the folder: none when it is not kept
        self.lines = tuple(lines if kept else lines[:-1])

    def _repr_html_(self) -> str:
        pairing = next(label for label in self.summary["pairing"] if label != ALL)
        return notebook.summary_html(repr(self).strip("<>"), self.summary,
                                     [line for line in self.lines if line.startswith(
                                         ("verdict:", "Elo:", "LOS:", "games:"))], pairing)


def tourney(variant: str | None = None, entrants: Entrants | None = None, *,
            games: int | None = None, games_per_pairing: int | None = None,
            deals: str | Path | None = None, deals_order: str | None = None,
            players: int | None = None, format: str | None = None, seed: int | None = None,
            duplicate: bool | None = None, options: Mapping[str, object] | None = None,
            move_time_limit: float | None = None, time_control: str | None = None,
            records: bool | None = None, output_format: str | None = None,
            isolate: bool | None = None, seat_memory: int | None = None,
            sandbox: bool | None = None, on_fault: str | None = None, run_key: str | None = None,
            deal_groups: int | None = None,
            out: str | Path | None = None, resume: bool = False, workers: int | None = None,
            backend: str = "local", scheduler: str | None = None, progress: bool = False,
            standings_every: int = 0, standings_seconds: float = 0, game_lines: bool = False,
            max_fault_rate: float | None = MAX_FAULT_RATE, stop_on_faults: bool = False,
            debug: bool = False, command: Sequence[str] = ("domsim.api.tourney",)) -> Results:
    """Play a tourney and return its results; `domsim tourney` and `domsim run` are this call.

    The settings are `domsim tourney`'s options (None: not given, its default). Entrants
    default to the built-in levels; `seed` None picks one, kept in the manifest; `games`
    defaults to 1000, rounded up to whole deal sets (every pairing plays every deal in every
    seating; said in one line), `games_per_pairing` instead is rounded up to whole deals; `deals`, a
    deals file, fixes the first hands, each played once in every seating unless `games` says
    otherwise. Every strategy but the built-in levels (and a class defined in the session) plays
    in its own process, in the sandbox (domsim.seat.sandbox), under `seat_memory` MiB:
    `isolate=False` plays all in process, `sandbox=False` runs their processes without the sandbox;
    `isolate=True` refuses a class defined in the session. `on_fault` is what a seat's fault
    costs: "forfeit" (a new run's default) scores its side's game as lost, "substitute" counts
    the stand-in's moves. A run warns when an entrant faults in more than `max_fault_rate` of
    its games (None: never), and stops there with `stop_on_faults`. A run with strategies in
    their own process gets a secret key mixed into its game seeds (so no bot can work the deals
    out from the seed: docs/seat-protocol.md); `run_key` (a manifest's) reruns one.
    `deal_groups` N splits the pairings into N equal groups, each dealt deals of its own.
    `resume=True` finishes the
    run in `out` (settings given must be its own; RunFinished if nothing is left; a
    comparison's folder goes on with its test). `backend="dask"` plays on the cluster at
    `scheduler` (`workers` are then its threads). `progress` shows the bar and warnings; the
    standings are shown every `standings_every` games and/or `standings_seconds` seconds;
    `game_lines` prints a line for each finished game (`Finished game 12 (easy vs hard): ...`);
    `debug` writes every line of the seat protocol, with the bot and the game, to protocol.log in
    the run folder (bots in their own process speak it; they are then offered JSON only)."""
    given = {key: value for key, value in {
        "variant": variant, "games": games, "players": players, "format": format,
        "seed": seed, "duplicate": duplicate, "move_time_limit": move_time_limit,
        "time_control": time_control, "records": records, "output_format": output_format,
        "isolate": isolate, "seat_memory": seat_memory, "sandbox": sandbox,
        "deals_order": deals_order, "on_fault": on_fault, "run_key": run_key,
        "deal_groups": deal_groups,
        "deals": None if deals is None else str(deals),
        "entrants": None if entrants is None else entrant_texts(entrants),
        "options": None if options is None else {str(k): str(v) for k, v in options.items()},
    }.items() if value is not None}
    faults = FaultWatch(max_fault_rate, stop_on_faults)
    if resume and out is not None and _purpose(Path(out)) == "compare":
        return resume_compare(out, workers=workers, progress=progress, command=command,
                              faults=faults, given=given, backend=backend, scheduler=scheduler,
                              debug=debug)
    if games_per_pairing is not None and ("games" in given or "variant" not in given or resume):
        raise TourneyError("--games-per-pairing needs --variant, no --games and a new run (not "
                           "--resume): drop one or the other")
    with _folder(out, resume) as (folder, kept):
        config, folder = resolve_config(given, folder, resume)
        every_deal = "deals" in given and "games" not in given and not resume
        plan, note = Plan.settle(config, games_per_pairing, every_deal)
        notes = [note] if note else []
        if not resume:  # every pairing plays every deal in every seating, so deal luck cancels
            plan, rounded = plan.in_whole_deal_sets()
            notes += [rounded] if rounded else []
        execution = _execution(workers, backend, scheduler, progress, command, faults=faults,
                               standings=Standings(standings_every, standings_seconds,
                                                   not progress),
                               game_lines=game_lines, debug=debug)
        outcome = run_session(plan, folder, execution, resume=resume, notes=notes)
        if outcome.partial and not kept:
            raise TourneyError(f"{outcome.stopped or 'stopped'} after {outcome.done} of "
                               f"{outcome.total} games; give out= to keep a run that can be "
                               "resumed")
        results = Results(folder, read_manifest(folder), kept, outcome.stopped)
        return results if kept else results.read_all()


def compare(a: Entrant, b: Entrant, variant: str, *, elo0: float = DEFAULT_BOUNDS[0],
            elo1: float = DEFAULT_BOUNDS[1], alpha: float = 0.05, beta: float = 0.05,
            elo_model: str = "logistic", sequential: bool = True, games: int = COMPARE_LIMIT,
            names: tuple[str, str] | None = None, command: Sequence[str] = ("domsim.api.compare",),
            players: int | None = None, seed: int | None = None,
            options: Mapping[str, object] | None = None, isolate: bool | None = None,
            seat_memory: int = SEAT_MEMORY_MB, sandbox: bool = True, on_fault: str = "forfeit",
            out: str | Path | None = None, workers: int | None = None, progress: bool = False,
            max_fault_rate: float | None = MAX_FAULT_RATE, stop_on_faults: bool = False,
            time_control: str | None = None, run_key: str | None = None,
            game_lines: bool = False, move_time_limit: float | None = MOVE_TIME_LIMIT,
            deals: str | Path | None = None, deals_order: str = "in-order",
            records: bool = False, backend: str = "local",
            scheduler: str | None = None, debug: bool = False) -> Comparison:
    """Play A against B on duplicate deals until the SPRT (elo0, elo1, alpha, beta) decides or
    `games` are played (`sequential=False`: exactly `games`, no test), as `domsim compare`;
    `names` names the two entrants; `command` is what the manifest says ran it; `isolate`,
    `seat_memory`, `sandbox`, `on_fault` (here "forfeit" by default: a fault loses the game, as
    in fastchess), `max_fault_rate`, `stop_on_faults`, `move_time_limit`, `time_control`,
    `deals`, `deals_order`, `records`, `run_key`, `game_lines`, `backend`, `scheduler` and
    `debug` as `tourney`'s
    (a comparison is a tourney of two entrants that its test may end early)."""
    entrants = dict(zip(names, (a, b), strict=True)) if names else [a, b]
    config = _config(variant, entrants, games=games, players=players, seed=seed,
                     options=options, isolate=isolate, seat_memory=seat_memory, sandbox=sandbox,
                     on_fault=on_fault, time_control=time_control, run_key=run_key,
                     move_time_limit=move_time_limit, deals_order=deals_order, records=records,
                     **({} if deals is None else {"deals": str(deals)}))
    if sequential:
        check_bounds(elo0, elo1, elo_model)
    sprt = Sprt(elo0, elo1, alpha, beta, model=elo_model) if sequential else None
    with _folder(out) as (folder, kept):
        execution = _execution(workers, backend, scheduler, progress, command,
                               faults=FaultWatch(max_fault_rate, stop_on_faults),
                               game_lines=game_lines, debug=debug)
        result = run_compare(config, folder, sprt, execution)
        comparison = Comparison(result, kept)
        return comparison if kept else comparison.read_all()


def resume_compare(out: str | Path, *, workers: int | None = None, progress: bool = False,
                   command: Sequence[str] = ("domsim.api.resume_compare",),
                   faults: FaultWatch | None = None, given: Mapping | None = None,
                   backend: str = "local", scheduler: str | None = None,
                   debug: bool = False) -> Comparison:
    """Go on with the interrupted comparison in `out` until its test decides: the same verdict
    after the same games, with the same LLR, as an uninterrupted run of its seed (RunFinished
    if the test had decided), also after the process was killed. Settings in `given` must be
    the run's own; `backend`, `scheduler` and `debug` as `tourney`'s."""
    out = Path(out)
    config, sprt = resume_config(out)
    if given:
        config = TourneyConfig.from_dict({**config.to_dict(), **given})
    execution = _execution(workers, backend, scheduler, progress, command, faults=faults,
                           debug=debug)
    result = run_compare(config, out, sprt, execution, resume=True)
    return Comparison(result, True)


def _execution(workers: int | None, backend: str, scheduler: str | None, progress: bool,
               command: Sequence[str], **more) -> Execution:
    """How a call's sessions run: on `workers` (default: one a core), `backend` and
    `scheduler`, silent unless `progress`, the manifest naming `command`; `more`: Execution's
    other fields."""
    return Execution(workers or default_workers(), backend, scheduler, not progress,
                     tuple(command), **more)


def _purpose(out: Path) -> str | None:
    """What the run in `out` is (None: no readable manifest: the resume says why)."""
    try:
        return read_manifest(out).get("purpose")
    except RunError:
        return None


def load(path: str | Path) -> Results | Study:
    """What a folder domsim wrote holds: a run's results (finished or partial), a comparison's as
    a Comparison (its test read again from its games), a calibration's, a tune's or an SPSA
    tune's as a Study."""
    path = Path(path)
    if not (path / MANIFEST).is_file():
        return load_study(path)
    manifest = read_manifest(path)
    if problem := legacy_problem(manifest, path):
        raise TourneyError(problem)
    if manifest.get("purpose") == "compare":
        return Comparison(read_comparison(path), True)
    return Results(path, manifest)


def play(variant: str, seats: Sequence[Member], *, seed: int | None = None,
         run_key: str | None = None, players: int | None = None,
         options: Mapping[str, object] | None = None,
         move_time_limit: float | None = MOVE_TIME_LIMIT, isolate: bool | None = None,
         seat_memory: int = SEAT_MEMORY_MB, sandbox: bool = True,
         terminal: Terminal | None = None, time_control: str | None = None,
         debug: bool = False) -> dict:
    """Play one game with a strategy per seat in seat order (one fills every seat) and return
    its record (docs/GAME-RECORD.md), as `domsim play --record` writes it, dealt from `seed`
    (None: a random one) and, where a bot plays in its own process, a secret key (`run_key`
    reruns one: the record's), as a tourney's games are (the record keeps both); `isolate`,
    `seat_memory`, `sandbox` and `time_control` as `tourney`'s (`exec:` specs play in their own
    process anyway). A `human` seat is a person at `terminal` (domsim.human: `say(line)` and
    `ask(prompt)`). `debug` writes the seat protocol's lines to stderr, as `tourney`'s does to a
    file."""
    specs = [Spec.of(_member_spec(seat)) for seat in seats]
    count = players if players is not None else (len(specs) if len(specs) > 1 else None)
    rules = make_rules(variant, count,
                       {str(k): str(v) for k, v in (options or {}).items()})
    if len(specs) == 1:
        specs *= rules.players
    confinement = Confinement(seat_memory, sandbox)
    with traced("-" if debug else None):  # a bot that fails its check shows its handshake
        for spec in dict.fromkeys(specs):
            if not is_human(spec):
                check_spec(spec, isolate, confinement)
        seeds = LoneSeeds.draw(specs, isolate, seed, run_key)
        return seeds.in_record(play_game(
            rules, specs, seeds.game, move_time_limit=move_time_limit, isolate=isolate,
            confinement=confinement, terminal=terminal,
            time_control=TimeControl.parse(time_control) if time_control else None))


# -- helpers -------------------------------------------------------------------------------------
def _member_spec(member: Member) -> str:
    return member if isinstance(member, str) else define_strategy(member)


def entrant_texts(entrants: Entrants) -> tuple[str, ...]:
    """The `[NAME=]SPEC` texts of the entrants, objects defined as `session:` specs."""
    named = entrants.items() if isinstance(entrants, Mapping) else ((None, e) for e in entrants)
    texts = []
    for name, entrant in named:
        members = entrant if isinstance(entrant, tuple) else (entrant,)
        spec = "+".join(_member_spec(member) for member in members)
        texts.append(f"{name}={spec}" if name else spec)
    return tuple(texts)


def _config(variant: str, entrants: Entrants | None, *, seed: int | None,
            options: Mapping[str, object] | None, **settings) -> TourneyConfig:
    return TourneyConfig.from_dict({
        "variant": variant, "entrants": entrant_texts(entrants or ()),
        "seed": run_seed(seed),
        "options": dict(options or {}), **settings})


@contextmanager
def _folder(out: str | Path | None, resume: bool = False) -> Iterator[tuple[Path, bool]]:
    """The run folder and whether it is kept: `out`, or a temporary one removed afterwards."""
    if out is not None or resume:
        yield (None if out is None else Path(out)), True
        return
    with tempfile.TemporaryDirectory(prefix="domsim-") as temp:
        yield Path(temp) / "run", False


@dataclass
class Study:
    """A calibration's, a tune's or an SPSA tune's outcome (`kind`): its folder, what the
    command prints (`lines`), the study's file's content (`figures`: calibration.json's,
    tune.json's or spsa.json's), the report page (a calibration's), and why it stopped early
    (`stopped`: None when it did not: `partial` then False). In a notebook it shows as its
    lines, with a link to its page."""

    kind: str
    path: Path
    lines: list[str]
    figures: dict
    page: Path | None = None
    stopped: str | None = None

    @property
    def partial(self) -> bool:
        return self.stopped is not None

    def __repr__(self) -> str:
        return (f"<{type(self).__name__}: {self.kind}{' (partial)' if self.partial else ''} "
                f"in {self.path}>")

    def _repr_html_(self) -> str:
        return notebook.study_html(repr(self).strip("<>"), self.lines, self.stopped, self.page)


#: What each kind of study keeps in its folder from the start, and how its lines are read back.
STUDY_FILES = {"calibration": (CALIBRATION, calibration_lines), "tune": (TUNE_FILE, tune_lines),
               "SPSA tune": (spsa.SPSA_FILE, spsa.saved_lines)}


def load_study(path: str | Path, stopped: str | None = None) -> Study:
    """The study in folder `path` as its file holds it: finished, stopped (`stopped` says why:
    when it does not, an unfinished study says it was not finished), or still playing."""
    path = Path(path)
    kind = next((kind for kind, (file, _) in STUDY_FILES.items() if (path / file).is_file()),
                None)
    if kind is None:
        raise TourneyError(f"{path} holds no {MANIFEST}, {CALIBRATION}, {TUNE_FILE} or "
                           f"{spsa.SPSA_FILE}: give the folder of a run or a study")
    file, lines_of = STUDY_FILES[kind]
    figures, lines = StudyFolder(path, file, kind).read(
        lambda figures: (figures, lines_of(figures, path)))
    if not figures.get("complete"):
        stopped = stopped or f"not finished: `--out {path} --resume` goes on with it"
    page = path / "report.html"
    return Study(kind, path, lines, figures, page if page.is_file() else None, stopped)


def calibrate(variants: Sequence[str] | None = None, *, levels: Sequence[str] = (),
              dial: Sequence[float] = (), games: int = 1000, players: int | None = None,
              tolerance: float = DEFAULT_STEP_TOLERANCE, precision: float | None = None,
              max_games: int = DEFAULT_STEP_GAMES, seed: int | None = None,
              run_key: str | None = None, on_fault: str = "substitute",
              time_control: str | None = None, samples: int = SAMPLES,
              out: str | Path | None = None, resume: bool = False, workers: int | None = None,
              progress: bool = False, max_fault_rate: float | None = MAX_FAULT_RATE,
              stop_on_faults: bool = False, say: Callable[[str], None] | None = None,
              backend: str = "local", scheduler: str | None = None,
              command: Sequence[str] = ("domsim.api.calibrate",)) -> Study:
    """Calibrate the levels of each rule set (None: every one) as `domsim calibrate` does and
    write its report in `out` (default results/calibrate-<time>): an overview, then each step
    of the ladder played until decided (`precision`: also until its interval is that narrow).
    `resume=True` goes on with the calibration in `out` (its own settings). The result's
    `lines` are the steps as told (each also to `say` as it is); a study that stopped early
    says why in `stopped`. `backend` and `scheduler` as `tourney`'s: every run of the study
    plays there, to the same results."""
    execution = _execution(workers, backend, scheduler, progress, command,
                           faults=FaultWatch(max_fault_rate, stop_on_faults))
    execution.check()  # before a new study's folder is made
    study_folder = calibration_folder(out, resume)
    if resume:
        request = resumed_request(study_folder)
    else:
        request = CalibrationRequest(
            tuple(calibration_variants(tuple(variants or ()), variants is None)),
            run_seed(seed), games=games, players=players,
            levels=tuple(levels), dial=tuple(dial), run_key=run_key, on_fault=on_fault,
            time_control=time_control, tolerance=tolerance, max_games=max_games,
            samples=samples, precision=precision)
        begin(request, study_folder)
    lines: list[str] = []

    def told(line: str) -> None:
        lines.append(line)
        if say is not None:
            say(line)

    study = run_study(request, study_folder, execution, told)
    folder = study_folder.path
    page = report(study.folders, folder, request.samples, study.calibration, study.partial)
    stopped = None
    if study.partial:
        outcome = study.outcome
        stopped = (f"{outcome.stopped or 'stopped'} in {study.folders[-1]} after "
                   f"{outcome.done} of {outcome.total} games")
    return Study("calibration", folder, lines, study_folder.content(), page, stopped)


def report(run_dirs: Sequence[str | Path], out: str | Path, samples: int | None = None,
           calibration: dict | None = None, partial: bool = False) -> Path:
    """Build the report (report.html, levels.json, charts/, tables/) in `out` from run folders
    (finished or partial; a calibration's folder: its overview runs), one section per run, as
    `domsim report` does; a calibration's steps (`calibration`, else those of the calibration
    the runs sit in) fill its summary, and its `samples` are the report's unless given (so its
    P values are those of the calibration's own page). Returns the page."""
    from .pages.report import write_report  # matplotlib takes a third of a second to import

    given = run_dirs
    run_dirs = [run for path in given for run in overview_runs(path)]
    if given and not run_dirs:
        raise TourneyError(f"no run to report in {given[0]}: the calibration has played none")
    if calibration is None:
        calibration = enclosing_calibration(run_dirs)
        partial = partial or (calibration is not None and not calibration.get("complete"))
    if samples is None:
        samples = calibration_samples(calibration)
    runs = [run_statistics(load_run(Path(path)), samples) for path in run_dirs]
    return write_report(runs, Path(out), calibration, partial)


def tune(variant: str | None = None, *, against: str = "medium", win_rate: float = 0.65,
         levels: int | None = None, gap_games: int = DEFAULT_GAP_GAMES,
         tolerance: float = DEFAULT_TUNE_TOLERANCE, steps: int = DEFAULT_STEPS,
         games: int = COMPARE_LIMIT, seed: int | None = None, players: int | None = None,
         options: Mapping[str, object] | None = None, on_fault: str = "forfeit",
         out: str | Path | None = None, resume: bool = False, workers: int | None = None,
         progress: bool = False, backend: str = "local", scheduler: str | None = None,
         command: Sequence[str] = ("domsim.api.tune",)) -> Study:
    """Tune the dial as `domsim tune` does: the strength that wins `win_rate` against
    `against`, or (`levels`) that many levels evenly spaced in Elo from easy to insane; in
    `out` (default results/tune-<time>), or going on with the tune there (`resume=True`);
    `backend` and `scheduler` as `tourney`'s."""
    execution = _execution(workers, backend, scheduler, progress, command)
    execution.check()  # before a new study's folder is made
    folder = tune_folder(out, resume).path
    if resume:
        request = TuneRequest.saved(folder)
    else:
        if variant is None:
            raise TourneyError("missing --variant: choose a rule set (see `domsim variants`)")
        given = {"variant": variant, "players": players, "entrants": ("dial", against),
                 "options": {str(k): str(v) for k, v in (options or {}).items()}}
        config, _ = resolve_config(given | ({} if seed is None else {"seed": seed}), folder,
                                   False)
        config.rules()  # a bad variant, player count or option fails here, before any game
        request = TuneRequest(variant, config.seed, players, config.options, on_fault, against,
                              win_rate, tolerance, steps, games, levels, gap_games)
    return load_study(folder, run_request(request, folder, execution, resume))


def tune_parameters(strategy: Member | None = None, params: Sequence[str] = (), *,
                    against: Member | None = None, variant: str | None = None,
                    games: int = spsa.DEFAULT_GAMES, confirm: int = spsa.CONFIRM_GAMES,
                    seed: int | None = None, players: int | None = None,
                    options: Mapping[str, object] | None = None, on_fault: str = "forfeit",
                    c_end: float = spsa.C_END, r_end: float = spsa.R_END,
                    isolate: bool | None = None, out: str | Path | None = None,
                    resume: bool = False,
                    workers: int | None = None, progress: bool = False,
                    backend: str = "local", scheduler: str | None = None,
                    command: Sequence[str] = ("domsim.api.tune_parameters",)) -> Study:
    """Tune a strategy's numeric parameters by SPSA as `domsim tune --strategy` does
    (domsim.studies.spsa): `strategy` a spec or, as `tourney` takes them, a Strategy subclass
    or instance defined in the session (it then plays in process); `params` as
    `NAME=LOW:HIGH[:START]`, against `against` (default: the strategy at its starting values)
    over `games` games in all, then a confirmation duel of `confirm` games (0: none) of the tuned
    values against the starting ones; `c_end` and `r_end` set where the gains end (fishtest's:
    c_k ends at that share of each range, a_k / c_k^2 at r_end); `isolate` as `tourney`'s
    (False: a trusted file plays in process); in `out` (default results/tune-<time>), or going
    on with the tune there (`resume=True`); `backend` and `scheduler` as `tourney`'s."""
    execution = _execution(workers, backend, scheduler, progress, command)
    execution.check()  # before a new study's folder is made
    folder = spsa.spsa_folder(out, resume).path
    if resume:
        request, state = spsa.saved(folder)
    else:
        if variant is None or strategy is None:
            raise TourneyError("missing --variant or --strategy: name the rule set and the "
                               "strategy to tune")
        spec = _member_spec(strategy)
        parsed = spsa.parse_params(list(params), spec)
        start = spsa.spec_with(spec, parsed, [p.start for p in parsed])
        request = spsa.SpsaRequest(
            spec, parsed, _member_spec(against) if against is not None else start, variant,
            run_seed(seed), games, players,
            {str(k): str(v) for k, v in (options or {}).items()}, on_fault, confirm, c_end, r_end,
            isolate)
        spsa.begin(request, folder)
        state = spsa.SpsaState(request.start)
    with spsa.progress_bar(request, state, progress) as bar:
        result = spsa.run_spsa(request, state, folder, execution, bar)
    return load_study(folder, result.stopped)


__all__ = ["Comparison", "Results", "Study", "calibrate", "compare", "load", "play", "report",
           "resume_compare", "tourney", "tune", "tune_parameters"]
