"""An interrupted comparison resumes (`compare --resume`, and `tourney --resume` on its folder)
to the verdict, games and LLR of an uninterrupted run of the same seed, and says how to resume;
compare.json holds the figures the API's Comparison has."""

from __future__ import annotations

import json

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
    for key in ("verdict", "games", "deals", "llr", "wins", "losses", "draws", "ptnml", "elo"):
        assert done[key] == whole[key], key
    assert "H1 accepted" in resumed.stdout
    again = invoke("compare", "--out", str(out), "--resume")
    assert again.exit_code == 0 and "already decided" in again.stdout


def test_compare_json_holds_the_api_results_figures(tmp_path):
    result = api.compare("medium", "easy", "classic", elo0=0, elo1=100, seed=5, workers=1,
                         out=tmp_path / "run")
    assert figures(tmp_path / "run") == result.figures
    expected = {"elo", "elo_error", "nelo", "nelo_error", "los", "wins", "losses", "draws",
                "ptnml", "llr", "lower", "upper", "elo0", "elo1", "verdict", "faults"}
    assert expected <= set(result.figures)
    assert result.figures["verdict"] == result.verdict and result.figures["llr"] == result.llr
    pair = result.statistics(samples=20)["pairs"][0]  # the block's Elo is stats' head to head
    assert (pair["elo"], pair["elo_low"]) == (result.figures["elo"], result.figures["elo_low"])


def test_resume_takes_the_folder_alone(tmp_path, straight):
    result = invoke("compare", "hard", "easy", "--out", str(straight), "--resume")
    assert result.exit_code == 1 and "--resume takes --out DIR" in result.stderr
