"""The package's imports: light at the top and in a bot's process, one way through the layers,
no cycle (issue 23, item 4)."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import domsim
import domsim.api

HEAVY = ("numpy", "pandas", "pyarrow", "tqdm")

ARCHITECTURE = Path(__file__).parent.parent / "docs" / "ARCHITECTURE.md"


def documented_layers() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The layers, lowest first, as docs/ARCHITECTURE.md's `layers` block lists them (the one
    map: the page says why each module sits where it does)."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    block = text.split("```layers\n", 1)[1].split("```", 1)[0]
    return tuple((name.strip(), tuple(modules.split()))
                 for name, modules in (line.split(":", 1) for line in block.splitlines()))


LAYERS = documented_layers()


def layer_of(module: str) -> int:
    """The layer of a module: its longest entry in LAYERS."""
    best, rank = "", -1
    for index, (_, entries) in enumerate(LAYERS):
        for entry in entries:
            covers = module == entry or (entry != "domsim" and module.startswith(entry + "."))
            if covers and len(entry) > len(best):
                best, rank = entry, index
    assert rank >= 0, f"{module} is in no layer: add it to LAYERS in {__file__}"
    return rank


def package_modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the installed package: name -> (file, is a package's __init__)."""
    found = {}
    levels = importlib.import_module("domsim.strategies")
    for package, pattern in ((levels, "*.py"), (domsim, "**/*.py")):
        root = Path(package.__file__).parent
        for path in sorted(root.glob(pattern)):
            parts = path.relative_to(root).with_suffix("").parts
            is_package = parts[-1] == "__init__"
            name = ".".join((package.__name__, *parts[: -1 if is_package else None]))
            found.setdefault(name, (path, is_package))
    return found


def imported_names(node: ast.stmt, module: str, is_package: bool) -> list[str]:
    """The dotted names an import statement imports (for `from X import a`, X.a and X)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - node.level + 1] if node.level else []
    target = ".".join(base + (node.module.split(".") if node.module else []))
    return [target] + [f"{target}.{alias.name}" for alias in node.names]


def module_level(body: list[ast.stmt]):
    """The import statements a module runs when it is imported (not those under
    `if TYPE_CHECKING:`, nor inside functions)."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and "TYPE_CHECKING" not in ast.unparse(node.test):
            yield from module_level(node.body + node.orelse)
        elif isinstance(node, ast.With | ast.ClassDef):
            yield from module_level(node.body)
        elif isinstance(node, ast.Try):
            yield from module_level(node.body + node.orelse + node.finalbody
                                    + [s for h in node.handlers for s in h.body])


def parents(module: str) -> list[str]:
    """The packages Python imports before a module: domsim.runner.local -> domsim,
    domsim.runner."""
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def import_graph(modules, at_import_only: bool) -> dict[str, set[str]]:
    """module -> the package's modules it imports (and the packages above each of them)."""
    graph = {}
    for module, (path, is_package) in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        nodes = module_level(tree.body) if at_import_only else (
            n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom))
        targets = set()
        for node in nodes:
            for name in imported_names(node, module, is_package):
                if name in modules or name == "domsim._core":
                    targets.update([name, *parents(name)])
        graph[module] = targets - {module}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of the graph as a path (first module repeated at the end), or []."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node], path[len(path):] = "open", [node]
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                return path[path.index(target):] + [target]
            if target not in state and (cycle := visit(target)):
                return cycle
        state[node] = "done"
        path.pop()
        return []

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return []


def test_find_cycle_finds_a_cycle_and_only_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_the_graph_sees_a_package_faces_import_and_the_packages_a_module_runs_first():
    modules = package_modules()
    graph = import_graph(modules, at_import_only=True)
    assert {"domsim", "domsim.runner"} <= graph["domsim.runner.local"]
    assert "domsim.seat.watchdog" in graph["domsim.runner.local"]
    assert "domsim.api" not in graph["domsim"]  # PEP 562: only on first use
    assert "domsim.deals" not in graph["domsim.game"]  # under `if TYPE_CHECKING:`
    assert "domsim.upgrade" in import_graph(modules, at_import_only=False)["domsim.cli"]


def test_no_import_cycle_when_the_package_loads():
    graph = import_graph(package_modules(), at_import_only=True)
    assert find_cycle(graph) == []


def test_no_module_imports_one_from_a_layer_above_it():
    modules = package_modules()
    graph = import_graph(modules, at_import_only=False)
    # The package's face opens the API on first use (PEP 562), its one import from the top.
    graph["domsim"] = import_graph({"domsim": modules["domsim"]}, at_import_only=True)["domsim"]
    upward = sorted(
        f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} "
        f"({LAYERS[layer_of(target)][0]})"
        for module, targets in graph.items()
        for target in targets
        if layer_of(target) > layer_of(module)
    )
    assert upward == []


def imports_the_face(node: ast.stmt, module: str, is_package: bool, modules) -> bool:
    """`import domsim`, or `from domsim import X` (`from .. import X`) for an X not a module."""
    names = imported_names(node, module, is_package)
    if isinstance(node, ast.Import):
        return "domsim" in names
    return names[0] == "domsim" and any(name not in modules and name != "domsim._core"
                                        for name in names[1:])


def test_no_module_imports_the_face_from_inside_the_package():
    """The face (`domsim/__init__.py`) is for users: a module of the package imports what it
    needs from the module that has it (issue 50)."""
    modules = package_modules()
    through_face = [f"{module}: {ast.unparse(node)}"
                    for module, (path, is_package) in modules.items() if module != "domsim"
                    for node in ast.walk(ast.parse(path.read_text(), str(path)))
                    if isinstance(node, ast.Import | ast.ImportFrom)
                    and imports_the_face(node, module, is_package, modules)]
    assert through_face == []


def test_the_run_folder_package_imports_nothing_above_it_and_both_sides_go_through_it():
    """domsim.results owns the run folder (issue 23, item 3): it imports no module above it (not
    the game, the bots, the runner, the analysis); the runner writes the folder through it and
    the analysis reads it through it, and neither imports the other."""
    graph = import_graph(package_modules(), at_import_only=False)
    results = {target for module, targets in graph.items()
               if module.startswith("domsim.results") for target in targets}
    assert sorted(t for t in results if layer_of(t) > layer_of("domsim.results")) == []
    assert not any(target == "domsim.game" or target.startswith(("domsim.seat", "domsim.runner"))
                   for target in results)
    runner = {target for module, targets in graph.items()
              if module.startswith("domsim.runner") for target in targets}
    assert not {t for t in runner if t.startswith(("domsim.analysis", "domsim.studies"))}
    assert not {t for t in graph["domsim.analysis"] if t.startswith("domsim.runner")}
    assert {"domsim.results.parts", "domsim.results.manifest",
            "domsim.results.finish"} <= graph["domsim.runner.play"]
    assert "domsim.results.run" in graph["domsim.analysis"]


def loaded_heavy(code: str) -> list[str]:
    """The heavy libraries a fresh interpreter has loaded after running `code`."""
    probe = f"import sys\n{code}\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    return ast.literal_eval(out.strip().splitlines()[-1])


@pytest.mark.parametrize("code", [
    "import domsim",
    "import domsim.seat.host",
    # what a seat host loads to answer `hello` for every built-in level
    "import domsim.seat.host\nfrom domsim.strategy import load_strategy\n"
    "for level in ('easy', 'medium', 'hard', 'insane', 'dial'): load_strategy(level)",
])
def test_the_package_and_a_bots_process_load_no_heavy_library(code):
    assert loaded_heavy(code) == []


#: What a bot's process needs only when something goes wrong (a mistyped name, a strategy that
#: raises) or never (OpenSSL, the clock): each costs every bot's start (issue 49).
NOT_AT_START = ("difflib", "traceback", "hashlib", "_hashlib", "domsim.clock", "importlib.metadata")


def loaded_at_start(spec: str, then: str = "") -> list[str]:
    """Which of NOT_AT_START a seat host has loaded once it has answered `hello` for `spec` (and
    run `then`)."""
    probe = ("import sys\nfrom domsim.seat.host import Host\nfrom domsim.spec import Spec\n"
             f"reply = Host(Spec.of({spec!r})).answer({{'type': 'hello', 'protocol': 2}})\n"
             "assert reply['type'] == 'hello', reply\n"
             f"{then}\nprint(sorted(m for m in {NOT_AT_START!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    return ast.literal_eval(out.strip().splitlines()[-1])


@pytest.mark.parametrize("spec", [str(Path(__file__).parent.parent / "strategies" /
                                      "example_greedy.py"), "domsim.strategies.medium:Medium"])
def test_a_bots_process_answers_hello_without_what_only_a_mistake_needs(spec):
    assert loaded_at_start(spec) == []


def test_the_start_probe_sees_a_module_a_mistake_loads():
    assert "difflib" in loaded_at_start("domsim.strategies.medium:Medium",
                                        "from domsim.suggest import did_you_mean\n"
                                        "did_you_mean('meduim', ['medium'])")


def test_the_probe_sees_a_heavy_library_and_the_api_still_loads_on_first_use():
    assert {"numpy", "pyarrow", "tqdm"} <= set(loaded_heavy("import domsim\ndomsim.tourney"))
    assert domsim.load is domsim.api.load
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        domsim.nothing  # noqa: B018


def test_the_api_names_stay_the_api_functions_when_the_studies_modules_load_first():
    """The studies' modules (domsim.studies.compare, tune, calibrate; domsim.pages.report) load
    first here, as when the command line or the tuner loads them before the API: they bind
    their names on their own packages, never on `domsim`, so no submodule shadows an API name
    (the studies wing's move, issue 50, ended the clash that a module class once papered over)."""
    names = ("compare", "tune", "calibrate", "report")
    code = ("import domsim.studies.compare, domsim.studies.tune, domsim.studies.calibrate, "
            "domsim.pages.report, domsim.api, domsim\n"
            f"print(*(getattr(domsim, n) is getattr(domsim.api, n) for n in {names!r}),"
            " domsim.studies.tune.compare_in.__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["True"] * len(names) + ["domsim.studies.compare"]
