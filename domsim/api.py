"""The Python API, for scripts and notebooks: play a tourney, a comparison or one game, and get
the results as pandas DataFrames. The command line runs the same runner.

An entrant is a spec (as `-p` takes it), a Strategy subclass or a Strategy instance defined in
the session (every seat of every game plays a fresh copy), or a pair of these (a team, in team
variants); pass a dict to name them. Without `out` the run is played in a temporary folder that
is removed once its results are read; with `out` the run folder is kept, as `domsim tourney`
writes it. Workers are forked, so a class defined in a notebook reaches them as it is."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from .analysis import Run, load_run, outcomes, ratings, ratings_dict, run_statistics
from .bot import SEAT_MEMORY_MB, check_spec
from .compare import (
    COMPARE_LIMIT,
    DEFAULT_BOUNDS,
    CompareResult,
    compare_lines,
    run_compare,
)
from .game import MOVE_TIME_LIMIT, play_game
from .results.config import TourneyConfig
from .rules import make_rules
from .runner.local import default_workers
from .runner.session import run_session
from .runner.tourney import every_deal_once, games_for_pairings
from .stats import Sprt
from .strategy import Strategy, define_strategy

if TYPE_CHECKING:
    import pandas as pd

Member = str | type[Strategy] | Strategy
Entrant = Member | tuple[Member, Member]
Entrants = Sequence[Entrant] | Mapping[str, Entrant]


@dataclass
class Results:
    """A run read back: `games` (one row per game, as games.parquet), `summary` (as
    summary.csv), the `manifest`, `path` (None when the folder was not kept) and `partial`."""

    path: Path | None
    manifest: dict
    games: pd.DataFrame
    summary: pd.DataFrame
    run: Run

    @property
    def partial(self) -> bool:
        return bool(self.manifest.get("partial"))

    def ratings(self, samples: int = 1000) -> pd.DataFrame:
        """Joint Elo of every entrant (the first at 0) with its 95% bootstrap interval over
        whole deals, strongest first."""
        import pandas as pd

        fitted = ratings_dict(self.run, ratings(self.run, outcomes(self.run), samples))
        table = pd.DataFrame(fitted["entrants"]).rename(columns={"name": "entrant"})
        return table.sort_values("elo", ascending=False, ignore_index=True)

    def statistics(self, samples: int = 1000) -> dict:
        """Every statistic of the run, as `domsim stats --json` prints it."""
        return run_statistics(self.run, samples)


@dataclass
class Comparison(Results):
    """A comparison's results, with the test's outcome: `verdict` ("H1", "H0" or None), `llr`,
    `lines` (what `domsim compare` prints) and `stopped` (why it ended early, if it did)."""

    verdict: str | None = None
    stopped: str | None = None
    llr: float | None = None
    lines: tuple[str, ...] = ()


def tourney(variant: str, entrants: Entrants | None = None, *, games: int | None = None,
            games_per_pairing: int | None = None, deals: str | Path | None = None,
            deals_order: str = "in-order", players: int | None = None,
            format: str = "round-robin", seed: int | None = None,
            duplicate: bool = True, options: Mapping[str, object] | None = None,
            move_time_limit: float = MOVE_TIME_LIMIT, records: bool = False,
            isolate: bool = False, seat_memory: int = SEAT_MEMORY_MB,
            out: str | Path | None = None, workers: int | None = None,
            progress: bool = False) -> Results:
    """Play a tourney (the arguments are `domsim tourney`'s options; entrants default to the
    built-in levels; seed None: a random one, kept in the manifest; `games_per_pairing` instead
    of `games` is rounded up to whole deals; `deals`, a deals file, fixes the first hands, each
    played once in every seating unless `games` says otherwise; `games` defaults to 1000;
    `isolate` plays every strategy but the built-in levels in its own process, under
    `seat_memory` MiB) and return its results."""
    config = _config(variant, entrants, games=games or 1000, players=players, format=format,
                     seed=seed, duplicate=duplicate, options=options,
                     move_time_limit=move_time_limit, records=records,
                     deals=None if deals is None else str(deals), deals_order=deals_order,
                     isolate=isolate, seat_memory=seat_memory)
    if games_per_pairing is not None:
        config = replace(config, games=games_for_pairings(config.to_dict(), games_per_pairing)[0])
    elif deals is not None and games is None:
        config = replace(config, games=every_deal_once(config.to_dict()))
    with _folder(out) as folder:
        run_session(config, folder, resume=False, workers=workers or default_workers(),
                    backend="local", scheduler=None, silent=not progress,
                    command=["domsim.api.tourney"])
        return _results(Results, folder, keep=out is not None)


def compare(a: Entrant, b: Entrant, variant: str, *, elo0: float = DEFAULT_BOUNDS[0],
            elo1: float = DEFAULT_BOUNDS[1], alpha: float = 0.05, beta: float = 0.05,
            elo_model: str = "logistic", sequential: bool = True, games: int = COMPARE_LIMIT,
            names: tuple[str, str] | None = None, command: Sequence[str] = ("domsim.api.compare",),
            players: int | None = None, seed: int | None = None,
            options: Mapping[str, object] | None = None, isolate: bool = False,
            seat_memory: int = SEAT_MEMORY_MB, out: str | Path | None = None,
            workers: int | None = None, progress: bool = False) -> Comparison:
    """Play A against B on duplicate deals until the SPRT (elo0, elo1, alpha, beta) decides or
    `games` are played (`sequential=False`: exactly `games`, no test), as `domsim compare`;
    `names` names the two entrants; `command` is what the manifest says ran it; `isolate` and
    `seat_memory` as `tourney`'s."""
    entrants = dict(zip(names, (a, b), strict=True)) if names else [a, b]
    config = _config(variant, entrants, games=games, players=players, seed=seed,
                     options=options, isolate=isolate, seat_memory=seat_memory)
    sprt = Sprt(elo0, elo1, alpha, beta, model=elo_model) if sequential else None
    with _folder(out) as folder:
        result = run_compare(config, folder, sprt, workers=workers or default_workers(),
                             silent=not progress, command=list(command))
        return _comparison(result, keep=out is not None)


def load(path: str | Path) -> Results:
    """The results of a run folder written earlier (finished or partial)."""
    return _results(Results, Path(path), keep=True)


def play(variant: str, seats: Sequence[Member], *, seed: int = 0, players: int | None = None,
         options: Mapping[str, object] | None = None,
         move_time_limit: float | None = MOVE_TIME_LIMIT, isolate: bool = False,
         seat_memory: int = SEAT_MEMORY_MB) -> dict:
    """Play one game with a strategy per seat in seat order (one fills every seat) and return
    its record (GAME-RECORD.md), as `domsim play --record` writes it; `isolate` and
    `seat_memory` as `tourney`'s (`exec:` specs play in their own process anyway)."""
    specs = [_member_spec(seat) for seat in seats]
    count = players if players is not None else (len(specs) if len(specs) > 1 else None)
    rules = make_rules(variant, count,
                       {str(k): str(v) for k, v in (options or {}).items()})
    if len(specs) == 1:
        specs *= rules.players
    for spec in dict.fromkeys(specs):
        check_spec(spec, isolate, seat_memory)
    return play_game(rules, specs, seed, move_time_limit=move_time_limit, isolate=isolate,
                     seat_memory=seat_memory)


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
        "seed": random.randrange(2**32) if seed is None else seed,
        "options": dict(options or {}), **settings})


@contextmanager
def _folder(out: str | Path | None) -> Iterator[Path]:
    if out is not None:
        yield Path(out)
        return
    with tempfile.TemporaryDirectory(prefix="domsim-") as temp:
        yield Path(temp) / "run"


def _results(kind: type[Results], folder: Path, keep: bool, **extra) -> Results:
    import pandas as pd

    run = load_run(folder)
    return kind(folder if keep else None, run.manifest, run.table.to_pandas(),
                pd.read_csv(folder / "summary.csv"), run, **extra)


def _comparison(result: CompareResult, keep: bool) -> Comparison:
    progress = result.progress
    lines = compare_lines(result)  # the last names the folder: none when it is not kept
    return _results(Comparison, result.out, keep, verdict=progress.verdict,
                    stopped=result.stopped, llr=progress.llr,
                    lines=tuple(lines if keep else lines[:-1]))


__all__ = ["Comparison", "Results", "compare", "load", "play", "tourney"]
