"""A session's games: every game id not yet in the folder streamed in game-id order (with a
watch, until it decides; a pairing a batch where `by_pairing`), each finished batch kept as a
part (domsim.results.parts), then the games table, summary.csv and manifest.json written
(domsim.results.finish), also when the session is interrupted, a worker dies or a write
fails."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Protocol

import numpy as np
import pyarrow as pa

from ..plan.schedule import batches, pairing_batches
from ..record import GameResult
from ..results.finish import finish
from ..results.manifest import Outcome, begin_session, now, read_manifest
from ..results.parts import done_game_ids, write_part
from ..results.summary import Tally
from ..results.table import read_games
from .console import FaultRateExceeded
from .signals import stops_deferred, stops_ignored
from .stream import Abandoned, stream
from .tourney import Tourney, TourneyError
from .worker import Batch, BatchResult, tables_filled

log = logging.getLogger("domsim.runner")


MAX_BATCH = 100
#: The most rounds of filled tables a batch of hosted bots holds (`batch_sizes`): more thin out
#: fewer round trips at batch ends, fewer show progress less often.
TABLE_ROUNDS = 4


#: A watched run's batches: few deals, so little is played past the decision.
DEALS_PER_BATCH = 10


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
                  window(workers), keep):
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
        # The tally holds every row in game-id order unless a resume filled gaps or the
        # batches each held a pairing.
        in_order = watch is not None or not (done or by_pairing(tourney, watch))
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


def window(workers: int) -> int:
    """The batches given to the workers at a time: one each to play, one each waiting, and two
    more, so that no worker waits for the next while the last is written."""
    return 2 * workers + 2


def by_pairing(tourney: Tourney, watch: Watch | None) -> bool:
    """Whether a run's batches each hold one pairing's games (every seating of its deals)
    rather than runs of game ids: where bots answer for many tables at once (`tables_filled`)
    and every pairing plays every deal, a worker then keeps the few processes of one pairing
    busy at a time (four in a duel's two seatings) instead of all it holds (six an entrant in a
    round robin of four): fewer processes taking turns on a CPU keep their memory in its
    caches. Not with a watch, which reads the games in game-id order."""
    schedule = tourney.schedule
    return (watch is None and schedule.pairings > 1 and schedule.deal_groups == 1
            and tables_filled(tourney.config, tourney.entrants, schedule) is not None)


def batch_sizes(tourney: Tourney, games: int, workers: int) -> tuple[int, int]:
    """The games of the first batches (a window's) and of the later ones when `games` are left
    to play on `workers`: about an eighth of a worker's share, at most `MAX_BATCH`. When bots in
    their own processes answer for many games in one round trip (`tables_filled`), a batch's
    tables stay filled while a lane has games (domsim.seat.tables.play_at_once) and thin out
    only in its last round: later batches then hold up to `TABLE_ROUNDS` rounds of filled
    tables (of one pairing's lanes, `by_pairing`), as many batches to each worker."""
    size = max(1, min(MAX_BATCH, games // (workers * 8)))
    filled = tables_filled(tourney.config, tourney.entrants, tourney.schedule)
    if filled is None:
        return size, size
    if by_pairing(tourney, None):
        filled //= tourney.schedule.pairings
    share = -(-max(0, games - workers - window(workers) * size) // workers)
    each = max(1, -(-share // (TABLE_ROUNDS * filled)))  # batches a worker plays
    return size, max(size, -(-share // each))


def games_to_play(tourney: Tourney, done: set[int], workers: int,
                  watch: Watch | None) -> Iterator[Batch]:
    """The batches of the games not yet played, made as the stream asks for them (lazily:
    memory stays flat): runs of ids in game-id order, or each a pairing's where `by_pairing`;
    the first `workers` hold one game (a watched run's, one deal), so the progress bar has a
    rate at once."""
    games = tourney.config.games
    if watch is None:
        size, most = batch_sizes(tourney, games - len(done), workers)
        if by_pairing(tourney, watch):
            for ids in pairing_batches(tourney.schedule, games, done, size, singles=workers,
                                       small=window(workers), most=most):
                yield tourney.batch(ids, home=tourney.schedule.slot(ids[0]).pairing)
            return
        yield from (tourney.batch(ids) for ids in batches(
            (g for g in range(games) if g not in done), size, singles=workers,
            small=window(workers), most=most))
        return
    first, made = len(done), 0
    while first < games and not watch.decided:
        size = watch.deal_games * (1 if made < workers else DEALS_PER_BATCH)
        yield tourney.batch(list(range(first, min(first + size, games))))
        first, made = first + size, made + 1
