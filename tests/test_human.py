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

import click
import pytest
from arithmetic import evaluate

import domsim
from domsim._core import line_counts
from domsim.cli import ConsoleTerminal
from domsim.engine import State
from domsim.human import HELP, HumanSeat
from domsim.record import replay_steps, verify
from domsim.rules import make_rules
from domsim.spec import Spec
from domsim.strategy import StrategyError
from domsim.tabletalk import (
    Names,
    distinct_moves,
    held_lines,
    laid_tiles,
    line_rows,
    points_lines,
    read_move,
    which_end,
)
from domsim.tiles import Tile, mask_of, parse_tile, tile_id, tile_name, tiles_of
from domsim.transcript import transcript_lines
from domsim.view import Move, ViewBuilder

DOMSIM = str(Path(sys.executable).with_name("domsim"))
PROMPT = re.compile(r"Your move \(1-(\d+) or a tile, \? for help\): $")
LISTED = re.compile(r"^  (\d+)\) (?:lead (\d-\d)|(\d-\d) on end (\d) \(the \d\).*)$")
MINE = re.compile(r"^  you (?:lead (\d-\d)|play (\d-\d) on end (\d))( \(your only move.*)?$")


class Pty:
    """A child process on a pseudo-terminal: read until a pattern, type lines. `color`: the
    terminal has colour (TERM=xterm), else NO_COLOR is set."""

    def __init__(self, command: list[str], cwd: Path, color: bool = False) -> None:
        self.master, slave = pty.openpty()
        env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
        env |= {"TERM": "xterm"} if color else {"NO_COLOR": "1"}
        self.child = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, cwd=cwd,
                                      close_fds=True, env=env)
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
    assert "Traceback" not in output and "\x1b[" not in output  # NO_COLOR: plain text
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
    """A terminal that types the given lines, then nothing (end of input); `width` columns,
    in colour when `color`."""

    def __init__(self, *lines: str, width: int = 80, color: bool = False) -> None:
        self.lines = list(lines)
        self.said: list[str] = []
        self.width, self.color = width, color

    def say(self, line: str) -> None:
        self.said.append(line)

    def ask(self, prompt: str) -> str | None:
        self.said.append(prompt)
        return self.lines.pop(0) if self.lines else None


def test_help_history_and_bad_input_are_answered_then_a_number_plays():
    script = Script("?", "h", "x", "0", "99", "1")
    record = domsim.play("block", ["human", "hard"], seed=2, terminal=script)
    text = "\n".join(script.said)
    assert "Type the number of a move, or its tile" in text
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


# -- the table a person enjoys (issue 40) ---------------------------------------------------------
def position(variant: str, hands: list[str], leader: int, plays: list[tuple[str, int]]):
    """The view of the seat to move once `plays` (a tile and its end; the lead's end 1 lays it
    flipped) are laid from `hands` (each seat's tiles, nothing to draw)."""
    state = State(make_rules(variant, len(hands)))
    state.start_hand([mask_of(tile_id(*parse_tile(t)) for t in hand.split()) for hand in hands],
                     [], leader, -1)
    for tile, end in plays:
        state.play(tile_id(*parse_tile(tile)) << 2 | end)
    return ViewBuilder().view(state, state.legal_moves())


def seat_at(view, script: Script, specs: list[str]) -> HumanSeat:
    seat = HumanSeat(view.seat, script, lambda: None, list(map(Spec.of, specs)), "a test")
    seat.start_game(view.rules)
    return seat


def test_the_line_runs_from_end_0_through_the_lead_to_end_1_wrapped_to_the_width():
    """docs/GAME-RECORD.md "Ends": the lead shows end 0's number first (flipped when laid on
    end 1), end 0's arm grows leftwards, end 1's rightwards; rows fit the terminal."""
    view = position("block", ["3-5 1-2", "5-5 1-5 0-0"], 1, [("5-5", 0), ("3-5", 0), ("1-5", 1)])
    assert line_rows(laid_tiles(view.rules, view.line), 80) == ["Line: [3|5][5|5][5|1]"]
    assert line_rows(laid_tiles(view.rules, view.line), 20) == ["Line: [3|5][5|5]", "      [5|1]"]
    flipped = position("block", ["2-6 0-0", "1-1"], 0, [("2-6", 1)])
    assert flipped.ends == (6, 2)
    assert line_rows(laid_tiles(flipped.rules, flipped.line), 80) == ["Line: [6|2]"]


def test_the_spinners_short_sides_are_rows_of_their_own_and_counts_follow_the_core():
    """R-SPINNER: ends 2 and 3 grow from the spinner; the count after each play is the core's."""
    plays = [("5-5", 0), ("1-5", 0), ("2-5", 1), ("3-5", 2), ("5-6", 3), ("3-4", 2)]
    view = position("allfives", ["5-5 2-5 5-6 0-0", "1-5 3-5 3-4 0-1"], 0, plays)
    assert line_rows(laid_tiles(view.rules, view.line), 80) == [
        "Line: [1|5][5|5][5|2]", "  end 2: [5|3][3|4]", "  end 3: [5|6]"]
    counts = []
    for number in range(1, len(plays) + 1):
        state = State(make_rules("allfives", 2))
        state.start_hand([mask_of(tile_id(*parse_tile(t)) for t in hand.split())
                          for hand in ("5-5 2-5 5-6 0-0", "1-5 3-5 3-4 0-1")], [], 0, -1)
        for tile, end in plays[:number]:
            state.play(tile_id(*parse_tile(tile)) << 2 | end)
        counts.append(state.fives_count())
    laid = laid_tiles(view.rules, view.line)
    assert [tile.count for tile in laid] == counts == [10, 11, 3, 6, 12, 13]
    with pytest.raises(ValueError, match="does not fit the line"):
        line_counts(view.rules, [tile_id(5, 5) << 2, tile_id(0, 0) << 2 | 1])


CELLS = re.compile(r"\[(\d)\|(\d)\]")


def test_every_screen_shows_the_line_chained_and_ending_on_the_open_ends():
    """At each choice of an allfives game the line's tiles touch number to number, its outer
    numbers are ends 0 and 1, each short side starts at the spinner and ends on its end; no
    row is wider than the terminal."""
    script = Script(*["1"] * 400, width=30)
    domsim.play("allfives", ["human", "easy"], seed=3, terminal=script)
    screens = "\n".join(script.said).split("Your move")
    checked = {"wrapped": 0, "spinner": 0}
    for screen in screens:
        lines = screen.splitlines()
        ends_line = next((line for line in lines if line.startswith("Ends: end")), None)
        if ends_line is None:
            continue
        ends = {int(e): int(n) for e, n in re.findall(r"end (\d): (\d)", ends_line)}
        start = next(i for i, line in enumerate(lines) if line.startswith("Line: "))
        rows = lines[start:lines.index(ends_line)]
        assert all(len(row) < 30 for row in rows), rows
        sections: list[list[str]] = []  # the line, then each short side, with their rows
        for row in rows:
            if row.startswith(("Line: ", "  end ")):
                sections.append([])
            sections[-1] += CELLS.findall(row)
        main = sections[0]
        for cells in sections:
            assert all(a[1] == b[0] for a, b in zip(cells, cells[1:], strict=False)), rows
        assert (int(main[0][0]), int(main[-1][1])) == (ends[0], ends[1]), rows
        checked["wrapped"] += len(rows) > len(sections)
        for row, side in zip([r for r in rows if r.startswith("  end ")], sections[1:],
                             strict=True):
            assert (side[0][0], side[0][0]) in main, rows  # it starts from the spinner
            assert int(side[-1][1]) == ends[int(row[6])], rows
            checked["spinner"] += 1
    assert checked["wrapped"] and checked["spinner"], checked


ANNOUNCED = re.compile(r"^  (?:you|seat (\d) \(\w+\)) (?:lead|play)s? \d-\d(?: on end \d)?: "
                       r"count (\d+), scores (\d+)")
SCORED = re.compile(r"^  seat (\d) plays .*count (\d+): scores (\d+)$")


@pytest.mark.parametrize("variant,seats", [("fives", ["hard", "human"]),
                                           ("allfives", ["human", "easy", "medium"])])
def test_every_scoring_play_is_announced_for_every_seat_as_it_happens(variant, seats):
    """R-FIVES-COUNT: each play whose count is a multiple of 5 is told with its count and
    points, the person's too, exactly as the record's transcript scores them."""
    script = Script(*["1"] * 600)
    record = domsim.play(variant, seats, seed=11, terminal=script)
    me = seats.index("human")
    told = [(me if m[1] is None else int(m[1]), int(m[2]), int(m[3]))
            for line in script.said if (m := ANNOUNCED.match(line))]
    truth = [(int(m[1]), int(m[2]), int(m[3]))
             for line in transcript_lines(record) if (m := SCORED.match(line))]
    assert told == truth and len(truth) >= 5
    assert {seat for seat, _, _ in told} == set(range(len(seats)))


HELD = re.compile(r"^  (?:you hold|seat \d \(\w+\) holds) (.*?)(?:: \d+ pips?.*)?$")
EQUATION = re.compile(r"^  (.+?) wins? (?:the hand: )?(\d+)(?: against (.+?))? = (.+)$")


def hand_ends(said: list[str]) -> list[list[str]]:
    """The lines from each "Hand N over:" to its scores."""
    text = "\n".join(said)
    return [block.split("\nScores", 1)[0].splitlines()
            for block in text.split("\nHand ")[1:] if re.match(r"\d+ over: ", block)]


def winner_name(seats: list[str], winners: list[int], teams: bool) -> str:
    me = seats.index("human")
    if teams:
        return "your team" if winners[0] % 2 == me % 2 else "the other team"
    return " and ".join("you" if s == me else seats[s] if seats.count(seats[s]) == 1 else
                        f"seat {s} ({seats[s]})" for s in winners)


@pytest.mark.parametrize("variant,seats,options", [
    ("draw", ["human", "easy", "hard"], {}),
    ("block", ["hard", "human"], {}),
    ("fives", ["human", "hard"], {}),
    ("allfives", ["easy", "human", "easy", "medium"], {}),
    ("kozel", ["hard", "human", "hard", "easy"], {}),
    ("partnership", ["human", "hard", "easy", "hard"], {"capicu_bonus": "25"}),
    ("partnership", ["easy", "hard", "human", "hard"], {"count": "losers", "fish": "maker"}),
    ("partnership-1v1", ["human", "hard"], {}),
    ("classic", ["human", "easy", "easy"], {}),
])
def test_each_hand_ends_with_every_hand_face_up_and_its_points_worked_out(variant, seats,
                                                                           options):
    """R-SCORE-BASIC, R-FIVES, R-KOZEL, R-PARTNERSHIP, R-PARTNERSHIP-1V1, R-CLASSIC: after each
    hand every hand left is shown as the record has it, the winners by name, and the points as a
    sum that adds up to what the side got."""
    rules = make_rules(variant, len(seats), options)
    worked = 0
    for seed in range(3):
        script = Script(*["1"] * 2000)
        record = domsim.play(variant, seats, seed=seed, options=options, terminal=script)
        left = [(state.hands[:], result) for kind, _, _, state, result in
                replay_steps(record, 0) if kind == "result"]
        ends = hand_ends(script.said)
        assert len(ends) == len(left) == len(record["hands"])
        for block, (hands, result) in zip(ends, left, strict=True):
            held = [HELD.match(line)[1] for line in block if HELD.match(line)]
            assert held == [" ".join(tile_name(t) for t in tiles_of(m)) or "nothing"
                            for m in hands], block
            named = winner_name(seats, list(result.winners), rules.variant.teams) \
                if result.winners else "nobody"
            assert block[1 + len(held)].startswith(f"  {named} win"), block
            equation = [EQUATION.match(line) for line in block if EQUATION.match(line)]
            if not equation:
                assert not any(" = " in line for line in block), block
                continue
            (found,) = equation
            won = rules.side_of(result.winners[0])
            side = 1 - won if rules.variant.points_against else won
            assert int(found[2]) == evaluate(found[4]) == result.points[side], block
            worked += 1
    assert worked or variant == "classic"
    assert "winners seats" not in "\n".join(script.said)


def finished(variant: str, hands: list[str], lead: str):
    """Seat 0 leads `lead` and every seat passes until the hand is blocked; (rules, hands
    left, result)."""
    state = State(make_rules(variant, len(hands)))
    state.start_hand([mask_of(tile_id(*parse_tile(t)) for t in hand.split()) for hand in hands],
                     [], 0, -1)
    state.play(tile_id(*parse_tile(lead)) << 2)
    while not state.hand_over:
        state.pass_turn()
    return state.rules, state.hands, state.last_hand_result


def test_a_blocked_hand_takes_the_winners_own_pips_off_ties_score_nothing_eggs_carry():
    """R-SCORE-BASIC: blocked, the lowest hand scores the others' pips less its own, a tie
    nobody; R-KOZEL: eggs write nobody down and carry the tie; R-KOZEL-25 shown."""
    rules, hands, result = finished("block", ["6-6 1-1", "1-2 3-4"], "6-6")
    names = Names.of(["human", "hard"], 0, teams=False)
    assert points_lines(rules, names, hands, result, [0, 0], 0) == [
        "you win 8 = 10 (the other hand) - 2 (the winner's own)"]
    rules, hands, result = finished("block", ["6-6 1-2", "0-3"], "6-6")
    assert points_lines(rules, names, hands, result, [0, 0], 0) == ["nobody wins"]
    rules, hands, result = finished("kozel", ["6-6 1-2", "0-3", "2-2", "1-1 0-2"], "6-6")
    names = Names.of(["hard", "human", "easy", "hard"], 1, teams=True)
    assert points_lines(rules, names, hands, result, [0, 0], 0) == [
        "nobody wins", "nobody is written down: 7 carried to the next hand's losers"]
    assert names.scores(rules, result.scores, result.carry) == (
        "Scores (points against): the other team 0, your team 0, 101 loses; 7 carried to the "
        "next hand's losers")
    lone = [mask_of([tile_id(0, 0)]), 0, mask_of([tile_id(1, 2)]), 0]
    assert held_lines(rules, names, lone)[:2] == [
        "seat 0 (hard) holds 0-0: 0 pips, which counts 25", "you hold nothing"]


def test_winners_are_named_you_your_team_or_the_bot():
    rules = make_rules("block", 2)
    names = Names.of(["human", "hard"], 0, teams=False)
    assert (names.wins(rules, [1]), names.wins(rules, [0]), names.wins(rules, [])) == \
        ("hard wins", "you win", "nobody wins")
    three = Names.of(["easy", "human", "easy"], 1, teams=False)
    assert three.wins(make_rules("classic", 3), [0, 1]) == "seat 0 (easy) and you win"
    kozel = make_rules("kozel")
    team = Names.of(["hard", "human", "easy", "hard"], 1, teams=True)
    assert (team.wins(kozel, [1, 3]), team.wins(kozel, [0, 2])) == \
        ("your team wins", "the other team wins")
    script = Script(*["1"] * 300)
    record = domsim.play("block", ["human", "hard"], seed=2, terminal=script)
    winner = "you win" if record["result"]["winners"] == [0] else "hard wins"
    assert f"Game over: {winner}." in script.said


def test_a_move_is_typed_as_a_number_or_a_tile_with_or_without_its_end():
    """Ends show 0 (left, end 0) and 6 (right, end 1): 0-6 fits both, 6-6 end 1 only."""
    view = position("block", ["0-6 6-6 3-6 2-5", "1-3 0-1 4-4"], 1,
                    [("1-3", 0), ("3-6", 1), ("0-1", 0)])
    offered = distinct_moves(view)
    on = {end: Move(Tile(0, 6), end) for end in (0, 1)}
    for text, meant in [("2", [on[1]]), ("0-6", [on[0], on[1]]), ("6-0 left", [on[0]]),
                        ("0|6 right", [on[1]]), ("6-0 end 1", [on[1]]),
                        (" 6 - 0 on end 0", [on[0]]), ("6-6", [Move(Tile(6, 6), 1)]),
                        ("6|6 right", [Move(Tile(6, 6), 1)])]:
        assert read_move(text, view, offered) == meant, text
    for text, why in [("5-5", "5-5 is not in your hand"), ("2-5", "2-5 fits no open end"),
                      ("6-6 left", "6-6 does not fit end 0 (the 0)"),
                      ("0-6 end 3", "end 3 is not open"), ("0-6 up", "'up' names no end"),
                      ("9", "'9' is no move: type a number from 1 to 3, a tile"),
                      ("x", "'x' is no move")]:
        assert read_move(text, view, offered).startswith(why), text
    assert which_end([on[0], on[1]], view) == \
        "0-6 fits end 0 (left, the 0) and end 1 (right, the 6): which end (left, right or end N)? "


def test_a_tile_fitting_two_ends_is_asked_about_in_one_line_and_the_answer_plays_it():
    view = position("block", ["0-6 6-6 3-6 2-5", "1-3 0-1 4-4"], 1,
                    [("1-3", 0), ("3-6", 1), ("0-1", 0)])
    script = Script("0-6", "?", "6-0", "right")
    assert seat_at(view, script, ["human", "hard"]).choose(view) == Move(Tile(0, 6), 1)
    question = which_end([Move(Tile(0, 6), 0), Move(Tile(0, 6), 1)], view)
    assert script.said.count(question) == 2 and HELP in script.said  # `?` read as a command
    assert script.lines == [] and script.said[-1] == question
    script = Script("0-6", "end 2", "2", "left")
    assert seat_at(view, script, ["human", "hard"]).choose(view) == Move(Tile(0, 6), 0)
    assert script.said.count("0-6 does not fit end 2") == 2 and script.lines == []


def test_mirror_moves_are_offered_once_only_where_the_two_ends_are_truly_alike():
    """After a lead of 3-3 both ends show 3 and count alike: 3-5 on either leaves the same
    line mirrored (block, fives), so it is offered on end 0 only; with a spinner, or ends
    showing 3 that count differently (fives: one a double), both stay."""
    hands = ["3-5 3-6 0-0", "3-3 1-2 2-4 2-3 1-4"]
    for variant, offered in [("block", 2), ("fives", 2), ("allfives", 4)]:
        view = position(variant, hands, 1, [("3-3", 0)])
        moves = distinct_moves(view)
        assert len(view.legal_moves) == 4 and len(moves) == offered, variant
        assert offered == 4 or {move.end for move in moves} == {0}
    plain_and_double = position("fives", ["3-5 3-4 0-0 1-1", "3-3 4-5 2-3 1-2"], 1,
                                [("3-3", 0), ("3-5", 0), ("4-5", 0), ("3-4", 0)])
    assert plain_and_double.ends == (3, 3) and plain_and_double.end_counts == (3, 6)
    assert distinct_moves(plain_and_double) == list(plain_and_double.legal_moves) == [
        Move(Tile(2, 3), 0), Move(Tile(2, 3), 1)]
    script = Script("1")
    view = position("block", hands, 1, [("3-3", 0)])
    seat_at(view, script, ["human", "hard"]).choose(view)
    listed = [line for line in script.said if re.match(r"  \d\) ", line)]
    assert listed == ["  1) 3-5 on end 0 (the 3)", "  2) 3-6 on end 0 (the 3)"]
    assert read_move("3-5 right", view, distinct_moves(view)) == [Move(Tile(3, 5), 1)]


def test_colour_where_the_terminal_has_it_the_same_text_where_it_has_not():
    coloured, plain = Script(*["1"] * 300, color=True), Script(*["1"] * 300)
    for script in (coloured, plain):
        domsim.play("fives", ["human", "hard"], seed=7, terminal=script)
    assert [click.unstyle(line) for line in coloured.said] == plain.said
    assert not any("\x1b[" in line for line in plain.said)
    scored = [line for line in coloured.said if ": count " in click.unstyle(line)]
    assert scored and all(click.style("", fg="yellow", reset=False) in line for line in scored)


@pytest.mark.parametrize("tty,environment,color", [
    (True, {}, True), (True, {"NO_COLOR": "1"}, False), (True, {"TERM": "dumb"}, False),
    (False, {}, False)])
def test_the_console_has_colour_only_on_a_terminal_without_no_color(monkeypatch, tty,
                                                                    environment, color):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for key, value in environment.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: tty)
    monkeypatch.setenv("COLUMNS", "57")
    console = ConsoleTerminal()
    assert console.color == color and console.width == 57


TOLD = re.compile(r"^  (you|seat 1 \(easy\)) (?:lead|play)s? (\d-\d)(?: on end \d)?"
                  r": count (\d+), scores (\d+)", re.MULTILINE)
WINS = re.compile(r"^Game over: (you win|easy wins)\.$", re.MULTILINE)


def test_a_person_plays_a_whole_fives_game_at_a_terminal(tmp_path):
    """`domsim play --variant fives -p human -p easy --seed 5` on a pseudo-terminal in colour,
    typed as a person does (the first move each time): the scores are announced as the record
    scores them, every hand is shown face up at its end as the record has it, and the last line
    names the winner."""
    record = tmp_path / "fives.json"
    term = Pty([DOMSIM, "play", "--variant", "fives", "-p", "human", "-p", "easy", "--seed", "5",
                "--record", str(record)], tmp_path, color=True)
    log = []
    while term.read_until(PROMPT) is not None:
        log.append(term.text)
        term.type("1")
    log.append(term.text)
    assert term.close() == 0
    output = "".join(log)
    assert "\x1b[" in output  # a terminal with colour
    text = click.unstyle(output)
    assert "Traceback" not in text and len(log) > 10
    game = json.loads(record.read_text())
    scored = [(int(m[1]), tile_key(m[2]), int(m[3]), int(m[4])) for m in
              re.finditer(r"^  seat (\d) plays (\d-\d).*count (\d+): scores (\d+)$",
                          "\n".join(transcript_lines(game)), re.MULTILINE)]
    told = [(int(m[1] != "you"), tile_key(m[2]), int(m[3]), int(m[4]))
            for m in TOLD.finditer(text)]
    assert told == scored and {seat for seat, *_ in told} == {0, 1}
    left = [[" ".join(tile_name(t) for t in tiles_of(mask)) or "nothing" for mask in state.hands]
            for kind, _, _, state, _ in replay_steps(game, 0) if kind == "result"]
    shown = [[m[1] for m in re.finditer(r"^  (?:you hold|seat 1 \(easy\) holds) (.*?)(?:: |$)",
                                         block, re.MULTILINE)]
             for block in text.split("\nHand ")[1:] if re.match(r"\d+ over: ", block)]
    assert shown == left and len(left) == len(game["hands"]) >= 2
    (winner,) = WINS.findall(text)
    assert winner == ("you win" if game["result"]["winners"] == [0] else "easy wins")
    assert text.rstrip().splitlines()[-1] == f"record written to {record}"


def test_one_move_in_two_mirror_images_is_no_choice_and_a_lead_alone_counts_its_pips():
    """A tile that fits both ends of 3-3 only, in block, is played without asking (and told
    as the person's only move); R-FIVES-COUNT: a 6-6 led alone counts 12, not both ends'
    24."""
    hands = ["3-5 5-6 5-5", "3-3 1-2 3-4"]
    view = position("block", hands, 1, [("3-3", 0)])
    script = Script("1")
    seat = seat_at(view, script, ["human", "hard"])
    assert seat.choose(view) == Move(Tile(3, 5), 0)
    assert script.lines == ["1"] and not any("Your move" in line for line in script.said)
    later = position("block", hands, 1, [("3-3", 0), ("3-5", 0), ("3-4", 1)])
    seat.choose(later)
    assert script.said[2:5] == ["  seat 1 (hard) leads 3-3",
                                "  you play 3-5 on end 0 (your only move: played for you)",
                                "  seat 1 (hard) plays 3-4 on end 1"]
    view = position("fives", ["2-6 3-6 0-0", "6-6 1-1"], 1, [("6-6", 0)])
    script = Script("1")
    seat_at(view, script, ["human", "easy"]).choose(view)
    assert "Ends: end 0: 6  end 1: 6  (count 12)" in script.said
