"""A spec read once (domsim.spec.Spec): each form's kind and parts, as the loaders and the seat
layer ask them."""

from __future__ import annotations

import pytest

from domsim.spec import Spec


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
