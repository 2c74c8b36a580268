"""`domsim tune --strategy SPEC --param NAME=LOW:HIGH ...`: a strategy's own numeric parameters
tuned by SPSA (simultaneous perturbation stochastic approximation), as fishtest tunes an engine's.

An iteration plays the strategy at theta + c_k Delta and at theta - c_k Delta against `--against`
on one deal, in every seating (duplicate: both perturbed players meet the same deal); y+- are the
perturbed players' shares of the wins. As fishtest's workers do, iterations come in batches that
share one Delta (a sign per parameter, drawn from the seed) and the gains of the batch's first
iteration k, and theta moves after each batch by a_k (Y+ - Y-) Delta / c_k, Y+- summed over the
batch. The gains follow fishtest's schedules: c_k = c / (k+1)^0.101 and a_k = a / (A+k+1)^0.602
with A a tenth of the iterations, c such that c_k ends at `c_end` of each parameter's range (a
twentieth unless told) and a such that a_k / c_k^2 ends at `r_end` (0.002 unless told).

A tune is about `BATCHES` batches, played in rounds of up to `ROUND_BATCHES`: every round one
tourney of the one session driver in its own folder, the against entrant with each batch's two
perturbed players (a gauntlet), each batch's pair of pairings dealt deals of its own
(`deal_groups`). The request and every round's theta are kept in spsa.json from the start: an
interrupted tune resumes (`--resume`) to the straight run's values. At the end a confirmation duel
(a comparison) plays the tuned values against the starting ones."""

from __future__ import annotations

import math
import random
import re
import shlex
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from ..analysis import elo_text, faults_forfeit
from ..plan.config import TourneyConfig
from ..plan.games import Plan
from ..plan.pairings import parse_entrants
from ..results.ratings import open_ends
from ..results.run import load_run
from ..results.sides import sides_of
from ..rules import make_rules
from ..runner.session import Execution, run_session, study_workers
from ..runner.tourney import RunFinished, TourneyError
from ..seat.process import DEFAULT_CONFINEMENT, check_spec
from ..seeding import derive_seed
from ..spec import Spec
from ..strategy import spec_parameters
from .compare import CompareResult, compare_in
from .folder import StudyFolder

#: The file in the tune's folder that holds the request, every round and the result.
SPSA_FILE = "spsa.json"
#: About how many batches (one Delta each, theta moving after each) a tune is cut into, and the
#: most a round (a session of its own) plays: few entrants a round, few sessions a tune.
BATCHES, ROUND_BATCHES = 60, 10
#: fishtest's schedules: c_k = c / (k+1)^GAMMA, a_k = a / (A+k+1)^ALPHA, A = STABILITY * iterations.
ALPHA, GAMMA, STABILITY = 0.602, 0.101, 0.1
#: Where the perturbation and the learning rate end unless told: c_N a twentieth of a parameter's
#: range, a_N / c_N^2 = R_END (fishtest's defaults).
C_END, R_END = 1 / 20, 0.002
#: The confirmation duel's games, and the tuning's, when none are given.
CONFIRM_GAMES = 4000
DEFAULT_GAMES = 20_000
PARAM = re.compile(r"(?P<name>[A-Za-z_]\w*)=(?P<low>[^:]+):(?P<high>[^:]+)(?::(?P<start>.+))?")


@dataclass(frozen=True)
class Param:
    """A parameter to tune: its range, its starting value and whether the strategy takes an
    integer (it is then rounded when played; theta itself moves in reals)."""

    name: str
    low: float
    high: float
    start: float
    integer: bool = False

    def shown(self, value: float) -> str:
        return str(round(value)) if self.integer else f"{value:.4g}"


def parse_params(texts: tuple[str, ...] | list[str], strategy: str) -> tuple[Param, ...]:
    """The `--param NAME=LOW:HIGH[:START]` of `strategy`: START defaults to the value the spec
    plays (its own, else the strategy's default), for an `exec:` bot to the range's middle. An
    `exec:` bot takes NAME where its command has `{NAME}` (a process per value), else with each
    game (the seat protocol's `parameters`, which it declares in `hello`: checked by `check`)."""
    if not texts:
        raise TourneyError("--strategy needs at least one --param NAME=LOW:HIGH to tune")
    spec = Spec.of(strategy)
    is_exec = spec.kind == "exec"
    known = {} if is_exec else spec_parameters(spec)
    params = []
    for text in texts:
        match = PARAM.fullmatch(text.strip())
        if not match:
            raise TourneyError(f"--param {text!r}: write NAME=LOW:HIGH or NAME=LOW:HIGH:START "
                               "(e.g. block=0:10)")
        name = match["name"]
        if not is_exec and name not in known:
            raise TourneyError(f"--param {name}: {strategy!r} has no parameter {name!r} (its "
                               f"parameters: {', '.join(known) or 'none'})")
        kind, value = known.get(name, (float, None))
        if kind not in (int, float):
            raise TourneyError(f"--param {name}: {strategy!r} takes a {kind.__name__} there, "
                               "not a number")
        low, high = _number(match["low"], name), _number(match["high"], name)
        start = _number(match["start"], name) if match["start"] else (
            float(value) if isinstance(value, int | float) else (low + high) / 2)
        if not low < high or not low <= start <= high:
            raise TourneyError(f"--param {name}: need LOW < HIGH and the start ({start:g}) "
                               "between them")
        params.append(Param(name, low, high, start, kind is int))
    if len({p.name for p in params}) != len(params):
        raise TourneyError("--param: each parameter once")
    return tuple(params)


def _number(text: str, name: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise TourneyError(f"--param {name}: {text!r} is not a number")
    return value


def spec_with(strategy: str, params: tuple[Param, ...], values: list[float]) -> str:
    """`strategy` playing `values`: an exec: bot's {NAME}s replaced, the rest set as the spec's
    parameters (`?NAME=VALUE`; `exec?NAME=VALUE:COMMAND`), sent with each game."""
    shown = {p.name: p.shown(v) for p, v in zip(params, values, strict=True)}
    spec = Spec.of(strategy)
    if spec.kind == "exec":
        for name in [name for name in shown if f"{{{name}}}" in strategy]:
            strategy = strategy.replace(f"{{{name}}}", shlex.quote(shown.pop(name)))
        spec = Spec.of(strategy)
    return spec.with_parameters(shown).text if shown else spec.text


@dataclass(frozen=True)
class SpsaRequest:
    """What an SPSA tune plays, kept in spsa.json from the start."""

    strategy: str
    params: tuple[Param, ...]
    against: str
    variant: str
    seed: int
    games: int
    players: int | None = None
    options: dict = field(default_factory=dict)
    on_fault: str = "forfeit"
    confirm: int = CONFIRM_GAMES
    c_end: float = C_END
    r_end: float = R_END
    isolate: bool | None = None  # as tourney's: False plays a trusted file in process

    @property
    def seatings(self) -> int:
        return make_rules(self.variant, self.players, self.options).sides

    @property
    def iteration_games(self) -> int:
        """Both perturbed players on one deal, each in every seating."""
        return 2 * self.seatings

    @property
    def batch_size(self) -> int:
        """Iterations a batch: near a BATCHES-th of what --games allows, the size among those
        near it that leaves the fewest games unplayed."""
        most = max(1, self.games // self.iteration_games)
        near = range(max(1, most * 4 // (BATCHES * 5)), max(1, most * 5 // (BATCHES * 4)) + 1)
        return min(near, key=lambda size: (most % size, -size))

    @property
    def iterations(self) -> int:
        """The tune's iterations: whole batches within --games."""
        most = self.games // self.iteration_games
        return most - most % self.batch_size

    def check(self) -> None:
        rules = make_rules(self.variant, self.players, self.options)
        if rules.sides != 2:
            raise TourneyError(f"SPSA plays one side against the other: {rules.name} with "
                               f"{rules.players} players has {rules.sides} sides; choose 2 "
                               "players or a team rule set")
        if self.iterations < 1:
            raise TourneyError(f"--games {self.games}: an iteration takes "
                               f"{self.iteration_games} games")
        if not 0 < self.c_end <= 0.5 or not 0 < self.r_end <= 1:
            raise TourneyError(f"--c-end {self.c_end:g}, --r-end {self.r_end:g}: need 0 < c_end "
                               "<= 0.5 (a share of each range) and 0 < r_end <= 1")
        parse_entrants([f"tuned={self.strategy}", f"against={self.against}"], rules)
        start = Spec.of(spec_with(self.strategy, self.params, self.start))
        if start.kind == "exec" and start.parameters:  # sent with each game: the bot must
            check_spec(start, self.isolate, DEFAULT_CONFINEMENT)  # declare them (hello)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, values: dict) -> SpsaRequest:
        return cls(**{**values, "params": tuple(Param(**p) for p in values["params"])})

    @property
    def start(self) -> list[float]:
        return [p.start for p in self.params]

    def gains(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(c_k, a_k) of each parameter at iteration k (from 0)."""
        n = self.iterations
        stability = STABILITY * n
        c_end = np.array([(p.high - p.low) * self.c_end for p in self.params])
        c = c_end * n ** GAMMA / (k + 1) ** GAMMA
        a = self.r_end * c_end ** 2 * (stability + n) ** ALPHA / (stability + k + 1) ** ALPHA
        return c, a

    def flips(self, k: int) -> np.ndarray:
        """Iteration k's signs, one per parameter, from the seed."""
        rng = random.Random(derive_seed("spsa-flip", self.seed, k))
        return np.array([rng.choice((-1.0, 1.0)) for _ in self.params])

    def clip(self, values: np.ndarray) -> np.ndarray:
        return np.clip(values, [p.low for p in self.params], [p.high for p in self.params])


@dataclass
class SpsaState:
    """The tune so far: theta, the next iteration, each finished round."""

    theta: list[float]
    iteration: int = 0
    rounds: list[dict] = field(default_factory=list)
    seconds: float = 0.0


def spsa_folder(out: str | Path | None, resume: bool = True) -> StudyFolder:
    """The tune's folder: `out`, else a new one (domsim.studies.folder)."""
    return StudyFolder.given(out, resume, SPSA_FILE, "tune", "tune")


def begin(request: SpsaRequest, out: Path) -> None:
    """Make `out` once the request is good (a bad one leaves nothing behind), with the request
    in spsa.json."""
    request.check()
    spsa_folder(out).create({"kind": "spsa", "request": request.to_dict(),
                             "state": asdict(SpsaState(request.start))})


def saved(out: Path) -> tuple[SpsaRequest, SpsaState]:
    """The tune in `out`, to resume it (TourneyError, RunFinished: as any study's)."""
    return spsa_folder(out).saved(lambda content: (SpsaRequest.from_dict(content["request"]),
                                                   SpsaState(**content["state"])))


def is_spsa(out: Path) -> bool:
    return (out / SPSA_FILE).is_file()


@dataclass
class SpsaResult:
    request: SpsaRequest
    state: SpsaState
    confirmation: CompareResult | None = None
    stopped: str | None = None

    @property
    def tuned_spec(self) -> str:
        return spec_with(self.request.strategy, self.request.params, self.state.theta)


def run_spsa(request: SpsaRequest, state: SpsaState, out: Path, execution: Execution,
             bar: Callable[[int, list[float]], None] = lambda games, theta: None) -> SpsaResult:
    """Play the rounds still to play, then the confirmation duel, with the folder held, on one
    set of workers; spsa.json after each."""
    with spsa_folder(out).held(execution.command), study_workers(execution) as execution:
        return play_rounds(request, state, out, execution, bar)


def play_rounds(request: SpsaRequest, state: SpsaState, out: Path, execution: Execution,
                bar: Callable[[int, list[float]], None]) -> SpsaResult:
    started = time.perf_counter()
    size = request.batch_size
    while state.iteration < request.iterations:
        batches = min(ROUND_BATCHES, (request.iterations - state.iteration) // size)
        number = len(state.rounds) + 1
        folder = out / "rounds" / f"round-{number}"
        totals, stopped = play_round(request, state, batches, folder, execution)
        if stopped:
            return _save(SpsaResult(request, state, stopped=stopped), out, started)
        before = list(state.theta)
        state.theta = move(request, state.theta, state.iteration, totals).tolist()
        count = batches * size
        state.rounds.append({"round": number, "iterations": [state.iteration,
                                                             state.iteration + count],
                             "theta_before": before, "theta_after": state.theta,
                             "games": count * request.iteration_games, "folder": str(folder)})
        state.iteration += count
        _save(SpsaResult(request, state), out, started)
        started = time.perf_counter()
        bar(count * request.iteration_games, state.theta)
    confirmation = confirm(request, state, out, execution) if request.confirm else None
    result = SpsaResult(request, state, confirmation,
                        confirmation.stopped if confirmation else None)
    return _save(result, out, started, complete=result.stopped is None)


def batch_starts(request: SpsaRequest, first: int, batches: int) -> list[int]:
    """The first iteration of each of `batches` batches from iteration `first`."""
    return [first + b * request.batch_size for b in range(batches)]


def round_config(request: SpsaRequest, state: SpsaState, batches: int, number: int
                 ) -> TourneyConfig:
    """A round: the against entrant and each batch's two perturbed players (a gauntlet), each
    batch's pair of pairings on deals of its own, one a batch's iteration."""
    entrants = [f"against={request.against}"]
    theta = np.array(state.theta)
    for k in batch_starts(request, state.iteration, batches):
        c, _ = request.gains(k)
        step = c * request.flips(k)
        for sign, name in ((1, "plus"), (-1, "minus")):
            values = request.clip(theta + sign * step).tolist()
            entrants.append(f"{name}{k}={spec_with(request.strategy, request.params, values)}")
    games = batches * request.batch_size * request.iteration_games
    return TourneyConfig(variant=request.variant, players=request.players, games=games,
                         entrants=tuple(entrants), format="gauntlet",
                         seed=derive_seed("spsa", request.seed, number), options=request.options,
                         on_fault=request.on_fault, deal_groups=batches, isolate=request.isolate)


def play_round(request: SpsaRequest, state: SpsaState, batches: int, folder: Path,
               execution: Execution) -> tuple[np.ndarray, str | None]:
    """Play (or resume, or read back) a round: each batch's perturbed players' shares of the
    wins summed over their games ((batches, 2): plus, minus), and why the round stopped early
    (None: it did not)."""
    config = round_config(request, state, batches, len(state.rounds) + 1)
    try:
        outcome = run_session(Plan.of(config), folder, replace(execution, silent=True),
                              resume=folder.exists(), purpose="spsa round", rated=False)
        if outcome.partial:
            return np.zeros(0), outcome.stopped or "stopped"
    except RunFinished:
        pass
    run = load_run(folder)
    games = sides_of(run.rules, run.entrants, run.pairings, run.table,
                     faults_forfeit(run.config))
    won = np.array([(games.share * (games.entrant == e)).sum()
                    for e in range(1, len(run.entrants))])
    return won.reshape(batches, 2), None


def move(request: SpsaRequest, theta: list[float], first: int, totals: np.ndarray) -> np.ndarray:
    """theta after the round's batches (from iteration `first`), each in turn: a_k (Y+ - Y-)
    Delta / c_k at the batch's first iteration k, kept in range."""
    values = np.array(theta)
    for k, (plus, minus) in zip(batch_starts(request, first, len(totals)), totals, strict=True):
        c, a = request.gains(k)
        values = request.clip(values + a * (plus - minus) * request.flips(k) / c)
    return values


def confirm(request: SpsaRequest, state: SpsaState, out: Path,
            execution: Execution) -> CompareResult:
    """The tuned values against the starting ones, on duplicate deals of their own."""
    tuned = spec_with(request.strategy, request.params, state.theta)
    start = spec_with(request.strategy, request.params, request.start)
    config = TourneyConfig(variant=request.variant, players=request.players,
                           games=request.confirm, entrants=(f"tuned={tuned}", f"start={start}"),
                           seed=derive_seed("spsa-confirm", request.seed),
                           options=request.options, on_fault=request.on_fault,
                           isolate=request.isolate)
    return compare_in(config, out / "confirm", None, execution)


@contextmanager
def progress_bar(request: SpsaRequest, state: SpsaState,
                 shown: bool) -> Iterator[Callable[[int, list[float]], None]]:
    """A bar over the tuning's games with the current values; what moves it after each round."""
    done = sum(r["games"] for r in state.rounds)
    with tqdm(total=request.iterations * request.iteration_games, initial=done, unit="game",
              disable=not shown, desc="spsa", dynamic_ncols=True) as bar:
        def advance(games: int, theta: list[float]) -> None:
            bar.set_postfix_str(" ".join(f"{p.name}={p.shown(v)}"
                                         for p, v in zip(request.params, theta, strict=True)))
            bar.update(games)
        advance(0, state.theta)
        yield advance


def _save(result: SpsaResult, out: Path, started: float, complete: bool = False) -> SpsaResult:
    result.state.seconds += time.perf_counter() - started
    spsa_folder(out).save({"kind": "spsa", "request": result.request.to_dict(),
                           "state": asdict(result.state), "result": result_dict(result)},
                          complete)
    return result


def result_dict(result: SpsaResult) -> dict:
    request, state = result.request, result.state
    out = {"values": {p.name: v for p, v in zip(request.params, state.theta, strict=True)},
           "spec": result.tuned_spec, "games": sum(r["games"] for r in state.rounds),
           "iterations": state.iteration, "stopped": result.stopped}
    if result.confirmation is not None:  # as `domsim stats` gives a pair
        out["confirmation"] = {**result.confirmation.progress.statistics().to_dict(),
                               "folder": str(result.confirmation.out)}
    return out


def saved_lines(saved: dict, out: Path) -> list[str]:
    """What `domsim tune --strategy` prints, from the tune's spsa.json (`saved`)."""
    request = SpsaRequest.from_dict(saved["request"])
    state = SpsaState(**saved["state"])
    figures = saved.get("result") or result_dict(SpsaResult(request, state))
    values = " ".join(f"{p.name}={p.shown(v)}" for p, v in zip(request.params, state.theta,
                                                               strict=True))
    start = " ".join(f"{p.name}={p.shown(p.start)}" for p in request.params)
    rounds = len(state.rounds)
    lines = [f"tuned {values} (from {start}): {figures['games']:,} games, {state.iteration:,} "
             f"iterations in {rounds} round{'s' * (rounds != 1)} against {request.against}, "
             f"{state.seconds:.1f} s",
             f"spec: {figures['spec']}"]
    confirmation = figures.get("confirmation")
    if confirmation:
        confirmation = open_ends(confirmation)
        lines.append(f"confirmation, tuned against the start over {confirmation['games']:,} "
                     f"games: {elo_text(confirmation)} (95%), score "
                     f"{confirmation['win_rate']:.1%}")
    lines.append(f"results: {out / SPSA_FILE}")
    return lines
