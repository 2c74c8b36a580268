"""Named entrants (`-p NAME=SPEC`): how a name is told from a spec, the names made for specs that
name none, the same spec entered under two names, and the names in every result file."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from clitools import invoke, one_line_error

from domsim.plan.pairings import (
    default_name,
    parse_entrants,
    seat_specs,
    split_name,
    team_members,
)
from domsim.rules import make_rules
from domsim.spec import Spec
from domsim.strategy import StrategyError

FAST = ["--variant", "classic", "--seed", "3", "--silent"]
EXAMPLE_BOT = Path(__file__).resolve().parent.parent / "strategies" / "example_external.py"


def test_a_name_is_the_text_before_the_first_equals_sign_unless_a_spec_parameter_holds_it():
    assert split_name("fast=hard") == ("fast", "hard")
    assert split_name("fast=hard?shed=2") == ("fast", "hard?shed=2")
    assert split_name("hard?shed=2") == (None, "hard?shed=2")
    assert split_name("bots/a.py?x=1") == (None, "bots/a.py?x=1")
    assert split_name("duo=medium+hard") == ("duo", "medium+hard")


def test_an_exec_spec_is_a_spec_whatever_its_command_holds_and_can_be_named():
    """An `=` inside an exec: command names nothing (the text before it holds `:`, and maybe
    `/` or a space, which no name does); NAME=exec:COMMAND names the bot."""
    assert split_name("exec:./bot --x=1") == (None, "exec:./bot --x=1")
    assert split_name("exec:bot --depth=3") == (None, "exec:bot --depth=3")
    assert split_name("exec:python3 bots/b.py --x=1") == (None, "exec:python3 bots/b.py --x=1")
    assert split_name("mybot=exec:./bot") == ("mybot", "exec:./bot")
    assert split_name("mybot=exec:./bot --x=1") == ("mybot", "exec:./bot --x=1")
    assert default_name("exec:./bot --x=1") == "exec:./bot --x=1"  # no strategy file in it
    assert default_name("exec:python3 bots/b.py") == "exec:python3 bots/b.py"
    rules = make_rules("block", 2)
    entrants = parse_entrants(["exec:./bot --x=1", "mybot=exec:./bot --x=1"], rules)
    assert [(e.name, e.members) for e in entrants] == [
        ("exec:./bot --x=1", (Spec.of("exec:./bot --x=1"),)),
        ("mybot", (Spec.of("exec:./bot --x=1"),))]


def test_a_quoted_or_escaped_plus_belongs_to_its_exec_command_and_a_bare_one_joins_a_team():
    assert team_members("medium+hard") == ("medium", "hard")
    assert team_members("exec:./bot --x='a+b'") == ("exec:./bot --x='a+b'",)
    assert team_members('exec:./bot "--x=a+b" + hard') == ('exec:./bot "--x=a+b"', "hard")
    assert team_members("exec:./bot --x=a\\+b+hard") == ("exec:./bot --x=a\\+b", "hard")
    assert team_members("exec:./bot 'it''s+'+easy") == ("exec:./bot 'it''s+'", "easy")
    block, kozel = make_rules("block", 2), make_rules("kozel", 4)
    one = parse_entrants(["exec:./bot --x='a+b'", "hard"], block)
    assert one[0].members == (Spec.of("exec:./bot --x='a+b'"),)
    team = parse_entrants(["exec:./bot --x='a+b'+hard", "easy"], kozel)
    assert team[0].members == (Spec.of("exec:./bot --x='a+b'"), Spec.of("hard"))
    with pytest.raises(StrategyError, match="is quoted"):
        parse_entrants(["exec:./bot --x=a+b", "hard"], block)


def test_an_exec_command_gets_its_quoted_plus_as_an_argument(tmp_path):
    """End to end: the bot sees `--tag=a+b` (it writes its arguments to a file)."""
    bot = tmp_path / "bot.py"
    record = f"open({str(tmp_path / 'argv')!r}, 'w').write(repr(sys.argv[1:]))"
    bot.write_text(EXAMPLE_BOT.read_text().replace("import sys", f"import sys\n{record}", 1))
    result = invoke("play", "--variant", "block", "-p", f"exec:python3 {bot} '--tag=a+b'", "-p",
                    "easy", "--seed", "1", "--no-sandbox")  # in the sandbox it writes no file
    assert result.exit_code == 0, result.output
    assert (tmp_path / "argv").read_text() == repr(["--tag=a+b"])


def test_unnamed_entrants_are_named_after_their_spec_with_a_file_by_its_stem():
    assert default_name("hard?shed=2") == "hard?shed=2"
    assert default_name("strategies/example_greedy.py") == "example_greedy"
    assert default_name("bots/x.py:Fast?depth=2") == "x:Fast?depth=2"
    assert default_name("bots/x.py+hard") == "x+hard"
    assert default_name("session:MyBot") == "MyBot"


def test_the_same_spec_enters_twice_under_two_names_and_plays_under_each():
    rules = make_rules("kozel", 4)
    entrants = parse_entrants(["one=hard+easy", "two=hard+easy"], rules)
    assert [e.name for e in entrants] == ["one", "two"]
    assert seat_specs(rules, entrants, (0, 1), 0) == list(map(Spec.of, ["hard", "hard", "easy",
                                                                         "easy"]))
    with pytest.raises(StrategyError, match="two entrants are named 'x'"):
        parse_entrants(["x=easy", "x=medium"], make_rules("block", 2))
    with pytest.raises(StrategyError, match="two entrants are named 'example_greedy'"):
        parse_entrants(["strategies/example_greedy.py", "other/example_greedy.py"],
                       make_rules("block", 2))


def test_names_reach_the_table_summary_records_manifest_and_stats(tmp_path):
    out = tmp_path / "run"
    result = invoke("tourney", *FAST, "-p", "left=easy", "-p", "right=easy", "--games", "4",
                    "-j", "1", "--records", "--out", str(out))
    assert result.exit_code == 0, result.output
    rows = pq.read_table(out / "games.parquet").to_pylist()
    assert {row["pairing"] for row in rows} == {"left vs right"}
    assert [(row["entrant_0"], row["entrant_1"]) for row in rows[:2]] == [("left", "right"),
                                                                          ("right", "left")]
    assert {row["seat_0"] for row in rows} == {"easy"}
    with (out / "summary.csv").open() as source:
        assert [r["entrant"] for r in csv.DictReader(source)] == ["left", "right"] * 2
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    assert records[1]["entrants"] == ["right", "left"] and records[1]["seats"] == ["easy"] * 2
    manifest = json.loads((out / "manifest.json").read_text())
    assert [e["name"] for e in manifest["entrants"]] == ["left", "right"]
    assert manifest["config"]["entrants"] == ["left=easy", "right=easy"]
    stats = invoke("stats", str(out), "--samples", "20")
    assert stats.exit_code == 0 and "left vs right:" in stats.output
    assert "example_greedy" in invoke("tourney", *FAST, "-p", "strategies/example_greedy.py",
                                      "-p", "easy", "--games", "2", "-j", "1",
                                      "--out", str(tmp_path / "file")).output


def test_two_entrants_under_one_name_is_a_one_line_error_and_writes_nothing(tmp_path):
    out = tmp_path / "run"
    one_line_error(invoke("tourney", *FAST, "-p", "x=easy", "-p", "x=medium", "--out", str(out)),
                   "two entrants are named 'x'")
    assert not out.exists()
