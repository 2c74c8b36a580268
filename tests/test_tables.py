"""Several games at once (domsim.seat.tables, docs/seat-protocol.md "Tables"): a bot process plays a
table in each and answers all of them in one round trip, and no game plays otherwise than it
would alone but where the bot fails: a process that fails in a round trip faults every game it
was asked in, and none is played again (R-SEAT-FAULT)."""

import faulthandler
import functools
import json
import os
import random
import re
import threading
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from clitools import invoke

from domsim import __version__
from domsim.game import play
from domsim.plan.config import TourneyConfig
from domsim.rules import make_rules
from domsim.runner import worker as worker_module
from domsim.runner.local import SPARE, local_executor
from domsim.runner.play import MAX_BATCH, TABLE_ROUNDS, batch_sizes, by_pairing, window
from domsim.runner.tourney import Tourney
from domsim.runner.worker import games_at_once, play_batch
from domsim.seat import pool as pool_module
from domsim.seat import process as process_module
from domsim.seat import seats as seat_module
from domsim.seat.alarm import MoveAlarm
from domsim.seat.command import bot_command
from domsim.seat.host import TABLES, Host, serve
from domsim.seat.pool import BotPool, deal_keys
from domsim.seat.process import BotFault
from domsim.seat.protocol import decode, encode, game_message
from domsim.seat.tables import GAMES_AT_ONCE, current_hub, play_at_once
from domsim.seat.watchdog import watchdog
from domsim.spec import Spec

ROOT = Path(__file__).resolve().parent.parent
GREEDY = str(ROOT / "strategies" / "example_greedy.py")
UNLUCKY = str(ROOT / "tests" / "broken" / "unlucky.py")


@pytest.fixture(autouse=True)
def own_worker_state(monkeypatch):
    """This module's hung specs and bots asked alone are its own."""
    monkeypatch.setattr(seat_module, "_hung_games", seat_module.Counter())
    monkeypatch.setattr(process_module, "_asked_alone", set())


@pytest.fixture
def round_trips(monkeypatch):
    """(asks, seconds) of every round trip of several games' asks."""
    seen = []
    exchange = process_module.BotProcess.exchange

    def counted(self, asks):
        answers = exchange(self, asks)
        seen.append((len(asks), max((a[1] for a in answers if type(a) is tuple), default=0)))
        return answers

    monkeypatch.setattr(process_module.BotProcess, "exchange", counted)
    return seen


@pytest.fixture
def starts(monkeypatch):
    """The seat seed of every `game` message sent to a bot: once per game and bot seat, unless
    a game is played again from its start."""
    sent = []
    message = seat_module.game_message

    def counted(rules, seat, seat_seed, *args):
        sent.append(seat_seed)
        return message(rules, seat, seat_seed, *args)

    monkeypatch.setattr(seat_module, "game_message", counted)
    return sent


def outcome(game) -> tuple:
    """All a game's record holds but its decision times (a late move's, in its fault too)."""
    record = game.record()
    faults = [{**fault, "first": fault["first"] and re.sub(r"\d+\.\d+ s,", "T s,",
                                                           fault["first"])}
              for fault in record["faults"]]
    return record["result"], record["hands"], faults, record.get("forfeit")


def played(rules, specs, seeds, at_once: int, limit: float | None = 5.0) -> list[tuple]:
    """The outcomes of the games of `seeds`, `at_once` at a time, as by a fresh worker."""
    seat_module._hung_games.clear()
    process_module._asked_alone.clear()
    with BotPool() as bots, MoveAlarm(limit) as alarm:
        games = [functools.partial(play, rules, specs, seed, move_time_limit=limit,
                                   isolate=True, bots=bots, alarm=alarm) for seed in seeds]
        return [outcome(game) for game in play_at_once(games, at_once)]


@pytest.mark.parametrize("variant, specs", [
    ("block", [GREEDY, "easy"]),
    ("draw", [GREEDY, "easy", GREEDY, "medium"]),  # two tables of one bot in each game
])
def test_games_at_once_play_exactly_as_one_after_another(variant, specs, round_trips):
    rules = make_rules(variant, len(specs))
    alone = played(rules, specs, range(40), 1)
    assert round_trips == []  # one game at a time: no round trip of several
    assert played(rules, specs, range(40), 32) == alone
    assert max(asks for asks, _ in round_trips) >= 16  # and they were asked together


@pytest.mark.parametrize("how, query", [
    ("exit", "how=exit"),
    ("hang", "how=hang&share=0.01"),  # one game of twelve, for time
    ("late", "how=late&delay=0.4&share=0.01"),
    ("flood", "how=flood&share=0.01"),
])
def test_a_bot_that_fails_in_a_round_trip_faults_every_game_it_was_asked_in(how, query, caplog,
                                                                           starts):
    """Whether the bot dies, hangs, answers late or floods in one game of a round trip, the
    failure is its own in every game it was asked in (issue 47): each game whose process was
    lost has a fault, a late reply is a late move of each game it made late, and no game is
    played again from its start (a replay would hand the bot a second look at the deal); a game
    with no fault plays as it would alone."""
    rules, specs = make_rules("block"), [f"{UNLUCKY}?{query}", "easy"]
    seeds = range(12)
    alone = played(rules, specs, seeds, 1, limit=0.3)
    faulted = {seed for seed, game in zip(seeds, alone, strict=True) if game[2][0]["first"]}
    assert 0 < len(faulted) < len(seeds) // 2
    starts.clear()
    together = played(rules, specs, seeds, 12, limit=0.3)
    faulted_together = {seed for seed, game in zip(seeds, together, strict=True)
                        if game[2][0]["first"]}
    assert faulted <= faulted_together
    if how != "late":  # the process lost: every game it was playing faults
        assert len(faulted_together) > len(faulted)
        assert "a fault in each of the" in caplog.text
    assert all(game == alone[seed] for seed, game in zip(seeds, together, strict=True)
               if seed not in faulted_together)
    assert len(set(starts)) == len(starts) == len(seeds)  # each game's deal given the bot once


def test_a_slow_bot_is_never_late_for_being_asked_with_others(round_trips):
    """A bot taking 4 ms a move under a 0.1 s limit: round trips grow only while they take at
    most an eighth of the limit, so none comes near it and no move is late."""
    rules, specs = make_rules("block"), [f"{UNLUCKY}?share=0&pause=0.004", "easy"]
    games = played(rules, specs, range(6), 6, limit=0.1)
    assert all(game[2][0]["timeouts"] == 0 for game in games)
    assert max(asks for asks, _ in round_trips) > 1
    assert max(seconds for _, seconds in round_trips) < 0.1 / 2


def test_a_slow_start_is_never_late_for_being_asked_with_others(monkeypatch, starts):
    """A bot taking 0.2 s to start each game, allowed 0.5 s: the starts of games begun together
    are not asked together beyond what fits (a game's start is bound by its wait)."""
    rules, specs = make_rules("block"), [f"{UNLUCKY}?share=0&start=0.2", "easy"]
    with BotPool() as bots, MoveAlarm(5.0) as alarm:
        command = bot_command(Spec.of(specs[0]), isolate=True)
        bots.give(*bots.take(command))  # started with the usual time to start
        for module in (process_module, seat_module):
            monkeypatch.setattr(module, "STARTUP_SECONDS", 0.5)
        games = play_at_once([functools.partial(play, rules, specs, seed, isolate=True,
                                                bots=bots, alarm=alarm) for seed in range(6)], 6)
    assert all(game.faults[0]["first"] is None for game in games)
    assert len(set(starts)) == len(starts) == len(games)  # each game started once


def test_a_round_trip_answers_each_table_in_order_in_one_write():
    """The seat host keeps a game per table and answers every line of a read in one write."""
    host = Host(Spec.of(GREEDY))
    rules = make_rules("block")
    requests, to_host = os.pipe()
    from_host, replies = os.pipe()
    hello = encode({"type": "hello", "encodings": ["compact"], "domsim": __version__})
    lines = [hello] + [b"T %d " % table + encode(game_message(rules, table, 7, None))
                       for table in (0, 5)] + [b"T 5 " + encode({"type": "game_over",
                                                                 "scores": [1, 2],
                                                                 "winners": [1]})]
    os.write(to_host, b"".join(lines))
    os.close(to_host)
    serve(host, requests, replies)
    os.close(replies)
    answers = [decode(line) for line in os.read(from_host, 1 << 16).splitlines()]
    assert answers[0]["tables"] >= 2 and answers[0]["encoding"] == "compact"
    assert [a["type"] for a in answers[1:]] == ["ready", "ready", "done"]
    for fd in (requests, from_host):
        os.close(fd)


class FakeBot:
    """A bot that answers every ask with its message doubled, or fails as told."""

    def __init__(self, fail: bool = False) -> None:
        self.closed, self.batch_cap, self.fail, self.sizes = False, 8, fail, []

    def exchange(self, asks):
        self.sizes.append(len(asks))
        if self.fail:
            self.closed = True
            return [BotFault("gone") for _ in asks]
        return [(2 * ask, 0.0) for ask in asks]


def test_play_at_once_gives_each_games_result_in_order_asking_together():
    bot = FakeBot()

    def game(n):
        hub = current_hub()
        return [hub.ask(bot, n)[0], hub.ask(bot, n + 1)[0]]

    assert play_at_once([functools.partial(game, n) for n in range(5)], 3) == \
        [[2 * n, 2 * n + 2] for n in range(5)]
    assert bot.sizes[0] == 3 and sum(bot.sizes) == 10
    assert current_hub() is None  # outside the games, none


@pytest.mark.parametrize("batch", [8, 1])
def test_a_lost_bot_faults_every_game_waiting_on_it_and_an_error_ends_all(batch):
    """Asked together (8) or one after another (1: the others wait on the lost process), each
    game gets the fault; none is played again."""
    bot, starts, closed = FakeBot(fail=True), [], []
    bot.batch_cap = batch

    def game(n):
        starts.append(n)
        try:
            return current_hub().ask(bot, n)[0]
        except BotFault:
            return "fault"
        finally:
            closed.append(n)

    assert play_at_once([functools.partial(game, n) for n in range(3)], 3) == ["fault"] * 3
    assert sorted(starts) == [0, 1, 2]
    assert bot.sizes == [min(batch, 3)]

    def broken():
        raise ValueError("a bug")

    closed.clear()
    bot = FakeBot()
    with pytest.raises(ValueError, match="a bug"):
        play_at_once([functools.partial(game, 0), broken, functools.partial(game, 1)], 3)
    assert sorted(closed) == [0]  # the waiting game was ended, its `finally` run


def test_a_bot_process_is_never_given_a_deal_twice_but_shares_its_tables_across_deals():
    """issue 36: games of different deals share one process's tables; a game of a deal the
    process has had (its seed, or its fixed first deal) goes to another process."""
    command = bot_command(Spec.of(GREEDY), None)
    with BotPool() as pool:
        first, table = pool.take(command, deal_keys(1))
        assert first.tables > 1
        other, _ = pool.take(command, deal_keys(2))
        assert other is first
        pool.give(first, table)
        mirror, _ = pool.take(command, deal_keys(1))
        assert mirror is not first
        fixed = deal_keys(3, first_deal="a deal")
        assert pool.take(command, fixed)[0] is first
        assert pool.take(command, deal_keys(4, first_deal="a deal"))[0] is not first



ROUND_ROBIN = (GREEDY, str(ROOT / "strategies" / "example_counter.py"),
               "domsim.strategies.easy:Easy", "domsim.strategies.medium:Medium")


@pytest.fixture
def fresh_worker(monkeypatch):
    """Plays a batch as a worker with no bot yet: the batch's result, the specs of the bot
    processes it started and those processes (closed since)."""
    started = []

    def counted(command, *args):
        started.append(command.spec.text)
        return process_module.BotProcess(command, *args)

    monkeypatch.setattr(pool_module, "BotProcess", counted)
    monkeypatch.setattr(worker_module, "_pools", {})

    def play(batch):
        try:
            result = play_batch(batch)
            return result, started, [bot for pool in worker_module._pools.values()
                                     for bot in pool._all]
        finally:
            for pool in worker_module._pools.values():
                pool.close()

    return play


def test_a_workers_watchdog_is_armed_once_a_batch_not_once_a_game(monkeypatch):
    """Arming the watchdog starts faulthandler's timer thread and stopping it joins that
    thread: a batch's games keep it armed (the headline tourney spent ~5% of its wall time
    stopping and arming it a game), and it is stopped once the batch is played."""
    armed, stopped = [], []
    monkeypatch.setattr(faulthandler, "dump_traceback_later", lambda *a, **k: armed.append(a))
    monkeypatch.setattr(faulthandler, "cancel_dump_traceback_later", lambda: stopped.append(1))
    monkeypatch.setattr(watchdog, "enabled", True)
    monkeypatch.setattr(watchdog, "_fires_at", 0.0)
    tourney = round_robin(24, "easy", "medium", isolate=False)
    result = play_batch(tourney.batch(list(range(24))))
    assert len(result.rows) == 24
    assert (len(armed), len(stopped), watchdog._fires_at) == (1, 1, 0.0)


def round_robin(games: int, *entrants: str, **settings) -> Tourney:
    return Tourney.of(TourneyConfig("block", games=games, entrants=entrants,
                                    **{"isolate": True, **settings}), Path())


def test_a_round_robin_of_hosted_bots_fills_their_tables_and_starts_one_process_a_seat(
        monkeypatch, round_trips, fresh_worker):
    """issue 47: four entrants, each in its own processes, duplicate deals: each holds six
    seats of every deal (three opponents, two seatings), so a worker needs six processes of each
    (no process meets a deal twice) and, playing a round's games for each of their tables at
    once, asks each process for many games in one round trip, not one or two (32 games at once
    asked 1.6 a round trip). Here as if a host had 9 tables, for time."""
    tourney = round_robin(800, *ROUND_ROBIN)
    assert games_at_once(tourney.config, tourney.entrants, tourney.schedule) == \
        (TABLES - 1) * 12
    monkeypatch.setattr(worker_module, "TABLES", 9)
    at_once = games_at_once(tourney.config, tourney.entrants, tourney.schedule)
    assert at_once == 8 * 12
    result, started, _ = fresh_worker(tourney.batch(list(range(at_once))))
    assert len(result.rows) == at_once
    assert sorted(started) == sorted(ROUND_ROBIN * 6)
    asks = [asked for asked, _ in round_trips]
    assert sum(asks) / len(asks) >= 3


@pytest.mark.parametrize("entrants, settings, filled, at_once", [
    (ROUND_ROBIN, {}, (TABLES - 1) * 2, (TABLES - 1) * 12),  # a batch holds one pairing
    (ROUND_ROBIN[:2], {}, (TABLES - 1) * 2, (TABLES - 1) * 2),  # a duel: two seatings a deal
    (("easy", "medium"), {}, None, GAMES_AT_ONCE),  # every bot in process
    ((GREEDY, f"exec:python3 {ROOT / 'strategies' / 'example_external.py'}"), {}, None,
     GAMES_AT_ONCE),
    (ROUND_ROBIN[:2], {"time_control": "10+0.1"}, None, None),  # a clock: one game at a time
])
def test_batches_fill_the_tables_of_hosted_bots_and_only_theirs(entrants, settings, filled,
                                                                 at_once):
    """Batches of hosted bots grow past the first window to up to `TABLE_ROUNDS` rounds of
    filled tables (a lane's next game takes a finished one's tables; in a round robin, of one
    pairing's lanes), as many to each worker; a run with an `exec:` program (it may play one
    game a process), or all in process, or under a clock, keeps the batches it had."""
    tourney = round_robin(20000, *entrants, **settings)
    for games, first in ((20000, MAX_BATCH), (100, 6)):
        size, most = batch_sizes(tourney, games, 2)
        assert size == first
        if filled is None:
            assert most == first
            continue
        later = games - 2 - window(2) * size  # past the two single games and the window
        assert most <= TABLE_ROUNDS * filled and (most >= filled or most >= later / 2)
        assert -(-later // most) % 2 == 0  # each worker as many
    if at_once:
        assert games_at_once(tourney.config, tourney.entrants, tourney.schedule) == at_once


def test_a_sweep_answers_a_game_twice_a_round_of_its_two_processes(monkeypatch, round_trips,
                                                                  fresh_worker):
    """The processes are swept in a fixed order and the games one answered play on at once:
    a duel's game asks its second process in the same sweep as its first, so each process is
    asked for each of its games a round trip, where asking every waiting process before any
    game played on asked it for about half of them."""
    tourney = round_robin(100, *ROUND_ROBIN[:2])
    monkeypatch.setattr(worker_module, "TABLES", 9)
    at_once = games_at_once(tourney.config, tourney.entrants, tourney.schedule)
    assert at_once == 8 * 2
    result, _, _ = fresh_worker(tourney.batch(list(range(at_once))))
    assert len(result.rows) == at_once
    asks = [asked for asked, _ in round_trips]
    assert sum(asks) / len(asks) >= 4.5  # 5.2 here; 3.5 before the sweep (games end unevenly)


def test_a_lanes_next_game_takes_the_tables_of_its_last_so_they_stay_filled(monkeypatch,
                                                                          round_trips,
                                                                          fresh_worker):
    """A batch of four rounds of filled tables of a round robin: each lane (a pairing in a
    seating) plays a table's worth at once in processes of its own, and a game that ends makes
    way for the next of its lane, so no process beyond one a seat is started (were tables
    handed to any process with one free, a lane gone ahead would find the others' processes
    holding its deal and start more) and none meets a deal twice."""
    tourney = round_robin(800, *ROUND_ROBIN)
    monkeypatch.setattr(worker_module, "TABLES", 9)
    batch = tourney.batch(list(range(4 * 8 * 12)))
    assert worker_module.lanes(batch) == [game_id % 12 for game_id in batch.game_ids]
    result, started, bots = fresh_worker(batch)
    assert len(result.rows) == 4 * 8 * 12
    assert sorted(started) == sorted(ROUND_ROBIN * 6)
    assert all(len(bot.deals) == 32 for bot in bots)  # a game of every deal, one seat a lane
    asks = [asked for asked, _ in round_trips]
    assert sum(asks) / len(asks) >= 5


class _ThreeTableBot:
    """Stands in for a process of three tables, for the pool's own choices."""

    tables = 3

    def __init__(self, command, confinement):
        self.command, self.thread, self.lane = command, threading.get_ident(), None
        self.alive, self.closed, self.deals = True, False, set()

    def close(self):
        self.closed = True


@pytest.mark.parametrize("seed", range(8))
def test_a_lane_keeps_to_its_own_processes_whatever_order_its_games_end_in(monkeypatch, seed):
    """Six lanes of two games at once, each game a new deal of its lane, ending in a random
    order: each lane's games go to one process of its own, which never meets a deal twice (a
    table given to whichever process had one free made seven processes in most orders)."""
    monkeypatch.setattr(pool_module, "BotProcess", _ThreeTableBot)
    rng, pool, running = random.Random(seed), BotPool(), []
    dealt = dict.fromkeys(range(6), 0)

    def start(lane):
        bot, table = pool.take("a bot", deal_keys(dealt[lane]), lane)
        running.append((lane, bot, table))
        dealt[lane] += 1

    for lane in dealt:
        start(lane)
        start(lane)
    while running:
        lane, bot, table = running.pop(rng.randrange(len(running)))
        pool.give(bot, table)
        if dealt[lane] < 60:
            start(lane)
    assert len(pool._all) == 6
    assert sorted(bot.lane for bot in pool._all) == list(range(6))
    assert all(len(bot.deals) == 60 for bot in pool._all)


def test_a_round_robin_played_a_pairing_a_batch_writes_what_one_in_process_writes(tmp_path):
    """Batches of one pairing each (runner.play.by_pairing) finish out of game-id order; the
    games table and records are written in game-id order all the same, and the summary is the
    one the same run (its seed and key) in process writes: its games are the same."""
    entrants = ROUND_ROBIN[:3]
    assert by_pairing(round_robin(60, *entrants), None)
    assert not by_pairing(round_robin(60, *entrants, isolate=False), None)
    runs = {}
    for way in ("--isolate", "--in-process"):
        out = runs[way] = tmp_path / way.strip("-")
        result = invoke("tourney", "--variant", "block", *(a for e in entrants for a in ("-p", e)),
                        "--games", "60", "--seed", "5", "--run-key", "ab" * 16, "-j", "2",
                        "--records", "--silent", way, "--out", str(out))
        assert result.exit_code == 0, result.output
    isolated = pq.read_table(runs["--isolate"] / "games.parquet")
    assert isolated.column("game_id").to_pylist() == list(range(60))
    records = (runs["--isolate"] / "records.jsonl").read_text().splitlines()
    assert [json.loads(line)["game_id"] for line in records] == list(range(60))
    in_process = pq.read_table(runs["--in-process"] / "games.parquet")
    for column in ("entrant_0", "entrant_1", "winners", "score_0", "score_1", "hands"):
        assert isolated.column(column).to_pylist() == in_process.column(column).to_pylist()
    assert (runs["--isolate"] / "summary.csv").read_text() == \
        (runs["--in-process"] / "summary.csv").read_text()


class _Homed:
    def __init__(self, home):
        self.home = home


def _worker_pid(batch, seconds=0.0):
    time.sleep(seconds)
    return os.getpid()


def test_a_homes_batches_go_to_one_worker_unless_it_is_far_behind():
    """A run played a pairing a batch sends each pairing's batches to one worker, which holds
    that pairing's bots (a worker would otherwise start every pairing's in turn: 52 starts in
    a round robin of four on two workers, 28 so); a worker `SPARE` batches behind the least
    busy gives the next to it."""
    pool = local_executor(2, homes=True)
    try:
        ran = {home: {pool.submit(_worker_pid, _Homed(home)).result() for _ in range(4)}
               for home in range(4)}
        assert all(len(pids) == 1 for pids in ran.values())
        assert ran[0] == ran[2] != ran[1] == ran[3]
        behind = [pool.submit(_worker_pid, _Homed(0), 0.2) for _ in range(2 + SPARE + 2)]
        assert len({future.result() for future in behind}) == 2
    finally:
        pool.shutdown()
