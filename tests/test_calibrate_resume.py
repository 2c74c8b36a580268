"""A calibration is one study of sessions (domsim.studies.calibration): interrupted by Ctrl-C or
killed outright, in its overview or in a step, `calibrate --out DIR --resume` reaches the straight
run's steps and levels; an interrupted calibration's report says it is partial."""

from __future__ import annotations

import json

import pytest
from clitools import interrupted_at, invoke, killed_at, one_line_error

ARGS = ["calibrate", "--variant", "classic", "--variant", "block", "--level", "easy", "--level",
        "medium", "--games", "3", "--seed", "3", "--samples", "10", "--max-games", "120",
        "--silent"]

def outcome(out) -> tuple[list, dict]:
    """The steps (without their folders) and levels.json of the calibration in `out`."""
    calibration = json.loads((out / "calibration.json").read_text())
    assert calibration["complete"]
    steps = [{key: value for key, value in step.items() if key != "folder"}
             for ladder in calibration["ladders"] for step in ladder["steps"]]
    return steps, json.loads((out / "levels.json").read_text())


@pytest.fixture(scope="module")
def straight(tmp_path_factory):
    out = tmp_path_factory.mktemp("straight") / "cal"
    result = invoke(*ARGS, "-j", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    return outcome(out)


def resume(out):
    result = invoke("calibrate", "--out", str(out), "--resume", "-j", "1", "--silent")
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize("calls", [3, 14])  # in classic's overview; in its step
def test_a_calibration_killed_outright_resumes_to_the_straight_result(tmp_path, straight,
                                                                      calls):
    out = tmp_path / "cal"
    killed_at(calls, *ARGS, "-j", "1", "--out", str(out))
    assert not json.loads((out / "calibration.json").read_text())["complete"]
    resume(out)
    assert outcome(out) == straight


def test_an_interrupted_calibration_writes_a_partial_report_and_resumes(tmp_path, monkeypatch,
                                                                        straight):
    out = tmp_path / "cal"
    stopped = interrupted_at(monkeypatch, 14, *ARGS, "-j", "1", "--out", str(out))
    assert stopped.exit_code == 1
    assert f"Resume with: domsim calibrate --out {out} --resume" in stopped.stderr
    page = (out / "report.html").read_text()
    assert "<title>domsim calibration report (partial)</title>" in page
    assert "Partial: it stopped before it finished" in page
    assert "each step significant" not in page  # block's steps never ran
    assert "not played: the calibration stopped before its steps" in page
    resumed = resume(out)
    assert outcome(out) == straight
    assert "(partial)" not in (out / "report.html").read_text()
    assert resumed.stdout.splitlines()[-1] == f"report written to {out / 'report.html'}"
    again = invoke("calibrate", "--out", str(out), "--resume")
    assert again.exit_code == 0 and "already complete" in again.stdout


def test_resume_needs_a_calibration_folder_and_takes_it_alone(tmp_path):
    one_line_error(invoke("calibrate", "--out", str(tmp_path), "--resume"),
                   "holds no calibration.json")
    one_line_error(invoke("calibrate", "--out", str(tmp_path), "--resume", "--games", "9"),
                   "--resume takes --out DIR")


def test_a_study_in_use_is_refused_in_one_line_and_left_as_it_is(tmp_path):
    """Issue 50: a study's folder is held by one writer (domsim.studies.folder), as a run's is:
    a second session resuming it while the first plays is refused before it plays."""
    from domsim.runner.lock import RunLock
    from domsim.studies.calibration import Request, begin, calibration_folder

    folder = calibration_folder(tmp_path / "cal", resume=False)
    begin(Request(("classic",), 3, games=3), folder)
    before = sorted(folder.path.iterdir())
    lock = RunLock.acquire(folder.path, ["the first"])
    try:
        second = invoke("calibrate", "--out", str(folder.path), "--resume", "--silent")
        one_line_error(second, "is in use by another run")
        assert "the first" in second.stderr
    finally:
        lock.release()
    assert sorted(folder.path.iterdir()) == before
