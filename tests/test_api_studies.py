"""calibrate, tune and report are API calls too (issue 37: cli.py a thin layer over api.py for
every command): each returns what its command prints and the figures its files hold. They are
the package's own names, as the README shows them (`domsim.calibrate`), and `domsim.load`
reopens every folder a study writes, each with its notebook display (issue 49, item 4)."""

from __future__ import annotations

import json
import re

import pytest
from weighted import Weighted

import domsim
from domsim import api
from domsim.runner.tourney import TourneyError
from domsim.studies.calibration import (
    calibration_folder,
    enclosing_calibration,
    overview_runs,
    resumed_request,
)


def test_every_api_name_is_the_packages_and_dir_shows_nothing_else():
    assert set(domsim.__all__) == {*api.__all__, "DomsimError", "__version__"}
    for name in api.__all__:
        assert getattr(domsim, name) is getattr(api, name), name
    assert [name for name in dir(domsim) if not name.startswith("__")] == sorted(
        [*api.__all__, "DomsimError"])


def test_calibrate_from_the_api_writes_the_report_and_returns_its_steps(tmp_path):
    told = []
    study = api.calibrate(["classic"], levels=("easy", "medium"), games=3, seed=3,
                          samples=10, max_games=200, workers=1, out=tmp_path / "cal",
                          say=told.append)
    assert not study.partial and study.page == tmp_path / "cal" / "report.html"
    assert study.figures == json.loads((tmp_path / "cal" / "calibration.json").read_text())
    assert study.figures["complete"] and study.lines == told
    assert any(line.startswith("classic easy -> medium: ") for line in study.lines)
    again = domsim.report([tmp_path / "cal" / "classic"], tmp_path / "rep", samples=10)
    assert again.is_file() and (tmp_path / "rep" / "levels.json").is_file()
    loaded = domsim.load(tmp_path / "cal")
    assert (loaded.kind, loaded.page, loaded.stopped) == ("calibration", study.page, None)
    assert loaded.figures == study.figures
    assert loaded.lines == [line for line in told if line.startswith("classic easy -> ")]
    shown = loaded._repr_html_()
    assert "calibration in " in shown and "classic easy -&gt; medium: " in shown
    assert 'href="file://' in shown and "report.html</a>" in shown


def test_tune_from_the_api_returns_its_search(tmp_path):
    study = api.tune("classic", against="easy", win_rate=0.6, tolerance=0.2, steps=2,
                     games=300, seed=2, workers=1, out=tmp_path / "tune")
    assert not study.partial and study.figures["complete"]
    assert 0 <= study.figures["setting"] <= 1 and len(study.figures["steps"]) <= 2
    assert study.lines[-1] == f"results: {tmp_path / 'tune' / 'tune.json'}"
    loaded = domsim.load(tmp_path / "tune")
    assert (loaded.kind, loaded.lines, loaded.figures) == ("tune", study.lines, study.figures)
    assert loaded.lines[0] in loaded._repr_html_() and repr(loaded).startswith("<Study: tune in")


def test_tune_parameters_takes_a_class_of_the_session_and_load_reopens_the_tune(tmp_path):
    study = domsim.tune_parameters(Weighted, ["double=0:8"], against="easy", variant="draw",
                                   games=48, confirm=0, seed=3, r_end=0.5, workers=1,
                                   out=tmp_path / "spsa")
    assert study.kind == "SPSA tune" and not study.partial
    assert study.lines[1] == f"spec: {study.figures['result']['spec']}"
    assert study.figures["result"]["spec"].startswith("session:Weighted?double=")
    loaded = domsim.load(tmp_path / "spsa")
    assert (loaded.lines, loaded.figures) == (study.lines, study.figures)


def test_an_unfinished_study_loads_as_partial_and_a_folder_of_nothing_is_refused(tmp_path):
    out = tmp_path / "cal"
    out.mkdir()
    (out / "calibration.json").write_text(json.dumps({"settings": {}, "complete": False}))
    study = domsim.load(out)
    assert study.partial and study.lines == [] and "--resume" in study.stopped
    assert "(partial)" in study._repr_html_()
    with pytest.raises(TourneyError, match="holds no manifest.json, calibration.json, "
                                           "tune.json or spsa.json"):
        domsim.load(tmp_path)


@pytest.mark.parametrize("content, error", [("{", "JSONDecodeError"), ("[]", r"\w+Error")])
def test_a_study_file_that_cannot_be_read_is_one_line_wherever_it_is_read(tmp_path, content,
                                                                           error):
    """Loading, reporting (the folder, or runs in it) and resuming read a study's file the one
    way, and say the same line of what they cannot read."""
    out = tmp_path / "cal"
    out.mkdir()
    (out / "calibration.json").write_text(content)
    file = re.escape(str(out / "calibration.json"))
    words = rf"cannot read the calibration in {file} \({error}\)"
    for read in (lambda: domsim.load(out), lambda: overview_runs(out),
                 lambda: enclosing_calibration([out / "block"])):
        with pytest.raises(TourneyError, match=f"^{words}$"):
            read()
    with pytest.raises(TourneyError, match=f"^--resume: {words}: start a new calibration$"):
        resumed_request(calibration_folder(out))
