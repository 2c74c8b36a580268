"""R-PARTNERSHIP with its options (capicu_bonus, count, fish, lead; R-DETAIL) on hand-made
positions, and the dry win."""

import pytest
from positions import ZERO_FISH_HANDS, ZERO_FISH_MOVES, position, rules_for, swapped

from domsim.record import match_result

# Seat 0 leads 1-2, seat 1 plays 2-3, seat 2 goes out with 3-4 (fits only the 3). Left: seat 0
# 6-6 (12), seat 1 5-5 (10), seat 3 0-0 + 0-1 (1): 23 in all, 11 on the losing team.
OUT = (["1-2 6-6", "2-3 5-5", "3-4", "0-0 0-1"], "0:1-2 1:2-3@1 2:3-4@1")
# The same, but seat 2 goes out with 1-3 on ends 1 and 3: a capicú.
CAPICU = (["1-2 6-6", "2-3 5-5", "1-3", "0-0 0-1"], "0:1-2 1:2-3@1 2:1-3@0")
# Lead 2-2, 2-3, 3-5 (seat 2 makes the fish), seats 3, 0, 1, 2 pass.
FISH_MOVES = "0:2-2 1:2-3@1 2:3-5@1 3:pass 0:pass 1:pass 2:pass"
# Team 0 keeps 1-1 + 6-6 = 14, team 1 4-4 + 0-6 + 1-6 = 21 (35 in all).
FISH = (["2-2 1-1", "2-3 4-4", "3-5 6-6", "0-6 1-6"], FISH_MOVES)
# Team 0 keeps 14, team 1 4-4 + 0-6 = 14.
EVEN = (["2-2 1-1", "2-3 4-4", "3-5 6-6", "0-6"], FISH_MOVES)
ZERO_FISH = (ZERO_FISH_HANDS, ZERO_FISH_MOVES)  # 63 against 63, seat 1 makes the fish
# 1-1 <-> 3-3: team 0 keeps 67, team 1 59 (126 in all).
ZERO_FISH_TEAM1_LIGHTER = (swapped(ZERO_FISH_HANDS, "1-1", "3-3"), ZERO_FISH_MOVES)
# 6-6 <-> 1-5: team 0 keeps 57, team 1 (the fish maker's) 69.
ZERO_FISH_MAKER_HEAVIER = (swapped(ZERO_FISH_HANDS, "6-6", "1-5"), ZERO_FISH_MOVES)


def result_of(deal, scores=None, **options):
    hands, moves = deal
    state = position(rules_for("partnership", 4, **options), hands, moves=moves, scores=scores)
    assert state.hand_over
    return state, state.hand_results[-1]


# -- going out --------------------------------------------------------------------------------
def test_r_partnership_going_out_scores_every_pip_left_partners_included():
    _, result = result_of(OUT)
    assert (result.end, result.winners, result.points) == ("domino", (0, 2), (23, 0))
    assert result.capicu is False


def test_r_partnership_count_losers_going_out_scores_only_the_losing_team():
    _, result = result_of(OUT, count="losers")
    assert result.points == (11, 0)


# -- blocked ----------------------------------------------------------------------------------
def test_r_partnership_blocked_lower_team_scores_all_pips():
    _, result = result_of(FISH)
    assert (result.end, result.winners, result.points) == ("blocked", (0, 2), (35, 0))


def test_r_partnership_blocked_count_losers():
    _, result = result_of(FISH, count="losers")
    assert result.points == (21, 0)


@pytest.mark.parametrize("deal", [EVEN, ZERO_FISH], ids=["reduced", "full-deal"])
def test_r_partnership_blocked_equal_teams_nobody_scores(deal):
    _, result = result_of(deal)
    assert (result.end, result.winners, result.points) == ("blocked", (), (0, 0))


def test_r_partnership_full_deal_block_lower_team():
    """R-PARTNERSHIP: all 28 dealt; team 1 (59) is lower than team 0 (67): it scores 126, or
    67 with count=losers."""
    _, result = result_of(ZERO_FISH_TEAM1_LIGHTER)
    assert (result.winners, result.points, result.maker) == ((1, 3), (0, 126), 1)
    _, result = result_of(ZERO_FISH_TEAM1_LIGHTER, count="losers")
    assert result.points == (0, 67)


# -- fish=maker -------------------------------------------------------------------------------
def test_r_partnership_fish_maker_heavier_team_still_takes_the_hand():
    """fish=maker (R-DETAIL): seat 1 made the fish; its team holds 69 against 57 and takes the
    hand anyway: 126 (count=all) or team 0's 57 (count=losers). fish=lower gives team 0 126."""
    _, result = result_of(ZERO_FISH_MAKER_HEAVIER, fish="maker")
    assert (result.winners, result.points) == ((1, 3), (0, 126))
    _, result = result_of(ZERO_FISH_MAKER_HEAVIER, fish="maker", count="losers")
    assert result.points == (0, 57)
    _, result = result_of(ZERO_FISH_MAKER_HEAVIER)
    assert (result.winners, result.points) == ((0, 2), (126, 0))


def test_r_partnership_fish_maker_equal_teams():
    """fish=maker (R-DETAIL): 63 against 63 goes to the maker's team (seat 1)."""
    _, result = result_of(ZERO_FISH, fish="maker")
    assert (result.winners, result.points) == ((1, 3), (0, 126))
    _, result = result_of(ZERO_FISH, fish="maker", count="losers")
    assert result.points == (0, 63)


def test_r_partnership_fish_maker_reduced_equal():
    """fish=maker: seat 2 made the fish with teams at 14 each: team 0 scores 28."""
    _, result = result_of(EVEN, fish="maker")
    assert (result.winners, result.points) == ((0, 2), (28, 0))


# -- capicú -----------------------------------------------------------------------------------
def test_r_partnership_capicu_bonus_paid_on_going_out():
    """R-DETAIL capicú: 1-3 on ends 1 and 3 is a non-double showing exactly the two different
    end numbers: 23 + 25."""
    _, result = result_of(CAPICU, capicu_bonus=25)
    assert (result.winners, result.points, result.capicu) == ((0, 2), (48, 0), True)


def test_r_partnership_capicu_bonus_also_with_count_losers():
    _, result = result_of(CAPICU, capicu_bonus=30, count="losers")
    assert result.points == (11 + 30, 0)


def test_r_partnership_capicu_noted_without_bonus_by_default():
    """R-PARTNERSHIP: the default bonus is 0, but the capicú is still noted for statistics."""
    _, result = result_of(CAPICU)
    assert (result.points, result.capicu) == ((23, 0), True)


def test_r_partnership_no_capicu_when_tile_fits_one_end_only():
    _, result = result_of(OUT, capicu_bonus=25)
    assert (result.points, result.capicu) == ((23, 0), False)


@pytest.mark.parametrize("last", ["1-4", "1-1"])
def test_r_partnership_no_capicu_when_ends_show_the_same_number(last):
    """R-DETAIL capicú: 1-2, 0-2, 0-1 leave both ends on 1; seat 3 goes out with 1-4 (fits
    both ends, but they show the same number) or the double 1-1: no bonus. Left: 6-6, 5-5,
    3-3 = 28 for team 1."""
    hands = ["1-2 6-6", "0-2 5-5", "0-1 3-3", last]
    _, result = result_of((hands, f"0:1-2 1:0-2@1 2:0-1@1 3:{last}@0"), capicu_bonus=25)
    assert (result.winners, result.points, result.capicu) == ((1, 3), (0, 28), False)


def test_r_partnership_no_capicu_bonus_on_a_block():
    """R-DETAIL capicú is paid only on going out: 2-5 on ends 2 and 5 that blocks the game."""
    hands = ["2-3 6-6", "3-5 4-4", "2-5 1-1", "0-6 1-6"]
    moves = "0:2-3 1:3-5@1 2:2-5@0 3:pass 0:pass 1:pass 2:pass"
    _, result = result_of((hands, moves), capicu_bonus=25)
    assert (result.end, result.winners, result.points) == ("blocked", (0, 2), (35, 0))
    assert result.capicu is False


# -- match ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("options", "before", "over"), [
    ({}, 76, False), ({}, 77, True),
    ({"target": 50}, 26, False), ({"target": 50}, 27, True),
    ({"target": 200}, 176, False), ({"target": 200}, 177, True),
])
def test_r_partnership_target(options, before, over):
    """R-PARTNERSHIP: target 100 (options 50, 200): team 0 adds 23."""
    state, _ = result_of(OUT, scores=[before, 40], **options)
    assert state.scores == [before + 23, 40]
    assert state.match_over is over
    assert state.match_winners == ((0, 2) if over else ())


@pytest.mark.parametrize(("losers_score", "dry"), [(0, True), (40, False)])
def test_r_partnership_dry_win(losers_score, dry):
    """R-PARTNERSHIP: a dry win is the match won while the other side has 0."""
    state, _ = result_of(OUT, scores=[90, losers_score])
    assert state.match_over
    assert match_result(state)["dry"] is dry


def test_r_partnership_defaults():
    rules = rules_for("partnership", 4)
    assert (rules.target, rules.capicu_bonus, rules.count, rules.fish, rules.lead) == (
        100, 0, "all", "lower", "winner")
    assert rules.hand_size == 7
    assert not rules.variant.draws
