"""domsim: dominoes tournaments and simulation. The Python API (domsim.api): `tourney`,
`compare`, `play` and `load`, with results as pandas DataFrames.

Rule ids (R-...) cited in the code are defined in docs/RULES.md, the game record format in
docs/GAME-RECORD.md."""

__version__ = "0.2.0"

from .api import Comparison, Results, compare, load, play, tourney  # noqa: E402 (needs the version)

__all__ = ["Comparison", "Results", "__version__", "compare", "load", "play", "tourney"]
