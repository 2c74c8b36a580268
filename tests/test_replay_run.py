"""Records that cannot lie: a tourney's record must hold the deals its seed makes (R-RNG), and
`replay --run DIR` checks the records against the run's manifest and games table (who sat
where, seeds, results, faults)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from domsim.cli import main
from domsim.record import seal, verify
from domsim.seeding import game_seed

RAISES = Path(__file__).parent / "broken" / "raises.py"


def invoke(*args):
    return CliRunner().invoke(main, [str(arg) for arg in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """Six classic games of easy against a bot that faults at every decision (seat 1 or 0), its
    moves made by the stand-in (substitute: the board's result is the game's)."""
    out = tmp_path_factory.mktemp("run") / "run"
    result = invoke("tourney", "--variant", "classic", "-p", "easy", "-p", RAISES, "--games", "6",
                    "-j", "1", "--seed", "4", "--records", "--silent", "--out", out,
                    "--on-fault", "substitute")
    assert result.exit_code == 0, result.output
    return out


def records(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "records.jsonl").read_text().splitlines()]


def replay_edited(tmp_path: Path, run: Path, edit, *options) -> object:
    edited = records(run)
    edit(edited)
    path = tmp_path / "edited.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in edited))
    return invoke("replay", path, *options)


def test_honest_records_replay_alone_and_against_their_run(run):
    alone = invoke("replay", run / "records.jsonl")
    assert alone.exit_code == 0, alone.output
    checked = invoke("replay", "--run", run)
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.strip() == ("6 game(s) replayed: every action legal, every result "
                                      f"agrees, and agrees with the run in {run}")


def test_a_changed_seed_is_found_without_the_run(tmp_path, run):
    def edit(games):
        games[0]["seed"] += 1

    result = replay_edited(tmp_path, run, edit)
    assert result.exit_code == 1
    seed = records(run)[0]["seed"] + 1
    assert f"game id 0: seed {seed} is not the seed of deal 0 of run seed 4" in result.stderr


def test_deals_that_are_not_the_seeds_are_found_without_the_run(run):
    """R-RNG: a record moved to another seed (consistently, run seed and all) still holds the
    old deals, which the new seed does not make; reported once, at the first hand."""
    record = records(run)[0]
    record["run_seed"] = 99
    record["seed"] = game_seed(99, record["deal_id"], record.get("run_key"))
    record = seal(record)  # even an editor who makes its digest anew is found out
    recomputed, problems = verify(record, 0)
    assert recomputed is not None
    assert len(problems) == 1
    assert problems[0].startswith("game id 0, hand 1: the deal's hands, ")
    assert problems[0].endswith(" are not what the record's seed deals")


def test_another_tools_record_is_not_held_to_a_seed(run):
    """Without run seed, game id and `dealt_from_seed`, a record's seed says nothing of its
    deals (R-RNG is domsim's generator)."""
    record = records(run)[0]
    for key in ("run_seed", "game_id", "deal_id", "dealt_from_seed"):
        del record[key]
    record["seed"] += 1
    # Replay finds nothing wrong, and recomputes the very results the record carries.
    assert verify(record, 0) == (record, [])


def test_a_played_games_record_is_held_to_its_seed(tmp_path):
    """`domsim play --record` writes the game seed and `dealt_from_seed` (R-RNG): replay checks
    that the deals are the seed's."""
    out = tmp_path / "game.json"
    assert invoke("play", "--variant", "draw", "-p", "easy", "-p", "medium", "--seed", "4",
                  "--record", str(out)).exit_code == 0
    record = json.loads(out.read_text())
    assert record["dealt_from_seed"] is True and verify(record, 0)[1] == []
    record["seed"] = 5
    assert verify(seal(record), 0)[1] == [
        "game 1, hand 1: the deal's hands, boneyard are not what the record's seed deals"]


@pytest.mark.parametrize(("edit", "message"), [
    (lambda games: games[1].update(seats=games[1]["seats"][::-1]),
     "record 2 (game id 1): seats ['"),
    (lambda games: [seat.update(errors=0, first=None, replaced=False)
                    for seat in games[2]["faults"]],
     "record 3 (game id 2): faults [0, 0], but the run has "),
    (lambda games: games.pop(3), "1 game(s) of the run have no record, the first is game id 3"),
    (lambda games: games.append(games[0]),
     "record 7 (game id 0): a second record of the same game"),
    (lambda games: games[4].update(game_id=77), "record 5 (game id 77): not a finished game"),
    (lambda games: games[5].update(deal_id=0), "deal_id 0, but the run has 2"),
])
def test_replay_run_finds_records_that_disagree_with_the_run(tmp_path, run, edit, message):
    result = replay_edited(tmp_path, run, edit, "--run", run)
    assert result.exit_code == 1 and message in result.stderr, result.stderr
    assert "Traceback" not in result.output


def test_replay_run_finds_an_edited_records_file_by_its_checksum(tmp_path, run):
    """An edit that leaves every checked field alone (here a decision time) still changes the
    file the manifest holds the sha256 of."""
    copy = tmp_path / "run"
    copy.mkdir()
    for file in run.iterdir():
        (copy / file.name).write_bytes(file.read_bytes())
    games = records(copy)
    games[0]["timing"][0]["max_ms"] += 1.0
    (copy / "records.jsonl").write_text("".join(json.dumps(game) + "\n" for game in games))
    result = invoke("replay", "--run", copy)
    assert result.exit_code == 1
    assert result.stderr.strip() == (f"{copy / 'records.jsonl'}: does not match its checksum in "
                                     "manifest.json")


def test_swapped_winners_disagree_with_the_replay_and_the_run(tmp_path, run):
    def edit(games):
        result = games[0]["result"]
        result["winners"] = [1 - seat for seat in result["winners"]]

    result = replay_edited(tmp_path, run, edit, "--run", run)
    assert result.exit_code == 1
    assert "record 1 (game id 0): winners " in result.stderr
    assert "game id 0: result winners is " in result.stderr


def test_replay_run_of_a_run_without_records_is_one_line(tmp_path):
    out = tmp_path / "run"
    assert invoke("tourney", "--variant", "classic", "-p", "easy", "-p", "medium", "--games",
                  "2", "-j", "1", "--silent", "--out", out).exit_code == 0
    result = invoke("replay", "--run", out)
    assert result.exit_code == 1 and "the run kept no records" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_records_of_a_run_on_fixed_deals_replay_against_their_run(run, tmp_path):
    """With --deals the first hand is the deals file's (`fixed_deal`), the later hands the seed's:
    the records replay clean, and one that hides where its first hand came from does not."""
    deals = tmp_path / "deals.jsonl"
    assert invoke("deals", run, deals).exit_code == 0
    out = tmp_path / "fixed"
    result = invoke("tourney", "--variant", "classic", "-p", "easy", "-p", "medium", "--deals",
                    deals, "-j", "1", "--seed", "11", "--records", "--silent", "--out", out)
    assert result.exit_code == 0, result.output
    assert all(record["fixed_deal"] is True for record in records(out))
    checked = invoke("replay", "--run", out)
    assert checked.exit_code == 0, checked.output
    hidden = replay_edited(tmp_path, out, lambda edited: [r.pop("fixed_deal") for r in edited])
    assert hidden.exit_code == 1 and "are not what the record's seed deals" in hidden.output
