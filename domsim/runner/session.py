"""One session of a tourney as the command line runs it: settings merged with a resumed run's,
the run's log and progress bar, and the backend's executor."""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from contextlib import closing, contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..limits import MAX_WORKERS
from ..plan.config import TourneyConfig
from ..plan.games import Plan
from ..plan.pairings import seated_twice
from ..results.manifest import Outcome, manifest_config
from ..results.parts import done_game_ids
from ..seat.trace import traced
from ..seeding import run_seed
from ..strategy import one_line
from .console import FaultWatch, ProgressBar, Standings, log_header, run_logging, say
from .local import local_executor
from .opening import open_tourney, resume_manifest
from .play import Watch, by_pairing, run_tourney
from .signals import stops_interrupt
from .studypool import StudyPool
from .tourney import Tourney, TourneyError

if TYPE_CHECKING:
    from .dask import DaskCluster

#: `--debug`'s file in the run folder: every line of the seat protocol (domsim.seat.trace).
PROTOCOL_TRACE = "protocol.log"
#: What a fault costs in a new tourney unless told: a loss, as fastchess and cutechess score a
#: crash or a time loss (a run's outcome is then its bots' own, never the stand-in's).
TOURNEY_ON_FAULT = "forfeit"
log = logging.getLogger("domsim.runner")


def resolve_config(given: dict, out: Path | None, resume: bool,
                   name: str | None = None) -> tuple[TourneyConfig, Path]:
    """Settings from the user (`given`: only what was set explicitly) over, with --resume, those
    of the run in `out`; a new run gets a random seed and TOURNEY_ON_FAULT unless given, and a
    folder under results/ named after `name` (default: the variant) unless `out` is given."""
    if resume:
        if out is None:
            raise TourneyError("--resume needs --out DIR: the folder of the run to finish")
        values = {**manifest_config(resume_manifest(out), out), **given}
    else:
        if not given.get("variant"):
            raise TourneyError("missing --variant: choose a rule set (see `domsim variants`)")
        values = {"on_fault": TOURNEY_ON_FAULT, **given, "seed": run_seed(given.get("seed"))}
        out = out or default_out(name or given["variant"])
    return TourneyConfig.from_dict(values), out


def default_out(name: str) -> Path:
    """A new run's folder when none is given: results/<name>-<time>."""
    return Path("results") / f"{name}-{datetime.now():%Y%m%d-%H%M%S}"


@dataclass(frozen=True)
class Execution:
    """How sessions run, none of which changes what they play: the backend (local worker
    processes, or the Dask cluster at `scheduler`, whose threads are then the workers), what
    shows on the terminal (`silent`, the `standings`, a line a finished game), the watch on the
    fault rates (`faults`), `debug`'s trace of the seat protocol, and the command the manifest
    says ran it. A study passes its own to every session it plays, with the local workers it
    keeps for all of them (`pool`: `study_workers`; None: each session forks its own)."""

    workers: int = 1
    backend: str = "local"
    scheduler: str | None = None
    silent: bool = True
    command: tuple[str, ...] = ()
    faults: FaultWatch | None = None
    standings: Standings | None = None
    game_lines: bool = False
    debug: bool = False
    pool: StudyPool | None = None

    def check(self) -> None:
        """TourneyError, one line, for a backend it cannot use."""
        if self.backend == "dask" and not self.scheduler:
            raise TourneyError("--backend dask needs --scheduler ADDRESS (e.g. tcp://host:8786)")
        if self.backend == "local" and self.scheduler:
            raise TourneyError("--scheduler is for --backend dask")
        if self.backend == "dask" and self.debug:
            raise TourneyError("--debug traces the bots of local workers: drop --backend dask")
        if self.backend == "local" and not 1 <= self.workers <= MAX_WORKERS:
            raise TourneyError(f"workers must be 1 to {MAX_WORKERS} (each is a process with "
                               f"its bots), got {self.workers}")


def run_session(plan: Plan, out: Path, execution: Execution, *, resume: bool,
                purpose: str = "tourney", notes: Sequence[str] = (), said: Sequence[str] = (),
                about: dict | None = None, watch: Callable[[Tourney], Watch] | None = None,
                rated: bool = True) -> Outcome:
    """Run the tourney `plan` plans (its game count settled: Plan.settle) as `execution` says;
    `notes` (what was rounded) go to run.log and, as plain lines, the terminal, and those the
    caller `said` itself to run.log alone; `about` joins a new run's manifest; `watch` makes
    what may end the run early (compare's test) for the opened tourney; `rated`: the summary has
    its ratings (an SPSA round's many nudged entrants need none). With `execution.debug`, every
    line of the seat protocol, with the bot and the game, goes to PROTOCOL_TRACE in the run
    folder."""
    execution.check()
    command = list(execution.command)
    cluster = connect_dask(execution.scheduler) if execution.backend == "dask" else None
    lost_cluster = cluster.failures if cluster else ()  # connected before the folder is made
    try:
        workers = cluster.threads if cluster else execution.workers
        with traced("-" if execution.debug else None):  # a bot failing its check: before any folder
            tourney = open_tourney(plan, out, resume, command)
        config = tourney.config
        with closing(tourney), run_logging(out / "run.log", execution.silent), \
                traced(str(out / PROTOCOL_TRACE) if execution.debug else None), \
                executors(tourney, workers, cluster, execution.pool) as factory, \
                stops_interrupt():
            log_header(command, config.seed, config.entrant_names(),
                       tourney.how_strategies_run())
            for note in said:
                log.info("%s", note)
            twice = seated_twice(tourney.entrants, tourney.pairings)
            say([*notes, *([twice] if twice else [])], execution.silent)
            watching = watch(tourney) if watch else None
            if not tourney.schedule.whole_deal_sets and watching is None:
                say([f"{config.games} games do not fill whole deal sets ("
                     f"{tourney.schedule.pairings} pairings x {tourney.schedule.seatings_per_deal}"
                     " seatings): the last deal is not played by every pairing and seating"],
                    execution.silent)
            bar = ProgressBar(config.games, len(done_game_ids(out)), execution.silent,
                              execution.standings, execution.faults, execution.game_lines,
                              open_ended=watching is not None and watching.may_stop)
            try:
                return run_tourney(tourney, factory, workers=workers, backend=execution.backend,
                                   command=command, purpose=purpose, progress=bar, about=about,
                                   watch=watching, rated=rated)
            except lost_cluster as exc:
                raise TourneyError(f"the Dask cluster failed ({one_line(exc)}); "
                                   f"{resume_hint(out)}") from None
            finally:
                bar.close()
    finally:
        if cluster:
            cluster.close()


def resume_hint(out: Path, command: str = "tourney") -> str:
    """How to go on with the run or study (`command`: tourney, compare, tune) in `out`."""
    return f"what finished is in {out}. Resume with: domsim {command} --out {out} --resume"


def connect_dask(address: str) -> DaskCluster:
    if importlib.util.find_spec("distributed") is None:
        raise TourneyError("--backend dask needs Dask: pip install 'domsim[dask]'")
    from .dask import DaskCluster

    return DaskCluster(address)


@contextmanager
def study_workers(execution: Execution) -> Iterator[Execution]:
    """`execution` for the sessions of one study: on local workers, one pool of them for all its
    sessions, so that each keeps its bots from session to session (domsim.runner.studypool),
    shut down when the study ends, however it ends. Unchanged for Dask, whose workers last
    anyway, and with `debug`, whose trace reaches each run's folder through the environment its
    workers are forked with."""
    if execution.backend != "local" or execution.debug:
        yield execution
        return
    pool = StudyPool(execution.workers)
    try:
        yield replace(execution, pool=pool)
    finally:
        pool.close()


@contextmanager
def executors(tourney: Tourney, workers: int, cluster: DaskCluster | None,
              pool: StudyPool | None = None) -> Iterator[Callable[[], Executor]]:
    """What makes the executor: local worker processes (the study's `pool`, else the session's
    own), or the Dask cluster readied for the tourney."""
    if cluster is not None:
        with cluster.serving(tourney) as factory:
            yield factory
    elif pool is not None:
        with pool.serving() as factory:
            yield factory
    else:
        homes = by_pairing(tourney, None)
        yield lambda: local_executor(workers, tourney.config.games, homes=homes)
