"""A run and its folder, writing and reading in one package: the runner (and so every study)
writes a run through it; the analysis, pages, API and command line read it. It imports nothing
above it (no seat, game, runner or analysis); what a tourney is (settings, entrants, schedule)
is domsim.plan's.

- `folder`: which file of the folder holds what, and where the finished games are;
- `columns`: the games table, one entry per column (name, type, how computed, how checked);
- `atomic`: files written whole or not at all;
- `parts`: a finished batch's part file, and cleaning up after a crash;
- `checksums`: the sha256 of parts and of the final files;
- `table`: the games file assembled from the parts, and read back (Parquet or CSV);
- `manifest`: manifest.json, from a new run to each session's end;
- `finish`: a session's end: the games file, summary.csv and the manifest, then the parts go;
- `summary`, `ratings`: the per-entrant tally and ratings that summary.csv holds (its Elo 0
  read off the plan's entrants);
- `sides`: a games table seen by sides, whole columns at once;
- `wholetable`: a games table checked whole, column by column (`validate` then names a row);
- `validate`: a games table checked against the run that claims it;
- `run`: `Run` and `load_run`, a run read back and checked;
- `legacy`: folders of domsim 0.1, read for `domsim upgrade` and refused by the others."""
