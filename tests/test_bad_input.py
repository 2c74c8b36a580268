"""Bad input of every kind is a one-line error, a non-zero exit and no traceback: the cases the
issue found, then properties that feed the parsers (records, scenarios, manifests, part files,
specs, options) malformed input and accept only their own one-line errors."""

from __future__ import annotations

import copy
import json
import string
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domsim.analysis import run_statistics
from domsim.cli import main
from domsim.game import play_game
from domsim.plan.config import ConfigError
from domsim.plan.scenario import ScenarioError, load_scenario
from domsim.record import RecordError, read_records, verify
from domsim.results.checksums import checksum_path, file_digest
from domsim.results.folder import RunError
from domsim.results.run import load_run
from domsim.rules import OPTION_SPECS, RulesError, make_rules, parse_options
from domsim.strategy import StrategyError, load_strategy

FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12)


def invoke(*args):
    return CliRunner().invoke(main, [str(arg) for arg in args])


def one_line(result, text=""):
    """Non-zero exit from a SystemExit (no escaped exception), one stderr line with `text`."""
    assert result.exit_code != 0, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert lines and text in lines[-1], result.stderr
    if result.exit_code == 1:
        assert len(lines) == 1, result.stderr
    return lines[-1]


# -- the cases of the issue -------------------------------------------------------------------
BOT = """from domsim.strategy import Strategy
{before}
class Bot(Strategy):
    {inside}
    def choose(self, view):
        return view.legal_moves[0]
"""


@pytest.mark.parametrize(("before", "inside", "message"), [
    ("", "description = 123", "its description must be a string"),
    ("import sys\nsys.exit(4)", "", "cannot load strategy file"),
    ("class Boom(BaseException):\n    pass\nraise Boom('at import')", "", "Boom: at import"),
    ("import sys", "def __init__(self):\n        sys.exit(4)", "cannot build strategy"),
])
def test_a_strategy_file_that_misbehaves_is_one_line(tmp_path, before, inside, message):
    bot = tmp_path / "bot.py"
    bot.write_text(BOT.format(before=before, inside=inside))
    one_line(invoke("play", "--variant", "block", "-p", bot, "-p", "easy"), message)
    listed = invoke("strategies", bot)  # listed with its error, the rest still listed
    assert "error: " in listed.stdout and "easy" in listed.stdout
    assert listed.exit_code == 1 and len(listed.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["play", "tourney"])
@pytest.mark.parametrize("limit", ["nan", "inf", "-1"])
def test_a_move_time_limit_that_is_not_a_finite_number_is_refused(tmp_path, command, limit):
    result = invoke(command, "--variant", "block", "-p", "easy", "-p", "medium",
                    "--move-time-limit", limit, *(["--out", tmp_path / "x"] * (command != "play")))
    assert result.exit_code == 2 and "Invalid value for '--move-time-limit'" in result.stderr
    assert not (tmp_path / "x").exists()


def test_play_with_zero_players_is_refused():
    one_line(invoke("play", "--variant", "block", "--players", "0"), "not 0")


def test_a_run_key_that_is_not_a_key_is_refused_alike_for_a_game_and_a_run(tmp_path):
    """`play` checks a given key as a tourney's settings do, in their words."""
    words = "run_key must be 32 hex digits (a run's key, from its manifest), got 'nope'"
    one_line(invoke("play", "--variant", "block", "-p", "easy", "--run-key", "nope"), words)
    one_line(invoke("tourney", "--variant", "block", "-p", "easy", "-p", "medium", "--games",
                    "2", "--run-key", "nope", "--out", str(tmp_path / "run")), words)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(("text", "message"), [
    ("", "holds no game record"),
    ("\n \n", "holds no game record"),
    ("[" * 200_000 + "]" * 200_000, "nested too deeply"),
    ('{"a": ' * 100_000 + "1" + "}" * 100_000, "nested too deeply"),
])
def test_replay_of_an_empty_or_absurd_file_is_one_line(tmp_path, text, message):
    path = tmp_path / "game.json"
    path.write_text(text)
    one_line(invoke("replay", path), message)


# -- properties over the parsers ----------------------------------------------------------------
RECORD = play_game(make_rules("draw", 2), ["easy", "easy"], 3)


@st.composite
def mutated(draw, value):
    """`value` with one node somewhere in it replaced by any JSON value, or deleted."""
    value = copy.deepcopy(value)
    if not isinstance(value, dict | list) or not value or draw(st.integers(0, 4)) == 0:
        return draw(json_values)
    keys = list(value) if isinstance(value, dict) else list(range(len(value)))
    key = draw(st.sampled_from(keys))
    if draw(st.integers(0, 5)) == 0:
        del value[key]
    else:
        value[key] = draw(mutated(value[key]))
    return value


@FUZZ
@given(st.data())
def test_a_mutated_record_replays_or_says_what_is_wrong(data):
    record = data.draw(mutated(RECORD))
    if not isinstance(record, dict):
        return
    recomputed, problems = verify(record, 0)
    assert recomputed is not None or problems
    assert all(isinstance(problem, str) and "\n" not in problem for problem in problems)


@FUZZ
@given(text=st.text(max_size=300) | st.builds(json.dumps, json_values))
def test_any_text_is_records_or_a_record_error(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("records") / "any.jsonl"
    path.write_text(text)
    try:
        records = read_records(path)
    except RecordError as exc:
        assert "\n" not in str(exc)
        return
    for index, record in enumerate(records):
        verify(record, index)


toml_keys = st.sampled_from(["variant", "players", "games", "entrants", "format", "seed",
                             "duplicate", "target", "options", "move_time_limit", "records",
                             "output_format", "workers", "out", "backend", "scheduler", "nope"])
toml_values = st.sampled_from(['"block"', '"kozel"', "2", "0", "-3", "1e400", "nan", "true",
                               '["easy", "medium"]', '["easy+hard", 3]', "{ target = 50 }",
                               "{ x = [1] }", '"round-robin"', '"csv"', '""', "[]", "1.5",
                               "2026-01-01", '"tcp://x:1"', "{"])


@FUZZ
@given(st.lists(st.tuples(toml_keys, toml_values), max_size=8) | st.text(max_size=100))
def test_any_scenario_loads_or_is_a_one_line_error(tmp_path_factory, lines):
    path = tmp_path_factory.mktemp("scenario") / "s.toml"
    text = lines if isinstance(lines, str) else "".join(f"{k} = {v}\n" for k, v in lines)
    path.write_text(text)
    try:
        load_scenario(path)
    except (ScenarioError, ConfigError, RulesError, StrategyError) as exc:
        assert "\n" not in str(exc)


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("run") / "run"
    result = invoke("tourney", "--variant", "classic", "-p", "easy", "-p", "medium", "--games",
                    "4", "-j", "1", "--seed", "1", "--silent", "--out", out)
    assert result.exit_code == 0, result.output
    return out


def copy_run(run: Path, into: Path) -> Path:
    into.mkdir()
    for file in run.iterdir():
        (into / file.name).write_bytes(file.read_bytes())
    return into


@FUZZ
@given(st.data())
def test_a_mutated_manifest_loads_or_is_a_run_error(finished_run, tmp_path_factory, data):
    run = copy_run(finished_run, tmp_path_factory.mktemp("m") / "run")
    manifest = json.loads((run / "manifest.json").read_text())
    (run / "manifest.json").write_text(json.dumps(data.draw(mutated(manifest))))
    try:
        load_run(run)
    except RunError as exc:
        assert "\n" not in str(exc)


@FUZZ
@given(cut=st.integers(0, 20_000), junk=st.binary(max_size=64))
def test_a_part_that_matches_its_checksum_but_not_parquet_is_a_run_error(finished_run,
                                                                         tmp_path_factory, cut,
                                                                         junk):
    """A part damaged before its checksum was taken (so the checksum agrees) still cannot be
    read as games: a one-line RunError, never an Arrow exception."""
    run = copy_run(finished_run, tmp_path_factory.mktemp("p") / "run")
    manifest = json.loads((run / "manifest.json").read_text())
    (run / "manifest.json").write_text(json.dumps({**manifest, "partial": True}))
    (run / "parts").mkdir()
    part = run / "parts" / "games-000000000.parquet"
    table = (finished_run / "games.parquet").read_bytes()
    part.write_bytes(table[:cut] + junk)
    checksum_path(part).write_text(f"{file_digest(part)}  {part.name}\n")
    try:
        assert load_run(run).table.num_rows == len(pq.read_table(part))
    except RunError as exc:
        assert "\n" not in str(exc)


spec_text = st.text(alphabet=string.ascii_letters + string.digits + "?&=:+./_- ", max_size=30)


@FUZZ
@given(spec=spec_text | st.sampled_from(["easy?", "hard?x=1", "medium?seed=q", "easy?&",
                                          "easy?a=1&a=2", ":", ".py", "x.py:", "os:path"]))
def test_any_spec_loads_or_is_a_strategy_error(spec):
    try:
        load_strategy(spec)
    except StrategyError as exc:
        assert "\n" not in str(exc)


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_=0123456789-", max_size=14)
#: KEY=VALUE pairs, half of them naming a real option (with a value it may or may not allow).
_OPTION_PAIRS = st.lists(
    st.builds("{}={}".format, st.sampled_from(sorted(OPTION_SPECS)),
              st.sampled_from(["0", "1", "150", "-3", "1000001", "all", "losers", "maker",
                               "fid", "lower", "winner", "x"]) | _WORD)
    | _WORD, max_size=4)


@FUZZ
@given(pairs=_OPTION_PAIRS,
       variant=st.sampled_from(["draw", "block", "fives", "kozel", "partnership", "x"]),
       players=st.none() | st.integers(-2, 6))
def test_any_options_make_rules_or_a_rules_error(pairs, variant, players):
    """Options make rules that hold each value given, or a one-line RulesError."""
    try:
        rules = make_rules(variant, players, parse_options(pairs))
    except RulesError as exc:
        assert "\n" not in str(exc)
        return
    for key, value in parse_options(pairs).items():
        assert str(getattr(rules, key)) == str(int(value) if key in ("target", "capicu_bonus")
                                               else value)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(option=st.sampled_from(["--players", "--seed", "--move-time-limit", "--option",
                               "--variant", "-p"]),
       value=st.text(alphabet=string.printable, max_size=12))
def test_any_play_option_value_plays_or_fails_in_one_line(option, value):
    args = ["play", "--variant", "block", "-p", "easy", "-p", "easy", option, value]
    result = CliRunner().invoke(main, args)
    if result.exit_code:
        one_line(result)
    else:
        assert result.exception is None


texts = st.text(max_size=12) | st.sampled_from(["", "0", "0,1", "[]", "[[1]]", "{}", '{"x": 1}',
                                                "easy vs medium", "easy", "medium"])
int64s = st.integers(-2**63, 2**63 - 1) | st.sampled_from([0, 1, -1, 3])
cell_values = {  # a strategy per column type of the typed games table (docs/SCHEMA.md)
    pa.int64(): int64s,
    pa.float64(): st.floats() | st.none(),
    pa.bool_(): st.booleans(),
}


def cell_value(kind: pa.DataType):
    """Any value a cell of this type can hold, nulls in lists and maps included."""
    if pa.types.is_dictionary(kind):
        return texts
    if pa.types.is_map(kind):
        return st.none() | st.lists(st.tuples(st.integers(-2**15, 2**15 - 1), st.none() | int64s),
                                    max_size=3)
    if pa.types.is_list(kind) and pa.types.is_list(kind.value_type):
        return st.none() | st.lists(st.none() | st.lists(st.none() | int64s, max_size=3),
                                    max_size=3)
    if pa.types.is_list(kind) and pa.types.is_string(kind.value_type):
        return st.none() | st.lists(texts, max_size=3)
    if pa.types.is_list(kind):
        return st.none() | st.lists(st.integers(-128, 127) | st.sampled_from([0, 1]), max_size=4)
    return cell_values[kind]


@FUZZ
@given(st.data())
def test_a_games_table_with_any_edited_cell_gives_statistics_or_a_run_error(finished_run,
                                                                           tmp_path_factory,
                                                                           data):
    """A table edited cell by cell (and its checksum dropped, as an old run has none): the
    statistics come out, or one line says what is wrong; never a traceback."""
    run = copy_run(finished_run, tmp_path_factory.mktemp("t") / "run")
    manifest = json.loads((run / "manifest.json").read_text())
    del manifest["checksums"]
    (run / "manifest.json").write_text(json.dumps(manifest))
    table = pq.read_table(run / "games.parquet")
    rows = table.to_pylist()
    for _ in range(data.draw(st.integers(1, 3))):
        column = data.draw(st.sampled_from(table.schema.names))
        row = data.draw(st.integers(0, len(rows) - 1))
        rows[row][column] = data.draw(cell_value(table.schema.field(column).type))
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), run / "games.parquet")
    try:
        run_statistics(load_run(run), samples=5)
    except RunError as exc:
        assert "\n" not in str(exc)


# -- issue 36: input deep, endless or out of range -----------------------------------------------
@pytest.mark.parametrize("command", [["stats"], ["report"], ["tourney", "--resume", "--out"]])
def test_a_manifest_nested_too_deep_is_one_line_and_changes_nothing(finished_run, tmp_path,
                                                                    command):
    run = copy_run(finished_run, tmp_path / "deep")
    (run / "manifest.json").write_text("[" * 300_000)
    before = {file.name: file.read_bytes() for file in run.iterdir()}
    args = [*command, run] if command[0] != "report" else [*command, run, "--out",
                                                          tmp_path / "report.html"]
    one_line(invoke(*args), "manifest.json")
    assert {file.name: file.read_bytes() for file in run.iterdir()} == before


def test_a_scenario_nested_too_deep_is_one_line(tmp_path):
    scenario = tmp_path / "deep.toml"
    scenario.write_text('variant = "block"\nentrants = ' + "[" * 100_000 + "]" * 100_000 + "\n")
    one_line(invoke("run", scenario), "nested too deeply")


def test_an_endless_deals_file_is_one_line(tmp_path):
    one_line(invoke("tourney", "--variant", "block", "--deals", "/dev/zero", "--games", "2",
                    "--out", tmp_path / "run"), "longer than 64 MiB")
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--seat-memory", "1", "32 to 1048576"), ("--seat-memory", str(2**60), "32 to 1048576"),
    ("--workers", "100000", "1<=x<=256")])
def test_a_limit_out_of_range_is_refused_naming_the_range(tmp_path, option, value, says):
    result = invoke("tourney", "--variant", "block", "-p", "easy", "-p", "medium", option, value,
                    "--games", "2", "--out", tmp_path / "run")
    assert result.exit_code == 2 and says in result.stderr and "Traceback" not in result.output
    assert not (tmp_path / "run").exists()


def test_a_long_exec_argument_is_an_argument(tmp_path):
    bot = Path(__file__).parent / "hostile" / "attacker.py"
    result = invoke("play", "--variant", "block", "-p", f"exec:{bot} {'x' * 400}", "-p", "easy",
                    "--seed", "1")
    assert result.exit_code == 0, result.output
