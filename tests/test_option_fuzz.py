"""The option values of every command, fuzzed: numbers negative, zero, huge or not numbers,
malformed rule options, variants, formats and specs, conflicting options, files where folders
are expected and the reverse, an --out that already exists. Each property runs a command in a
workspace of its own (a finished run with records, its deals, a run of domsim 0.1, an existing
folder, a plain file) and accepts only: success, or a non-zero exit with one error line and no
traceback; and every file that was in the workspace before is there after, unchanged.

The games are tiny (2 of the one-hand classic variant, easy against easy) and the values that
would make a valid run long (huge --games, --samples, a target of a million) are left out, so
the whole file runs in well under a minute."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import traceback
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, currently_in_test_context, event, example, given, settings
from hypothesis import strategies as st

from domsim.cli import main

LEGACY = Path(__file__).parent / "data" / "legacy-0.1"


def fuzz(examples: int):
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


# -- the workspace and the property ------------------------------------------------------------
def invoke(*args):
    return CliRunner().invoke(main, [str(arg) for arg in args], prog_name="domsim")


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """What every workspace starts with (paths relative to it, as the generated values are)."""
    base = tmp_path_factory.mktemp("template")
    with inside(base):
        made = invoke("tourney", "--variant", "classic", "-p", "easy", "-p", "b=easy", "--games",
                      "2", "-j", "1", "--seed", "1", "--records", "--silent", "--out", "run")
        assert made.exit_code == 0, made.output
        assert invoke("deals", "run", "deals.jsonl").exit_code == 0
    shutil.copytree(LEGACY / "block", base / "old")
    (base / "existing").mkdir()
    (base / "existing" / "keep.txt").write_text("not a run, and kept\n")
    (base / "file.txt").write_text("a file, not a folder\n")
    (base / "game.json").write_text((base / "run" / "records.jsonl").read_text().splitlines()[0])
    return base


@contextmanager
def inside(folder: Path):
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield folder
    finally:
        os.chdir(before)


@pytest.fixture
def workspace(template, tmp_path_factory):
    """A fresh copy of the template for each example: `with workspace() as where:`."""

    @contextmanager
    def fresh():
        where = tmp_path_factory.mktemp("ws")
        shutil.copytree(template, where, dirs_exist_ok=True)
        try:
            with inside(where):
                yield where
        finally:
            shutil.rmtree(where, ignore_errors=True)

    return fresh


def tree_digest(folder: Path) -> dict[str, str]:
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            if path.is_file() else "folder" for path in sorted(folder.rglob("*"))}


EXCEPTION_REPR = re.compile(r"\b\w*(Error|Exception|Interrupt)\(|<class '|object at 0x")
CLICK_USAGE = re.compile(r"Usage: domsim \S+ .*|Try 'domsim \S+ --help' for help\.")


def error_lines(result, many_ok: bool = False) -> list[str]:
    """The command failed the project's way: a SystemExit, no traceback, one error line (click's
    usage errors put their usage and help lines before it); returns the error lines."""
    assert isinstance(result.exception, SystemExit), "".join(
        traceback.format_exception(result.exception))
    assert "Traceback" not in result.output, result.output
    lines = result.stderr.strip().splitlines()
    if result.exit_code == 2:  # click's usage error
        errors = [n for n, line in enumerate(lines) if line.startswith("Error: ")]
        assert errors, result.stderr
        assert all(CLICK_USAGE.fullmatch(line) or not line.strip()
                   for line in lines[:errors[0]]), result.stderr
        lines = lines[errors[0]:]
    assert lines, f"exit {result.exit_code} without a message:\n{result.output}"
    assert len(lines) == 1 or many_ok, result.stderr
    for line in lines:
        assert not EXCEPTION_REPR.search(line), line
    return lines


def holds(where: Path, args: list, many_ok: bool = False):
    """Run `domsim ARGS` in `where`: it succeeds, or fails in one line; nothing that was in
    `where` before is changed or gone."""
    before = tree_digest(where)
    result = invoke(*args)
    after = tree_digest(where)
    changed = [path for path, digest in before.items() if after.get(path) != digest]
    assert not changed, f"{args} changed {changed}:\n{result.output}"
    if currently_in_test_context():  # --hypothesis-show-statistics: how many ran, how many failed
        event(f"exit {result.exit_code}")
    if result.exit_code == 0:
        assert result.exception is None, "".join(traceback.format_exception(result.exception))
    else:
        error_lines(result, many_ok)
    return result


# -- the values ---------------------------------------------------------------------------------
junk = st.sampled_from(["", " ", "x", "1.5", "1e3", "0x10", "--", "-", "+3", " 2", "٣", "2 3",
                        "none", "true"])
ints = (st.integers(-3, 3) | st.sampled_from([2**31, 2**63, -(2**63) - 1, 10**30])).map(str)
small = st.integers(-2, 3).map(str) | junk  # counts a valid run plays that many of
floats = st.sampled_from(["0", "-0", "-1", "0.5", "1", "1e-300", "1e308", "1e309", "inf", "-inf",
                          "nan", "-nan", "1,5"]) | junk
probabilities = st.sampled_from(["0", "1", "0.5", "0.05", "-0.1", "1.5", "1e-320", "nan", "inf"]
                                ) | junk
paths = st.sampled_from(["fresh", "run", "old", "existing", "existing/keep.txt", "file.txt",
                         "file.txt/sub", "missing/deeper", "", ".", "..", "run/games.parquet",
                         "run/manifest.json", "run/records.jsonl", "deals.jsonl", "game.json",
                         "/", "/dev/null", "fresh/"])
specs = st.sampled_from(["easy", "medium", "b=easy", "c=medium", "NAME=", "=easy", "", "=", "+",
                         "easy+easy", "a=easy+easy", "easy+", "+easy", "nope", "easy?x=1",
                         "easy?", "a=b=easy", " ", "easy ", "exec:", "exec:''", "x.py", "x.py:",
                         ":", "file.txt", "run", "dial?strength=2", "dial?strength=nan"])
entrants = st.lists(specs, max_size=3)
variants = st.sampled_from(["classic", "block", "kozel", "partnership", "partnership-1v1",
                            "nope", "", "CLASSIC", " classic", "fives"])
rule_options = st.sampled_from([
    "target=2", "target=0", "target=-1", "target=", "target=x", "target=1e3", "target=2.5",
    "target=2147483648", "target=9223372036854775807", "target=99999999999999999999999",
    "capicu_bonus=5", "capicu_bonus=-1", "capicu_bonus=99999999999999999999", "count=losers",
    "count=x", "fish=maker", "lead=fid", "lead=", " target = 3 ", "=3", "x", "=", "nope=1",
    "target==3", "target=3=4"]) | st.text(alphabet="abct=_-09 ", max_size=10)
formats = st.sampled_from(["round-robin", "gauntlet", "x", "", "ROUND-ROBIN", "round_robin"])
output_formats = st.sampled_from(["parquet", "csv", "json", "", "PARQUET"])
orders = st.sampled_from(["in-order", "shuffled", "random", "", "in_order"])
backends = st.sampled_from(["local", "dask", "x", ""])
schedulers = st.sampled_from(["x", "", "host:", "tcp://"])  # none takes long to refuse
flag = st.just(None)


def arguments(chosen: dict) -> list[str]:
    """Options as arguments: a list value repeats its option, None is a flag."""
    out: list[str] = []
    for option, value in chosen.items():
        if value is None:
            out.append(option)
        elif isinstance(value, list):
            for item in value:
                out += [option, item]
        else:
            out += [option, value]
    return out


@st.composite
def options(draw, base: dict, fuzzed: dict, most: int = 3) -> list[str]:
    """`base` with up to `most` options of `fuzzed` set to one of their values (a list option:
    its whole list replaced); an option set to False is dropped."""
    chosen = dict(base)
    for option in draw(st.lists(st.sampled_from(sorted(fuzzed)), max_size=most, unique=True)):
        value = draw(fuzzed[option])
        if value is False:
            chosen.pop(option, None)
        else:
            chosen[option] = value
    return arguments(chosen)


# -- the commands that play ---------------------------------------------------------------------
RUN_BASE = {"--variant": "classic", "-p": ["easy", "b=easy"], "--games": "2", "-j": "1",
            "--out": "fresh", "--silent": None}
TOURNEY = {
    "--variant": variants, "-p": entrants, "--players": ints, "--games": small,
    "--games-per-pairing": small, "--format": formats, "--seed": ints, "-j": small | flag,
    "--workers": st.sampled_from(["0", "-1", "2", "64"]), "--out": paths | st.just(False),
    "--output-format": output_formats, "--duplicate": flag, "--no-duplicate": flag,
    "--target": st.sampled_from(["0", "-1", "1", "2", "2147483648", "99999999999999999999"])
    | junk, "-o": st.lists(rule_options, max_size=2), "--move-time-limit": floats,
    "--records": flag, "--deals": paths, "--deals-order": orders, "--seat-memory": ints,
    "--resume": flag, "--backend": backends, "--scheduler": schedulers,
    "--standings-every": ints, "--standings-seconds": floats, "--isolate": flag,
}


@pytest.mark.slow
@fuzz(60)
@given(args=options(RUN_BASE, TOURNEY, most=4))
@example(args=arguments({**RUN_BASE, "--variant": "block", "--target": "2147483648"}))
@example(args=arguments({**RUN_BASE, "--variant": "partnership", "-p": ["easy", "b=easy"],
                         "-o": ["capicu_bonus=99999999999999999999"]}))
@example(args=arguments({**RUN_BASE, "--variant": "block", "-o": ["target=9223372036854775807"]}))
@example(args=arguments({**RUN_BASE, "--out": "existing"}))
@example(args=arguments({**RUN_BASE, "--out": "run", "--resume": None, "--games": "5"}))
@example(args=arguments({**RUN_BASE, "--out": "file.txt"}))
@example(args=arguments({**RUN_BASE, "--resume": None, "--out": False}))
@example(args=arguments({**RUN_BASE, "--games-per-pairing": "1"}))
@example(args=arguments({**RUN_BASE, "--backend": "dask"}))
@example(args=arguments({**RUN_BASE, "--scheduler": "x"}))
@example(args=arguments({**RUN_BASE, "-p": ["NAME=", "easy"]}))
@example(args=arguments({**RUN_BASE, "-p": ["easy+easy", "b=easy"]}))
@example(args=arguments({**RUN_BASE, "--deals": "run"}))
@example(args=arguments({**RUN_BASE, "--deals": "file.txt"}))
@example(args=arguments({**RUN_BASE, "--standings-seconds": "nan"}))
def test_tourney_options_run_or_fail_in_one_line(workspace, args):
    with workspace() as where:
        holds(where, ["tourney", *args])


scenario_keys = {
    "variant": st.sampled_from(['"classic"', '"block"', '"nope"', "3", '""']),
    "players": st.sampled_from(["2", "0", "-1", "5", "2147483648", '"2"', "1.5", "true"]),
    "games": st.sampled_from(["2", "0", "-3", "1e400", "nan", '"2"', "2.0", "true"]),
    "entrants": st.sampled_from(['["easy", "b=easy"]', '["NAME=", "easy"]', '["easy+easy"]',
                                 "[]", '["easy", 3]', '""', '["easy", "easy"]']),
    "format": st.sampled_from(['"gauntlet"', '"x"', "1"]),
    "seed": st.sampled_from(["-1", "18446744073709551616", '"1"', "1.5"]),
    "target": st.sampled_from(["2", "0", "2147483648", '"2"']),
    "options": st.sampled_from(["{ target = 3 }", '{ target = "x" }', "{ target = 2147483648 }",
                                "{ nope = 1 }", "{ target = [1] }", '{ count = "losers" }']),
    "move_time_limit": st.sampled_from(["0", "-1", "nan", "inf", "1e308", '"1"']),
    "output_format": st.sampled_from(['"csv"', '"json"', "1"]),
    "workers": st.sampled_from(["1", "0", "-1", "64", '"1"']),
    "out": st.sampled_from(['"existing"', '"file.txt"', '"run"', '""', '"fresh"', "1"]),
    "backend": st.sampled_from(['"dask"', '"local"', '"x"']),
    "scheduler": st.sampled_from(['"x"', '""']),
    "deals": st.sampled_from(['"deals.jsonl"', '"run"', '"file.txt"', '"missing"', '""']),
    "deals_order": st.sampled_from(['"shuffled"', '"x"']),
    "seat_memory": st.sampled_from(["0", "-1", "99999999999999999999"]),
    "records": st.sampled_from(["true", '"yes"']),
    "duplicate": st.sampled_from(["false", "0"]),
    "nope": st.just("1"),
}
RUN_OPTIONS = {"--games": small, "--seed": ints, "-j": small, "--out": paths,
               "--resume": flag, "--backend": backends, "--scheduler": schedulers,
               "--standings-every": ints, "--standings-seconds": floats}


@st.composite
def scenarios(draw) -> str:
    keys = {"variant": '"classic"', "entrants": '["easy", "b=easy"]', "games": "2",
            "workers": "1"}
    for key in draw(st.lists(st.sampled_from(sorted(scenario_keys)), max_size=3, unique=True)):
        keys[key] = draw(scenario_keys[key])
    if draw(st.booleans()) and "variant" in keys and len(keys) > 1:
        del keys["variant"]
    return "".join(f"{key} = {value}\n" for key, value in keys.items())


@fuzz(40)
@given(scenario=scenarios(), args=options({"--silent": None}, RUN_OPTIONS, most=3))
@example(scenario='variant = "block"\nentrants = ["easy", "b=easy"]\ngames = 2\ntarget = '
         "2147483648\n", args=["--silent"])
@example(scenario='variant = "classic"\nentrants = ["easy", "b=easy"]\ngames = 2\nout = '
         '"existing"\n', args=["--silent"])
def test_run_of_any_scenario_and_options_runs_or_fails_in_one_line(workspace, scenario, args):
    with workspace() as where:
        (where / "s.toml").write_text(scenario)
        holds(where, ["run", "s.toml", *args])


COMPARE = {"A": specs, "B": specs, "--variant": variants, "--players": ints,
           "--elo0": floats, "--elo1": floats, "--elo-model": st.sampled_from(
               ["logistic", "normalized", "x", ""]), "--games": small,
           "--alpha": probabilities, "--beta": probabilities, "--seed": ints, "-j": small,
           "--out": paths, "-o": st.lists(rule_options, max_size=2), "--isolate": flag,
           "--seat-memory": ints, "--target": TOURNEY["--target"],
           "--move-time-limit": floats, "--records": flag, "--deals": paths,
           "--deals-order": orders, "--resume": flag, "--backend": backends,
           "--scheduler": schedulers}


@fuzz(40)
@given(st.data())
@example(data=None)
def test_compare_options_run_or_fail_in_one_line(workspace, data):
    chosen = {"A": "easy", "B": "b=easy", "--variant": "classic", "--games": "2", "-j": "1",
              "--out": "fresh", "--silent": None}
    if data is not None:  # None: the regression example, the bounds the wrong way round
        for option in data.draw(st.lists(st.sampled_from(sorted(COMPARE)), max_size=3,
                                         unique=True)):
            chosen[option] = data.draw(COMPARE[option])
    else:
        chosen |= {"--elo0": "10", "--elo1": "-10"}
    a, b = chosen.pop("A"), chosen.pop("B")
    with workspace() as where:
        holds(where, ["compare", a, b, *arguments(chosen)])


CALIBRATE = {"--variant": st.lists(variants, max_size=2), "--players": ints, "--games": small,
             "--level": st.lists(specs, max_size=2), "--dial": flag,
             "--setting": st.lists(probabilities, max_size=1), "--seed": ints, "-j": small,
             "--out": paths, "--samples": small, "--max-games": small, "--precision": floats,
             "--tolerance-elo": floats, "--resume": flag}


# --max-games 60: each step stops at its first look (30 deals) instead of playing on to the
# default 20,000 games; how a step decides is test_steps.py's, not this property's.
@pytest.mark.slow
@fuzz(12)
@given(args=options({"--variant": ["classic"], "--level": ["easy", "medium"], "--games": "2",
                     "-j": "1", "--samples": "2", "--max-games": "60", "--out": "fresh",
                     "--silent": None}, CALIBRATE, most=2))
def test_calibrate_options_run_or_fail_in_one_line(workspace, args):
    with workspace() as where:
        holds(where, ["calibrate", *args])


TUNE = {"--variant": variants, "--players": ints, "--against": specs | st.just(False),
        "--levels": st.sampled_from(["3", "2", "0", "-1"]) | junk, "--gap-games": small,
        "--win-rate": probabilities, "--win-rate-tolerance": probabilities, "--steps": ints,
        "--games": small, "--seed": ints, "-j": small, "--out": paths,
        "-o": st.lists(rule_options, max_size=2), "--resume": flag}


@fuzz(25)
@given(args=options({"--variant": "classic", "--against": "easy", "--games": "2",
                     "--steps": "1", "-j": "1", "--out": "fresh", "--silent": None}, TUNE))
def test_tune_options_run_or_fail_in_one_line(workspace, args):
    with workspace() as where:
        holds(where, ["tune", *args])


params = st.sampled_from(["block=0:10", "block=0:10:4", "lock=2:3", "block=10:0", "block=0:x",
                          "block=0:inf", "blok=0:1", "block", "block=", "=0:1", "block=0:1:2:3",
                          "block=nan:1", "preset=0:1"]) | junk
SPSA = {"--variant": variants, "--players": ints, "--strategy": specs | st.just("hard"),
        "--param": st.lists(params, max_size=2), "--against": specs | st.just(False),
        "--games": small | st.just("8"), "--confirm": small, "--c-end": floats,
        "--r-end": floats, "--seed": ints, "-j": small, "--out": paths,
        "-o": st.lists(rule_options, max_size=2), "--resume": flag, "--levels": small,
        "--win-rate": probabilities}


@fuzz(25)
@given(args=options({"--variant": "classic", "--strategy": "hard", "--param": ["block=0:10"],
                     "--against": "easy", "--games": "8", "--confirm": "4", "-j": "1",
                     "--out": "fresh", "--silent": None}, SPSA))
def test_tune_strategy_options_run_or_fail_in_one_line(workspace, args):
    with workspace() as where:
        holds(where, ["tune", *args])


PLAY = {"--variant": variants, "-p": entrants, "--players": ints, "--seed": ints,
        "-o": st.lists(rule_options, max_size=2), "--record": paths,
        "--move-time-limit": floats, "--isolate": flag, "--seat-memory": ints}


@fuzz(50)
@given(args=options({"--variant": "classic", "-p": ["easy", "easy"]}, PLAY, most=3))
@example(args=["--variant", "block", "-o", "target=2147483648"])
@example(args=["--variant", "classic", "--record", "game.json"])
@example(args=["--variant", "classic", "--record", "existing"])
def test_play_options_play_or_fail_in_one_line(workspace, args):
    with workspace() as where:
        holds(where, ["play", *args])


# -- the commands that read a run -----------------------------------------------------------------
samples = st.sampled_from(["0", "1", "2", "-1", "x", "", "1.5", "1e3"])


@fuzz(30)
@given(run=st.just("run") | paths, json=st.booleans(), samples=samples | st.just(False))
def test_stats_options_print_or_fail_in_one_line(workspace, run, json, samples):
    args = ["stats", run, *(["--json"] if json else []),
            *(["--samples", samples] if samples is not False else [])]
    with workspace() as where:
        holds(where, args)


@fuzz(30)
@given(file=st.sampled_from(["game.json", "run/records.jsonl", False]) | paths,
       run=st.sampled_from(["run", False]) | paths, json=st.booleans())
@example(file=False, run="fresh", json=False)
@example(file="run/records.jsonl", run="old", json=False)
def test_replay_options_replay_or_fail_in_one_line(workspace, file, run, json):
    args = ["replay", *([file] if file is not False else []),
            *(["--run", run] if run is not False else []), *(["--json"] if json else [])]
    with workspace() as where:
        holds(where, args, many_ok=True)  # replay names every problem, one a line


@fuzz(30)
@given(run=st.just("run") | paths, file=paths)
@example(run="run", file="existing")
@example(run="run", file="fresh/")
def test_deals_options_write_or_fail_in_one_line(workspace, run, file):
    with workspace() as where:
        holds(where, ["deals", run, file])


@fuzz(15)
@given(runs=st.lists(st.just("run") | paths, max_size=2), out=paths | st.just(False),
       samples=samples | st.just(False))
@example(runs=["run"], out="existing", samples=False)
def test_report_options_write_or_fail_in_one_line(workspace, runs, out, samples):
    args = ["report", *runs, *(["--out", out] if out is not False else []),
            *(["--samples", samples] if samples is not False else [])]
    with workspace() as where:
        holds(where, args)


@fuzz(30)
@given(old=st.just("old") | paths, new=paths)
@example(old="old", new="existing")
@example(old="old", new="file.txt")
@example(old="old", new="old")
@example(old="old", new="old/sub")
def test_upgrade_options_write_or_fail_in_one_line(workspace, old, new):
    with workspace() as where:
        holds(where, ["upgrade", old, new])


# -- regressions the properties cannot show safely ----------------------------------------------
@pytest.mark.parametrize("command", [
    ["tourney", "--variant", "classic", "-p", "easy", "-p", "b=easy"],
    ["compare", "easy", "b=easy", "--variant", "classic"],
])
def test_a_large_worker_count_forks_no_more_workers_than_games(workspace, monkeypatch, command):
    """A fork pool starts all its workers at once: --workers 100000000 for 2 games used to fork
    until the machine gave out (a property cannot try it without doing that when it fails).
    Now beyond 256 is refused at the option (issue 36), and within, no more than the games."""
    import domsim.runner.local as local

    sizes = []
    pool = local.LocalPool

    def counted(max_workers, **kwargs):
        sizes.append(max_workers)
        assert max_workers <= 2, f"a pool of {max_workers} workers for 2 games"
        return pool(max_workers=max_workers, **kwargs)

    monkeypatch.setattr(local, "LocalPool", counted)
    with workspace() as where:
        refused = holds(where, [*command, "--games", "2", "--workers", "100000000",
                                "--silent", "--out", "fresh"])
        assert refused.exit_code == 2 and "1<=x<=256" in refused.output and not sizes
        result = holds(where, [*command, "--games", "2", "--workers", "256", "--silent",
                               "--out", "fresh"])
    assert result.exit_code == 0 and sizes and max(sizes) <= 2, (sizes, result.output)


# -- every bad value alone, refused ----------------------------------------------------------------
NOT_INT = ["", "x", "1.5", "1e3", "0x10"]
NOT_FLOAT = ["", "x", "1,5", "nan", "inf", "-inf"]
BLOCK = ["--variant", "block"]
BAD = {  # command -> (base arguments, {option: values it must refuse} or [extra arguments])
    "tourney": (["tourney", *arguments(RUN_BASE)], {
        "--games": ["0", "-1", *NOT_INT], "--games-per-pairing": ["0", "-1", *NOT_INT],
        "--players": ["0", "1", "5", "-1", str(2**63), str(10**30), *NOT_INT],
        "--seed": NOT_INT, "--workers": ["0", "-1", *NOT_INT],
        "--move-time-limit": ["-1", *NOT_FLOAT], "--seat-memory": ["-1", *NOT_INT],
        "--target": ["0", "-1", str(2**31), str(10**30), *NOT_INT],
        "--standings-every": ["-1", *NOT_INT], "--standings-seconds": ["-1", *NOT_FLOAT],
    }, [[*BLOCK, "-o", "target=2147483648"], [*BLOCK, "--target", "1000001"],
        [*BLOCK, "-o", "target=0"], [*BLOCK, "-o", "target=x"], ["--variant", "partnership",
        "-p", "c=easy", "-p", "d=easy", "-o", f"capicu_bonus={2**70}"]]),
    "run": (["run", "s.toml", "--silent"], {
        "--games": ["0", "-1", *NOT_INT], "--seed": NOT_INT, "-j": ["0", "-1", *NOT_INT],
        "--standings-every": ["-1", *NOT_INT], "--standings-seconds": ["-1", *NOT_FLOAT],
    }, []),
    "compare": (["compare", "easy", "b=easy", "--variant", "classic", "--games", "2", "-j", "1",
                 "--silent", "--out", "fresh"], {
        "--games": ["0", "-1", *NOT_INT], "--players": ["0", "5", str(10**30)],
        "--alpha": ["0", "1", "-1", *NOT_FLOAT], "--beta": ["0", "1", "2", *NOT_FLOAT],
        "--seat-memory": ["-1", *NOT_INT], "-j": ["0", *NOT_INT], "--seed": NOT_INT,
    }, [["--elo0", "nan", "--elo1", "5"], ["--elo0", "0", "--elo1", "inf"],
        ["--elo0", "-inf", "--elo1", "0"], ["--elo0", "0", "--elo1", "1e308"],
        ["--elo0", "-1e4", "--elo1", "0"], ["--elo0", "5", "--elo1", "5"], ["--elo0", "1"],
        ["--elo-model", "normalized", "--elo0", "0", "--elo1", "150"],
        ["--elo0", "x", "--elo1", "1"], [*BLOCK, "-o", "target=2147483648"]]),
    "calibrate": (["calibrate", "--variant", "classic", "--level", "easy", "--level", "medium",
                   "--games", "2", "-j", "1", "--samples", "2", "--max-games", "60", "--silent",
                   "--out", "fresh"], {
        "--games": ["0", "-1", *NOT_INT], "--players": ["0", "5"],
        "--setting": ["-0.1", "1.5", *NOT_FLOAT], "--samples": ["-1", *NOT_INT],
        "-j": ["0", *NOT_INT], "--seed": NOT_INT, "--max-games": ["1", "0", *NOT_INT],
    }, []),
    "tune": (["tune", "--variant", "classic", "--against", "easy", "--games", "2", "--steps",
              "1", "-j", "1", "--silent", "--out", "fresh"], {
        "--win-rate": ["0", "1", "-0.5", *NOT_FLOAT],
        "--win-rate-tolerance": ["0", "1.5", *NOT_FLOAT],
        "--steps": ["0", "-1", *NOT_INT], "--games": ["0", *NOT_INT], "--players": ["0", "5"],
        "-j": ["0", *NOT_INT], "--seed": NOT_INT, "--levels": ["0", "2", "-1", *NOT_INT],
        "--gap-games": ["0", "-1", *NOT_INT],
    }, [[*BLOCK, "-o", "target=2147483648"], [*BLOCK, "-o", "target=-1"]]),
    "play": (["play", "--variant", "classic"], {
        "--players": ["0", "-1", "5", str(10**30), *NOT_INT], "--seed": NOT_INT,
        "--move-time-limit": ["-1", *NOT_FLOAT], "--seat-memory": ["-1", *NOT_INT],
    }, [[*BLOCK, "-o", "target=2147483648"], [*BLOCK, "-o", f"target={2**63 - 1}"],
        ["--variant", "partnership", "-o", f"capicu_bonus={2**70}"], ["-o", "x"],
        ["-o", "=1"], ["--variant", "nope"], ["--variant", ""]]),
    "stats": (["stats", "run"], {"--samples": ["-1", *NOT_INT]}, []),
    "report": (["report", "run", "--out", "fresh"], {"--samples": ["-1", *NOT_INT]}, []),
}
SCENARIO = 'variant = "classic"\nentrants = ["easy", "b=easy"]\ngames = 2\nworkers = 1\n'


@pytest.mark.parametrize("command", sorted(BAD))
def test_every_bad_number_alone_is_refused_in_one_line(workspace, command):
    """What the properties draw only now and then, each on its own: a value out of range, not a
    number, not finite, or more than the core holds is a one-line error, never a run."""
    base, values, extras = BAD[command]
    cases = [[option, value] for option, refused in values.items() for value in refused]
    wrong = []
    for case in cases + extras:
        with workspace() as where:
            (where / "s.toml").write_text(SCENARIO)
            result = holds(where, [*base, *case])
            if result.exit_code == 0:
                wrong.append(case)
    assert not wrong, f"accepted: {wrong}"
