"""One session of a tourney as the command line runs it: settings merged with a resumed run's,
the run's log and progress bar, and the backend's executor."""

from __future__ import annotations

import logging
import random
from datetime import datetime
from pathlib import Path

from .config import TourneyConfig
from .console import ProgressBar, run_logging
from .local import local_executor
from .output import done_game_ids
from .tourney import Outcome, TourneyError, open_tourney, read_manifest, run_tourney

BACKENDS = ("local", "dask")
log = logging.getLogger("domsim.runner")


def resolve_config(given: dict, out: Path | None, resume: bool) -> tuple[TourneyConfig, Path]:
    """Settings from the user (`given`: only what was set explicitly) over, with --resume, those
    of the run in `out`; a new run gets a random seed unless one is given."""
    if resume:
        if out is None:
            raise TourneyError("--resume needs --out DIR: the folder of the run to finish")
        values = {**read_manifest(out)["config"], **given}
    else:
        if not given.get("variant"):
            raise TourneyError("missing --variant: choose a rule set (see `domsim variants`)")
        values = {"seed": random.randrange(2**32), **given}
        out = out or Path("results") / f"{given['variant']}-{datetime.now():%Y%m%d-%H%M%S}"
    return TourneyConfig.from_dict(values), out


def run_session(config: TourneyConfig, out: Path, *, resume: bool, workers: int, backend: str,
                scheduler: str | None, silent: bool, command: list[str]) -> Outcome:
    if backend == "dask" and not scheduler:
        raise TourneyError("--backend dask needs --scheduler ADDRESS (e.g. tcp://host:8786)")
    if backend == "dask":
        raise TourneyError("--backend dask is not built yet: use the local backend")
    if backend == "local" and scheduler:
        raise TourneyError("--scheduler is for --backend dask")
    tourney = open_tourney(config, out, resume)
    with run_logging(out / "run.log", silent):
        if not tourney.schedule.whole_deal_sets:
            log.warning("%d games do not fill whole deal sets (%d pairings x %d seatings): the "
                        "last deal is not played by every pairing and seating", config.games,
                        tourney.schedule.pairings, tourney.schedule.seatings_per_deal)
        bar = ProgressBar(config.games, len(done_game_ids(out)), silent)
        try:
            def executor_factory():
                return local_executor(workers)
            outcome = run_tourney(tourney, executor_factory, workers=workers, backend=backend,
                                  command=command, progress=bar)
        finally:
            bar.close()
    return outcome
