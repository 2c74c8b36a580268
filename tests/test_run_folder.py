"""A run folder nothing can corrupt: one writer at a time, a finished run left alone, damaged
parts found and played again, OS errors as one line that leaves the run resumable, SIGTERM as
Ctrl-C, workers that die with their parent, and statistics that refuse edited files."""

from __future__ import annotations

import errno
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from domsim.cli import main
from domsim.plan.config import TourneyConfig
from domsim.plan.games import Plan
from domsim.plan.schedule import Schedule
from domsim.results import finish as finish_module
from domsim.results import parts
from domsim.runner import play as tourney_module
from domsim.runner import session
from domsim.runner.lock import RunLock

FAST = ["--variant", "classic", "-p", "easy", "-p", "medium", "--seed", "5", "--silent"]
SLOW_BOT = '''
import os
import time
from pathlib import Path

from domsim.strategy import Strategy

class Slow(Strategy):
    """Notes its worker's pid, then takes `delay` seconds a move."""
    def __init__(self, *, delay: float = 0.05) -> None:
        self.delay = delay
        Path(__file__).with_name(f"pid-{os.getpid()}").touch()

    def choose(self, view):
        time.sleep(self.delay)
        return view.legal_moves[0]
'''


def tourney(*args):
    return CliRunner().invoke(main, ["tourney", *args], catch_exceptions=False)


def stats(*args):
    return CliRunner().invoke(main, ["stats", *args], catch_exceptions=False)


def one_line(result, text):
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and text in lines[0], result.stderr
    assert "Traceback" not in result.output


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def untimed(out: Path) -> list[dict]:
    return [{k: v for k, v in row.items() if not k.startswith("time_")}
            for row in pq.read_table(out / "games.parquet").to_pylist()]


def interrupted_run(out: Path, monkeypatch, games: int = 30) -> None:
    """A partial run: Ctrl-C after the third batch (batches of 2 games)."""
    monkeypatch.setattr(tourney_module, "MAX_BATCH", 2)
    calls = []

    def interrupt(self, played, results, tally, note=""):
        calls.append(played)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(session.ProgressBar, "__call__", interrupt)
        assert tourney(*FAST, "--games", str(games), "-j", "1", "--out", str(out)).exit_code == 1


# -- one writer, and a finished run left alone --------------------------------------------------
def test_a_second_writer_is_refused_naming_the_holder(tmp_path, monkeypatch):
    out = tmp_path / "run"
    interrupted_run(out, monkeypatch)
    before = snapshot(out)
    holder = RunLock.acquire(out, ["domsim", "tourney", "--out", "first"])
    try:
        result = tourney("--out", str(out), "--resume", "--silent")
    finally:
        holder.release()
    one_line(result, f"{out} is in use by another run (pid {os.getpid()} on ")
    assert "domsim tourney --out first" in result.stderr
    assert snapshot(out) == before
    assert tourney("--out", str(out), "--resume", "--silent").exit_code == 0  # released


def test_new_runs_never_share_a_folder(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    one_line(tourney(*FAST, "--games", "2", "--out", str(out)), "already exists")
    assert list(out.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP])
def test_a_running_tourney_holds_its_folder_and_sigterm_stops_it_like_ctrl_c(tmp_path, stop):
    """A second writer is refused while the first runs; SIGTERM or SIGHUP to the first lets its
    running batches finish and leaves a partial, resumable run (workers ignore it, so none
    breaks)."""
    bot = tmp_path / "slow.py"
    bot.write_text(SLOW_BOT)
    out = tmp_path / "run"
    first = start(["--in-process", "--variant", "block", "-p", "easy", "-p", f"{bot}?delay=0.01",
                   "--games", "48", "-j", "2", "--seed", "3", "--out", str(out)])
    wait_for(lambda: any((out / "parts").glob("games-*.parquet")))
    result = tourney("--out", str(out), "--resume", "--silent")
    one_line(result, f"in use by another run (pid {first.pid} on ")
    os.killpg(first.pid, stop)  # the whole group, as a terminal or a service manager does
    _, stderr = first.communicate(timeout=60)
    assert first.returncode == 1 and "interrupted after" in stderr, stderr
    assert "Traceback" not in stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["partial"] is True and 0 < manifest["games_completed"] < 48
    assert pq.read_table(out / "games.parquet").num_rows == manifest["games_completed"]
    assert not (out / ".writer").exists()


def test_a_stop_signal_while_the_result_files_are_written_does_not_break_them(tmp_path,
                                                                             monkeypatch):
    real = finish_module.assemble

    def assemble_after_sigterm(*args):
        os.kill(os.getpid(), signal.SIGTERM)  # delivered at once, to this (the main) thread
        return real(*args)

    monkeypatch.setattr(finish_module, "assemble", assemble_after_sigterm)
    out = tmp_path / "run"
    result = tourney(*FAST, "--games", "4", "-j", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["partial"] is False and not (out / "parts").exists()


def test_a_session_runs_outside_the_main_thread(tmp_path):
    """The Python API in a thread: stop signals are left to the main thread, not refused."""
    config = TourneyConfig(variant="classic", games=4, entrants=("easy", "medium"), seed=5)
    outcomes = []

    def run():
        outcomes.append(session.run_session(Plan.of(config), tmp_path / "run",
                                            session.Execution(command=("api",)), resume=False))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(120)
    assert outcomes and outcomes[0].done == 4 and not outcomes[0].partial


def test_workers_die_with_their_parent(tmp_path):
    bot = tmp_path / "slow.py"
    bot.write_text(SLOW_BOT)
    parent = start(["--in-process", "--variant", "block", "-p", f"{bot}?delay=0.2", "-p", "easy",
                    "--games", "400", "-j", "2", "--out", str(tmp_path / "run")])
    wait_for(lambda: len(list(tmp_path.glob("pid-*"))) >= 2)
    workers = [int(p.name.removeprefix("pid-")) for p in tmp_path.glob("pid-*")]
    parent.kill()  # SIGKILL: no handler runs
    parent.communicate(timeout=30)
    wait_for(lambda: not any(map(alive, workers)))


def start(args: list[str]) -> subprocess.Popen:
    command = [str(Path(sys.executable).with_name("domsim")), "tourney", "--silent", *args]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def wait_for(condition, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper is dead)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status


# -- damaged parts ----------------------------------------------------------------------------
def test_damaged_parts_are_reported_and_played_again(tmp_path, monkeypatch):
    straight, broken = tmp_path / "straight", tmp_path / "broken"
    assert tourney(*FAST, "--games", "30", "-j", "1", "--out", str(straight)).exit_code == 0
    interrupted_run(broken, monkeypatch)
    first, second, third = sorted((broken / "parts").glob("games-*.parquet"))[:3]
    first.write_bytes(first.read_bytes()[:100])  # truncated
    rows = pq.read_table(second).to_pylist()
    rows[0]["score_0"] += 50  # edited: still a valid table
    pq.write_table(pa.Table.from_pylist(rows, schema=pq.read_schema(second)), second)
    third.with_suffix(".sha256").unlink()
    one_line(stats(str(broken)), f"{first}: {first.name} does not match its checksum")
    result = tourney("--out", str(broken), "--resume", "-j", "1")
    assert result.exit_code == 0, result.output
    for part, problem in ((first, "does not match"), (second, "does not match"),
                          (third, "checksum file is missing")):
        assert f"{part}: " in result.stderr and problem in result.stderr
    assert result.stderr.count("its games are played again") == 3
    assert untimed(broken) == untimed(straight)


def test_a_finished_run_is_read_from_its_games_table_even_with_parts_left(tmp_path):
    """A run killed while removing its parts (after the manifest said complete) keeps some;
    the statistics read the whole games table, not those few."""
    out = tmp_path / "run"
    assert tourney(*FAST, "--games", "6", "-j", "1", "--out", str(out)).exit_code == 0
    table = pq.read_table(out / "games.parquet")
    (out / "parts").mkdir()
    parts.write_part(out, table.slice(0, 2), [])
    result = stats(str(out), "--json", "--samples", "10")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 6


def test_stats_refuses_an_edited_games_table(tmp_path):
    out = tmp_path / "run"
    assert tourney(*FAST, "--games", "6", "-j", "1", "--out", str(out)).exit_code == 0
    rows = pq.read_table(out / "games.parquet").to_pylist()
    rows[0]["winners"] = [1] if rows[0]["winners"] == [0] else [0]
    pq.write_table(pa.Table.from_pylist(rows, schema=pq.read_schema(out / "games.parquet")),
                   out / "games.parquet")
    one_line(stats(str(out)), "games.parquet: does not match its checksum in manifest.json")


@pytest.mark.parametrize(("damage", "message"), [
    (lambda path: path.write_bytes(path.read_bytes()[:200]), "cannot read the games"),
    (lambda path: path.write_bytes(b""), "cannot read the games"),
    (lambda path: path.write_bytes(os.urandom(5000)), "cannot read the games"),
    (lambda path: path.write_text("game_id,pairing\n1,x\n"), "cannot read the games"),
])
@pytest.mark.parametrize("form", ["parquet", "csv"])
def test_stats_on_an_unreadable_games_file_is_one_line(tmp_path, damage, message, form):
    """Without a checksum to compare (a run from before checksums), the reader still refuses."""
    out = tmp_path / "run"
    args = ("--games", "4", "-j", "1", "--output-format", form, "--out", str(out))
    assert tourney(*FAST, *args).exit_code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["checksums"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    damage(out / f"games.{form}")
    one_line(stats(str(out)), message)


@pytest.mark.parametrize(("column", "value", "message"), [
    ("pairing", "easy vs hard", "pairing 'easy vs hard'"),
    ("seat_0", "insane", "seat_0 'insane', but the schedule has 'medium'"),
    ("game_id", 99, "game id 99: outside the run's 4 games"),
    ("seating", 7, "seating 7"),
    ("winners", [5], "winners [5], which are not seats"),
    ("hands", 0, "hand counts no game has"),
    ("hand_points", [[1, 2, 3]], "hand_points that are not 2 integers"),
    ("deal_id", 5, "deal_id 5, but the schedule has 0"),
])
def test_stats_refuses_games_the_manifest_does_not_allow(tmp_path, column, value, message):
    out = tmp_path / "run"
    assert tourney(*FAST, "--games", "4", "-j", "1", "--out", str(out)).exit_code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["checksums"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    rows = pq.read_table(out / "games.parquet").to_pylist()
    rows[1][column] = value
    pq.write_table(pa.Table.from_pylist(rows, schema=pq.read_schema(out / "games.parquet")),
                   out / "games.parquet")
    one_line(stats(str(out)), message)


def test_stats_on_a_manifest_with_other_entrants_is_one_line(tmp_path):
    out = tmp_path / "run"
    assert tourney(*FAST, "--games", "4", "-j", "1", "--out", str(out)).exit_code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["config"]["entrants"] = ["easy", "hard"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    one_line(stats(str(out)), "manifest.json does not match the run its games table holds "
                              "(entrants ['easy', 'hard'], the games' ['easy', 'medium'])")


# -- OS errors --------------------------------------------------------------------------------
def full_disk_after(calls: int, real):
    """`real`, failing with ENOSPC from its `calls`+1-th call on."""
    count = [0]

    def write(*args, **kwargs):
        count[0] += 1
        if count[0] > calls:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "parts/games-x.parquet")
        return real(*args, **kwargs)

    return write


def test_a_full_disk_mid_run_is_one_line_and_the_run_resumes(tmp_path, monkeypatch):
    straight, out = tmp_path / "straight", tmp_path / "run"
    assert tourney(*FAST, "--games", "20", "-j", "1", "--out", str(straight)).exit_code == 0
    monkeypatch.setattr(tourney_module, "MAX_BATCH", 2)
    with monkeypatch.context() as patch:
        patch.setattr(tourney_module, "write_part", full_disk_after(2, tourney_module.write_part))
        result = tourney(*FAST, "--games", "20", "-j", "1", "--out", str(out))
    manifest = json.loads((out / "manifest.json").read_text())
    done = manifest["games_completed"]  # two batches: the first hold one game each (the bar)
    assert manifest["partial"] is True and 2 <= done <= 4
    one_line(result, "cannot write parts/games-x.parquet: No space left on device after "
                     f"{done} of 20 games")
    assert tourney("--out", str(out), "--resume", "--silent").exit_code == 0
    assert untimed(out) == untimed(straight)


def test_a_disk_that_stays_full_is_one_line_and_keeps_every_part(tmp_path, monkeypatch):
    out = tmp_path / "run"
    monkeypatch.setattr(tourney_module, "MAX_BATCH", 2)
    with monkeypatch.context() as patch:
        patch.setattr(tourney_module, "write_part", full_disk_after(2, tourney_module.write_part))
        patch.setattr(finish_module, "assemble", full_disk_after(0, None))
        result = tourney(*FAST, "--games", "20", "-j", "1", "--out", str(out))
    one_line(result, "No space left on device; every finished batch is kept: free the space, "
                     f"then resume with: domsim tourney --out {out} --resume")
    assert result.stderr.count("No space left on device") == 1  # its reason, said once
    assert len(list((out / "parts").glob("games-*.parquet"))) == 2
    assert not list((out / "parts").glob(".*.tmp"))
    assert tourney("--out", str(out), "--resume", "--silent").exit_code == 0
    assert [row["game_id"] for row in untimed(out)] == list(range(20))


def limit_file_size() -> None:
    """In the child: files may not grow past 32 KB (writes then fail with EFBIG, a real OS
    error, as a full disk's ENOSPC would). The parts of 600 games (at most 14 KB each) fit;
    their games table (about 60 KB) does not."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (32 * 1024, 32 * 1024))


def test_a_write_the_os_refuses_is_one_line_and_leaves_a_resumable_run(tmp_path):
    out = tmp_path / "run"
    command = [str(Path(sys.executable).with_name("domsim")), "tourney", "--variant", "block",
               "-p", "easy", "-p", "medium", "--games", "600", "--seed", "1", "-j", "2",
               "--silent", "--out", str(out)]
    child = subprocess.run(command, capture_output=True, text=True, timeout=300,
                           preexec_fn=limit_file_size)
    assert child.returncode == 1 and "Traceback" not in child.stderr
    assert len(child.stderr.strip().splitlines()) == 1 and "File too large" in child.stderr
    assert f"resume with: domsim tourney --out {out} --resume" in child.stderr
    assert not list(out.rglob(".*"))  # no temp file, no writer's note left
    assert tourney("--out", str(out), "--resume", "--silent", "-j", "2").exit_code == 0
    assert [row["game_id"] for row in untimed(out)] == list(range(600))


@pytest.mark.parametrize("where", ["/proc/x", "FILE/sub"])
def test_an_out_folder_that_cannot_be_made_is_one_line(tmp_path, monkeypatch, where):
    monkeypatch.chdir(tmp_path)
    Path("FILE").write_text("keep me")
    one_line(tourney(*FAST, "--games", "2", "--out", where), f"cannot create --out {where}")
    assert Path("FILE").read_text() == "keep me"


def test_report_into_a_folder_that_cannot_be_made_is_one_line(tmp_path):
    out = tmp_path / "run"
    assert tourney(*FAST, "--games", "4", "-j", "1", "--out", str(out)).exit_code == 0
    result = CliRunner().invoke(main, ["report", str(out), "--out", "/proc/x", "--samples", "10"],
                                catch_exceptions=False)
    one_line(result, "/proc/x")


@pytest.mark.parametrize("config", ["missing", 5, [], "text"])
def test_resume_of_a_manifest_without_a_config_table_is_one_line(tmp_path, config):
    out = tmp_path / "run"
    assert tourney(*FAST, "--games", "2", "-j", "1", "--out", str(out)).exit_code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    if config == "missing":
        del manifest["config"]
    else:
        manifest["config"] = config
    (out / "manifest.json").write_text(json.dumps(manifest))
    before = snapshot(out)
    one_line(tourney("--out", str(out), "--resume"), "has no config table")
    assert snapshot(out) == before


# -- counting -----------------------------------------------------------------------------------
@pytest.mark.parametrize("duplicate", [True, False])
@pytest.mark.parametrize("pairings", [1, 3, 6])
@pytest.mark.parametrize("sides", [2, 3])
def test_games_per_pairing_counts_what_the_schedule_plays(duplicate, pairings, sides):
    for games in range(1, 50):
        schedule = Schedule(games, pairings, sides, duplicate, 1)
        counts = [0] * pairings
        for game_id in range(games):
            counts[schedule.slot(game_id).pairing] += 1
        assert schedule.games_per_pairing() == counts


def test_games_per_pairing_of_an_enormous_run_is_immediate():
    counts = Schedule(10**13, 3, 2, True, 1).games_per_pairing()
    assert sum(counts) == 10**13 and max(counts) - min(counts) <= 2


def test_a_round_robin_played_a_pairing_a_batch_resumes_to_the_same_games(tmp_path,
                                                                        monkeypatch):
    """A round robin of bots in their own processes plays a pairing a batch (out of game-id
    order: runner.play.by_pairing); cut short after two parts, it resumes to the games and
    summary of the same run played straight (its key given), in game-id order."""
    root = Path(__file__).resolve().parent.parent / "strategies"
    args = ["--variant", "block", "-p", str(root / "example_greedy.py"), "-p",
            str(root / "example_counter.py"), "-p", "domsim.strategies.easy:Easy",
            "--isolate", "--seed", "5", "--run-key", "cd" * 16, "--games", "48", "-j", "1",
            "--silent"]
    straight, out = tmp_path / "straight", tmp_path / "run"
    assert tourney(*args, "--out", str(straight)).exit_code == 0
    with monkeypatch.context() as patch:
        patch.setattr(tourney_module, "write_part", full_disk_after(3, tourney_module.write_part))
        assert tourney(*args, "--out", str(out)).exit_code == 1
    done = parts.done_game_ids(out)
    assert 0 < len(done) < 48 and done != set(range(len(done)))  # not a prefix of the ids
    assert tourney("--out", str(out), "--resume", "--silent").exit_code == 0
    assert [row["game_id"] for row in untimed(out)] == list(range(48))
    assert untimed(out) == untimed(straight)
    assert (out / "summary.csv").read_text() == (straight / "summary.csv").read_text()
