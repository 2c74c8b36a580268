"""An interrupted comparison resumes (`compare --resume`, and `tourney --resume` on its folder)
to the verdict, games and LLR of an uninterrupted run of the same seed, and says how to resume;
compare.json holds the figures the API's Comparison has."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from clitools import invoke

from domsim import api
from domsim.runner import console

ARGS = ("medium", "easy", "--variant", "classic", "--elo0", "0", "--elo1", "100", "--seed", "5",
        "-j", "1", "--silent")


def interrupt_after(monkeypatch, calls: int) -> None:
    """Ctrl-C once the progress bar has counted `calls` batches (in the parent, as a user's)."""
    seen = []

    def check(self, tally):
        seen.append(1)
        if len(seen) == calls:
            raise KeyboardInterrupt

    monkeypatch.setattr(console.FaultWatch, "check", check)


def figures(out) -> dict:
    return json.loads((out / "compare.json").read_text())


@pytest.fixture(scope="module")
def straight(tmp_path_factory):
    out = tmp_path_factory.mktemp("straight") / "run"
    result = invoke("compare", *ARGS, "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("command", [("compare",), ("tourney",)])
def test_an_interrupted_compare_says_how_to_resume_and_resumes_to_the_same_verdict(
        tmp_path, monkeypatch, straight, command):
    out = tmp_path / "run"
    with monkeypatch.context() as patched:
        interrupt_after(patched, 2)
        stopped = invoke("compare", *ARGS, "--out", str(out))
    assert stopped.exit_code == 1
    assert f"Resume with: domsim compare --out {out} --resume" in stopped.stderr
    assert figures(out)["verdict"] is None and figures(out)["stopped"] == "interrupted"
    partial = figures(out)["games"]
    assert 0 < partial < figures(straight)["games"]
    resumed = invoke(*command, "--out", str(out), "--resume", "-j", "1", "--silent")
    assert resumed.exit_code == 0, resumed.output
    done, whole = figures(out), figures(straight)
    for key in ("verdict", "games", "deals", "llr", "wins", "losses", "shared", "ptnml", "elo"):
        assert done[key] == whole[key], key
    assert "H1 accepted" in resumed.stdout
    again = invoke("compare", "--out", str(out), "--resume")
    assert again.exit_code == 0 and "already decided" in again.stdout


def test_compare_json_holds_the_api_results_figures(tmp_path):
    result = api.compare("medium", "easy", "classic", elo0=0, elo1=100, seed=5, workers=1,
                         out=tmp_path / "run")
    assert figures(tmp_path / "run") == result.figures
    expected = {"elo", "elo_error", "nelo", "nelo_error", "los", "wins", "losses", "shared",
                "ptnml", "llr", "lower", "upper", "elo0", "elo1", "verdict", "faults"}
    assert expected <= set(result.figures)
    assert result.figures["verdict"] == result.verdict and result.figures["llr"] == result.llr
    pair = result.statistics(samples=20)["pairs"][0]  # the block's Elo is stats' head to head
    assert (pair["elo"], pair["elo_low"]) == (result.figures["elo"], result.figures["elo_low"])


def test_resume_takes_the_folder_alone(tmp_path, straight):
    result = invoke("compare", "hard", "easy", "--out", str(straight), "--resume")
    assert result.exit_code == 1 and "--resume takes --out DIR" in result.stderr


KILLS_ITS_RUN = '''
import os
import signal
from pathlib import Path

from domsim.strategy import Strategy

COUNT = Path({count!r})


class KillsItsRun(Strategy):
    """Plays its first legal move; while COUNT exists, kills its run (kill -9 of the domsim
    process, whose workers die with it) at its {at}th decision, counted across processes in
    COUNT."""

    def choose(self, view):
        if COUNT.exists():
            with COUNT.open("a") as count:  # appends: atomic across processes
                count.write("x")
            if COUNT.stat().st_size >= {at}:
                os.kill(os.getppid(), signal.SIGKILL)
        return view.legal_moves[0]
'''


def test_a_compare_killed_outright_resumes_to_the_straight_verdict(tmp_path):
    """kill -9 leaves no graceful stop: the manifest's test section, written before the first
    game, is what lets `compare --resume` go on (on 60428d1 it sent the user to `tourney`)."""
    count = tmp_path / "count"
    (tmp_path / "bot.py").write_text(KILLS_ITS_RUN.format(count=str(count), at=400))
    args = ("medium", str(tmp_path / "bot.py"), "--variant", "classic", "--elo0", "0",
            "--elo1", "30", "--seed", "3", "--games", "600", "-j", "2", "--in-process",
            "--silent")
    straight = invoke("compare", *args, "--out", str(tmp_path / "straight"))
    assert straight.exit_code == 0, straight.output
    count.touch()
    killed = subprocess.run([str(Path(sys.executable).with_name("domsim")), "compare", *args,
                             "--out", str(tmp_path / "run")], start_new_session=True,
                            capture_output=True, text=True, timeout=300)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    count.unlink()
    assert json.loads((tmp_path / "run" / "manifest.json").read_text())["compare"]["sprt"]
    resumed = invoke("compare", "--out", str(tmp_path / "run"), "--resume", "-j", "1",
                     "--silent")
    assert resumed.exit_code == 0, resumed.output
    done, whole = figures(tmp_path / "run"), figures(tmp_path / "straight")
    assert whole["games"] > 40  # the kill came before the straight run's end
    for key in ("verdict", "games", "deals", "llr", "wins", "losses", "shared", "ptnml", "elo"):
        assert done[key] == whole[key], key
