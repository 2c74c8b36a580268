"""The core refuses what the rules forbid, with typed errors (R-MUST, R-DRAW-THEN-PLAY, R-LINE,
R-LEAD), and builds a match only at a position that holds together (`State.from_position`)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from positions import hand, position, tile, tile_list
from test_engine_fastpath import CONFIGS, snapshot

import domsim
from domsim import _core
from domsim.engine import (
    DRAW,
    PASS,
    PLAY,
    Action,
    IllegalDraw,
    IllegalMove,
    IllegalPass,
    InvalidPosition,
    NoHandInPlay,
    State,
    start_next_hand,
)
from domsim.rules import VARIANTS, RulesError, make_rules


def test_every_refusal_is_a_rules_error_and_a_value_error():
    """One hierarchy: make_rules' refusals and the core's are RulesErrors, old `except
    ValueError` callers keep catching them."""
    for kind in (IllegalMove, IllegalDraw, IllegalPass, NoHandInPlay, InvalidPosition):
        assert issubclass(kind, RulesError) and kind.__module__ == "domsim._core"
    assert RulesError is _core.RulesError and issubclass(RulesError, ValueError)
    with pytest.raises(RulesError, match="unknown variant 'nope'"):
        make_rules("nope")


def test_r_must_no_draw_or_pass_with_a_legal_play():
    """R-MUST: at the first move of a draw game the leader has plays: the core neither draws
    nor passes for it, and its state is untouched."""
    state = State(make_rules("draw", 2))
    start_next_hand(state, random.Random(1))
    assert state.legal_moves() and state.can_draw()
    before = snapshot(state)
    with pytest.raises(IllegalDraw, match="a draw while able to play"):
        state.draw()
    with pytest.raises(IllegalPass, match="a pass while able to play"):
        state.pass_turn()
    assert snapshot(state) == before


def test_r_must_a_stuck_seat_draws_before_it_passes():
    """R-MUST: seat 1 has no 6 and the boneyard a tile: it may not pass; once the boneyard is
    empty it may not draw."""
    state = position("draw", ["6-6 0-0", "1-2 3-4"], boneyard="0-1", moves="0:6-6")
    with pytest.raises(IllegalPass, match="a pass while able to draw"):
        state.pass_turn()
    assert state.draw() == tile("0-1")
    with pytest.raises(IllegalDraw, match="a draw with nothing to draw"):
        state.draw()
    state.pass_turn()
    assert Action.of(state.history[-1]).kind == PASS


def test_r_draw_then_play_no_draw_once_a_drawn_tile_fits():
    """R-DRAW-THEN-PLAY: seat 1 drew 5-6, which fits: a second draw is refused."""
    state = position("draw", ["6-6 1-1", "1-2 3-4"], boneyard="5-6 3-6", moves="0:6-6 1:draw")
    with pytest.raises(IllegalDraw, match="a draw while able to play"):
        state.draw()
    assert state.boneyard_left() == 1


def test_r_must_block_games_never_draw():
    """R-MUST: in block a stuck seat passes; a draw is refused even with undealt tiles."""
    state = position("block", ["6-6 0-0", "1-2 3-4"], boneyard="0-1", moves="0:6-6")
    with pytest.raises(IllegalDraw, match="a draw in a game that passes when stuck"):
        state.draw()
    state.pass_turn()


@pytest.mark.parametrize("move, words", [
    (tile("5-5") << 2 | 1, "seat 0 does not hold 5-5"),
    (tile("2-3") << 2 | 1, "2-3 does not fit end 1"),
    (28 << 2, "is not tile << 2 | end"),
])
def test_r_line_an_illegal_play_says_why(move, words):
    """R-LINE: a tile not held, or laid on an end it does not fit, is refused."""
    state = position("draw", ["0-0 0-1 2-3", "0-2 4-4"], moves="0:0-0 1:0-2@0")
    with pytest.raises(IllegalMove, match=words):
        state.play(move)


def test_r_lead_the_forced_lead_and_its_two_ways():
    """R-LEAD: the named lead must be led; a lead lies on end 0 (as written) or 1 (flipped)."""
    state = position("draw", ["6-6 2-3", "1-1"], lead="6-6")
    with pytest.raises(IllegalMove, match="the lead must be 6-6"):
        state.play(tile("2-3") << 2)
    with pytest.raises(IllegalMove, match="not 2"):
        state.play(tile("6-6") << 2 | 2)


def test_nothing_is_done_once_the_hand_is_over():
    state = position("draw", ["0-0", "1-1"], moves="0:0-0")
    assert state.hand_over
    for act, name in ((lambda: state.play(tile("1-1") << 2), "play"), (state.draw, "draw"),
                      (state.pass_turn, "pass"), (state.step_forced, "step")):
        with pytest.raises(NoHandInPlay, match=f"cannot {name}: no hand is in play"):
            act()


def test_a_hand_starts_only_after_the_last_from_a_deal_of_distinct_tiles():
    """R-DEAL: a deal holds each tile once; a hand starts once the last is over, the match
    undecided."""
    state = position("draw", ["0-0 1-2", "1-1"], moves="0:0-0")
    with pytest.raises(InvalidPosition, match="a hand is in play"):
        state.start_hand([hand("2-2"), hand("3-3")], [], 0)
    with pytest.raises(InvalidPosition, match="the deal holds a tile twice"):
        State(make_rules("draw", 2)).start_hand([hand("2-2 3-3"), hand("3-3")], [], 0)
    with pytest.raises(InvalidPosition, match="the deal holds a tile twice"):
        State(make_rules("draw", 2)).start_hand([hand("2-2"), hand("3-3")], tile_list("2-2"), 0)
    with pytest.raises(InvalidPosition, match="not a tile the leader holds"):
        State(make_rules("draw", 2)).start_hand([hand("2-2"), hand("3-3")], [], 1, tile("2-2"))
    over = position("classic", ["0-0", "1-1"], moves="0:0-0")
    assert over.match_over
    with pytest.raises(InvalidPosition, match="the match is over"):
        over.start_next_hand(random.Random(0))


def test_the_state_has_no_setters():
    """Every attribute is read-only: a position is built whole by from_position."""
    state = State(make_rules("draw", 2))
    for name in ("hands", "boneyard", "drawn", "to_move", "history", "scores", "carry"):
        with pytest.raises(AttributeError):
            setattr(state, name, getattr(state, name))


def _at_position(state: State, check_must: bool = True) -> State:
    """`state` rebuilt by from_position from what the referee holds now."""
    return State.from_position(
        state.rules, hands=state.hands, boneyard=state.boneyard, leader=state.leader,
        lead_tile=state.lead_tile, history=state.history,
        scores=[s - p for s, p in zip(state.scores, state.hand_points, strict=True)],
        carry=state.carry, hand_number=state.hand_number, check_must=check_must)


@pytest.mark.parametrize("name, players", CONFIGS)
def test_from_position_rebuilds_every_position_of_random_play(name, players):
    """A position taken at any point of a random hand rebuilds into the same state, with the
    same moves and the same continuation."""
    rng = random.Random(f"{name}{players}")
    checked = 0
    for _ in range(4):
        state = State(make_rules(name, players))
        start_next_hand(state, rng)
        while not state.hand_over:
            if rng.random() < 0.3:
                rebuilt = _at_position(state)
                fields = snapshot(rebuilt)
                # hand_results are the match's: a rebuilt match holds only this hand's.
                assert {**fields, "hand_results": []} == {**snapshot(state), "hand_results": []}
                assert rebuilt.legal_moves() == state.legal_moves()
                checked += 1
            if not state.step_forced():
                state.play(rng.choice(state.legal_moves()))
        assert snapshot(_at_position(state))["hand_points"] == state.hand_points
    assert checked >= 10


def _drawn_game() -> State:
    return position("draw", ["6-6 1-1", "1-2 3-4"], boneyard="0-1 5-6 3-6",
                    moves="0:6-6 1:draw 1:draw")


SIX_SIX = Action(PLAY, 0, tile("6-6")).bits


@pytest.mark.parametrize("change, words", [
    ({"hands": [hand("1-1")]}, "has 2 hands and 2 scores"),
    ({"scores": [100, 0]}, "scores run 0 up to the target"),
    ({"hands": [hand("1-1 0-1"), hand("1-2 3-4 0-1 5-6")]}, "the deal holds a tile twice"),
    ({"boneyard": tile_list("5-6 0-1 3-6")}, "history action 1: its tile is not the next"),
    ({"hands": [0, hand("1-2 3-4")], "boneyard": [],
      "history": [Action(PLAY, 0, tile("6-6")).bits, Action(PLAY, 0, tile("1-1"), 0).bits]},
     "history action 1: seat 0 acted but seat 1 is to move"),
    ({"hands": [hand("1-1"), hand("1-2 3-4")],
      "history": [SIX_SIX, Action(PASS, 1, 0, 0, 64).bits]},
     "history action 1: a pass while able to draw"),
    ({"hands": [hand("1-1"), hand("1-2 3-4 0-1")],
      "history": [SIX_SIX, Action(DRAW, 1, tile("0-1"), 0, 1).bits]},
     "history action 1: its open numbers are not those the ends showed"),
    ({"hands": [hand("1-1 6-6"), hand("1-2 3-4")], "history": [SIX_SIX]},
     "seat 0 holds a tile it played"),
    ({"history": [SIX_SIX, 3]}, "3 is not an action"),
])
def test_from_position_refuses_what_no_match_holds(change, words):
    """R-DEAL, R-MUST, R-VIEW: every tile in one place, each action by the seat to move and as
    the table then was, the scores an undecided match's."""
    state = _drawn_game()
    parts = {"hands": state.hands, "boneyard": state.boneyard, "history": state.history,
             "scores": [0, 0]}
    assert snapshot(State.from_position(state.rules, **parts)) == snapshot(state)
    with pytest.raises(InvalidPosition, match=words):
        State.from_position(state.rules, **{**parts, **change})


def test_from_position_without_check_must_accepts_an_imagined_draw():
    """R-MUST: a world a seat imagines may give a seat that drew a tile it could have played;
    only `check_must=False` accepts it."""
    state = _drawn_game()
    hands = [state.hands[0], state.hands[1] | hand("2-6")]
    parts = {"hands": hands, "boneyard": state.boneyard, "history": state.history}
    with pytest.raises(InvalidPosition, match="history action 1: a draw while able to play"):
        State.from_position(state.rules, **parts)
    world = State.from_position(state.rules, **parts, check_must=False)
    assert world.hands == hands and world.history == state.history


def test_kozel_dry_is_asked_of_the_core():
    """R-KOZEL: the scheme's facts come from the core: kozel's points count against the side,
    fives' do not."""
    assert make_rules("kozel").variant.points_against
    assert not any(make_rules(name).variant.points_against
                   for name in ("draw", "fives", "partnership", "classic"))
    assert State(make_rules("kozel")).won_dry is None
    assert State(make_rules("draw", 2)).won_dry is None


def test_fives_count_is_asked_of_the_core():
    """R-FIVES-COUNT: whether a play scores the count is the core's fact of the scheme: fives
    and allfives, no other variant; the State's rules say the same."""
    scoring = {name for name in VARIANTS if make_rules(name).variant.scores_count}
    assert scoring == {"fives", "allfives"}
    assert all(State(make_rules(name)).fives == (name in scoring) for name in VARIANTS)
    with pytest.raises(RulesError, match="unknown scoring scheme"):
        _core.scores_count("nope")


#: A comparison with a scheme's or variant's name ("draw" left out: it is also an action's kind).
NAME_TEST = re.compile(r"""(==|!=|\bin\b|\bcase\b) *[(\[{]?["'](basic|fives|allfives|classic|"""
                       r"""kozel|partnership|p1v1|partnership-1v1|block)["']""")


def test_no_module_asks_a_schemes_name_what_the_rules_say():
    """Issue 23: outside the rules' own definitions (domsim/rules.py) nothing in domsim/
    compares a variant's or scheme's name; it asks the core or `Rules` for the fact."""
    assert NAME_TEST.search('if make_rules(v).variant.scoring != "kozel":')
    assert NAME_TEST.search("if variant in ('fives', 'allfives'):")
    package = Path(domsim.__file__).parent
    found = [f"{path.relative_to(package)}:{number}: {line.strip()}"
             for path in sorted(package.rglob("*.py")) if path != package / "rules.py"
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if NAME_TEST.search(line)]
    assert found == []


def test_an_action_is_one_int_of_the_cores_encoding_both_ways():
    """Issue 23: Python writes and reads an action with the core's one encoder and decoder
    (the fields a kind carries read back as written), and an int no action has is refused,
    named, wherever it enters the core: `Action.of`, a view's history, a position's."""
    for seat in range(4):
        for tile_id in range(28):
            for action in (Action(PLAY, seat, tile_id, tile_id % 4),
                           Action(DRAW, seat, tile_id, 0, tile_id * 4 + seat),
                           Action(PASS, seat, 0, 0, 127 - tile_id)):
                assert Action.of(action.bits) == action
    assert len({Action(PLAY, 1, 5, end).bits for end in range(4)}) == 4
    state = _drawn_game()
    assert [Action.of(a).bits for a in state.history] == state.history
    for bits in (3, 28 << 4, 1 << 18):
        with pytest.raises(ValueError, match=f"{bits} is not an action of the engine's"):
            Action.of(bits)
    parts = {"seat": 0, "hand": tile_list("0-0 1-1"), "ends": [None, None], "hand_counts": [2, 2],
             "boneyard_count": 0, "can_draw": False, "scores": [0, 0], "carry": 0,
             "hand_number": 0, "leader": 0, "spinner": None, "end_counts": [],
             "legal": [tile("0-0") << 2, tile("1-1") << 2]}
    rules = make_rules("block", 2)
    assert _core.PlayerView.from_parts(rules, actions=[], **parts).history == ()
    with pytest.raises(ValueError, match="3 is not an action of the engine's encoding"):
        _core.PlayerView.from_parts(rules, actions=[3], **parts)
    with pytest.raises(ValueError, match="actions are by seats 0..1"):
        _core.PlayerView.from_parts(rules, actions=[Action(PASS, 3, 0, 0, 1).bits], **parts)
