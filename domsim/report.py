"""The calibration report: one self-contained HTML page a game designer reads in a minute, its
charts as SVG files (vector: crisp at any zoom) and every table as CSV beside it, from the
statistics of one or more runs (`domsim.analysis.run_statistics`, one section per run).

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
from .analysis import verdict_text, zero_label
from .dialcurve import DEFAULT_SPACING, curve, recommendations, split_dial
from .rules import VARIANTS
from .stats import score_from_elo

PAGE = "report.html"
#: The page shows a chart at 100 pixels an inch of its figure size.
PIXELS_PER_INCH = 100
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
                f'CSV</a></h3>\n<div class="scroll"><table><thead><tr>{head}</tr></thead>'
                f"<tbody>{body}</tbody></table></div>\n")



def _points_against(variant: str) -> bool:
    """Whether the variant's hands record points against a side (R-KOZEL), as the core says."""
    return variant in VARIANTS and VARIANTS[variant].points_against

def _csv_value(value: object) -> object:
    return f"{value:.6g}" if isinstance(value, float) else value


def text(value: object) -> str:
    return str(value)


def percent(value: object) -> str:
    return f"{value:.1%}"


def number(digits: int) -> Format:
    return lambda value: "-" if value is None else f"{value:.{digits}f}"


def signed(value: object) -> str:
    return "" if value is None else f"{value:+.0f}"  # None: a one-sided bound's open end


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
    tables = [
        Table("ratings", f"Ratings (Elo, {zero_label(ratings)}, 95% bootstrap interval over "
                         f"{ratings['samples']} resamplings of whole deals)",
              [("name", "entrant", text), ("elo", "Elo", signed), ("low", "low", signed),
               ("high", "high", signed), ("bound", "bound", lambda v: v or ""),
               ("p_stronger_than_previous", "P(stronger than the one above)",
                lambda v: "" if v is None else percent(v)), ("faults", "faults", text)],
              rating_rows),
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
        Table("points", "Points per hand" + (f" ({stats['variant']}: points against)"
                                             if _points_against(stats["variant"]) else ""),
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
    steps = Table("steps", "Ladder steps: Elo and the stronger level's win rate", STEP_COLUMNS,
                  step_rows(stats))
    return tables[:1] + [steps, *dial_tables(stats)] + tables[1:]


def step_rows(stats: dict) -> list[dict]:
    """Each step of the ladder: the joint Elo and the head-to-head Elo with its interval, and the
    step as the stronger level's win rate, expected (from the joint Elo, one against one) and
    measured (with its Wilson interval)."""
    pairs = {(pair["a"], pair["b"]): pair for pair in stats["pairs"]}
    rows = []
    for step in stats["ladder"]["steps"]:
        pair = pairs.get((step["from"], step["to"]))
        measured = {"h2h_elo": None, "h2h_low": None, "h2h_high": None, "win_rate": None,
                    "win_low": None, "win_high": None, "games": 0}
        if pair:  # a is the weaker: the step is the other way round
            measured = {"h2h_elo": -pair["elo"], "h2h_low": -pair["elo_high"],
                        "h2h_high": -pair["elo_low"], "win_rate": 1 - pair["win_rate"],
                        "win_low": 1 - pair["wilson_high"], "win_high": 1 - pair["wilson_low"],
                        "games": pair["games"]}
        rows.append({"from": step["from"], "to": step["to"], "elo": step["elo"],
                     "low": step["low"], "high": step["high"],
                     "expected_win_rate": score_from_elo(step["elo"]), **measured,
                     "p_stronger": step["p_stronger"], "significant": step["significant"]})
    return rows


def optional(show: Format) -> Format:
    return lambda value: "-" if value is None else show(value)


STEP_COLUMNS = [("from", "from", text), ("to", "to", text), ("elo", "Elo (joint)", signed),
                ("low", "low", signed), ("high", "high", signed),
                ("expected_win_rate", "expected win rate of to", percent),
                ("h2h_elo", "Elo head to head", optional(signed)),
                ("h2h_low", "low", optional(signed)), ("h2h_high", "high", optional(signed)),
                ("win_rate", "win rate of to", optional(percent)),
                ("win_low", "95% low", optional(percent)),
                ("win_high", "95% high", optional(percent)), ("games", "games", text),
                ("p_stronger", "P(stronger)", percent), ("significant", "significant", text)]


def dial_tables(stats: dict) -> list[Table]:
    """The dial's curve and the settings to ship, when the run played the dial."""
    rows = recommendations(stats["ratings"], DEFAULT_SPACING)
    if not rows:
        return []
    points = curve(split_dial(stats["ratings"])[1])
    return [
        Table("dial", "The dial's curve: Elo per strength, and the monotone fit",
              [("name", "entrant", text), ("strength", "strength", number(3)),
               ("elo", "Elo", signed), ("low", "low", signed), ("high", "high", signed),
               ("fitted", "fitted Elo", signed)], points),
        Table("recommendations", f"Settings to ship: the dial as strong as each level, and "
                                 f"{DEFAULT_SPACING} levels evenly spaced in Elo",
              [("target", "target", text), ("elo", "Elo", signed),
               ("setting", "dial strength", number(3)),
               ("on_curve", "within the measured curve", text),
               ("win_rate_vs_previous", "expected win rate vs the level below",
                optional(percent))], rows)]


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
    axes.set_xlabel(f"Elo ({zero_label(stats['ratings'])}), 95% interval")
    axes.set_title(f"{stats['variant']}: rating ladder")
    axes.grid(axis="x", alpha=0.3)
    return figure


def interval_errors(lines: list[dict], key: str = "elo") -> list[list[float]]:
    """Error bar lengths below and above each line's value; a bootstrap interval of a small run
    can miss its point estimate, and then that side's bar is empty."""
    return [[max(line[key] - line["low"], 0.0) if line["low"] is not None else 0.0
             for line in lines],
            [max(line["high"] - line[key], 0.0) if line["high"] is not None else 0.0
             for line in lines]]


def heatmap_chart(stats: dict) -> Figure:
    """Win rate of the row entrant against the column entrant (blank where they never met)."""
    names = stats["entrants"]
    size = len(names)
    matrix = [[float("nan")] * size for _ in names]
    cells = {}
    for pair in stats["pairs"]:
        i, j = names.index(pair["a"]), names.index(pair["b"])
        matrix[i][j], matrix[j][i] = pair["win_rate"], 1 - pair["win_rate"]
        low, high, games = pair["wilson_low"], pair["wilson_high"], pair["games"]
        cells[i, j] = f"{low:.0%}-{high:.0%}\n{games} g"
        cells[j, i] = f"{1 - high:.0%}-{1 - low:.0%}\n{games} g"
    figure = Figure(figsize=(2.2 + 1.3 * size, 1.6 + 1.0 * size), layout="constrained")
    axes = figure.add_subplot()
    image = axes.imshow(matrix, cmap="RdBu", vmin=0, vmax=1, interpolation="none")
    axes.set_xticks(range(size), names, rotation=30, ha="right")
    axes.set_yticks(range(size), names)
    for i in range(size):
        for j in range(size):
            if matrix[i][j] == matrix[i][j]:
                axes.text(j, i, f"{matrix[i][j]:.0%}\n{cells[i, j]}", ha="center",
                          va="center", fontsize="x-small",
                          color="white" if abs(matrix[i][j] - 0.5) > 0.3 else "black")
    axes.set_title(f"{stats['variant']}: win rate of row vs column (95% interval, games)")
    figure.colorbar(image, ax=axes, shrink=0.8, label="win rate of the row entrant")
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


def dial_chart(stats: dict) -> Figure:
    """The dial's Elo per strength with 95% intervals, its monotone fit, and the built-in
    levels as horizontal lines where they sit on it."""
    levels, dial = split_dial(stats["ratings"])
    points = curve(dial)
    figure = Figure(figsize=(6.4, 4.0), layout="constrained")
    axes = figure.add_subplot()
    strengths = [point["strength"] for point in points]
    axes.errorbar(strengths, [point["elo"] for point in points], yerr=interval_errors(points),
                  fmt="o", capsize=4, color="#1f5f9e", label="dial, 95% interval")
    axes.plot(strengths, [point["fitted"] for point in points], color="#f0a030",
              label="monotone fit")
    for line in levels:
        axes.axhline(line["elo"], color="#999", linestyle="--", linewidth=0.8)
        axes.text(0.01, line["elo"], line["name"], transform=axes.get_yaxis_transform(),
                  va="bottom", fontsize="small", color="#555")
    axes.set_xlim(-0.03, 1.03)
    axes.set_xlabel("dial strength (dial?strength=S)")
    axes.set_ylabel(f"Elo ({zero_label(stats['ratings'])})")
    axes.legend(loc="lower right", fontsize="small")
    axes.set_title(f"{stats['variant']}: the dial's curve and the levels on it")
    axes.grid(alpha=0.3)
    return figure


def steps_chart(runs: list[dict], keys: list[str]) -> Figure:
    """Every section's ladder steps side by side: the step between the two ratings with its 95%
    interval (the verdict's), so a level relatively too strong stands out."""
    labels = list(dict.fromkeys(step_label(row) for stats in runs for row in step_rows(stats)))
    figure = Figure(figsize=(9.6, 1.2 + 0.35 * len(labels) * len(runs)), layout="constrained")
    axes = figure.add_subplot()
    height = 0.8 / max(len(runs), 1)
    for k, (stats, key) in enumerate(zip(runs, keys, strict=True)):
        rows = {step_label(row): row for row in step_rows(stats)}
        ys = [len(labels) - 1 - i + 0.4 - (k + 0.5) * height
              for i, label in enumerate(labels) if label in rows]
        lines = list(rows.values())
        axes.barh(ys, [line["elo"] for line in lines], height=height, label=key,
                  xerr=interval_errors(lines), capsize=2)
    axes.set_yticks(range(len(labels))[::-1], labels)
    axes.axvline(0, color="#999", linewidth=0.8)
    axes.set_xlabel("Elo of the step (between the ratings, 95% interval)")
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    axes.set_title("Ladder steps in every section")
    axes.grid(axis="x", alpha=0.3)
    return figure


def step_label(row: dict) -> str:
    """A step named by its levels alone (kozel's partners left out), to line variants up."""
    return f"{row['from'].split('+')[0]} -> {row['to'].split('+')[0]}"


CHARTS = (("ladder", "Rating ladder", ladder_chart),
          ("heatmap", "Head-to-head win rates", heatmap_chart),
          ("hands", "How hands end", hands_chart),
          ("timing", "Decision time", timing_chart))


def svg(figure: Figure) -> bytes:
    """The chart as SVG, its text as paths (the same glyphs in every browser) and no date, so
    the same statistics give the same file."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def chart_html(figure: Figure, path: Path, title: str) -> str:
    """Write the chart's SVG to `path` and return its <img>, embedded."""
    data = svg(figure)
    path.write_bytes(data)
    width = round(figure.get_figwidth() * PIXELS_PER_INCH)
    return (f'<img src="data:image/svg+xml;base64,{base64.b64encode(data).decode()}" '
            f'width="{width}" alt="{html.escape(title)}" title="{html.escape(path.name)}">')


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
.good { background: #e3f4e1; } .bad { background: #fbe6e1; } .unsure { background: #eeeeee; }
.charts { display: flex; flex-wrap: wrap; align-items: flex-start; gap: .5em 1em; }
.charts img { max-width: 100%; height: auto; }
.csv { font-size: .75em; font-weight: normal; }
.scroll { overflow-x: auto; max-width: 100%; }
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
    """Green for a proven ladder, grey where there are too few deals to judge or the run is no
    ladder (a ranking), else red."""
    ladder = stats["ladder"]
    if not ladder["enough_deals"] or not stats["calibration"]:
        return "unsure"
    return "good" if ladder["increasing"] and ladder["significant"] else "bad"


def write_report(runs: list[dict], out: Path) -> Path:
    """Write report.html, one SVG per chart and one CSV per table into `out`; return the page.
    `runs` are `run_statistics` results, one page section each."""
    out.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    sections, verdicts, keys = [], [], []
    for stats in runs:
        key = section_key(stats, taken)
        keys.append(key)
        sections.append(section_html(stats, key, out))
        verdicts.append(verdict_row(stats, key))
    Table("verdicts", "Verdicts", VERDICT_COLUMNS, verdicts).write_csv(out / "verdicts.csv")
    Table("steps", "Every section's steps", [("section", "section", text), *STEP_COLUMNS],
          [{"section": key, **row} for stats, key in zip(runs, keys, strict=True)
           for row in step_rows(stats)]).write_csv(out / "steps.csv")
    Table("levels", "Every section's levels", LEVEL_COLUMNS,
          [{"section": key, **line, "zero": stats["ladder"]["zero"]}
           for stats, key in zip(runs, keys, strict=True)
           for line in stats["ladder"]["levels"]]).write_csv(out / "levels.csv")
    steps = chart_html(steps_chart(runs, keys), out / "steps.svg", "Ladder steps")
    items = "".join(
        f'<li class="verdict {verdict_class(stats)}"><a href="#{html.escape(v["section"])}">'
        f'{html.escape(v["section"])}</a>: {html.escape(v["verdict"])}</li>'
        for stats, v in zip(runs, verdicts, strict=True))
    page = (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>domsim calibration report</title>\n<style>{STYLE}</style>\n</head>\n"
            f"<body>\n<h1>domsim calibration report</h1>\n"
            f'<p class="meta">domsim {html.escape(__version__)}; a ladder step is significant '
            f"when the stronger entrant is rated higher in at least 97.5% of the bootstrap "
            f'samples; a level\'s Elo is against the mean of the levels, with its 95% interval. '
            f'All tables: <a href="verdicts.csv">verdicts.csv</a>, <a href="steps.csv">'
            f'steps.csv</a>, <a href="levels.csv">levels.csv</a> and the CSV links.</p>'
            f'\n<ul>{items}</ul>\n<div class="charts">{steps}</div>\n{"".join(sections)}'
            "</body>\n</html>\n")
    (out / PAGE).write_text(page, encoding="utf-8")
    return out / PAGE


LEVEL_COLUMNS = [("section", "section", text), ("name", "level", text), ("elo", "Elo", signed),
                 ("low", "low", signed), ("high", "high", signed),
                 ("bound", "bound", lambda v: v or ""), ("zero", "Elo 0", text)]
VERDICT_COLUMNS = [("section", "section", text), ("variant", "variant", text),
                   ("players", "players", text), ("games", "games", text),
                   ("increasing", "increasing", text), ("significant", "significant", text),
                   ("steps", "steps", text), ("significant_steps", "significant steps", text),
                   ("smallest_step_elo", "smallest step", signed),
                   ("largest_step_elo", "largest step", signed),
                   ("smallest_step_win_rate", "smallest step's expected win rate", percent),
                   ("verdict", "verdict", text)]


def verdict_row(stats: dict, key: str) -> dict:
    """A section's verdict in numbers (and the sentence)."""
    ladder = stats["ladder"]
    elo = [step["elo"] for step in ladder["steps"]] or [0.0]
    return {"section": key, "variant": stats["variant"], "players": stats["players"],
            "games": stats["games"], "increasing": ladder["increasing"],
            "significant": ladder["significant"], "steps": len(ladder["steps"]),
            "significant_steps": sum(step["significant"] for step in ladder["steps"]),
            "smallest_step_elo": min(elo), "largest_step_elo": max(elo),
            "smallest_step_win_rate": score_from_elo(min(elo)), "verdict": verdict_text(stats)}


def section_html(stats: dict, key: str, out: Path) -> str:
    played = (f"{stats['games']} of {stats['games_planned']} games (partial run)"
              if stats["partial"] else f"{stats['games']} games")
    parts = [f'<section id="{html.escape(key)}">\n<h2>{html.escape(stats["variant"])}, '
             f"{stats['players']} players</h2>\n",
             f'<p class="meta">{html.escape(stats["run"])}: {played}, seed {stats["seed"]}, '
             f"{stats['seatings_per_deal']} seating(s) per deal</p>\n",
             f'<p class="verdict {verdict_class(stats)}">'
             f"{html.escape(verdict_text(stats))}</p>\n", '<div class="charts">']
    charts = CHARTS + ((("dial", "The dial's curve", dial_chart),) if dial_tables(stats) else ())
    for name, title, draw in charts:
        parts.append(chart_html(draw(stats), out / f"{key}-{name}.svg", title))
    parts.append("</div>\n")
    for table in section_tables(stats):
        csv_name = f"{key}-{table.name}.csv"
        table.write_csv(out / csv_name)
        parts.append(table.html(csv_name))
    parts.append("</section>\n")
    return "".join(parts)
