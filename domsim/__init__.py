"""domsim: dominoes tournaments and simulation. The Python API (domsim.api): `tourney`,
`compare`, `play` and `load`, with results as pandas DataFrames; `DomsimError`, the base of every
error domsim raises to a user (domsim.errors).

The API's names load on first use (PEP 562), so `import domsim` and a bot's process
(`python -m domsim.seat.host`) import neither the runner nor numpy, pandas or pyarrow. Rule ids
(R-...) cited in the code are defined in docs/RULES.md, the game record format in
docs/GAME-RECORD.md."""

import sys
from types import ModuleType
from typing import TYPE_CHECKING

from .version import __version__

__all__ = ["Comparison", "DomsimError", "Results", "__version__", "compare", "load", "play",
           "tourney"]

if TYPE_CHECKING:
    from .api import Comparison, Results, compare, load, play, tourney
    from .errors import DomsimError


def __getattr__(name: str):
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if name == "DomsimError":  # catching it needs the core, not the API and its libraries
        from .errors import DomsimError as value
    else:
        from . import api

        value = getattr(api, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(ModuleType):
    """`domsim.compare` is the API's function, though the submodule domsim.compare has its name
    too: the import system binds a submodule to its package's attribute, a binding not kept
    here (anything else set, a test's stand-in say, is)."""

    @property
    def compare(self):
        return vars(self)["compare"] if "compare" in vars(self) else __getattr__("compare")

    @compare.setter
    def compare(self, value) -> None:
        if not isinstance(value, ModuleType):
            vars(self)["compare"] = value


sys.modules[__name__].__class__ = _Package
