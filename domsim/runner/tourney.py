"""Running a tourney: prepare the output folder (or resume one), stream batches through a
backend in game-id order, and have domsim.results write each finished batch and, when the
session ends, the games table, summary.csv and manifest.json."""

from __future__ import annotations

import hashlib
import inspect
import logging
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol, TypeVar

import numpy as np
import pyarrow as pa

from ..deals import Deal
from ..errors import DomsimError
from ..plan.config import TourneyConfig
from ..plan.games import Plan
from ..plan.pairings import Entrant, parse_entrants
from ..plan.schedule import Schedule, batches
from ..record import GameResult
from ..results.checksums import file_digest
from ..results.columns import games_schema
from ..results.finish import finish
from ..results.folder import MANIFEST, PARTS
from ..results.legacy import legacy_problem
from ..results.manifest import (
    Outcome,
    begin_session,
    deals_info,
    manifest_config,
    new_manifest,
    now,
    read_manifest,
)
from ..results.parts import clean_parts, done_game_ids, write_part
from ..results.summary import Tally, faults_forfeit
from ..results.table import read_games
from ..rules import Rules
from ..seat.command import bot_command, in_process_reason
from ..seat.process import check_spec
from ..seeding import run_key
from ..spec import Spec
from ..strategy import StrategyError, load_strategy
from .console import FaultRateExceeded
from .lock import LockedError, RunLock
from .signals import stops_deferred, stops_ignored
from .worker import Batch, BatchResult, play_batch, run_confinement

log = logging.getLogger("domsim.runner")
T = TypeVar("T")
MAX_BATCH = 100
#: A watched run's batches: few deals, so little is played past the decision.
DEALS_PER_BATCH = 10


class TourneyError(DomsimError):
    """An output folder or resume request that cannot be honoured; the message is one line."""


class RunFinished(TourneyError):
    """`--resume` of a run that has every game: nothing to do, and nothing was changed."""


class Abandoned(KeyboardInterrupt):
    """A second stop signal while the running batches finished: they were given up."""


class Decided(Exception):
    """Raised from inside the result stream to end it once the run's watch has decided."""


class Watch(Protocol):
    """What may end a run before its last game (compare's SPRT, a calibration step's looks).
    It is fed every game in game-id order, a resumed run's earlier games first, and the run
    ends with the game that decided, so the same seed ends at the same game whatever the
    number of workers or sessions."""

    decided: bool
    deal_games: int  # a deal's games (every seating): batches hold whole deals
    may_stop: bool  # whether it may end the run before its last game (a test: yes)

    def take(self, games: pa.Table) -> int:
        """How many of `games` (games-table rows in game-id order) it counts: up to the one
        that decides, or all of them."""
        ...

    def note(self) -> str:
        """The test's state, for the progress bar."""
        ...

    def section(self) -> dict:
        """The test's settings and state, kept in the manifest under "compare"."""
        ...


@dataclass
class Tourney:
    """A tourney's plan (domsim.plan) bound to its folder, with the strategies checked for how
    they run and the games table's schema."""

    config: TourneyConfig
    out: Path
    plan: Plan = field(init=False)
    schema: pa.Schema = field(init=False)
    lock: RunLock | None = field(default=None, repr=False, compare=False)
    damaged: list[str] = field(default_factory=list)  # parts a resume found damaged, dropped

    def __post_init__(self) -> None:
        self.plan = Plan.of(self.config)
        for entrant in self.plan.entrants:
            for spec in entrant.members:
                check_spec(spec, self.config.isolate, run_confinement(self.config))
                if command := bot_command(spec, self.config.isolate):
                    command.check_not_holding(self.out, "this run's folder (--out)")
        self.schema = games_schema(self.plan.rules)

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

    def batch(self, game_ids: list[int]) -> Batch:
        return Batch(self.config, tuple(self.entrants), tuple(self.pairings), self.schedule,
                     tuple(game_ids),
                     tuple(self.plan.fixed_deal(g) for g in game_ids if self.deals))


def open_tourney(config: TourneyConfig, out: Path, resume: bool,
                 command: Sequence[str] = (), keep_seeds: bool = False) -> Tourney:
    """Take the folder (new, or a resumable run with the same settings) for this writer alone;
    the caller closes the tourney to let it go. A new run with bots in their own process gets a
    secret key unless it has one or `keep_seeds` (an old run upgraded keeps its games' seeds)."""
    named = replace(config, entrants=tuple(config.entrant_names()))
    if not (resume or keep_seeds) and config.run_key is None:
        named = replace(named, run_key=run_key(None, bots_out_of_process(named)))
    # A new run's settings are checked before its folder is made: a bad one writes nothing.
    tourney = None if resume else Tourney(named, out)
    lock = resume_lock(out, command) if resume else new_folder_lock(out, command)
    try:
        if resume:
            tourney = Tourney(resumable_config(out, named), out)
        tourney.lock = lock
        (out / PARTS).mkdir(exist_ok=True)
        tourney.damaged = clean_parts(out) if resume else []
    except BaseException:
        lock.release()
        raise
    return tourney


def bots_out_of_process(config: TourneyConfig) -> bool:
    """Whether any strategy of the run plays in its own process: then the run gets a secret
    key, so that no bot can work out the deals from a guessed seed (domsim.seeding)."""
    return any(bot_command(spec, config.isolate) is not None
               for entrant in parse_entrants(config.entrant_names(), config.rules())
               for spec in entrant.members)


def new_folder_lock(out: Path, command: Sequence[str]) -> RunLock:
    """Create the folder (refused if it exists: only one run can make it) and lock it."""
    new_folder(out, "run")
    return take_lock(out, command)


def new_folder(out: Path, what: str) -> None:
    """Create the `--out` folder of a new run or study (`what`), refused if it exists."""
    try:
        out.mkdir(parents=True)
    except FileExistsError:
        raise TourneyError(f"{out} already exists: choose another --out, or add --resume to "
                           f"finish the {what} in it") from None
    except OSError as exc:
        raise TourneyError(f"cannot create --out {out}: {exc.strerror}: choose another "
                           "folder") from None


def resume_lock(out: Path, command: Sequence[str]) -> RunLock:
    if not out.is_dir():
        raise TourneyError(f"--resume: {out} is not a folder: give the --out of the run to "
                           "finish")
    return take_lock(out, command)


def take_lock(out: Path, command: Sequence[str]) -> RunLock:
    try:
        return RunLock.acquire(out, command)
    except LockedError as exc:
        raise TourneyError(str(exc)) from None
    except OSError as exc:
        raise TourneyError(f"cannot lock {out}: {exc.strerror}") from None


def resumable_config(out: Path, config: TourneyConfig) -> TourneyConfig:
    """`config` for going on with the run in `out`, which must have these settings (its secret
    key is kept where none is given: a study resuming its runs never saw their keys) and not
    be finished (RunFinished: every game played, or its test decided)."""
    manifest = resume_manifest(out)
    if problem := legacy_problem(manifest, out):
        raise TourneyError(problem)
    saved = TourneyConfig.from_dict(manifest_config(manifest, out))
    if config.run_key is None:
        config = replace(config, run_key=saved.run_key)
    if saved != config:
        raise TourneyError(f"--resume: the settings differ from those of the run in {out}: "
                           f"{describe_difference(saved, config)}")
    if config.deals and deals_info(config, 0)["sha256"] != manifest.get("deals", {}).get("sha256"):
        raise TourneyError(f"--resume: {config.deals} changed since the run in {out} began: "
                           "restore it, or start a new run")
    if manifest.get("partial") is False:
        raise RunFinished(f"{out} is already complete ({manifest.get('games_completed')} "
                          "games): nothing to resume, nothing changed")
    return config


def resume_manifest(out: Path) -> dict:
    """The manifest of the run `--resume` goes on with (TourneyError: there is none)."""
    if not (out / MANIFEST).is_file():
        raise TourneyError(f"--resume: {out} holds no {MANIFEST}: nothing to resume")
    return read_manifest(out)


def describe_difference(saved: TourneyConfig, given: TourneyConfig) -> str:
    return "; ".join(f"{key} was {old!r}, now {new!r}"
                     for key, old, new in saved.differences(given))


def run_tourney(tourney: Tourney, executor_factory: Callable[[], Executor], *, workers: int,
                backend: str, command: list[str], purpose: str = "tourney",
                progress: Callable[[list[dict], list[GameResult], Tally, str], None] = (
                    lambda *_: None),
                about: dict | None = None, watch: Watch | None = None,
                rated: bool = True) -> Outcome:
    """Play every game id not yet in the folder (with a `watch`, until it decides), then write
    the result files, the summary's ratings only if `rated` (also when the session is
    interrupted, a worker dies or a write fails: then the manifest says partial); a new run's
    manifest also holds `about` (a calibration's `levels`) and the watch's section, written
    before the first game so a run killed at any point can be resumed with its test."""
    out, config = tourney.out, tourney.config
    for damage in tourney.damaged:
        log.warning("%s: its games are played again", damage)
    done = done_game_ids(out)
    tally = tourney.tally()
    if done:  # the standings (and the watch) count the earlier sessions too
        feed_earlier(tourney, tally, watch)
    started = now()
    manifest = (tourney.manifest_for(command, purpose) | (about or {}) if not done
                else read_manifest(out))
    if watch is not None:
        manifest["compare"] = watch.section()
    session = {"command": command, "workers": workers, "backend": backend, "started": started}
    begin_session(out, manifest, session)
    played = 0

    def keep(result: BatchResult) -> None:
        nonlocal played
        if watch is not None and (watch.decided or result.game_ids[0] != len(done) + played):
            return  # after the deciding batch, or (stopping) after one that did not finish
        with stops_deferred():  # a part written is a part counted, a stop signal or not
            games = pa.Table.from_pylist(result.rows, schema=tourney.schema)  # once, for all
            if watch is not None:
                games = games.slice(0, watch.take(games))
            write_part(out, games, result.records[:games.num_rows])
            tally.add_table(games)
            played += games.num_rows
        progress(result.rows[:games.num_rows], result.results[:games.num_rows], tally,
                 "" if watch is None else watch.note())
        if watch is not None and watch.decided:
            raise Decided

    stopped = None
    try:
        if stream(executor_factory, games_to_play(tourney, done, workers, watch),
                  2 * workers + 2, keep):
            session["isolated_after_a_worker_died"] = True
    except Decided:
        pass
    except Abandoned:
        stopped = "interrupted twice (the running games were abandoned)"
    except KeyboardInterrupt:
        stopped = "interrupted"
    except FaultRateExceeded as exc:
        stopped = str(exc)
    except BrokenProcessPool:
        stopped = "a worker process died"
    except OSError as exc:
        stopped = f"cannot write {exc.filename or out}: {exc.strerror}"
    finally:
        completed = len(done) + played
        decided = watch is not None and watch.decided
        outcome = Outcome(completed, completed if decided else config.games, played, stopped)
        if watch is not None:
            manifest["compare"] = watch.section()
        # The tally holds every row in game-id order unless a resume filled gaps.
        in_order = not done or watch is not None
        try:
            with stops_ignored():
                finish(tourney, manifest, session, outcome, tally if in_order else None,
                       rated)
        except OSError as exc:
            reason = f"cannot write {exc.filename or out}: {exc.strerror}"
            said = reason if stopped in (None, reason) else f"{stopped}, then {reason}"
            raise TourneyError(f"{said}; every finished batch is kept: free the space, then "
                               f"resume with: domsim tourney --out {out} --resume") from None
    return outcome


def feed_earlier(tourney: Tourney, tally: Tally, watch: Watch | None) -> None:
    """Give the tally (and the watch) the games earlier sessions played; a watched run keeps
    game ids 0, 1, ... with no gap, the games its test has read."""
    earlier = read_games(tourney.out, tourney.schema)
    if watch is not None:
        ids = earlier.column("game_id").to_numpy()
        if not np.array_equal(ids, np.arange(len(ids))):
            wrong = int(np.flatnonzero(ids != np.arange(len(ids)))[0])
            raise TourneyError(f"--resume: the games in {tourney.out} are not the first games "
                               f"of the run in order (game id {ids[wrong]} where {wrong} "
                               "should be): the files were edited; start a new run")
        taken = watch.take(earlier)
        if taken < len(ids):
            raise TourneyError(f"--resume: the games in {tourney.out} go on past the game "
                               f"that decided the run's test (game id {taken - 1}): the "
                               "files were edited; start a new run")
    tally.add_table(earlier)


def games_to_play(tourney: Tourney, done: set[int], workers: int,
                  watch: Watch | None) -> Iterator[Batch]:
    """The batches of the games not yet played, in game-id order, made as the stream asks for
    them (lazily: memory stays flat); the first `workers` hold one game (a watched run's, one
    deal), so the progress bar has a rate at once."""
    games = tourney.config.games
    if watch is None:
        missing = (g for g in range(games) if g not in done)
        size = max(1, min(MAX_BATCH, (games - len(done)) // (workers * 8) or 1))
        yield from (tourney.batch(ids) for ids in batches(missing, size, singles=workers))
        return
    first, made = len(done), 0
    while first < games and not watch.decided:
        size = watch.deal_games * (1 if made < workers else DEALS_PER_BATCH)
        yield tourney.batch(list(range(first, min(first + size, games))))
        first, made = first + size, made + 1


def stream(executor_factory: Callable[[], Executor], jobs: Iterator[Batch], window: int,
           keep: Callable[[BatchResult], None]) -> bool:
    """Keep `window` batches in flight and hand results to `keep` in submission (game-id) order;
    on any exception, let running batches finish and keep those that did before re-raising (a
    stop signal meanwhile gives them up: Abandoned). Returns whether a worker died (see below).

    When a worker process dies (a strategy's os._exit, a signal, a fork that went wrong), the
    batches not finished are played again on a fresh executor, and so is the rest of the run,
    with every strategy but the built-in levels in its own process: there, what killed the
    worker only ends a bot process, a fault of its seat. Nothing is lost or played twice."""
    batches = _Batches(executor_factory)
    try:
        for job in jobs:
            batches.submit(job)
            if len(batches.pending) >= window:
                batches.keep_first(keep)
        while batches.pending:
            batches.keep_first(keep)
    except BrokenProcessPool:
        batches.abandon(keep)  # the running batches failed with the pool: nothing to wait for
        raise
    except KeyboardInterrupt:
        log.warning("stopping: the running games finish and are written (stop again to give "
                    "them up)")
        batches.stop(keep)
        raise
    except BaseException:
        batches.stop(keep)
        raise
    batches.executor.shutdown(wait=True)
    return batches.rescued


class _Batches:
    """The batches in flight on an executor, oldest first (a job and its future)."""

    def __init__(self, executor_factory: Callable[[], Executor]) -> None:
        self.executor_factory = executor_factory
        self.executor = executor_factory()
        self.pending: deque[tuple[Batch, Future | None]] = deque()
        self.rescued = False  # a worker died: the rest of the run is isolated

    def submit(self, job: Batch) -> None:
        job = isolated(job) if self.rescued else job
        try:
            self.pending.append((job, self.executor.submit(play_batch, job)))
        except BrokenProcessPool:
            self.pending.append((job, None))
            self._rescue(job)

    def keep_first(self, keep: Callable[[BatchResult], None]) -> None:
        job, future = self.pending[0]
        try:
            result = future.result()
        except BrokenProcessPool:
            self._rescue(job)
            return
        self.pending.popleft()
        keep(result)

    def _rescue(self, job: Batch) -> None:
        """After a worker died: resubmit, isolated, every batch that did not finish (already
        isolated: re-raise the BrokenProcessPool being handled)."""
        if job.config.isolate is not False:
            raise  # the BrokenProcessPool the caller's except clause is handling
        log.warning("a worker process died while playing games %d-%d: they, the other "
                    "unfinished games and the rest of the run are played with every strategy "
                    "but the built-in levels in its own process", job.game_ids[0],
                    job.game_ids[-1])
        shut_down_now(self.executor)  # what the other workers play failed with the pool
        self.executor = self.executor_factory()
        self.rescued = True
        for index, (old_job, future) in enumerate(self.pending):
            if future is None or not (future.done() and future.exception() is None):
                new_job = isolated(old_job)
                self.pending[index] = new_job, self.executor.submit(play_batch, new_job)

    def stop(self, keep: Callable[[BatchResult], None]) -> None:
        """Let running batches finish and keep those that did, in order; a stop signal meanwhile
        gives up those still running (Abandoned)."""
        try:
            for _, future in self.pending:
                if future is not None:
                    future.cancel()
            self.executor.shutdown(wait=True, cancel_futures=True)
        except KeyboardInterrupt:
            self.abandon(keep)
            raise Abandoned from None
        with stops_ignored():
            self.keep_finished(keep)

    def abandon(self, keep: Callable[[BatchResult], None]) -> None:
        """End the executor at once, losing what it was playing, and keep what had finished."""
        with stops_ignored():
            shut_down_now(self.executor)
            self.keep_finished(keep)

    def keep_finished(self, keep: Callable[[BatchResult], None]) -> None:
        for _, future in self.pending:
            if future is not None and future.done() and not future.cancelled() \
                    and future.exception() is None:
                keep(future.result())


def shut_down_now(executor: Executor) -> None:
    """Shut `executor` down without waiting for what it runs: its workers killed where it has
    them (the local pool's), its futures cancelled (Dask's)."""
    kill = getattr(executor, "kill_workers", None)
    if kill is not None:
        kill()
    else:
        executor.shutdown(wait=False, cancel_futures=True)


def isolated(job: Batch) -> Batch:
    return replace(job, config=replace(job.config, isolate=True))


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
