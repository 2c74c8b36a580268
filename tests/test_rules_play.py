"""R-LINE, R-MUST, R-DRAW-THEN-PLAY, R-END, R-BLOCK-PASSES on hand-made positions."""

import pytest
from positions import apply, hand, legal, position

from domsim.engine import DRAW, PASS, PLAY
from domsim.engine.state import Action
from domsim.record import RecordError, replay_steps


def kinds(state) -> list[int]:
    return [Action.of(a).kind for a in state.history]


# -- R-LINE -----------------------------------------------------------------------------------
def test_r_line_lead_ends_are_its_two_numbers_as_written():
    state = position("draw", ["3-5 0-0", "1-1"], moves="0:5-3")
    assert state.ends[:state.n_ends] == [5, 3]


def test_r_line_attach_covers_touching_number_and_double_keeps_it():
    state = position("draw", ["3-5 6-6 0-0", "5-6 1-1"], moves="0:3-5 1:5-6@1")
    assert state.ends[:2] == [3, 6]
    apply(state, "0:6-6@1")
    assert state.ends[:2] == [3, 6]


def test_r_line_same_number_on_two_ends_gives_two_moves():
    """R-LINE: after the lead 6-6 both ends show 6; 2-6 at end 0 and at end 1 are two moves."""
    state = position("fives", ["6-6 0-0", "2-6 1-1"], moves="0:6-6")
    assert legal(state) == ["2-6@0", "2-6@1"]


def test_r_line_tile_fitting_two_different_ends_is_two_moves_with_different_lines():
    state = position("draw", ["3-1 3-5 0-0", "1-5 2-2"], moves="0:3-1 1:1-5@1")
    assert state.ends[:2] == [3, 5]
    assert legal(state) == ["3-5@0", "3-5@1"]
    at0 = apply(state.copy(), "0:3-5@0")
    at1 = apply(state.copy(), "0:3-5@1")
    assert at0.ends[:2] == [5, 5]
    assert at1.ends[:2] == [3, 3]


@pytest.mark.parametrize("variant", ["draw", "block", "fives", "classic", "partnership-1v1"])
def test_r_line_without_spinner_two_ends_and_doubles_do_not_branch(variant):
    """R-LINE: 5-5 with tiles on both sides still leaves two ends; 5-3 no longer fits."""
    state = position(variant, ["5-5 5-2 5-3", "5-1 6-6"], moves="0:5-5 1:5-1@0 0:5-2@1")
    assert state.n_ends == 2
    assert state.ends[:2] == [1, 2]
    assert state.playable_mask(0) == 0  # seat 0's 5-3: the 5s are covered, no short sides


# -- R-MUST -----------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["draw", "fives", "classic", "partnership-1v1", "block"])
def test_r_must_no_voluntary_draw_or_pass(variant):
    """R-MUST: seat 1 holds 6-2, which fits: the referee neither draws nor passes for it."""
    state = position(variant, ["6-6 0-0", "6-2 1-1"], boneyard="3-4 4-5", moves="0:6-6")
    assert state.step_forced() is False
    assert kinds(state) == [PLAY]
    assert state.boneyard_left() == 2
    assert legal(state) == ["2-6@0", "2-6@1"]


@pytest.mark.parametrize("variant", ["draw", "fives", "allfives", "classic", "partnership-1v1"])
def test_r_must_draw_until_a_tile_fits_then_play(variant):
    """R-MUST / R-DRAW-THEN-PLAY: seat 1 draws 0-1, 2-5, then 5-6 fits; it must play (either
    end of the double), although 3-6 is still in the boneyard."""
    state = position(variant, ["6-6 1-1", "1-2 3-4"], boneyard="0-1 2-5 5-6 3-6",
                     moves="0:6-6")
    for _ in range(3):
        assert state.step_forced() is True
    assert kinds(state) == [PLAY, DRAW, DRAW, DRAW]
    assert state.hands[1] == hand("1-2 3-4 0-1 2-5 5-6")
    assert state.step_forced() is False  # R-DRAW-THEN-PLAY: no fourth draw
    assert state.can_draw() and state.boneyard_left() == 1
    assert legal(state) == ["5-6@0", "5-6@1"]


def test_r_draw_then_play_replay_refuses_a_draw_after_a_fitting_tile():
    """R-DRAW-THEN-PLAY: a record where seat 1 draws again after drawing 5-6 is illegal."""
    record = {
        "format": "domsim-game/1", "variant": "draw", "players": 2, "seed": 0,
        "hands": [{
            "deal": {
                "hands": [["6-6", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5"],
                          ["1-1", "1-2", "1-3", "1-4", "2-2", "2-3", "2-4"]],
                "boneyard": ["5-6", "0-6", "1-5", "1-6", "2-5", "2-6", "3-3", "3-4", "3-5",
                             "3-6", "4-4", "4-5", "4-6", "5-5"],
            },
            "leader": 0,
            "actions": [{"seat": 0, "play": "6-6"}, {"seat": 1, "draw": "5-6"},
                        {"seat": 1, "draw": "0-6"}],
        }],
    }
    steps = replay_steps(record, 0)
    for _ in range(3):  # the hand start, the lead, the first draw
        next(steps)
    with pytest.raises(RecordError, match="draw while able to play"):
        next(steps)


def test_r_must_whole_boneyard_may_be_drawn():
    """R-MUST: nothing is held back: the last boneyard tile is drawn and played."""
    state = position("draw", ["6-6 1-1", "1-2"], boneyard="0-1 0-2 4-6", moves="0:6-6")
    apply(state, "1:draw 1:draw 1:draw")
    assert state.boneyard_left() == 0
    assert legal(state) == ["4-6@0", "4-6@1"]


def test_r_must_empty_boneyard_draw_game_passes():
    state = position("draw", ["6-6 1-1", "1-2 0-0"], moves="0:6-6")
    assert state.step_forced() is True
    assert kinds(state) == [PLAY, PASS]
    assert state.to_move == 0


def test_r_must_draws_boneyard_dry_then_passes():
    state = position("fives", ["6-6 1-1", "1-2"], boneyard="0-1 0-2", moves="0:6-6")
    while state.to_move == 1:
        state.step_forced()
    assert kinds(state) == [PLAY, DRAW, DRAW, PASS]
    assert state.hands[1] == hand("1-2 0-1 0-2")


@pytest.mark.parametrize(("variant", "hands"), [
    ("kozel", ["6-6 1-1", "1-2 0-0", "3-3", "4-4"]),
    ("partnership", ["6-6 1-1", "1-2 0-0", "3-3", "4-4"]),
    ("block", ["6-6 1-1", "1-2 0-0", "3-3"]),
])
def test_r_must_pass_games_pass_when_stuck(variant, hands):
    state = position(variant, hands, moves="0:6-6")
    assert state.step_forced() is True
    assert kinds(state) == [PLAY, PASS]
    assert state.hands[1] == hand("1-2 0-0")


def test_r_must_draws_and_passes_record_the_open_numbers():
    """R-MUST: every seat learns from a draw or pass that the seat lacked the open numbers."""
    state = position("draw", ["3-5 1-1", "1-2 0-0 6-6"], boneyard="0-4", moves="0:3-5")
    apply(state, "1:draw 1:pass")
    draw, passed = state.history[1:]
    assert Action.of(draw)[:2] == (DRAW, 1) and Action.of(passed)[:2] == (PASS, 1)
    assert Action.of(draw).open_numbers == Action.of(passed).open_numbers == 1 << 3 | 1 << 5


# -- R-END / R-BLOCK-PASSES -------------------------------------------------------------------
def test_r_end_going_out_ends_the_hand_at_once():
    state = position("block", ["1-2 4-5", "2-4 6-6"], moves="0:1-2 1:2-4@1 0:4-5@1")
    result = state.hand_results[-1]
    assert state.hand_over
    assert (result.end, result.winners, result.maker) == ("domino", (0,), 0)
    assert result.points == (12, 0)


def test_r_block_passes_two_players_includes_the_makers_own_pass():
    """R-BLOCK-PASSES: seat 0 plays 6-6, seat 1 passes: not yet blocked; seat 0 (the fish
    maker) passes too: blocked after 2 passes, both in the history."""
    state = position("block", ["6-6 0-1", "1-2"], moves="0:6-6 1:pass")
    assert not state.hand_over
    apply(state, "0:pass")
    result = state.hand_results[-1]
    assert (result.end, result.maker) == ("blocked", 0)
    assert kinds(state) == [PLAY, PASS, PASS]


def test_r_block_passes_four_players_needs_four_passes():
    """R-BLOCK-PASSES / R-SCORE-BASIC: after seat 1's 1-2, seats 2, 3, 0 pass (not blocked);
    seat 1's own pass blocks. Hands: 6-6 = 12, 5-5 = 10, 0-3 + 4-4 = 11, 3-3 = 6; seat 3 is
    lowest and scores 12 + 10 + 11 - 6 = 27."""
    state = position("block", ["1-1 6-6", "1-2 5-5", "0-3 4-4", "3-3"],
                     moves="0:1-1 1:1-2@0 2:pass 3:pass 0:pass")
    assert not state.hand_over
    apply(state, "1:pass")
    result = state.hand_results[-1]
    assert (result.end, result.maker, result.winners) == ("blocked", 1, (3,))
    assert result.points == (0, 0, 0, 27)
    assert kinds(state)[-4:] == [PASS] * 4


def test_r_block_passes_draw_game_draws_dry_first_and_that_changes_the_winner():
    """R-END / R-BLOCK-PASSES / R-SCORE-BASIC: seat 1 (0-3, 3 pips) draws 1-2 and 0-4 before
    passing, so it ends on 10 and seat 0 (2-4, 6) is the lower hand: 10 - 6 = 4. Without the
    draws seat 1 would have won."""
    state = position("draw", ["6-6 2-4", "0-3"], boneyard="1-2 0-4",
                     moves="0:6-6 1:draw 1:draw 1:pass 0:pass")
    result = state.hand_results[-1]
    assert kinds(state) == [PLAY, DRAW, DRAW, PASS, PASS]
    assert (result.end, result.winners, result.points) == ("blocked", (0,), (4, 0))


def test_r_block_passes_three_player_draw_game():
    """R-BLOCK-PASSES: 3 players, draw rules: seat 2 draws the last tile 0-2, then seats 2, 0
    and 1 (the maker) pass. Hands 0-1 (1), 2-2 (4), 3-4 + 0-2 (9): seat 0 scores 4 + 9 - 1."""
    state = position("draw", ["5-5 0-1", "5-6 2-2", "3-4"], boneyard="0-2",
                     moves="0:5-5 1:5-6@1 2:draw 2:pass 0:pass")
    assert not state.hand_over
    apply(state, "1:pass")
    result = state.hand_results[-1]
    assert kinds(state)[-3:] == [PASS, PASS, PASS]
    assert (result.end, result.maker, result.winners) == ("blocked", 1, (0,))
    assert result.points == (12, 0, 0)
