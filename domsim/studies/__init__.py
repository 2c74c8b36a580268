"""The studies: loops of sessions of the one driver (domsim.runner.session) that answer a
question bigger than one tourney: a comparison until a sequential test decides (compare), the
calibration of the built-in levels (calibrate, calibration, steps), the dial tuned to a target
(tune) and a strategy's parameters tuned by SPSA (spsa)."""
