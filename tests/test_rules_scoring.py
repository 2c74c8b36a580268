"""R-SCORE-BASIC (draw, block), R-CLASSIC and R-PARTNERSHIP-1V1 on hand-made positions."""

import pytest
from positions import position, rules_for

# Seat 0 leads 1-2, seat 1 plays 2-4, seat 0 goes out with 4-5; seat 1 keeps 6-6 + 0-3 = 15.
OUT_2P = (["1-2 4-5", "2-4 6-6 0-3"], "0:1-2 1:2-4@1 0:4-5@1")
# 3 players: 1-2, 2-5, 1-6, seat 0 out with 3-5; left 4-4 (8) and 0-4 (4).
OUT_3P = (["1-2 3-5", "2-5 4-4", "1-6 0-4"], "0:1-2 1:2-5 2:1-6 0:3-5")
# 4 players: as OUT_3P plus seat 3's 6-6; left 4-4 (8), 0-4 (4), 2-2 (4).
OUT_4P = (["1-2 3-5", "2-5 4-4", "1-6 0-4", "6-6 2-2"], "0:1-2 1:2-5 2:1-6 3:6-6@0 0:3-5")
# 3 players blocked: 5-5, 5-6, then three passes; left 0-1 (1), 2-2 (4), 3-3 + 4-4 (14).
BLOCK_3P = (["5-5 0-1", "5-6 2-2", "3-3 4-4"], "0:5-5 1:5-6@1 2:pass 0:pass 1:pass")
# 4 players blocked: left 6-6 (12), 5-5 (10), 0-3 + 4-4 (11), 3-3 (6).
BLOCK_4P = (["1-1 6-6", "1-2 5-5", "0-3 4-4", "3-3"],
            "0:1-1 1:1-2@0 2:pass 3:pass 0:pass 1:pass")
# Ties for lowest: 3 players left 0-3 (3), 1-2 (3), 4-4 (8).
TIE_3P = (["5-5 0-3", "5-6 1-2", "4-4"], "0:5-5 1:5-6@1 2:pass 0:pass 1:pass")
# 4 players left 0-4 (4), 2-2 (4), 6-6 (12), 5-5 (10).
TIE_4P = (["1-1 0-4", "1-3 2-2", "6-6", "5-5"], "0:1-1 1:1-3@1 2:pass 3:pass 0:pass 1:pass")


def result_of(variant, deal, **options):
    hands, moves = deal
    rules = rules_for(variant, len(hands), **options)
    state = position(rules, hands, moves=moves)
    assert state.hand_over
    return state, state.hand_results[-1]


# -- R-SCORE-BASIC ----------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["draw", "block"])
@pytest.mark.parametrize(("deal", "points"), [
    (OUT_2P, (15, 0)), (OUT_3P, (12, 0, 0)), (OUT_4P, (16, 0, 0, 0)),
])
def test_r_score_basic_going_out_scores_all_other_hands(variant, deal, points):
    _, result = result_of(variant, deal)
    assert (result.end, result.winners, result.points) == ("domino", (0,), points)
    assert result.scores == points


@pytest.mark.parametrize("variant", ["draw", "block"])
def test_r_score_basic_blocked_lowest_scores_others_minus_own_3_players(variant):
    """R-SCORE-BASIC: seat 0 (1) scores 4 + 14 - 1 = 17."""
    _, result = result_of(variant, BLOCK_3P)
    assert (result.end, result.winners, result.points) == ("blocked", (0,), (17, 0, 0))


@pytest.mark.parametrize("variant", ["draw", "block"])
def test_r_score_basic_blocked_lowest_scores_others_minus_own_4_players(variant):
    """R-SCORE-BASIC: seat 3 (6) scores 12 + 10 + 11 - 6 = 27."""
    _, result = result_of(variant, BLOCK_4P)
    assert (result.end, result.winners, result.points) == ("blocked", (3,), (0, 0, 0, 27))


@pytest.mark.parametrize("variant", ["draw", "block"])
@pytest.mark.parametrize("deal", [TIE_3P, TIE_4P], ids=["3p", "4p"])
def test_r_score_basic_tied_lowest_nobody_scores(variant, deal):
    state, result = result_of(variant, deal)
    assert (result.end, result.winners) == ("blocked", ())
    assert set(result.points) == {0}
    assert set(state.scores) == {0}


@pytest.mark.parametrize(("before", "over"), [(84, False), (85, True), (90, True)])
def test_r_score_basic_match_won_on_reaching_the_target(before, over):
    """R-SCORE-BASIC: target 100; 84 + 15 = 99 is short, 85 + 15 = 100 wins."""
    state = position("block", OUT_2P[0], moves=OUT_2P[1], scores=[before, 95])
    assert state.scores == [before + 15, 95]
    assert state.match_over is over
    assert state.match_winners == ((0,) if over else ())


@pytest.mark.parametrize(("before", "over"), [(184, False), (185, True)])
def test_r_score_basic_overridden_target(before, over):
    rules = rules_for("draw", 2, target=200)
    state = position(rules, OUT_2P[0], moves=OUT_2P[1], scores=[before, 150])
    assert state.match_over is over


def test_r_score_basic_other_seat_below_target_does_not_end_the_match():
    """R-SCORE-BASIC: seat 1 already holds 99 from earlier hands; seat 0 wins 15 to 20."""
    state = position("draw", OUT_2P[0], moves=OUT_2P[1], scores=[5, 99])
    assert not state.match_over


# -- R-CLASSIC --------------------------------------------------------------------------------
def test_r_classic_going_out_wins_no_points_one_hand():
    state, result = result_of("classic", OUT_2P)
    assert (result.end, result.winners) == ("domino", (0,))
    assert result.points == result.scores == (0, 0)
    assert state.match_over and state.match_winners == (0,)


def test_r_classic_blocked_lowest_wins():
    state, result = result_of("classic", BLOCK_3P)
    assert (result.end, result.winners, result.points) == ("blocked", (0,), (0, 0, 0))
    assert state.match_winners == (0,)


@pytest.mark.parametrize("deal", [TIE_3P, TIE_4P], ids=["3p", "4p"])
def test_r_classic_tie_for_lowest_is_a_shared_win(deal):
    state, result = result_of("classic", deal)
    assert sorted(result.winners) == [0, 1]
    assert set(result.points) == {0}
    assert state.match_over
    assert sorted(state.match_winners) == [0, 1]


def test_r_classic_single_hand_without_points():
    """R-CLASSIC / R-DETAIL: scores stay 0 for every seat; the game is over after one hand."""
    rules = rules_for("classic", 4)
    assert rules.target == 0
    state = position(rules, BLOCK_4P[0], moves=BLOCK_4P[1])
    assert state.scores == [0, 0, 0, 0]
    assert state.match_over and state.match_winners == (3,)


# -- R-PARTNERSHIP-1V1 ------------------------------------------------------------------------
def test_r_partnership_1v1_going_out_scores_the_opponents_hand():
    _, result = result_of("partnership-1v1", OUT_2P)
    assert (result.winners, result.points) == ((0,), (15, 0))


def test_r_partnership_1v1_blocked_lower_hand_scores_both_hands():
    """R-PARTNERSHIP-1V1: 1-2 (3) against 3-4 (7): seat 0 scores 3 + 7 = 10 (the block
    variant would give 7 - 3 = 4)."""
    deal = (["6-6 1-2", "3-4"], "0:6-6 1:pass 0:pass")
    _, result = result_of("partnership-1v1", deal)
    assert (result.end, result.winners, result.points) == ("blocked", (0,), (10, 0))
    _, basic = result_of("block", deal)
    assert basic.points == (4, 0)


def test_r_partnership_1v1_blocked_equal_nobody():
    deal = (["6-6 1-2", "0-3"], "0:6-6 1:pass 0:pass")
    _, result = result_of("partnership-1v1", deal)
    assert (result.winners, result.points) == ((), (0, 0))


def test_r_partnership_1v1_target_100():
    rules = rules_for("partnership-1v1")
    assert rules.target == 100
    state = position(rules, OUT_2P[0], moves=OUT_2P[1], scores=[85, 0])
    assert state.match_over and state.match_winners == (0,)
