"""A worker's job: play a batch of game ids and return their table rows (and records).

A batch carries plain values only (settings, ids and the entrants' specs, never strategy objects),
so it pickles to any process or Dask worker, and each game depends on (run seed, game id) alone."""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.util import Finalize

from ..deals import Deal
from ..game import play
from ..plan.config import TourneyConfig
from ..plan.pairings import Entrant
from ..plan.schedule import Schedule
from ..record import GameResult, seal
from ..results.columns import Place, game_row
from ..rules import Rules
from ..seat.alarm import MoveAlarm
from ..seat.command import bot_command
from ..seat.host import TABLES
from ..seat.pool import BotPool
from ..seat.process import Confinement
from ..seat.tables import GAMES_AT_ONCE, play_at_once
from ..seat.watchdog import stop_watchdog

log = logging.getLogger("domsim.runner")


@dataclass(frozen=True)
class Batch:
    config: TourneyConfig
    entrants: tuple[Entrant, ...]
    pairings: tuple[tuple[int, ...], ...]
    schedule: Schedule
    game_ids: tuple[int, ...]
    first_deals: tuple[Deal, ...] = ()  # per game id, with fixed deals
    #: The pairing whose games it holds, in a run played a pairing a batch
    #: (domsim.runner.play.by_pairing): the local backend plays a home on one worker.
    home: int | None = None


@dataclass(frozen=True)
class BatchResult:
    game_ids: tuple[int, ...]
    rows: list[dict]
    records: list[str]  # JSON lines, empty unless the run keeps records
    results: list[GameResult]  # each game's result with its reason, as its row scores it


_pools: dict[Confinement, BotPool] = {}


def worker_bots(confinement: Confinement) -> BotPool:
    """This process's bot processes, kept from batch to batch (a bot starts once per worker, not
    once per batch: starting one costs more than a hundred games of most bots) and killed when
    the process ends."""
    pool = _pools.get(confinement)
    if pool is None:
        pool = _pools[confinement] = BotPool(confinement)
        Finalize(pool, pool.close, exitpriority=100)
    return pool


def run_confinement(config: TourneyConfig) -> Confinement:
    """How a run with these settings holds its bot processes."""
    return Confinement(config.seat_memory, config.sandbox)


def games_at_once(config: TourneyConfig, entrants: Sequence[Entrant],
                  schedule: Schedule) -> int:
    """How many games a worker plays at once: one under a clock, whose time must be each
    decision's own; `tables_filled` where it says; otherwise `GAMES_AT_ONCE`, as an `exec:`
    program may play one game a process."""
    if config.clock():
        return 1
    return tables_filled(config, entrants, schedule) or GAMES_AT_ONCE


def tables_filled(config: TourneyConfig, entrants: Sequence[Entrant],
                  schedule: Schedule) -> int | None:
    """When every bot in its own process is domsim's seat host, the games that give each of
    them a game at every table but one: a game of each lane (Schedule.lanes) for each table, as
    a process meets a deal once and a lane's games never share one. A process then
    answers for all its tables in one round trip (domsim.seat.tables). None under a clock
    (`games_at_once`), when no bot plays in its own process, or when one is not domsim's host."""
    if config.clock():
        return None
    commands = [command for entrant in entrants for spec in entrant.members
                if (command := bot_command(spec, config.isolate)) is not None]
    if commands and all(command.hosted for command in commands):
        return (TABLES - 1) * schedule.lanes
    return None


def lanes(batch: Batch) -> list[int] | None:
    """Each game's lane (Schedule.lane) where the batch fills the
    tables of its hosted bots (`tables_filled`), else None."""
    config, schedule = batch.config, batch.schedule
    if tables_filled(config, batch.entrants, schedule) is None:
        return None
    return [schedule.lane(game_id) for game_id in batch.game_ids]


def play_batch(batch: Batch) -> BatchResult:
    """The batch's games, `games_at_once` at a time: a bot process that plays several tables
    answers for all of them in one round trip (domsim.seat.tables). Where that fills the tables
    of hosted bots, each lane plays `TABLES - 1` games at once, each in the lane's processes,
    and a game that ends makes way for the next of its lane: the tables stay filled until the
    batch's last round."""
    config = batch.config
    limit = config.move_time_limit or None
    bots = worker_bots(run_confinement(config))
    rules = config.rules()
    lane_of = lanes(batch)
    with MoveAlarm(limit) as alarm:
        games = [functools.partial(_play_one, batch, rules, i, game_id, bots, alarm,
                                   None if lane_of is None else lane_of[i])
                 for i, game_id in enumerate(batch.game_ids)]
        at_once = TABLES - 1 if lane_of else \
            games_at_once(config, batch.entrants, batch.schedule)
        try:
            played = play_at_once(games, at_once, lane_of)
        finally:
            stop_watchdog()  # a batch's games keep it armed: re-arming costs a thread start
    log.info("games %d-%d played", batch.game_ids[0], batch.game_ids[-1])
    rows = [row for row, _, _ in played]
    records = [record for _, record, _ in played if record is not None]
    return BatchResult(batch.game_ids, rows, records, [result for _, _, result in played])


def _play_one(batch: Batch, rules: Rules, i: int, game_id: int, bots: BotPool,
              alarm: MoveAlarm, lane: int | None) -> tuple[dict, str | None, GameResult]:
    """The table row of the batch's `i`th game, `game_id`, its record (None: none kept) and
    its result."""
    config = batch.config
    slot = batch.schedule.slot(game_id)
    place = Place(rules, batch.entrants, batch.pairings[slot.pairing], slot)
    game = play(rules, place.specs, slot.seed, move_time_limit=alarm.seconds,
                time_control=config.clock(), keep_hands=config.records, isolate=config.isolate,
                bots=bots, on_fault=config.on_fault, alarm=alarm, game_id=game_id,
                first_deal=batch.first_deals[i] if batch.first_deals else None, lane=lane)
    if not config.records:
        return game_row(place, game), None, game.result
    return game_row(place, game), json.dumps(seal({
        "game_id": game_id, "run_seed": config.seed, "deal_id": slot.deal_id,
        **({"run_key": config.run_key} if config.run_key else {}),
        "entrants": place.names, **({"fixed_deal": True} if batch.first_deals else {}),
        **game.record()})), game.result
