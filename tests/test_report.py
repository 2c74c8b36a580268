"""domsim.report: the tables beside the page hold the hand-computed numbers of a small run, and
the page is well-formed HTML that embeds every chart and links every table."""

from __future__ import annotations

import base64
import csv
import json
import math
import re
from html.parser import HTMLParser

import pytest
from clitools import invoke, one_line_error
from handrun import write_run

from domsim.analysis import run_statistics
from domsim.pages.report import CHARTS, write_report
from domsim.results.run import load_run
from domsim.studies.calibrate import calibration_entrants

VOID = {"meta", "img", "br", "hr", "link", "input"}
SVG_START = b"<?xml"


class PageChecker(HTMLParser):
    """Checks that every element is closed in order, and collects images and links."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.images: list[str] = []
        self.links: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img":
            self.images.append(attrs["src"])
        if tag == "a":
            self.links.append(attrs["href"])
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    base = tmp_path_factory.mktemp("report")
    runs = [run_statistics(load_run(write_run(base / name, output_format=form,
                                              purpose="calibration")), samples=50)
            for name, form in (("one", "parquet"), ("two", "csv"))]
    page = write_report(runs, base / "out")
    return page


def read_csv(path):
    with path.open(newline="", encoding="utf-8") as source:
        return list(csv.DictReader(source))


def test_page_is_well_formed_and_embeds_every_chart(report):
    text = report.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    checker = PageChecker()
    checker.feed(text)
    checker.close()
    assert checker.errors == [] and checker.stack == []
    # two runs of the same variant: two sections, each with every chart
    assert len(checker.images) == 2 * len(CHARTS) + 1  # and the steps of every section
    for src in checker.images:
        assert src.startswith("data:image/svg+xml;base64,")
        chart = base64.b64decode(src.split(",", 1)[1])
        assert chart.startswith(SVG_START) and b"<svg" in chart
    for section in ("block-2p", "block-2p-2"):
        for name, _, _ in CHARTS:
            chart = report.parent / "charts" / f"{section}-{name}.svg"
            assert chart.read_bytes().startswith(SVG_START)
    csv_links = [link for link in checker.links if link.endswith(".csv")]
    assert "tables/summary.csv" in csv_links and "tables/block-2p-pairs.csv" in csv_links
    for link in csv_links:
        assert (report.parent / link).is_file()
    assert "#block-2p" in checker.links


def test_pair_table_holds_the_hand_computed_numbers(report):
    """easy vs medium in tests/handrun.py: 1-3-0, Wilson [4.56%, 69.94%], Elo of a 1/4 score."""
    rows = {(r["a"], r["b"]): r for r in read_csv(report.parent / "tables" / "block-2p-pairs.csv")}
    em = rows["easy", "medium"]
    assert (em["games"], em["wls"], em["units"]) == ("4", "1-3-0", "2")
    assert float(em["win_rate"]) == 0.25
    assert (round(float(em["wilson_low"]), 4), round(float(em["wilson_high"]), 4)) == (
        0.0456, 0.6994)
    assert float(em["elo"]) == pytest.approx(-400 * math.log10(3), rel=1e-5)
    assert float(em["variance_ratio"]) == pytest.approx(2 / 3, rel=1e-5)
    assert rows["easy", "hard"]["wls"] == "0-3-1"


def test_hand_point_and_time_tables_hold_the_hand_computed_numbers(report):
    hands = {r["pairing"]: r for r in read_csv(report.parent / "tables" / "block-2p-hands.csv")}
    assert float(hands["all"]["blocked"]) == pytest.approx(2 / 12, rel=1e-5)
    assert float(hands["easy vs hard"]["blocked"]) == 0.25
    assert float(hands["all"]["capicu"]) == pytest.approx(1 / 12, rel=1e-5)
    assert float(hands["all"]["dry_games"]) == pytest.approx(1 / 12, rel=1e-5)
    points = {r["entrant"]: r for r in read_csv(report.parent / "tables" / "block-2p-points.csv")}
    assert (points["easy"]["hands"], float(points["easy"]["points"])) == ("8", 1.25)
    assert float(points["easy"]["margin"]) == -6.25
    timing = {r["strategy"]: r for r in read_csv(report.parent / "tables" / "block-2p-timing.csv")}
    assert timing["easy"]["decisions"] == "24" and float(timing["easy"]["max_ms"]) == 100


def test_rating_table_and_verdicts(report):
    """One anchor per page (issue 48: the top table put hard at +413 over easy while the chart
    under it implied +495 from the mean): a ladder page rates everything from its weakest
    level, the others' intervals those of their difference to it over the same resamplings."""
    ratings = read_csv(report.parent / "tables" / "block-2p-ratings.csv")
    assert [r["name"] for r in ratings] == ["easy", "medium", "hard"]
    assert (ratings[0]["elo"], ratings[0]["high"], ratings[0]["bound"]) == ("0", "0", "anchor")
    assert ratings[0]["p_stronger_than_previous"] == ""
    for row in ratings[1:]:
        assert float(row["low"]) <= float(row["elo"]) <= float(row["high"])
        assert float(row["low"]) < float(row["high"])
    levels = read_csv(report.parent / "tables" / "levels.csv")
    assert [(r["section"], r["name"]) for r in levels] == [
        (section, name) for section in ("block-2p", "block-2p-2")
        for name in ("easy", "medium", "hard")]
    assert [(r["elo"], r["low"]) for r in levels[:3]] == [(r["elo"], r["low"]) for r in ratings]
    assert {r["zero"] for r in levels} == {"easy = 0"}
    page = (report.parent / "report.html").read_text()
    assert "Elo 0 on this whole page is each rule set&#x27;s weakest level (easy = 0)" in page
    assert "mean of" not in page
    matrix = {r["entrant"]: r for r in read_csv(report.parent / "tables" / "block-2p-p_better.csv")}
    assert float(matrix["hard"]["easy"]) + float(matrix["easy"]["hard"]) == pytest.approx(1)
    verdicts = read_csv(report.parent / "tables" / "verdicts.csv")
    assert [v["section"] for v in verdicts] == ["block-2p", "block-2p-2"]
    assert verdicts[0]["verdict"].startswith("ladder strictly increasing")
    assert "easy -> medium" in verdicts[0]["verdict"]
    assert "easy +0 (Elo 0)" in verdicts[0]["verdict"]


# -- the commands --------------------------------------------------------------------------------
def test_kozel_levels_play_with_a_partner_of_at_least_hard():
    """R-LEVEL: in kozel the player's partner plays at least hard (insane at insane)."""
    levels = ("easy", "medium", "hard", "insane")
    assert calibration_entrants("kozel", None, levels) == [
        "easy+hard", "medium+hard", "hard", "insane"]
    assert calibration_entrants("block", None, levels) == list(levels)


def test_calibrate_plays_each_variant_and_writes_the_report(tmp_path):
    """The overview's games are rounded up to whole deal sets (here 1 pairing x 2 seatings),
    and to the 30 deals a verdict needs, and the run's log says so; then each step is played
    until decided, and says how many games it took and why it stopped."""
    out = tmp_path / "cal"
    result = invoke("calibrate", "--variant", "classic", "--variant", "kozel", "--level", "easy",
                    "--level", "medium", "--games", "3", "--seed", "3", "-j", "1", "--silent",
                    "--samples", "10", "--max-games", "400", "--out", str(out))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == ("classic: 3 games rounded up to 60: the 30 deals a ladder verdict needs "
                        "(1 pairings x 2 seatings a deal)")
    assert lines[1].startswith("classic easy -> medium: ") and " games (" in lines[1]
    assert lines[3].startswith("kozel easy+hard -> medium+hard: ")
    assert lines[-1] == f"report written to {out / 'report.html'}"
    kozel = json.loads((out / "kozel" / "manifest.json").read_text())
    assert [e["name"] for e in kozel["entrants"]] == ["easy+hard", "medium+hard"]
    assert kozel["games_completed"] == 60
    assert "3 games rounded up to 60: the 30 deals" in (out / "kozel" / "run.log").read_text()
    calibration = json.loads((out / "calibration.json").read_text())
    assert [ladder["variant"] for ladder in calibration["ladders"]] == ["classic", "kozel"]
    step = calibration["ladders"][0]["steps"][0]
    assert step["games"] <= 400 and step["reason"] in lines[1]
    assert (out / "steps" / "classic-1" / "manifest.json").is_file()
    assert len(read_csv(out / "tables" / "verdicts.csv")) == 2
    checker = PageChecker()
    checker.feed((out / "report.html").read_text(encoding="utf-8"))
    assert len(checker.images) == 2 * len(CHARTS) + 1 and checker.stack == []
    _check_step_pages(out, checker.links, calibration)


def _check_step_pages(out, links, calibration):
    """Each played step links a few of its own games as pages beside the report: games of the
    step's two levels, from the step's own run."""
    for ladder in calibration["ladders"]:
        for index, step in enumerate(ladder["steps"]):
            section = f"{ladder['variant']}-{4 if ladder['variant'] == 'kozel' else 2}p"
            prefix = "games/" + re.sub(r"[^A-Za-z0-9_.-]+", "_",
                                       f"{section}-{step['lower']}-{step['upper']}-")
            pages = [link for link in links if link.startswith(prefix)]
            assert pages and pages[0].endswith("-closest.html"), (prefix, links)
            for page in pages:
                text = (out / page).read_text(encoding="utf-8")
                data = json.loads(re.search(r"const GAME = (.*);\n", text)[1])
                entrants = {name.split(" (")[0] for name in data["names"]}
                assert entrants == {step["lower"], step["upper"]}
                assert f"{ladder['variant']}-{index + 1})" in data["title"]


def test_report_command_builds_the_page_from_runs(tmp_path):
    runs = [str(write_run(tmp_path / name, purpose="calibration")) for name in ("a", "b")]
    result = invoke("report", *runs, "--out", str(tmp_path / "rep"), "--samples", "10")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith("block: ladder strictly increasing")
    assert (tmp_path / "rep" / "report.html").is_file()
    assert (tmp_path / "rep" / "tables" / "block-2p-2-pairs.csv").is_file()


def test_a_report_judges_a_ladder_only_of_a_calibration_and_ranks_any_other_run(tmp_path):
    """A gauntlet of a user's bot is no ladder: no red "NOT strictly increasing" banner, the
    entrants strongest first with their ratings."""
    run = write_run(tmp_path / "plain")
    result = invoke("report", str(run), "--out", str(tmp_path / "rep"), "--samples", "10")
    assert result.exit_code == 0, result.output
    line = result.stdout.splitlines()[0]
    assert line.startswith("block: ranking (Elo, mean of easy, medium, hard = 0")
    ranked = line.split("interval): ")[1]
    assert ranked.index("hard") < ranked.index("medium") < ranked.index("easy")
    page = (tmp_path / "rep" / "report.html").read_text()
    assert "strictly increasing" not in page
    assert '<p class="verdict unsure">ranking' in page and "verdict bad" not in page
    # nor in its title and summary (issue 37: it said "Which levels to ship" on 60428d1)
    assert "<title>domsim report</title>" in page and "Which levels to ship" not in page
    assert "<h1>Who is strongest</h1>" in page and 'class="summary"' not in page


def test_report_and_calibrate_errors(tmp_path):
    run = str(write_run(tmp_path / "run"))
    one_line_error(invoke("report"), "give at least one RUN_DIR")
    one_line_error(invoke("report", str(tmp_path / "nowhere")), "is not a folder")
    one_line_error(invoke("report", run, "--out", run), "already exists")
    one_line_error(invoke("calibrate"), "missing --variant")
    one_line_error(invoke("calibrate", "--all", "--variant", "block"), "not both")
    one_line_error(invoke("calibrate", "--variant", "nope"), "unknown variant 'nope'")
    one_line_error(invoke("calibrate", "--variant", "block", "--out", run), "already exists")
    assert invoke("calibrate", "--variant", "block", "--games", "0").exit_code == 2


def test_steps_hold_the_ladder_and_the_head_to_head_numbers(report):
    """Each step of a ladder judged on its overview alone: its estimate is the difference of
    the joint ratings (what its P(stronger) judges), said so, with that difference's interval
    (on 455ac6a the head to head's interval sat beside the joint Elo); its win rate the pair's
    head to head turned to the stronger level's side; verdicts.csv in the same numbers."""
    tables = report.parent / "tables"
    ratings = {r["name"]: r for r in read_csv(tables / "block-2p-ratings.csv")}
    pairs = {(r["a"], r["b"]): r for r in read_csv(tables / "block-2p-pairs.csv")}
    steps = read_csv(report.parent / "tables" / "block-2p-steps.csv")
    assert [(s["from"], s["to"]) for s in steps] == [("easy", "medium"), ("medium", "hard")]
    for step in steps:
        pair = pairs[step["from"], step["to"]]
        elo = float(ratings[step["to"]]["elo"]) - float(ratings[step["from"]]["elo"])
        assert float(step["elo"]) == pytest.approx(elo, rel=1e-4)
        assert step["estimate"].startswith("the overview's joint ratings")
        assert (step["joint_elo"], step["joint_low"], step["joint_high"]) == (
            step["elo"], step["elo_low"], step["elo_high"])
        assert float(step["elo_low"]) <= float(step["elo"]) <= float(step["elo_high"])
        assert float(step["win_rate"]) == pytest.approx(1 - float(pair["win_rate"]), rel=1e-4)
        assert float(step["win_low"]) == pytest.approx(1 - float(pair["wilson_high"]), rel=1e-4)
    first = steps[0]  # from the anchor: the step's interval is the level's own
    assert (first["elo_low"], first["elo_high"]) == (ratings["medium"]["low"],
                                                     ratings["medium"]["high"])
    everywhere = read_csv(report.parent / "tables" / "steps.csv")
    assert [s["section"] for s in everywhere] == ["block-2p"] * 2 + ["block-2p-2"] * 2
    verdict = read_csv(report.parent / "tables" / "verdicts.csv")[0]
    assert verdict["steps"] == "2"
    assert int(verdict["significant_steps"]) == sum(s["verdict"] == "stronger" for s in steps)
    assert float(verdict["smallest_step_elo"]) == pytest.approx(
        min(float(s["elo"]) for s in steps), rel=1e-4)


def test_every_level_given_to_calibrate_is_in_the_verdict_named_by_its_spec(tmp_path):
    """(--max-games 60: the names are the point, not the steps' verdicts, and dial 0.3 ->
    medium would play 1,920 games to decide.)"""
    result = invoke("calibrate", "--variant", "classic", "--level", "easy", "--level",
                    "dial?strength=0.3", "--level", "medium", "--games", "12", "--seed", "1",
                    "-j", "1", "--silent", "--samples", "20", "--max-games", "60",
                    "--out", str(tmp_path / "cal"))
    assert result.exit_code == 0, result.output
    steps = [line for line in result.stdout.splitlines() if " -> " in line]
    assert [line.split(":")[0] for line in steps] == [
        "classic easy -> dial?strength=0.3", "classic dial?strength=0.3 -> medium"]
    manifest = json.loads((tmp_path / "cal" / "classic" / "manifest.json").read_text())
    assert manifest["levels"] == ["easy", "dial?strength=0.3", "medium"]
    again = invoke("report", str(tmp_path / "cal" / "classic"), "--out", str(tmp_path / "rep"))
    verdict = again.stdout.splitlines()[0]
    assert "easy -> dial?strength=0.3" in verdict and "dial?strength=0.3 -> medium" in verdict
    assert "easy = 0" in verdict  # issue 48: a ladder page's one anchor, its weakest level
