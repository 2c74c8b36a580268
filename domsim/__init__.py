"""domsim: dominoes tournaments and simulation. The Python API (domsim.api): `tourney`,
`compare`, `play` and `load`, with results as pandas DataFrames."""

__version__ = "0.2.0"

import os as _os  # noqa: E402 (after the version, as below)

# One BLAS thread (numpy's OpenBLAS starts one per core on import, and domsim needs none of
# them): the kernel may deliver the move alarm's SIGALRM to any thread that does not block it,
# and one that lands on a BLAS thread cannot interrupt the strategy (domsim.seat.MoveAlarm).
_os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from .api import Comparison, Results, compare, load, play, tourney  # noqa: E402 (needs the version)

__all__ = ["Comparison", "Results", "__version__", "compare", "load", "play", "tourney"]
