"""`--backend dask` on a LocalCluster bound to 127.0.0.1: the same result files as the local
backend (R-RNG), user strategy files shipped to the workers under the user's spec, worker logs in
run.log, a killed worker's batch played again, and the move-time limit on worker threads."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from clitools import interrupted_at, invoke
from test_tourney import table

from domsim.cli import main

distributed = pytest.importorskip("distributed")

SLOW = '''
import time

from domsim.strategy import Strategy


class Slow(Strategy):
    """Overruns the move-time limit on its first decision of each game, then plays first."""

    def __init__(self):
        self.late = True

    def choose(self, view):
        if self.late:
            self.late = False
            time.sleep(0.8)
        return view.legal_moves[0]
'''

KILLER = '''
import os
import signal
from pathlib import Path

from domsim.strategy import Strategy

MARKER = Path({marker!r})


class Killer(Strategy):
    """Kills its worker process outright the first time any copy of it is asked."""

    def choose(self, view):
        if not MARKER.exists():
            MARKER.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return view.legal_moves[-1]
'''


@pytest.fixture(scope="module")
def scheduler():
    with distributed.LocalCluster(host="127.0.0.1", dashboard_address=None, n_workers=2,
                                  threads_per_worker=1, processes=True) as cluster:
        yield cluster.scheduler_address


def tourney(*args):
    return CliRunner().invoke(main, ["tourney", *args, "--silent"], catch_exceptions=False)


def untimed_records(out):
    """The records without timing, and without the words of a first fault (a late move is
    "interrupted" by SIGALRM in a worker process, found late on a worker thread), which the
    forfeit's reason and the digest hold too."""
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    for record in records:
        del record["timing"], record["digest"]
        for seat in record["faults"]:
            seat["first"] = seat["first"] is not None
        if "forfeit" in record:
            record["forfeit"]["reason"] = None
    return records


@pytest.mark.slow
def test_dask_writes_what_the_local_backend_writes(scheduler, tmp_path, monkeypatch):
    """R-RNG; the file spec is relative to a folder the workers do not run in, so the games can
    only be played from the shipped copy, and the results still name the spec as written."""
    monkeypatch.chdir(tmp_path)  # the workers were started in another folder
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "slow.py").write_text(SLOW)
    args = ["--variant", "draw", "-p", "bots/slow.py", "-p", "medium", "-p", "hard", "--seed",
            "9", "--games", "12", "--records", "--move-time-limit", "0.4", "--in-process"]
    local = tourney(*args, "-j", "2", "--out", "local")
    assert local.exit_code == 0, local.output
    dask = tourney(*args, "--backend", "dask", "--scheduler", scheduler, "--out", "dask")
    assert dask.exit_code == 0, dask.output
    assert table(tmp_path / "dask") == table(tmp_path / "local")
    assert (tmp_path / "dask" / "summary.csv").read_text() == (
        tmp_path / "local" / "summary.csv").read_text()
    assert untimed_records(tmp_path / "dask") == untimed_records(tmp_path / "local")
    rows = table(tmp_path / "dask")
    assert rows[0]["seat_0"] == "bots/slow.py"
    # the late first move is replaced on a worker thread too, where SIGALRM is not used
    assert all(row["faults_0"] == 1 for row in rows if row["seat_0"] == "bots/slow.py")
    first = json.loads((tmp_path / "dask" / "records.jsonl").read_text().splitlines()[0])
    assert first["faults"][0]["first"].startswith("took 0.8")
    session_info = json.loads((tmp_path / "dask" / "manifest.json").read_text())["sessions"][0]
    assert (session_info["backend"], session_info["workers"]) == ("dask", 2)
    log = (tmp_path / "dask" / "run.log").read_text()
    assert "Dask Worker" in log and "domsim.runner INFO games 0-" in log


@pytest.mark.slow
def test_isolated_strategies_play_from_the_shipped_copy_on_the_cluster(scheduler, tmp_path,
                                                                        monkeypatch):
    """--isolate on worker threads: the host loads the shipped file, the limit is kept from
    outside, and the results equal a local isolated run's."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "slow.py").write_text(SLOW)
    args = ["--variant", "block", "-p", "bots/slow.py", "-p", "easy", "--seed", "4", "--games",
            "4", "--move-time-limit", "0.4", "--isolate"]
    assert tourney(*args, "-j", "2", "--out", "local").exit_code == 0
    # The bot plays in its own process: the run has a secret key, which the rerun is given.
    key = json.loads((tmp_path / "local" / "manifest.json").read_text())["config"]["run_key"]
    dask = tourney(*args, "--backend", "dask", "--scheduler", scheduler, "--out", "dask",
                   "--run-key", key)
    assert dask.exit_code == 0, dask.output
    rows = table(tmp_path / "dask")
    assert rows == table(tmp_path / "local")
    assert all(row[f"faults_{row['seat_0'] != 'bots/slow.py':d}"] == 1 for row in rows)


def test_the_sandbox_holds_on_the_cluster(scheduler, tmp_path):
    """A bot on a Dask worker is sandboxed as on the local backend: it finds no way to the
    deals (tests/test_hostile.py; without the sandbox it finds the worker's process tree)."""
    attacker = f"exec:{Path(__file__).parent / 'hostile' / 'attacker.py'} peek"
    for sandbox, out in (("--sandbox", "boxed"), ("--no-sandbox", "open")):
        result = tourney("--variant", "block", "-p", attacker, "-p", "easy", "--seed", "7",
                         "--games", "2", "--backend", "dask", "--scheduler", scheduler,
                         "--out", str(tmp_path / out), sandbox)
        assert result.exit_code == 0, result.output
    said = {out: {line.split("attacker: ", 1)[1]
                  for line in (tmp_path / out / "run.log").read_text().splitlines()
                  if "stderr: attacker: " in line} for out in ("boxed", "open")}
    assert said["boxed"] == {"found nothing"}
    assert said["open"] and "found nothing" not in said["open"]


def test_a_scenario_runs_on_the_cluster_and_a_killed_worker_only_delays(scheduler, tmp_path,
                                                                         monkeypatch):
    """A worker killed outright: Dask plays its batch again on another worker, and the results
    equal a local run's."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "killer.py").write_text(KILLER.format(marker=str(tmp_path / "fired")))
    (tmp_path / "run.toml").write_text(
        f'variant = "classic"\nentrants = ["killer.py", "easy"]\ngames = 16\nseed = 3\n'
        f'backend = "dask"\nscheduler = "{scheduler}"\nisolate = false\n')
    result = CliRunner().invoke(main, ["run", "run.toml", "--out", "dask", "--silent"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "fired").exists()
    assert tourney("--variant", "classic", "-p", "killer.py", "-p", "easy", "--seed", "3",
                   "--games", "16", "-j", "1", "--out", "local", "--in-process").exit_code == 0
    assert table(tmp_path / "dask") == table(tmp_path / "local")


def test_strategies_defined_in_the_session_play_on_the_cluster(scheduler, tmp_path):
    """A class and an instance defined here (not importable on the workers: the class is local
    to this test) reach the workers by value and play there as they play locally."""
    import domsim
    from domsim.strategy import Strategy

    class Lightest(Strategy):
        def __init__(self, *, bias: int = 0) -> None:
            self.bias = bias

        def choose(self, view):
            return min(view.legal_moves, key=lambda m: (m.tile.pips + self.bias * m.end,
                                                        self.rng.random()))

    entrants = {"cls": Lightest, "inst": Lightest(bias=1), "easy": "easy"}
    local = domsim.tourney("block", entrants, games=12, seed=6, workers=2)
    dask = domsim.tourney("block", entrants, games=12, seed=6, backend="dask",
                          scheduler=scheduler, out=tmp_path / "dask")
    same = [c for c in local.games.columns if not c.startswith("time_")]
    assert dask.games[same].equals(local.games[same])
    assert dask.manifest["sessions"][0]["backend"] == "dask"
    assert {spec.rpartition(".")[2] for spec in dask.games["seat_0"]} == {
        "Lightest", "Lightest#2", "easy"}


def test_an_unreachable_scheduler_is_one_line_and_leaves_no_folder(tmp_path):
    out = tmp_path / "run"
    result = tourney("--variant", "classic", "-p", "easy", "-p", "medium", "--backend", "dask",
                     "--scheduler", "127.0.0.1", "--out", str(out))
    assert result.exit_code == 1
    assert "cannot reach the Dask scheduler at 127.0.0.1: ValueError: missing port" in result.stderr
    assert not out.exists()


def test_without_distributed_the_message_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    result = tourney("--variant", "classic", "-p", "easy", "-p", "medium", "--backend", "dask",
                     "--scheduler", "tcp://127.0.0.1:8786", "--out", str(tmp_path / "run"))
    assert result.exit_code == 1
    assert "needs Dask: pip install 'domsim[dask]'" in result.stderr


def test_a_comparison_runs_on_the_cluster_to_the_local_verdict(scheduler, tmp_path):
    """compare is a tourney its test may end early (issue 37): on the cluster it plays the same
    games to the same verdict, at the same game, as on local processes."""
    args = ["compare", "medium", "easy", "--variant", "classic", "--elo0", "0", "--elo1", "100",
            "--seed", "5", "--silent"]
    local = CliRunner().invoke(main, [*args, "-j", "2", "--out", str(tmp_path / "local")],
                               catch_exceptions=False)
    assert local.exit_code == 0, local.output
    dask = CliRunner().invoke(main, [*args, "--backend", "dask", "--scheduler", scheduler,
                                     "--out", str(tmp_path / "dask")], catch_exceptions=False)
    assert dask.exit_code == 0, dask.output
    figures = {out: json.loads((tmp_path / out / "compare.json").read_text())
               for out in ("local", "dask")}
    assert figures["dask"]["verdict"] == "H1" and figures["dask"] == figures["local"]
    assert table(tmp_path / "dask") == table(tmp_path / "local")
    session = json.loads((tmp_path / "dask" / "manifest.json").read_text())["sessions"][0]
    assert session["backend"] == "dask"


def untimed(line: str) -> str:
    """A printed line without its seconds."""
    return re.sub(r"\d+\.\d s\b", "- s", line)


@pytest.mark.slow
def test_a_calibration_on_the_cluster_resumed_there_writes_the_local_verdicts_and_levels(
        scheduler, tmp_path, monkeypatch):
    """Issue 50: calibrate takes --backend dask (its overview and every step), and a
    calibration interrupted on the cluster and resumed there ends with the local run's
    verdicts and levels, byte for byte."""
    args = ["calibrate", "--variant", "block", "--seed", "1", "--games", "3", "--max-games",
            "120", "--samples", "10", "--silent"]
    on_cluster = ["--backend", "dask", "--scheduler", scheduler]
    local, dask = tmp_path / "local", tmp_path / "dask"
    assert invoke(*args, "-j", "2", "--out", str(local)).exit_code == 0
    stopped = interrupted_at(monkeypatch, 12, *args, *on_cluster, "--out", str(dask))
    assert stopped.exit_code == 1 and "--resume" in stopped.stderr
    resumed = invoke("calibrate", "--out", str(dask), "--resume", *on_cluster, "--silent")
    assert resumed.exit_code == 0, resumed.output
    for name in ("tables/verdicts.csv", "levels.json"):
        assert (dask / name).read_bytes() == (local / name).read_bytes()
    sessions = json.loads((dask / "block" / "manifest.json").read_text())["sessions"]
    assert {session["backend"] for session in sessions} == {"dask"}


@pytest.mark.slow
def test_the_dial_and_spsa_tune_on_the_cluster_to_the_local_values(scheduler, tmp_path):
    """Issue 50: tune (the dial, and --strategy's SPSA) takes --backend dask and prints the
    local run's tuned values."""
    on_cluster = ["--backend", "dask", "--scheduler", scheduler]
    dial = ["tune", "--variant", "block", "--seed", "1", "--steps", "2", "--games", "120"]
    spsa = ["tune", "--variant", "block", "--seed", "1", "--strategy", "hard", "--param",
            "block=0:10", "--games", "160", "--confirm", "40"]
    for mode, args in enumerate((dial, spsa)):
        args = [*args, "--silent"]
        local = invoke(*args, "-j", "2", "--out", str(tmp_path / f"local-{mode}"))
        assert local.exit_code == 0, local.output
        dask = invoke(*args, *on_cluster, "--out", str(tmp_path / f"dask-{mode}"))
        assert dask.exit_code == 0, dask.output
        assert [untimed(line) for line in dask.stdout.splitlines()[:-1]] == [
            untimed(line) for line in local.stdout.splitlines()[:-1]]


@pytest.mark.parametrize("study", [
    ["calibrate", "--variant", "block"], ["tune", "--variant", "block"],
    ["tune", "--variant", "block", "--strategy", "hard", "--param", "block=0:10"]])
def test_a_study_on_dask_without_a_scheduler_is_one_line_and_makes_no_folder(tmp_path, study):
    out = tmp_path / "study"
    result = invoke(*study, "--backend", "dask", "--out", str(out), "--silent")
    assert result.exit_code == 1
    assert result.stderr.strip() == ("Error: --backend dask needs --scheduler ADDRESS (e.g. "
                                     "tcp://host:8786)")
    assert not out.exists()
