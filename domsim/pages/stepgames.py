"""A ladder step's games as pages, so that a designer can watch what a step means: of the games the
two levels played against each other, the closest, the weaker level's biggest win and a typical
one (the margin nearest the median), each written as a game page (domsim.pages.gamepage) in the
report's games/ folder and linked from the report with an ordinary relative link."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..analysis import faults_forfeit
from ..results.folder import RunError
from ..results.run import Run, load_run
from ..results.sides import sides_of
from ..show import run_game
from .gamepage import page_html

#: The report's folder of game pages.
GAMES_FOLDER = "games"


@dataclass(frozen=True)
class GameLink:
    label: str  # what the link says: "closest", ...
    href: str  # relative to the report
    game_id: int


def step_pages(folder: Path, weaker: str, stronger: str, out: Path,
               prefix: str) -> list[GameLink]:
    """Write the pages of the step between `weaker` and `stronger` (entrant names or specs) of
    the run in `folder` to out/games/PREFIX-*.html; none where the folder holds no such games."""
    try:
        run = load_run(folder)
    except RunError:
        return []
    picks = pick_games(run, weaker, stronger)
    (out / GAMES_FOLDER).mkdir(parents=True, exist_ok=True)
    links = []
    for label, game_id in picks:
        href = f"{GAMES_FOLDER}/{prefix}-{label.split()[0]}.html"
        shown = run_game(run, game_id)
        title = f"{run.rules.name}, {weaker} v {stronger}: {label} (game id {game_id} of " \
                f"{folder.name})"
        (out / href).write_text(page_html(shown.record, title=title), encoding="utf-8")
        links.append(GameLink(label, href, game_id))
    return links


def pick_games(run: Run, weaker: str, stronger: str) -> list[tuple[str, int]]:
    """(label, game id) of the closest game between the two, the weaker's biggest win and a
    typical one, each game once; by the weaker's points margin, or, where the rules keep no
    points (classic), by its share of the win."""
    index = {name: e for e, entrant in enumerate(run.entrants)
             for name in (entrant.name, *(member.text for member in entrant.members))}
    if weaker not in index or stronger not in index:
        return []
    games = sides_of(run.rules, run.entrants, run.pairings, run.table,
                     faults_forfeit(run.config))
    w, s = index[weaker], index[stronger]
    met = (games.entrant == w).any(axis=1) & (games.entrant == s).any(axis=1)
    plays, margins = games.margins(run.rules, w)
    margin = np.full(len(plays), np.nan)
    margin[plays] = margins
    share = (games.share * (games.entrant == w)).sum(axis=1)
    score = np.where(np.isnan(margin) | (np.nanmax(np.abs(margin), initial=0) == 0),
                     share - 0.5, margin)
    ids = run.table.column("game_id").to_numpy()
    rows = np.flatnonzero(met & plays)
    if not len(rows):
        return []
    order = rows[np.lexsort((ids[rows], np.abs(score[rows])))]
    picks = [("closest", order[0])]
    best = rows[np.lexsort((ids[rows], -score[rows]))][0]
    picks.append((f"biggest win of {weaker}" if share[best] > 0.5 else f"best game of {weaker}",
                  best))
    median = np.median(score[rows])
    picks.append(("typical", rows[np.lexsort((ids[rows], np.abs(score[rows] - median)))][0]))
    seen: set[int] = set()
    out = []
    for label, row in picks:
        if row not in seen:
            seen.add(row)
            out.append((label, int(ids[row])))
    return out
