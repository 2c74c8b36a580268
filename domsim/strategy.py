"""Strategies: the contract a bot implements, and the spec strings that name one.

Writing one: subclass `Strategy` and override `choose(view) -> Move` (see `Strategy`, and
`strategies/example_greedy.py` and `strategies/example_counter.py` for files to copy).

Naming one (a spec), wherever domsim takes a strategy:
- a name registered under the entry-point group `domsim.strategies`: the built-in levels
  (`easy`, `medium`, `hard`) and whatever installed packages register;
- a file: `path/to/bot.py` (the file defines exactly one Strategy subclass) or
  `path/to/bot.py:ClassName`;
- a module: `package.module:ClassName`;
- any of these with parameters for the constructor: `hard?aggression=0.7&depth=2`, coerced by the
  constructor's annotations (int, float, bool or str); one without a default must be given;
- `session:ClassName`, which `define_strategy` makes for a class or an instance defined in the
  running Python session (a notebook): it works in this process and its forked workers only.

A spec is read once into a `domsim.spec.Spec`, which the plan, the runner and the seats pass on.
`load_strategy(spec)` resolves one once per process into a `StrategyFactory`. Worker processes
load their strategies from the specs themselves; strategy objects are never pickled."""

from __future__ import annotations

import copy
import functools
import importlib
import importlib.util
import inspect
import os
import random
import re
import reprlib
import sys
import typing
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from .errors import DomsimError
from .rules import Rules
from .spec import SESSION_PREFIX, Spec
from .suggest import did_you_mean
from .view import Move, PlayerView

if typing.TYPE_CHECKING:
    from .clock import ClockReading

ENTRY_POINT_GROUP = "domsim.strategies"
EXAMPLES_PACKAGE = "domsim.strategies"
PARAMETER_TYPES = {int: "an integer", float: "a number", bool: "true or false", str: "a string"}
BOOLEANS = {"true": True, "yes": True, "on": True, "1": True,
            "false": False, "no": False, "off": False, "0": False}


class StrategyError(DomsimError):
    """A strategy spec that cannot be resolved; the message is one line."""


class Strategy:
    """Base class for strategies: override `choose`; set `description` to one line.

    One instance plays one seat for one game. domsim builds it with the spec's parameters (the
    keyword arguments of `__init__`, annotated int, float, bool or str), then sets `self.rng`, a
    `random.Random` derived from the game seed and the seat: draw every random choice from it
    (never the global `random`) so that every game replays. Then, in order: `start_game`,
    `choose` for each decision, `end_game`.

    A strategy is asked only when it has a real choice: draws, passes and a single legal play are
    made for it. The per-move time limit and the fault rules (R-SEAT-FAULT) apply to every call:
    past the limit the move is made for the seat; raising, or returning anything but one of
    `view.legal_moves`, hands the seat to a built-in bot for the rest of the game."""

    description = ""
    rng: random.Random
    #: With a game clock (`--time-control`), the seat's clock before each `choose`
    #: (`remaining` and `increment` seconds, domsim.clock); None without one.
    clock: ClockReading | None = None

    def start_game(self, seat: int, rules: Rules) -> None:
        """Optional hook, called once before the first hand of each game."""

    def choose(self, view: PlayerView) -> Move:
        """Return one of `view.legal_moves`.

        `view` (a frozen `domsim.view.PlayerView`, R-VIEW) holds what a person at the seat
        knows: `seat`, its own `hand`, the open `ends`, `history` (this hand's plays, draws and
        passes as `Event`s; a draw or pass carries the numbers the seat lacked), `hand_counts`,
        `boneyard_count`, `can_draw`, `scores`, `carry`, `target`, `hand_number`, `leader`,
        `spinner`, `end_counts`, `rules` and `legal_moves`, and reads what they show:
        `void_masks`, `unseen_mask`, `hand_mask`, `count_after(move)` and `ends_after(move)`
        (see PlayerView's docstring; `domsim.insight` has them as sets and lists). A
        `Move(tile, end)` lays `tile` (a `Tile(a, b)` with `pips` and `is_double`) on open end
        `end`; a lead is offered with end 0 only."""
        raise NotImplementedError

    def end_game(self, scores: tuple[int, ...], winners: tuple[int, ...]) -> None:
        """Optional hook, called once when the game is over with the final scores and winners."""


@dataclass(frozen=True)
class StrategyFactory:
    """A resolved spec: `factory(rng)` builds a fresh strategy for one seat of one game."""

    spec: Spec
    cls: type[Strategy]
    params: dict[str, object]
    origin: str

    @property
    def description(self) -> str:
        return description_of(self.cls)

    def __call__(self, rng: random.Random) -> Strategy:
        strategy = self.cls(**self.params)
        strategy.rng = rng
        return strategy


@dataclass(frozen=True)
class InstanceFactory(StrategyFactory):
    """A strategy instance defined in the session: every seat of every game plays a deep copy."""

    prototype: Strategy | None = None

    def __call__(self, rng: random.Random) -> Strategy:
        strategy = copy.deepcopy(self.prototype)
        strategy.rng = rng
        return strategy


def description_of(cls: type) -> str:
    """The class's `description`, else the first line of its docstring."""
    text = getattr(cls, "description", "") or (cls.__doc__ or "").strip()
    return text.splitlines()[0] if text else ""


def load_strategy(spec: Spec | str, values_per_game: bool = False) -> StrategyFactory:
    """Resolve a spec (module docstring; its text is read here) and check that its constructor
    accepts the parameters, and gets every one it requires. With `values_per_game` (a seat
    host, started without them) a strategy lacking some required ones is loaded unbuilt: each
    game brings them, as domsim checked against the host's `hello` (`check_required`).

    Raises StrategyError with a one-line message saying what to do when the spec cannot be
    loaded. Loading the same file twice in a process gives the same class."""
    return _load(Spec.of(spec), os.getcwd(), values_per_game)


_defined: dict[str, type[Strategy] | Strategy] = {}


def define_strategy(strategy: type[Strategy] | Strategy) -> str:
    """The spec (`session:ClassName`, numbered when another object took the name) of a Strategy
    subclass or instance defined in this session; the same object gets the same spec."""
    is_class = isinstance(strategy, type) and issubclass(strategy, Strategy)
    if not (is_class or isinstance(strategy, Strategy)):
        raise StrategyError(f"{strategy!r} is neither a Strategy subclass nor an instance of one")
    base = SESSION_PREFIX + (strategy if is_class else type(strategy)).__qualname__
    spec, number = base, 1
    while _defined.get(spec, strategy) is not strategy:
        number += 1
        spec = f"{base}#{number}"
    _defined[spec] = strategy
    return spec


def session_definitions(specs: Iterable[Spec]) -> dict[str, type[Strategy] | Strategy]:
    """The objects behind the `session:` specs among `specs`, to ship to another process (a
    Dask worker); a class defined in `__main__` or a function travels by value there."""
    targets = {spec.target for spec in specs}
    return {target: _defined[target] for target in sorted(targets) if target in _defined}


def receive_definitions(definitions: dict[str, type[Strategy] | Strategy]) -> None:
    """Make shipped session objects (`session_definitions`) load under their specs here."""
    _defined.update(definitions)
    _load.cache_clear()


@functools.lru_cache(maxsize=256)
def _load(spec: Spec, cwd: str, values_per_game: bool) -> StrategyFactory:
    # `cwd` is part of the cache key because relative file paths depend on it.
    target = spec.target
    required: tuple[str, ...] = ()  # an instance is copied, never constructed
    if isinstance(_defined.get(target), Strategy):
        if spec.query:
            raise StrategyError(f"{spec.text!r} is an instance: it takes no parameters")
        cls = type(_defined[target])
        factory = InstanceFactory(spec, cls, {}, "an instance defined in the session",
                                  _defined[target])
    else:
        cls, origin = _resolve(spec)
        factory = StrategyFactory(spec, cls, _parameters(cls, spec), origin)
        required = required_parameters(cls)
    if not isinstance(getattr(cls, "description", ""), str):
        raise StrategyError(f"strategy {spec.text!r}: its description must be a string (one "
                            f"line), not {cls.description!r}")
    if values_per_game and _missing(spec, required):
        return factory
    check_required(spec, required)
    guarded(f"cannot build strategy {spec.text!r}", lambda: factory(random.Random(0)))
    return factory


#: domsim's package folder: a frame in it is domsim's, not a strategy's; the sandbox shows it
#: to every bot (domsim.seat.sandbox).
PACKAGE = Path(__file__).parent


def guarded(what: str, call: Callable[[], object]) -> object:
    """Run a strategy's own code (import, constructor): whatever it raises, `sys.exit` and
    BaseException included, becomes a StrategyError naming `what`; only Ctrl-C passes."""
    try:
        return call()
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise StrategyError(f"{what}: {one_line(exc)}{_raised_at(exc)}") from None


def _raised_at(exc: BaseException) -> str:
    """Where a strategy's own code raised `exc`, as ` (FILE, line N)`: the innermost frame that
    is neither domsim's nor the import machinery's (a SyntaxError names its line itself)."""
    if isinstance(exc, SyntaxError):
        return ""
    import traceback  # here: only a strategy that fails to load needs it

    frames = [frame for frame in traceback.extract_tb(exc.__traceback__)
              if not frame.filename.startswith("<")
              and not Path(frame.filename).is_relative_to(PACKAGE)]
    return f" ({frames[-1].filename}, line {frames[-1].lineno})" if frames else ""


_short = reprlib.Repr()  # for whatever a strategy returns: bounded, and safe if repr() fails
_short.maxother = _short.maxstring = 100


def short_repr(value: object) -> str:
    """What a strategy returned, as a fault's message names it (bounded)."""
    return _short.repr(value)


def one_line(exc: BaseException) -> str:
    """`Type: first line of the message`, for one-line errors and fault reports."""
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__


# -- resolving a spec ---------------------------------------------------------------------------
def _resolve(spec: Spec) -> tuple[type[Strategy], str]:
    target = spec.target
    if target in _defined:
        return _defined[target], "a class defined in the session"
    if spec.kind == "session":
        raise StrategyError(f"no strategy {target!r} in this process: a session: spec works "
                            "only in the Python session that defined it (domsim.api)")
    if spec.kind == "file":
        return (_pick_class(file_module(spec.path), spec.cls, spec.path),
                f"file {Path(spec.path).resolve()}")
    if spec.kind == "module":
        return _pick_class(_import(spec.module, target), spec.cls, spec.module), \
            f"module {spec.module}"
    return _from_entry_point(target)


_received_files: dict[str, Path] = {}


def receive_file(path_text: str, copy: Path) -> None:
    """From now on, load `copy` for specs naming the file `path_text`: a strategy file shipped to
    this process (a Dask worker) by the one where the spec was written."""
    _received_files[path_text] = copy
    _load.cache_clear()


def local_file(path_text: str) -> Path:
    """Where this process finds the strategy file a spec names (its shipped copy, if any)."""
    return _received_files.get(path_text) or Path(path_text).expanduser()


def existing_file(path_text: str) -> Path:
    """Where this process finds the strategy file a spec names; StrategyError if nowhere."""
    path = local_file(path_text)
    if not path.is_file():
        raise StrategyError(f"strategy file {path_text!r} not found (looked in {os.getcwd()}): "
                            "check the path")
    return path


def file_module(path_text: str) -> ModuleType:
    """Load a strategy file as a module named after its resolved path, once per process."""
    path = existing_file(path_text).resolve()
    digest = f"{zlib.crc32(str(path).encode()):08x}"  # not hashlib: OpenSSL costs a bot's start
    stem = re.sub(r"\W", "_", path.stem)
    name = f"domsim_file_{stem}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None:
        raise StrategyError(f"strategy file {path_text!r} is not a Python file: give a .py file")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module  # before running it, as an import would (dataclasses need it)
    try:
        guarded(f"cannot load strategy file {path_text}",
                lambda: module_spec.loader.exec_module(module))
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _import(module_name: str, target: str) -> ModuleType:
    return guarded(f"cannot import {module_name!r} for strategy {target!r} (is it installed or "
                   "on PYTHONPATH?)", lambda: importlib.import_module(module_name))


def strategy_classes(module: ModuleType) -> list[type[Strategy]]:
    """The Strategy subclasses a module defines itself (not those it imports), in order."""
    return [value for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, Strategy)
            and value.__module__ == module.__name__]


def _pick_class(module: ModuleType, name: str, where: str) -> type[Strategy]:
    found = strategy_classes(module)
    names = ", ".join(cls.__name__ for cls in found) or "none"
    if name:
        cls = getattr(module, name, None)
        if not (isinstance(cls, type) and issubclass(cls, Strategy)):
            raise StrategyError(f"{where} has no Strategy subclass {name!r} (it defines: {names})")
        return cls
    if len(found) == 1:
        return found[0]
    if not found:
        raise StrategyError(f"{where} defines no Strategy subclass: write "
                            "`class MyBot(Strategy)` with a choose(view) method")
    raise StrategyError(f"{where} defines several strategies ({names}): name one, "
                        f"e.g. {where}:{found[0].__name__}")


@functools.cache
def entry_points() -> dict[str, importlib.metadata.EntryPoint]:
    """Strategies registered under `domsim.strategies`, the built-in levels first."""
    import importlib.metadata  # here: it costs a seat host that loads a file a fifth of its start

    found: dict[str, importlib.metadata.EntryPoint] = {}
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(entry.name, entry)
    return found


def check_registered(name: str) -> None:
    """StrategyError, with the name it probably meant, for a name no entry point registers."""
    if name not in entry_points():
        raise StrategyError(
            f"unknown strategy {name!r}: {did_you_mean(name, entry_points())}use one of "
            f"{', '.join(entry_points())}, path/to/bot.py[:Class] or package.module:Class (see "
            "`domsim strategies`)")


def _from_entry_point(name: str) -> tuple[type[Strategy], str]:
    check_registered(name)
    entry = entry_points()[name]
    dist = entry.dist.name if entry.dist else "an installed package"
    origin = f"built-in {entry.value}" if dist == "domsim" else f"package {dist}: {entry.value}"
    cls = guarded(f"cannot load strategy {name!r} ({origin})", entry.load)
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        raise StrategyError(f"strategy {name!r} ({origin}) is not a Strategy subclass")
    return cls, origin


# -- parameters ---------------------------------------------------------------------------------
def _parameters(cls: type[Strategy], spec: Spec) -> dict[str, object]:
    """`key=value&...` coerced by the constructor's annotations."""
    return coerced_parameters(_accepted_parameters(cls), spec)


def coerced_parameters(accepted: dict[str, object], spec: Spec) -> dict[str, object]:
    """A spec's parameters coerced to the types `accepted` gives each name (StrategyError, one
    line, for a name not there or a value not of its type)."""
    if not spec.parameters:
        return {}
    target = spec.target
    allowed = ", ".join(accepted) or "none"
    params: dict[str, object] = {}
    for key, sep, text in spec.parameters:
        if key not in accepted:
            raise StrategyError(f"strategy {target!r} has no parameter {key!r} "
                                f"(its parameters: {allowed})")
        if not sep or key in params:
            raise StrategyError(f"parameter {key!r} of {target!r} needs one value: "
                                f"write {key}=VALUE once")
        params[key] = _coerce(accepted[key], text, key, target)
    return params


def declared_parameters(cls: type[Strategy]) -> dict[str, str]:
    """The parameters a strategy takes, each with its type's name ("int", "float", "bool",
    "str", else the annotation as written): what a seat host declares in `hello`, for domsim to
    check a spec's values before any game (`check_declared`)."""
    return {name: kind.__name__ if kind in PARAMETER_TYPES else str(kind)
            for name, kind in _accepted_parameters(cls).items()}


def required_parameters(cls: type[Strategy]) -> tuple[str, ...]:
    """The constructor's parameters without a default, which every spec of it must give: what
    a seat host declares in `hello` as `required` (`check_required`)."""
    return tuple(param.name for param in inspect.signature(cls).parameters.values()
                 if param.kind in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY)
                 and param.default is param.empty)


def _missing(spec: Spec, required: Iterable[str]) -> list[str]:
    return [name for name in required if name not in spec.parameter_values]


def check_required(spec: Spec, required: Iterable[str]) -> None:
    """StrategyError, one line, for a required parameter (`required_parameters`, or a bot's
    `hello`) the spec does not give, with the spec that gives it."""
    if missing := _missing(spec, required):
        names = ", ".join(map(repr, missing))
        example = spec.with_parameters(dict.fromkeys(missing, "VALUE")).text
        raise StrategyError(f"strategy {spec.target!r} needs parameter{'s' * (len(missing) > 1)} "
                            f"{names}: give {'them' if len(missing) > 1 else 'it'} in the spec, "
                            f"e.g. {example!r}")


def check_declared(spec: Spec, declared: dict[str, str]) -> None:
    """Check a spec's parameters against those its bot declared (`declared_parameters`), as
    loading it would (StrategyError)."""
    types = {kind.__name__: kind for kind in PARAMETER_TYPES}
    coerced_parameters({name: types.get(kind, kind) for name, kind in declared.items()}, spec)


def _accepted_parameters(cls: type[Strategy]) -> dict[str, object]:
    """Constructor parameter name -> annotated type (unannotated: the default's type, or str)."""
    try:
        hints = typing.get_type_hints(cls.__init__)
    except Exception:
        hints = {}
    out = {}
    for param in inspect.signature(cls).parameters.values():
        if param.kind in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
            default_type = type(param.default) if param.default not in (param.empty, None) else str
            out[param.name] = hints.get(param.name, default_type)
    return out


def _coerce(kind: object, text: str, key: str, target: str) -> object:
    if kind not in PARAMETER_TYPES:
        raise StrategyError(f"parameter {key!r} of {target!r} is annotated {kind!r}: spec "
                            "parameters can be int, float, bool or str")
    if kind is bool and text.lower() in BOOLEANS:
        return BOOLEANS[text.lower()]
    if kind is not bool:
        try:
            return kind(text)
        except ValueError:
            pass
    raise StrategyError(f"parameter {key!r} of {target!r} must be {PARAMETER_TYPES[kind]}, "
                        f"got {text!r}")


def spec_parameters(spec: Spec) -> dict[str, tuple[object, object]]:
    """The parameters of the strategy a spec names, each as (its type, the value the spec
    plays: its own, else the constructor's default; None where there is none)."""
    factory = load_strategy(spec)
    defaults = {param.name: param.default for param in inspect.signature(factory.cls).parameters
                .values() if param.default is not inspect.Parameter.empty}
    return {name: (kind, factory.params.get(name, defaults.get(name)))
            for name, kind in _accepted_parameters(factory.cls).items()}


# -- the catalogue `domsim strategies` prints ----------------------------------------------------
@dataclass(frozen=True)
class StrategyInfo:
    spec: str
    origin: str
    description: str
    parameters: tuple[str, ...] = ()  # "name: type = default", as `?name=value` takes them
    failed: bool = False  # it cannot be loaded: `description` says why


def parameter_list(cls: type[Strategy]) -> tuple[str, ...]:
    """The spec parameters of a strategy class, each as `name: type = default`, or
    `name: type (required)` when every spec of it must give one."""
    defaults = {param.name: param.default for param in inspect.signature(cls).parameters.values()}
    out = []
    for name, kind in _accepted_parameters(cls).items():
        kind_name = getattr(kind, "__name__", str(kind))
        default = defaults[name]
        out.append(f"{name}: {kind_name} (required)" if default is inspect.Parameter.empty
                   else f"{name}: {kind_name} = {default!r}")
    return tuple(out)


def strategy_catalog(paths: Iterable[Path] = ()) -> list[StrategyInfo]:
    """Every strategy domsim can find: the registered ones, the example files shipped in
    `domsim.strategies`, and the .py files at `paths` (files or folders). One that fails to load
    is listed with the reason instead of its description."""
    infos = [_info(name) for name in entry_points()]
    registered = {entry.module for entry in entry_points().values()}
    examples = Path(importlib.import_module(EXAMPLES_PACKAGE).__file__).parent
    for file in sorted(examples.glob("[!_]*.py")):
        module = f"{EXAMPLES_PACKAGE}.{file.stem}"
        if module not in registered:
            infos += _module_infos(module, lambda m=module: _import(m, m), f"example {file}")
    for path in paths:
        for file in sorted(path.glob("[!_]*.py")) if path.is_dir() else [path]:
            infos += _module_infos(str(file), lambda f=str(file): file_module(f),
                                   f"file {file.resolve()}", named=not path.is_dir())
    return infos


def _info(spec: str, origin: str | None = None) -> StrategyInfo:
    try:  # listed whatever parameters its specs must give (`parameter_list` names them)
        factory = load_strategy(spec, values_per_game=True)
    except StrategyError as exc:
        return StrategyInfo(spec, origin or "entry point", f"error: {exc}", failed=True)
    return StrategyInfo(spec, origin or factory.origin, factory.description,
                        parameter_list(factory.cls))


def _module_infos(where: str, load: Callable[[], ModuleType], origin: str,
                  named: bool = False) -> list[StrategyInfo]:
    """One entry per strategy class of a module or file (a lone class in a file needs no name);
    a file `named` on its own that defines none is an error (in a folder it is a helper)."""
    try:
        classes = strategy_classes(load())
    except StrategyError as exc:
        return [StrategyInfo(where, origin, f"error: {exc}", failed=True)]
    if not classes and named:
        return [StrategyInfo(where, origin, "error: it defines no Strategy subclass (a class "
                                            "deriving from domsim.strategy.Strategy)", failed=True)]
    if len(classes) == 1 and where.endswith(".py"):
        return [_info(where, origin)]
    return [_info(f"{where}:{cls.__name__}", origin) for cls in classes]
