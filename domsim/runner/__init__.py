"""The one session driver: a tourney's plan played into its run folder (domsim.results), the
same for a tourney and for every run of a study (domsim.studies).

- `session`: one session as the API and the studies start it: `run_session(plan, out,
  execution)`, where `Execution` says how sessions run (backend, workers, what shows, the fault
  watch, the protocol trace, the command);
- `tourney`: the plan bound to its folder, with its strategies checked for how they run;
- `opening`: a run folder taken, new or resumable, and locked (`lock`: one writer a folder);
- `play`: a session's games in game-id order under a watch, and the result files written;
- `stream`: batches in flight on an executor, a dead worker's played again, isolated;
- `worker`: a batch of games played in a worker; `local`, `dask`: the two backends;
  `studypool`: a study's local workers, kept for all its sessions;
- `console`: the progress bar, the standings and the run's log; `signals`: stop signals.
Nothing here prints but the progress and the log; `domsim.cli` does."""
