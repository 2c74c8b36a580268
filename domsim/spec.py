"""A strategy spec read once (domsim.strategy's docstring lists the forms): what kind of
strategy it names, the file, module or class, its parameters as written, the files its bot may
read, and an `exec:` spec's command line. Nothing is loaded or checked here: `Spec.of` only
reads the text, once per spec and process.

A spec is text where it comes in (the command line, the API, a scenario, a manifest) and where it
goes out (records, tables, logs: `text`); in between, the plan, the runner, the seats and the
strategy loader pass the `Spec`."""

from __future__ import annotations

import functools
from dataclasses import dataclass

SESSION_PREFIX = "session:"
#: A program speaking the seat protocol in its own process (domsim.seat.process), never loaded
#: here; `exec?NAME=VALUE&...:COMMAND` gives it parameters, sent with each game.
EXEC_PREFIX = "exec:"
EXEC_WITH_PARAMETERS = "exec?"
#: A parameter every spec may take, naming the other files its bot reads (`Spec.files`).
FILES_PARAMETER = "files"
#: The built-in levels, weakest first (entry points of domsim.strategy.ENTRY_POINT_GROUP).
BUILT_IN_LEVELS = ("easy", "medium", "hard", "insane")
#: Longest spec a log line names in full (a long `exec:` command line is cut: `Spec.label`).
LABEL_LENGTH = 120
#: The dial: one strength from easy to insane (strategies/dial.py).
DIAL = "dial"
#: Specs that always stay in process, with or without parameters: the built-in levels and the
#: dial between them (domsim's own strategies, trusted).
TRUSTED = (*BUILT_IN_LEVELS, DIAL)


@dataclass(frozen=True, order=True)
class Spec:
    """`kind`: "exec" (a program), "session" (defined in this Python session), "file" (a
    strategy file, `path`), "module" (`module:Class`) or "name" (registered: a built-in level
    or a package's). `target`: the spec before its parameters; `query`: after the `?`."""

    text: str
    kind: str
    target: str
    query: str = ""
    path: str | None = None  # the strategy file, as written
    module: str = ""  # the module of a `module:Class` spec
    cls: str = ""  # the class a file or module spec names ("": a file's only one)
    command: str = ""  # an `exec:` spec's command line

    def __str__(self) -> str:
        return self.text

    @staticmethod
    def of(spec: Spec | str) -> Spec:
        """The Spec a spec's text names (read once per text and process); a Spec is itself."""
        return spec if isinstance(spec, Spec) else _parse(spec)

    @property
    def label(self) -> str:
        """The spec as log lines name it: cut past `LABEL_LENGTH` characters."""
        text = self.text
        return text if len(text) <= LABEL_LENGTH else \
            f"{text[:LABEL_LENGTH]}... ({len(text)} chars)"

    def with_parameters(self, values: dict[str, str]) -> Spec:
        """This spec with each of `values` set (`hard?shed=2` with {"block": "4"}:
        `hard?shed=2&block=4`; `exec:./bot` with {"depth": "3"}: `exec?depth=3:./bot`),
        replacing its own value of that name."""
        pairs = [pair for pair in self.query.split("&")
                 if pair and pair.partition("=")[0].strip() not in values]
        return self._with_query("&".join(pairs + [f"{key}={text}"
                                                  for key, text in values.items()]))

    def _with_query(self, query: str) -> Spec:
        if not query:
            return Spec.of(self.target)
        if self.kind == "exec":
            return Spec.of(f"{EXEC_WITH_PARAMETERS}{query}:{self.command}")
        return Spec.of(f"{self.target}?{query}")

    def without_parameters(self) -> Spec:
        """This spec with none of its strategy's parameters (its `files=` kept): what a bot
        process is started with, the parameters going with each game instead
        (`parameter_values`), so that specs differing only in them share their processes.
        Worked out once per spec and process: a game's seats ask it."""
        return _without_parameters(self)

    @property
    def parameter_values(self) -> dict[str, str]:
        """The strategy's parameters as written (`key=value`), by name: what the seat protocol's
        `game` message carries to a bot started `without_parameters`."""
        return {key: value for key, _, value in self.parameters}

    @property
    def trusted(self) -> bool:
        """A built-in level or the dial: always played in process."""
        return self.target.strip() in TRUSTED

    @property
    def parameters(self) -> tuple[tuple[str, str, str], ...]:
        """The `key=value` pairs of the query as written (key, "=" or "", value), stripped,
        but `files=` (domsim's, not the strategy's)."""
        pairs = ((part.strip() for part in pair.partition("=")) for pair in self.query.split("&"))
        return tuple((key, sep, value) for key, sep, value in pairs if key != FILES_PARAMETER) \
            if self.query else ()

    @property
    def files(self) -> tuple[str, ...]:
        """The other files and folders its bot may read in the sandbox, as its reserved
        parameter `files=A,B` names them (docs/seat-protocol.md, "The sandbox")."""
        for pair in self.query.split("&"):
            key, _, value = (part.strip() for part in pair.partition("="))
            if key == FILES_PARAMETER:
                return tuple(name for name in (n.strip() for n in value.split(",")) if name)
        return ()


@functools.lru_cache(maxsize=1024)
def _without_parameters(spec: Spec) -> Spec:
    if not spec.parameters:
        return spec
    files = [pair for pair in spec.query.split("&")
             if pair.partition("=")[0].strip() == FILES_PARAMETER]
    return spec._with_query(files[0] if files else "")


@functools.lru_cache(maxsize=1024)
def _parse(text: str) -> Spec:
    stripped = text.strip()
    if stripped.startswith(EXEC_PREFIX):
        return Spec(text, "exec", stripped, command=stripped[len(EXEC_PREFIX):])
    if stripped.startswith(EXEC_WITH_PARAMETERS) and ":" in stripped:
        query, _, command = stripped[len(EXEC_WITH_PARAMETERS):].partition(":")
        return Spec(text, "exec", EXEC_PREFIX + command, query, command=command)
    target, _, query = stripped.partition("?")
    if target.startswith(SESSION_PREFIX):
        return Spec(text, "session", target, query)
    path = target if target.endswith(".py") else target.rpartition(":")[0]
    if path.endswith(".py"):
        return Spec(text, "file", target, query, path, cls=target[len(path) + 1:])
    module, _, cls = target.rpartition(":")
    if module:
        return Spec(text, "module", target, query, module=module, cls=cls)
    return Spec(text, "name", target, query)
