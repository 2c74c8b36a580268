"""Game clocks (domsim.clock): `--time-control BASE+INC` for play, tourney, compare and
calibrate; a seat out of time is a timeout fault and a bot plays on (R-SEAT-FAULT); insane and
the dial spend a share of what is left, and stay deterministic without a clock."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clitools import invoke, one_line_error
from domsim.strategies.dial import Dial
from domsim.strategies.insane import Insane

import domsim
from domsim.clock import ClockReading, GameClock, TimeControl, TimeControlError, budget_seconds

SLOW = str(Path(__file__).parent / "broken" / "slow.py")


@pytest.mark.parametrize("text,base,increment", [("60+0.5", 60, 0.5), ("60", 60, 0),
                                                  (" 1.5 + .25 ", 1.5, 0.25), ("0.2+0", 0.2, 0)])
def test_a_time_control_reads_base_and_increment(text, base, increment):
    control = TimeControl.parse(text)
    assert (control.base, control.increment) == (base, increment)
    assert TimeControl.parse(str(control)) == control


@pytest.mark.parametrize("text", ["", "0", "0+1", "-5+1", "60+", "+1", "1e400", "nan", "60+x",
                                  "1:00"])
def test_a_bad_time_control_is_refused(text):
    with pytest.raises(TimeControlError, match="is not BASE\\+INC"):
        TimeControl.parse(text)


def test_a_clock_adds_its_increment_after_each_move_until_the_flag_falls():
    clock = GameClock(TimeControl(1.0, 0.25))
    assert clock.spend(0.5) and clock.remaining == pytest.approx(0.75)
    assert clock.spend(0.6) and clock.remaining == pytest.approx(0.4)
    assert not clock.spend(0.5)
    assert clock.reading() == ClockReading(pytest.approx(-0.1), 0.25)


def test_insane_spends_a_share_of_its_clock_and_nothing_changes_without_one():
    insane = Insane()
    assert insane.options_now() is insane.options  # no clock: the fixed, replayable search
    insane.clock = ClockReading(10.0, 1.0)
    assert budget_seconds(insane.clock) == pytest.approx(10 / 25 + 0.8)
    assert insane.options_now()["budget_ms"] == pytest.approx(1200)
    insane.clock = ClockReading(0.001, 0.0)
    assert 0 < insane.options_now()["budget_ms"] <= 0.5  # never 0, which means no budget
    own = Insane(budget_ms=5.0)
    own.clock = ClockReading(10.0, 1.0)
    assert own.options_now()["budget_ms"] == 5.0


SEEN: list = []


class SpyDial(Dial):
    """The dial at full strength, noting the clock its insane was given at each decision."""

    def __init__(self) -> None:
        super().__init__(strength=1.0)

    def choose(self, view):
        move = super().choose(view)
        SEEN.append((self.clock, self.insane.clock))
        return move


def test_the_dial_hands_its_clock_to_insane():
    SEEN.clear()
    record = domsim.play("block", [SpyDial, "hard"], seed=3, time_control="30+1")
    assert record["faults"][0]["first"] is None and SEEN
    assert all(mine == theirs and mine.increment == 1 for mine, theirs in SEEN)
    assert SEEN[0][0].remaining == 30 and all(0 < c.remaining <= 30 + len(SEEN)
                                              for c, _ in SEEN)
    SEEN.clear()
    domsim.play("block", [SpyDial, "hard"], seed=3)
    assert SEEN and all(clock is None for pair in SEEN for clock in pair)


def test_a_seat_out_of_time_is_a_timeout_and_a_bot_plays_on():
    """0.25 s a game, no increment, 0.1 s a move: the third move flags; the game goes on."""
    record = domsim.play("draw", [f"{SLOW}?delay=0.1&times=1000", "easy"], seed=2,
                         time_control="0.25+0")
    faults = record["faults"][0]
    assert faults["timeouts"] == 1 and faults["replaced"]
    assert faults["first"] == "out of time on its 0.25+0 clock"
    assert record["result"]["complete"]
    assert 2 <= record["timing"][0]["decisions"] <= 4  # the third, or sooner on a busy machine


def test_an_increment_keeps_a_slow_seat_in_time():
    """A game's moves take far more than the 0.5 s base (0.05 s each), each well under the
    0.5 s added after it."""
    record = domsim.play("draw", [f"{SLOW}?delay=0.05&times=1000", "easy"], seed=2,
                         time_control="0.5+0.5")
    assert record["timing"][0]["decisions"] * 0.05 > 0.5
    assert record["faults"][0]["first"] is None


def test_a_clocked_tourney_runs_with_insane_and_hard(tmp_path):
    out = tmp_path / "run"
    result = invoke("tourney", "--variant", "block", "-p", "insane", "-p", "hard", "--games",
                    "8", "--time-control", "20+0.2", "--seed", "1", "-j", "2", "--silent",
                    "--records", "--out", str(out))
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["time_control"] == "20+0.2"
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    assert len(records) == 8 and all(f["first"] is None for r in records for f in r["faults"])
    again = invoke("tourney", "--out", str(out), "--resume", "--time-control", "30+1",
                   "--silent")
    assert again.exit_code != 0 and "time_control" in again.output


def test_compare_and_calibrate_take_a_clock(tmp_path):
    compared = invoke("compare", "easy", "medium", "--variant", "classic", "--games", "4",
                      "--time-control", "10", "--seed", "1", "-j", "1", "--silent", "--out",
                      str(tmp_path / "cmp"))
    assert compared.exit_code == 0, compared.output
    config = json.loads((tmp_path / "cmp" / "manifest.json").read_text())["config"]
    assert config["time_control"] == "10"
    out = tmp_path / "cal"
    calibrated = invoke("calibrate", "--variant", "classic", "--level", "easy", "--level",
                        "medium", "--games", "1", "--max-games", "60", "--time-control", "5+1",
                        "--seed", "2", "-j", "1", "--silent", "--samples", "10", "--out",
                        str(out))
    assert calibrated.exit_code == 0, calibrated.output
    for run in (out / "classic", out / "steps" / "classic-1"):
        assert json.loads((run / "manifest.json").read_text())["config"]["time_control"] == "5+1"
    for command in ("play", "tourney", "compare", "calibrate"):
        result = invoke(command, *(["a", "b"] if command == "compare" else []), "--variant",
                        "block", "--time-control", "fast")
        assert result.exit_code == 2 and "is not BASE+INC" in result.output
    one_line_error(invoke("run", str(write_scenario(tmp_path))), "time_control must be BASE+INC")


def write_scenario(tmp_path):
    path = tmp_path / "clock.toml"
    path.write_text('variant = "block"\ntime_control = "soon"\n')
    return path
