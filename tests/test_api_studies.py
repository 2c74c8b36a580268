"""calibrate, tune and report are API calls too (issue 37: cli.py a thin layer over api.py for
every command): each returns what its command prints and the figures its files hold."""

from __future__ import annotations

import json

from domsim import api


def test_calibrate_from_the_api_writes_the_report_and_returns_its_steps(tmp_path):
    told = []
    study = api.calibrate(["classic"], levels=("easy", "medium"), games=3, seed=3,
                          samples=10, max_games=200, workers=1, out=tmp_path / "cal",
                          say=told.append)
    assert not study.partial and study.page == tmp_path / "cal" / "report.html"
    assert study.figures == json.loads((tmp_path / "cal" / "calibration.json").read_text())
    assert study.figures["complete"] and study.lines == told
    assert any(line.startswith("classic easy -> medium: ") for line in study.lines)
    again = api.report([tmp_path / "cal" / "classic"], tmp_path / "rep", samples=10)
    assert again.is_file() and (tmp_path / "rep" / "levels.json").is_file()


def test_tune_from_the_api_returns_its_search(tmp_path):
    study = api.tune("classic", against="easy", win_rate=0.6, tolerance=0.2, steps=2,
                     games=300, seed=2, workers=1, out=tmp_path / "tune")
    assert not study.partial and study.figures["complete"]
    assert 0 <= study.figures["setting"] <= 1 and len(study.figures["steps"]) <= 2
    assert study.lines[-1] == f"results: {tmp_path / 'tune' / 'tune.json'}"
