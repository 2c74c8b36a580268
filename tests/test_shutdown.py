"""A tourney always ends: a second stop signal during the wind-down after the first abandons the
running games, and a run whose worker is killed twice stops; either way the parent exits
within seconds, the games already written are kept, and the run stays partial and resumable
(issue 21, item 3)."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from domsim.cli import main
from domsim.runner.console import LOGGER, WorkerLogHandler, renew_worker_logging, run_logging

#: Generous: an ended run exits in a few seconds; only a hang takes this long.
DEADLINE = 30.0

HELD_BOT = '''
import time
from pathlib import Path

from domsim.strategy import Strategy

HOLD = Path(__file__).with_name("hold")
games = 0  # in this process


class Held(Strategy):
    """Plays its first legal move; from a worker's third game on, waits while the file `hold`
    lies next to it: the games running then never end by themselves."""

    def start_game(self, seat, rules):
        global games
        games += 1

    def choose(self, view):
        while games > 2 and HOLD.exists():
            time.sleep(0.02)
        return view.legal_moves[0]
'''

FLOOD_BOT = '''
import logging
import threading
import time
from pathlib import Path

from domsim.strategy import Strategy

FLOOD = Path(__file__).with_name("flood")
log = logging.getLogger("domsim.flood")


def flood():
    while FLOOD.exists():
        log.info("flood " * 100)


class Flood(Strategy):
    """Plays its first legal move, slowly, while a thread of its process fills the run's log:
    so long as the file `flood` lies next to it."""

    started = False

    def choose(self, view):
        if FLOOD.exists() and not Flood.started:
            Flood.started = True
            threading.Thread(target=flood, daemon=True).start()
        if FLOOD.exists():
            time.sleep(0.01)
        return view.legal_moves[0]
'''


@pytest.fixture
def start(tmp_path: Path):
    """Starts `domsim tourney` of `bot` (in process) against easy in its own process group, its
    stderr in a file; whatever of it still runs after the test is killed."""
    started = []

    def start(bot: str, *args: str) -> subprocess.Popen:
        (tmp_path / "bot.py").write_text(bot)
        command = [str(Path(sys.executable).with_name("domsim")), "tourney", "--silent",
                   "--variant", "block", "-p", "easy", "-p", str(tmp_path / "bot.py"),
                   "--seed", "7", "-j", "2", "--in-process", "--out", str(tmp_path / "run"), *args]
        with open(tmp_path / "stderr", "w") as stderr:
            started.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr,
                                            start_new_session=True))
        return started[-1]

    yield start
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def wait_for(condition, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def exits(process: subprocess.Popen) -> int:
    """The exit status of a process that must end within DEADLINE."""
    wait_for(lambda: process.poll() is not None, DEADLINE)
    return process.returncode


def state_and_parent(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent (None: gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return fields[0], int(fields[1])


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper is dead)."""
    found = state_and_parent(pid)
    return found is not None and found[0] != "Z"


def children(pid: int) -> set[int]:
    """The live processes whose parent is `pid`."""
    pids = (int(path.name) for path in Path("/proc").iterdir() if path.name.isdigit())
    return {child for child in pids
            if (found := state_and_parent(child)) and found[0] != "Z" and found[1] == pid}


def parts(out: Path) -> list[Path]:
    return sorted((out / "parts").glob("games-*.parquet"))


def partial_run(out: Path, stderr: str, stopped: str, games: int) -> None:
    """The run in `out` stopped for `stopped`, said so in one line, and is partial (its games
    table holds what its parts hold) and unlocked."""
    lines = stderr.strip().splitlines()
    assert lines[-1].startswith(f"Error: {stopped} after "), stderr
    assert f"Resume with: domsim tourney --out {out} --resume" in lines[-1]
    assert "Traceback" not in stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["partial"] is True and manifest["sessions"][-1]["stopped"] == stopped
    done = manifest["games_completed"]
    assert 0 < done < games
    assert pq.read_table(out / "games.parquet").num_rows == done
    assert sum(pq.read_metadata(part).num_rows for part in parts(out)) == done
    assert not (out / ".writer").exists()


def resumes(out: Path, games: int) -> None:
    result = CliRunner().invoke(main, ["tourney", "--out", str(out), "--resume", "--silent"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["partial"] is False and manifest["games_completed"] == games
    ids = pq.read_table(out / "games.parquet", columns=["game_id"]).column("game_id")
    assert sorted(ids.to_pylist()) == list(range(games))


@pytest.mark.slow
@pytest.mark.parametrize("second", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_a_second_stop_signal_abandons_the_running_games_and_the_run_ends(tmp_path, start,
                                                                         second):
    games = 60
    (tmp_path / "hold").touch()
    tourney = start(HELD_BOT, "--games", str(games), "--move-time-limit", "0")
    out = tmp_path / "run"
    wait_for(lambda: parts(out))
    workers, kept = children(tourney.pid), {part.name for part in parts(out)}
    os.kill(tourney.pid, signal.SIGINT)  # the graceful stop: waits for games that never end
    time.sleep(1)
    assert tourney.poll() is None
    os.kill(tourney.pid, second)
    assert exits(tourney) == 1
    partial_run(out, (tmp_path / "stderr").read_text(),
                "interrupted twice (the running games were abandoned)", games)
    assert kept <= {part.name for part in parts(out)}
    assert workers and not any(map(alive, workers))
    (tmp_path / "hold").unlink()
    resumes(out, games)


@pytest.mark.slow
def test_a_run_whose_worker_is_killed_twice_ends(tmp_path, start):
    """The first death has the rest of the run isolated (domsim.runner.stream), the
    second ends it. Each worker is killed while its process floods the log: the queue that
    carries workers' records is then likely left locked, or half written."""
    games = 600
    (tmp_path / "flood").touch()
    tourney = start(FLOOD_BOT, "--games", str(games))
    out, log = tmp_path / "run", tmp_path / "run" / "run.log"
    wait_for(lambda: parts(out) and len(children(tourney.pid)) == 2)
    time.sleep(0.5)
    first = children(tourney.pid)
    os.kill(min(first), signal.SIGKILL)
    wait_for(lambda: len(children(tourney.pid) - first) == 2)
    time.sleep(0.5)
    second = children(tourney.pid) - first
    os.kill(min(second), signal.SIGKILL)
    assert exits(tourney) == 1
    partial_run(out, (tmp_path / "stderr").read_text(), "a worker process died", games)
    assert not any(map(alive, first | second))
    with log.open(errors="replace") as lines:  # the parent's own record of the first death
        assert any("a worker process died while playing" in line for line in lines)
    (tmp_path / "flood").unlink()
    resumes(out, games)


def fork(child) -> None:
    """Run `child` in a forked process, as a pool's worker, and wait for it to end."""
    pid = os.fork()
    if pid == 0:
        try:
            child()
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def worker_log_handlers() -> list[WorkerLogHandler]:
    return [h for h in logging.getLogger(LOGGER).handlers if isinstance(h, WorkerLogHandler)]


def test_a_worker_that_dies_holding_the_log_queue_silences_neither_the_parent_nor_the_next_pool(
        tmp_path):
    """A worker killed while it wrote a record leaves its queue's lock held for good (here it
    takes the lock and exits): the parent's records and the next pool's still reach run.log."""
    log, run_log = logging.getLogger("domsim.test"), tmp_path / "run.log"

    def next_worker():
        log.info("from the next pool")
        for handler in worker_log_handlers():
            handler.queue.close()
            handler.queue.join_thread()  # sent

    with run_logging(run_log, quiet=True):
        fork(lambda: [handler.queue._wlock.acquire() for handler in worker_log_handlers()])
        log.info("from the parent")
        renew_worker_logging()
        fork(next_worker)
        wait_for(lambda: "from the next pool" in run_log.read_text(), DEADLINE)
    assert "from the parent" in run_log.read_text()
