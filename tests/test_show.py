"""`domsim show` (any game of a run or a records file, as a transcript) and `domsim deals
--variant` (a deal book from a seed, without a run); games named as stored, hands from 1."""

from __future__ import annotations

import json

from clitools import invoke, one_line_error

BLOCK = ["tourney", "--variant", "block", "-p", "easy", "-p", "hard", "--games", "12", "--seed",
         "5", "-j", "1", "--silent"]


def test_a_game_of_a_run_is_shown_from_its_records_or_played_again_alike(tmp_path):
    kept, bare = tmp_path / "kept", tmp_path / "bare"
    assert invoke(*BLOCK, "--records", "--out", str(kept)).exit_code == 0
    assert invoke(*BLOCK, "--out", str(bare)).exit_code == 0
    stored, again = invoke("show", str(kept), "--game", "7"), invoke("show", str(bare), "-g", "7")
    assert stored.exit_code == 0 and again.exit_code == 0, again.output
    assert stored.stdout.splitlines()[0] == f"game id 7 of {kept}, from records.jsonl"
    assert again.stdout.splitlines()[0].endswith("played again from its seed and seats (the run "
                                                 "kept no records)")
    assert stored.stdout.splitlines()[1:] == again.stdout.splitlines()[1:]
    record = json.loads((kept / "records.jsonl").read_text().splitlines()[7])
    assert f"seed {record['seed']}:" in stored.stdout and "Hand 1: seat " in stored.stdout
    assert stored.stdout.count("Hand ") == len(record["hands"])
    one_line_error(invoke("show", str(bare), "--game", "12"), "has no finished game 12: its game "
                                                              "ids are 0-11")
    assert invoke("show", str(bare)).exit_code == 2


def test_a_record_file_is_shown_by_game_id_or_place(tmp_path):
    game = tmp_path / "one.json"
    assert invoke("play", "--variant", "fives", "-p", "easy", "-p", "hard", "--seed", "2",
                  "--record", str(game)).exit_code == 0
    shown = invoke("show", str(game))
    assert shown.exit_code == 0 and shown.stdout.splitlines()[0] == f"game 1 of {game}"
    assert "count " in shown.stdout and "Game over: " in shown.stdout
    two = tmp_path / "two.jsonl"
    two.write_text(game.read_text() * 2)
    one_line_error(invoke("show", str(two)), "holds 2 games: choose one with --game N")
    assert invoke("show", str(two), "--game", "2").stdout.splitlines()[0] == f"game 2 of {two}"
    one_line_error(invoke("show", str(two), "--game", "3"), "a place from 1 to 2")


def test_a_deal_book_from_a_seed_is_what_a_run_of_that_seed_deals(tmp_path):
    run = tmp_path / "run"
    assert invoke(*BLOCK, "--out", str(run)).exit_code == 0
    from_run, from_seed = tmp_path / "run.jsonl", tmp_path / "seed.jsonl"
    assert invoke("deals", str(run), str(from_run)).exit_code == 0
    made = invoke("deals", "--variant", "block", "--count", "3", "--seed", "5", str(from_seed))
    assert made.exit_code == 0 and made.stdout == f"3 deals written to {from_seed}\n"
    assert from_seed.read_text().splitlines() == from_run.read_text().splitlines()[:3]
    again = tmp_path / "again"
    played = invoke("tourney", "--variant", "block", "-p", "easy", "-p", "hard", "--deals",
                    str(from_seed), "--seed", "9", "-j", "1", "--silent", "--out", str(again))
    assert played.exit_code == 0 and "6 games written" in played.stdout
    one_line_error(invoke("deals", "--variant", "block", str(from_seed)), "exists")


def test_a_deal_book_takes_players_and_options_and_refuses_mixed_forms(tmp_path):
    book = tmp_path / "kozel.jsonl"
    made = invoke("deals", "--variant", "partnership", "-o", "target=50", "--count", "2", str(book))
    assert made.exit_code == 0
    lines = [json.loads(line) for line in book.read_text().splitlines()]
    assert [(x["variant"], x["players"], x["options"], x["deal_id"]) for x in lines] == [
        ("partnership", 4, {"target": 50}, 0), ("partnership", 4, {"target": 50}, 1)]
    assert len(lines[0]["hands"][0]["deal"]["hands"]) == 4
    assert invoke("deals", str(tmp_path), "--count", "3", str(tmp_path / "x")).exit_code == 2
    assert invoke("deals", "--variant", "block", str(tmp_path), str(tmp_path / "x")).exit_code == 2
    one_line_error(invoke("deals", "--variant", "nope", str(tmp_path / "y")), "nope")
