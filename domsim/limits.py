"""What a seat may spend and what its fault costs where the caller does not say (R-SEAT-FAULT):
the defaults a game, a bot's process and a run's settings share."""

#: Seconds a strategy may take per decision in a headless run (online it is 60).
MOVE_TIME_LIMIT = 5.0
#: Seconds past its limit a bot in its own process may still answer before it is killed.
GRACE_SECONDS = 1.0
#: Memory a bot's sandbox (and each of its processes) may use, in MiB (0: no limit), and the
#: range of other values: below, not even a Python starts; above, a typo (1 TiB).
SEAT_MEMORY_MB = 2048
SEAT_MEMORY_RANGE = (32, 1 << 20)
#: Most worker processes a local run forks: each holds a Python and its bots, so more is a
#: typo on any machine (a Dask cluster's threads are the cluster's own).
MAX_WORKERS = 256
#: What a fault costs by default (domsim.record.FAULT_POLICIES).
ON_FAULT = "substitute"
#: Where a run plays its games: local worker processes, or a Dask cluster (runner.dask).
BACKENDS = ("local", "dask")
