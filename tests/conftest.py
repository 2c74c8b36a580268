"""Imported before every test module: domsim first, so that numpy, whichever module imports it,
starts one BLAS thread (domsim/__init__.py says why the move alarm needs that)."""

import domsim  # noqa: F401
