"""A run and its folder, in one place both sides read: the runner writes a run, the analysis,
report and command line read it.

- `config`: a run's settings (the manifest's config table);
- `pairings`: entrants, who plays whom, and which seat each entrant takes in a seating;
- `schedule`: which deal and seating every game id plays;
- `folder`: the files (games table schema, manifest, parts) and reading them back;
- `summary`: the per-entrant tally that summary.csv holds;
- `validate`: a games table checked against the run that claims it."""
