"""`domsim tune --strategy SPEC --param NAME=LOW:HIGH`: a strategy's own parameters tuned by SPSA
on duplicate deals (domsim.studies.spsa): the parameters read and checked, fishtest's gain
schedules, batches that share a perturbation, rounds whose perturbed pairs meet the same deals, a
tune that resumes to the straight run's values, and the confirmation duel."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from clitools import interrupted_at, invoke, killed_at, one_line_error

from domsim import api
from domsim.analysis import elo_text
from domsim.runner.tourney import TourneyError
from domsim.seat.command import bot_command
from domsim.spec import Spec
from domsim.studies.compare import read_comparison
from domsim.studies.spsa import (
    BATCHES,
    SPSA_FILE,
    Param,
    SpsaRequest,
    SpsaState,
    move,
    parse_params,
    saved_lines,
    spec_with,
)

#: A small tune that moves: a learning rate far above the default so a few dozen deals show.
TUNE = ["tune", "--variant", "draw", "--strategy", "hard?shed=2", "--param", "block=0:10",
        "--param", "lock=0:12:3", "--against", "medium", "--games", "96", "--r-end", "0.5",
        "--seed", "7", "--silent"]


def test_parameters_are_read_from_the_spec_and_the_strategy():
    block, samples = parse_params(["block=0:10", "samples=0:64:8"], "insane?samples=16")
    assert block == Param("block", 0.0, 10.0, 4.0)  # hard's and insane's default block weight
    assert samples == Param("samples", 0.0, 64.0, 8.0, integer=True)
    (from_spec,) = parse_params(["samples=0:64"], "insane?samples=16")
    assert from_spec.start == 16  # the spec's own value
    (middle,) = parse_params(["x=1:3"], "exec:bot --x {x}")
    assert middle.start == 2  # an exec: bot's parameters are its own: the range's middle


@pytest.mark.parametrize("texts,strategy,words", [
    ([], "hard", "at least one --param"),
    (["blok=0:10"], "hard", "has no parameter 'blok' (its parameters: shed, double"),
    (["block=0-10"], "hard", "write NAME=LOW:HIGH"),
    (["block=10:0"], "hard", "LOW < HIGH"),
    (["block=0:10:11"], "hard", "the start (11) between them"),
    (["block=0:x"], "hard", "'x' is not a number"),
    (["block=0:inf"], "hard", "'inf' is not a number"),
    (["preset=0:1"], "insane", "takes a str there, not a number"),
    (["block=0:10", "block=1:5"], "hard", "each parameter once"),
])
def test_a_bad_parameter_is_refused_with_what_to_write(texts, strategy, words):
    with pytest.raises(TourneyError) as refused:
        parse_params(texts, strategy)
    assert words in str(refused.value)


def test_the_values_are_written_into_the_spec():
    params = parse_params(["block=0:10", "lock=0:12"], "hard?shed=2&block=1")
    assert spec_with("hard?shed=2&block=1", params, [4.25, 7.0]) == "hard?shed=2&block=4.25&lock=7"
    (count,) = parse_params(["samples=0:64"], "insane")
    assert spec_with("insane", (count,), [12.6]) == "insane?samples=13"  # an int is rounded
    (x,) = parse_params(["x=0:1"], "exec:bot --x {x}")
    assert spec_with("exec:bot --x {x}", (x,), [0.5]) == "exec:bot --x 0.5"
    # Without {x} in its command, an exec: bot gets the value with each game (issue 49, item 3:
    # one process for every value), as the spec's parameter: once refused, now the cheap way.
    x, y = parse_params(["x=0:1", "y=0:4"], "exec:bot --y {y}")
    assert spec_with("exec:bot --y {y}", (x, y), [0.5, 3]) == "exec?x=0.5:bot --y 3"


def request(games: int = 20_000, **settings) -> SpsaRequest:
    return SpsaRequest("hard", (Param("block", 0, 10, 4), Param("lock", 2, 14, 6)), "hard",
                       "block", 1, games, **settings)


def test_a_confirmations_open_end_reads_back_from_spsa_json_as_printed(tmp_path):
    """spsa.json is strict JSON (an open end null): what `domsim.load` and the command print
    from it still says +inf."""
    tune = request(96)
    duel = {"games": 40, "elo": 300.0, "elo_low": 200.0, "elo_high": None, "nelo": 50.0,
            "nelo_low": 1.0, "nelo_high": 99.0, "win_rate": 0.9}
    saved = {"request": tune.to_dict(), "state": asdict(SpsaState(tune.start)),
             "result": {"spec": "hard?block=4&lock=6", "games": 0, "confirmation": duel}}
    lines = saved_lines(json.loads(json.dumps(saved)), tmp_path)
    assert "Elo +300.0 [+200.0, +inf], nElo +50.0 [+1.0, +99.0] (95%)" in lines[2]


def test_the_gains_follow_fishtests_schedules_to_their_ends():
    tune = request(c_end=0.05, r_end=0.002)
    last = tune.iterations - 1
    c, a = tune.gains(last)
    assert np.allclose(c, [0.5, 0.6])  # a twentieth of each range
    assert np.allclose(a / c ** 2, 0.002)
    c0, a0 = tune.gains(0)
    assert np.allclose(c0 / c, tune.iterations ** 0.101)  # c_k = c / (k+1)^gamma
    stability = 0.1 * tune.iterations
    assert np.allclose(a0 / a, ((stability + tune.iterations) / (stability + 1)) ** 0.602)


@pytest.mark.parametrize("games", [96, 400, 2_000, 20_000, 20_003, 100_000])
def test_a_tune_is_whole_batches_within_its_games(games):
    tune = request(games)
    assert tune.iterations % tune.batch_size == 0
    assert tune.iterations * tune.iteration_games <= games
    batches = tune.iterations // tune.batch_size
    assert BATCHES * 0.75 <= batches <= BATCHES * 1.3 or tune.batch_size == 1
    assert games - tune.iterations * tune.iteration_games < tune.batch_size * tune.iteration_games


def test_the_moves_climb_a_known_hill():
    """With the shares a smooth objective gives (best at block 7, lock 3), the batches' moves
    take theta from the start towards the top, each parameter its own way."""
    tune = request(4_000, r_end=0.05)
    top = np.array([7.0, 3.0])

    def share(values: np.ndarray) -> float:
        return float(np.exp(-np.sum(((values - top) / 6) ** 2)))

    theta, size = [4.0, 6.0], tune.batch_size
    for first in range(0, tune.iterations, size):
        c, _ = tune.gains(first)
        step = c * tune.flips(first)
        plus = size * share(tune.clip(np.array(theta) + step))
        minus = size * share(tune.clip(np.array(theta) - step))
        theta = move(tune, theta, first, np.array([[plus, minus]])).tolist()
    assert abs(theta[0] - 7) < 1.0 and abs(theta[1] - 3) < 1.0, theta


def test_a_tune_prints_the_values_the_spec_and_the_confirmation(tmp_path):
    out = tmp_path / "tune"
    result = invoke(*TUNE, "--out", str(out), "--confirm", "40")
    assert result.exit_code == 0, result.output
    saved = json.loads((out / SPSA_FILE).read_text())
    assert saved["complete"] and saved["kind"] == "spsa"
    values = saved["result"]["values"]
    assert values != {"block": 4.0, "lock": 3.0}  # it moved
    assert saved["state"]["rounds"][-1]["theta_after"] == [values["block"], values["lock"]]
    shown = f"block={values['block']:.4g} lock={values['lock']:.4g}"
    assert f"tuned {shown} (from block=4 lock=3): 96 games" in result.output
    assert f"spec: hard?shed=2&block={values['block']:.4g}&lock={values['lock']:.4g}" \
        in result.output
    duel = read_comparison(out / "confirm")  # the duel's own folder, read back
    assert duel.config.entrants == (f"tuned={saved['result']['spec']}",
                                    "start=hard?shed=2&block=4&lock=3")
    pair = duel.progress.statistics().to_dict()
    assert f"over 40 games: {elo_text(pair)} (95%), score {pair['win_rate']:.1%}" \
        in result.output
    assert saved["result"]["confirmation"]["games"] == 40


def test_each_batchs_perturbed_pair_meets_the_same_deals_in_every_seating(tmp_path):
    out = tmp_path / "tune"
    assert invoke(*TUNE, "--out", str(out), "--confirm", "0").exit_code == 0
    games = pq.read_table(out / "rounds" / "round-1" / "games.parquet",
                          columns=["deal_id", "pairing", "seating"]).to_pylist()
    deals: dict[str, set] = {}
    for game in games:
        deals.setdefault(game["pairing"].split(" vs ")[-1], set()).add(
            (game["deal_id"], game["seating"]))
    names = sorted(deals, key=lambda name: (int(re.sub(r"\D", "", name)), name))
    pairs = [(names[i], names[i + 1]) for i in range(0, len(names), 2)]
    assert len(pairs) > 1
    for plus, minus in pairs:
        assert plus.startswith("minus") and minus.startswith("plus")
        assert deals[plus] == deals[minus]
        assert {seating for _, seating in deals[plus]} == {0, 1}
    assert not deals[pairs[0][0]] & deals[pairs[1][0]]  # each batch its own deals


@pytest.fixture(scope="module")
def straight(tmp_path_factory):
    out = tmp_path_factory.mktemp("spsa") / "straight"
    assert invoke(*TUNE, "--out", str(out), "--confirm", "0").exit_code == 0
    return json.loads((out / SPSA_FILE).read_text())["result"]


def test_an_interrupted_tune_resumes_to_the_straight_runs_values(tmp_path, monkeypatch,
                                                                  straight):
    out = tmp_path / "tune"
    stopped = interrupted_at(monkeypatch, 2, *TUNE, "--out", str(out), "--confirm", "0")
    assert stopped.exit_code != 0 and "--resume" in stopped.output
    resumed = invoke("tune", "--out", str(out), "--resume", "--silent")
    assert resumed.exit_code == 0, resumed.output
    assert json.loads((out / SPSA_FILE).read_text())["result"] == straight


def test_a_tune_killed_outright_resumes_to_the_straight_runs_values(tmp_path, straight):
    out = tmp_path / "tune"
    killed_at(3, *TUNE, "--out", str(out), "--confirm", "0")
    resumed = invoke("tune", "--out", str(out), "--resume", "--silent")
    assert resumed.exit_code == 0, resumed.output
    assert json.loads((out / SPSA_FILE).read_text())["result"] == straight
    again = invoke("tune", "--out", str(out), "--resume", "--silent")
    assert again.exit_code == 0 and "nothing to resume" in again.output


def test_the_api_tunes_as_the_cli_does(tmp_path, straight):
    study = api.tune_parameters("hard?shed=2", ["block=0:10", "lock=0:12:3"], against="medium",
                                variant="draw", games=96, confirm=0, seed=7, r_end=0.5,
                                out=tmp_path / "api")
    assert study.figures["result"] == straight
    assert study.lines[1] == f"spec: {straight['spec']}"


@pytest.mark.parametrize("args,words", [
    (["--strategy", "hard", "--param", "block=0:10", "--levels", "3"],
     "--levels: not an option when tuning a strategy's parameters"),
    (["--param", "block=0:10", "--confirm", "10"],
     "--param, --confirm: not an option when tuning the dial; --strategy SPEC tunes"),
    (["--strategy", "hard", "--param", "block=0:10", "-n", "3"],
     "has 3 sides; choose 2 players or a team rule set"),
    (["--strategy", "hard", "--param", "block=0:10", "--games", "3"],
     "--games 3: an iteration takes 4 games"),
    (["--strategy", "hadr", "--param", "block=0:10"], "did you mean 'hard'?"),
])
def test_a_bad_tune_is_refused_in_one_line_and_leaves_nothing(tmp_path, args, words):
    out = tmp_path / "tune"
    result = invoke("tune", "--variant", "block", *args, "--out", str(out), "--silent")
    one_line_error(result, words)
    assert not out.exists()


def test_a_bad_resume_says_what_to_do(tmp_path):
    result = invoke("tune", "--out", str(tmp_path / "none"), "--resume", "--silent")
    one_line_error(result, "none")


#: A bot file with one numeric parameter, `double`.
BOT = (Path(__file__).parent / "weighted.py").read_text()


def test_a_bots_file_is_tuned_in_its_sandbox_and_its_spec_pasted(tmp_path):
    bot = tmp_path / "weighted.py"
    bot.write_text(BOT)
    out = tmp_path / "tune"
    result = invoke("tune", "--variant", "draw", "--strategy", str(bot), "--param",
                    "double=0:8", "--against", "medium", "--games", "48", "--confirm", "0",
                    "--r-end", "0.5", "--seed", "3", "--out", str(out), "--silent")
    assert result.exit_code == 0, result.output
    saved = json.loads((out / SPSA_FILE).read_text())["result"]
    assert result.output.splitlines()[1] == f"spec: {bot}?double={saved['values']['double']:.4g}"
    manifest = json.loads((out / "rounds" / "round-1" / "manifest.json").read_text())
    nudged = manifest["entrants"][1]["members"][0]
    assert nudged["spec"].startswith(f"{bot}?double=")
    assert nudged["runs"].startswith("own process, in the sandbox")


def test_a_bots_nudged_values_are_one_processs_games_and_in_process_with_in_process(tmp_path):
    """Every nudged value of a file bot is sent with its games (docs/seat-protocol.md, `game`),
    so a tune starts a bot process per worker and per seating of a deal (its four games: the
    pair in both seatings), its workers kept from round to round, as a tourney starts one per
    seating: not one per nudged spec, 17x a tourney's CPU, nor per round (issue 49, item 3;
    bench/tune_file_cost.py measures it). `--in-process` plays a trusted file in domsim's
    process, as tourney's does."""
    bot = tmp_path / "weighted.py"
    bot.write_text("import sys\nprint('bot process started', file=sys.stderr)\n" + BOT)
    args = ["tune", "--variant", "draw", "--strategy", str(bot), "--param", "double=0:8",
            "--against", "medium", "--games", "48", "--confirm", "0", "--seed", "3", "-j", "1",
            "--silent"]
    assert invoke(*args, "--out", str(tmp_path / "tune")).exit_code == 0
    rounds = sorted((tmp_path / "tune" / "rounds").iterdir())
    nudged = {spec for folder in rounds for spec in pq.read_table(
        folder / "games.parquet").column("entrant_1").to_pylist()}
    started = sum((folder / "run.log").read_text().count("bot process started")
                  for folder in rounds)
    assert len(rounds) == 2 and len(nudged - {"against"}) == 24 and started <= 4
    assert invoke(*args, "--in-process", "--out", str(tmp_path / "trusted")).exit_code == 0
    manifest = json.loads((tmp_path / "trusted" / "rounds" / "round-1" / "manifest.json")
                          .read_text())
    assert manifest["entrants"][1]["members"][0]["runs"].startswith("in process (--in-process)")


def test_an_exec_bot_is_tuned_through_the_parameters_it_declares(tmp_path):
    """An exec: bot whose command has no {NAME} gets each nudged value with its games (the
    example speaker declares `doubles` in its hello): one process for every value, the value in
    the spec the record keeps (`exec?doubles=V:COMMAND`); a name it does not declare is refused
    before any folder is made."""
    bot = f"exec:python3 {Path(__file__).parent.parent / 'strategies' / 'example_external.py'}"
    (doubles,) = parse_params(["doubles=0:8"], bot)
    one, two = (bot_command(Spec.of(spec_with(bot, (doubles,), [v])), None) for v in (1, 2))
    assert one == two and one.spec.text.startswith("exec?doubles=1:python3 ")
    args = ["tune", "--variant", "draw", "--strategy", bot, "--against", "medium", "--games",
            "48", "--confirm", "0", "--r-end", "0.5", "--seed", "3", "-j", "1", "--silent"]
    result = invoke(*args, "--param", "doubles=0:8", "--out", str(tmp_path / "tune"))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1].startswith("spec: exec?doubles=")
    refused = invoke(*args, "--param", "nope=0:1", "--out", str(tmp_path / "bad"))
    one_line_error(refused, "has no parameter 'nope' (its parameters: doubles)")
    assert not (tmp_path / "bad").exists()


def test_a_tune_interrupted_in_its_confirmation_resumes_the_duel(tmp_path, monkeypatch):
    from domsim.runner import console

    calls = []
    checked = console.FaultWatch.check

    def counted(self, tally):
        calls.append(1)
        return checked(self, tally)

    straight = tmp_path / "straight"
    with monkeypatch.context() as patched:
        patched.setattr(console.FaultWatch, "check", counted)
        assert invoke(*TUNE, "--out", str(straight), "--confirm", "40").exit_code == 0
    out = tmp_path / "tune"
    stopped = interrupted_at(monkeypatch, len(calls), *TUNE, "--out", str(out), "--confirm", "40")
    assert stopped.exit_code != 0 and "--resume" in stopped.output
    assert (out / "confirm").is_dir()  # the tuning was done: the duel was under way
    resumed = invoke("tune", "--out", str(out), "--resume", "--silent")
    assert resumed.exit_code == 0, resumed.output
    done = json.loads((out / SPSA_FILE).read_text())
    expected = json.loads((straight / SPSA_FILE).read_text())
    assert done["complete"]
    for key in ("values", "spec", "games"):
        assert done["result"][key] == expected["result"][key]
    duel = {k: v for k, v in done["result"]["confirmation"].items() if k != "folder"}
    assert duel == {k: v for k, v in expected["result"]["confirmation"].items() if k != "folder"}
