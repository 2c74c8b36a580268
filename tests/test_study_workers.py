"""A study's sessions play on one set of local workers (domsim.runner.studypool, issue 49): a bot
process starts once a study, not once a round; each run still plays as on fresh workers (the same
results), its run.log gets its workers' lines, a broken pool is replaced, no worker holds a run's
lock, and Dask and --debug keep their own workers."""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import re
from contextlib import nullcontext
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from clitools import interrupted_at, invoke

from domsim.plan.config import TourneyConfig
from domsim.runner import studypool
from domsim.runner.console import run_logging
from domsim.runner.lock import LockedError, RunLock
from domsim.runner.session import Execution, study_workers
from domsim.runner.tourney import Tourney
from domsim.seat import command, process, seats
from domsim.seat.command import bot_command
from domsim.seat.logs import LOG_BYTES_PER_PROCESS, LogBudget
from domsim.spec import Spec
from domsim.studies import spsa, tune

BOT = (Path(__file__).parent / "weighted.py").read_text()
GREEDY = Path(__file__).parent.parent / "strategies" / "example_greedy.py"
#: The bot file, saying on its stderr when its process starts, and which process plays a game.
TOLD = ("import sys, uuid\nPROCESS = uuid.uuid4().hex\n"
        "print('bot process started', PROCESS, file=sys.stderr, flush=True)\n" + BOT +
        "\n    def start_game(self, seat, rules):\n"
        "        print('game played by', PROCESS, file=sys.stderr, flush=True)\n")


def spsa_args(bot: Path, out: Path) -> list[str]:
    return ["tune", "--variant", "draw", "--strategy", str(bot), "--param", "double=0:8",
            "--against", "medium", "--games", "96", "--confirm", "16", "--r-end", "0.5",
            "--seed", "3", "-j", "2", "--silent", "--out", str(out)]


DIAL = ["tune", "--variant", "classic", "--against", "easy", "--win-rate", "0.6",
        "--win-rate-tolerance", "0.2", "--steps", "3", "--games", "200", "--seed", "2",
        "--silent", "-j", "2"]


def without_times(value):
    """A study's file without what differs from one playing to the next: times and folders."""
    if isinstance(value, dict):
        return {key: without_times(item) for key, item in value.items()
                if key not in ("seconds", "run", "folder")}
    if isinstance(value, list):
        return [without_times(item) for item in value]
    return value


def played(out: Path) -> dict[str, list[dict]]:
    """Every run's games under `out`, by its folder, without their decision times."""
    return {str(games.parent.relative_to(out)): [
        {key: value for key, value in row.items() if not key.startswith("time_")}
        for row in pq.read_table(games).to_pylist()]
        for games in sorted(out.rglob("games.parquet"))}


@pytest.mark.sandbox
def test_a_study_plays_the_same_on_its_lasting_workers_as_on_fresh_ones(tmp_path, monkeypatch):
    """An SPSA tune of a bot file (in its sandboxed process) with its confirmation duel, and a
    tune of the dial: their files, every run's games and the tuned values, the same as when
    each session forks its own workers (as before issue 49). Each run's secret key (drawn anew
    for bots in their own process) is the same both ways, as a rerun with the kept keys."""
    bot = tmp_path / "weighted.py"
    bot.write_text(BOT)
    monkeypatch.setattr(command, "run_key", lambda given, bots_out: given or (
        "5" * 32 if bots_out else None))
    found = {}
    for way in ("lasting", "fresh"):
        if way == "fresh":
            for study in (spsa, tune):
                monkeypatch.setattr(study, "study_workers", nullcontext)
        for name, args in (("spsa", spsa_args(bot, tmp_path / way / "spsa")),
                           ("dial", [*DIAL, "--out", str(tmp_path / way / "dial")])):
            result = invoke(*args)
            assert result.exit_code == 0, result.output
            out = tmp_path / way / name
            saved = json.loads((out / ("spsa.json" if name == "spsa" else "tune.json"))
                               .read_text())
            found[way, name] = without_times(saved), played(out)
    for name in ("spsa", "dial"):
        assert found["lasting", name] == found["fresh", name]
    rounds = found["lasting", "spsa"][1]
    assert len([run for run in rounds if run.startswith("rounds")]) == 3 and "confirm" in rounds


@pytest.mark.sandbox
def test_a_studys_bots_start_once_and_each_runs_log_gets_its_workers_lines(tmp_path):
    """A tune of three rounds and a duel on one worker: the bot processes that round 1 started
    play every later game (none starts again, where each round started its own before), and
    each run's run.log has its workers' lines: the bots' stderr from its games and every
    batch's `games A-B played`."""
    bot = tmp_path / "told.py"
    bot.write_text(TOLD)
    out = tmp_path / "tune"
    result = invoke(*spsa_args(bot, out), "-j", "1")
    assert result.exit_code == 0, result.output
    runs = [*sorted((out / "rounds").iterdir()), out / "confirm"]
    first = (runs[0] / "run.log").read_text()
    started = set(re.findall(r"bot process started (\w+)", first))
    assert started
    for run in runs:
        text = (run / "run.log").read_text()
        assert run == runs[0] or "bot process started" not in text
        assert set(re.findall(r"game played by (\w+)", text)) <= started
        games = json.loads((run / "manifest.json").read_text())["games_completed"]
        batches = re.findall(r"games (\d+)-(\d+) played", text)
        assert sorted(g for a, b in batches for g in range(int(a), int(b) + 1)) \
            == list(range(games))


@pytest.mark.parametrize("stop_at", [None, 2], ids=["finished", "interrupted"])
def test_a_studys_workers_end_with_it(tmp_path, monkeypatch, stop_at):
    """However the study ends, done or stopped by Ctrl-C, no worker of it is left running."""
    args = ["tune", "--variant", "draw", "--strategy", "hard", "--param", "block=0:10",
            "--against", "medium", "--games", "96", "--confirm", "0", "--seed", "7", "--silent",
            "--out", str(tmp_path / "tune")]
    result = invoke(*args) if stop_at is None else interrupted_at(monkeypatch, stop_at, *args)
    assert (result.exit_code == 0) == (stop_at is None), result.output
    assert not multiprocessing.active_children()


def forget_nothing(batch):
    """In a worker: its pid, after it was told of a hung spec, a command asked alone and a log
    allowance spent, as a run whose bots misbehaved leaves it."""
    seats._hung_games[batch.entrants[0].members[0]] += 3
    process._asked_alone.add(bot_command(Spec.of(str(GREEDY)), True))
    LogBudget._process_left = 0
    return os.getpid()


def what_it_knows(batch):
    """In a worker: its pid and what it remembers of the bots of earlier runs."""
    return (os.getpid(), dict(seats._hung_games), set(process._asked_alone),
            LogBudget._process_left)


def ended(batch):
    os._exit(1)


@pytest.fixture
def batch(tmp_path):
    config = TourneyConfig("block", games=2, entrants=("easy", "medium"), seed=2)
    return Tourney.of(config, tmp_path).batch([0])


def test_a_worker_forgets_what_it_learnt_of_the_bots_at_a_new_sessions_first_batch(batch):
    pool = studypool.StudyPool(1)
    try:
        with pool.serving() as executor:
            first = executor().submit(forget_nothing, batch).result()
        with pool.serving() as executor:
            pid, hung, alone, log_left = executor().submit(what_it_knows, batch).result()
    finally:
        pool.close()
    assert pid == first and (hung, alone, log_left) == ({}, set(), LOG_BYTES_PER_PROCESS)


def test_a_broken_pool_is_replaced_by_fresh_workers(batch):
    from concurrent.futures.process import BrokenProcessPool

    pool = studypool.StudyPool(1)
    try:
        with pool.serving() as executor:
            broken = executor()
            with pytest.raises(BrokenProcessPool):
                broken.submit(ended, batch).result()
            broken.kill_workers()  # as the stream does when a worker died
            again = executor().submit(what_it_knows, batch).result()
        with pool.serving() as executor:
            assert executor().submit(what_it_knows, batch).result()[0] == again[0]
    finally:
        pool.close()


LINES = 10000


def say_much(batch):
    for line in range(LINES):
        logging.getLogger("domsim.runner").info("worker line %d", line)


def test_each_session_logs_its_workers_lines_to_its_own_log(tmp_path, batch):
    """Every line a session's workers logged is in its run.log, also those still on their way
    when its last batch came back."""
    pool = studypool.StudyPool(1)
    try:
        for session in (1, 2):
            with run_logging(tmp_path / f"{session}.log", True), pool.serving() as executor:
                executor().submit(say_much, batch).result()
    finally:
        pool.close()
    for session in (1, 2):
        lines = re.findall(r"worker line (\d+)", (tmp_path / f"{session}.log").read_text())
        assert lines == [str(line) for line in range(LINES)]


def test_a_forked_child_holds_no_run_lock(tmp_path):
    """A study's worker outlives the session that forked it: the run's lock ends with the
    session's release all the same."""
    lock = RunLock.acquire(tmp_path, ["first"])
    (started, ready), (done, finish) = os.pipe(), os.pipe()
    child = os.fork()
    if child == 0:
        os.write(ready, b".")
        os.read(done, 1)  # until the parent is done
        os._exit(0)
    os.read(started, 1)
    try:
        lock.release()
        RunLock.acquire(tmp_path, ["second"]).release()
    except LockedError:
        pytest.fail("the forked child held the run's lock past its release")
    finally:
        os.write(finish, b".")
        os.waitpid(child, 0)
        for fd in (started, ready, done, finish):
            os.close(fd)


@pytest.mark.parametrize("execution", [Execution(backend="dask", scheduler="tcp://x:8786"),
                                       Execution(debug=True)], ids=["dask", "debug"])
def test_dask_and_debug_keep_their_own_workers(execution):
    """Dask's workers last anyway; --debug's trace reaches each run's folder through the
    environment its workers are forked with."""
    with study_workers(execution) as kept:
        assert kept is execution
