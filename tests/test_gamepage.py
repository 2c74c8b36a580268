"""A game's page (domsim.gamepage, `show --html`, `play --html`): the line's layout never overlaps
and always joins matching numbers, every action is a step with the table after it, the hand's
arithmetic adds up, the stand-in's moves and faults are marked from the record, and the page is
one file that names no address."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from arithmetic import evaluate
from clitools import invoke, one_line_error

from domsim import api
from domsim.pages.gamepage import game_frames, page_html
from domsim.rules import VARIANTS
from domsim.tableline import HALF_WIDTH, Placed, lay_out

EQUATION = re.compile(r" wins? (?:the hand: )?(\d+)(?: against .+?)? = (.+)\.$")

BROKEN = Path(__file__).parent / "broken"

GAMES = [(variant, players, seed) for variant in sorted(VARIANTS)
         for players in sorted({min(VARIANTS[variant].player_counts),
                                max(VARIANTS[variant].player_counts)})
         for seed in range(3)]


@pytest.fixture(scope="module")
def records():
    return {(v, n, s): api.play(v, ["medium"], seed=s, players=n) for v, n, s in GAMES}


def _halves(t: Placed) -> list[tuple[float, float, float, float, int]]:
    """The tile's two squares: (left, top, right, bottom, number)."""
    if t.w > t.h:
        return [(t.x, t.y, t.x + 1, t.y + 1, t.first), (t.x + 1, t.y, t.x + 2, t.y + 1, t.second)]
    return [(t.x, t.y, t.x + 1, t.y + 1, t.first), (t.x, t.y + 1, t.x + 1, t.y + 2, t.second)]


def _contact(a, b) -> float:
    """How long the edge two boxes share (0: they meet at most at a corner, or not at all)."""
    overlap_x = min(a[2], b[2]) - max(a[0], b[0])
    overlap_y = min(a[3], b[3]) - max(a[1], b[1])
    if abs(overlap_x) < 1e-9 and overlap_y > 1e-9:
        return overlap_y
    if abs(overlap_y) < 1e-9 and overlap_x > 1e-9:
        return overlap_x
    return 0.0


def _overlaps(a: Placed, b: Placed) -> bool:
    return (min(a.x + a.w, b.x + b.w) - max(a.x, b.x) > 1e-9
            and min(a.y + a.h, b.y + b.h) - max(a.y, b.y) > 1e-9)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-{g[1]}-{g[2]}")
def test_the_line_never_overlaps_and_joins_matching_numbers(records, game):
    """R-LINE: every tile touches the one it was laid against with the matching number, along a
    full edge; no two tiles overlap; the rows stay inside the table's width."""
    frames = game_frames(records[game])
    for hand in frames["hands"]:
        tiles = [Placed(**t) for t in hand["tiles"]]
        for i, a in enumerate(tiles):
            assert not any(_overlaps(a, b) for b in tiles[i + 1:]), (game, hand["number"], a)
        arms = _arms(hand)
        for arm in arms.values():
            for before, after in zip(arm, arm[1:], strict=False):
                touching = [(x[4], y[4]) for x in _halves(before) for y in _halves(after)
                            if _contact(x, y) > 1e-9]
                assert touching and all(x == y for x, y in touching), (game, before, after)
        left, _, right, _ = hand["bounds"]
        assert left >= -HALF_WIDTH - 1.5 and right <= HALF_WIDTH + 1.5


def _arms(hand: dict) -> dict[int, list[Placed]]:
    """Each arm's tiles from the lead outwards (the lead starts arms 0 and 1), from the steps'
    texts: "... plays a-b on end E"."""
    tiles = {t["step"]: Placed(**t) for t in hand["tiles"]}
    arms: dict[int, list[Placed]] = {0: [], 1: [], 2: [], 3: []}
    for index, frame in enumerate(hand["frames"][1:-1]):
        played = re.search(r" on end (\d)$", frame["text"])
        if frame["kind"] == "play" and not played:
            arms[0].append(tiles[index])
            arms[1].append(tiles[index])
        elif played:
            arms[int(played[1])].append(tiles[index])
    return {end: tiles for end, tiles in arms.items() if end < 2}


def test_the_rows_turn_back_at_the_edge():
    """A long arm snakes: past the table's edge it turns a corner and runs back a row further
    out, end 0 upwards and end 1 downwards."""
    plays = [(0, -1, 1, 2, 0)] + [(i, 1, (i % 6), (i + 1) % 6, 0) for i in range(1, 14)]
    plays += [(i, 0, 6, 6, 1) for i in range(14, 15)]
    layout = lay_out(plays)
    rows = sorted({round(t.y + t.h / 2, 3) for t in layout.tiles if t.w > t.h})
    assert rows[0] == 0 and rows[-1] > 0
    assert max(t.x + t.w for t in layout.tiles) <= HALF_WIDTH + 1
    turned = [t for t in layout.tiles[1:] if t.h > t.w and t.first != t.second]
    assert turned, "a corner tile stands across the rows"


def test_each_action_is_a_step_with_the_table_after_it(records):
    record = records[("fives", 2, 1)]
    frames = game_frames(record)
    assert len(frames["hands"]) == len(record["hands"])
    for hand, stored in zip(frames["hands"], record["hands"], strict=True):
        steps = hand["frames"]
        assert len(steps) == len(stored["actions"]) + 2  # the deal, each action, the result
        assert steps[0]["kind"] == "deal" and steps[-1]["kind"] == "result"
        dealt = sum(map(len, steps[0]["hands"]))
        for step, action in zip(steps[1:-1], stored["actions"], strict=True):
            assert step["seat"] == action["seat"]
            held = sum(map(len, step["hands"]))
            placed = step["placed"]
            drawn = dealt + (steps[0]["boneyard"] - step["boneyard"])
            assert held + placed == drawn  # tiles are conserved
            if "draw" in action:
                assert step["forced"] and action["draw"] in step["hands"][action["seat"]]
        assert steps[-1]["scores"] == stored["result"]["scores"]


def test_the_hand_result_adds_up(records):
    """R-SCORE-BASIC, R-FIVES, R-KOZEL, R-PARTNERSHIP: every hand left is shown, the side that
    scores gets a sum that adds up to its points (fives made in play, the hands left, the
    rounding) as the person's table works it out, any other side's fives made in play are
    named, and the scores are the record's."""
    for game in [("fives", 2, 0), ("allfives", 4, 2), ("kozel", 4, 1), ("partnership", 4, 0),
                 ("block", 4, 1), ("partnership-1v1", 2, 2)]:
        record = records[game]
        for hand, stored in zip(game_frames(record)["hands"], record["hands"], strict=True):
            lines = hand["frames"][-1]["result"]
            held = [line for line in lines if " holds " in line]
            assert len(held) == len(stored["deal"]["hands"])
            stated = []
            for line in lines:
                sums = EQUATION.search(line)
                if sums:
                    assert int(sums[1]) == evaluate(sums[2]), line
                    stated.append(int(sums[1]))
                made = re.search(r" made (\d+) \(fives in play\)\.$", line)
                if made:
                    stated.append(int(made[1]))
            assert sorted(stated) == sorted(p for p in stored["result"]["points"] if p), lines
            scores = [int(n) for n in re.findall(r" (\d+)(?:,|\.$)", lines[-1])]
            assert lines[-1].startswith("Scores")
            assert scores[:len(stored["result"]["scores"])] == stored["result"]["scores"]


def test_a_scoring_play_is_marked(records):
    frames = game_frames(records[("fives", 2, 0)])
    scored = [step for hand in frames["hands"] for step in hand["frames"] if step["scored"]]
    assert scored and all(step["count"] % 5 == 0 and step["count"] > 0 for step in scored)


def test_faults_and_the_stand_ins_moves_are_marked():
    """R-SEAT-FAULT: the record marks the move a fault handed to the stand-in and each later
    one; the page shows them; replay reads the record as before."""
    illegal = f"{BROKEN / 'illegal.py'}:Illegal"
    record = api.play("block", [illegal, "easy"], seed=4, isolate=False)
    marked = [a for hand in record["hands"] for a in hand["actions"] if a.get("stand_in")]
    assert marked and all(a["seat"] == 0 for a in marked)
    assert [a.get("fault") for a in marked][0] == "illegal move"
    assert all("fault" not in a for a in marked[1:])
    seat_zero_choices = [a for hand in record["hands"] for a in hand["actions"]
                         if a["seat"] == 0 and "play" in a]
    assert len(marked) <= len(seat_zero_choices)
    steps = [s for hand in game_frames(record)["hands"] for s in hand["frames"]]
    assert [s["mark"] for s in steps if s["mark"]][0] == "illegal move: the stand-in moved"
    assert sum(1 for s in steps if s["mark"]) == len(marked)
    clean = api.play("block", ["easy"], seed=4)
    assert not any(a.get("stand_in") for h in clean["hands"] for a in h["actions"])


def test_the_page_is_one_file_naming_no_address(records):
    record = dict(records[("kozel", 4, 0)])
    record["seats"] = ["exec:curl https://example.org </script><b>x</b>", *record["seats"][1:]]
    page = page_html(record, title="a <kozel> game")
    assert not re.search(r"https?://", page)
    assert "<script src" not in page and "<link" not in page and "</script><b>" not in page
    assert "<title>a &lt;kozel&gt; game: " in page
    data = json.loads(re.search(r"const GAME = (.*);\n", page)[1])
    assert data["names"][0] == record["seats"][0]  # escaped, not changed
    assert len(data["hands"]) == len(record["hands"])


def test_show_and_play_write_pages(tmp_path):
    run = tmp_path / "run"
    result = invoke("tourney", "--variant", "fives", "-p", "strong=hard", "-p", "easy",
                    "--games", "2", "--seed", "3", "--workers", "1", "--silent", "--out", str(run))
    assert result.exit_code == 0, result.output
    page = tmp_path / "g1.html"
    result = invoke("show", str(run), "--game", "1", "--html", str(page), "--view", "1")
    assert result.exit_code == 0, result.output
    text, data = page.read_text(), _data(page)
    assert data["view"] == 1 and "strong (hard)" in data["names"]
    assert "game id 1 of" in data["title"]
    one_line_error(invoke("show", str(run), "--game", "1", "--html", str(page)), "exists")
    assert page.read_text() == text  # nothing already written is lost
    result = invoke("show", str(run), "--game", "1", "--html", str(tmp_path / "x.html"),
                    "--view", "2")
    assert result.exit_code == 2 and "seats 0 to 1" in result.output
    result = invoke("show", str(run), "--game", "1", "--view", "1")
    assert result.exit_code == 2 and "--view goes with --html" in result.output
    record, played = tmp_path / "game.json", tmp_path / "played.html"
    result = invoke("play", "--variant", "kozel", "-p", "hard", "--seed", "2", "--record",
                    str(record), "--html", str(played))
    assert result.exit_code == 0, result.output
    assert "page written to" in result.output and played.stat().st_size > 10_000
    from_file = tmp_path / "from-file.html"
    assert invoke("show", str(record), "--html", str(from_file)).exit_code == 0
    shown, written = (_data(path) for path in (from_file, played))
    assert shown.pop("title").startswith("game 1 of ")
    assert written.pop("title").startswith("kozel, seed 2: hard v hard")
    assert shown == written


def _data(page: Path) -> dict:
    return json.loads(re.search(r"const GAME = (.*);\n", page.read_text())[1])


def test_a_steps_games_are_its_closest_the_weakers_best_and_a_typical_one(tmp_path):
    """Picked by the weaker level's points margin, as the per-game frame of the API counts it."""
    from domsim.pages.notebook import per_entrant
    from domsim.pages.stepgames import pick_games, step_pages
    from domsim.results.run import load_run

    run_dir = tmp_path / "run"
    result = invoke("tourney", "--variant", "fives", "-p", "easy", "-p", "hard", "-p", "medium",
                    "--games", "24", "--seed", "5", "--workers", "1", "--silent", "--out",
                    str(run_dir))
    assert result.exit_code == 0, result.output
    run = load_run(run_dir)
    frame = per_entrant(run)
    theirs = frame[frame.entrant == "hard"].set_index("game_id")
    easy = frame[(frame.entrant == "easy") & frame.game_id.isin(theirs.index)]
    picks = dict(pick_games(run, "easy", "hard"))
    closest = easy.loc[easy.margin.abs().idxmin()]
    assert picks["closest"] == closest.game_id
    best = easy.loc[easy.margin.idxmax()]
    label = "biggest win of easy" if best.share > 0.5 else "best game of easy"
    assert picks.get(label, picks["closest"]) == best.game_id
    assert set(picks.values()) <= set(easy.game_id)
    links = step_pages(run_dir, "easy", "hard", tmp_path / "report", "fives-easy-hard")
    assert [link.game_id for link in links] == list(picks.values())
    assert all((tmp_path / "report" / link.href).is_file() for link in links)
    assert step_pages(run_dir, "easy", "insane", tmp_path / "report", "x") == []
