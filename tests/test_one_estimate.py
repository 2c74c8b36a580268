"""One estimate per question on every surface (issue 48): a calibration step's Elo, read off the
terminal, tables/steps.csv, levels.json and the report's Ladder steps, is one number with one
interval, the interval its sequential verdict judged (on 455ac6a `calibrate --variant fives
--seed 3` gave medium -> hard +134 [+42, +248] on the terminal and +200 [+148, +263] in
steps.csv and the report)."""

from __future__ import annotations

import csv
import html
import json
import re
import shutil
from itertools import pairwise
from pathlib import Path

import pytest
from clitools import invoke, one_line_error

STEP_LINE = re.compile(r"^(\S+) (\S+) -> (\S+): ([-+]\d+) Elo \[([-+]\w+), ([-+]\w+)\]")


def terminal_steps(stdout: str) -> dict:
    return {(m[2], m[3]): (m[4], m[5], m[6]) for m in map(STEP_LINE.match, stdout.splitlines())
            if m}


def csv_steps(out: Path) -> dict:
    with (out / "tables" / "steps.csv").open(newline="", encoding="utf-8") as source:
        return {(row["from"], row["to"]): tuple(shown(row[key]) for key in (
            "elo", "elo_low", "elo_high")) for row in csv.DictReader(source)}


def csv_rows(out: Path) -> list[tuple]:
    """steps.csv's from, to and estimate (which estimate its Elo is)."""
    with (out / "tables" / "steps.csv").open(newline="", encoding="utf-8") as source:
        return [(row["from"], row["to"], row["estimate"]) for row in csv.DictReader(source)]


def levels_steps(out: Path) -> dict:
    """Each step as levels.json gives it: the level's Elo less the one below (the levels are
    the sums of the steps), the first step's interval the level's own."""
    levels = json.loads((out / "levels.json").read_text())["rule_sets"][0]["levels"]
    steps = {}
    for below, level in pairwise(levels):
        step = (shown(level["elo"] - below["elo"]),)
        if below is levels[0]:
            step += (shown(level["elo_low"]), shown(level["elo_high"]))
        steps[below["name"], level["name"]] = step
    return steps


def report_steps(out: Path) -> dict:
    """The rows of the report's Ladder steps table: from, to, Elo of the step, low, high."""
    page = (out / "report.html").read_text(encoding="utf-8")
    table = page[page.index("<h3>Ladder steps"):]
    table = table[:table.index("</table>")]
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)"
                      r"</td>", table)
    return {(html.unescape(a), html.unescape(b)): (elo, low, high) for a, b, elo, low, high in rows}


def shown(value) -> str:
    if value in (None, ""):
        return "+inf"
    number = float(value)
    return f"{round(number):+d}" if abs(number) < 1e300 else ("+inf" if number > 0 else "-inf")


def assert_one_estimate(out: Path, stdout: str) -> None:
    told = terminal_steps(stdout)
    assert told, stdout
    assert csv_steps(out) == told
    assert report_steps(out) == told
    chained = levels_steps(out)
    assert chained.keys() == told.keys()
    for step, (elo, *interval) in chained.items():
        assert abs(int(elo) - int(told[step][0])) <= 1  # a sum of rounded steps, within rounding
        assert not interval or tuple(interval) == told[step][1:]


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory):
    """A small calibration's folder and what it told the terminal."""
    out = tmp_path_factory.mktemp("one_estimate") / "cal"
    result = invoke("calibrate", "--variant", "classic", "--level", "easy", "--level", "medium",
                    "--games", "1", "--seed", "3", "-j", "1", "--silent", "--samples", "10",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    return out, result.stdout


def test_a_calibration_step_is_one_estimate_on_every_surface(calibrated):
    out, stdout = calibrated
    assert_one_estimate(out, stdout)
    # the interval shown is the one judged: wider than the plain 95% one of the step's games
    step = json.loads((out / "calibration.json").read_text())["ladders"][0]["steps"][0]
    plain = json.loads(invoke("stats", step["folder"], "--json", "--samples", "0").stdout)
    pair = plain["pairs"][0]  # medium (the upper level, entrant 0) vs easy
    assert (pair["a"], pair["b"]) == ("medium", "easy")
    assert pair["elo"] == pytest.approx(step["elo"])
    assert step["looks"] > 1 and "the interval judged" in stdout
    assert step["elo_low"] < pair["elo_low"] and pair["elo_high"] < step["elo_high"]


def test_the_report_of_a_run_in_a_calibration_gives_the_calibrations_steps(calibrated, tmp_path):
    """`domsim report CAL/classic` reads the steps from the calibration the run sits in, not the
    overview's joint ratings (before: +23 [-60, +110] against the calibration's +44 [+13, +76]),
    and `domsim report CAL` reports the calibration's overview runs alike."""
    out, stdout = calibrated
    for given in (out / "classic", out):
        report = tmp_path / f"report-{given.name}"
        result = invoke("report", str(given), "--out", str(report))
        assert result.exit_code == 0, result.output
        assert_one_estimate(report, stdout)
    copy = tmp_path / "alone"
    shutil.copytree(out / "classic", copy / "classic")  # no calibration around it
    alone = tmp_path / "alone-report"
    assert invoke("report", str(copy / "classic"), "--out", str(alone)).exit_code == 0
    assert {row[-1] for row in csv_rows(alone)} == {
        "the overview's joint ratings, 95% bootstrap over deals"}
    twin = tmp_path / "twin"
    shutil.copytree(out, twin)
    one_line_error(invoke("report", str(out / "classic"), str(twin / "classic"), "--out",
                          str(tmp_path / "both")), "report each calibration's runs apart")


def test_the_report_of_a_calibration_bootstraps_as_the_calibration_did(calibrated, tmp_path):
    """`domsim report CAL` takes the calibration's own --samples (10 here, not report's 1000),
    so every table, the P values of the verdict it prints included, is the one calibrate
    wrote; a --samples given still sets them (and here changes them)."""
    out, _ = calibrated
    tables = sorted((out / "tables").glob("*.csv"))
    own = invoke("report", str(out), "--out", str(tmp_path / "own"))
    assert own.exit_code == 0, own.output
    assert tables and all(table.read_text() == (tmp_path / "own" / "tables" / table.name)
                          .read_text() for table in tables)
    with (out / "tables" / "verdicts.csv").open(newline="", encoding="utf-8") as verdicts:
        verdict = next(csv.DictReader(verdicts))["verdict"]
    assert "(P " in verdict and own.stdout.splitlines()[0] == f"classic: {verdict}"
    given = invoke("report", str(out), "--out", str(tmp_path / "given"), "--samples", "1000")
    assert given.exit_code == 0, given.output
    assert (tmp_path / "given" / "tables" / "verdicts.csv").read_text() != \
        (out / "tables" / "verdicts.csv").read_text()


@pytest.mark.slow
def test_every_step_of_the_issues_calibration_is_one_estimate_on_every_surface(tmp_path):
    out = tmp_path / "cal"
    result = invoke("calibrate", "--variant", "fives", "--seed", "3", "-j", "2", "--silent",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    assert len(terminal_steps(result.stdout)) == 3
    assert_one_estimate(out, result.stdout)
