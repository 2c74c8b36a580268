"""Fixed deals (domsim.deals): `domsim deals RUN_DIR FILE` writes the first hands a run played,
`domsim tourney --deals FILE` plays them (in order or shuffled, every deal in every seating), and
a deals file that does not fit the rules is a one-line error."""

from __future__ import annotations

import json

from clitools import invoke, one_line_error

import domsim
from domsim.deals import deal_index

BLOCK = ["tourney", "--variant", "block", "-j", "1", "--silent", "--records"]


def first_hands(out):
    return [json.loads(line)["hands"][0]["deal"]
            for line in (out / "records.jsonl").read_text().splitlines()]


def exported(tmp_path):
    source = tmp_path / "source"
    played = invoke(*BLOCK, "-p", "easy", "-p", "medium", "--games", "8", "--seed", "3",
                    "--out", str(source))
    assert played.exit_code == 0, played.output
    result = invoke("deals", str(source), str(tmp_path / "deals.jsonl"))
    assert result.exit_code == 0 and result.stdout.startswith("4 deals written")
    return source, tmp_path / "deals.jsonl"


def test_exported_deals_are_the_first_hands_the_run_played(tmp_path):
    source, deals = exported(tmp_path)
    lines = [json.loads(line) for line in deals.read_text().splitlines()]
    assert [line["deal_id"] for line in lines] == [0, 1, 2, 3]
    assert [line["hands"][0]["deal"] for line in lines] == first_hands(source)[::2]
    one_line_error(invoke("deals", str(source), str(deals)), "exists")


def test_a_run_on_fixed_deals_plays_each_in_every_seating(tmp_path):
    source, deals = exported(tmp_path)
    out = tmp_path / "fixed"
    assert invoke(*BLOCK, "-p", "hard", "-p", "b=hard", "-p", "c=easy", "--deals", str(deals),
                  "--seed", "11", "--out", str(out)).exit_code == 0
    played = first_hands(out)
    assert len(played) == 4 * 2 * 3  # deals x seatings x pairings: every deal once
    given = [json.loads(line)["hands"][0]["deal"] for line in deals.read_text().splitlines()]
    assert played == [deal for deal in given for _ in range(6)]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["deals"]["count"] == 4 and len(manifest["deals"]["sha256"]) == 64
    again = invoke("deals", str(out), str(tmp_path / "again.jsonl"))
    assert again.exit_code == 0
    assert [json.loads(line)["hands"][0]["deal"]
            for line in (tmp_path / "again.jsonl").read_text().splitlines()] == given


def test_shuffled_deals_visit_every_deal_once_a_round():
    rounds = [[deal_index(d, 5, "shuffled", 7) for d in range(r * 5, r * 5 + 5)]
              for r in range(3)]
    assert all(sorted(order) == list(range(5)) for order in rounds)
    assert len({tuple(order) for order in rounds}) > 1
    assert [deal_index(d, 5, "in-order", 7) for d in range(7)] == [0, 1, 2, 3, 4, 0, 1]


def test_the_api_plays_fixed_deals_shuffled(tmp_path):
    _, deals = exported(tmp_path)
    run = domsim.tourney("block", ["easy", "medium"], deals=deals, deals_order="shuffled",
                         seed=2, workers=1)
    assert len(run.games) == 8 and run.manifest["deals"]["order"] == "shuffled"


def test_a_deals_file_that_does_not_fit_is_a_one_line_error(tmp_path):
    _, deals = exported(tmp_path)
    line = json.loads(deals.read_text().splitlines()[0])
    cases = {
        "other.jsonl": ({**line, "variant": "draw"}, "dealt for draw with 2 players"),
        "twice.jsonl": ({**line, "hands": [{"deal": {**line["hands"][0]["deal"],
                                                     "boneyard": ["0-0"] * 14}}]},
                        "each of the 28 tiles exactly once"),
        "empty.jsonl": (None, "holds no deal"),
    }
    for name, (record, message) in cases.items():
        path = tmp_path / name
        path.write_text("" if record is None else json.dumps(record) + "\n")
        out = tmp_path / f"run-{name}"
        one_line_error(invoke(*BLOCK, "-p", "easy", "-p", "hard", "--deals", str(path),
                              "--out", str(out)), message)
        assert not out.exists()


def test_a_scenario_with_deals_and_no_games_plays_every_deal_once(tmp_path):
    _, deals = exported(tmp_path)
    scenario = tmp_path / "fixed.toml"
    scenario.write_text(f'variant = "block"\nentrants = ["easy", "hard"]\nseed = 1\n'
                        f'deals = "{deals}"\ndeals_order = "shuffled"\nrecords = true\n')
    out = tmp_path / "run"
    assert invoke("run", str(scenario), "-j", "1", "--silent", "--out", str(out)).exit_code == 0
    played = first_hands(out)
    given = [json.loads(line)["hands"][0]["deal"] for line in deals.read_text().splitlines()]
    assert len(played) == 8 and sorted(map(json.dumps, played[::2])) == sorted(
        map(json.dumps, given))


def test_resuming_on_a_changed_deals_file_is_refused(tmp_path):
    _, deals = exported(tmp_path)
    out = tmp_path / "run"
    assert invoke(*BLOCK, "-p", "easy", "-p", "hard", "--deals", str(deals), "--seed", "1",
                  "--out", str(out)).exit_code == 0
    deals.write_text("".join(deals.read_text().splitlines(keepends=True)[:2]))
    one_line_error(invoke("tourney", "--out", str(out), "--resume", "--silent"),
                   "changed since the run")


def test_a_comparison_plays_fixed_deals_to_a_target_under_a_move_limit(tmp_path):
    """compare is a tourney that its test may end early, with a tourney's options (issue 37):
    a deals file, --target, --move-time-limit and --records."""
    _, deals = exported(tmp_path)
    out = tmp_path / "compared"
    result = invoke("compare", "hard", "easy", "--variant", "block", "--deals", str(deals),
                    "--games", "8", "--target", "30", "--move-time-limit", "0.5", "--records",
                    "-j", "1", "--silent", "--out", str(out))
    assert result.exit_code == 0, result.output
    given = [json.loads(line)["hands"][0]["deal"] for line in deals.read_text().splitlines()]
    assert first_hands(out) == [deal for deal in given for _ in range(2)]
    config = json.loads((out / "manifest.json").read_text())["config"]
    assert config["move_time_limit"] == 0.5 and config["options"]["target"] in (30, "30")
    first = json.loads((out / "records.jsonl").read_text().splitlines()[0])
    assert first["options"] == {"target": 30} and first["fixed_deal"]
