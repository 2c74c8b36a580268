"""`domsim compare`: two strategies on duplicate deals until a sequential test decides. It sits
on top of the runner (which plays and writes) and the analysis (which reads), not inside either.

The games are a tourney's (one pairing, every deal in every seating, the same seeds, batches and
result files); the difference is when it stops. Results reach the parent in game-id order, so
the test only ever reads the contiguous prefix of finished deals: a batch that finishes early
waits for the ones before it, and fast games cannot bias when the test stops. The test looks
after every complete deal and the games table ends with the deal that decided, so the same seed
gives the same verdict and the same table whatever the number of workers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .analysis import (
    HeadToHead,
    head_to_head_of,
    pair_reference,
    pair_scores,
    side_outcome,
)
from .results.config import TourneyConfig
from .results.folder import MANIFEST
from .runner.console import ProgressBar, log_header, run_logging
from .runner.local import local_executor
from .runner.output import write_json, write_part
from .runner.signals import stops_ignored
from .runner.tourney import (
    Outcome,
    Tourney,
    TourneyError,
    finish,
    new_manifest,
    now,
    open_tourney,
    stream,
)
from .runner.worker import Batch, BatchResult
from .stats import EloEstimate, Sprt

DEALS_PER_BATCH = 10
COMPARE_LIMIT = 20000  # games: the default most a sequential comparison plays
#: The default (elo0, elo1): dominoes has much luck, and a 20 Elo edge is worth finding.
DEFAULT_BOUNDS = (0.0, 20.0)
#: The farthest SPRT bound from 0 per Elo model: beyond, the test's most likely distributions
#: cannot be computed (a score of 1 - 1e-16, a t-value no scores on [0, 1] reach in the
#: fixed-point iteration with 4 games a deal), and no test needs bounds that far apart.
ELO_LIMITS = {"logistic": 1000.0, "normalized": 100.0}


def check_bounds(elo0: float, elo1: float, model: str) -> None:
    """Bounds a sequential test can use (TourneyError, one line, if not): finite, elo0 below
    elo1, both within the model's ELO_LIMITS."""
    limit = ELO_LIMITS[model]
    if not elo0 < elo1:
        raise TourneyError(f"--elo1 ({elo1:g}) must be above --elo0 ({elo0:g})")
    if not max(abs(elo0), abs(elo1)) <= limit:  # also refuses nan
        raise TourneyError(f"--elo0 and --elo1 must lie between -{limit:g} and {limit:g} "
                           f"({model} Elo), got {elo0:g} and {elo1:g}: choose bounds such as "
                           f"{DEFAULT_BOUNDS[0]:g} and {DEFAULT_BOUNDS[1]:g}")


class Decided(Exception):
    """Raised from inside the result stream to stop it once the test has decided."""


@dataclass
class PairProgress:
    """Entrant 0's score against entrant 1, deal by deal, fed games in game-id order; a deal
    counts once every seating of it is in, and the test (if any) looks after every deal."""

    tourney: Tourney
    sprt: Sprt | None
    scores: list[float] = field(default_factory=list)
    units: list[list[float]] = field(default_factory=list)
    unit_deals: list[int] = field(default_factory=list)  # the deal id of each unit
    counts: Counter = field(default_factory=Counter)
    current: list[float] = field(default_factory=list)
    games: int = 0
    llr: float | None = None
    verdict: str | None = None  # "H1", "H0", or None: undecided (or no test)

    @property
    def per_unit(self) -> int:
        return self.tourney.schedule.seatings_per_deal

    @property
    def pairing(self) -> tuple[int, ...]:
        return self.tourney.pairings[0]

    @property
    def ref(self) -> float:
        return pair_reference(self.pairing, 0, 1)

    def add(self, row: dict) -> bool:
        """Take one game; True once the test has decided."""
        entrants, shares = side_outcome(self.tourney.rules, self.pairing, row["seating"],
                                        row["winners"])
        counted, score = pair_scores(np.array([entrants]), np.array([shares]), 0, 1)
        if counted[0]:
            self.scores.append(float(score[0]))
            self.current.append(float(score[0]))
        self.games += 1
        if self.games % self.per_unit:
            return False
        if self.current:
            self.units.append(self.current)
            self.unit_deals.append(row["deal_id"])
            self.counts[round(sum(self.current) / len(self.current), 9)] += 1
        self.current = []
        if self.sprt is not None:
            self.llr = self.sprt.llr(dict(self.counts), self.per_unit, self.ref)
            self.verdict = self.sprt.verdict(self.llr)
        return self.verdict is not None

    def llr_note(self) -> str:
        """The test's state for the progress bar, whose total is the most it may play."""
        if self.sprt is None or self.llr is None:
            return ""
        return f", LLR {self.llr:.2f} [{self.sprt.lower:.2f}, {self.sprt.upper:.2f}]"

    def statistics(self) -> HeadToHead:
        names = [entrant.name for entrant in self.tourney.entrants]
        return head_to_head_of(names[0], names[1], self.scores, self.units, self.ref)


@dataclass
class CompareResult:
    out: Path
    config: TourneyConfig
    progress: PairProgress
    stopped: str | None = None  # "interrupted", if it was


def run_compare(config: TourneyConfig, out: Path, sprt: Sprt | None, *, workers: int,
                silent: bool, command: list[str]) -> CompareResult:
    """Play `config`'s pairing of two entrants deal by deal until `sprt` decides (None: all of
    config.games), then write the run's files with the test's outcome in the manifest."""
    tourney = open_tourney(config, out, resume=False, command=command)
    progress = PairProgress(tourney, sprt)
    tally = tourney.tally()
    manifest = new_manifest(tourney, out, command, "compare")
    session = {"command": command, "workers": workers, "backend": "local", "started": now()}
    manifest["sessions"] = [session]
    write_json(out / MANIFEST, {**manifest, "partial": True})

    with run_logging(out / "run.log", silent):
        log_header(command, config.seed, list(config.entrants), tourney.how_strategies_run())
        bar = ProgressBar(config.games, 0, silent)

        def keep(result: BatchResult) -> None:
            if progress.verdict:
                return  # a batch that finished after the deciding one
            kept = 0
            for row in result.rows:
                kept += 1
                tally.add(row)
                if progress.add(row):
                    break
            write_part(out, tourney.schema, result.game_ids[:kept], result.rows[:kept],
                       result.records[:kept])
            bar(kept, tally, progress.llr_note())
            if progress.verdict:
                bar.finish_early()
                raise Decided

        stopped = None
        try:
            stream(lambda: local_executor(workers, config.games),
                   compare_batches(tourney, progress.per_unit, singles=workers),
                   2 * workers + 2, keep)
        except Decided:
            pass
        except KeyboardInterrupt:
            stopped = "interrupted"
        except BrokenProcessPool:
            stopped = "a worker process died"
        finally:
            bar.close()
            played = progress.games
            total = played if progress.verdict else config.games
            manifest["compare"] = compare_manifest(progress)
            with stops_ignored():
                finish(tourney, manifest, session, Outcome(played, total, played, stopped), tally)
            tourney.close()
    return CompareResult(out, config, progress, stopped)


def compare_batches(tourney: Tourney, per_unit: int, singles: int = 0) -> Iterator[Batch]:
    """Batches of whole deals in game-id order, made as the stream asks for them; the first
    `singles` hold one deal each, so the progress bar has a rate from the first deal on."""
    games, first, made = tourney.config.games, 0, 0
    while first < games:
        size = per_unit * (1 if made < singles else DEALS_PER_BATCH)
        yield tourney.batch(list(range(first, min(first + size, games))))
        first, made = first + size, made + 1


def compare_manifest(progress: PairProgress) -> dict:
    out = {"a": progress.tourney.entrants[0].name, "b": progress.tourney.entrants[1].name,
           "deals": len(progress.units), "games": progress.games, "llr": progress.llr,
           "verdict": progress.verdict}
    sprt = progress.sprt
    if sprt is not None:
        out["sprt"] = {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha,
                       "beta": sprt.beta, "model": sprt.model}
    return out


def verdict_line(result: CompareResult) -> str:
    a, b = (entrant.name for entrant in result.progress.tourney.entrants)
    sprt, verdict = result.progress.sprt, result.progress.verdict
    if sprt is None:
        return "verdict: none asked for (a fixed number of games; see the interval and LOS)"
    unit = "normalized Elo" if sprt.model == "normalized" else "Elo"
    if verdict == "H1":
        return (f"verdict: H1 accepted: {a} is stronger than {b} "
                f"({unit} {sprt.elo1:g} rather than {sprt.elo0:g})")
    if verdict == "H0":
        return (f"verdict: H0 accepted: {a} is not {sprt.elo1:g} {unit} stronger than {b} "
                f"({unit} {sprt.elo0:g} rather than {sprt.elo1:g})")
    if result.stopped:
        return f"verdict: none ({result.stopped} before the test decided)"
    return f"verdict: none (the test had not decided at the limit of {result.config.games} games)"


def compare_lines(result: CompareResult) -> list[str]:
    """What `domsim compare` prints."""
    config, progress = result.config, result.progress
    pair = progress.statistics()
    rules = config.rules()
    lines = [f"{pair.a} vs {pair.b}: {rules.name}, {rules.players} players, seed {config.seed}, "
             f"every deal in {progress.per_unit} seatings"]
    if progress.sprt is not None:
        sprt = progress.sprt
        llr = "-" if progress.llr is None else f"{progress.llr:.2f}"
        lines.append(f"SPRT on deals ({sprt.model} Elo, H0: {sprt.elo0:g}, H1: {sprt.elo1:g}, "
                     f"alpha {sprt.alpha:g}, beta {sprt.beta:g}): LLR {llr}, bounds "
                     f"[{sprt.lower:.2f}, {sprt.upper:.2f}]")
    lines.append(verdict_line(result))
    lines.append(f"games: {progress.games} ({pair.estimate.units} complete deals)")
    lines += final_block(pair, progress)
    lines.append(f"results: {result.out}")
    return lines


def ptnml(outcomes: list[tuple[float, int]]) -> list[int]:
    """fastchess's pentanomial: deals by their score in quarters (0, 1/4, ... 1; with 2
    seatings a pair's points 0, 0.5, ... 2), a score between quarters rounded to the nearest."""
    bins = [0] * 5
    for score, count in outcomes:
        bins[round(score * 4)] += count
    return bins


def elo_line(estimate: EloEstimate) -> str:
    """Elo and nElo +/- their errors; a sweep's Elo as the one-sided bound it is (no nElo)."""
    if estimate.one_sided:
        won = estimate.one_sided == "lower"
        bound = estimate.elo_low if won else estimate.elo_high
        return (f"Elo: {'>' if won else '<'} {bound:.2f} (every deal {'won' if won else 'lost'}: "
                "a one-sided 97.5% bound), nElo: - (no spread)")
    return (f"Elo: {estimate.elo:.2f} +/- {(estimate.elo_high - estimate.elo_low) / 2:.2f}, "
            f"nElo: {estimate.nelo:.2f} +/- {(estimate.nelo_high - estimate.nelo_low) / 2:.2f}")


def final_block(pair: HeadToHead, progress: PairProgress) -> list[str]:
    """The result in fastchess's words (a draw: a shared win; the units are deals)."""
    estimate, sprt = pair.estimate, progress.sprt
    points = pair.wins + sum(s for s in progress.scores if 0 < s < 1)
    rule = "-" * 50
    lines = [rule, f"Results of {pair.a} vs {pair.b} (a draw: a shared win; pairs: deals in "
                   f"{progress.per_unit} seatings):",
             elo_line(estimate),
             f"LOS: {estimate.los:.2%}, variance of a deal vs independent games: "
             f"{pair.saving.ratio:.2f}",
             f"Games: {pair.games}, Wins: {pair.wins}, Losses: {pair.losses}, Draws: "
             f"{pair.shared}, Points: {points:g} ({pair.win_rate:.2%})",
             f"Ptnml(0-2): [{', '.join(map(str, ptnml(pair.outcomes)))}]"]
    if sprt is not None:
        llr = "-" if progress.llr is None else f"{progress.llr:.2f}"
        lines.append(f"LLR: {llr} ({sprt.lower:.2f}, {sprt.upper:.2f}) "
                     f"[{sprt.elo0:.2f}, {sprt.elo1:.2f}]")
    return [*lines, rule]
