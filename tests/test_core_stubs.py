"""domsim/_core.pyi describes the module the core builds: the same names, classes with the same
members (read-only attributes as properties, static methods as such), every function and method
with the same parameters, and the exceptions with the same bases."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from domsim import _core

STUBS = ast.parse((Path(_core.__file__).parent / "_core.pyi").read_text())
ROOT = Path(__file__).resolve().parent.parent


def _public(names) -> set[str]:
    return {n for n in names if not n.startswith("_")}


def _stub_items(body) -> dict[str, ast.AST]:
    out = {}
    for node in body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            out[node.name] = node
        elif isinstance(node, ast.AnnAssign):
            out[node.target.id] = node
    return out


TOP = _stub_items(STUBS.body)
CLASSES = [name for name, node in TOP.items() if isinstance(node, ast.ClassDef)]
FUNCTIONS = [name for name, node in TOP.items() if isinstance(node, ast.FunctionDef)]


def _parameters(node: ast.FunctionDef, method: bool) -> list[tuple[str, str]]:
    args = node.args
    positional = [a.arg for a in args.posonlyargs + args.args][1 if method else 0:]
    return [(name, "positional") for name in positional] + [
        (a.arg, "keyword") for a in args.kwonlyargs]


def _signature(obj) -> list[tuple[str, str]]:
    kinds = {inspect.Parameter.KEYWORD_ONLY: "keyword"}
    return [(p.name, kinds.get(p.kind, "positional"))
            for p in inspect.signature(obj).parameters.values() if p.name != "self"]


def _decorated(node: ast.FunctionDef, name: str) -> bool:
    return any(isinstance(d, ast.Name) and d.id == name for d in node.decorator_list)


def test_the_stubs_name_every_public_name_of_the_module():
    assert set(TOP) == _public(dir(_core))


@pytest.mark.parametrize("name", FUNCTIONS)
def test_a_functions_parameters_are_the_modules(name):
    assert _parameters(TOP[name], method=False) == _signature(getattr(_core, name))


@pytest.mark.parametrize("name", CLASSES)
def test_a_classs_members_are_the_modules(name):
    cls = getattr(_core, name)
    stub = TOP[name]
    bases = [b.id for b in stub.bases]
    if issubclass(cls, BaseException):
        assert bases == [cls.__base__.__name__]
        assert not _public(vars(cls))
        return
    members = {n: node for n, node in _stub_items(stub.body).items() if not n.startswith("_")}
    assert set(members) == _public(vars(cls))
    for member, node in members.items():
        raw = inspect.getattr_static(cls, member)
        if _decorated(node, "property"):
            assert type(raw).__name__ == "getset_descriptor", member
            continue
        static = isinstance(raw, staticmethod)
        assert _decorated(node, "staticmethod") == static, member
        assert _parameters(node, method=not static) == _signature(getattr(cls, member)), member


def test_no_attribute_of_a_class_can_be_set():
    """The stubs' properties are read-only in the module too."""
    state = _core.State(__import__("domsim.rules").rules.make_rules("draw", 2))
    for member, node in _stub_items(TOP["State"].body).items():
        if isinstance(node, ast.FunctionDef) and _decorated(node, "property"):
            with pytest.raises(AttributeError):
                setattr(state, member, getattr(state, member))


def test_the_core_builds_the_classes_handed_to_it_and_imports_no_private_name():
    """The core's values are of the classes domsim.engine.results and domsim.view hand it; used
    before either is imported, it imports that public module (which hands them over)."""
    script = (
        "import sys\n"
        "import domsim._core as c\n"
        "from domsim.rules import make_rules\n"
        "assert 'domsim.view' not in sys.modules and 'domsim.engine.results' not in sys.modules\n"
        "s = c.State(make_rules('draw', 2))\n"
        "s.start_next_hand(c.MatchRng(3))\n"
        "v = c.ViewBuilder().view(s, s.legal_moves())\n"
        "while not s.hand_over:\n"
        "    s.step_forced() or s.play(s.legal_moves()[0])\n"
        "from domsim.engine.results import HandResult\n"
        "from domsim.view import Move, Tile\n"
        "assert type(s.hand_results[0]) is HandResult\n"
        "assert type(v.legal_moves[0]) is Move and type(v.hand[0]) is Tile\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    source = "\n".join(p.read_text() for p in (ROOT / "core" / "src" / "py").glob("*.rs"))
    assert "_MOVES" not in source and "_event_of_cached" not in source
    assert '"HandResult"' not in source
