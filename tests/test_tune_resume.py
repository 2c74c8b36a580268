"""tune is a loop over sessions (issue 37): each step a comparison of the one driver in its own
folder, the request in tune.json from the start. Interrupted by Ctrl-C or killed outright,
`tune --out DIR --resume` keeps the steps finished, resumes the interrupted one and plays on,
to the straight run's search (timings and paths aside)."""

from __future__ import annotations

import json

import pytest
from clitools import interrupted_at, invoke, killed_at, one_line_error

ARGS = ["tune", "--variant", "classic", "--against", "easy", "--win-rate", "0.6",
        "--win-rate-tolerance", "0.2", "--steps", "3", "--games", "400", "--seed", "2",
        "--silent", "-j", "1"]
LEVELS = ["tune", "--variant", "classic", "--levels", "3", "--gap-games", "40",
          "--win-rate-tolerance", "0.3", "--steps", "2", "--games", "200", "--seed", "2",
          "--silent", "-j", "1"]


def search(out) -> dict:
    """tune.json without what differs between sessions: timings, folders and commands."""
    def plain(value):
        if isinstance(value, dict):
            return {key: plain(item) for key, item in value.items()
                    if key not in ("seconds", "run", "folder", "command")}
        if isinstance(value, list):
            return [plain(item) for item in value]
        return value

    saved = json.loads((out / "tune.json").read_text())
    assert saved["complete"]
    return plain(saved)


@pytest.fixture(scope="module")
def straight(tmp_path_factory):
    found = {}
    for name, args in (("target", ARGS), ("levels", LEVELS)):
        out = tmp_path_factory.mktemp(name) / "tune"
        result = invoke(*args, "--out", str(out))
        assert result.exit_code == 0, result.output
        found[name] = search(out)
    return found


def resume(out):
    result = invoke("tune", "--out", str(out), "--resume", "-j", "1", "--silent")
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize("calls", [2, 6])
def test_a_tune_killed_outright_resumes_to_the_straight_search(tmp_path, straight, calls):
    out = tmp_path / "tune"
    killed_at(calls, *ARGS, "--out", str(out))
    assert not json.loads((out / "tune.json").read_text())["complete"]
    resume(out)
    assert search(out) == straight["target"]


def test_an_interrupted_levels_tune_says_how_to_resume_and_resumes(tmp_path, monkeypatch,
                                                                 straight):
    out = tmp_path / "tune"
    stopped = interrupted_at(monkeypatch, 5, *LEVELS, "--out", str(out))
    assert stopped.exit_code == 1
    assert f"Resume with: domsim tune --out {out} --resume" in stopped.stderr
    resume(out)
    assert search(out) == straight["levels"]
    again = invoke("tune", "--out", str(out), "--resume")
    assert again.exit_code == 0 and "already complete" in again.stdout


def test_resume_needs_a_tune_folder_and_takes_it_alone(tmp_path):
    one_line_error(invoke("tune", "--out", str(tmp_path), "--resume"), "holds no tune.json")
    one_line_error(invoke("tune", "--out", str(tmp_path), "--resume", "--steps", "2"),
                   "--resume takes --out DIR")
