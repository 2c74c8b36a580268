"""What a seat may spend and what its fault costs where the caller does not say (R-SEAT-FAULT):
the defaults a game, a bot's process and a run's settings share."""

#: Seconds a strategy may take per decision in a headless run (online it is 60).
MOVE_TIME_LIMIT = 5.0
#: Seconds past its limit a bot in its own process may still answer before it is killed.
GRACE_SECONDS = 1.0
#: Address space a bot's process may use, in MiB (0: no limit).
SEAT_MEMORY_MB = 2048
#: What a fault costs by default (domsim.record.FAULT_POLICIES).
ON_FAULT = "substitute"
