"""A spec read once (domsim.spec.Spec): each form's kind and parts, as the loaders and the seat
layer ask them."""

from __future__ import annotations

from pathlib import Path

import pytest

from domsim import spec as spec_module
from domsim.plan.config import TourneyConfig
from domsim.plan.games import Plan
from domsim.runner.worker import Batch, play_batch
from domsim.spec import LABEL_LENGTH, Spec

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("text", "kind", "target", "path", "module", "cls"), [
    ("easy", "name", "easy", None, "", ""),
    (" hard?block=2 ", "name", "hard", None, "", ""),
    ("bots/my_bot.py", "file", "bots/my_bot.py", "bots/my_bot.py", "", ""),
    ("bots/my_bot.py:Greedy?x=1", "file", "bots/my_bot.py:Greedy", "bots/my_bot.py", "", "Greedy"),
    ("pkg.mod:Bot", "module", "pkg.mod:Bot", None, "pkg.mod", "Bot"),
    ("session:Mine#2", "session", "session:Mine#2", None, "", ""),
])
def test_a_spec_names_its_kind_and_parts(text, kind, target, path, module, cls):
    spec = Spec.of(text)
    assert (spec.kind, spec.target, spec.path, spec.module, spec.cls) == \
        (kind, target, path, module, cls)
    assert spec.text == text


def test_parameters_and_files_are_read_apart():
    spec = Spec.of("bots/b.py?depth=3&files=data/, helper.py&fast")
    assert spec.parameters == (("depth", "=", "3"), ("fast", "", ""))
    assert spec.files == ("data/", "helper.py")
    assert Spec.of("easy").parameters == () and Spec.of("easy").files == ()


def test_an_exec_spec_keeps_its_whole_command_line():
    spec = Spec.of("exec:./bot --mode a?b&files=x")
    assert (spec.kind, spec.command, spec.query, spec.files) == \
        ("exec", "./bot --mode a?b&files=x", "", ())


def test_the_built_in_levels_and_the_dial_are_trusted():
    assert Spec.of("insane?preset=lean").trusted and Spec.of("dial?strength=0.5").trusted
    assert not Spec.of("bots/easy.py").trusted and not Spec.of("exec:easy").trusted


def test_a_spec_is_read_once_and_a_spec_is_itself():
    spec = Spec.of("hard?shed=2")
    assert Spec.of(spec) is spec and Spec.of("hard?shed=2") is spec
    assert str(spec) == "hard?shed=2"


def test_a_long_spec_is_cut_in_log_lines():
    assert Spec.of("easy").label == "easy"
    long = Spec.of("exec:./bot " + "x" * 300)
    assert long.label == long.text[:LABEL_LENGTH] + f"... ({len(long.text)} chars)"


def test_parameters_set_on_a_spec_replace_its_own_of_that_name():
    spec = Spec.of("hard?shed=2&block=1").with_parameters({"block": "4", "lock": "6"})
    assert spec == Spec.of("hard?shed=2&block=4&lock=6")
    assert Spec.of("easy").with_parameters({"x": "1"}).text == "easy?x=1"


def test_after_the_plan_no_game_reads_a_spec_as_text(monkeypatch):
    """The plan reads each entrant's spec once; its games, their seats, the strategies they
    load and the stand-in are handed the Spec, never its text."""
    config = TourneyConfig("block", games=8, entrants=(
        "hard?shed=2", f"{ROOT / 'strategies' / 'example_greedy.py'}"), isolate=False, seed=3)
    plan = Plan.of(config)
    assert all(isinstance(spec, Spec) for entrant in plan.entrants for spec in entrant.members)
    read, parse = [], spec_module._parse
    monkeypatch.setattr(spec_module, "_parse", lambda text: read.append(text) or parse(text))
    result = play_batch(Batch(config, tuple(plan.entrants), tuple(plan.pairings), plan.schedule,
                              tuple(range(8))))
    assert read == []
    assert {row["seat_0"] for row in result.rows} == {spec.text for entrant in plan.entrants
                                                       for spec in entrant.members}
