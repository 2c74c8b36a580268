"""Issue 48: the tourney's final table is ranked as its standings and `stats` are, a progress bar
counts to the games that will be played (a run its test may end early: up to its most, ending
where it ends), and a first run says in one plain line what it rounded, with no WARNING."""

from __future__ import annotations

import io
import sys

from clitools import invoke

from domsim.analysis import run_statistics, strongest_first
from domsim.results.run import load_run
from domsim.runner.console import ProgressBar


def test_the_final_table_is_ranked_as_stats_ranks(tmp_path):
    out = tmp_path / "run"
    result = invoke("tourney", "--variant", "block", "-p", "easy", "-p", "medium", "-p", "hard",
                    "--games", "12", "--seed", "3", "-j", "1", "--silent", "--out", str(out))
    assert result.exit_code == 0, result.output
    shown = [line.split()[1] for line in result.stdout.splitlines() if line.startswith("all ")]
    stats = run_statistics(load_run(out))
    ranked = [line["name"] for line in strongest_first(stats["ratings"]["entrants"])]
    assert shown == ranked and ranked != ["easy", "medium", "hard"]
    for pairing in ("easy vs medium", "easy vs hard", "medium vs hard"):
        rows = [line.split() for line in result.stdout.splitlines() if line.startswith(pairing)]
        first, second = (int(row[5].split("-")[0]) for row in rows)  # W of W-L-S
        assert first >= second, rows  # who won the pairing first


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_its_test_may_end_counts_up_to_its_most_and_ends_where_the_run_ends(monkeypatch):
    """On 455ac6a a calibration step's bar started at `2/20000 <38:02` and ended at `120/120`."""
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)

    class Tally:
        def leader(self):
            return None

        def fault_rates(self):
            return []

    bar = ProgressBar(20000, 0, silent=False, open_ended=True)
    for _ in range(60):
        bar([{}, {}], [None, None], Tally())
    bar.close()
    shown = [line for line in screen.getvalue().split("\r") if line.strip()]
    assert all(line.startswith("up to 20000: ") and "/20000" not in line and "<" not in line
               for line in shown), shown  # no share of the most, no time left guessed
    assert shown[-1].startswith("up to 20000: 120 games [")


def test_a_first_run_says_what_it_rounded_in_one_plain_line(tmp_path):
    """The README's first command (on fewer games): 4 levels, 6 pairings x 2 seatings a deal."""
    result = invoke("tourney", "--variant", "block", "--games", "50", "--seed", "1", "-j", "1",
                    "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    assert "WARNING" not in result.stderr
    assert result.stderr.splitlines().count(
        "50 games rounded up to 60: whole deal sets (6 pairings x 2 seatings a deal)") == 1
    assert "60 games written" in result.stdout
