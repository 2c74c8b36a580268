"""Edits go noticed: `replay` (alone and with --run) finds every edit of what a record states
(seat names and specs, faults, the forfeit, results, hand results, seats), `stats` and
`report` refuse a manifest its games table contradicts, and the other bad inputs of issue 22
end in one line and a non-zero exit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clitools import invoke, one_line_error

RAISES = str(Path(__file__).parent / "broken" / "raises.py")


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """Four block games of a bot that raises at every move against easy: it forfeits them."""
    out = tmp_path_factory.mktemp("edits") / "run"
    result = invoke("tourney", "--variant", "block", "-p", RAISES, "-p", "easy", "--games", "4",
                    "--seed", "2", "-j", "1", "--records", "--silent", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def records(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "records.jsonl").read_text().splitlines()]


def first_hand(record):
    return record["hands"][0]


EDITS = {
    "swapped seat names": lambda r: r.update(entrants=r["entrants"][::-1]),
    "swapped seat specs": lambda r: r.update(seats=r["seats"][::-1]),
    "erased faults": lambda r: [seat.update(errors=0, timeouts=0, illegal=0, first=None,
                                            replaced=False) for seat in r["faults"]],
    "removed result": lambda r: r.pop("result"),
    "removed hand result": lambda r: first_hand(r).pop("result"),
    "seats: 5": lambda r: r.update(seats=5),
    "removed forfeit": lambda r: r.pop("forfeit"),
    "forfeit to the faulting side": lambda r: r["forfeit"].update(
        winners=r["forfeit"]["seats"]),
    "policy turned to substitute": lambda r: r.update(on_fault="substitute"),
    "edited forfeit reason": lambda r: r["forfeit"].update(reason="x"),
}


@pytest.mark.parametrize("name", EDITS)
def test_replay_finds_every_edit_alone_and_against_the_run(tmp_path, run, name):
    edited = records(run)
    EDITS[name](edited[1])
    path = tmp_path / "edited.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in edited))
    for options in ((), ("--run", str(run))):
        result = invoke("replay", str(path), *options)
        assert result.exit_code == 1, (name, options, result.output)
        lines = result.stderr.strip().splitlines()
        assert lines and all(line.startswith(("game 1", str(path))) for line in lines), lines
        assert "Traceback" not in result.output


def test_the_honest_records_of_a_forfeited_run_replay_clean(run):
    assert all(record["forfeit"]["seats"] for record in records(run))
    assert invoke("replay", str(run / "records.jsonl")).exit_code == 0
    assert invoke("replay", "--run", str(run)).exit_code == 0


def copy_run(run: Path, to: Path) -> Path:
    to.mkdir()
    for file in run.iterdir():
        if file.is_file():
            (to / file.name).write_bytes(file.read_bytes())
    return to


@pytest.mark.parametrize("edit, message", [
    (lambda m: m["config"].update(variant="fives"), "variant 'fives', the games' 'block'"),
    (lambda m: m["config"].update(format="gauntlet"), "format 'gauntlet'"),
    (lambda m: m["config"].update(entrants=["easy", "medium"]), "entrants ['easy', 'medium']"),
])
@pytest.mark.parametrize("command", ["stats", "report"])
def test_stats_and_report_refuse_an_edited_manifest_in_one_line(tmp_path, run, edit, message,
                                                               command):
    out = copy_run(run, tmp_path / "run")
    manifest = json.loads((out / "manifest.json").read_text())
    edit(manifest)
    (out / "manifest.json").write_text(json.dumps(manifest))
    args = ["--out", str(tmp_path / "rep")] if command == "report" else []
    one_line_error(invoke(command, str(out), *args), message)


def test_a_csv_runs_manifest_is_held_to_its_variant_column(tmp_path):
    out = tmp_path / "run"
    assert invoke("tourney", "--variant", "block", "-p", "easy", "-p", "medium", "--games", "4",
                  "--seed", "1", "-j", "1", "--silent", "--output-format", "csv", "--out",
                  str(out)).exit_code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["config"]["variant"] = manifest["variant"] = "fives"
    (out / "manifest.json").write_text(json.dumps(manifest))
    one_line_error(invoke("stats", str(out)), "variant 'block', but the schedule has 'fives'")


@pytest.mark.parametrize("name, text", [
    ("raises.py", "raise RuntimeError('at import')\n"),
    ("syntax.py", "def (\n"),
    ("empty.py", "x = 1\n"),
    ("bot.txt", "not python\n"),
])
def test_strategies_of_a_bad_file_exits_non_zero(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    result = invoke("strategies", str(path))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1 and str(path) in result.stderr


def test_target_twice_on_the_command_line_is_refused(tmp_path):
    result = invoke("tourney", "--variant", "block", "--target", "50", "-o", "target=x",
                    "--out", str(tmp_path / "run"))
    assert result.exit_code == 2 and "both set the target" in result.stderr
    assert not (tmp_path / "run").exists()
