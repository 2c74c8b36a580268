"""Issue 48, one vocabulary: every command's summary whole in `domsim --help`, `--game-lines`
described as it prints, one unit per option name (the old `--tolerance` still taken, with a
note), and domsim's own one-line errors for a folder given to `replay` and a `--game` that is no
number."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clitools import invoke, one_line_error

from domsim.cli import main

README = (Path(__file__).parent.parent / "README.md").read_text()
#: A game line, as `--game-lines` prints one (the scores by side, in seat order).
GAME_LINE = re.compile(r"Finished game \d+ \(\S+ vs \S+\): \S+ wins "
                       r"\{\S+ \d+, \S+ \d+, \d+ hands(, \d+ faults?)?\}")


def test_every_summary_in_domsim_help_is_whole():
    shown = invoke("--help").stdout.split("Commands:")[1].splitlines()
    summaries = {line.split()[0]: line.split(None, 1)[1] for line in shown if line.strip()}
    assert set(summaries) == set(main.commands)
    for name, summary in summaries.items():
        assert summary == main.commands[name].short_help and not summary.endswith("..."), name


def test_game_lines_are_described_as_they_print(tmp_path):
    result = invoke("tourney", "--variant", "block", "-p", "easy", "-p", "hard", "--games", "2",
                    "--seed", "2", "-j", "1", "--silent", "--game-lines", "--out",
                    str(tmp_path / "run"))
    printed = [line for line in result.stdout.splitlines() if line.startswith("Finished")]
    assert len(printed) == 2 and all(GAME_LINE.fullmatch(line) for line in printed), printed
    helped = " ".join(invoke("tourney", "--help").stdout.split())
    examples = {found for text in (helped, " ".join(README.split()))
                for found in re.findall(r"`(Finished game 12 [^`]*)`", text)}
    assert len(examples) == 1 and GAME_LINE.fullmatch(examples.pop())


@pytest.mark.parametrize("command, old, new", [
    (["calibrate", "--variant", "classic"], "--tolerance", "--tolerance-elo"),
    (["tune", "--variant", "classic"], "--tolerance", "--win-rate-tolerance")])
def test_an_option_has_one_unit_and_its_old_name_still_works(tmp_path, command, old, new):
    helped = invoke(command[0], "--help").stdout
    assert new in helped and f"{old} " not in helped
    both = invoke(*command, old, "0.1", new, "0.1", "--out", str(tmp_path / "both"))
    assert both.exit_code == 1 and f"{old} is {new}'s old name: give it once" in both.stderr
    narrow = invoke(*command[:3], "--win-rate", "0.99", old, "0.1", "--out",
                    str(tmp_path / "old")) if command[0] == "tune" else None
    if narrow is not None:  # taken as the new name is: refused for what it says, with a note
        assert narrow.exit_code == 1 and "must lie inside (0, 1)" in narrow.stderr
        assert f"domsim: {old} is now {new}; the old name will go" in narrow.stderr
    assert not any(tmp_path.iterdir())


def test_replay_of_a_folder_and_a_game_that_is_no_number_fail_in_domsims_words(tmp_path):
    one_line_error(invoke("replay", str(tmp_path)),
                   f"{tmp_path} is a folder: give a records file, or check a run's records "
                   f"with: domsim replay --run {tmp_path}")
    one_line_error(invoke("replay", str(tmp_path / "none.jsonl")), "does not exist")
    for bad in ("x", "-1", "1.5"):
        one_line_error(invoke("show", str(tmp_path), "--game", bad),
                       f"--game {bad!r}: give a game by its number")
