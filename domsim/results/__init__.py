"""A run and its folder, writing and reading in one package: the runner, compare and tune write
a run through it, the analysis, report, API and command line read it. It imports nothing above
it (no seat, game, runner or analysis).

- `config`: a run's settings (the manifest's config table);
- `pairings`: entrants, who plays whom, and which seat each entrant takes in a seating;
- `schedule`: which deal and seating every game id plays;
- `folder`: which file of the folder holds what, and where the finished games are;
- `columns`: the games table, one entry per column (name, type, how computed, how checked);
- `atomic`: files written whole or not at all;
- `parts`: a finished batch's part file, and cleaning up after a crash;
- `checksums`: the sha256 of parts and of the final files;
- `table`: the games file assembled from the parts, and read back (Parquet or CSV);
- `manifest`: manifest.json, from a new run to each session's end;
- `finish`: a session's end: the games file, summary.csv and the manifest, then the parts go;
- `summary`, `ratings`: the per-entrant tally and ratings that summary.csv holds;
- `validate`: a games table checked against the run that claims it;
- `run`: `Run` and `load_run`, a run read back and checked;
- `legacy`: folders of domsim 0.1, read for `domsim upgrade` and refused by the others."""
