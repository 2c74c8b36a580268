"""`domsim run SCENARIO.toml`: the shipped scenarios are valid, a scenario runs exactly what
`domsim tourney` runs, and every bad key or value is a one-line error naming file and key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clitools import invoke
from test_tourney import table

from domsim.plan.config import TourneyConfig
from domsim.plan.scenario import load_scenario
from domsim.rules import VARIANTS
from domsim.runner.tourney import Tourney
from domsim.spec import BUILT_IN_LEVELS

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "scenarios").glob("*.toml"))


def shipped_tourney(path: Path) -> Tourney:
    return Tourney.of(TourneyConfig.from_dict(load_scenario(path).settings), Path())


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_every_shipped_scenario_is_valid_and_fills_whole_deal_sets(path, monkeypatch):
    monkeypatch.chdir(ROOT)  # strategy files are named from the repository's folder
    tourney = shipped_tourney(path)
    assert tourney.schedule.whole_deal_sets, f"{path.name}: games is not whole deal sets"
    assert len(tourney.entrants) >= 2


def test_the_levels_are_shipped_for_every_variant():
    for variant in VARIANTS:
        scenario = load_scenario(ROOT / "scenarios" / f"{variant}-levels.toml")
        assert scenario.settings["variant"] == variant
        assert scenario.settings["entrants"] == list(BUILT_IN_LEVELS)


def test_kozel_partner_scenarios_follow_the_partner_rule():
    """R-LEVEL: in kozel the player's partner plays at least hard (insane at insane), and the
    chosen level sets the opponents."""
    tables = []
    for name in ("kozel-partner.toml", "kozel-partner-insane.toml"):
        tourney = shipped_tourney(ROOT / "scenarios" / name)
        assert tourney.config.format == "gauntlet" or len(tourney.entrants) == 2
        player_team, *opponents = tourney.entrants
        for opponent in opponents:
            level = opponent.name
            partner = player_team.members[1].text
            assert partner == ("insane" if level == "insane" else "hard"), (name, level)
            tables.append(level)
    assert tables == list(BUILT_IN_LEVELS)


def test_the_documented_scenario_is_valid(tmp_path):
    """docs/COMMANDS.md's scenario (the README's until issue 49 moved its reference there)."""
    page = (ROOT / "docs" / "COMMANDS.md").read_text()
    start = page.index("```toml\n") + len("```toml\n")
    path = write(tmp_path, page[start:page.index("\n```", start)])
    assert load_scenario(path).settings["entrants"][0] == "medium+hard"


def test_a_scenario_runs_exactly_what_tourney_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    by_file, by_options = tmp_path / "file", tmp_path / "options"
    result = invoke("run", "scenarios/custom-strategies.toml", "--games", "6", "-j", "1",
                    "--out", str(by_file), "--silent")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == f"6 games written to {by_file}"
    # Its strategies play in their own process: the run drew a secret key, which the same
    # tourney given on the command line needs to deal the same.
    key = json.loads((by_file / "manifest.json").read_text())["config"]["run_key"]
    result = invoke("tourney", "--variant", "block", "-p", "strategies/example_counter.py",
                    "-p", "strategies/example_greedy.py", "-p", "hard", "--seed", "1",
                    "--games", "6", "--move-time-limit", "1", "-j", "2", "--out",
                    str(by_options), "--silent", "--run-key", key)
    assert result.exit_code == 0, result.output
    assert table(by_file) == table(by_options)
    assert [row["seat_0"] for row in table(by_file)[:2]] == ["strategies/example_counter.py",
                                                              "strategies/example_greedy.py"]
    assert (by_file / "summary.csv").read_text() == (by_options / "summary.csv").read_text()

    def manifest(out):
        return json.loads((out / "manifest.json").read_text())
    assert manifest(by_file)["config"] == manifest(by_options)["config"]
    assert manifest(by_file)["sessions"][0]["workers"] == 1


def write(tmp_path, text, name="x.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_file_settings_and_command_line_overrides(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, 'variant = "kozel"\nentrants = ["easy+medium", "easy"]\ngames = 2\nseed = 4\n'
          'target = 20\nworkers = 1\nout = "mine"\noutput_format = "csv"\nduplicate = false\n'
          'records = true\nmove_time_limit = 0\n')
    result = invoke("run", "x.toml", "--games", "4", "--silent")
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "mine" / "manifest.json").read_text())
    assert manifest["config"] == {
        "variant": "kozel", "players": None, "games": 4, "entrants": ["easy+medium", "easy"],
        "format": "round-robin", "seed": 4, "duplicate": False, "options": {"target": "20"},
        "move_time_limit": 0, "records": True, "output_format": "csv", "isolate": None,
        "seat_memory": 2048, "sandbox": True, "on_fault": "forfeit"}
    assert manifest["sessions"][0]["workers"] == 1
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == [
        "games.csv", "manifest.json", "records.jsonl", "run.log", "summary.csv"]
    assert "already exists" in invoke("run", "x.toml", "--silent").stderr
    result = invoke("run", "x.toml", "--games", "4", "--resume", "--silent")
    assert result.exit_code == 0 and "mine is already complete (4 games)" in result.stdout


def test_default_folder_is_named_after_the_scenario(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, 'variant = "classic"\nentrants = ["easy", "medium"]\ngames = 2\n',
          name="quick.toml")
    assert invoke("run", "quick.toml", "-j", "1", "--silent").exit_code == 0
    (run,) = (tmp_path / "results").iterdir()
    assert run.name.startswith("quick-")
    assert isinstance(json.loads((run / "manifest.json").read_text())["seed"], int)


ALLOWED = ("variant, players, games, entrants, format, seed, duplicate, options, "
           "move_time_limit, records, isolate, sandbox, seat_memory, output_format, deals, "
           "deals_order, on_fault, run_key, time_control, deal_groups, workers, out, backend, "
           "scheduler, target")
GOOD = 'variant = "block"\nentrants = ["easy", "medium"]\n'


@pytest.mark.parametrize(("text", "message"), [
    (GOOD + "gmes = 10\n", f"unknown key 'gmes' (did you mean 'games'? allowed: {ALLOWED})"),
    (GOOD + "games = 0\n", "games must be a positive integer, got 0"),
    (GOOD + 'games = "10"\n', "games must be a positive integer, got '10'"),
    (GOOD + "games = true\n", "games must be a positive integer, got True"),
    (GOOD + "seed = 1.5\n", "seed must be an integer, got 1.5"),
    ('variant = "block"\nentrants = "easy"\n', "entrants must be a list of strategy specs"),
    (GOOD + 'format = "swiss"\n', "format must be round-robin or gauntlet, got 'swiss'"),
    (GOOD + 'output_format = "xlsx"\n', "output_format must be parquet or csv"),
    (GOOD + "duplicate = 1\n", "duplicate must be true or false, got 1"),
    (GOOD + "move_time_limit = -1\n", "move_time_limit must be a number of seconds >= 0"),
    (GOOD + "workers = 0\n", "workers must be 1 to 256, got 0"),
    (GOOD + "workers = 100000\n", "workers must be 1 to 256, got 100000"),
    (GOOD + 'backend = "ray"\n', "backend must be local or dask, got 'ray'"),
    (GOOD + 'scheduler = "tcp://h:8786"\n', 'scheduler is for backend = "dask"'),
    (GOOD + "target = 0\n", "target must be a positive integer, got 0"),
    (GOOD + "[options]\ntarget = true\n", "options must be a table of rule options"),
    ('entrants = ["easy", "medium"]\n', "missing key 'variant'"),
    ('variant = "nope"\n', "unknown variant 'nope'"),
    (GOOD + "players = 5\n", "block is played by 2, 3, 4 players, not 5"),
    (GOOD + "[options]\ncapicu_bonus = 5\n", "block has no option 'capicu_bonus'"),
    ('variant = "block"\nentrants = ["easy", "nobot"]\n', "unknown strategy 'nobot'"),
    ('variant = "block"\nentrants = ["easy+hard", "medium"]\n', "not a team game"),
    ("variant = block\n", "not valid TOML: "),
    (GOOD + "target = 50\n[options]\ntarget = 'x'\n", "target is given twice"),
])
def test_a_bad_scenario_is_one_line_naming_file_and_key(tmp_path, text, message):
    path = write(tmp_path, text)
    result = invoke("run", str(path), "--out", str(tmp_path / "out"), "--silent")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: {path}: ")
    assert message in result.stderr and len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_a_missing_scenario_file_is_a_usage_error(tmp_path):
    result = invoke("run", str(tmp_path / "none.toml"))
    assert result.exit_code == 2 and "does not exist" in result.stderr


def test_paths_in_a_scenario_are_taken_from_its_folder(tmp_path, monkeypatch):
    """Strategy files (of a named entrant and of a team member too), deals and out are read from
    the file's folder, whatever folder the command runs in; names and modules are kept."""
    folder = tmp_path / "plans"
    (folder / "bots").mkdir(parents=True)
    (folder / "bots" / "mine.py").write_text((ROOT / "strategies/example_greedy.py").read_text())
    (folder / "one.deals.jsonl").write_text(
        '{"variant": "block", "players": 2, "hands": [{"deal": {"hands": [["0-0", "0-1", "0-2",'
        ' "0-3", "0-4", "0-5", "0-6"], ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"]]}}]}\n')
    write(folder, 'variant = "block"\nentrants = ["bots/mine.py", "me=bots/mine.py", "easy", '
          '"domsim.strategies.easy:Easy"]\ndeals = "one.deals.jsonl"\nout = "../runs/a"\n',
          name="plan.toml")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    scenario = load_scenario(Path("../plans/plan.toml"))
    assert scenario.settings["entrants"] == ["../plans/bots/mine.py", "me=../plans/bots/mine.py",
                                             "easy", "domsim.strategies.easy:Easy"]
    assert scenario.settings["deals"] == "../plans/one.deals.jsonl"
    assert scenario.out == Path("../runs/a")
    write(folder, 'variant = "kozel"\nentrants = ["bots/mine.py+easy", "duo=easy+bots/mine.py"]\n',
          name="plan.toml")
    assert load_scenario(Path("../plans/plan.toml")).settings["entrants"] == [
        "../plans/bots/mine.py+easy", "duo=easy+../plans/bots/mine.py"]
