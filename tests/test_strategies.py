"""Strategy plug-ins (specs, parameters, the catalogue) and faulty seats (R-SEAT-FAULT, R-VIEW).

The deliberately broken strategies live in tests/broken/; every fault case checks that the game
still completes and that its record replays without a problem."""

from __future__ import annotations

import ast
import logging
import multiprocessing
import os
import random
import re
import signal
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from positions import position

from domsim.cli import main
from domsim.engine import State, start_next_hand
from domsim.game import play_game
from domsim.record import verify
from domsim.rules import VARIANTS, make_rules
from domsim.seeding import deal_rng
from domsim.strategy import Strategy, StrategyError, file_module, load_strategy
from domsim.tiles import Tile
from domsim.view import Move, ViewBuilder

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken"

GREEDY = "strategies/example_greedy.py"
COUNTER = "strategies/example_counter.py"


@pytest.fixture
def at_root(monkeypatch):
    """Relative specs are read from the repository root, as the README runs them."""
    monkeypatch.chdir(ROOT)


def broken(name: str, query: str = "") -> str:
    return f"{BROKEN / name}.py" + (f"?{query}" if query else "")


def one_line_error(spec: str) -> str:
    with pytest.raises(StrategyError) as caught:
        load_strategy(spec)
    message = str(caught.value)
    assert "\n" not in message
    return message


def assert_replays(record: dict) -> None:
    recomputed, problems = verify(record, 0)
    assert recomputed is not None and problems == []
    assert record["result"]["complete"]


def block_game(specs: list[str], seed: int = 11, **kwargs) -> dict:
    record = play_game(make_rules("block", len(specs)), specs, seed, **kwargs)
    assert_replays(record)
    return record


# -- loading specs -----------------------------------------------------------------------------
def test_example_loads_from_its_file_by_path_and_by_path_and_class(at_root):
    assert load_strategy(GREEDY).cls.__name__ == "Greedy"
    assert load_strategy(f"{COUNTER}:Counter").cls.__name__ == "Counter"
    assert load_strategy(GREEDY).origin == f"file {ROOT / GREEDY}"


def test_the_same_file_loads_as_the_same_class_however_it_is_written(at_root):
    classes = {load_strategy(spec).cls for spec in
               (GREEDY, f"./{GREEDY}", f"{ROOT / GREEDY}:Greedy", f"{GREEDY}?doubles_first=no")}
    assert len(classes) == 1
    assert file_module(GREEDY) is file_module(str(ROOT / GREEDY))


def test_examples_load_as_modules_and_levels_as_entry_points():
    assert load_strategy("domsim.strategies.example_greedy:Greedy").cls.__name__ == "Greedy"
    for level in ("easy", "medium", "hard"):
        factory = load_strategy(level)
        assert factory.cls.__name__ == level.capitalize()
        assert factory.origin.startswith("built-in domsim.strategies.")
        assert factory.description


def test_a_factory_builds_fresh_instances_with_the_given_rng(at_root):
    factory = load_strategy(GREEDY)
    rng = random.Random(5)
    first, second = factory(rng), factory(random.Random(5))
    assert first is not second and first.rng is rng and isinstance(first, Strategy)


def test_parameters_are_coerced_by_the_constructor_annotations():
    factory = load_strategy(broken("slow", "delay=0.25&times=3"))
    assert factory.params == {"delay": 0.25, "times": 3}
    assert isinstance(factory.params["delay"], float) and isinstance(factory.params["times"], int)
    assert load_strategy(broken("garbage", "kind=weird")).params == {"kind": "weird"}
    assert load_strategy("domsim.strategies.example_greedy:Greedy?doubles_first=yes"
                         ).params == {"doubles_first": True}
    assert load_strategy("hard?shed=2").params == {"shed": 2.0}


@pytest.mark.parametrize(("query", "words"), [
    ("dealy=1", ["'dealy'", "delay, times"]),
    ("times=2.5", ["'times'", "an integer", "'2.5'"]),
    ("delay=fast", ["'delay'", "a number", "'fast'"]),
    ("times", ["'times'", "times=VALUE"]),
    ("times=1&times=2", ["'times'", "once"]),
])
def test_a_wrong_parameter_name_or_type_is_a_one_line_error_naming_it(query, words):
    message = one_line_error(broken("slow", query))
    for word in words:
        assert word in message


def test_a_bool_parameter_takes_only_boolean_words():
    message = one_line_error("domsim.strategies.example_greedy:Greedy?doubles_first=maybe")
    assert "'doubles_first'" in message and "true or false" in message


def test_a_strategy_without_parameters_says_so():
    assert "its parameters: none" in one_line_error("easy?speed=2")


def test_a_file_with_two_strategies_needs_a_class_name(tmp_path):
    bot = tmp_path / "two.py"
    bot.write_text("from domsim.strategy import Strategy\n"
                   "class First(Strategy): pass\n"
                   "class Second(Strategy): pass\n")
    message = one_line_error(str(bot))
    assert "First, Second" in message and f"{bot}:First" in message
    assert load_strategy(f"{bot}:Second").cls.__name__ == "Second"


@pytest.mark.parametrize(("source", "spec_suffix", "words"), [
    ("x = 1\n", "", ["defines no Strategy subclass"]),
    ("def broken(:\n", "", ["cannot load strategy file", "SyntaxError"]),
    ("import no_such_module_here\n", "", ["ModuleNotFoundError", "no_such_module_here"]),
    ("class Bot: pass\n", ":Bot", ["no Strategy subclass 'Bot'"]),
])
def test_a_file_that_is_not_a_usable_strategy_is_a_one_line_error(tmp_path, source, spec_suffix,
                                                                  words):
    bot = tmp_path / "bot.py"
    bot.write_text(source)
    message = one_line_error(f"{bot}{spec_suffix}")
    for word in words:
        assert word in message


@pytest.mark.parametrize(("spec", "words"), [
    ("no/such/bot.py", ["'no/such/bot.py' not found", "check the path"]),
    ("no_such_level", ["unknown strategy 'no_such_level'", "easy", "domsim strategies"]),
    ("no_such_package.bots:Bot", ["cannot import 'no_such_package.bots'", "PYTHONPATH"]),
    ("domsim.strategies.easy:Hard", ["no Strategy subclass 'Hard'", "it defines: Easy"]),
    ("domsim.tiles:Tile", ["no Strategy subclass 'Tile'"]),
])
def test_a_spec_that_cannot_be_loaded_says_what_to_do(spec, words):
    message = one_line_error(spec)
    for word in words:
        assert word in message


def test_a_constructor_that_fails_is_a_load_error():
    assert "cannot build strategy" in one_line_error(broken("raises", "where=__init__"))
    with pytest.raises(StrategyError):
        block_game([broken("raises", "where=__init__"), "easy"])


def test_examples_use_only_the_public_strategy_api():
    public = {"domsim.strategy": {"Strategy"}, "domsim.view": {"Move", "PlayerView"},
              "domsim.rules": {"Rules"}}
    for name in ("example_greedy", "example_counter"):
        tree = ast.parse((ROOT / "strategies" / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                pytest.fail(f"{name} imports {[a.name for a in node.names]}")
            if isinstance(node, ast.ImportFrom):
                assert {a.name for a in node.names} <= public[node.module], name


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_examples_play_every_variant_and_the_record_replays(at_root, variant):
    rules = make_rules(variant, 4 if 4 in VARIANTS[variant].player_counts else 2)
    specs = [GREEDY, COUNTER] * (rules.players // 2)
    record = play_game(rules, specs, 3)
    assert_replays(record)
    assert record["seats"] == specs
    assert all(f["first"] is None for f in record["faults"])
    assert all(t["decisions"] > 0 for t in record["timing"])


def test_greedy_plays_a_heaviest_legal_tile(at_root):
    rules = make_rules("block", 2)
    greedy = load_strategy(GREEDY)(random.Random(1))
    state = State(rules)
    start_next_hand(state, deal_rng(8))
    views = ViewBuilder()
    checked = 0
    while not state.hand_over and checked < 5:
        if state.step_forced():
            continue
        moves = state.legal_moves()
        view = views.view(state, moves)
        move = greedy.choose(view)
        assert move.tile.pips == max(m.tile.pips for m in view.legal_moves)
        state.play(moves[view.legal_moves.index(move)])
        checked += 1
    assert checked


def test_counter_keeps_the_numbers_an_opponent_passed_on_and_greedy_does_not(at_root):
    """After 3-4 is led and seat 1 passes on 3 and 4, 4-4 keeps both on the ends (3-6 is
    heavier but covers the 3)."""
    state = position("block", ["3-4 3-6 4-4", "0-0 1-1 2-2"], moves="0:3-4 1:pass")
    view = ViewBuilder().view(state, state.legal_moves())
    assert set(view.legal_moves) == {Move(Tile(3, 6), 0), Move(Tile(4, 4), 1)}
    counter = load_strategy(COUNTER)(random.Random(1))
    counter.start_game(0, state.rules)
    assert counter.choose(view) == Move(Tile(4, 4), 1)
    assert load_strategy(GREEDY)(random.Random(1)).choose(view) == Move(Tile(3, 6), 0)


def test_hooks_are_called_once_per_game_with_seat_rules_scores_and_winners(tmp_path):
    bot = tmp_path / "recorder.py"
    bot.write_text(
        "from domsim.strategy import Strategy\n"
        "CALLS = []\n"
        "class Recorder(Strategy):\n"
        "    def start_game(self, seat, rules):\n"
        "        CALLS.append(('start', seat, rules.name, type(self.rng).__name__))\n"
        "    def choose(self, view):\n"
        "        return self.rng.choice(view.legal_moves)\n"
        "    def end_game(self, scores, winners):\n"
        "        CALLS.append(('end', scores, winners))\n")
    record = block_game([str(bot), str(bot)])
    calls = file_module(str(bot)).CALLS
    assert calls[:2] == [("start", 0, "block", "Random"), ("start", 1, "block", "Random")]
    final = (tuple(record["result"]["scores"]), tuple(record["result"]["winners"]))
    assert calls[2:] == [("end", *final), ("end", *final)]


def test_a_game_with_file_specs_is_identical_when_replayed_from_its_seed(at_root):
    first, second = (block_game([GREEDY, COUNTER], seed=4) for _ in range(2))
    assert first["hands"] == second["hands"]


def test_a_fresh_worker_process_loads_the_strategy_from_its_spec(at_root):
    rules = make_rules("block", 2)
    specs = [str(ROOT / GREEDY), broken("raises")]
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        remote = pool.apply(play_game, (rules, specs, 6))
    local = play_game(rules, specs, 6)
    assert remote["hands"] == local["hands"] and remote["faults"] == local["faults"]


# -- faulty seats (R-SEAT-FAULT) -----------------------------------------------------------------
def test_r_seat_fault_a_strategy_that_raises_is_replaced_and_the_game_counts(caplog):
    with caplog.at_level(logging.WARNING, logger="domsim.faults"):
        record = block_game([broken("raises"), "easy"])
    faults = record["faults"][0]
    assert faults == {"timeouts": 0, "errors": 1, "illegal": 0, "replaced": True,
                      "first": "RuntimeError: boom in choose", "first_kind": "exception",
                      "first_hand": 1}  # its kind and hand, for the result's reason (issue 48)
    assert record["faults"][1]["first"] is None and "first_kind" not in record["faults"][1]
    assert record["timing"][0]["decisions"] == 1  # never asked again once replaced
    [logged] = [r for r in caplog.records if r.name == "domsim.faults"]
    assert logged.levelno == logging.WARNING and "seat 0" in logged.getMessage()
    assert logged.exc_info and "boom in choose" in str(logged.exc_info[1])


@pytest.mark.parametrize("where", ["start_game", "end_game"])
def test_r_seat_fault_a_hook_that_raises_is_a_fault(where):
    record = block_game(["easy", broken("raises", f"where={where}")])
    faults = record["faults"][1]
    assert faults["errors"] == 1 and faults["first"] == f"RuntimeError: boom in {where}"
    assert faults["replaced"] == (where == "start_game")
    last = len(record["hands"])  # block is one hand here unless the game runs on
    assert faults["first_hand"] == (0 if where == "start_game" else last)


def test_r_seat_fault_an_illegal_move_is_replaced_and_the_game_counts():
    record = block_game(["easy", broken("illegal")])
    faults = record["faults"][1]
    assert (faults["illegal"], faults["errors"], faults["replaced"]) == (1, 0, True)
    assert faults["first"].startswith("returned Move(tile=Tile(a=")
    assert faults["first"].endswith("not one of its legal moves")


@pytest.mark.parametrize("kind", ["none", "int", "str", "list", "dict", "bad_end", "bad_types",
                                  "short_tuple", "weird", "weird_in_tuple"])
def test_r_seat_fault_garbage_is_an_illegal_move(kind):
    record = block_game([broken("garbage", f"kind={kind}"), "easy"])
    faults = record["faults"][0]
    assert (faults["illegal"], faults["errors"], faults["replaced"]) == (1, 0, True)


def test_a_plain_tuple_equal_to_a_legal_move_is_accepted(tmp_path):
    bot = tmp_path / "tupled.py"
    bot.write_text("from domsim.strategy import Strategy\n"
                   "class Tupled(Strategy):\n"
                   "    def choose(self, view):\n"
                   "        return tuple(view.legal_moves[0])\n")
    assert block_game([str(bot), "easy"])["faults"][0]["first"] is None


def test_r_seat_fault_a_strategy_that_never_returns_is_interrupted_and_keeps_its_seat(caplog):
    with caplog.at_level(logging.WARNING, logger="domsim.faults"):
        record = block_game([broken("slow", "delay=60&times=1"), "easy"], move_time_limit=0.5)
    faults = record["faults"][0]
    assert (faults["timeouts"], faults["errors"], faults["replaced"]) == (1, 0, False)
    assert faults["first"] == "interrupted at the 0.5 s limit"
    timing = record["timing"][0]
    assert timing["decisions"] > 1  # asked again after the overrun
    assert timing["max_ms"] < 30_000  # cut at the limit, not after the 60 s sleep
    [logged] = [r for r in caplog.records if r.name == "domsim.faults"]
    assert logged.exc_info  # the traceback shows where the strategy was stopped


def test_r_seat_fault_a_late_move_is_discarded_where_no_alarm_can_interrupt():
    """In a thread SIGALRM is unavailable: the move is timed after it returns."""
    outcome = {}
    rules = make_rules("block", 2)
    specs = ["easy", broken("slow", "delay=0.6&times=2")]
    thread = threading.Thread(target=lambda: outcome.update(
        record=play_game(rules, specs, 11, move_time_limit=0.3)))
    thread.start()
    thread.join()
    assert_replays(outcome["record"])
    faults = outcome["record"]["faults"][1]
    assert (faults["timeouts"], faults["replaced"]) == (2, False)
    assert faults["first"].startswith("took 0.") and "over the 0.3 s limit" in faults["first"]


def test_r_seat_fault_the_move_of_a_late_seat_is_made_by_the_stand_in(tmp_path):
    stand_in = tmp_path / "stand_in.py"
    stand_in.write_text(
        "from domsim.strategy import Strategy\n"
        "CALLS = []\n"
        "class StandIn(Strategy):\n"
        "    def start_game(self, seat, rules):\n"
        "        CALLS.append(('start', seat))\n"
        "    def choose(self, view):\n"
        "        CALLS.append(('choose', view.seat))\n"
        "        return view.legal_moves[0]\n")
    record = block_game([broken("slow", "delay=60&times=1"), "easy"], move_time_limit=0.5,
                        stand_in=str(stand_in))
    assert record["faults"][0]["timeouts"] == 1
    assert file_module(str(stand_in)).CALLS == [("start", 0), ("choose", 0)]


def test_no_time_limit_lets_a_slow_move_stand():
    record = block_game([broken("slow", "delay=0.06&times=1"), "easy"], move_time_limit=None)
    assert record["faults"][0]["first"] is None


def test_the_alarm_handler_is_restored_after_the_game():
    block_game(["easy", "easy"], move_time_limit=0.5)
    assert signal.getsignal(signal.SIGALRM) == signal.SIG_DFL


def test_a_clean_game_records_no_faults_and_its_decision_times():
    record = block_game(["easy", "medium"])
    assert record["faults"] == [{"timeouts": 0, "errors": 0, "illegal": 0, "replaced": False,
                                 "first": None}] * 2
    for timing in record["timing"]:
        assert timing["decisions"] > 0 and 0 <= timing["p50_ms"] <= timing["max_ms"]


# -- what a strategy can see (R-VIEW) ------------------------------------------------------------
def test_r_view_a_snooping_strategy_finds_no_hidden_tiles_and_cannot_write_the_view():
    snoop = file_module(broken("snoop"))
    snoop.SEEN.clear()
    snoop.ATTEMPTS.clear()
    record = play_game(make_rules("draw", 4), [broken("snoop"), "easy", "easy", "easy"], 2)
    assert_replays(record)
    assert record["faults"][0]["first"] is None
    assert snoop.SEEN
    for found, hand, played in snoop.SEEN:
        assert hand <= found  # the walk reaches the hand, so it would reach other tiles too
        assert found <= hand | played
    attempts = dict(snoop.ATTEMPTS)
    assert "allowed" not in attempts.values()
    assert attempts["write hand"] == "AttributeError"
    assert attempts["read boneyard"] == attempts["read hands"] == "AttributeError"


def test_r_view_player_view_is_frozen_and_has_no_room_for_more():
    rules = make_rules("block", 2)
    state = State(rules)
    start_next_hand(state, deal_rng(1))
    while state.step_forced():
        pass
    view = ViewBuilder().view(state, state.legal_moves())
    assert not hasattr(view, "__dict__")
    hand = view.hand
    for write in (lambda: setattr(view, "hand", ()), lambda: setattr(view, "boneyard", ()),
                  lambda: object.__setattr__(view, "hand", ()), lambda: delattr(view, "seat")):
        with pytest.raises((AttributeError, TypeError)):
            write()
    assert view.hand == hand
    assert all(isinstance(move, Move) for move in view.legal_moves)


# -- the command line ----------------------------------------------------------------------------
def run(*args: str):
    return CliRunner().invoke(main, list(args), prog_name="domsim")


def test_cli_strategies_lists_levels_examples_and_given_files():
    result = run("strategies", str(BROKEN / "slow.py"))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    specs = [line.split()[0] for line in lines if not line.startswith(" ")]
    assert {"easy", "medium", "hard"} <= set(specs)
    assert "domsim.strategies.example_greedy:Greedy" in specs
    assert "domsim.strategies.example_counter:Counter" in specs
    assert str(BROKEN / "slow.py") in specs
    text = result.stdout
    assert "uniform random legal move" in text
    assert "from built-in domsim.strategies.easy:Easy" in text
    assert f"from example {ROOT / 'strategies' / 'example_greedy.py'}" in text
    assert f"from file {BROKEN / 'slow.py'}" in text


def test_cli_strategies_lists_a_broken_file_with_its_error(tmp_path):
    (tmp_path / "bad.py").write_text("def broken(:\n")
    result = run("strategies", str(tmp_path))
    assert result.exit_code == 1  # listed, and the command says it failed
    assert f"{tmp_path / 'bad.py'}" in result.stdout and "SyntaxError" in result.stdout


def test_cli_play_takes_a_strategy_file(at_root):
    result = run("play", "--variant", "block", "-p", GREEDY, "-p", "easy", "--seed", "2")
    assert result.exit_code == 0, result.output
    # In its own process the bot gets a game seed keyed as a tourney's, printed first.
    replay, header = result.stdout.splitlines()[:2]
    assert re.fullmatch(r"seed 2: replay this game with --seed 2 --run-key [0-9a-f]{32}", replay)
    assert re.fullmatch(rf"block, 2 players, seed \d+: seat 0 {re.escape(GREEDY)}, seat 1 easy",
                        header)
    assert "Faults" not in result.stdout


def test_cli_play_reports_a_faulty_seat_and_finishes():
    result = run("play", "--variant", "block", "-p", "easy", "-p", broken("raises"))
    assert result.exit_code == 0, result.output
    assert "Game over" in result.stdout
    assert result.stdout.splitlines()[-1] == (
        f"Faults at seat 1 ({broken('raises')}): 1 errors; first: RuntimeError: boom in choose; "
        "a bot took over the seat")


def test_cli_play_time_limit_and_unloadable_spec():
    result = run("play", "--variant", "block", "-p", broken("slow", "delay=60"), "-p", "easy",
                 "--move-time-limit", "0.5", "--in-process")  # the alarm cuts it short
    assert result.exit_code == 0, result.output
    assert "1 timeouts; first: interrupted at the 0.5 s limit" in result.stdout
    result = run("play", "--variant", "block", "-p", "nowhere/bot.py", "-p", "easy")
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        "Error: strategy file 'nowhere/bot.py' not found "
        f"(looked in {os.getcwd()}): check the path"]
    assert run("play", "--variant", "block", "--move-time-limit", "-1").exit_code == 2


def test_the_readme_strategy_runs_as_written(tmp_path):
    """The README's MyBot (its first screen: issue 49, item 5), with the parameter it shows."""
    readme = (ROOT / "README.md").read_text()
    code = re.search(r"```python\n(.*?class MyBot\(Strategy\).*?)```", readme, re.S).group(1)
    bot = tmp_path / "my_bot.py"
    bot.write_text(code)
    record = block_game([f"{bot}?doubles=2.5", "easy"])
    assert record["faults"][0]["first"] is None and record["timing"][0]["decisions"] > 0


