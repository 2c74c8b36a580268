"""The `domsim` command line: variants, play, replay, and one-line errors for bad input.

click 8.5's `result.output` mixes stdout and stderr, so machine output is read from
`result.stdout` and messages from `result.stderr`."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from domsim import __version__
from domsim.cli import main

# docs/RULES.md: variant -> player counts (R-SCORE-BASIC, R-FIVES, R-SPINNER, R-CLASSIC, R-KOZEL,
# R-PARTNERSHIP, R-PARTNERSHIP-1V1) and the options R-DETAIL allows beyond `target`.
PLAYER_COUNTS = {
    "draw": (2, 3, 4), "block": (2, 3, 4), "fives": (2,), "allfives": (2, 3, 4),
    "classic": (2, 3, 4), "kozel": (4,), "partnership": (4,), "partnership-1v1": (2,),
}
PLAY_LINE = re.compile(r"^  seat (\d) plays (\d)-(\d)(?: on end (\d))?\s+ends ((?:\d ?)+?)\s*"
                       r"(?:count (\d+): scores (\d+))?$")


def run(*args: str) -> object:
    return CliRunner().invoke(main, list(args), prog_name="domsim")


def assert_one_line_error(result) -> str:
    """A user error: non-zero exit, one line on stderr, no traceback."""
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def play(tmp_path, *args: str, name: str = "game.json"):
    path = tmp_path / name
    result = run("play", *args, "--record", str(path))
    assert result.exit_code == 0, result.output
    return result, path


# -- variants ----------------------------------------------------------------------------------
def test_variants_lists_all_eight_rule_sets_with_player_counts_and_options():
    result = run("variants")
    assert result.exit_code == 0
    lines = {line.split()[0]: line for line in result.stdout.splitlines() if line[:1].strip()}
    assert set(lines) == set(PLAYER_COUNTS)
    for name, counts in PLAYER_COUNTS.items():
        assert f"players {'/'.join(map(str, counts))} " in lines[name]
        assert "options:" in lines[name]
    for option in ("capicu_bonus", "count=all|losers", "fish=lower|maker", "lead=winner|fid"):
        assert option in lines["partnership"]
        assert option not in lines["kozel"]
    assert "options: none" in lines["classic"]
    assert "target" in lines["kozel"].split("options:")[1]


# -- play ----------------------------------------------------------------------------------------
def _check_transcript(stdout: str, record: dict) -> None:
    """Every action of the record appears in order, each play with the ends after it, then the
    hand's result and the scores (R-LINE: the played tile shows the number of the end it covered
    and now shows its other number there)."""
    lines = stdout.splitlines()
    assert lines[0].startswith(f"{record['variant']}, {record['players']} players, seed ")
    actions = [a for hand in record["hands"] for a in hand["actions"]]
    action_lines = [line for line in lines if re.match(r"^  seat \d (plays|draws|passes)", line)]
    assert len(action_lines) == len(actions)
    ends: list[int] = []
    for line, action in zip(action_lines, actions, strict=True):
        seat = action["seat"]
        if "draw" in action:
            assert line == f"  seat {seat} draws {action['draw']}"
        elif "pass" in action:
            assert line == f"  seat {seat} passes"
        else:
            match = PLAY_LINE.match(line)
            assert match, line
            assert int(match[1]) == seat
            tile = {int(match[2]), int(match[3])}
            shown = [int(n) for n in match[5].split()]
            if match[4] is None:  # the lead: its two numbers are the two ends
                assert shown == [int(match[2]), int(match[3])]
            else:
                end = int(match[4])
                assert ends[end] in tile and shown[end] in tile
                assert len(tile) == 1 or shown[end] != ends[end]
            ends = shown
    hands = [line for line in lines if line.startswith("Hand ")]
    results = [line for line in lines if line.startswith("  => ")]
    assert len(hands) == len(results) == len(record["hands"])
    for line, hand in zip(results, record["hands"], strict=True):
        assert line.startswith(f"  => {hand['result']['end']}")
        assert f"scores {hand['result']['scores']}" in line
    assert sum(line.startswith("  seat ") and " holds " in line for line in lines) == sum(
        len(hand["deal"]["hands"]) for hand in record["hands"])
    final, last = record["result"], lines[-2 if lines[-1].startswith("record") else -1]
    # the final scores by side, by name (issue 48), where the game has a target
    scored = re.search(r"\(scores (.*)\)$", last)
    assert [int(n) for n in re.findall(r" (-?\d+)(?:,|$)", scored[1])] == final["scores"] \
        if scored else all(score == 0 for score in final["scores"]), last


@pytest.mark.parametrize("variant", PLAYER_COUNTS)
def test_play_prints_a_transcript_and_writes_a_record_replay_accepts(tmp_path, variant):
    result, path = play(tmp_path, "--variant", variant, "-p", "easy", "--seed", "3")
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["variant"] == variant
    assert record["players"] == PLAYER_COUNTS[variant][0]
    _check_transcript(result.stdout, record)
    assert result.stdout.rstrip().endswith(f"record written to {path}")
    replayed = run("replay", str(path))
    assert replayed.exit_code == 0, replayed.output
    assert "every action legal" in replayed.stdout


@pytest.mark.parametrize("args, players", [
    (("--variant", "allfives", "-n", "4"), 4),
    (("--variant", "block", "-p", "easy", "-p", "easy", "-p", "easy"), 3),
    (("--variant", "partnership", "-o", "capicu_bonus=25", "-o", "lead=fid"), 4),
    (("--variant", "fives", "-o", "target=40"), 2),
])
def test_play_takes_players_and_options(tmp_path, args, players):
    result, path = play(tmp_path, *args, "--seed", "8")
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["players"] == players and len(record["seats"]) == players
    _check_transcript(result.stdout, record)
    assert run("replay", str(path)).exit_code == 0


def test_play_transcripts_show_draws_and_passes(tmp_path):
    seen = set()
    for seed in range(20):
        result, _ = play(tmp_path, "-v", "draw", "-n", "4", "--seed", str(seed),
                         name=f"{seed}.json")
        seen |= {kind for kind in ("draws", "passes") if f" {kind}" in result.stdout}
        if len(seen) == 2:
            break
    assert seen == {"draws", "passes"}


def test_play_is_reproducible_from_its_seed(tmp_path):
    """R-RNG: the same seed, variant, options and strategies give the same game."""
    first, _ = play(tmp_path, "-v", "kozel", "--seed", "12", name="a.json")
    again, _ = play(tmp_path, "-v", "kozel", "--seed", "12", name="b.json")
    assert first.stdout.replace("b.json", "a.json") == again.stdout.replace("b.json", "a.json")


def test_play_without_a_seed_deals_afresh_and_prints_the_seed_that_replays_it(tmp_path):
    """Two games started at once differ; the seed printed first plays the same game again."""
    first, a = play(tmp_path, "-v", "draw", name="a.json")
    second, _ = play(tmp_path, "-v", "draw", name="b.json")
    seeds = []
    for result in (first, second):
        head = re.fullmatch(r"seed (\d+): replay this game with --seed (\d+)",
                            result.stdout.splitlines()[0])
        assert head and head[1] == head[2], result.stdout
        seeds.append(int(head[1]))
    assert seeds[0] != seeds[1] and json.loads(a.read_text())["seed"] == seeds[0]
    again, _ = play(tmp_path, "-v", "draw", "--seed", str(seeds[0]), name="c.json")
    assert again.stdout.replace("c.json", "a.json") == \
        first.stdout.split("\n", 1)[1]  # the same game, without the seed's line


def test_an_existing_record_file_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("precious\n", encoding="utf-8")
    result = run("play", "-v", "draw", "--record", str(path))
    assert str(path) in assert_one_line_error(result)
    assert path.read_text(encoding="utf-8") == "precious\n"


def test_an_unwritable_record_path_is_a_one_line_error(tmp_path):
    result = run("play", "-v", "draw", "--record", str(tmp_path / "missing" / "game.json"))
    assert "missing" in assert_one_line_error(result)


# -- replay --------------------------------------------------------------------------------------
def _write(tmp_path, records, name: str = "records.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _game(tmp_path, variant: str = "draw", seed: int = 4) -> dict:
    _, path = play(tmp_path, "-v", variant, "--seed", str(seed), name=f"{variant}{seed}.json")
    return json.loads(path.read_text(encoding="utf-8"))


def test_replay_exits_1_naming_the_first_illegal_action(tmp_path):
    good = _game(tmp_path)
    bad = json.loads(json.dumps(good))
    actions = bad["hands"][0]["actions"]
    actions[2]["seat"] = 1 - actions[2]["seat"]
    result = run("replay", str(_write(tmp_path, [good, bad])))
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        f"game 2, hand 1, action 3: seat {actions[2]['seat']} acted but seat "
        f"{1 - actions[2]['seat']} is to move"]
    assert "Traceback" not in result.output


def test_replay_reports_every_wrong_result(tmp_path):
    record = _game(tmp_path)
    record["hands"][0]["result"]["points"] = [999, 999]
    record["result"]["complete"] = not record["result"]["complete"]
    result = run("replay", str(_write(tmp_path, [record])))
    assert result.exit_code == 1
    problems = result.stderr.strip().splitlines()
    assert len(problems) == 3
    assert problems[0].startswith("game 1, hand 1: result points is [999, 999], replay gives")
    assert problems[1].startswith("game 1: result complete is")
    assert "its digest differs" in problems[2]  # and the record is no longer as domsim wrote it


def test_replay_json_prints_recomputed_records_ignoring_wrong_results(tmp_path):
    games = [_game(tmp_path, "allfives", 1), _game(tmp_path, "kozel", 2)]
    broken = json.loads(json.dumps(games))
    for record in broken:
        for hand in record["hands"]:
            hand["result"]["scores"] = [0] * len(hand["result"]["scores"])
        del record["result"]
    result = run("replay", "--json", str(_write(tmp_path, broken)))
    assert result.exit_code == 0, result.output
    printed = [json.loads(line) for line in result.stdout.splitlines()]
    assert printed == games


def test_replay_json_still_fails_on_an_illegal_action(tmp_path):
    record = _game(tmp_path)
    record["hands"][0]["actions"].pop()
    result = run("replay", "--json", str(_write(tmp_path, [record])))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "game 1, hand 1: the actions stop before the hand is over" in result.stderr


def test_replay_of_a_missing_file_is_domsims_one_line_error(tmp_path):
    """issue 48: domsim's own error, in one line (it was click's usage error)."""
    result = run("replay", str(tmp_path / "nope.json"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.strip() == (f"Error: {tmp_path / 'nope.json'} does not exist: give a "
                                     "records file (`play --record`'s, a run's records.jsonl)")


# -- bad input -----------------------------------------------------------------------------------
@pytest.mark.parametrize("args, words", [
    (("play", "--variant", "chess"), "unknown variant 'chess'"),
    (("play", "--variant", "kozel", "--players", "2"), "not 2"),
    (("play", "--variant", "fives", "--players", "3"), "not 3"),
    (("play", "--variant", "draw", "-o", "colour=red"), "no option 'colour'"),
    (("play", "--variant", "classic", "-o", "target=5"), "no option 'target'"),
    (("play", "--variant", "draw", "-o", "target=0"), "target=0"),
    (("play", "--variant", "draw", "-o", "target=-5"), "target"),
    (("play", "--variant", "draw", "-o", "target=lots"), "target"),
    (("play", "--variant", "partnership", "-o", "count=most"), "count"),
    (("play", "--variant", "partnership", "-o", "capicu_bonus=-1"), "capicu_bonus"),
    (("play", "--variant", "draw", "-o", "target"), "KEY=VALUE"),
    (("play", "--variant", "draw", "-p", "grandmaster"), "grandmaster"),
    (("play", "--variant", "draw", "-p", "easy", "-p", "easy", "-p", "easy", "-n", "2"), "2"),
])
def test_bad_play_input_is_a_one_line_error(args, words):
    assert words in assert_one_line_error(run(*args))


@pytest.mark.parametrize("text, words", [
    ("{not json\n", "not valid JSON"),
    ('{"variant": "draw", "players": 2, "hands": "many"}\n', "field 'hands'"),
    ('{"variant": 7, "hands": []}\n', "field 'variant'"),
    ('{"variant": "draw", "players": "two", "hands": []}\n', "field 'players'"),
    ('{"variant": "draw", "options": {"target": "x"}, "hands": []}\n', "target"),
    ('[1, 2, 3]\n', "not a JSON object"),
])
def test_bad_replay_input_is_a_one_line_error(tmp_path, text, words):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    assert words in assert_one_line_error(run("replay", str(path)))


def test_a_record_with_a_wrong_field_type_deep_inside_is_a_one_line_error(tmp_path):
    record = _game(tmp_path)
    index = next(i for i, a in enumerate(record["hands"][0]["actions"]) if "end" in a)
    record["hands"][0]["actions"][index]["end"] = "left"
    path = _write(tmp_path, [record])
    result = run("replay", str(path))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.strip().splitlines() == [
        f"game 1, hand 1, action {index + 1}: end must be an integer 0..3, not 'left'"]


def test_a_binary_file_is_a_one_line_error(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff")
    assert "not UTF-8" in assert_one_line_error(run("replay", str(path)))


# -- version and help ------------------------------------------------------------------------------
def test_version():
    result = run("--version")
    assert result.exit_code == 0 and __version__ in result.stdout and "domsim" in result.stdout


@pytest.mark.parametrize("args", [("-h",), ("--help",), ("play", "-h"), ("replay", "-h"),
                                  ("variants", "-h")])
def test_help(args):
    result = run(*args)
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: domsim")
    if len(args) == 1:
        assert all(name in result.stdout for name in ("play", "replay", "variants"))
    else:
        assert "Example: domsim" in result.stdout


def test_a_closed_pipe_ends_the_output_quietly():
    """`domsim ... | head`: once the reader has gone, the command stops without a message."""
    read, write = os.pipe()
    os.close(read)
    try:
        child = subprocess.run([str(Path(sys.executable).with_name("domsim")), "play",
                                "--variant", "classic", "-p", "easy", "--seed", "3"],
                               stdout=write, stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write)
    assert child.returncode != 0 and child.stderr == ""


@pytest.mark.parametrize("command", sorted(main.commands))
def test_help_shows_no_empty_range_and_no_png(command):
    """An unbounded number shows no `[x<=None]`; the report's charts are SVG."""
    text = run(command, "--help").stdout
    assert "None]" not in text and "PNG" not in text


@pytest.mark.parametrize("args, wanted", [
    (("play", "--variant", "blok"), "unknown variant 'blok': did you mean 'block'?"),
    (("play", "--variant", "block", "-p", "hadr"), "unknown strategy 'hadr': did you mean 'hard'?"),
    (("play", "--variant", "block", "-p", "insanr?preset=lean"),
     "unknown strategy 'insanr': did you mean 'insane'?"),
    (("play", "--variant", "block", "-o", "targt=50"),
     "block has no option 'targt' (did you mean 'target'?"),
    (("calibrate", "--variant", "fievs"), "unknown variant 'fievs': did you mean 'fives'?"),
])
def test_a_typo_gets_one_suggestion_and_the_name_once(args, wanted):
    """issue 38: an unknown variant, level, option or entry point gets one "did you mean 'X'?",
    and names the typo once."""
    line = assert_one_line_error(run(*args))
    assert wanted in line and line.count("did you mean") == 1
    typo = wanted.split("'")[1]
    assert line.count(f"'{typo}'") == 1, line


def test_game_lines_tell_each_finished_game_as_its_row_says(tmp_path):
    """issue 38: `--game-lines` prints a line a game, as cutechess's "Finished game N": the id
    `show --game` takes, the winner and each side's score by its entrant."""
    import pyarrow.parquet as pq

    result = run("tourney", "--variant", "block", "-p", "easy", "-p", "medium", "--games", "6",
                 "--seed", "2", "-j", "2", "--game-lines", "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if line.startswith("Finished game")]
    rows = pq.read_table(tmp_path / "run" / "games.parquet").to_pylist()
    assert len(lines) == len(rows) == 6
    by_id = {int(re.match(r"Finished game (\d+) ", line)[1]): line for line in lines}
    for row in rows:
        line = by_id[row["game_id"]]
        assert f"({row['pairing']}): {row['winner_entrants'][0]} wins" in line
        assert f"{row['entrant_0']} {row['score_0']}, {row['entrant_1']} {row['score_1']}" in line
