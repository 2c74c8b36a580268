"""`--debug` (issue 38, item 1): every line of the seat protocol, with the bot and the game, in
protocol.log of the run folder (tourney, compare) or on stderr (play), as cutechess-cli's
`-debug` shows every line to and from an engine. A traced bot is offered JSON only, so every
line passes through Python, and plays the same games."""

from __future__ import annotations

import json
import re
from pathlib import Path

from clitools import invoke, one_line_error
from test_tourney import table

GREEDY = str(Path(__file__).resolve().parents[1] / "strategies" / "example_greedy.py")
RUN = ["tourney", "--variant", "block", "-p", GREEDY, "-p", "easy", "--games", "4", "--seed",
       "2", "-j", "1", "--silent", "--run-key", "5eed" * 8]


def traced(path: Path) -> list[list[str]]:
    """protocol.log's lines as (time, bot, game, way, message)."""
    return [line.split(" ", 4) for line in path.read_text().splitlines()]


def test_a_traced_tourney_logs_every_line_by_bot_and_game_and_plays_the_same_games(tmp_path):
    plain, debug = tmp_path / "plain", tmp_path / "debug"
    assert invoke(*RUN, "--out", str(plain)).exit_code == 0
    result = invoke(*RUN, "--debug", "--out", str(debug))
    assert result.exit_code == 0, result.output
    assert table(debug) == table(plain)  # JSON or compact, the bot chooses alike
    assert not (plain / "protocol.log").exists()
    lines = traced(debug / "protocol.log")
    assert {bot for _, bot, _, _, _ in lines} == {GREEDY}
    hello = json.loads(lines[0][4])
    assert lines[0][3] == ">" and hello["type"] == "hello" and hello["encodings"] == ["json"]
    games = {game for _, _, game, _, message in lines if json.loads(message)["type"] != "hello"}
    assert games == {f"game-{n}" for n in range(4)}  # a process's hello comes before its games
    kinds = [(way, json.loads(message)["type"]) for _, _, _, way, message in lines]
    assert (">", "choose") in kinds and ("<", "move") in kinds
    assert sum(kind == (">", "choose") for kind in kinds) == sum(
        kind == ("<", "move") for kind in kinds)


def test_play_traces_to_stderr_and_compare_to_its_folder(tmp_path):
    played = invoke("play", "--variant", "block", "-p", GREEDY, "-p", "easy", "--seed", "3",
                    "--debug")
    assert played.exit_code == 0, played.output
    assert re.search(rf"{re.escape(GREEDY)} game-seed-\d+ > ", played.stderr) and \
        '"type":"choose"' in played.stderr
    compared = invoke("compare", GREEDY, "easy", "--variant", "block", "--games", "4",
                      "--seed", "2", "-j", "1", "--silent", "--debug", "--out",
                      str(tmp_path / "cmp"))
    assert compared.exit_code == 0, compared.output
    assert any(way == "<" for _, _, _, way, _ in traced(tmp_path / "cmp" / "protocol.log"))


def test_debug_is_refused_on_dask_in_one_line(tmp_path):
    one_line_error(invoke(*RUN, "--debug", "--backend", "dask", "--scheduler", "tcp://x:1",
                          "--out", str(tmp_path / "run")), "--debug traces the bots of local")
