"""R-KOZEL and R-KOZEL-25: losers record, fish, eggs carried, goats at 101, dry goats."""

import re

import pytest
from positions import ZERO_FISH_HANDS, ZERO_FISH_MOVES, next_hand, position, rules_for, swapped

from domsim.engine import next_leader
from domsim.record import match_result

# Seat 0 leads 1-2, seat 1 plays 2-3, seat 2 goes out with 3-4. Team 1 keeps 5-5 (seat 1) and
# 0-0 + 0-1 (seat 3, 1 pip: a hand with 0-0 and more is not R-KOZEL-25): 11. Seat 0's 6-6 is
# on the winning side and not counted.
OUT = (["1-2 6-6", "2-3 5-5", "3-4", "0-0 0-1"], "0:1-2 1:2-3@1 2:3-4@1")
# Lead 2-2, 2-3, 3-5 (seat 2 makes the fish), then seats 3, 0, 1, 2 pass.
FISH_MOVES = "0:2-2 1:2-3@1 2:3-5@1 3:pass 0:pass 1:pass 2:pass"
# Team 0 keeps 1-1 + 6-6 = 14, team 1 4-4 + 0-6 + 1-6 = 21.
FISH = (["2-2 1-1", "2-3 4-4", "3-5 6-6", "0-6 1-6"], FISH_MOVES)
# Eggs: team 0 keeps 1-1 + 6-6 = 14, team 1 4-4 + 0-6 = 14.
EGGS = (["2-2 1-1", "2-3 4-4", "3-5 6-6", "0-6"], FISH_MOVES)


def rotated(deal, k: int):
    """The same hand played with every seat moved k places on (leader 0 becomes seat k)."""
    hands, moves = deal
    turned = [hands[(s - k) % 4] for s in range(4)]
    return turned, re.sub(r"(\d):", lambda m: f"{(int(m[1]) + k) % 4}:", moves)


def kozel(deal, leader=0, **kwargs):
    hands, moves = deal
    return position(rules_for("kozel", 4), hands, leader=leader, moves=moves, **kwargs)


def play_next(state, deal, k):
    """Play `deal` rotated by k as the next hand; k must put the lead where the rules say."""
    assert next_leader(state) == k
    hands, moves = rotated(deal, k)
    return next_hand(state, hands, leader=k, moves=moves)


def test_r_kozel_going_out_other_team_records_both_its_hands():
    state = kozel(OUT)
    result = state.hand_results[-1]
    assert (result.end, result.winners, result.maker) == ("domino", (0, 2), 2)
    assert result.points == (0, 11)
    assert state.scores == [0, 11]


def test_r_kozel_25_lone_0_0_counts_25_going_out():
    """R-KOZEL-25: seat 3 holds only 0-0: team 1 records 10 + 25."""
    state = kozel((["1-2 6-6", "2-3 5-5", "3-4", "0-0"], OUT[1]))
    assert state.hand_results[-1].points == (0, 35)


def test_r_kozel_fish_lighter_team_wins_heavier_records_its_sum():
    state = kozel(FISH)
    result = state.hand_results[-1]
    assert (result.end, result.winners, result.maker) == ("blocked", (0, 2), 2)
    assert result.points == (0, 21)


def test_r_kozel_25_in_fish_sums():
    """R-KOZEL-25: seat 0 ends on 0-0 alone (25) + seat 2's 1-1 (2) = 27 against team 1's
    4-4 + 0-6 + 1-6 = 21: team 0 is heavier (by pips it would hold 2) and records 27."""
    state = kozel((["2-2 0-0", "2-3 4-4", "3-5 1-1", "0-6 1-6"], FISH_MOVES))
    result = state.hand_results[-1]
    assert (result.winners, result.points) == ((1, 3), (27, 0))


def test_r_kozel_full_deal_fish_eggs():
    """R-KOZEL: all 28 dealt; both teams hold 63 after the block on 0: eggs, nobody records,
    63 is carried."""
    state = kozel((ZERO_FISH_HANDS, ZERO_FISH_MOVES))
    result = state.hand_results[-1]
    assert (result.end, result.winners, result.maker) == ("blocked", (), 1)
    assert (result.points, result.carry) == ((0, 0), 63)
    assert state.scores == [0, 0]


def test_r_kozel_full_deal_fish_heavier_team_records():
    """R-KOZEL: 1-1 and 3-3 swapped: team 0 holds 63 - 2 + 6 = 67, team 1 59."""
    state = kozel((swapped(ZERO_FISH_HANDS, "1-1", "3-3"), ZERO_FISH_MOVES))
    result = state.hand_results[-1]
    assert (result.winners, result.points, result.carry) == ((1, 3), (67, 0), 0)


def test_r_kozel_eggs_carried_to_the_next_losers_going_out():
    """R-KOZEL: eggs at 14; next hand (led by the fish maker, seat 2) team 1 loses 11 and
    records 11 + 14 = 25; the carry is spent."""
    state = kozel(EGGS)
    assert (state.hand_results[-1].points, state.carry) == ((0, 0), 14)
    play_next(state, OUT, 2)
    result = state.hand_results[-1]
    assert (result.winners, result.points, result.carry) == ((0, 2), (0, 25), 0)
    assert state.scores == [0, 25]


def test_r_kozel_eggs_carried_to_the_next_losers_in_a_fish():
    """R-KOZEL: eggs at 14, then a fish where team 1 is heavier with 21: it records 35."""
    state = kozel(EGGS)
    play_next(state, FISH, 2)
    assert state.hand_results[-1].points == (0, 35)


def test_r_kozel_eggs_accumulate_over_consecutive_eggs():
    """R-KOZEL: eggs at 14, eggs again at 63 (carry 77), then team 0 loses a hand with 11 in
    its hands: it records 11 + 77 = 88."""
    state = kozel(EGGS)
    play_next(state, (ZERO_FISH_HANDS, ZERO_FISH_MOVES), 2)
    assert (state.hand_results[-1].carry, state.carry) == (77, 77)
    assert state.scores == [0, 0]
    play_next(state, OUT, 3)  # seat 1 (team 1) goes out
    result = state.hand_results[-1]
    assert (result.winners, result.points, result.carry) == ((1, 3), (88, 0), 0)


@pytest.mark.parametrize(("before", "over"), [(89, False), (90, True), (95, True)])
def test_r_kozel_goats_at_101(before, over):
    """R-KOZEL: team 0 records 11; 89 + 11 = 100 plays on, 90 + 11 = 101 loses the match."""
    hands, moves = rotated(OUT, 1)
    state = kozel((hands, moves), leader=1, scores=[before, 30])
    assert state.scores == [before + 11, 30]
    assert state.match_over is over
    assert state.match_winners == ((1, 3) if over else ())


def test_r_kozel_target_option_moves_the_goats_threshold():
    """R-DETAIL: kozel's target moves the losing threshold: 39 + 11 = 50 loses at target 50."""
    hands, moves = rotated(OUT, 1)
    rules = rules_for("kozel", 4, target=50)
    state = position(rules, hands, leader=1, moves=moves, scores=[39, 0])
    assert state.match_over and state.match_winners == (1, 3)
    state = position(rules_for("kozel", 4), hands, leader=1, moves=moves, scores=[39, 0])
    assert not state.match_over


@pytest.mark.parametrize(("winners_score", "dry"), [(0, True), (30, False)])
def test_r_kozel_dry_goat_flag(winners_score, dry):
    """R-KOZEL: losing while the winners still have 0 is a dry goat."""
    hands, moves = rotated(OUT, 1)
    state = kozel((hands, moves), leader=1, scores=[95, winners_score])
    assert state.match_over
    assert match_result(state)["dry"] is dry
