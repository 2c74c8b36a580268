"""The calibration report: one self-contained HTML page a game designer reads in a minute, its
charts as PNG files and every table as CSV beside it, from the statistics of one or more runs
(`domsim.analysis.run_statistics`, one section per run).

Charts are drawn with matplotlib's object API on the Agg canvas (no pyplot, no display, no global
backend state) and embedded in the page as base64 data, so the page stands alone."""

from __future__ import annotations

import base64
import csv
import html
import io
from collections.abc import Callable, Sequence
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter

from . import __version__
from .analysis import ladder_line

PAGE = "report.html"
Format = Callable[[object], str]


# -- tables ---------------------------------------------------------------------------------------
class Table:
    """A named table: CSV columns and rows of plain values, and how the page shows each column."""

    def __init__(self, name: str, title: str, columns: Sequence[tuple[str, str, Format]],
                 rows: list[dict]) -> None:
        self.name, self.title, self.columns, self.rows = name, title, columns, rows

    def write_csv(self, path: Path) -> None:
        with path.open("w", encoding="utf-8", newline="") as target:
            writer = csv.writer(target, lineterminator="\n")
            writer.writerow([key for key, _, _ in self.columns])
            for row in self.rows:
                writer.writerow([_csv_value(row[key]) for key, _, _ in self.columns])

    def html(self, csv_name: str) -> str:
        head = "".join(f"<th>{html.escape(label)}</th>" for _, label, _ in self.columns)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(show(row[key]))}</td>"
                             for key, _, show in self.columns) + "</tr>"
            for row in self.rows)
        return (f'<h3>{html.escape(self.title)} <a class="csv" href="{html.escape(csv_name)}">'
                f"CSV</a></h3>\n<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody>"
                "</table>\n")


def _csv_value(value: object) -> object:
    return f"{value:.6g}" if isinstance(value, float) else value


def text(value: object) -> str:
    return str(value)


def percent(value: object) -> str:
    return f"{value:.1%}"


def number(digits: int) -> Format:
    return lambda value: f"{value:.{digits}f}"


def signed(value: object) -> str:
    return f"{value:+.0f}"


def section_tables(stats: dict) -> list[Table]:
    """The tables of one run, in page order."""
    ratings = stats["ratings"]
    names = stats["entrants"]
    rating_rows = [{**line, "p_stronger_than_previous": (
        ratings["p_better"][line["name"]][names[i - 1]] if i else None)}
        for i, line in enumerate(ratings["entrants"])]
    pairs = [{**pair, "wls": f"{pair['wins']}-{pair['losses']}-{pair['shared']}"}
             for pair in stats["pairs"]]
    matrix = [{"entrant": a, **{b: ratings["p_better"][a][b] for b in names}} for a in names]
    return [
        Table("ratings", f"Ratings (Elo, {ratings['anchor']} = 0, 95% bootstrap interval over "
                         f"{ratings['samples']} resamplings of whole deals)",
              [("name", "entrant", text), ("elo", "Elo", signed), ("low", "low", signed),
               ("high", "high", signed),
               ("p_stronger_than_previous", "P(stronger than the one above)",
                lambda v: "" if v is None else percent(v))], rating_rows),
        Table("pairs", "Head to head: a against b (units: deals over all their seatings)",
              [("a", "a", text), ("b", "b", text), ("games", "games", text),
               ("wls", "W-L-S of a", text), ("win_rate", "win rate of a", percent),
               ("wilson_low", "95% low", percent), ("wilson_high", "95% high", percent),
               ("elo", "Elo", number(0)), ("elo_low", "Elo low", number(0)),
               ("elo_high", "Elo high", number(0)), ("nelo", "nElo", number(0)),
               ("los", "LOS", percent), ("units", "deals", text),
               ("variance_ratio", "variance vs independent games", number(2))], pairs),
        Table("p_better", "P(row is stronger than column), bootstrap over deals",
              [("entrant", "", text)] + [(b, b, percent) for b in names], matrix),
        Table("points", "Points per hand" + (" (kozel: points against)"
                                             if stats["variant"] == "kozel" else ""),
              [("entrant", "entrant", text), ("hands", "hands", text),
               ("points", "own points", number(2)), ("opponents", "opponents' points", number(2)),
               ("margin", "margin", number(2))], stats["points"]),
        Table("hands", "How hands end (shares of hands; dry: share of games won dry)",
              [("pairing", "pairing", text), ("games", "games", text), ("hands", "hands", text),
               ("domino", "domino", percent), ("blocked", "blocked", percent),
               ("capicu", "capicú", percent), ("dry_games", "dry wins", percent)],
              stats["hands"]),
        Table("timing", "Decision time per strategy, ms, over every decision with a choice",
              [("strategy", "strategy", text), ("games", "games", text),
               ("decisions", "decisions", text)]
              + [(f"p{q}_ms", f"p{q}", number(3)) for q in (50, 95, 99)]
              + [("max_ms", "slowest", number(3))],
              stats["timing"]),
    ]


# -- charts ---------------------------------------------------------------------------------------
def ladder_chart(stats: dict) -> Figure:
    """Elo of each entrant with its 95% interval, the first (weakest) entrant at the bottom."""
    lines = stats["ratings"]["entrants"]
    figure = Figure(figsize=(6.4, 0.8 + 0.45 * len(lines)), layout="constrained")
    axes = figure.add_subplot()
    ys = list(range(len(lines)))
    elo = [line["elo"] for line in lines]
    errors = interval_errors(lines)
    axes.errorbar(elo, ys, xerr=errors, fmt="o", capsize=4, color="#1f5f9e")
    axes.set_yticks(ys, [line["name"] for line in lines])
    axes.axvline(0, color="#999", linewidth=0.8)
    axes.set_xlabel(f"Elo ({stats['ratings']['anchor']} = 0), 95% interval")
    axes.set_title(f"{stats['variant']}: rating ladder")
    axes.grid(axis="x", alpha=0.3)
    return figure


def interval_errors(lines: list[dict], key: str = "elo") -> list[list[float]]:
    """Error bar lengths below and above each line's value; a bootstrap interval of a small run
    can miss its point estimate, and then that side's bar is empty."""
    return [[max(line[key] - line["low"], 0.0) for line in lines],
            [max(line["high"] - line[key], 0.0) for line in lines]]


def heatmap_chart(stats: dict) -> Figure:
    """Win rate of the row entrant against the column entrant (blank where they never met)."""
    names = stats["entrants"]
    size = len(names)
    matrix = [[float("nan")] * size for _ in names]
    for pair in stats["pairs"]:
        i, j = names.index(pair["a"]), names.index(pair["b"])
        matrix[i][j], matrix[j][i] = pair["win_rate"], 1 - pair["win_rate"]
    figure = Figure(figsize=(1.6 + 0.9 * size, 1.2 + 0.8 * size), layout="constrained")
    axes = figure.add_subplot()
    image = axes.imshow(matrix, cmap="RdBu", vmin=0, vmax=1)
    axes.set_xticks(range(size), names, rotation=30, ha="right")
    axes.set_yticks(range(size), names)
    for i in range(size):
        for j in range(size):
            if matrix[i][j] == matrix[i][j]:
                axes.text(j, i, f"{matrix[i][j]:.0%}", ha="center", va="center",
                          color="white" if abs(matrix[i][j] - 0.5) > 0.3 else "black")
    axes.set_title(f"{stats['variant']}: win rate of row vs column")
    figure.colorbar(image, ax=axes, shrink=0.8)
    return figure


def hands_chart(stats: dict) -> Figure:
    """How hands end per pairing: stacked shares of domino (capicú apart) and blocked hands."""
    lines = stats["hands"]
    figure = Figure(figsize=(6.4, 0.8 + 0.45 * len(lines)), layout="constrained")
    axes = figure.add_subplot()
    ys = list(range(len(lines)))[::-1]
    plain = [line["domino"] - line["capicu"] for line in lines]
    capicu = [line["capicu"] for line in lines]
    blocked = [line["blocked"] for line in lines]
    axes.barh(ys, plain, color="#3b7dd8", label="domino")
    axes.barh(ys, capicu, left=plain, color="#f0a030", label="capicú")
    axes.barh(ys, blocked, left=[a + b for a, b in zip(plain, capicu, strict=True)],
              color="#999", label="blocked")
    axes.set_yticks(ys, [line["pairing"] for line in lines])
    axes.set_xlim(0, 1)
    axes.set_xlabel("share of hands")
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    axes.set_title(f"{stats['variant']}: how hands end")
    return figure


def timing_chart(stats: dict) -> Figure:
    """Decision time per strategy: p50, p95 and p99 over every decision, log scale."""
    lines = stats["timing"]
    figure = Figure(figsize=(6.4, 0.8 + 0.5 * max(1, len(lines))), layout="constrained")
    axes = figure.add_subplot()
    height = 0.25
    for k, (q, colour) in enumerate(((50, "#1f5f9e"), (95, "#f0a030"), (99, "#c0392b"))):
        ys = [len(lines) - 1 - i + (1 - k) * height for i in range(len(lines))]
        values = [max(line[f"p{q}_ms"], 1e-3) for line in lines]
        axes.barh(ys, values, height=height, color=colour, label=f"p{q}")
    axes.set_yticks(range(len(lines))[::-1], [line["strategy"] for line in lines])
    axes.set_xscale("log")
    axes.xaxis.set_minor_formatter(NullFormatter())
    axes.set_xlabel("decision time, ms")
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    axes.set_title(f"{stats['variant']}: decision time")
    return figure


CHARTS = (("ladder", "Rating ladder", ladder_chart),
          ("heatmap", "Head-to-head win rates", heatmap_chart),
          ("hands", "How hands end", hands_chart),
          ("timing", "Decision time", timing_chart))


def png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


# -- the page -------------------------------------------------------------------------------------
STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #222; }
h1 { font-size: 1.6em; } h2 { border-bottom: 2px solid #1f5f9e; padding-bottom: .2em; }
h3 { font-size: 1.05em; margin-top: 1.5em; }
table { border-collapse: collapse; font-size: .9em; margin: .5em 0; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #eef3f8; }
.verdict { padding: .5em .8em; border-radius: 4px; font-weight: 600; }
.good { background: #e3f4e1; } .bad { background: #fbe6e1; }
.charts img { max-width: 100%; margin: .5em 1em .5em 0; vertical-align: top; }
.csv { font-size: .75em; font-weight: normal; }
.meta { color: #666; font-size: .9em; }
"""


def section_key(stats: dict, taken: set[str]) -> str:
    """A file-name prefix for a run's section: variant and players, made unique."""
    base = key = f"{stats['variant']}-{stats['players']}p"
    count = 1
    while key in taken:
        count += 1
        key = f"{base}-{count}"
    taken.add(key)
    return key


def verdict_class(stats: dict) -> str:
    ladder = stats["ladder"]
    return "good" if ladder["increasing"] and ladder["significant"] else "bad"


def write_report(runs: list[dict], out: Path) -> Path:
    """Write report.html, one PNG per chart and one CSV per table into `out`; return the page.
    `runs` are `run_statistics` results, one page section each."""
    out.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    sections, verdicts = [], []
    for stats in runs:
        key = section_key(stats, taken)
        sections.append(section_html(stats, key, out))
        verdicts.append({"section": key, "variant": stats["variant"],
                         "players": stats["players"], "games": stats["games"],
                         "increasing": stats["ladder"]["increasing"],
                         "significant": stats["ladder"]["significant"],
                         "verdict": ladder_line(stats["ladder"])})
    summary = Table("verdicts", "Verdicts", [("section", "section", text),
                                             ("games", "games", text),
                                             ("verdict", "verdict", text)], verdicts)
    summary.write_csv(out / "verdicts.csv")
    items = "".join(
        f'<li class="verdict {verdict_class(stats)}"><a href="#{html.escape(v["section"])}">'
        f'{html.escape(v["section"])}</a>: {html.escape(v["verdict"])}</li>'
        for stats, v in zip(runs, verdicts, strict=True))
    page = (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>domsim calibration report</title>\n<style>{STYLE}</style>\n</head>\n"
            f"<body>\n<h1>domsim calibration report</h1>\n"
            f'<p class="meta">domsim {html.escape(__version__)}; a ladder step is significant '
            f"when the stronger entrant is rated higher in at least 97.5% of the bootstrap "
            f'samples. All tables: <a href="verdicts.csv">verdicts.csv</a> and the CSV links.</p>'
            f"\n<ul>{items}</ul>\n{''.join(sections)}</body>\n</html>\n")
    (out / PAGE).write_text(page, encoding="utf-8")
    return out / PAGE


def section_html(stats: dict, key: str, out: Path) -> str:
    played = (f"{stats['games']} of {stats['games_planned']} games (partial run)"
              if stats["partial"] else f"{stats['games']} games")
    parts = [f'<section id="{html.escape(key)}">\n<h2>{html.escape(stats["variant"])}, '
             f"{stats['players']} players</h2>\n",
             f'<p class="meta">{html.escape(stats["run"])}: {played}, seed {stats["seed"]}, '
             f"{stats['seatings_per_deal']} seating(s) per deal</p>\n",
             f'<p class="verdict {verdict_class(stats)}">'
             f"{html.escape(ladder_line(stats['ladder']))}</p>\n", '<div class="charts">']
    for name, title, draw in CHARTS:
        data = png(draw(stats))
        file_name = f"{key}-{name}.png"
        (out / file_name).write_bytes(data)
        parts.append(f'<img src="data:image/png;base64,{base64.b64encode(data).decode()}" '
                     f'alt="{html.escape(title)}" title="{html.escape(file_name)}">')
    parts.append("</div>\n")
    for table in section_tables(stats):
        csv_name = f"{key}-{table.name}.csv"
        table.write_csv(out / csv_name)
        parts.append(table.html(csv_name))
    parts.append("</section>\n")
    return "".join(parts)
