"""`domsim compare`: two strategies on duplicate deals until a sequential test decides. It sits
on top of the runner (which plays and writes) and the analysis (which reads), not inside either.

The games are a tourney's (one pairing, every deal in every seating, the same seeds, batches and
result files); the difference is when it stops. Results reach the parent in game-id order, so
the test only ever reads the contiguous prefix of finished deals: a batch that finishes early
waits for the ones before it, and fast games cannot bias when the test stops. The test looks
after every complete deal and the games table ends with the deal that decided, so the same seed
gives the same verdict and the same table whatever the number of workers."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import pyarrow as pa

from ..analysis import (
    HeadToHead,
    head_to_head_of,
    pair_reference,
    pair_scores,
)
from ..plan.config import TourneyConfig
from ..plan.games import Plan
from ..results.atomic import write_json
from ..results.folder import MANIFEST
from ..results.manifest import manifest_config, read_manifest
from ..results.ratings import open_end
from ..results.sides import sides_of
from ..results.summary import ALL, Tally, sweep_text
from ..results.table import read_games
from ..runner.opening import resume_manifest
from ..runner.session import Execution, run_session
from ..runner.tourney import RunFinished, Tourney, TourneyError
from ..stats import EloEstimate, Sprt

#: The comparison's figures, as the API's Comparison.figures holds them.
COMPARE_FILE = "compare.json"
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


class StopRule(Protocol):
    """Instead of an SPRT, what decides when a pair has played enough (calibrate's steps,
    domsim.studies.steps): a verdict from the complete deals so far, or None to play on."""

    def verdict(self, units: list[list[float]], per_unit: int, ref: float) -> str | None: ...

    def describe(self) -> dict:
        """The rule's settings, for the manifest."""
        ...


@dataclass
class PairProgress:
    """Entrant 0's score against entrant 1, deal by deal, fed games in game-id order; a deal
    counts once every seating of it is in, and the test (if any) looks after every deal. It is
    the run's watch (runner.play.Watch): the run ends with the deal that decided."""

    tourney: Tourney
    sprt: Sprt | None
    rule: StopRule | None = None
    tally: Tally = field(init=False)  # the run's figures (its faults)
    scores: list[float] = field(default_factory=list)
    units: list[list[float]] = field(default_factory=list)
    unit_deals: list[int] = field(default_factory=list)  # the deal id of each unit
    counts: Counter = field(default_factory=Counter)
    current: list[float] = field(default_factory=list)
    games: int = 0
    llr: float | None = None
    verdict: str | None = None  # "H1", "H0", or None: undecided (or no test)

    def __post_init__(self) -> None:
        self.tally = self.tourney.tally()

    @property
    def decided(self) -> bool:
        return self.verdict is not None

    @property
    def deal_games(self) -> int:
        return self.per_unit

    @property
    def may_stop(self) -> bool:
        return self.sprt is not None or self.rule is not None

    @property
    def per_unit(self) -> int:
        return self.tourney.schedule.seatings_per_deal

    @property
    def pairing(self) -> tuple[int, ...]:
        return self.tourney.pairings[0]

    @property
    def ref(self) -> float:
        return pair_reference(self.pairing, 0, 1)

    def take(self, games: pa.Table) -> int:
        """Count the first of `games` (games-table rows in game-id order) up to the one that
        decides; returns how many."""
        if not games.num_rows:
            return 0
        tourney = self.tourney
        sides = sides_of(tourney.rules, tourney.entrants, tourney.pairings, games,
                         forfeits=False)
        counted, scores = pair_scores(sides.entrant, sides.share, 0, 1)
        taken = next((count for count, played in enumerate(zip(
            sides.deal.tolist(), counted.tolist(), scores.tolist(), strict=True), 1)
            if self.add(*played)), games.num_rows)
        self.tally.add_table(games.slice(0, taken))
        return taken

    def add(self, deal: int, counted: bool, score: float) -> bool:
        """Take one game of `deal`, with entrant 0's score in it if it counts; True once the
        test has decided."""
        if counted:
            self.scores.append(score)
            self.current.append(score)
        self.games += 1
        if self.games % self.per_unit:
            return False
        if self.current:
            self.units.append(self.current)
            self.unit_deals.append(deal)
            self.counts[round(sum(self.current) / len(self.current), 9)] += 1
        self.current = []
        if self.sprt is not None:
            self.llr = self.sprt.llr(dict(self.counts), self.per_unit, self.ref)
            self.verdict = self.sprt.verdict(self.llr)
        elif self.rule is not None:
            self.verdict = self.rule.verdict(self.units, self.per_unit, self.ref)
        return self.verdict is not None

    def note(self) -> str:
        """The test's state for the progress bar, whose total is the most it may play."""
        if self.sprt is None or self.llr is None:
            return ""
        return f", LLR {self.llr:.2f} [{self.sprt.lower:.2f}, {self.sprt.upper:.2f}]"

    def section(self) -> dict:
        """The test's settings and state, as the manifest keeps them under "compare"."""
        section = {"a": self.tourney.entrants[0].name, "b": self.tourney.entrants[1].name,
                   "deals": len(self.units), "games": self.games, "llr": self.llr,
                   "verdict": self.verdict}
        if self.rule is not None:
            section["rule"] = self.rule.describe()
        if self.sprt is not None:
            sprt = self.sprt
            section["sprt"] = {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha,
                               "beta": sprt.beta, "model": sprt.model}
        return section

    def statistics(self) -> HeadToHead:
        names = [entrant.name for entrant in self.tourney.entrants]
        return head_to_head_of(names[0], names[1], self.scores, self.units, self.ref)


@dataclass
class CompareResult:
    out: Path
    config: TourneyConfig
    progress: PairProgress
    stopped: str | None = None  # "interrupted", if it was

    @property
    def tally(self) -> Tally:
        return self.progress.tally


def run_compare(config: TourneyConfig, out: Path, sprt: Sprt | None, execution: Execution, *,
                resume: bool = False, rule: StopRule | None = None,
                purpose: str = "compare") -> CompareResult:
    """Play `config`'s pairing of two entrants deal by deal until `sprt` (or else `rule`)
    decides (neither: all of config.games), a run like any tourney's (runner.session) with the
    test as its watch, then write compare.json. `resume` goes on with the run in `out`: the
    test first reads the deals played, in order, so it stops where an uninterrupted run of the
    seed stops."""
    watches: list[PairProgress] = []

    def watch(tourney: Tourney) -> PairProgress:
        watches.append(PairProgress(tourney, sprt, rule))
        return watches[-1]

    outcome = run_session(Plan.of(config), out, execution, resume=resume, purpose=purpose,
                          watch=watch)
    result = CompareResult(out, config, watches[0], outcome.stopped)
    write_json(out / COMPARE_FILE, compare_figures(result))
    return result


def compare_in(config: TourneyConfig, out: Path, sprt: Sprt | None, execution: Execution, *,
               rule: StopRule | None = None, purpose: str = "compare") -> CompareResult:
    """A comparison in `out` as a study needs it: a new one where there is none, else the one
    there resumed, or read back if it is finished."""
    try:
        return run_compare(config, out, sprt, execution, resume=out.exists(), rule=rule,
                           purpose=purpose)
    except RunFinished:
        return finished_comparison(out, sprt, rule)


def finished_comparison(out: Path, sprt: Sprt | None,
                        rule: StopRule | None = None) -> CompareResult:
    """The result of the comparison in `out` (finished or stopped early), its test read again
    from its games; a stopped one says why, as its last session does."""
    manifest = read_manifest(out)
    tourney = Tourney.of(TourneyConfig.from_dict(manifest_config(manifest, out)), out)
    progress = PairProgress(tourney, sprt, rule)
    finished = manifest.get("partial") is False
    progress.take(read_games(out, tourney.schema, finished=finished))
    stopped = None if finished else (manifest.get("sessions") or [{}])[-1].get(
        "stopped", "stopped")
    return CompareResult(out, tourney.config, progress, stopped)


def read_comparison(out: Path) -> CompareResult:
    """The comparison in `out` read back, with its own test (TourneyError: it is none)."""
    return finished_comparison(out, saved_test(out, resume_manifest(out))[1])


def resume_config(out: Path) -> tuple[TourneyConfig, Sprt | None]:
    """The settings and the test of the comparison in `out`, to resume it."""
    manifest = resume_manifest(out)
    found = saved_test(out, manifest)
    test = manifest["compare"]
    if test.get("verdict"):
        raise RunFinished(f"{out}: the test already decided ({test['verdict']} after "
                          f"{test['games']} games): nothing to resume, nothing changed")
    return found


def saved_test(out: Path, manifest: dict) -> tuple[TourneyConfig, Sprt | None]:
    """The settings and the test of the comparison whose manifest this is (TourneyError, one
    line: the run is no comparison)."""
    test = manifest.get("compare")
    if manifest.get("purpose") != "compare" or not isinstance(test, dict):
        raise TourneyError(f"{out} holds a {manifest.get('purpose', 'tourney')}, not a "
                           f"comparison: resume it with domsim tourney --out {out} --resume")
    sprt = test.get("sprt")
    try:
        return (TourneyConfig.from_dict(manifest_config(manifest, out)),
                Sprt(**sprt) if sprt is not None else None)
    except (TypeError, ValueError) as exc:
        raise TourneyError(f"cannot read the comparison in {out / MANIFEST}: {exc}") from None


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
             f"every deal in {progress.per_unit} seatings, a fault {fault_words(config)}"]
    if progress.sprt is not None:
        sprt = progress.sprt
        llr = "-" if progress.llr is None else f"{progress.llr:.2f}"
        lines.append(f"SPRT on deals ({sprt.model} Elo, H0: {sprt.elo0:g}, H1: {sprt.elo1:g}, "
                     f"alpha {sprt.alpha:g}, beta {sprt.beta:g}): LLR {llr}, bounds "
                     f"[{sprt.lower:.2f}, {sprt.upper:.2f}]")
    lines.append(verdict_line(result))
    lines.append(f"games: {progress.games} ({pair.estimate.units} complete deals)")
    lines += final_block(pair, progress, result.tally)
    lines.append(f"results: {result.out}")
    return lines


def fault_words(config: TourneyConfig) -> str:
    return ("forfeits the game" if config.on_fault == "forfeit"
            else "has the move made by the stand-in")


def faults_of(tally: Tally) -> list[tuple[str, int, int]]:
    """(entrant, faults, games with a fault) of both entrants."""
    return [(tally.entrants[e].name, line.faults, line.faulted)
            for (scope, e), line in tally.lines.items() if scope == ALL]


def ptnml(outcomes: list[tuple[float, int]]) -> list[int]:
    """fastchess's pentanomial: deals by their score in quarters (0, 1/4, ... 1; with 2
    seatings a pair's points 0, 0.5, ... 2), a score between quarters rounded to the nearest."""
    bins = [0] * 5
    for score, count in outcomes:
        bins[round(score * 4)] += count
    return bins


def elo_line(estimate: EloEstimate, games: int | None = None) -> str:
    """Elo with its interval's ends (mapped from the score's, it is not symmetric: a +/- would
    misstate one end, and the table under a notebook's Comparison gives the ends), an open end
    (a score of 0 or 1) infinite as `stats` has it; nElo +/- its error (linear in the score);
    a sweep as what it is (`sweep_text`: no nElo)."""
    if estimate.one_sided:
        swept = sweep_text(estimate.one_sided, estimate.elo_low, estimate.elo_high, games,
                           said=True)
        return (f"Elo: {swept}, "
                "nElo: - (no spread)")
    nelo = f"nElo: {estimate.nelo:.2f} +/- {(estimate.nelo_high - estimate.nelo_low) / 2:.2f}"
    low, high = open_end(estimate.elo_low), open_end(estimate.elo_high)
    return f"Elo: {estimate.elo:.2f} [{low:+.2f}, {high:+.2f}], {nelo}"


def elo_error(estimate: EloEstimate) -> float | None:
    """The half-width of a two-sided Elo interval (None: a sweep's, or one with an open end)."""
    low, high = open_end(estimate.elo_low), open_end(estimate.elo_high)
    if estimate.one_sided or math.isinf(low) or math.isinf(high):
        return None
    return (high - low) / 2


def final_block(pair: HeadToHead, progress: PairProgress, tally: Tally) -> list[str]:
    """The result in fastchess's form, its counts in domsim's words (W-L-S: won, lost, shared, as
    every table of results says; the units are deals), and each side's faults."""
    estimate, sprt = pair.estimate, progress.sprt
    points = pair_points(pair, progress)
    rule = "-" * 50
    lines = [rule, f"Results of {pair.a} vs {pair.b} (W-L-S: won, lost, shared; pairs: deals in "
                   f"{progress.per_unit} seatings):",
             elo_line(estimate, pair.games),
             f"LOS: {estimate.los:.2%}, variance of a deal vs independent games: "
             f"{pair.saving.ratio:.2f}",
             f"Games: {pair.games}, W-L-S: {pair.wins}-{pair.losses}-{pair.shared}, "
             f"Points: {points:g} ({pair.win_rate:.2%})",
             f"Ptnml(0-2): [{', '.join(map(str, ptnml(pair.outcomes)))}]",
             "Faults: " + ", ".join(f"{name} {faults} (in {games} games)"
                                    for name, faults, games in faults_of(tally))]
    if sprt is not None:
        llr = "-" if progress.llr is None else f"{progress.llr:.2f}"
        lines.append(f"LLR: {llr} ({sprt.lower:.2f}, {sprt.upper:.2f}) "
                     f"[{sprt.elo0:.2f}, {sprt.elo1:.2f}]")
    return [*lines, rule]


def pair_points(pair: HeadToHead, progress: PairProgress) -> float:
    return pair.wins + sum(s for s in progress.scores if 0 < s < 1)


def compare_figures(result: CompareResult) -> dict:
    """Everything the final block says, as numbers (compare.json, Comparison.figures)."""
    progress, pair = result.progress, result.progress.statistics()
    estimate, sprt = pair.estimate, progress.sprt
    one_sided = estimate.one_sided
    return {
        "a": pair.a, "b": pair.b, "variant": result.config.variant,
        "seed": result.config.seed, "on_fault": result.config.on_fault,
        "games": progress.games, "deals": estimate.units,
        "elo": None if one_sided else estimate.elo,
        "elo_error": elo_error(estimate),
        "elo_low": open_end(estimate.elo_low) if one_sided != "upper" else None,
        "elo_high": open_end(estimate.elo_high) if one_sided != "lower" else None,
        "one_sided": one_sided,
        "nelo": estimate.nelo,
        "nelo_error": None if one_sided else (estimate.nelo_high - estimate.nelo_low) / 2,
        "los": estimate.los, "wins": pair.wins, "losses": pair.losses, "shared": pair.shared,
        "points": pair_points(pair, progress), "ptnml": ptnml(pair.outcomes),
        "faults": {name: {"faults": faults, "games": games}
                   for name, faults, games in faults_of(result.tally)},
        "llr": progress.llr,
        "lower": None if sprt is None else sprt.lower,
        "upper": None if sprt is None else sprt.upper,
        "elo0": None if sprt is None else sprt.elo0,
        "elo1": None if sprt is None else sprt.elo1,
        "alpha": None if sprt is None else sprt.alpha,
        "beta": None if sprt is None else sprt.beta,
        "model": None if sprt is None else sprt.model,
        "verdict": progress.verdict, "stopped": result.stopped,
    }
