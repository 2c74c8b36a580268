"""The studies: questions bigger than one tourney, each a loop of sessions of the one driver
(domsim.runner.session, every session run as the study's one `Execution` says, so every study
plays on the local backend or on Dask alike, locally all on one set of workers: study_workers),
each run in a folder of its own under the study's:

- `compare`: a comparison until a sequential test decides (a tourney of two with a watch);
- `calibrate`, `calibration`, `steps`: the calibration of the levels, its overview and its
  ladder's steps;
- `tune`: the dial tuned to a target, or N levels; `spsa`: a strategy's parameters by SPSA;
- `dialcurve`: the dial's curve and the settings it recommends;
- `folder`: the study's folder, written once for all of them: made with its request, held for
  one writer, resumed, saved after every run."""
