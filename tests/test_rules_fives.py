"""R-FIVES, R-FIVES-COUNT, R-SPINNER and R-TARGET on hand-made positions."""

import pytest
from positions import apply, legal, position, rules_for

from domsim.engine import round_to_five
from domsim.insight import fives_score
from domsim.tiles import Tile
from domsim.view import Move, ViewBuilder


def view_of(state):
    return ViewBuilder().view(state, state.legal_moves())


# -- R-FIVES-COUNT ----------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["fives", "allfives"])
@pytest.mark.parametrize(("lead", "scored"), [
    ("5-5", 10), ("4-6", 10), ("2-3", 5), ("0-5", 5), ("6-6", 0), ("0-0", 0), ("1-2", 0),
])
def test_r_fives_count_lone_lead_counts_its_pips(variant, lead, scored):
    """R-FIVES-COUNT / R-SPINNER: the lead alone counts its pip total (a double once); 0 is not
    a positive multiple of 5."""
    state = position(variant, [f"{lead} 3-3", "1-1"], moves=f"0:{lead}")
    pips = sum(map(int, lead.split("-")))
    assert state.fives_count() == pips
    assert state.scores == [scored, 0]
    assert state.hand_points == [scored, 0]


def test_r_fives_count_lone_lead_still_counts_after_a_draw():
    """R-FIVES-COUNT: the count of the line does not change when seat 1 draws."""
    state = position("fives", ["5-5 3-3", "1-1"], boneyard="1-2 0-4", moves="0:5-5 1:draw")
    assert state.fives_count() == 10


def test_r_fives_count_same_tile_two_ends_different_totals():
    """R-FIVES-COUNT: 2-3 (5, seat 0), 3-4 (2+4 = 6), 4-4 on the 4 (2 + 8 = 10, seat 0),
    2-4 on the 2 (4 + 8 = 12). Now seat 0's 1-4 fits both 4s: on the plain 4 the double stays
    at the other end, 1 + 8 = 9; on the double, 4 + 1 = 5 scores."""
    state = position("fives", ["2-3 4-4 1-4 6-6", "3-4 2-4 0-0"],
                     moves="0:2-3 1:3-4@1 0:4-4@1 1:2-4@0")
    assert state.scores == [15, 0]
    assert state.fives_count() == 12
    assert legal(state) == ["1-4@0", "1-4@1"]
    plain = apply(state.copy(), "0:1-4@0")
    on_double = apply(state.copy(), "0:1-4@1")
    assert (plain.fives_count(), plain.scores) == (9, [15, 0])
    assert (on_double.fives_count(), on_double.scores) == (5, [20, 0])


def test_r_fives_count_double_at_an_end_counts_both_halves():
    """R-FIVES-COUNT (the GAME-RECORD example): 6-6 led counts 12; 5-6 on it 12 + 5 = 17;
    3-5 then 12 + 3 = 15 scores for seat 0."""
    state = position("fives", ["6-6 3-5 1-1", "5-6 0-0"], moves="0:6-6")
    assert (state.fives_count(), state.scores) == (12, [0, 0])
    apply(state, "1:5-6@1")
    assert (state.fives_count(), state.scores) == (17, [0, 0])
    apply(state, "0:3-5@1")
    assert (state.fives_count(), state.scores) == (15, [15, 0])


def test_r_fives_count_double_lead_in_fives():
    """R-FIVES-COUNT: 5-5 led scores 10; 5-0 on one side leaves the double at the other end:
    0 + 10 = 10 scores again; 5-3 covers the double: 0 + 3. No spinner: still two ends."""
    state = position("fives", ["5-5 5-3 6-6", "5-0 5-2 1-1"], moves="0:5-5 1:5-0@0 0:5-3@1")
    assert state.fives_count() == 3
    assert state.scores == [10, 10]
    assert state.n_ends == 2
    assert "2-5@2" not in legal(state) and legal(state) == []


def test_r_fives_count_end_of_hand_adds_rounded_hand_value_to_play_points():
    """R-FIVES: seat 0 made 5 with the lead 2-3 and goes out with 3-6 (2 + 6 = 8, nothing);
    seat 1 keeps 5-6 + 1-1 = 13 -> 15. The hand's points are 5 + 15."""
    state = position("fives", ["2-3 3-6", "5-6 1-1"], moves="0:2-3 1:pass 0:3-6")
    result = state.hand_results[-1]
    assert (result.end, result.winners, result.points) == ("domino", (0,), (20, 0))


# -- the count a move leaves, as a view reads it (R-FIVES-COUNT, R-SPINNER) --------------------
def test_r_fives_count_after_each_move_is_the_count_the_play_makes():
    """R-FIVES-COUNT: the position above as seat 0 sees it: 1-4 on the plain 4 leaves 1 + 8 = 9
    and ends 1|4, on the double 4 + 1 = 5 and ends 4|1; only the second scores (R-FIVES)."""
    state = position("fives", ["2-3 4-4 1-4 6-6", "3-4 2-4 0-0"],
                     moves="0:2-3 1:3-4@1 0:4-4@1 1:2-4@0")
    view = view_of(state)
    plain, on_double = view.legal_moves
    assert (view.count_after(plain), view.count_after(on_double)) == (9, 5)
    assert (view.ends_after(plain), view.ends_after(on_double)) == ((1, 4), (4, 1))
    assert [fives_score(view.count_after(m)) for m in view.legal_moves] == [0, 5]
    for move in view.legal_moves:
        played = apply(state.copy(), f"0:1-4@{move.end}")
        assert view.count_after(move) == played.fives_count()


@pytest.mark.parametrize("variant", ["fives", "allfives"])
def test_r_fives_count_after_a_lead_is_its_pips(variant):
    """R-FIVES-COUNT / R-SPINNER: a lead alone counts its pip total, a double once."""
    view = view_of(position(variant, ["5-5 4-6 2-3", "1-1"]))
    assert {str(m.tile): view.count_after(m) for m in view.legal_moves} == {
        "2-3": 5, "4-6": 10, "5-5": 10}


def test_r_fives_count_after_then_a_reply():
    """R-FIVES-COUNT: 3-3 led (ends 3 and 3, the double counting 6), seat 1 passed: 0-3 leaves
    0 + 6 and 0-4 on the 0 then makes 4 + 6 = 10; 3-4 leaves 4 + 6 and 4-4 on the 4 then makes
    8 + 6 = 14. A reply must fit the line the move leaves."""
    view = view_of(position("fives", ["3-3 3-4 0-3", "1-1 2-2"], moves="0:3-3 1:pass"))
    zero_three, three_four = Move(Tile(0, 3), 0), Move(Tile(3, 4), 0)
    assert (view.count_after(zero_three), view.count_after(three_four)) == (6, 10)
    assert view.count_after(zero_three, (Tile(0, 4), 0)) == 10
    assert view.count_after(three_four, Move(Tile(4, 4), 0)) == 14
    with pytest.raises(ValueError, match="the reply does not fit the line the move leaves"):
        view.count_after(zero_three, (Tile(4, 4), 0))
    with pytest.raises(ValueError, match="the move does not fit the line"):
        view.count_after(Move(Tile(1, 2), 0))


def test_r_spinner_count_after_short_sides():
    """R-SPINNER: with the spinner 5-5 closed (ends 0, 3 and the short sides 5, 5 counting
    nothing), 3-6 on the 3 leaves 0 + 6 = 6; 2-5 on a short side 0 + 3 + 2 = 5. Closing it, 5-3
    leaves 0 + 3: the short sides open counting nothing."""
    state = position("allfives", ["5-5 5-3 2-2 6-6", "5-0 5-2 3-6 1-1"], moves="0:5-5 1:5-0@0")
    assert view_of(state).count_after(Move(Tile(3, 5), 1)) == 3
    view = view_of(apply(state, "0:5-3@1"))
    assert [view.count_after(m) for m in view.legal_moves] == [6, 5, 5]
    assert view.count_after(Move(Tile(2, 5), 2), (Tile(2, 2), 2)) == 7


# -- rounding (R-FIVES, R-SPINNER) ------------------------------------------------------------
@pytest.mark.parametrize(("raw", "rounded"), [
    (0, 0), (1, 0), (2, 0), (3, 5), (4, 5), (5, 5), (11, 10), (12, 10), (13, 15), (14, 15),
    (15, 15), (96, 95), (98, 100),
])
def test_r_fives_rounding_to_nearest_five(raw, rounded):
    assert round_to_five(raw) == rounded


@pytest.mark.parametrize(("count", "points"), [(0, 0), (3, 0), (5, 5), (12, 0), (15, 15),
                                                (20, 20), (24, 0)])
def test_r_fives_a_count_scores_when_a_multiple_of_five(count, points):
    """R-FIVES: a play scores the count it leaves when that is a positive multiple of 5."""
    assert fives_score(count) == points


@pytest.mark.parametrize(("other", "rounded"), [
    ("0-1", 0), ("0-2", 0), ("0-3", 5), ("0-4", 5), ("5-6", 10), ("6-6", 10),
    ("6-6 0-1", 15), ("6-6 0-2", 15), ("6-6 0-3", 15),
])
def test_r_fives_going_out_scores_other_hand_rounded(other, rounded):
    """R-FIVES: seat 0 leads its only tile 0-0 (count 0) and is out at once."""
    state = position("fives", ["0-0", other], moves="0:0-0")
    result = state.hand_results[-1]
    assert (result.end, result.winners, result.points) == ("domino", (0,), (rounded, 0))


@pytest.mark.parametrize(("other", "rounded"), [
    ("1-2", 0), ("2-5 1-3", 10), ("4-5 0-4", 10), ("4-5 1-4", 15),
])
def test_r_fives_blocked_scores_the_difference_rounded(other, rounded):
    """R-FIVES: seat 0 keeps 0-1 (1); seat 1 keeps 3, 11, 13 or 14: differences 2, 10, 12, 13."""
    state = position("fives", ["6-6 0-1", other], moves="0:6-6 1:pass 0:pass")
    result = state.hand_results[-1]
    assert (result.end, result.winners, result.points) == ("blocked", (0,), (rounded, 0))


def test_r_fives_tied_block_nobody_scores():
    state = position("fives", ["6-6 1-2", "0-3"], moves="0:6-6 1:pass 0:pass")
    result = state.hand_results[-1]
    assert (result.winners, result.points) == ((), (0, 0))


def test_r_spinner_end_of_hand_three_players_as_basic_rounded():
    """R-SPINNER: allfives with 3 players: out scores the sum of the other hands, 12 + 1 = 13
    -> 15; blocked, the lowest scores the others minus its own, rounded."""
    state = position("allfives", ["0-0", "6-6", "0-1 2-2"], moves="0:0-0")
    assert state.hand_results[-1].points == (15, 0, 0)
    state = position("allfives", ["6-6 0-1", "1-2", "3-4 2-2"],
                     moves="0:6-6 1:pass 2:pass 0:pass")
    # 3 + 11 - 1 = 13 -> 15 (the lead 6-6 counted 12: nothing)
    assert state.hand_results[-1].points == (15, 0, 0)


# -- R-SPINNER --------------------------------------------------------------------------------
def test_r_spinner_double_lead_becomes_the_spinner():
    """R-SPINNER: 5-5 led scores 10; 5-0 on one long side: the spinner still counts both halves,
    0 + 10 = 10; 5-3 on the other long side closes it: 0 + 3, and the short sides open, counting
    nothing; 5-2 on a short side: 0 + 3 + 2 = 5; 2-2 on it counts both halves: 0 + 3 + 4 = 7;
    3-6 on the 3: 0 + 6 + 4 = 10."""
    state = position("allfives", ["5-5 5-3 2-2 6-6", "5-0 5-2 3-6 1-1"], moves="0:5-5")
    assert state.scores == [10, 0]
    apply(state, "1:5-0@0")
    assert (state.fives_count(), state.scores, state.n_ends) == (10, [10, 10], 2)
    assert legal(state) == ["3-5@1"]  # short sides closed while a long side is empty
    apply(state, "0:5-3@1")
    assert (state.fives_count(), state.scores, state.n_ends) == (3, [10, 10], 4)
    assert state.ends == [0, 3, 5, 5]
    assert legal(state) == ["2-5@2", "2-5@3", "3-6@1"]
    apply(state, "1:5-2@2")
    assert (state.fives_count(), state.scores) == (5, [10, 15])
    apply(state, "0:2-2@2")
    assert (state.fives_count(), state.scores) == (7, [10, 15])
    apply(state, "1:3-6@1")
    assert (state.fives_count(), state.scores) == (10, [10, 25])
    assert state.spinner_number() == 5


def test_r_spinner_first_double_not_led_becomes_the_spinner():
    """R-SPINNER: 3-5 led (8); 5-5 on the 5: 3 + 10 = 13; 5-2 on the spinner's open long side
    closes it: 3 + 2 = 5 for seat 0 and the short sides open; 5-0 on a short side: 3+2+0 = 5."""
    state = position("allfives", ["3-5 5-2 1-1", "5-5 5-0 6-6"], moves="0:3-5 1:5-5@1")
    assert (state.fives_count(), state.n_ends) == (13, 2)
    assert state.spinner_number() == 5
    apply(state, "0:5-2@1")
    assert (state.fives_count(), state.scores, state.n_ends) == (5, [5, 0], 4)
    assert state.ends == [3, 2, 5, 5]
    assert legal(state) == ["0-5@2", "0-5@3"]
    apply(state, "1:0-5@3")
    assert (state.fives_count(), state.scores) == (5, [5, 5])


def test_r_spinner_on_end_0():
    """R-SPINNER: 3-5 led; 3-3 on the 3 (end 0) spins: 6 + 5 = 11; 0-3 on its open long side:
    0 + 5 = 5 for seat 0, the short sides open on 3; 3-4 on one: 0 + 5 + 4 = 9."""
    state = position("allfives", ["3-5 0-3 1-1", "3-3 3-4 6-6"], moves="0:3-5 1:3-3@0")
    assert (state.fives_count(), state.n_ends, state.spinner_number()) == (11, 2, 3)
    assert legal(state) == ["0-3@0"]
    apply(state, "0:0-3@0")
    assert (state.fives_count(), state.scores, state.ends) == (5, [5, 0], [0, 5, 3, 3])
    apply(state, "1:3-4@2")
    assert (state.fives_count(), state.scores) == (9, [5, 0])


def test_r_spinner_only_the_first_double_spins():
    """R-SPINNER: 5-5 is the spinner; 3-3 played later is an ordinary double: 3-1 on it does not
    open any side (the spinner's own outer long side is still empty)."""
    state = position("allfives", ["3-5 3-3 3-1 4-4", "5-5 6-6 0-0"],
                     moves="0:3-5 1:5-5@1 0:3-3@0 1:pass 0:3-1@0")
    assert state.spinner_number() == 5
    assert state.n_ends == 2
    assert state.fives_count() == 1 + 10


def test_r_spinner_none_in_fives():
    """R-LINE / R-FIVES: fives has no spinner: the same plays leave two ends."""
    state = position("fives", ["3-5 5-2 1-1", "5-5 5-0 6-6"], moves="0:3-5 1:5-5@1 0:5-2@1")
    assert (state.fives_count(), state.scores, state.n_ends) == (5, [5, 0], 2)
    assert state.spinner_number() == -1


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (4, 5)])
def test_r_spinner_hand_sizes(players, size):
    assert rules_for("allfives", players).hand_size == size


# -- R-TARGET ---------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["fives", "allfives"])
def test_r_target_reached_mid_hand_ends_match_at_once(variant):
    """R-TARGET: seat 0 at 145 leads 2-3 (5): 150, the match is over, seat 1 never moves."""
    state = position(variant, ["2-3 6-6", "1-1"], moves="0:2-3", scores=[145, 0])
    result = state.hand_results[-1]
    assert state.hand_over and state.match_over
    assert (result.end, result.winners, result.points, result.scores) == (
        "target", (0,), (5, 0), (150, 0))
    assert state.match_winners == (0,)


def test_r_target_play_that_also_empties_the_hand_scores_nothing_more():
    """R-TARGET: seat 0's last tile 2-3 makes 5 (150) and empties its hand: the end is
    "target" and seat 1's 6-6 (12 -> 10) is not added."""
    state = position("fives", ["2-3", "6-6"], moves="0:2-3", scores=[145, 0])
    result = state.hand_results[-1]
    assert (result.end, result.winners, result.points) == ("target", (0,), (5, 0))
    assert state.scores == [150, 0]


def test_r_target_below_target_the_same_play_scores_domino_points():
    state = position("fives", ["2-3", "6-6"], moves="0:2-3", scores=[100, 0])
    result = state.hand_results[-1]
    assert (result.end, result.points) == ("domino", (15, 0))
    assert not state.match_over


def test_r_target_allfives_three_players_mid_hand():
    """R-TARGET / R-SPINNER: 1-2 led (3); seat 1's 2-2 on the 2 becomes the spinner: 1 + 4 = 5,
    seat 1 reaches 150; seat 2 never moves."""
    state = position("allfives", ["1-2 6-6", "2-2 0-0", "3-3 4-4"], moves="0:1-2 1:2-2@1",
                     scores=[0, 145, 0])
    result = state.hand_results[-1]
    assert (result.end, result.winners, result.points) == ("target", (1,), (0, 5, 0))
    assert state.match_winners == (1,)


@pytest.mark.parametrize("variant", ["fives", "allfives"])
def test_r_target_reached_by_end_of_hand_points(variant):
    """R-FIVES: 140 + the other hand's 5-5 (10) = 150 at going out also wins (end "domino")."""
    state = position(variant, ["0-0", "5-5"], moves="0:0-0", scores=[140, 0])
    assert state.hand_results[-1].end == "domino"
    assert state.match_over and state.match_winners == (0,)


@pytest.mark.parametrize("variant", ["fives", "allfives"])
def test_r_target_option_moves_the_target(variant):
    rules = rules_for(variant, 2, target=200)
    state = position(rules, ["2-3 6-6", "1-1"], moves="0:2-3", scores=[145, 0])
    assert not state.hand_over and not state.match_over
    state = position(rules, ["2-3 6-6", "1-1"], moves="0:2-3", scores=[195, 0])
    assert state.match_over and state.hand_results[-1].end == "target"


@pytest.mark.parametrize("variant", ["fives", "allfives"])
def test_r_fives_default_target_150(variant):
    assert rules_for(variant, 2).target == 150
