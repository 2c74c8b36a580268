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
import math
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter

from ..analysis import MIN_DEALS, verdict_text, zero_label
from ..analysis import ladder as ladder_of
from ..plan.games import round_up
from ..results.atomic import write_json
from ..results.summary import signed_elo
from ..rules import VARIANTS
from ..stats import TIE_ELO, score_from_elo, shown_elo
from ..studies.dialcurve import DEFAULT_SPACING, curve, recommendations, split_dial
from ..studies.steps import interval_words
from ..version import __version__
from .stepgames import GAMES_FOLDER, step_pages

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
    return "" if value is None else signed_elo(value)  # None: a one-sided bound's open end


def section_tables(stats: dict, ladder: dict | None) -> list[Table]:
    """The tables of one run, in page order: its ladder's steps (`section_ladder`) when it
    is a ladder."""
    ratings = stats["ratings"]
    names = stats["entrants"]
    rating_rows = [{**line, "p_stronger_than_previous": (
        ratings["p_better"][line["name"]][names[i - 1]] if i else None)}
        for i, line in enumerate(ratings["entrants"])]
    pairs = [{**pair, "wls": f"{pair['wins']}-{pair['losses']}-{pair['shared']}"}
             for pair in stats["pairs"]]
    matrix = [{"entrant": a, **{b: ratings["p_better"][a][b] for b in names}} for a in names]
    tables = [
        Table("ratings", f"Joint ratings of this run (Elo, {zero_label(ratings)}, 95% bootstrap "
                         f"interval over {ratings['samples']} resamplings of whole deals)",
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
    if ladder is None:
        return [tables[0], *dial_tables(stats), *tables[1:]]
    steps = Table("steps", "Ladder steps: how much stronger each level is than the one below "
                  "(the step's estimate) and its win rate against it", STEP_COLUMNS,
                  ladder["steps"])
    return [tables[0], steps, *dial_tables(stats), *tables[1:]]


def optional(show: Format) -> Format:
    return lambda value: "-" if value is None else show(value)


#: A step's columns (steps.csv, each section's steps): `elo`, `elo_low`, `elo_high` answer
#: "how much stronger is `to` than `from`" (the step run's estimate, or with no step run the
#: difference of the overview's joint ratings: `estimate` says which); the `joint_` columns are
#: the overview's joint ratings' difference, a rating among all the levels, named as such.
STEP_COLUMNS = [("from", "from", text), ("to", "to", text),
                ("elo", "Elo of the step", optional(signed)),
                ("elo_low", "low", optional(signed)), ("elo_high", "high", optional(signed)),
                ("estimate", "estimate", text),
                ("win_rate", "win rate of to", optional(percent)),
                ("win_low", "low", optional(percent)), ("win_high", "high", optional(percent)),
                ("games", "games", text), ("verdict", "verdict", text),
                ("joint_elo", "joint ratings' difference (overview)", optional(signed)),
                ("joint_low", "low", optional(signed)), ("joint_high", "high", optional(signed)),
                ("p_stronger", "P(stronger) (overview)", optional(percent))]


def dial_tables(stats: dict) -> list[Table]:
    """The dial's curve, when the run played the dial (its settings to ship open the page)."""
    points = curve(split_dial(stats["ratings"])[1])
    if not points or not split_dial(stats["ratings"])[0]:
        return []
    return [Table("dial", "The dial's curve: Elo per strength, and the monotone fit",
                  [("name", "entrant", text), ("strength", "strength", number(3)),
                   ("elo", "Elo", signed), ("low", "low", signed), ("high", "high", signed),
                   ("fitted", "fitted Elo", signed)], points)]


# -- charts ---------------------------------------------------------------------------------------
def ladder_chart(stats: dict) -> Figure:
    """Elo of each entrant with its 95% interval, the first (weakest) entrant at the bottom."""
    lines = [{**line, "elo": shown_elo(line)} for line in stats["ratings"]["entrants"]]
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
    can miss its point estimate, and then that side's bar is empty, as is an open end's (the
    tables print it: +-inf)."""
    def drawn(end: float | None) -> bool:
        return end is not None and math.isfinite(end)
    return [[max(line[key] - line["low"], 0.0) if drawn(line["low"]) else 0.0 for line in lines],
            [max(line["high"] - line[key], 0.0) if drawn(line["high"]) else 0.0
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


def steps_chart(ladders: list[dict]) -> Figure:
    """Every rule set's ladder steps side by side: each step's estimate with its interval (the
    one judged), so a level relatively too strong stands out."""
    labels = list(dict.fromkeys(step_label(step) for ladder in ladders
                                for step in ladder["steps"]))
    figure = Figure(figsize=(9.6, 1.2 + 0.35 * len(labels) * len(ladders)), layout="constrained")
    axes = figure.add_subplot()
    height = 0.8 / max(len(ladders), 1)
    for k, ladder in enumerate(ladders):
        rows = {step_label(step): step for step in ladder["steps"]}
        ys = [len(labels) - 1 - i + 0.4 - (k + 0.5) * height
              for i, label in enumerate(labels) if label in rows]
        lines = [{"elo": step["elo"], "low": step["elo_low"], "high": step["elo_high"]}
                 for step in rows.values()]
        axes.barh(ys, [line["elo"] for line in lines], height=height, label=ladder["section"],
                  xerr=interval_errors(lines), capsize=2)
    axes.set_yticks(range(len(labels))[::-1], labels)
    axes.axvline(0, color="#999", linewidth=0.8)
    axes.set_xlabel("Elo of the step (its estimate, with the interval judged)")
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    axes.set_title("Ladder steps in every rule set")
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
table.summary td { vertical-align: top; min-width: 9em; }
table.summary small { color: #444; }
td.stronger { background: #e3f4e1; } td.equal { background: #eeeeee; }
td.undecided { background: #fdf3d8; } td.weaker { background: #fbe6e1; }
ul.verdicts li { margin: .2em 0; } li.stronger::marker { color: #2e7d32; }
li.undecided::marker, li.weaker::marker { color: #c0392b; }
details { margin: .6em 0; } summary { cursor: pointer; font-weight: 600; }
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


TABLES, CHARTS_FOLDER, LEVELS_FILE = "tables", "charts", "levels.json"
LEVELS_FORMAT = "domsim-levels/1"


def section_ladder(stats: dict, key: str, steps: dict | None,
                   in_calibration: bool = False) -> dict | None:
    """A rule set's ladder for the summary, the steps and levels.json (None: the run is no
    ladder, a gauntlet say: its entrants are ranked, no level is based on them). Elo 0 is its
    weakest level, and each level the sum of the steps below it. A step's estimate is the step
    run's (calibrate's steps, each played until decided, with the interval judged) when given,
    else the difference of the overview's joint ratings with its bootstrap interval (what its
    P(stronger) judges); either way its win rate is its own games', head to head, and the
    overview's joint difference rides along under its own name. In a calibration that stopped
    before a rule set's steps, those steps are not played: none is judged from the overview."""
    if not stats["calibration"]:
        return None
    base = {"section": key, "variant": stats["variant"], "players": stats["players"],
            "settings": settings_rows(stats, key)}
    joint = {(step["from"], step["to"]): {
        "joint_elo": step["elo"], "joint_low": step["low"], "joint_high": step["high"],
        "p_stronger": step["p_stronger"]} for step in stats["ladder"]["steps"]}
    if steps is not None:
        return base | {
            "source": "steps", "zero": f"{steps['levels'][0]['name']} = 0",
            "levels": [{**line, "spec": spec} for line, spec in
                       zip(steps["levels"], steps["specs"], strict=True)],
            "steps": [{"from": step["lower"], "to": step["upper"], "elo": step["elo"],
                       "elo_low": step["elo_low"], "elo_high": step["elo_high"],
                       "estimate": f"the step run's, {interval_words(step.get('looks', 1))}",
                       "win_rate": step["win_rate"], "win_low": step["win_low"],
                       "win_high": step["win_high"], "games": step["games"],
                       "verdict": step["verdict"] or "undecided", "reason": step["reason"],
                       "folder": step["folder"], "played": True,
                       **joint.get((step["lower"], step["upper"]), JOINT_UNKNOWN)}
                      for step in steps["steps"]]}
    ladder = stats["ladder"]
    pairs = {(pair["a"], pair["b"]): pair for pair in stats["pairs"]}
    return base | {
        "source": "overview", "zero": ladder["zero"],
        "levels": [{**line, "spec": line["name"]} for line in ladder["levels"]],
        "steps": [{"from": step["from"], "to": step["to"], "elo": step["elo"],
                   "elo_low": step["low"], "elo_high": step["high"],
                   "estimate": "the overview's joint ratings, 95% bootstrap over deals",
                   **head_to_head_rate(pairs.get((step["from"], step["to"]))),
                   "verdict": "undecided" if in_calibration else overview_verdict(step, ladder),
                   "reason": "not played: the calibration stopped before its steps"
                   if in_calibration else f"P(stronger) {step['p_stronger']:.1%} over the "
                                          f"overview's {ladder['deals']} deals",
                   "folder": stats["run"], "played": not in_calibration,
                   **joint[step["from"], step["to"]]}
                  for step in ladder["steps"]]}


JOINT_UNKNOWN = {"joint_elo": None, "joint_low": None, "joint_high": None, "p_stronger": None}


def head_to_head_rate(pair: dict | None) -> dict:
    """The upper level's win rate against the lower in the pair's own games, with its Wilson
    interval (the pair's a is the lower level: turned to the upper's side)."""
    if pair is None:
        return {"win_rate": None, "win_low": None, "win_high": None, "games": 0}
    return {"win_rate": 1 - pair["win_rate"], "win_low": 1 - pair["wilson_high"],
            "win_high": 1 - pair["wilson_low"], "games": pair["games"]}


def page_stats(stats: dict) -> dict:
    """A ladder run's statistics with Elo 0 at its weakest level, the one anchor of a ladder
    page (levels.json's and the steps' zero): each rating less the weakest's, with the
    interval of that difference over the same resamplings (a sweep's bound moved alike). A
    weakest level that lost every game has no finite rating to subtract: the run's own zero
    stays, and says so."""
    rating = stats["ratings"]
    levels = stats["ladder"]["levels"]
    zero = levels[0]["name"]
    lines = {line["name"]: line for line in rating["entrants"]}
    base = lines[zero]["elo"]
    if not stats["calibration"] or base is None or not math.isfinite(base):
        return stats
    rebased = {**rating, "centre": [zero], "entrants": [
        rebased_line(line, base, rating["differences"][line["name"]][zero], line["name"] == zero)
        for line in rating["entrants"]]}
    anchor = [name["name"] for name in levels]
    by_name = {line["name"]: line for line in rebased["entrants"]}
    return stats | {"ratings": rebased, "ladder": ladder_of(
        {**rebased, "entrants": [by_name[name] for name in anchor]}, stats["ladder"]["deals"])}


def rebased_line(line: dict, base: float, difference: list[float], zero: bool) -> dict:
    if zero:  # no spread from itself (as levels.json's base level)
        return {**line, "elo": 0.0, "low": 0.0, "high": 0.0, "bound": "anchor"}
    if line["bound"] in ("lower", "upper"):
        end = "low" if line["bound"] == "lower" else "high"
        return {**line, end: line[end] - base}
    low, high = difference
    if high - low <= TIE_ELO:
        return {**line, "elo": line["elo"] - base, "low": None, "high": None,
                "bound": "unmeasured"}
    return {**line, "elo": line["elo"] - base, "low": low, "high": high, "bound": None}


def overview_verdict(step: dict, ladder: dict) -> str:
    """A step judged on the overview run alone: stronger when significant, else undecided."""
    if not ladder["enough_deals"]:
        return "undecided"
    return "stronger" if step["significant"] else "undecided"


def settings_rows(stats: dict, key: str) -> list[dict]:
    """The dial's settings to ship, withheld (with the reason) when the run has too few deals."""
    ladder = stats["ladder"]
    thin = None
    if not ladder["enough_deals"]:
        deals = max(ladder["deals"], 1)
        needed = round_up(math.ceil(stats["games"] * MIN_DEALS / deals),
                          stats["seatings_per_deal"])
        thin = (f"too few deals: {ladder['deals']} of the {MIN_DEALS} a setting needs (about "
                f"{needed:,} games)")
    base = ladder["levels"][0]["elo"]  # Elo shown over the weakest level, as the summary's
    return [{"section": key, **row, "elo": row["elo"] - base}
            for row in recommendations(stats["ratings"], DEFAULT_SPACING, thin)]


def level_name(name: str) -> str:
    """A level as the summary's column names it (kozel's partner left out)."""
    return name.split("+")[0]


def summary_table(ladders: list[dict]) -> Table:
    """Every rule set's levels and steps, one row per level (the page shows it as rule sets by
    levels)."""
    rows = []
    for ladder in ladders:
        below = {step["to"]: step for step in ladder["steps"]}
        for line in ladder["levels"]:
            step = below.get(line["name"], {})
            rows.append({"section": ladder["section"], "variant": ladder["variant"],
                         "level": line["name"], "spec": line["spec"], "elo": line["elo"],
                         "low": line["low"], "high": line["high"], "zero": ladder["zero"],
                         "vs": step.get("from"), "win_rate": step.get("win_rate"),
                         "win_low": step.get("win_low"), "win_high": step.get("win_high"),
                         "games": step.get("games"), "verdict": step.get("verdict"),
                         "reason": step.get("reason"), "links": step.get("pages", ()),
                         "pages": " ".join(link.href for link in step.get("pages", ()))})
    return Table("summary", "Levels", SUMMARY_COLUMNS, rows)


def summary_html(summary: Table, ladders: list[dict]) -> str:
    """The first screen: rule sets by levels, each cell the level's Elo with its interval and
    its step as the win rate against the level below."""
    columns = list(dict.fromkeys(level_name(line["name"]) for ladder in ladders
                                 for line in ladder["levels"]))
    head = "".join(f"<th>{html.escape(name)}</th>" for name in columns)
    body = []
    for ladder in ladders:
        cells = {level_name(row["level"]): row for row in summary.rows
                 if row["section"] == ladder["section"]}
        tds = "".join(summary_cell(cells.get(name)) for name in columns)
        body.append(f'<tr><th><a href="#{html.escape(ladder["section"])}">'
                    f'{html.escape(ladder["variant"])}</a> <span class="meta">'
                    f"{ladder['players']}p</span></th>{tds}</tr>")
    zero = "; ".join(sorted({ladder["zero"] for ladder in ladders}))
    return (f'<table class="summary"><thead><tr><th>rule set</th>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table>\n"
            f'<p class="meta">Elo with its 95% interval ({html.escape(zero)}); below it, the '
            f"level's win rate against the level below, with its 95% interval and the games "
            f'of that step. <a href="{TABLES}/summary.csv">CSV</a></p>\n')


def summary_cell(row: dict | None) -> str:
    if row is None:
        return "<td></td>"
    elo = f"{row['elo']:+.0f}"
    spread = row["low"] is not None and row["high"] is not None and row["high"] > row["low"]
    if spread:
        elo += f" <small>[{row['low']:+.0f}, {row['high']:+.0f}]</small>"
    if row["vs"] is None or row["win_rate"] is None:
        return f'<td class="base">{elo if spread else "0 (the base)"}</td>'
    step = (f"{row['win_rate']:.1%} [{row['win_low']:.1%}, {row['win_high']:.1%}] vs "
            f"{html.escape(level_name(row['vs']))}, {row['games']:,} games")
    pages = " \u00b7 ".join(f'<a href="{html.escape(link.href)}">{html.escape(link.label)}</a>'
                            for link in row["links"])
    games = f'<br><small class="games">watch: {pages}</small>' if pages else ""
    return (f'<td class="{html.escape(row["verdict"])}" title="{html.escape(row["reason"])}">'
            f"{elo}<br><small>{step}</small>{games}</td>")


def verdict_items(ladders: list[dict]) -> list[str]:
    """Short sentences under the summary: one for every rule set whose steps are all stronger,
    one for each other rule set naming its other steps."""
    proven = [ladder for ladder in ladders
              if ladder["steps"] and all(step["verdict"] == "stronger" for step in ladder["steps"])]
    items = []
    if proven:
        names = ", ".join(ladder["variant"] for ladder in proven)
        games = sum(step["games"] for ladder in proven for step in ladder["steps"])
        items.append(f'<li class="stronger"><b>{html.escape(names)}</b>: every level is stronger '
                     f"than the one below, each step significant at 95% ({games:,} games in "
                     "the steps).</li>")
    for ladder in ladders:
        if ladder in proven:
            continue
        steps = ladder["steps"]
        sentence = "; ".join(f"{level_name(step['from'])} -> {level_name(step['to'])} "
                             f"{step['reason']}" for step in steps
                             if step["verdict"] != "stronger") or "no steps"
        kind = "weaker" if any(step["verdict"] == "weaker" for step in steps) else "undecided"
        items.append(f'<li class="{kind}"><b>{html.escape(ladder["variant"])}</b>: '
                     f"{html.escape(sentence)}.</li>")
    return items


def partial_line(ladder_page: bool) -> str:
    """The first line of a partial report: what it covers and how to go on."""
    how = ("domsim calibrate --out DIR --resume" if ladder_page
           else "domsim tourney --out RUN_DIR --resume")
    return ("Partial: it stopped before it finished, and these numbers cover only the games "
            f"played. To finish: {how}, then build the report again.")


def ranking_items(runs: list[dict]) -> list[str]:
    """One sentence per run that is no ladder: its entrants strongest first."""
    return [f'<li><b>{html.escape(stats["variant"])}</b>: {html.escape(verdict_text(stats))}'
            "</li>" for stats in runs]


def summary_note(calibration: dict | None) -> str:
    if calibration is None:
        return ("Each step is judged on the overview runs: significant when the stronger level "
                "is rated higher in 97.5% of the bootstrap samples.")
    return (f"Each step was played head to head on fresh duplicate deals until decided: "
            f"significant at 95%, equal within \u00b1{calibration['tolerance']:g} Elo, or at the "
            f"cap of {calibration['max_games']:,} games.")


def levels_document(ladders: list[dict], calibration: dict | None) -> dict:
    """levels.json: what a game's config reads (docs/levels.schema.json)."""
    rule_sets = []
    for ladder in ladders:
        levels, steps = ladder["levels"], ladder["steps"]
        entries = []
        for index, line in enumerate(levels):
            entries.append({
                "name": level_name(line["name"]), "spec": line["spec"], "elo": line["elo"],
                "elo_low": line["low"], "elo_high": line["high"],
                "vs_below": neighbour(steps[index - 1], False) if index else None,
                "vs_above": neighbour(steps[index], True) if index < len(steps) else None})
        rule_sets.append({
            "variant": ladder["variant"], "players": ladder["players"], "zero": ladder["zero"],
            "source": ladder["source"], "levels": entries,
            "dial": [{"target": row["target"], "elo": row["elo"], "strength": row["setting"],
                      "low": row["low"], "high": row["high"], "withheld": row["withheld"],
                      "spec": f"dial?strength={row['setting']:.3f}"}
                     for row in ladder["settings"]]})
    return {"format": LEVELS_FORMAT, "domsim": __version__,
            "interval": 0.95, "tolerance_elo": (calibration or {}).get("tolerance"),
            "rule_sets": rule_sets}


def neighbour(step: dict, above: bool) -> dict:
    """A level's win rate against its neighbour (below it: the step's; above: its complement)."""
    low, high = step["win_low"], step["win_high"]
    rate = step["win_rate"]
    if above and rate is not None:
        rate, low, high = 1 - rate, 1 - high, 1 - low
    return {"level": level_name(step["to"] if above else step["from"]), "win_rate": rate,
            "low": low, "high": high, "games": step["games"], "verdict": step["verdict"]}


SUMMARY_COLUMNS = [("section", "section", text), ("variant", "rule set", text),
                   ("level", "level", text), ("spec", "spec", text), ("elo", "Elo", signed),
                   ("low", "low", signed), ("high", "high", signed), ("zero", "Elo 0", text),
                   ("vs", "step from", optional(text)),
                   ("win_rate", "win rate vs below", optional(percent)),
                   ("win_low", "95% low", optional(percent)),
                   ("win_high", "95% high", optional(percent)),
                   ("games", "games of the step", optional(text)),
                   ("verdict", "verdict", optional(text)), ("reason", "why it stopped",
                                                             optional(text)),
                   ("pages", "pages of its games", text)]
SHIP_COLUMNS = [("section", "rule set", text), ("target", "target", text),
                ("elo", "Elo over the weakest", signed),
                ("setting", "dial strength", number(3)),
                ("low", "95% low", number(3)), ("high", "95% high", number(3)),
                ("win_rate_vs_previous", "expected win rate vs the level below",
                 optional(percent)), ("withheld", "withheld because", optional(text))]


def write_report(runs: list[dict], out: Path, calibration: dict | None = None,
                 partial: bool = False) -> Path:
    """Write the page into `out`: report.html, levels.json (docs/levels.schema.json), the tables
    as CSV in tables/ and the charts as SVG in charts/; return the page. `runs` are
    `run_statistics` results, one section each; `calibration` is calibrate's step-by-step
    result (domsim.studies.steps), whose ladders then fill the summary (else the runs' own ladders).
    A calibration's page judges its ladders; any other runs' page ranks their entrants. A
    `partial` study (or a partial run) says so in its title and first line."""
    tables, charts = out / TABLES, out / CHARTS_FOLDER
    for folder in (tables, charts):
        folder.mkdir(parents=True, exist_ok=True)
    runs = [page_stats(stats) for stats in runs]
    taken: set[str] = set()
    keys = [section_key(stats, taken) for stats in runs]
    by_variant = {ladder["variant"]: ladder for ladder in (calibration or {}).get("ladders", [])}
    of_runs = [section_ladder(stats, key, by_variant.get(stats["variant"]),
                              calibration is not None)
               for stats, key in zip(runs, keys, strict=True)]
    ladders = [ladder for ladder in of_runs if ladder is not None]
    write_step_pages(ladders, out)
    sections = [section_html(stats, key, ladder, out)
                for stats, key, ladder in zip(runs, keys, of_runs, strict=True)]
    verdicts = [verdict_row(stats, key, ladder)
                for stats, key, ladder in zip(runs, keys, of_runs, strict=True)]
    Table("verdicts", "Verdicts", VERDICT_COLUMNS, verdicts).write_csv(tables / "verdicts.csv")
    Table("steps", "Every section's steps", [("section", "section", text), *STEP_COLUMNS],
          [{"section": ladder["section"], **step} for ladder in ladders
           for step in ladder["steps"]]).write_csv(tables / "steps.csv")
    Table("levels", "Every section's levels", LEVEL_COLUMNS,
          [{"section": ladder["section"], "bound": None, **line, "zero": ladder["zero"]}
           for ladder in ladders for line in ladder["levels"]]).write_csv(tables / "levels.csv")
    summary = summary_table(ladders)
    summary.write_csv(tables / "summary.csv")
    ship = [row for ladder in ladders for row in ladder["settings"]]
    ship_table = Table("settings", "The dial (dial?strength=S) as strong as each level, and "
                       "levels evenly spaced in Elo, with 95% intervals", SHIP_COLUMNS, ship)
    ship_table.write_csv(tables / "settings.csv")
    if ladders:
        write_json(out / LEVELS_FILE, levels_document(ladders, calibration))
    dials = "".join(chart_html(dial_chart(stats), charts / f"{key}-dial.svg", "The dial's curve")
                    for stats, key in zip(runs, keys, strict=True) if dial_tables(stats))
    chart = chart_html(steps_chart(ladders), charts / "steps.svg", "Ladder steps") if (
        ladders) else ""
    steps = (f"<details><summary>Every rule set's steps side by side</summary><div "
             f'class="charts">{chart}</div></details>\n' if ladders else "")
    ladder_page = calibration is not None or any(stats["calibration"] for stats in runs)
    partial = partial or any(stats["partial"] for stats in runs)
    title = ("calibration report" if ladder_page else "report") + (" (partial)" if partial
                                                                   else "")
    top = (f"{summary_html(summary, ladders)}"
           f"<ul class=\"verdicts\">{''.join(verdict_items(ladders))}</ul>\n"
           + (f"<h2>Settings to ship</h2>\n{ship_table.html(f'{TABLES}/settings.csv')}"
              f'<h2>The dial\'s curve</h2>\n<div class="charts">{dials}</div>\n' if ship else "")
           if ladder_page else f"<ul class=\"verdicts\">{''.join(ranking_items(runs))}</ul>\n")
    note = summary_note(calibration) if ladder_page else (
        "No run here is a calibration: its entrants are ranked, no ladder is judged.")
    levels = (f'; the levels for a game\'s config are in <a href="{LEVELS_FILE}">{LEVELS_FILE}'
              "</a>" if ladders else "")
    page = (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>domsim {title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"<h1>{'Which levels to ship' if ladder_page else 'Who is strongest'}"
            f"{' (partial)' if partial else ''}</h1>\n"
            + (f'<p class="verdict bad">{html.escape(partial_line(ladder_page))}</p>\n'
               if partial else "")
            + f'<p class="meta">domsim {html.escape(__version__)}. {html.escape(note)} '
            f"{html.escape(anchor_note(runs, ladders))} "
            f'Every table is a CSV in <a href="{TABLES}/">{TABLES}/</a>{levels}.</p>\n'
            f"{top}"
            + f'<h2>Details</h2>\n{steps}{"".join(sections)}'
            "</body>\n</html>\n")
    (out / PAGE).write_text(page, encoding="utf-8")
    return out / PAGE


def anchor_note(runs: list[dict], ladders: list[dict]) -> str:
    """The page's one anchor, said once in its header: a ladder's weakest level (its levels
    are the sums of the steps above it, and its overview's ratings are rated from it too)."""
    if ladders:
        zeros = ", ".join(dict.fromkeys(ladder["zero"] for ladder in ladders))
        return (f"Elo 0 on this whole page is each rule set's weakest level ({zeros}): a level's "
                "Elo is the sum of the steps below it, and the overview's joint ratings are "
                "shown from the same level.")
    zeros = "; ".join(dict.fromkeys(zero_label(stats["ratings"]) for stats in runs))
    return f"Elo 0 on this page: {zeros}."


def write_step_pages(ladders: list[dict], out: Path) -> None:
    """A few of each played step's games as pages in out/games/ (the report's own folder: the
    pages of an earlier report there go first), each step's links in its "pages"."""
    for old in (out / GAMES_FOLDER).glob("*.html"):
        old.unlink()
    for ladder in ladders:
        for step in ladder["steps"]:
            prefix = _file_name(f"{ladder['section']}-{step['from']}-{step['to']}")
            step["pages"] = step_pages(Path(step["folder"]), step["from"], step["to"], out,
                                       prefix) if step["played"] and step["games"] else []


def _file_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)


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


def verdict_row(stats: dict, key: str, ladder: dict | None) -> dict:
    """A section's verdict in numbers (and the sentence): its steps' estimates, the ones the
    summary and levels.json give."""
    steps = ladder["steps"] if ladder else []
    elo = [step["elo"] for step in steps] or [0.0]
    return {"section": key, "variant": stats["variant"], "players": stats["players"],
            "games": stats["games"], "increasing": all(step["elo"] > 0 for step in steps),
            "significant": bool(steps) and all(step["verdict"] == "stronger" for step in steps),
            "steps": len(steps),
            "significant_steps": sum(step["verdict"] == "stronger" for step in steps),
            "smallest_step_elo": min(elo), "largest_step_elo": max(elo),
            "smallest_step_win_rate": score_from_elo(min(elo)), "verdict": verdict_text(stats)}


def section_html(stats: dict, key: str, ladder: dict | None, out: Path) -> str:
    """A rule set's details, folded: its run, ladder and heatmap, then the repetitive charts
    and every table in their own folds."""
    played = (f"{stats['games']} of {stats['games_planned']} games (partial run)"
              if stats["partial"] else f"{stats['games']} games")
    parts = [f'<details id="{html.escape(key)}"><summary>{html.escape(stats["variant"])}, '
             f"{stats['players']} players: the overview run, every level against every other"
             "</summary>\n",
             f'<p class="meta">{html.escape(stats["run"])}: {played}, seed {stats["seed"]}, '
             f"{stats['seatings_per_deal']} seating(s) per deal</p>\n",
             f'<p class="verdict {verdict_class(stats)}">'
             f"{html.escape(verdict_text(stats))}</p>\n", '<div class="charts">']
    for name, title, draw in CHARTS:
        image = chart_html(draw(stats), out / CHARTS_FOLDER / f"{key}-{name}.svg", title)
        parts.append(image if name in ("ladder", "heatmap") else
                     f"<details><summary>{html.escape(title)}</summary>{image}</details>")
    parts.append("</div>\n<details><summary>Tables</summary>\n")
    for table in section_tables(stats, ladder):
        csv_name = f"{TABLES}/{key}-{table.name}.csv"
        table.write_csv(out / csv_name)
        parts.append(table.html(csv_name))
    parts.append("</details>\n</details>\n")
    return "".join(parts)
