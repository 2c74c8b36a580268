"""The human seat (domsim.human): `domsim play -p human -p hard` played at a pseudo-terminal as
a person would, typing move numbers, and the seat's help, history, bad input and leaving the
table through a scripted terminal."""

from __future__ import annotations

import json
import os
import pty
import random
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest

import domsim
from domsim.record import verify
from domsim.strategy import StrategyError

DOMSIM = str(Path(sys.executable).with_name("domsim"))
PROMPT = re.compile(r"Your move \(1-(\d+), \? for help\): $")
LISTED = re.compile(r"^  (\d+)\) (?:lead (\d-\d)|(\d-\d) on end (\d) \(the \d\).*)$")
MINE = re.compile(r"^  you (?:lead (\d-\d)|play (\d-\d) on end (\d))( \(your only move.*)?$")


class Pty:
    """A child process on a pseudo-terminal: read until a pattern, type lines."""

    def __init__(self, command: list[str], cwd: Path) -> None:
        self.master, slave = pty.openpty()
        self.child = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, cwd=cwd,
                                      close_fds=True)
        os.close(slave)
        self.text = ""

    def read_until(self, pattern: re.Pattern, timeout: float = 60) -> re.Match | None:
        """The match at the end of the output so far, or None once the child has ended."""
        while True:
            if match := pattern.search(self.text):
                return match
            ready, _, _ = select.select([self.master], [], [], timeout)
            assert ready, f"no output for {timeout} s; so far:\n{self.text[-2000:]}"
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # EIO: the child closed the terminal
                return None
            if not chunk:
                return None
            self.text += chunk.decode().replace("\r\n", "\n")

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())
        self.text = ""  # what is read next answers this line (the echo comes first)

    def close(self) -> int:
        os.close(self.master)
        return self.child.wait(timeout=60)


def listed_moves(screen: str) -> dict[int, tuple[str, int | None]]:
    moves = {}
    for line in screen.splitlines():
        if m := LISTED.match(line):
            moves[int(m[1])] = (m[2], None) if m[2] else (m[3], int(m[4]))
    return moves


def test_a_person_plays_a_whole_game_against_hard_by_typing_numbers(tmp_path):
    """Every prompt lists the legal moves numbered from 1; the typed number is the move played,
    forced moves are announced and never asked, and the record of the game replays."""
    record = tmp_path / "game.json"
    term = Pty([DOMSIM, "play", "--variant", "draw", "-p", "human", "-p", "hard", "--seed", "5",
                "--record", str(record)], tmp_path)
    rng, typed, screens, log = random.Random(1), [], [], []
    while (prompt := term.read_until(PROMPT)) is not None:
        screen = term.text
        log.append(screen)
        moves = listed_moves(screen)
        assert sorted(moves) == list(range(1, int(prompt[1]) + 1)), screen
        if typed:  # the move typed last is the first of mine told since, as it was listed
            mine = [MINE.match(line) for line in screen.splitlines() if MINE.match(line)]
            assert mine and not mine[0][4], screen
            assert (mine[0][1], None) if mine[0][1] else (mine[0][2], int(mine[0][3])) \
                == typed[-1], screen
        choice = rng.randint(1, len(moves))
        typed.append(moves[choice])
        screens.append(screen)
        term.type(str(choice))
    log.append(term.text)
    assert term.close() == 0
    output = "".join(log)
    assert "Traceback" not in output
    assert "Game over: " in output and f"record written to {record}" in output
    assert "you are seat 0" in output and "seat 1 (hard) plays" in output
    assert "(your only move: played for you)" in output and "you draw" in output
    assert len(typed) >= 10
    game = json.loads(record.read_text())
    assert game["seats"] == ["human", "hard"] and game["result"]["complete"]
    assert game["faults"][0]["first"] is None
    recomputed, problems = verify(game, 0)
    assert problems == [] and recomputed is not None
    chosen = iter((tile_key(a["play"]), a.get("end")) for hand in game["hands"]
                  for a in hand["actions"] if a["seat"] == 0 and "play" in a)
    assert all((tile_key(tile), end) in chosen for tile, end in typed)  # in the order typed


def tile_key(tile: str) -> str:
    return "-".join(sorted(tile.split("-")))


class Script:
    """A terminal that types the given lines, then nothing (end of input)."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.said: list[str] = []

    def say(self, line: str) -> None:
        self.said.append(line)

    def ask(self, prompt: str) -> str | None:
        self.said.append(prompt)
        return self.lines.pop(0) if self.lines else None


def test_help_history_and_bad_input_are_answered_then_a_number_plays():
    script = Script("?", "h", "x", "0", "99", "1")
    record = domsim.play("block", ["human", "hard"], seed=2, terminal=script)
    text = "\n".join(script.said)
    assert "Type the number of a move and Enter" in text
    assert "'x' is no move: type a number from 1 to" in text and "'99' is no move" in text
    assert "'0' is no move" in text
    assert text.count("Your move (1-") >= 7  # six answers, then the end of input
    assert record["faults"][0]["replaced"] and "left the table" in record["faults"][0]["first"]


def test_leaving_the_table_hands_the_seat_to_a_bot_and_keeps_a_whole_record():
    """`q` (as the end of input) mid-game: the stand-in plays on, the record is complete and
    replays; the person is told so and told nothing more."""
    script = Script("1", "q", "1")
    record = domsim.play("fives", ["hard", "human"], seed=4, terminal=script)
    said = "\n".join(script.said)
    assert "You left the table: medium plays your seat to the end of the game" in said
    assert script.lines == ["1"] and "Game over" not in said.split("You left the table")[1]
    assert record["result"]["complete"] and verify(record, 0)[1] == []
    assert record["faults"][1] == {"timeouts": 0, "errors": 0, "illegal": 0, "replaced": True,
                                   "first": "the player left the table in hand 1"}


@pytest.mark.parametrize("variant,seats", [("kozel", ["human", "hard", "easy", "hard"]),
                                           ("allfives", ["easy", "medium", "human"])])
def test_a_person_sees_partner_counts_and_scores_in_any_variant(variant, seats):
    script = Script(*["1"] * 400)
    record = domsim.play(variant, seats, seed=3, terminal=script)
    text = "\n".join(script.said)
    seat = seats.index("human")
    assert f"you are seat {seat}" in text and "Your hand: " in text and "Others: " in text
    assert ("with seat 2 as your partner" in text) == (variant == "kozel")
    assert ("count " in text) == (variant == "allfives")
    assert "Game over: " in text and verify(record, 0)[1] == []


def test_a_human_seat_needs_a_terminal():
    with pytest.raises(StrategyError, match="a human seat plays only at a terminal"):
        domsim.play("block", ["human", "easy"], seed=1)
