"""Tournaments: entrants and pairings, the game schedule, worker batches, the local and Dask
backends, and the result files. Nothing here prints; `domsim.cli` does."""
