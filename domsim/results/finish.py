"""A session's end, written to the run folder for whatever is finished: the games file (and
records) assembled from the parts, summary.csv with the ratings `domsim stats` gives the same
games, then the manifest with the checksums of those files. The parts go last, and only once
every game is in, so a crash at any point leaves a folder that `--resume` finishes."""

from __future__ import annotations

from .manifest import Outcome, Planned, end_session, seal_manifest
from .parts import remove_parts
from .ratings import outcomes_of, rate_outcomes, summary_lines
from .sides import SHARE_COLUMNS
from .summary import Tally, write_summary
from .table import assemble, read_games


def finish(run: Planned, manifest: dict, session: dict, outcome: Outcome,
           tally: Tally | None, rated: bool = True) -> None:
    """Write the games table, summary and manifest for whatever is finished; the summary from
    `tally` if it holds every finished game, else from the games read back; its Elo columns
    left empty unless `rated` (`domsim stats` works them out from the games either way)."""
    out, config = run.out, run.config
    end_session(manifest, session, outcome)
    assemble(out, run.schema, config.output_format, config.records, manifest)
    if tally is None:
        tally = run.tally()
        tally.add_table(read_games(out, run.schema))
    write_summary(out, rated_summary(run, manifest, tally, not outcome.partial) if rated
                  else [line for _, _, line in tally.rows()])
    seal_manifest(out, manifest, config)
    if not outcome.partial:
        remove_parts(out)


def rated_summary(run: Planned, manifest: dict, tally: Tally, finished: bool) -> list[dict]:
    """The summary lines with the ratings `domsim stats` gives the same games (its default
    resamplings and seed), read back from the files just written."""
    if not any(line.games for line in tally.lines.values()):
        return [line for _, _, line in tally.rows()]
    plan = run.plan
    games = outcomes_of(plan.rules, plan.entrants, plan.pairings,  # no more columns than it reads
                        read_games(run.out, run.schema, finished, SHARE_COLUMNS))
    fitted = rate_outcomes(games, plan.entrants, manifest)
    return summary_lines(tally, plan.pairings, plan.schedule.seatings_per_deal, games, fitted)
