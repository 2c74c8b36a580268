"""Seats no bot can break (R-SEAT-FAULT, R-VIEW): the seat protocol (docs/seat-protocol.md),
bots in their own process (`exec:` specs and `--isolate`), and in-process seats against hostile
strategies. Every hostile case checks that the game or run completes, that the fault is recorded
and that the other seats' results are those of a game without the attack.

The hostile strategies live in tests/hostile/."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import sys
import threading
import time
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from clitools import invoke, one_line_error
from domsim.strategies.easy import Easy
from domsim.strategies.hard import Hard
from domsim.strategies.medium import Medium

import domsim
from domsim.cli import main
from domsim.engine import State, start_next_hand
from domsim.game import play, play_game, play_hand
from domsim.plan.config import TourneyConfig
from domsim.plan.pairings import default_name
from domsim.record import verify
from domsim.rules import VARIANTS, make_rules
from domsim.runner.stream import stream
from domsim.runner.tourney import Tourney
from domsim.seat import seats as seat_module
from domsim.seat.command import BotCommand, bot_command
from domsim.seat.host import Host
from domsim.seat.pool import BotPool
from domsim.seat.process import Confinement, check_spec
from domsim.seat.protocol import ViewEncoder, game_message, view_from
from domsim.seeding import deal_rng
from domsim.spec import Spec
from domsim.strategy import StrategyError, define_strategy
from domsim.view import ViewBuilder

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile"
EXAMPLE = f"exec:python3 {ROOT / 'strategies' / 'example_external.py'}"
BLOCK = make_rules("block", 2)
#: One run key for runs to compare: a strategy in its own process draws a new one otherwise.
RUN_KEY = "5eed" * 8


def hostile(name: str, query: str = "", cls: str = "") -> str:
    return f"{HOSTILE / name}.py" + (f":{cls}" if cls else "") + (f"?{query}" if query else "")


def bad_bot(*args: str) -> str:
    return f"exec:{HOSTILE / 'bad_bot.py'} " + " ".join(args)


@pytest.fixture(autouse=True)
def fresh_hung_counts(monkeypatch):
    """Each test starts with no spec marked as hung in this process (MAX_HUNG_GAMES)."""
    monkeypatch.setattr(seat_module, "_hung_games", seat_module.Counter())


def replays(record: dict) -> bool:
    recomputed, problems = verify(record, 0)
    return recomputed is not None and problems == [] and record["result"]["complete"]


def results(record: dict) -> tuple:
    return record["result"], [hand["actions"] for hand in record["hands"]]


# -- the protocol ---------------------------------------------------------------------------------
class Collect:
    def __init__(self) -> None:
        self.views = []
        self.rng = random.Random(5)

    def choose(self, view):
        self.views.append(view)
        return self.rng.choice(view.legal_moves)


def test_a_view_crosses_the_protocol_unchanged():
    """R-VIEW: every PlayerView field survives JSON both ways, in every variant."""
    collect = Collect()
    for name in VARIANTS:
        rules = make_rules(name)
        state, rng, views = State(rules), deal_rng(5), ViewBuilder()
        while not state.match_over:
            start_next_hand(state, rng)
            play_hand(state, [collect] * rules.players, views)
    assert len(collect.views) > 100
    encoder = ViewEncoder()
    for view in collect.views:
        assert view_from(json.loads(encoder.encode(1, view)), view.rules) == view


def test_a_view_no_game_can_show_is_a_value_error_not_a_crash():
    collect = Collect()
    state, rng, views = State(BLOCK), deal_rng(5), ViewBuilder()
    while not state.match_over:
        start_next_hand(state, rng)
        play_hand(state, [collect] * 2, views)
    message = json.loads(ViewEncoder().encode(1, collect.views[-1]))
    assert view_from(message, BLOCK) == collect.views[-1]
    for key, value in [("hand", [[0, 0], [0, 0]]), ("ends", [7, 1]), ("seat", 2),
                       ("hand_counts", [1]), ("end_counts", [1, 2, 3]), ("end_counts", [13, 1]),
                       ("legal_moves", [{"tile": [9, 9], "end": 0}])]:
        with pytest.raises((ValueError, KeyError)):
            view_from({**message, key: value}, BLOCK)
    draw = {"seat": 0, "kind": "draw", "open_numbers": [1]}
    for history, problem in [([draw] * 29, "draws more tiles"),
                             (message["history"][:1] * 2, "plays a tile twice")]:
        with pytest.raises(ValueError, match=problem):  # a search would replay it
            view_from({**message, "history": history}, BLOCK)
    own = make_rules("block", 2)
    assert collect.views[-1].with_rules(own).rules is own
    assert collect.views[-1].with_rules(own) == collect.views[-1]


def test_isolated_python_strategy_plays_as_in_process():
    """The host builds the strategy with the seat's generator: same moves, same results."""
    spec = "strategies/example_greedy.py"
    for name in VARIANTS:
        rules = make_rules(name)
        specs = [str(ROOT / spec)] + ["hard"] * (rules.players - 1)
        isolated = play_game(rules, specs, 11, isolate=True)
        assert results(isolated) == results(play_game(rules, specs, 11)), name
        assert isolated["faults"][0]["first"] is None


def test_exec_spec_is_split_like_a_shell_and_checked():
    command = bot_command(Spec.of("exec:python3 'my bot.py' --depth 3"), isolate=False)
    assert command.argv == ("python3", "my bot.py", "--depth", "3")
    assert bot_command(Spec.of("easy"), isolate=True) is None
    assert bot_command(Spec.of("hard?shed=2"), isolate=True) is None
    assert bot_command(Spec.of("strategies/example_greedy.py"), isolate=False) is None
    assert bot_command(Spec.of("strategies/example_greedy.py"), isolate=True).argv[1:3] == (
        "-m", "domsim.seat.host")
    for spec, words in [("exec:", "names no program"), ("exec:python3 'open", "quotes"),
                        ("exec:no-such-program-here", "not on PATH"),
                        ("exec:./no/such/bot", "not an executable file")]:
        with pytest.raises(StrategyError, match=words):
            bot_command(Spec.of(spec), isolate=False)


class Session(Easy):
    """A strategy defined here, not in a file: its spec is session:Session."""


def test_a_strategy_defined_in_the_session_cannot_be_isolated():
    """It exists only in this process (and its forks): isolating it is an error, and the run
    that goes on isolated after a worker died keeps it in process."""
    with pytest.raises(StrategyError, match="defined in this Python session"):
        domsim.play("block", [Session, "easy"], seed=1, isolate=True)
    assert bot_command(Spec.of(define_strategy(Session)), isolate=True) is None
    assert domsim.play("block", [Session, "easy"], seed=1)["result"]["complete"]


def test_the_python_api_isolates_too(tmp_path):
    greedy = str(ROOT / "strategies" / "example_greedy.py")
    # Isolated, a game alone draws a run key: the same key deals the same game in process.
    played = domsim.play("block", [greedy, "easy"], seed=3, isolate=True)
    assert results(played) == results(domsim.play("block", [greedy, "easy"], seed=3,
                                                  run_key=played["run_key"]))
    run = domsim.tourney("block", {"mine": EXAMPLE, "easy": "easy"}, games=4, seed=1, workers=1,
                         isolate=True, seat_memory=1024, out=tmp_path / "run")
    assert run.manifest["config"]["isolate"] and run.manifest["config"]["seat_memory"] == 1024
    assert run.manifest["entrants"][0]["members"][0]["origin"].startswith("process: ")
    assert set(run.summary["entrant"]) == {"mine", "easy"}


@pytest.mark.parametrize("spec, words", [
    ("exec:./missing-bot", "not an executable file"),
    (bad_bot("version"),
     "speaks protocol 1, domsim speaks 2 (docs/seat-protocol.md, Versions): update the bot"),
    ("tests/hostile/nothere.py", "not found"),
])
def test_a_bot_that_cannot_play_is_a_one_line_error(spec, words, monkeypatch):
    monkeypatch.chdir(ROOT)
    for args in (["play", "--variant", "block", "-p", spec, "-p", "easy", "--isolate"],
                 ["tourney", "--variant", "block", "-p", spec, "-p", "easy", "--isolate",
                  "--games", "2", "--out", "never"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1, result.output
        assert words in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1
    assert not (ROOT / "never").exists()


def test_example_external_bot_in_a_tourney(tmp_path, monkeypatch):
    """The example imports nothing of domsim: the protocol is enough. Its stderr reaches
    run.log; the run is reproducible from its seed and key."""
    source = (ROOT / "strategies" / "example_external.py").read_text()
    assert not re.search(r"^\s*(import|from)\s+domsim", source, re.MULTILINE)
    monkeypatch.chdir(tmp_path)

    def played(out: str, *extra: str):
        result = CliRunner().invoke(main, ["tourney", "--variant", "block", "--games", "8",
                                           "-p", EXAMPLE, "-p", "easy", "--seed", "3",
                                           "--workers", "2", "--out", out, "--silent", *extra])
        assert result.exit_code == 0, result.output
        table = pq.read_table(tmp_path / out / "games.parquet").to_pandas()
        assert (table["faults_0"] == 0).all() and (table["faults_1"] == 0).all()
        return table[["game_id", "seat_0", "winners", "score_0", "score_1"]]

    # One key for both (a bot in its own process: the deals come from the seed and a key), so
    # that the win rate below is of known deals.
    tables = [played("a", "--run-key", RUN_KEY)]
    assert json.loads((tmp_path / "a" / "manifest.json").read_text())["config"]["run_key"] \
        == RUN_KEY
    tables.append(played("b", "--run-key", RUN_KEY))
    assert tables[0].equals(tables[1])
    assert "example_external: seat " in (tmp_path / "a" / "run.log").read_text()
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    member = manifest["entrants"][0]["members"][0]
    assert member["origin"].startswith("process: python3 ")
    assert len(next(iter(member["files"].values()))) == 64
    seat_0_won = tables[0]["winners"].map(lambda winners: list(winners) == [0])
    wins = (tables[0]["seat_0"].str.startswith("exec:") == seat_0_won).mean()
    assert wins > 0.6  # heaviest-first beats random


# -- bots that break the protocol or their process ------------------------------------------------
@pytest.mark.parametrize("spec, kind, words", [
    (bad_bot("garbage"), None, None),  # lines that are not messages are ignored
    (bad_bot("silent"), "timeouts", "no move within 1.5 s: killed"),
    (bad_bot("long"), "errors", "longer than"),
    (bad_bot("exit"), "errors", "exited with status 4"),
    (bad_bot("illegal"), "illegal", "not one of its legal moves"),
    (bad_bot("error"), "errors", "cannot think"),
    (bad_bot("late", "1.0"), "timeouts", "over the 0.5 s limit"),
    (hostile("breaks", "how=exit"), "errors", "exited with status 1"),
    (hostile("breaks", "how=kill"), "errors", "killed by signal 9"),
    (hostile("breaks", "how=sleep"), "timeouts", "killed"),
    (hostile("breaks", "how=c_loop"), "timeouts", "killed"),
    (hostile("breaks", "how=system_exit"), "errors", "SystemExit"),
    (hostile("breaks", "how=memory"), "errors", "MemoryError"),
])
def test_a_broken_bot_in_its_own_process_is_a_seat_fault(spec, kind, words):
    # A limit no well-behaved move of a bot in its own process reaches on a loaded machine.
    played = play_game(BLOCK, [spec, "easy"], 2, move_time_limit=0.5, isolate=True,
                       confinement=Confinement(512))
    assert replays(played)
    faults = played["faults"][0]
    if kind is None:
        assert faults["first"] is None
        return
    assert faults[kind] >= 1 and words in faults["first"]
    assert played["faults"][1]["first"] is None


def test_a_late_bot_is_handed_over_after_three_late_moves_in_a_row():
    played = play_game(BLOCK, [bad_bot("late", "0.3"), "easy"], 2, move_time_limit=0.2)
    faults = played["faults"][0]
    assert faults["timeouts"] == 3 and faults["replaced"]


def test_a_killed_bot_is_started_afresh_for_the_next_game():
    with BotPool() as pool:
        for seed in (1, 2):
            game = play(BLOCK, [bad_bot("silent"), "easy"], seed, move_time_limit=0.05,
                        bots=pool)
            assert game.faults[0]["first"] == "no move within 1.05 s: killed"
            assert game.timing[0]["decisions"] == 1  # asked once, in a fresh process


@pytest.mark.parametrize("sandboxed", [True, False])
def test_nothing_a_bot_forked_outlives_its_games(tmp_path, sandboxed):
    pids = tmp_path / "pids"  # in the sandbox, a file of its own /tmp: unseen here
    record = play_game(BLOCK, [hostile("forker", f"pids={pids}&bomb=true"), "easy"], 1,
                       isolate=True, confinement=Confinement(sandboxed=sandboxed))
    assert record["faults"][0]["first"] is None  # it forked and played on
    if not sandboxed:
        assert len(pids.read_text().split()) == 6
    assert not marked(str(pids))


def marked(marker: str, wait: float = 20.0) -> list[int]:
    """The live processes whose command line holds `marker`, once none is left or `wait`
    seconds have passed (SIGKILL is delivered, not waited for)."""
    deadline = time.monotonic() + wait
    while True:
        found = [int(pid) for pid in os.listdir("/proc") if pid.isdigit()
                 and marker in _command_line(pid) and alive(int(pid))]
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.02)


def _command_line(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def test_a_bot_that_stops_reading_does_not_block_domsim():
    command = bot_command(Spec.of(bad_bot("noread")), isolate=False)
    with BotPool() as pool:
        bot, _ = pool.take(command)
        started = time.monotonic()
        with pytest.raises(seat_module.BotFault, match="did not read its input"):
            for _ in range(1000):
                bot.tell({"type": "hand", "pad": "x" * 4096}, seconds=0.3)
        assert time.monotonic() - started < 60  # not the 300 s of 1000 full waits


def test_bot_pool_kills_its_processes():
    command = BotCommand(Spec.of("example"),
                         ("python3", str(ROOT / "strategies" / "example_external.py")), str(ROOT),
                         ())
    with BotPool() as pool:
        bots = [pool.take(command)[0], pool.take(command)[0]]
        assert all(bot.alive for bot in bots)
    assert not any(bot.alive for bot in bots)


WEIGHTED = (Path(__file__).parent / "weighted.py").read_text()  # double: a number


def test_the_host_declares_its_parameters_and_builds_each_game_with_the_games_values(tmp_path):
    """A strategy's parameters go with each `game` message (issue 49, item 3): the host plays
    any values of them in one process; without any, the spec's defaults."""
    bot = tmp_path / "weighted.py"
    bot.write_text(WEIGHTED)
    host = Host(Spec.of(str(bot)))
    hello = host.answer({"type": "hello", "protocol": 2, "encodings": ["json"]})
    assert hello["parameters"] == {"double": "float"}
    for parameters, double in (({"double": "3.5"}, 3.5), (None, 1.0), ({"double": "0"}, 0.0)):
        assert host.answer(game_message(BLOCK, 0, 5, None, parameters)) == {"type": "ready"}
        assert host.strategy.double == double
    assert "parameters" not in game_message(BLOCK, 0, 5, None, {})


def test_specs_that_differ_only_in_parameters_share_a_process_and_are_checked_first(tmp_path):
    """The process is started without the strategy's parameters (a tune's nudged values are
    then one process's games, as a tourney's), so a pool hands the same one to each; a value
    its strategy would refuse is refused before any game, in the strategy's words."""
    bot = tmp_path / "weighted.py"
    bot.write_text(WEIGHTED)
    one, two = (bot_command(Spec.of(f"{bot}?double={v}"), isolate=True) for v in (1, 2.5))
    assert one == two and one.argv[-1] == str(bot) and one.spec != two.spec
    unsandboxed = Confinement(sandboxed=False)
    with BotPool(unsandboxed) as pool:
        first, table = pool.take(one)
        pool.give(first, table)
        assert pool.take(two)[0] is first
    records = [play_game(BLOCK, [f"{bot}?double={v}", "easy"], 4, isolate=True,
                         confinement=unsandboxed) for v in (0, 9)]
    assert results(records[0]) == results(play_game(BLOCK, [f"{bot}?double=0", "easy"], 4))
    assert results(records[0]) != results(records[1])  # each game played its own values
    for query, words in (("nope=1", r"has no parameter 'nope' \(its parameters: double\)"),
                         ("double=x", "parameter 'double' of .* must be a number")):
        with pytest.raises(StrategyError, match=words):
            check_spec(Spec.of(f"{bot}?{query}"), True, unsandboxed)


# -- isolation: what a hostile strategy cannot see or change --------------------------------------
def test_a_strategy_requiring_a_parameter_plays_in_its_own_process_when_its_spec_gives_it(
        tmp_path):
    """A constructor parameter without a default: given in the spec, the strategy plays in its
    own process as in process (its host, started without the value, declares it `required` in
    `hello` and gets it with each game); not given, either way is one line saying how."""
    bot = tmp_path / "required.py"
    bot.write_text(WEIGHTED.replace("*, double: float = 1.0", "*, double: float"))
    unsandboxed = Confinement(sandboxed=False)
    played = [play_game(BLOCK, [f"{bot}?double=2.5", "easy"], 4, isolate=isolate,
                        confinement=unsandboxed) for isolate in (True, False)]
    assert results(played[0]) == results(played[1])
    assert played[0]["faults"][0]["first"] is None
    assert check_spec(Spec.of(f"{bot}?double=2.5"), True, unsandboxed)["required"] == ["double"]
    words = f"needs parameter 'double': give it in the spec, e.g. '{bot}?double=VALUE'"
    for isolate in ("--isolate", "--in-process"):
        one_line_error(invoke("play", "--variant", "block", "-p", str(bot), "-p", "easy",
                              isolate, "--no-sandbox"), words)


#: Weighted, saying its value on stderr as each game starts.
TALKING = "import sys\n" + WEIGHTED.replace(
    "    def choose(self, view):\n", "    def start_game(self, seat, rules):\n"
    "        print('talker', self.double, file=sys.stderr)\n\n"
    "    def choose(self, view):\n")


def test_a_bots_stderr_is_logged_under_the_spec_of_its_game(tmp_path, caplog):
    """A process shared by specs that differ only in values (a tune's) logs a game's stderr
    under that game's spec when it plays one game at a time (the example external bot); when
    it plays several (domsim's host), under the spec without the values once they differ."""
    (tmp_path / "talker.py").write_text(TALKING)
    one_at_a_time = [EXAMPLE.replace("exec:", f"exec?doubles={v}:", 1) for v in (1, 2)]
    several = [f"{tmp_path / 'talker.py'}?double={v}" for v in (1, 2)]
    for specs, labels, words in ((one_at_a_time, one_at_a_time, "example_external: seat 0"),
                                 (several, [several[0], str(tmp_path / "talker.py")], "talker")):
        caplog.clear()
        with BotPool(Confinement(sandboxed=False)) as pool, \
                caplog.at_level("INFO", logger="domsim.seats"):
            for seed, spec in enumerate(specs):
                play(BLOCK, [spec, "easy"], seed, isolate=True, bots=pool)
            assert len(pool.pids()) == 1  # one process played both games
        said = [r.getMessage().partition(f": stderr: {words}") for r in caplog.records]
        assert [label for label, found, _ in said if found] == labels


@pytest.mark.parametrize("sandboxed", [True, False])
def test_isolated_spy_sees_no_hidden_tile(tmp_path, caplog, sandboxed):
    """In process the spy finds the other hand (the test can fail); isolated it finds nothing
    (it says what it found on stderr, which reaches the log from the sandbox too)."""
    report = tmp_path / "found"
    spy = hostile("meddler", f"what=spy&report={report}", "Meddler")
    with caplog.at_level("INFO", logger="domsim.seats"):
        isolated = play_game(BLOCK, [spy, "medium"], 4, isolate=True,
                             confinement=Confinement(sandboxed=sandboxed))
    seen = [int(n) for n in re.findall(r"stderr: spy found (\d+)", caplog.text)]
    assert seen and not any(seen)
    assert report.exists() != sandboxed  # outside the sandbox it could write the file
    report.unlink(missing_ok=True)
    in_process = play_game(BLOCK, [spy, "medium"], 4)
    assert any(int(n) for n in report.read_text().split())
    assert results(isolated) == results(in_process)


def test_isolated_patcher_cannot_change_the_built_in_levels(monkeypatch):
    for level in (Easy, Medium, Hard):  # undone after the test: loading patcher patches them
        monkeypatch.setattr(level, "choose", level.choose)
    control = results(play_game(BLOCK, [hostile("meddler", "", "Plain"), "medium"], 4))
    assert results(play_game(BLOCK, [hostile("patcher"), "medium"], 4, isolate=True)) == control
    assert results(play_game(BLOCK, [hostile("patcher"), "medium"], 4)) != control


@pytest.mark.parametrize("what", ["target", "reseed"])
def test_isolated_meddler_cannot_change_the_rules_or_the_deal(what):
    rules = make_rules("draw", 2)
    specs = [hostile("meddler", f"what={what}", "Meddler"), "easy"]
    control = play_game(rules, [hostile("meddler", "", "Plain"), "easy"], 6, isolate=True)
    isolated = play_game(rules, specs, 6, isolate=True)
    assert results(isolated) == results(control) and isolated["options"] == {}
    assert replays(isolated)


def test_in_process_a_strategy_changes_only_its_own_copy_of_the_rules():
    rules = make_rules("draw", 2)
    control = play_game(rules, [hostile("meddler", "", "Plain"), "easy"], 6, isolate=True)
    meddled = play_game(rules, [hostile("meddler", "what=target", "Meddler"), "easy"], 6)
    assert results(meddled) == results(control) and meddled["options"] == {}
    assert rules.target == make_rules("draw", 2).target


# -- in process: nothing a strategy raises stops the game -----------------------------------------
@pytest.mark.parametrize("how, words", [
    ("system_exit", "SystemExit"), ("keyboard_interrupt", "KeyboardInterrupt"),
    ("generator_exit", "GeneratorExit"), ("base_exception", "Unstoppable: no"),
])
def test_in_process_any_base_exception_is_a_seat_fault(how, words):
    played = play_game(BLOCK, [hostile("breaks", f"how={how}&at=2"), "easy"], 3)
    faults = played["faults"][0]
    assert faults["errors"] == 1 and faults["replaced"] and words in faults["first"]
    assert replays(played)


def test_in_process_a_real_ctrl_c_still_stops_the_game():
    # Python's own Ctrl-C, also where the suite was started with SIGINT ignored (a background
    # job of a shell without job control inherits it so)
    ignored = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            play_game(BLOCK, [hostile("breaks", "how=sleep"), "easy"], 3, move_time_limit=None)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, ignored)


def test_in_process_a_late_seat_is_handed_over_after_three_late_moves():
    spec = f"{ROOT / 'tests' / 'broken' / 'slow.py'}?delay=0.15&times=100"
    played = play_game(BLOCK, [spec, "easy"], 3, move_time_limit=0.05)
    faults = played["faults"][0]
    assert faults["timeouts"] == 3 and faults["replaced"]
    assert played["timing"][0]["decisions"] == 3


def test_in_process_a_fork_inside_a_strategy_exits_at_once(tmp_path):
    pids = tmp_path / "pids"
    played = play_game(BLOCK, [hostile("forker", f"pids={pids}"), "easy"], 1)
    assert replays(played)
    time.sleep(0.2)
    assert not pids.exists()  # no child lived to write


# -- runs: a strategy that kills or hangs its worker ----------------------------------------------
def run_tourney(folder: Path, spec: str, *extra: str) -> tuple:
    result = CliRunner().invoke(main, ["tourney", "--variant", "block", "--games", "4",
                                       "-p", spec, "-p", "easy", "--seed", "5", "--workers",
                                       "2", "--out", str(folder), "--silent", "--run-key",
                                       RUN_KEY, *extra])
    assert result.exit_code == 0, result.output
    table = pq.read_table(folder / "games.parquet").to_pandas()
    manifest = json.loads((folder / "manifest.json").read_text())
    return table, manifest


# c_loop, ignore_alarm and catch_timeout wait for the watchdog (about 10 s each).
WATCHDOG = pytest.mark.slow


@pytest.mark.parametrize("how", ["exit", "kill", pytest.param("c_loop", marks=WATCHDOG),
                                 pytest.param("ignore_alarm", marks=WATCHDOG),
                                 pytest.param("catch_timeout", marks=WATCHDOG)])
def test_a_strategy_that_kills_or_hangs_its_worker_is_a_seat_fault(tmp_path, how):
    spec = hostile("breaks", f"how={how}&at=1")
    table, manifest = run_tourney(tmp_path / "in", spec, "--move-time-limit", "0.2")
    assert sorted(table["game_id"]) == list(range(4)) and not manifest["partial"]
    hostile_seat = (table["seat_0"] == spec).map({True: "faults_0", False: "faults_1"})
    faults = [row[column] for (_, row), column in zip(table.iterrows(), hostile_seat,
                                                      strict=True)]
    assert all(count >= 1 for count in faults)
    others = [row["faults_1" if column == "faults_0" else "faults_0"]
              for (_, row), column in zip(table.iterrows(), hostile_seat, strict=True)]
    assert not any(others)
    isolated, _ = run_tourney(tmp_path / "iso", spec, "--move-time-limit", "0.2", "--isolate")
    columns = ["game_id", "seat_0", "winners", "score_0", "score_1"]
    assert table[columns].equals(isolated[columns])  # the other seat's results are right
    summary = (tmp_path / "in" / "summary.csv").read_text().splitlines()
    assert summary[1].split(",")[1] == default_name(spec)  # the file by its stem
    assert int(summary[1].split(",")[-1]) >= 4


def test_a_scenario_isolates_its_strategies(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report = tmp_path / "found"
    spy = hostile("meddler", f"what=spy&report={report}", "Meddler")
    (tmp_path / "x.toml").write_text(
        f'variant = "block"\ngames = 4\nseed = 1\nworkers = 1\nisolate = true\n'
        f'seat_memory = 1024\nentrants = ["{spy}", "{EXAMPLE}"]\n')
    result = CliRunner().invoke(main, ["run", "x.toml", "--out", "out", "--silent"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["config"]["isolate"] and manifest["config"]["seat_memory"] == 1024
    origins = [entrant["members"][0]["origin"] for entrant in manifest["entrants"]]
    assert all(origin.startswith("process: ") for origin in origins)
    assert "domsim.seat.host" in origins[0]
    assert all("in the sandbox" in entrant["members"][0]["runs"]
               for entrant in manifest["entrants"])
    seen = [int(n) for n in re.findall(r"stderr: spy found (\d+)",
                                       (tmp_path / "out" / "run.log").read_text())]
    assert seen and not any(seen)
    assert not report.exists()  # the sandbox kept it from writing outside


def test_bot_threads_leave_the_alarm_to_the_game():
    """The threads reading bots' stderr block SIGALRM, so an in-process strategy's sleep is still
    cut at its limit (without the block the kernel may wake a reader thread instead)."""
    command = bot_command(Spec.of(EXAMPLE), isolate=False)
    with BotPool() as pool:
        for _ in range(6):
            pool.take(command)
        for seed in range(6):
            started = time.monotonic()
            played = play_game(BLOCK, [f"{ROOT / 'tests' / 'broken' / 'slow.py'}?delay=60",
                                       "easy"], seed, move_time_limit=0.05)
            assert time.monotonic() - started < 30  # cut at the limit, not after 60 s
            assert played["faults"][0]["first"] == "interrupted at the 0.05 s limit"


@pytest.mark.parametrize("sandboxed", [True, False])
def test_a_bots_children_die_with_it_even_out_of_its_process_group(tmp_path, sandboxed):
    """A child the bot started in a session of its own (setsid), and that child's own child,
    are killed when the bot is: nothing it started outlives the game."""
    pids = tmp_path / "pids"
    spec = (f"exec:{sys.executable} {ROOT / 'tests' / 'hostile' / 'escaper.py'} {pids} "
            f"{ROOT / 'strategies' / 'example_external.py'}")
    record = play_game(BLOCK, [spec, "easy"], 2, confinement=Confinement(sandboxed=sandboxed))
    assert record["faults"][0]["first"] is None
    if not sandboxed:
        assert len(pids.read_text().split()) == 2
    assert not marked(str(pids))


def alive(pid: int) -> bool:
    """Running, or stopped; not a zombie (this container's init may never reap it) nor gone."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_the_alarm_reaches_the_game_when_other_threads_take_signals():
    """Threads that do not block SIGALRM (as the BLAS threads numpy starts when imported before
    domsim) do not take the alarm: it is sent to the game's thread, so every overrun sleep is
    cut at its limit."""
    stop = threading.Event()
    for _ in range(3):
        threading.Thread(target=stop.wait, daemon=True).start()
    try:
        for seed in range(30):
            started = time.monotonic()
            played = play_game(BLOCK, [f"{ROOT / 'tests' / 'broken' / 'slow.py'}?delay=60",
                                       "easy"], seed, move_time_limit=0.02)
            assert time.monotonic() - started < 30  # cut at the limit, not after 60 s
            assert played["faults"][0]["first"] == "interrupted at the 0.02 s limit"
    finally:
        stop.set()


def test_exec_and_isolated_specs_in_play_and_compare(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    played = CliRunner().invoke(main, ["play", "--variant", "fives", "-p", EXAMPLE, "-p",
                                       "strategies/example_greedy.py", "--isolate", "--seed", "4",
                                       "--record", str(tmp_path / "game.json")])
    assert played.exit_code == 0, played.output
    assert "Game over" in played.stdout and "Faults" not in played.stdout
    assert "example_external: seat 0" in played.stderr  # no run log: the terminal
    record = json.loads((tmp_path / "game.json").read_text())
    assert replays(record) and record["seats"][0] == EXAMPLE
    compared = CliRunner().invoke(main, ["compare", EXAMPLE, "strategies/example_greedy.py",
                                         "--variant", "block", "--games", "4", "--isolate",
                                         "--seed", "1", "-j", "1", "--silent",
                                         "--out", str(tmp_path / "cmp")])
    assert compared.exit_code == 0, compared.output
    assert "Games: 4," in compared.stdout
    manifest = json.loads((tmp_path / "cmp" / "manifest.json").read_text())
    assert manifest["config"]["isolate"] is True


class BreakingExecutor:
    """Plays each batch at once; its `fail_at`-th submit (from 0) finds the pool broken, as
    when a worker dies between two submits."""

    def __init__(self, log: list, fail_at: int | None) -> None:
        self.log, self.fail_at, self.submits = log, fail_at, 0

    def submit(self, function, job):
        self.submits += 1
        if self.submits - 1 == self.fail_at:
            raise BrokenProcessPool("a worker died")
        self.log.append(job)
        future = Future()
        future.set_result(function(job))
        return future

    def shutdown(self, wait=True, cancel_futures=False):
        pass


def test_a_pool_found_broken_at_submit_is_replaced_and_nothing_is_lost_or_doubled(tmp_path):
    config = TourneyConfig("block", games=6, entrants=("easy", "medium"), seed=2, isolate=False)
    tourney = Tourney.of(config, tmp_path)
    submitted, kept = [], []
    executors = iter([BreakingExecutor(submitted, fail_at=2), BreakingExecutor(submitted, None)])
    stream(lambda: next(executors), (tourney.batch([g]) for g in range(6)), 3, kept.append)
    assert [result.game_ids for result in kept] == [(g,) for g in range(6)]
    assert [job.config.isolate for job in submitted] == [False, False] + [True] * 4


def test_a_module_in_the_current_folder_plays_in_the_sandbox(tmp_path, monkeypatch):
    """A `package.module:Class` spec found in the current folder: the sandbox shows the host
    its package (and nothing else of the folder) and puts it on the host's path."""
    (tmp_path / "mybots").mkdir()
    (tmp_path / "mybots" / "__init__.py").write_text("")
    (tmp_path / "mybots" / "first.py").write_text(
        "from domsim.strategy import Strategy\n\n\nclass First(Strategy):\n"
        "    def choose(self, view):\n        return view.legal_moves[0]\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    record = play_game(BLOCK, ["mybots.first:First", "easy"], 3, isolate=True)
    assert record["faults"][0]["first"] is None
    assert record["timing"][0]["decisions"] > 0


def test_a_pooled_host_plays_each_game_under_that_games_rules():
    """A host kept for the next game reads its rules afresh when they change."""
    from domsim import __version__
    from domsim.seat.host import Host
    from domsim.seat.protocol import game_message

    host = Host(Spec.of(str(ROOT / "strategies" / "example_greedy.py")))
    host.answer({"type": "hello", "encodings": ["compact"], "domsim": __version__})
    for variant in ("block", "draw", "block"):
        rules = make_rules(variant)
        assert host.answer(game_message(rules, 0, 5, None)) == {"type": "ready"}
        assert host.rules == rules and host.own_rules == rules
        assert host.own_rules is not host.rules  # the strategy's copy, as in process


# -- faults a bot's author can read (issue 38) ----------------------------------------------------
BROKEN = ROOT / "tests" / "broken"


@pytest.mark.parametrize("spec", [f"{BROKEN / 'illegal.py'}",
                                  *(f"{BROKEN / 'garbage.py'}?kind={kind}"
                                    for kind in ("none", "int", "str", "dict", "bad_end"))])
def test_an_illegal_move_reads_alike_in_process_and_in_the_sandbox(spec):
    """A fault names what the strategy returned, in its own terms, wherever it plays (not the
    wire's {'tile': None, ...})."""
    said = [play_game(BLOCK, [spec, "easy"], 2, isolate=isolate)["faults"][0]["first"]
            for isolate in (False, True)]
    assert said[0] == said[1] and said[0].startswith("returned "), said


def test_a_bot_that_writes_junk_and_exits_says_what_it_wrote():
    first = play_game(BLOCK, [bad_bot("mumble"), "easy"], 2)["faults"][0]["first"]
    assert first.startswith("exited with status 0 after a line that answers nothing")
    assert "thinking..." in first


@pytest.mark.parametrize(("bot", "words"), [
    ("exec:python3 no_such_bot.py", "can't open file"),
    (bad_bot("crash"), "'ValueError: no weights found'"),
    (bad_bot("chatter"), "its first line is not the protocol's hello (docs/seat-protocol.md): "
                         "'thinking...'")])
def test_a_bot_that_fails_to_start_says_why_at_once(tmp_path, monkeypatch, bot, words):
    """Its own words (its stderr's last lines, or the line it wrote instead of its hello) in
    the one-line error, within 5 s: not `exited with status 2`, not a 10 s wait (issue 49)."""
    monkeypatch.chdir(tmp_path)
    started = time.monotonic()
    one_line_error(invoke("play", "--variant", "block", "-p", bot, "-p", "easy"), words)
    assert time.monotonic() - started < 5


def test_debug_shows_the_handshake_of_a_bot_that_fails_it():
    result = invoke("play", "--variant", "block", "-p", bad_bot("chatter"), "-p", "easy",
                    "--debug")
    assert result.exit_code == 1
    assert '> {"type":"hello"' in result.stderr and " < thinking..." in result.stderr


@pytest.mark.parametrize("isolate", ["--in-process", "--isolate"])
def test_a_strategy_file_that_cannot_be_imported_names_its_file_and_line(tmp_path, isolate):
    """In process or in the sandbox (where the file is under /bot), as the user names it."""
    bot = tmp_path / "needs_numpyx.py"
    bot.write_text("import os\nimport numpyx\n")
    one_line_error(invoke("play", "--variant", "block", "-p", str(bot), "-p", "easy", isolate),
                   f"No module named 'numpyx' ({bot}, line 2)")


def test_a_sandboxed_strategy_that_raises_leaves_its_traceback_in_the_log(tmp_path):
    """Its own file and line, under the name the user gave the file, not the sandbox's."""
    bot = tmp_path / "bots" / "raises.py"
    bot.parent.mkdir()
    bot.write_text((BROKEN / "raises.py").read_text())
    result = CliRunner().invoke(main, ["tourney", "--variant", "block", "-p", str(bot), "-p",
                                       "easy", "--games", "2", "-j", "1", "--silent", "--out",
                                       str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    log = (tmp_path / "run" / "run.log").read_text()
    assert 'stderr: Traceback' in log and "RuntimeError: boom in choose" in log
    assert re.search(rf'File "{re.escape(str(bot))}", line \d+, in choose', log), log[-3000:]


def test_the_terminal_tells_an_entrants_faults_of_a_kind_once_and_the_log_every_one(tmp_path):
    """One line at the first fault of an entrant and kind (the game named by its id, as `show
    --game` takes it), not one a game; run.log keeps every one."""
    bot = f"{BROKEN / 'raises.py'}"
    result = CliRunner().invoke(main, ["tourney", "--variant", "block", "-p", bot, "-p", "easy",
                                       "--games", "12", "-j", "1", "--in-process",
                                       "--on-fault", "substitute", "--out",
                                       str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    said = [line for line in result.stderr.splitlines()
            if line.startswith("domsim: WARNING") and "boom in choose" in line]
    assert len(said) == 1 and re.search(r"game \d+, seat \d", said[0]), result.stderr
    logged = (tmp_path / "run" / "run.log").read_text().count("boom in choose; ")
    assert logged == 12


def test_a_fault_digest_counts_the_faults_it_held_back_and_names_their_games():
    import logging

    from domsim.runner.console import DIGEST_SECONDS, FaultDigest

    shown: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record):
            shown.append(record.getMessage())

    now = [0.0]
    digest = FaultDigest(Collect(), clock=lambda: now[0])

    def fault(game: int, kind: str = "exception") -> None:
        record = logging.makeLogRecord({"msg": f"game {game}: {kind}", "levelno": 30})
        record.fault = ("bot.py", kind, f"game {game}")
        digest.handle(record)

    for game in range(5):
        fault(game)
    fault(9, "timeout")
    now[0] = DIGEST_SECONDS
    fault(5)
    assert shown == ["game 0: exception", "game 9: timeout",
                     "bot.py: 5 more exception faults (game 1, game 2, game 3, game 4, game 5; "
                     "every one in run.log)"]
