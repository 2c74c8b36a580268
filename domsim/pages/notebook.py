"""What a run's results show in a notebook (domsim.api's Results and Comparison): an HTML table of
the entrants strongest first, the win-rate crosstable and a long frame of every game of every
entrant as DataFrames, and two charts as matplotlib Figures (no pyplot: nothing is drawn until
shown)."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..analysis import head_to_head, outcomes
from ..plan.pairings import pairing_label
from ..results.run import Run
from ..results.sides import sides_of
from ..results.summary import ALL, elo_cell, faults_forfeit, interval_cell
from ..stats import shown_elo

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


def summary_html(title: str, summary: pd.DataFrame, lines: Sequence[str] = (),
                 pairing: str = ALL) -> str:
    """The entrants strongest first (summary.csv's rows of `pairing`: over all their games by
    default, their one rating; a comparison's pairing, each entrant's Elo against the other
    head to head over deals, the estimate its verdict lines give), under `title` and `lines`
    (a comparison's verdict, say)."""
    rows = summary[summary["pairing"] == pairing].sort_values("elo", ascending=False,
                                                              na_position="last")
    elo = "rating [95% CI]" if pairing == ALL else "Elo vs the other, over deals [95% CI]"
    head = "".join(f"<th>{name}</th>" for name in ("entrant", "games", "W-L-S",
                                                     "win rate [95% CI]", elo,
                                                     "margin/game [95% CI]", "faults"))
    body = "".join(f"<tr>{''.join(f'<td>{html.escape(str(cell))}</td>' for cell in cells)}</tr>"
                   for cells in map(row_cells, rows.to_dict("records")))
    said = "".join(f"<p>{html.escape(line)}</p>" for line in lines)
    return (f"<div><p><b>{html.escape(title)}</b></p>{said}<table><thead><tr>{head}</tr>"
            f"</thead><tbody>{body}</tbody></table></div>")


def study_html(title: str, lines: Sequence[str], stopped: str | None,
               page: Path | None) -> str:
    """A study under `title`: what its command prints, why it stopped early, a link to its
    page."""
    said = "".join(f"<p>{html.escape(line)}</p>" for line in lines)
    if stopped:
        said += f"<p><b>stopped:</b> {html.escape(stopped)}</p>"
    if page is not None:
        said += f'<p><a href="{html.escape(page.as_uri())}">{html.escape(page.name)}</a></p>'
    return f"<div><p><b>{html.escape(title)}</b></p>{said}</div>"


def row_cells(row: dict) -> tuple:
    def number(key: str) -> float | None:
        value = row.get(key)
        return None if value is None or (isinstance(value, float) and math.isnan(value)) \
            else float(value)

    bound = row.get("elo_bound") if isinstance(row.get("elo_bound"), str) else None
    return (row["entrant"], row["games"], f"{row['wins']}-{row['losses']}-{row['shared']}",
            f"{row['win_rate']:.1%} [{row['win_rate_low']:.1%}, {row['win_rate_high']:.1%}]",
            elo_cell(bound or None, number("elo"), number("elo_low"), number("elo_high"),
                     int(row["games"])),
            interval_cell(row["margin_per_game"], row["margin_per_game_low"],
                          row["margin_per_game_high"], "+.2f"),
            row["faults"])


def crosstable(run: Run) -> pd.DataFrame:
    """Row entrant's share of the wins against the column entrant, over the games they met in
    (a shared win counts its share); NaN where they never met."""
    import pandas as pd

    names = run.names
    table = pd.DataFrame(np.nan, index=pd.Index(names, name="entrant"), columns=names)
    for pair in head_to_head(run, outcomes(run)):
        if pair.games:
            table.loc[pair.a, pair.b] = pair.win_rate
            table.loc[pair.b, pair.a] = 1 - pair.win_rate
    return table


def per_entrant(run: Run) -> pd.DataFrame:
    """One row per game and entrant in it: game and deal id, pairing, the entrant, its share of
    the win, its points margin (forfeits counted as the summary counts them), the hands and its
    faults; in game-id order."""
    import pandas as pd

    games = sides_of(run.rules, run.entrants, run.pairings, run.table,
                     faults_forfeit(run.config))
    ids, labels = run.table.column("game_id").to_numpy(), [
        pairing_label(run.entrants, pairing) for pairing in run.pairings]
    frames = []
    for e, name in enumerate(run.names):
        plays, margin = games.margins(run.rules, e)
        own = games.entrant[plays] == e
        frames.append(pd.DataFrame({
            "game_id": ids[plays], "deal_id": games.deal[plays],
            "pairing": [labels[p] for p in games.pairing[plays].tolist()], "entrant": name,
            "share": (games.share[plays] * own).sum(axis=1), "margin": margin,
            "hands": games.hands[plays], "faults": (games.faults[plays] * own).sum(axis=1)}))
    frame = pd.concat(frames, ignore_index=True)
    return frame.sort_values(["game_id", "entrant"], kind="stable", ignore_index=True)


def ratings_figure(ratings: pd.DataFrame, title: str) -> Figure:
    """Each entrant's rating with its 95% interval, strongest at the top (a sweep at its bound,
    its open side drawn as an arrow)."""
    from matplotlib.figure import Figure

    lines = ratings.to_dict("records")[::-1]
    figure = Figure(figsize=(6.4, 0.8 + 0.45 * len(lines)), layout="constrained")
    axes = figure.add_subplot()
    for y, line in enumerate(lines):
        low, high = (line.get(key) for key in ("low", "high"))
        at = shown_elo({**line, "low": low, "high": high})
        axes.plot([at], [y], "o", color="#1f5f9e")
        for end in (low, high):
            if end is not None and not (isinstance(end, float) and math.isnan(end)):
                axes.plot([at, end], [y, y], color="#1f5f9e")
        if line.get("bound") in ("lower", "upper"):
            axes.annotate("", (at + (60 if line["bound"] == "lower" else -60), y), (at, y),
                          arrowprops={"arrowstyle": "->", "color": "#1f5f9e"})
    axes.set_yticks(range(len(lines)), [line["entrant"] for line in lines])
    axes.axvline(0, color="#999", linewidth=0.8)
    axes.set_xlabel("Elo, 95% interval")
    axes.set_title(title)
    return figure


def crosstable_figure(table: pd.DataFrame, title: str) -> Figure:
    """The crosstable as a heatmap, each cell's share written in it."""
    from matplotlib.figure import Figure

    size = len(table)
    figure = Figure(figsize=(1.6 + 0.9 * size, 1.2 + 0.7 * size), layout="constrained")
    axes = figure.add_subplot()
    image = axes.imshow(table.to_numpy(dtype=float), cmap="RdYlGn", vmin=0, vmax=1)
    for i in range(size):
        for j in range(size):
            value = table.iat[i, j]
            if not math.isnan(value):
                axes.text(j, i, f"{value:.0%}", ha="center", va="center", fontsize=8)
    axes.set_xticks(range(size), list(table.columns), rotation=45, ha="right")
    axes.set_yticks(range(size), list(table.index))
    axes.set_title(title)
    figure.colorbar(image, ax=axes, label="row's share of the wins")
    return figure
