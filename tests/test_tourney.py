"""`domsim tourney` and `domsim/runner`: pairings and duplicate seatings (R-DUP), the schedule and
its seeds (R-RNG), result files, resume after an interruption or a killed worker, and every
option and error of the command."""

from __future__ import annotations

import csv
import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from clitools import invoke

from domsim.cli import main
from domsim.plan.config import TourneyConfig
from domsim.plan.games import Plan
from domsim.plan.pairings import make_pairings, parse_entrants, seat_specs
from domsim.plan.schedule import Schedule, batches, pairing_batches
from domsim.results import table as table_module
from domsim.results.sides import Sides, per_side
from domsim.rules import make_rules
from domsim.runner import play as tourney_module
from domsim.runner import session
from domsim.seeding import game_seed
from domsim.strategy import StrategyError

FAST = ["--variant", "classic", "-p", "easy", "-p", "medium", "--seed", "5", "--silent"]


def tourney(*args, **env):
    result = CliRunner().invoke(main, ["tourney", *args], catch_exceptions=False, env=env)
    return result


def table(out, name="games.parquet"):
    """The games table without its timing columns (the only ones allowed to differ)."""
    if name.endswith(".csv"):
        with (out / name).open(newline="") as source:
            rows = list(csv.DictReader(source))
    else:
        rows = pq.read_table(out / name).to_pylist()
    return [{k: v for k, v in row.items() if not k.startswith("time_")} for row in rows]


# -- pairings, seatings and schedule ----------------------------------------------------------
def seated(rules, entrants, pairing, seating) -> list[str]:
    """The text of the spec at each seat."""
    return [spec.text for spec in seat_specs(rules, entrants, pairing, seating)]


def test_two_player_duplicate_swaps_hands():
    """R-DUP, 2 players: seating 1 seats the pair the other way round."""
    rules = make_rules("block", 2)
    entrants = parse_entrants(["easy", "hard"], rules)
    assert seated(rules, entrants, (0, 1), 0) == ["easy", "hard"]
    assert seated(rules, entrants, (0, 1), 1) == ["hard", "easy"]


def test_four_individual_players_rotate_seats():
    """R-DUP, 3-4 individual players: each seating moves every entrant one seat on."""
    rules = make_rules("block", 4)
    entrants = parse_entrants(["a.b:A", "a.b:B", "a.b:C", "a.b:D"], rules)
    seatings = [seated(rules, entrants, (0, 1, 2, 3), r) for r in range(4)]
    assert seatings[0] == ["a.b:A", "a.b:B", "a.b:C", "a.b:D"]
    assert seatings[1] == ["a.b:D", "a.b:A", "a.b:B", "a.b:C"]
    assert {tuple(s[seat] for s in seatings) for seat in range(4)} == {
        ("a.b:A", "a.b:D", "a.b:C", "a.b:B"), ("a.b:B", "a.b:A", "a.b:D", "a.b:C"),
        ("a.b:C", "a.b:B", "a.b:A", "a.b:D"), ("a.b:D", "a.b:C", "a.b:B", "a.b:A")}


def test_team_entrant_takes_seats_0_and_2_and_teams_swap():
    """R-DUP, team games: `hard+easy` sits at seats 0 and 2, then the teams swap places."""
    rules = make_rules("kozel", 4)
    entrants = parse_entrants(["hard+easy", "medium"], rules)
    assert seated(rules, entrants, (0, 1), 0) == ["hard", "medium", "easy", "medium"]
    assert seated(rules, entrants, (0, 1), 1) == ["medium", "hard", "medium", "easy"]


def test_entrant_errors():
    block, kozel = make_rules("block", 2), make_rules("kozel", 4)
    with pytest.raises(StrategyError, match="not a team game"):
        parse_entrants(["easy+hard", "medium"], block)
    with pytest.raises(StrategyError, match="two specs"):
        parse_entrants(["easy+hard+medium", "medium"], kozel)
    with pytest.raises(StrategyError, match="two entrants are named 'easy'"):
        parse_entrants(["easy", "easy"], block)
    with pytest.raises(StrategyError, match="at least 2 entrants"):
        parse_entrants(["easy"], block)


def test_round_robin_and_gauntlet_pairings():
    assert make_pairings(3, 2, "round-robin") == [(0, 1), (0, 2), (1, 2)]
    assert make_pairings(4, 2, "gauntlet") == [(0, 1), (0, 2), (0, 3)]
    assert make_pairings(4, 3, "gauntlet") == [(0, 1, 2), (0, 1, 3), (0, 2, 3)]
    assert make_pairings(2, 3, "round-robin") == [(0, 1, 0)]


def test_schedule_every_seating_and_pairing_of_a_deal_shares_its_seed():
    """R-RNG: a game's seed depends on (run seed, deal id) only."""
    schedule = Schedule(games=12, pairings=3, sides=2, duplicate=True, seed=9)
    slots = [schedule.slot(g) for g in range(12)]
    assert [(s.deal_id, s.pairing, s.seating) for s in slots[:6]] == [
        (0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (0, 2, 0), (0, 2, 1)]
    assert {s.seed for s in slots[:6]} == {game_seed(9, 0)}
    assert slots[6].deal_id == 1 and slots[6].seed == game_seed(9, 1)
    assert schedule.games_per_pairing() == [4, 4, 4] and schedule.whole_deal_sets


def test_schedule_without_duplicate_rotates_the_seating_per_deal():
    schedule = Schedule(games=4, pairings=2, sides=2, duplicate=False, seed=0)
    assert [(s.deal_id, s.pairing, s.seating) for s in map(schedule.slot, range(4))] == [
        (0, 0, 0), (0, 1, 0), (1, 0, 1), (1, 1, 1)]


def test_deal_groups_give_each_group_of_pairings_deals_of_its_own(tmp_path):
    """R-RNG with deal groups: the pairings of a group share each deal in every seating; the
    groups' deals differ; with one group the schedule is the plain one."""
    schedule = Schedule(games=16, pairings=4, sides=2, duplicate=True, seed=9, deal_groups=2)
    slots = [schedule.slot(g) for g in range(16)]
    assert [s.deal_id for s in slots] == [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4
    assert [(s.pairing, s.seating) for s in slots[:8]] == [
        (0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)]
    assert slots[4].seed == game_seed(9, 1) != slots[0].seed
    plain = Schedule(games=16, pairings=4, sides=2, duplicate=True, seed=9)
    assert [plain.slot(g).deal_id for g in range(16)] == [0] * 8 + [1] * 8
    entrants = ["easy", "medium", "hard", "hard?block=5", "hard?block=3"]
    run = tmp_path / "groups"
    result = invoke("run", str(_scenario(tmp_path, entrants, deal_groups=2)), "--out", str(run),
                    "--silent")
    assert result.exit_code == 0, result.output
    assert invoke("stats", str(run)).exit_code == 0  # its games are as the schedule has them
    bad = invoke("run", str(_scenario(tmp_path, entrants, deal_groups=3)), "--out",
                 str(tmp_path / "bad"), "--silent")
    assert bad.exit_code == 1 and "deal_groups must divide the 4 pairings, got 3" in bad.stderr


def _scenario(folder, entrants, **settings):
    path = folder / f"scenario-{len(list(folder.iterdir()))}.toml"
    lines = ['variant = "block"', f"entrants = {entrants!r}".replace("'", '"'),
             'format = "gauntlet"', "games = 16", "seed = 2", "workers = 1"]
    path.write_text("\n".join(lines + [f"{k} = {v}" for k, v in settings.items()]) + "\n")
    return path


def test_batches_cut_runs_of_consecutive_ids():
    assert list(batches([0, 1, 2, 5, 6, 9], 2)) == [[0, 1], [2], [5, 6], [9]]
    assert list(batches(range(7), 3, singles=2)) == [[0], [1], [2, 3, 4], [5, 6]]
    sizes = [len(batch) for batch in batches(range(40), 3, singles=1, small=2, most=10)]
    assert sizes == [1, 3, 3, 10, 10, 10, 3]
    assert list(batches(range(5), 2, small=1)) == [[0, 1], [2, 3], [4]]  # nothing bigger given


def test_pairing_batches_hold_one_pairing_each_every_pairing_from_the_start():
    """A round robin of three pairings, duplicate deals (two seatings: six games a round):
    after the single first games, each batch holds one pairing's games of a block of rounds
    (the window's small, the rest big), each pairing in turn; every id once, the done left
    out."""
    schedule = Schedule(games=40, pairings=3, sides=2, duplicate=True, seed=1)
    made = list(pairing_batches(schedule, 40, {13}, 4, singles=2, small=3, most=8))
    assert made[:2] == [[0], [1]]
    assert made[2:5] == [[6, 7], [2, 3, 8, 9], [4, 5, 10, 11]]  # two rounds, pairing by pairing
    assert made[5:8] == [[12, 18, 19, 24, 25, 30, 31], [14, 15, 20, 21, 26, 27, 32, 33],
                         [16, 17, 22, 23, 28, 29, 34, 35]]
    assert all(len({schedule.slot(g).pairing for g in batch}) == 1 for batch in made)
    assert sorted(g for batch in made for g in batch) == sorted(set(range(40)) - {13})


def test_shares_and_margins_of_the_sides():
    """A side's share is the share of the winners on it; an entrant's margin its sides' mean
    points less the others' (kozel records points against: the sign turns)."""
    winners = pa.array([[0], [0, 1], []], type=pa.list_(pa.int8()))
    assert per_side(3, 3, winners, np.arange(3)).tolist() == [[1, 0, 0], [1, 1, 0], [0, 0, 0]]
    rules = make_rules("block", 3)
    games = Sides(deal=np.zeros(1), pairing=np.zeros(1), entrant=np.array([[0, 1, 2]]),
                  share=np.zeros((1, 3)), points=np.array([[10.0, 6, 4]]), hands=np.array([2]),
                  faults=np.zeros((1, 3)))
    assert games.margins(rules, 0)[1].tolist() == [10 - 5]  # (10 - 2) + (0 - 3) over 2 hands
    kozel = make_rules("kozel", 4)
    team = Sides(deal=np.zeros(1), pairing=np.zeros(1), entrant=np.array([[0, 1]]),
                 share=np.zeros((1, 2)), points=np.array([[20.0, 0]]), hands=np.array([1]),
                 faults=np.zeros((1, 2)))
    assert team.margins(kozel, 1)[1].tolist() == [20]  # points recorded against team 0


# -- the command: results, determinism, resume -------------------------------------------------
def test_tourney_writes_games_summary_manifest_and_log(tmp_path):
    out = tmp_path / "run"
    result = tourney(*FAST, "--games", "12", "-j", "2", "--out", str(out), "--records")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [
        "games.parquet", "manifest.json", "records.jsonl", "run.log", "summary.csv"]
    rows = table(out)
    assert [r["game_id"] for r in rows] == list(range(12))
    assert [r["seating"] for r in rows[:2]] == [0, 1]
    assert (rows[0]["seat_0"], rows[1]["seat_0"]) == ("easy", "medium")
    assert rows[0]["seed"] == rows[1]["seed"] == game_seed(5, 0)
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    assert [r["game_id"] for r in records] == list(range(12))
    assert records[0]["hands"][0]["deal"] == records[1]["hands"][0]["deal"]
    with (out / "summary.csv").open() as source:
        summary = list(csv.DictReader(source))
    easy = summary[0]
    assert (easy["pairing"], easy["entrant"], easy["games"]) == ("all", "easy", "12")
    assert int(easy["wins"]) + int(easy["losses"]) + int(easy["shared"]) == 12
    wins = sum(r["winner_entrants"] == ["easy"] for r in rows)
    assert all(r["winner_entrants"] == [r[f"entrant_{seat}"] for seat in r["winners"]]
               for r in rows)
    assert int(easy["wins"]) == wins
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["partial"] is False and manifest["games_completed"] == 12
    assert manifest["seed"] == 5 and manifest["pairings"] == [
        {"pairing": "easy vs medium", "games": 12}]
    assert len(manifest["entrants"][0]["members"][0]["sha256"]) == 64
    assert manifest["engine"].startswith("domsim-core ") and "MT19937" in manifest["engine"]
    assert "ForkProcess" in (out / "run.log").read_text()  # worker records reach run.log
    assert result.stdout.splitlines()[1].startswith("all ")
    assert result.stdout.splitlines()[-1] == f"12 games written to {out}"


def test_one_and_two_workers_write_identical_results(tmp_path):
    """R-RNG: the files do not depend on the worker count (timing columns aside)."""
    for workers in ("1", "2"):
        out = tmp_path / workers
        assert tourney(*FAST, "--games", "16", "-j", workers, "--out", str(out)).exit_code == 0
    assert table(tmp_path / "1") == table(tmp_path / "2")
    assert (tmp_path / "1" / "summary.csv").read_text() == (tmp_path / "2" / "summary.csv"
                                                            ).read_text()


def test_games_table_gathers_parts_into_row_groups(tmp_path, monkeypatch):
    """The parts (one per batch) are gathered into row groups of at least ROW_GROUP_ROWS rows,
    in game-id order, so the writer's metadata does not grow with every batch."""
    monkeypatch.setattr(table_module, "ROW_GROUP_ROWS", 5)
    monkeypatch.setattr(tourney_module, "MAX_BATCH", 2)
    out = tmp_path / "run"
    assert tourney(*FAST, "--games", "16", "-j", "1", "--out", str(out)).exit_code == 0
    metadata = pq.ParquetFile(out / "games.parquet").metadata
    sizes = [metadata.row_group(i).num_rows for i in range(metadata.num_row_groups)]
    assert sizes == [5, 6, 5]  # batches of 1 (the first, for the bar's rate), 2, 2, ...
    assert [r["game_id"] for r in table(out)] == list(range(16))


def test_interrupted_then_resumed_equals_a_straight_run(tmp_path, monkeypatch):
    straight, broken = tmp_path / "straight", tmp_path / "broken"
    args = [*FAST, "--games", "30", "-j", "2", "--output-format", "csv", "--records"]
    assert tourney(*args, "--out", str(straight)).exit_code == 0
    calls = []

    def interrupt(self, games, results, tally, note=""):  # Ctrl-C once, after the first batch
        calls.append(games)
        if len(calls) == 1:
            raise KeyboardInterrupt

    monkeypatch.setattr(session.ProgressBar, "__call__", interrupt)
    result = tourney(*args, "--out", str(broken))
    assert result.exit_code == 1
    assert f"Resume with: domsim tourney --out {broken} --resume" in result.output
    manifest = json.loads((broken / "manifest.json").read_text())
    assert manifest["partial"] is True and 0 < manifest["games_completed"] < 30
    assert len(table(broken, "games.csv")) == manifest["games_completed"]
    monkeypatch.undo()
    result = tourney("--out", str(broken), "--resume", "--silent", "-j", "1")
    assert result.exit_code == 0, result.output
    assert table(broken, "games.csv") == table(straight, "games.csv")
    assert (broken / "summary.csv").read_text() == (straight / "summary.csv").read_text()
    assert not (broken / "parts").exists()
    assert json.loads((broken / "manifest.json").read_text())["partial"] is False

    def untimed(out):
        return [{k: v for k, v in json.loads(line).items() if k != "timing"}
                for line in (out / "records.jsonl").read_text().splitlines()]
    assert untimed(broken) == untimed(straight)


KILLER = '''
import os
import signal
from pathlib import Path

from domsim.strategy import Strategy

class Killer(Strategy):
    """Dies outright (SIGKILL) the first time it is asked in process, then plays the first
    legal move (in the sandbox, where its games are played again, it sees its file alone)."""
    def choose(self, view):
        marker = Path(__file__).with_suffix(".fired")
        if Path(__file__).parent != Path("/bot") and not marker.exists():
            marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return view.legal_moves[0]
'''


@pytest.mark.slow
def test_a_killed_worker_loses_nothing_its_games_are_played_again(tmp_path):
    """In process, the unfinished batches are played again, isolated: no game lost or doubled."""
    bot = tmp_path / "killer.py"
    bot.write_text(KILLER)
    args = ["--variant", "classic", "-p", "easy", "-p", str(bot), "--seed", "2", "--silent",
            "--games", "24", "-j", "2", "--in-process"]
    broken, straight = tmp_path / "broken", tmp_path / "straight"
    result = tourney(*args, "--out", str(broken))
    assert result.exit_code == 0, result.output
    manifest = json.loads((broken / "manifest.json").read_text())
    assert manifest["partial"] is False
    assert manifest["sessions"][-1]["isolated_after_a_worker_died"] is True
    assert "a worker process died" in (broken / "run.log").read_text()
    assert tourney(*args, "--out", str(straight)).exit_code == 0
    assert table(broken) == table(straight)


def test_team_entrants_gauntlet_and_options(tmp_path):
    out = tmp_path / "kozel"
    result = tourney("--variant", "kozel", "-p", "easy+medium", "-p", "easy", "-p", "medium",
                     "--format", "gauntlet", "--games", "8", "--target", "30", "--seed", "1",
                     "--no-duplicate", "--move-time-limit", "0", "--silent", "--out", str(out))
    assert result.exit_code == 0, result.output
    rows = table(out)
    assert [r["pairing"] for r in rows[:4]] == ["easy+medium vs easy", "easy+medium vs medium"] * 2
    assert [r["seating"] for r in rows[:4]] == [0, 0, 1, 1]
    assert rows[0]["deal_id"] == rows[1]["deal_id"] == 0
    assert (rows[0]["seat_0"], rows[0]["seat_2"]) == ("easy", "medium")
    assert (rows[2]["seat_1"], rows[2]["seat_3"]) == ("easy", "medium")
    config = json.loads((out / "manifest.json").read_text())["config"]
    assert config["options"] == {"target": "30"} and config["duplicate"] is False
    assert config["move_time_limit"] == 0


def test_default_entrants_are_the_registered_levels(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = tourney("--variant", "classic", "--games", "3", "-j", "1")
    assert result.exit_code == 0, result.output
    (run,) = (tmp_path / "results").iterdir()
    assert run.name.startswith("classic-")
    entrants = [e["name"] for e in json.loads((run / "manifest.json").read_text())["entrants"]]
    assert entrants[:2] == ["easy", "medium"]
    # 3 games do not fill a deal of every pairing in every seating: rounded up, said plainly
    assert "3 games rounded up to 12: whole deal sets" in result.stderr  # (issue 48)
    assert "WARNING" not in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    ([], "missing --variant"),
    (["--variant", "nope", "-p", "easy", "-p", "medium"], "unknown variant 'nope'"),
    (["--variant", "block", "--players", "5", "-p", "easy", "-p", "medium"], "not 5"),
    (["--variant", "block", "-p", "easy"], "at least 2 entrants"),
    (["--variant", "block", "-p", "easy", "-p", "nobot"], "unknown strategy 'nobot'"),
    (["--variant", "block", "-p", "easy+hard", "-p", "medium"], "not a team game"),
    (["--variant", "block", "-p", "easy", "-p", "medium", "-o", "bad"], "KEY=VALUE"),
    (["--variant", "classic", "-p", "easy", "-p", "medium", "--target", "5"], "no option"),
    (["--resume"], "nothing to resume"),
    (["--variant", "block", "-p", "easy", "-p", "medium", "--backend", "dask"], "--scheduler"),
    (["--variant", "block", "-p", "easy", "-p", "medium", "--scheduler", "x"], "--backend dask"),
])
def test_errors_are_one_line(tmp_path, args, message):
    result = tourney(*args, "--out", str(tmp_path / "x"), "--silent")
    assert result.exit_code == 1
    assert message in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("args", [["--games", "0"], ["--workers", "0"], ["--format", "swiss"],
                                  ["--output-format", "xlsx"], ["--move-time-limit", "-1"]])
def test_bad_option_values_are_usage_errors(args):
    result = tourney(*FAST, *args)
    assert result.exit_code == 2 and "Invalid value" in result.stderr


def test_existing_folder_is_refused_and_resume_checks_settings(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    result = tourney(*FAST, "--games", "2", "--out", str(out))
    assert result.exit_code == 1 and "already exists" in result.stderr
    assert "--resume needs --out" in tourney("--resume").stderr
    out.rmdir()
    assert tourney(*FAST, "--games", "2", "-j", "1", "--out", str(out)).exit_code == 0
    result = tourney("--out", str(out), "--resume", "--games", "4", "--seed", "6")
    assert result.exit_code == 1
    assert "games was 2, now 4; seed was 5, now 6" in result.stderr
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    result = tourney("--out", str(out), "--resume", "--silent")
    assert result.exit_code == 0, result.output
    assert "already complete (2 games): nothing to resume, nothing changed" in result.stdout
    assert {path.name: path.read_bytes() for path in out.iterdir()} == before


def test_the_plan_settles_the_game_count_once(tmp_path):
    """Issue 50: --games-per-pairing is settled by the plan (Plan.settle), which the runner then
    plays as it is: rounded up to whole deals, the note says so, and the run plays that many."""
    config = TourneyConfig("block", entrants=("easy", "medium", "hard"), seed=1)
    plan, note = Plan.settle(config, per_pairing=5)
    assert (plan.config.games, plan.schedule.games) == (18, 18)  # 3 pairings x 3 deals x 2
    assert note == "5 games per pairing rounded up to 6: whole deals, each in 2 seatings"
    assert Plan.settle(config, per_pairing=4)[0].config.games == 12
    assert Plan.settle(config, per_pairing=4)[1] is None
    assert Plan.settle(config)[0].config.games == 1000
    result = invoke("tourney", "--variant", "block", "-p", "easy", "-p", "medium", "-p", "hard",
                    "--games-per-pairing", "1", "--seed", "1", "--out", str(tmp_path / "run"),
                    "-j", "1")
    assert result.exit_code == 0, result.output
    assert "1 games per pairing rounded up to 2" in result.stderr
    assert json.loads((tmp_path / "run" / "manifest.json").read_text())["config"]["games"] == 6
