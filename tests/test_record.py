"""Game records (docs/GAME-RECORD.md): what is written, what readers accept, what replay rejects.

The hand-made fixture below was checked by hand against the rule book: a 2-player draw game
(R-SCORE-BASIC), seat 0 holds the highest double 6-6 and leads it (R-LEAD), every play is forced
to be a play (R-MUST), and seat 0 goes out with seat 1 left holding 1-1, so seat 0 scores 2."""

from __future__ import annotations

import copy
import json
import re

import pytest

from domsim.game import play_game
from domsim.record import RecordError, read_records, replay_steps, seal, verify
from domsim.rules import make_rules

SEAT0 = ["6-6", "4-5", "2-3", "0-1", "0-2", "2-4", "4-6"]
SEAT1 = ["5-6", "3-4", "1-2", "0-0", "2-2", "4-4", "1-1"]
BONEYARD = ["0-3", "0-4", "0-5", "0-6", "1-3", "1-4", "1-5", "1-6", "2-5", "2-6", "3-3", "3-5",
            "3-6", "5-5"]
# (seat, tile, end); None: the lead, or a tile that fits exactly one end.
PLAYS = [
    (0, "6-6", None),  # ends 6 6
    (1, "5-6", 1),  # fits both 6s: end required; ends 6 5
    (0, "4-5", None),  # ends 6 4
    (1, "3-4", None),  # ends 6 3
    (0, "2-3", None),  # ends 6 2
    (1, "1-2", None),  # ends 6 1
    (0, "0-1", None),  # ends 6 0
    (1, "0-0", None),  # ends 6 0
    (0, "0-2", None),  # ends 6 2
    (1, "2-2", None),  # ends 6 2
    (0, "2-4", None),  # ends 6 4
    (1, "4-4", None),  # ends 6 4
    (0, "4-6", 1),  # fits 6 and 4: end required; seat 0 is out, seat 1 holds 1-1
]
HAND_RESULT = {"end": "domino", "winners": [0], "points": [2, 0], "scores": [2, 0], "carry": 0}
MATCH_RESULT = {"winners": [], "scores": [2, 0], "complete": False}


def fixture_record() -> dict:
    actions = []
    for seat, tile, end in PLAYS:
        action = {"seat": seat, "play": tile}
        if end is not None:
            action["end"] = end
        actions.append(action)
    return {
        "format": "domsim-game/1",
        "variant": "draw",
        "players": 2,
        "options": {},
        "seats": ["easy", "easy"],
        "seed": 0,
        "hands": [{
            "deal": {"hands": [SEAT0[:], SEAT1[:]], "boneyard": BONEYARD[:]},
            "leader": 0,
            "actions": actions,
            "result": dict(HAND_RESULT),
        }],
        "result": dict(MATCH_RESULT),
    }


def rejection(record: dict, game: int = 0) -> str:
    """The one-line message replay gives for an illegal record."""
    recomputed, problems = verify(record, game)
    assert recomputed is None, "replay accepted an illegal record"
    assert len(problems) == 1 and "\n" not in problems[0]
    with pytest.raises(RecordError, match=re.escape(problems[0])):
        list(replay_steps(record, game))
    return problems[0]


def first_game_with(variant: str, players: int, wanted) -> dict:
    """The first easy-vs-easy game (seeds 0, 1, ..) whose record satisfies `wanted`."""
    rules = make_rules(variant, players)
    for seed in range(200):
        record = play_game(rules, ["easy"] * players, seed)
        if wanted(record):
            return record
    raise AssertionError(f"no {variant} game found with the wanted property")


def action_index(record: dict, kind: str) -> tuple[int, int]:
    """(hand, action) of the first action of `kind` (play, draw or pass) in the record."""
    for h, hand in enumerate(record["hands"]):
        for i, action in enumerate(hand["actions"]):
            if kind in action and i > 0:
                return h, i
    raise AssertionError(f"no {kind} action")


def has(kind: str):
    return lambda record: any(kind in a for hand in record["hands"] for a in hand["actions"])


# -- the fixture itself ------------------------------------------------------------------------
def test_hand_checked_fixture_replays_with_the_hand_computed_results():
    """R-SCORE-BASIC: going out scores the other hand (1-1 = 2)."""
    recomputed, problems = verify(fixture_record(), 0)
    assert problems == []
    assert recomputed["hands"][0]["result"] == HAND_RESULT
    assert recomputed["result"] == MATCH_RESULT


def test_replay_tracks_the_ends_of_the_fixture():
    expected_ends = [(6, 6), (6, 5), (6, 4), (6, 3), (6, 2), (6, 1), (6, 0), (6, 0), (6, 2),
                     (6, 2), (6, 4), (6, 4), (6, 6)]
    seen = [tuple(state.ends[:2]) for kind, _, _, state, _ in replay_steps(fixture_record(), 0)
            if kind == "action"]
    assert seen == expected_ends


# -- writing -----------------------------------------------------------------------------------
@pytest.mark.parametrize("variant, players", [("fives", 2), ("kozel", 4), ("block", 3),
                                              ("partnership", 4), ("classic", 3)])
def test_written_record_has_every_field(variant, players):
    record = play_game(make_rules(variant, players), ["easy"] * players, 11)
    assert record["format"] == "domsim-game/1"
    assert record["variant"] == variant and record["players"] == players
    assert record["options"] == {} and record["seats"] == ["easy"] * players
    assert record["seed"] == 11
    assert record["hands"]
    for hand in record["hands"]:
        assert len(hand["deal"]["hands"]) == players
        assert isinstance(hand["deal"]["boneyard"], list)
        assert 0 <= hand["leader"] < players
        assert hand["actions"]
        for action in hand["actions"]:
            assert isinstance(action["seat"], int)
            assert sum(key in action for key in ("play", "draw", "pass")) == 1
        assert "end" not in hand["actions"][0]
        assert all("end" in a for a in hand["actions"][1:] if "play" in a)
        assert set(hand["result"]) >= {"end", "winners", "points", "scores", "carry"}
        assert hand["result"]["end"] in ("domino", "blocked", "target")
    assert set(record["result"]) >= {"winners", "scores", "complete"}
    assert json.loads(json.dumps(record)) == record


def test_written_options_hold_only_what_differs_from_the_defaults():
    """R-DETAIL option names; GAME-RECORD: options lists only non-defaults."""
    rules = make_rules("partnership", 4, {"target": "100", "capicu_bonus": "25", "fish": "lower"})
    record = play_game(rules, ["easy"] * 4, 3)
    assert record["options"] == {"capicu_bonus": 25}
    assert verify(record, 0)[1] == []


def test_written_tiles_have_the_smaller_number_first():
    tile = re.compile(r"^(\d)-(\d)$")
    for variant, players in [("draw", 2), ("allfives", 4), ("partnership-1v1", 2)]:
        record = play_game(make_rules(variant, players), ["easy"] * players, 5)
        written = []
        for hand in record["hands"]:
            written += [t for seat in hand["deal"]["hands"] for t in seat]
            written += hand["deal"]["boneyard"]
            written += [a.get("play") or a.get("draw") for a in hand["actions"] if "pass" not in a]
        for name in written:
            a, b = map(int, tile.match(name).groups())
            assert a <= b, name


# -- reading -----------------------------------------------------------------------------------
def _respell(record: dict, form, reverse: bool) -> dict:
    """The record with every tile written in `form`; reversed (larger first) except the leads,
    whose order fixes the ends."""
    def spell(name: str, keep_order: bool = False):
        a, b = name[0], name[2]
        return form(b, a) if reverse and not keep_order else form(a, b)

    out = copy.deepcopy(record)
    out.pop("digest")  # respelled, it is another writer's record: domsim's digest is not its
    for hand in out["hands"]:
        deal = hand["deal"]
        deal["hands"] = [[spell(t) for t in seat] for seat in deal["hands"]]
        deal["boneyard"] = [spell(t) for t in deal["boneyard"]]
        for i, action in enumerate(hand["actions"]):
            for key in ("play", "draw"):
                if key in action:
                    action[key] = spell(action[key], keep_order=i == 0)
    return out


@pytest.mark.parametrize("form", [
    lambda a, b: f"{a}-{b}",
    lambda a, b: f"{a}|{b}",
    lambda a, b: [int(a), int(b)],
], ids=["a-b", "a|b", "[a,b]"])
@pytest.mark.parametrize("reverse", [False, True], ids=["smaller-first", "larger-first"])
def test_readers_accept_every_tile_spelling(form, reverse):
    record = first_game_with("draw", 2, has("draw"))
    respelled = _respell(record, form, reverse)
    assert respelled != record or (form(1, 2) == "1-2" and not reverse)
    recomputed, problems = verify(respelled, 0)
    assert problems == []
    assert [h["result"] for h in recomputed["hands"]] == [h["result"] for h in record["hands"]]
    assert recomputed["result"] == record["result"]


@pytest.mark.parametrize("bad", ["7-1", "5-", "5-3-1", "x-y", [5], [5, 9], 53, None])
def test_a_bad_tile_is_a_one_line_error(bad):
    record = fixture_record()
    record["hands"][0]["deal"]["hands"][1][0] = bad
    assert "game 1, hand 1" in rejection(record)


def _lot_record(variant: str, players: int, leader: int, lead: str, options=None) -> dict:
    """A first hand led by lot: `leader` leads `lead`; every tile dealt round the seats."""
    tiles = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
    size = 7
    hands = [tiles[s * size:(s + 1) * size] for s in range(players)]
    return {
        "variant": variant, "players": players, "options": options or {},
        "hands": [{
            "deal": {"hands": hands, "boneyard": tiles[players * size:]},
            "leader": leader,
            "actions": [{"seat": leader, "play": lead}],
        }],
    }


@pytest.mark.parametrize("written, end0, end1", [("5-1", 5, 1), ("1-5", 1, 5), ("5|1", 5, 1),
                                                 ([5, 1], 5, 1), ([1, 5], 1, 5)])
def test_the_lead_as_written_sets_the_ends(written, end0, end1):
    """GAME-RECORD Ends: after the lead "a-b", end 0 shows a and end 1 shows b."""
    # partnership-1v1 leads any tile (R-LEAD by lot); seat 1 holds 1-5 in this deal.
    record = _lot_record("partnership-1v1", 2, 1, written)
    steps = replay_steps(record, 0)
    next(steps)
    kind, _, index, state, _ = next(steps)
    assert (kind, index) == ("action", 0)
    assert state.ends[:2] == [end0, end1]


def test_end_may_be_omitted_only_when_the_tile_fits_exactly_one_end():
    record = fixture_record()
    assert all("end" not in a for a in record["hands"][0]["actions"][2:12])
    assert verify(record, 0)[1] == []

    for index, why in [(1, "ends [0, 1]"), (12, "ends [0, 1]")]:
        broken = fixture_record()
        del broken["hands"][0]["actions"][index]["end"]
        message = rejection(broken)
        assert f"game 1, hand 1, action {index + 1}" in message and why in message


def test_a_named_end_is_taken_even_when_it_is_the_only_fit():
    record = fixture_record()
    record["hands"][0]["actions"][2]["end"] = 1
    assert verify(record, 0)[1] == []
    record["hands"][0]["actions"][2]["end"] = 0
    assert "does not fit end 0" in rejection(record)


# -- what replay rejects -----------------------------------------------------------------------
def _with_action(index: int, action: dict) -> dict:
    record = fixture_record()
    record["hands"][0]["actions"][index] = action
    return record


@pytest.mark.parametrize("index, action, words", [
    (1, {"seat": 0, "play": "4-5"}, "seat 0 acted but seat 1 is to move"),
    (1, {"seat": 1, "pass": True}, "pass while able to play"),
    (1, {"seat": 1, "draw": "0-3"}, "draw while able to play"),
    (2, {"seat": 0, "play": "0-1", "end": 1}, "does not fit"),
    (2, {"seat": 0, "play": "0-1"}, "fits no open end"),
    (2, {"seat": 0, "play": "5-5", "end": 1}, "does not hold 5-5"),
    (0, {"seat": 0, "play": "4-5"}, "the lead must be 6-6"),
    (3, {"seat": 1}, "play, draw or pass"),
    (3, {"seat": 1, "pass": False}, "play, draw or pass"),
    (3, "3-4", "an action must be an object"),
    (3, {"seat": "1", "play": "3-4"}, "an action must be an object with a seat"),
])
def test_replay_rejects_an_illegal_action_naming_game_hand_and_index(index, action, words):
    """R-MUST, R-LINE, R-LEAD: the first illegal action is named."""
    message = rejection(_with_action(index, action))
    assert message.startswith(f"game 1, hand 1, action {index + 1}:")
    assert words in message


def test_replay_names_the_game_index_it_is_given():
    message = rejection(_with_action(1, {"seat": 1, "pass": True}), game=7)
    assert message.startswith("game 8, hand 1, action 2:")


def test_replay_rejects_a_draw_of_the_wrong_tile():
    """R-DEAL: drawing takes the next boneyard tile."""
    record = first_game_with("draw", 2, has("draw"))
    h, i = action_index(record, "draw")
    hand = record["hands"][h]
    drawn = sum("draw" in a for a in hand["actions"][:i])
    expected = hand["deal"]["boneyard"][drawn]
    assert hand["actions"][i]["draw"] == expected
    hand["actions"][i]["draw"] = hand["deal"]["boneyard"][drawn + 1]
    message = rejection(record)
    assert message.startswith(f"game 1, hand {h + 1}, action {i + 1}:")
    assert f"next boneyard tile is {expected}" in message


def test_replay_rejects_a_pass_while_able_to_draw():
    """R-MUST: in draw games a stuck player draws; a pass needs an empty boneyard."""
    record = first_game_with("draw", 2, has("draw"))
    h, i = action_index(record, "draw")
    seat = record["hands"][h]["actions"][i]["seat"]
    record["hands"][h]["actions"][i] = {"seat": seat, "pass": True}
    assert f"hand {h + 1}, action {i + 1}: a pass while able to draw" in rejection(record)


def _draw_then_play(record: dict) -> tuple[int, int] | None:
    """(hand, index) of a play that directly follows a draw while the boneyard still holds a
    tile, if any."""
    for h, hand in enumerate(record["hands"]):
        actions = hand["actions"]
        for i in range(1, len(actions)):
            drawn = sum("draw" in a for a in actions[:i])
            if ("draw" in actions[i - 1] and "play" in actions[i]
                    and drawn < len(hand["deal"]["boneyard"])):
                return h, i
    return None


def test_replay_rejects_a_draw_once_the_drawn_tile_fits():
    """R-DRAW-THEN-PLAY: once a drawn tile fits, drawing again is illegal."""
    record = first_game_with("draw", 2, _draw_then_play)
    h, i = _draw_then_play(record)
    hand = record["hands"][h]
    drawn = sum("draw" in a for a in hand["actions"][:i])
    hand["actions"][i] = {"seat": hand["actions"][i]["seat"],
                          "draw": hand["deal"]["boneyard"][drawn]}
    assert f"hand {h + 1}, action {i + 1}: a draw while able to play" in rejection(record)


def test_replay_rejects_a_draw_in_a_block_game():
    """R-MUST: block passes when stuck; nobody draws."""
    record = first_game_with("block", 2, has("pass"))
    h, i = action_index(record, "pass")
    seat = record["hands"][h]["actions"][i]["seat"]
    record["hands"][h]["actions"][i] = {"seat": seat, "draw": record["hands"][h]["deal"][
        "boneyard"][0]}
    assert f"hand {h + 1}, action {i + 1}: a draw in a game that passes when stuck" in rejection(
        record)


def test_replay_rejects_a_wrong_first_leader():
    """R-LEAD: the holder of the highest double leads the first hand."""
    record = fixture_record()
    record["hands"][0]["leader"] = 1
    message = rejection(record)
    assert message.startswith("game 1, hand 1:") and "seat 0 leads" in message


def test_replay_rejects_a_wrong_later_leader():
    """R-LEAD: later hands are led by the previous hand's winner (draw)."""
    record = first_game_with("draw", 2, lambda r: len(r["hands"]) >= 2)
    right = record["hands"][1]["leader"]
    record["hands"][1]["leader"] = 1 - right
    message = rejection(record)
    assert message.startswith("game 1, hand 2:") and f"seat {right} leads" in message


@pytest.mark.parametrize("variant, players, options", [
    ("partnership-1v1", 2, {}),
    ("partnership", 4, {"lead": "fid"}),
])
def test_a_leader_by_lot_is_taken_from_the_record(variant, players, options):
    """R-LEAD: partnership-1v1 and lead=fid draw the first leader by lot."""
    for leader in range(players):
        lead = _lot_record(variant, players, leader, "0-0")["hands"][0]["deal"]["hands"][leader][3]
        steps = replay_steps(_lot_record(variant, players, leader, lead, options), 0)
        kind, _, _, state, _ = next(steps)
        assert kind == "hand" and state.leader == leader
        kind, _, _, state, _ = next(steps)
        assert kind == "action" and state.line_count == 1


def test_a_leader_by_lot_must_be_named():
    record = _lot_record("partnership-1v1", 2, 0, "0-3")
    del record["hands"][0]["leader"]
    assert "by lot" in rejection(record)


def test_without_lead_fid_the_partnership_leader_is_checked():
    """R-LEAD: partnership's first hand is led by the holder of 6-6 (seat 3 in this deal)."""
    message = rejection(_lot_record("partnership", 4, 2, "2-5"))
    assert "seat 3 leads" in message


def test_replay_rejects_actions_after_the_hand_ended():
    record = fixture_record()
    record["hands"][0]["actions"].append({"seat": 1, "play": "1-1"})
    assert rejection(record).startswith("game 1, hand 1, action 14: the hand was already over")


def test_replay_rejects_a_hand_that_stops_early():
    record = fixture_record()
    record["hands"][0]["actions"].pop()
    assert rejection(record) == "game 1, hand 1: the actions stop before the hand is over"


def test_replay_rejects_a_hand_after_the_match_was_decided():
    record = first_game_with("classic", 2, lambda r: True)
    record["hands"].append(copy.deepcopy(record["hands"][0]))
    assert rejection(record).startswith("game 1, hand 2: the match was already decided")


def test_replay_rejects_a_deal_that_is_not_the_full_set():
    record = fixture_record()
    record["hands"][0]["deal"]["boneyard"][0] = "6-6"
    assert "each of the 28 tiles exactly once" in rejection(record)
    record = fixture_record()
    record["hands"][0]["deal"]["hands"][0].pop()
    assert "the hand of seat 0 must list 7 tiles" in rejection(record)


def test_boneyard_may_be_left_out_where_nobody_draws():
    """GAME-RECORD: block with 2-3 players lists the out-of-play tiles, or leaves them out."""
    record = first_game_with("block", 3, lambda r: True)
    for hand in record["hands"]:
        del hand["deal"]["boneyard"]
    recomputed, problems = verify(seal(record), 0)  # sealed as it is now written
    assert problems == [] and recomputed["result"]["complete"]


def test_a_draw_needs_the_boneyard_listed():
    record = first_game_with("draw", 2, has("draw"))
    h, i = action_index(record, "draw")
    del record["hands"][h]["deal"]["boneyard"]
    message = rejection(record)
    assert message.startswith(f"game 1, hand {h + 1}")


# -- results -----------------------------------------------------------------------------------
def test_a_record_with_no_results_at_all_is_valid():
    record = fixture_record()
    del record["result"]
    del record["hands"][0]["result"]
    recomputed, problems = verify(record, 0)
    assert problems == []
    assert recomputed["hands"][0]["result"] == HAND_RESULT
    assert recomputed["result"] == MATCH_RESULT


def test_a_partial_result_is_checked_only_where_given():
    record = fixture_record()
    record["hands"][0]["result"] = {"winners": [0]}
    record["result"] = {"complete": False}
    assert verify(record, 0)[1] == []


def test_a_result_that_disagrees_is_reported_per_field():
    record = fixture_record()
    record["hands"][0]["result"].update(points=[3, 0], scores=[3, 0], winners=[1])
    record["result"]["complete"] = True
    recomputed, problems = verify(record, 0)
    assert recomputed["hands"][0]["result"] == HAND_RESULT
    assert problems == [
        "game 1, hand 1: result winners is [1], replay gives [0]",
        "game 1, hand 1: result points is [3, 0], replay gives [2, 0]",
        "game 1, hand 1: result scores is [3, 0], replay gives [2, 0]",
        "game 1: result complete is True, replay gives False",
    ]


def test_winners_compare_in_any_order():
    record = first_game_with("kozel", 4, lambda r: True)
    for hand in record["hands"]:
        hand["result"]["winners"].reverse()
    record["result"]["winners"].reverse()
    assert verify(seal(record), 0)[1] == []


# -- files ---------------------------------------------------------------------------------------
def test_json_lines_with_several_games(tmp_path):
    rules = make_rules("allfives", 3)
    games = [play_game(rules, ["easy"] * 3, seed) for seed in range(3)]
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(g) + "\n" for g in games) + "\n", encoding="utf-8")
    records = read_records(path)
    assert records == games
    assert [verify(r, i)[1] for i, r in enumerate(records)] == [[], [], []]


def test_one_pretty_printed_game(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(fixture_record(), indent=2), encoding="utf-8")
    assert read_records(path) == [fixture_record()]


@pytest.mark.parametrize("text, words", [
    ("{not json", "line 1: not valid JSON"),
    (json.dumps(fixture_record()) + "\n{\"variant\": \n", "line 2: not valid JSON"),
    ("[1, 2]", "game 1 is not a JSON object"),
    ("{}\n3\n", "game 2 is not a JSON object"),
])
def test_malformed_json_is_a_one_line_record_error(tmp_path, text, words):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        read_records(path)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_unreadable_files_are_a_one_line_record_error(tmp_path):
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    for path in (binary, tmp_path / "missing.json"):
        with pytest.raises(RecordError) as caught:
            read_records(path)
        assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def _set(path: tuple, value):
    def change(record):
        target = record
        for key in path[:-1]:
            target = target[key]
        if value is _DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value
        return record
    return change


_DELETE = object()


@pytest.mark.parametrize("change, words", [
    (_set(("variant",), 5), "field 'variant'"),
    (_set(("variant",), _DELETE), "field 'variant'"),
    (_set(("variant",), "dominoes"), "unknown variant"),
    (_set(("format",), "domsim-game/2"), "format"),
    (_set(("players",), 5), "not 5"),
    (_set(("players",), "2"), "players"),
    (_set(("players",), [2]), "players"),
    (_set(("players",), 2.0), "players"),
    (_set(("options",), []), "field 'options'"),
    (_set(("options",), {"target": 0}), "target"),
    (_set(("options",), {"colour": 1}), "colour"),
    (_set(("hands",), "x"), "field 'hands'"),
    (_set(("hands",), _DELETE), "field 'hands'"),
    (_set(("hands", 0), 5), "hand 1"),
    (_set(("hands", 0, "deal"), _DELETE), "field 'deal'"),
    (_set(("hands", 0, "deal", "hands"), "x"), "field 'hands'"),
    (_set(("hands", 0, "deal", "boneyard"), "x"), "field 'boneyard'"),
    (_set(("hands", 0, "actions"), {}), "field 'actions'"),
    (_set(("hands", 0, "leader"), "0"), "leader"),
    (_set(("hands", 0, "leader"), 2), "leader"),
    (_set(("hands", 0, "actions", 1, "end"), "1"), "end must be"),
    (_set(("hands", 0, "actions", 1, "end"), True), "end must be"),
])
def test_wrong_fields_give_a_one_line_record_error(change, words):
    message = rejection(change(fixture_record()))
    assert message.startswith("game 1") and words in message
