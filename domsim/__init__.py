"""domsim: dominoes tournaments and simulation. The Python API (domsim.api): `tourney`,
`compare`, `play`, the studies (`calibrate`, `tune`, `tune_parameters`, `report`) and `load`,
with results as pandas DataFrames; `DomsimError`, the base of every error domsim raises to a
user (domsim.errors).

The API's names load on first use (PEP 562), so `import domsim` and a bot's process
(`python -m domsim.seat.host`) import neither the runner nor numpy, pandas or pyarrow. Rule ids
(R-...) cited in the code are defined in docs/RULES.md, the game record format in
docs/GAME-RECORD.md."""

from typing import TYPE_CHECKING

from .version import __version__

__all__ = ["Comparison", "DomsimError", "Results", "Study", "__version__", "calibrate",
           "compare", "load", "play", "report", "resume_compare", "tourney", "tune",
           "tune_parameters"]

if TYPE_CHECKING:
    from .api import (
        Comparison,
        Results,
        Study,
        calibrate,
        compare,
        load,
        play,
        report,
        resume_compare,
        tourney,
        tune,
        tune_parameters,
    )
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
    """The API and the module's own dunders: what a user of the package reaches for (its
    submodules are imported by name, and the names this file imports are its own business)."""
    return sorted({*__all__, *(name for name in globals() if name.startswith("__"))})
