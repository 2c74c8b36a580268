"""The Python API (domsim.api): the README's example as written, strategies defined in the
session (a class and an instance) in tourneys, comparisons and single games, results as
DataFrames, and the run folder kept only when asked for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import domsim
from domsim.record import verify
from domsim.runner.tourney import RunFinished, TourneyError
from domsim.strategy import Strategy, StrategyError, define_strategy, load_strategy

README = Path(__file__).parent.parent / "README.md"


class Lightest(Strategy):
    description = "lightest tile first"

    def __init__(self, *, bias: int = 0) -> None:
        self.bias = bias
        self.games = 0

    def start_game(self, seat, rules) -> None:
        self.games += 1  # on a copy: the instance handed in never plays

    def choose(self, view):
        return min(view.legal_moves, key=lambda m: (m.tile.pips, self.rng.random()))


def test_the_readme_example_runs(capsys):
    code = re.search(r"## Python API.*?```python\n(.*?)```", README.read_text(), re.S).group(1)
    exec(compile(code, "README.md", "exec"), {"__name__": "readme_example"})
    printed = capsys.readouterr().out
    assert "heaviest" in printed and "elo" in printed and "'winners'" in printed
    assert "mine vs easy: block" in printed and "Results of mine vs easy" in printed


def test_a_tourney_of_session_strategies_returns_dataframes_and_keeps_no_folder(tmp_path):
    prototype = Lightest()
    run = domsim.tourney("classic", {"cls": Lightest, "inst": prototype, "easy": "easy"},
                         games=12, seed=4, workers=2)
    assert run.path is None and not run.partial
    assert len(run.games) == 12 and set(run.games["entrant_0"]) == {"cls", "inst", "easy"}
    assert set(run.games["seat_0"]) == {"session:Lightest", "session:Lightest#2", "easy"}
    assert list(run.summary["entrant"][:3]) == ["cls", "inst", "easy"]
    assert (run.summary["games"][:3] == 8).all()
    ratings = run.ratings(samples=50)
    assert set(ratings["entrant"]) == {"cls", "inst", "easy"}
    assert list(ratings["elo"]) == sorted(ratings["elo"], reverse=True)
    assert prototype.games == 0
    members = [e["members"][0] for e in run.manifest["entrants"]]
    assert members[0]["origin"] == "a class defined in the session"
    assert members[0]["source"] == __file__ and len(members[0]["sha256"]) == 64


def test_the_same_seed_gives_the_same_games_and_out_keeps_the_folder(tmp_path):
    kept = domsim.tourney("classic", ["easy", "medium"], games=6, seed=8, workers=1,
                          out=tmp_path / "run")
    again = domsim.tourney("classic", ["easy", "medium"], games=6, seed=8, workers=2)
    assert kept.path == tmp_path / "run" and (kept.path / "games.parquet").is_file()
    same = [c for c in kept.games.columns if not c.startswith("time_")]
    assert kept.games[same].equals(again.games[same])
    loaded = domsim.load(tmp_path / "run")
    assert loaded.summary.equals(kept.summary)


def test_compare_runs_the_sequential_test_with_the_given_error_rates():
    duel = domsim.compare("hard", Lightest, "classic", names=("hard", "light"), alpha=0.1,
                          beta=0.1, elo0=0, elo1=200, games=400, seed=5, workers=2)
    assert duel.verdict == "H1" and duel.llr >= 2.19  # log(0.9 / 0.1)
    assert duel.manifest["compare"]["sprt"]["alpha"] == 0.1
    assert duel.lines[0].startswith("hard vs light") and len(duel.games) < 400


def test_compare_refuses_bounds_no_test_can_use_before_playing():
    for elo0, elo1 in [(10, 0), (float("-inf"), float("inf")), (0, 1e308), (0, float("nan"))]:
        with pytest.raises(TourneyError, match="--elo"):
            domsim.compare("easy", "medium", "block", elo0=elo0, elo1=elo1, seed=1, workers=1)
    with pytest.raises(TourneyError, match="normalized Elo"):
        domsim.compare("easy", "medium", "block", elo0=0, elo1=150, elo_model="normalized",
                       seed=1, workers=1)


def test_play_returns_a_record_that_replays():
    record = domsim.play("fives", [Lightest(bias=1), "easy"], seed=3)
    assert record["seats"][1] == "easy" and record["seats"][0].startswith("session:Lightest")
    recomputed, problems = verify(record, 0)
    assert recomputed is not None and problems == []


def test_session_specs_are_stable_and_refused_elsewhere():
    assert define_strategy(Lightest) == define_strategy(Lightest)
    assert load_strategy(define_strategy(Lightest) + "?bias=2").params == {"bias": 2}
    with pytest.raises(StrategyError, match="only in the Python session"):
        load_strategy("session:Nobody")
    with pytest.raises(StrategyError, match="takes no parameters"):
        load_strategy(define_strategy(Lightest()) + "?bias=1")
    with pytest.raises(StrategyError, match="neither a Strategy subclass"):
        define_strategy(object())


def test_a_kept_run_reads_its_games_only_when_asked_and_resumes_through_the_api(tmp_path):
    """The command line's tourney is this call: a kept folder's games table stays on disk
    until read, and resuming a finished run changes nothing."""
    run = domsim.tourney("block", ["easy", "medium"], games=8, seed=2, workers=1,
                         out=tmp_path / "run")
    assert "games" not in vars(run) and "run" not in vars(run)
    assert repr(run) == f"<Results: block, 8 of 8 games in {tmp_path / 'run'}>"
    assert len(run.games) == 8 and run.manifest["games_completed"] == 8
    before = (tmp_path / "run" / "manifest.json").read_bytes()
    with pytest.raises(RunFinished, match="already complete"):
        domsim.tourney(out=tmp_path / "run", resume=True, workers=1)
    assert (tmp_path / "run" / "manifest.json").read_bytes() == before
    with pytest.raises(TourneyError, match="needs --out"):
        domsim.tourney(resume=True)


def test_the_cli_tourney_and_run_commands_are_calls_of_the_api(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from domsim import api
    from domsim.cli import main

    calls = []
    real = api.tourney
    monkeypatch.setattr(api, "tourney", lambda *a, **k: calls.append(k) or real(*a, **k))
    result = CliRunner().invoke(main, ["tourney", "-v", "block", "-p", "easy", "-p", "medium",
                                       "-g", "4", "--seed", "1", "--silent", "--out",
                                       str(tmp_path / "t")])
    assert result.exit_code == 0 and calls[-1]["games"] == 4 and "players" not in calls[-1]
    (tmp_path / "s.toml").write_text('variant = "block"\ngames = 4\nseed = 1\n'
                                     'entrants = ["easy", "medium"]\n')
    result = CliRunner().invoke(main, ["run", str(tmp_path / "s.toml"), "--silent", "--out",
                                       str(tmp_path / "r")])
    assert result.exit_code == 0 and len(calls) == 2 and calls[-1]["variant"] == "block"


def test_an_interrupted_run_is_partial_when_kept_and_resumes_else_says_how_to_keep_it(
        tmp_path, monkeypatch):
    from domsim.runner import play as tourney_module
    from domsim.runner import session

    monkeypatch.setattr(tourney_module, "MAX_BATCH", 2)
    calls = []

    def interrupt(self, played, results, tally, note=""):
        calls.append(played)
        if len(calls) % 3 == 0:
            raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(session.ProgressBar, "__call__", interrupt)
        with pytest.raises(TourneyError, match=r"interrupted after \d+ of 20 games; give out="):
            domsim.tourney("block", ["easy", "medium"], games=20, seed=1, workers=1)
        partial = domsim.tourney("block", ["easy", "medium"], games=20, seed=1, workers=1,
                                 out=tmp_path / "run")
    assert partial.partial and partial.stopped == "interrupted" and 0 < len(partial.games) < 20
    finished = domsim.tourney(out=tmp_path / "run", resume=True, workers=1)
    assert not finished.partial and len(finished.games) == 20


def test_play_deals_a_fresh_seed_each_time_never_0():
    """No entry point deals seed 0 by default (issue 47): two games, two seeds."""
    seeds = [domsim.play("block", ["easy"])["seed"] for _ in range(2)]
    assert seeds[0] != seeds[1] and 0 not in seeds
