"""R-SET, R-SEAT, R-DEAL, R-LEAD (first and later hands), R-LEAD-DEALT, R-LEAD-WINNER, lead=fid."""

import random
from collections import Counter

import pytest
from positions import hand, legal, position, rules_for, tile

from domsim.engine import PASS, State, deal, first_lead, next_leader, start_next_hand
from domsim.engine.state import Action
from domsim.tiles import IS_DOUBLE, N_TILES, NUMBER_MASK, PIPS, TILE_A, TILE_B, heaviness, mask_pips


# -- R-SET ------------------------------------------------------------------------------------
def test_r_set_28_tiles_each_pair_once_7_doubles():
    pairs = {(TILE_A[t], TILE_B[t]) for t in range(N_TILES)}
    assert pairs == {(a, b) for a in range(7) for b in range(7) if a <= b}
    assert len(pairs) == N_TILES == 28
    assert sum(IS_DOUBLE) == 7


def test_r_set_values_and_every_number_on_7_tiles():
    assert PIPS[tile("6-6")] == 12
    assert PIPS[tile("2-5")] == 7
    assert mask_pips(hand("6-6 1-5 0-3")) == 12 + 6 + 3
    assert [bin(NUMBER_MASK[n]).count("1") for n in range(7)] == [7] * 7


def test_r_set_heaviest_tile_ties_broken_by_larger_half():
    assert heaviness(tile("3-6")) > heaviness(tile("4-5"))
    assert heaviness(tile("0-6")) > heaviness(tile("1-5")) > heaviness(tile("2-4"))
    assert heaviness(tile("1-5")) > heaviness(tile("3-3"))


# -- R-SEAT -----------------------------------------------------------------------------------
def test_r_seat_turns_pass_upward_and_wrap():
    """R-SEAT: leader 2, then 3, 0, 1 ("s:" asserts whose turn it is)."""
    state = position("block", ["0-4 6-6", "1-2 5-6", "2-3 5-5", "3-4 4-5"], leader=2,
                     moves="2:2-3 3:3-4@1 0:0-4@1 1:1-2@0")
    assert state.to_move == 2


def test_r_seat_teams_sit_opposite():
    for variant in ("kozel", "partnership"):
        rules = rules_for(variant, 4)
        assert rules.sides == 2
        assert [rules.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    rules = rules_for("draw", 4)
    assert rules.sides == 4
    assert [rules.side_of(s) for s in range(4)] == [0, 1, 2, 3]


# -- R-DEAL -----------------------------------------------------------------------------------
HAND_SIZES = [
    ("draw", 2, 7), ("draw", 3, 5), ("draw", 4, 5),
    ("block", 2, 7), ("block", 3, 7), ("block", 4, 7),
    ("fives", 2, 7),
    ("allfives", 2, 7), ("allfives", 3, 5), ("allfives", 4, 5),
    ("classic", 2, 7), ("classic", 3, 5), ("classic", 4, 5),
    ("kozel", 4, 7), ("partnership", 4, 7), ("partnership-1v1", 2, 7),
]


@pytest.mark.parametrize(("variant", "players", "size"), HAND_SIZES)
def test_r_deal_hand_sizes_per_variant_and_player_count(variant, players, size):
    """R-DEAL, R-SCORE-BASIC, R-SPINNER, R-CLASSIC, R-KOZEL, R-PARTNERSHIP hand sizes."""
    rules = rules_for(variant, players)
    hands, boneyard = deal(random.Random(players * 31 + size), rules)
    assert [h.bit_count() for h in hands] == [size] * players
    assert len(boneyard) == 28 - size * players
    union = 0
    for h in hands:
        assert union & h == 0
        union |= h
    assert union | sum(1 << t for t in boneyard) == (1 << 28) - 1


@pytest.mark.parametrize(("variant", "players"), [
    ("fives", 3), ("fives", 4), ("kozel", 2), ("kozel", 3), ("partnership", 2),
    ("partnership-1v1", 4), ("draw", 5), ("allfives", 1),
])
def test_r_deal_player_counts_outside_the_variant_are_refused(variant, players):
    from domsim.rules import RulesError
    refusal = f"^{variant} is played by [0-9, ]+ players, not {players}$"
    with pytest.raises(RulesError, match=refusal):
        rules_for(variant, players)


def test_r_deal_a_deal_is_determined_by_its_seed():
    """R-DEAL / R-RNG: the same generator seed gives the same deal, another seed another one."""
    rules = rules_for("draw", 3)
    assert deal(random.Random(5), rules) == deal(random.Random(5), rules)
    assert deal(random.Random(5), rules) != deal(random.Random(6), rules)


def test_r_deal_shuffle_is_roughly_uniform():
    """R-DEAL: each tile lands in seat 0's 7-tile hand about 7/28 of the time."""
    rules = rules_for("block", 2)
    rng = random.Random(11)
    counts = Counter()
    for _ in range(2000):
        hands, _ = deal(rng, rules)
        counts.update(t for t in range(28) if hands[0] >> t & 1)
    assert all(400 < counts[t] < 600 for t in range(28)), counts  # expected 500 each


@pytest.mark.parametrize("players", [2, 3])
def test_r_deal_block_undealt_tiles_are_never_drawn(players):
    """R-DEAL / R-MUST: block with 2-3 players passes when stuck; the undealt tiles stay out."""
    hands = ["6-6 1-1", "1-2 3-4", "0-2 0-3"][:players]
    state = position("block", hands, boneyard="6-5 6-4 6-3", moves="0:6-6")
    assert not state.can_draw()
    assert state.step_forced()  # seat 1 has no 6: it passes
    assert state.hands[1] == hand("1-2 3-4")
    assert state.boneyard_left() == 3
    assert Action.of(state.history[-1]).kind == PASS


def test_r_deal_block_start_next_hand_keeps_undealt_tiles_out_of_play():
    state = State(rules_for("block", 3))
    start_next_hand(state, random.Random(3))
    assert state.boneyard_left() == 7
    assert not state.can_draw()


# -- R-LEAD: first hand -----------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["draw", "block", "fives", "allfives"])
def test_r_lead_highest_double_leads(variant):
    hands = [hand("1-1 2-5 6-0"), hand("4-4 0-6 3-6")]
    assert first_lead(rules_for(variant, 2), hands) == (1, tile("4-4"))


@pytest.mark.parametrize("variant", ["draw", "block", "fives", "allfives"])
def test_r_lead_no_double_dealt_heaviest_tile_ties_by_larger_half(variant):
    """R-LEAD, R-SET: 3-6 and 4-5 both weigh 9; 3-6 has the larger half."""
    hands = [hand("0-1 4-5 2-3"), hand("1-2 3-6 0-4")]
    assert first_lead(rules_for(variant, 2), hands) == (1, tile("3-6"))
    hands = [hand("2-6 0-1"), hand("3-5 4-5")]  # 4-5 (9) beats 2-6 and 3-5 (8)
    assert first_lead(rules_for(variant, 2), hands) == (1, tile("4-5"))


def test_r_lead_dealt_block_two_players_decides_among_dealt_tiles_only():
    """R-LEAD-DEALT: 6-6 and 5-5 are undealt (out of play); the highest dealt double is 2-2."""
    hands = [hand("1-1 0-6 3-5 2-4 1-6 0-5 0-4"), hand("2-2 4-6 3-6 1-5 1-4 0-3 0-2")]
    assert first_lead(rules_for("block", 2), hands) == (1, tile("2-2"))


def test_r_lead_dealt_block_three_players_no_double_dealt_heaviest_dealt_tile():
    """R-LEAD-DEALT: no double among the 21 dealt tiles: heaviest dealt tile, not 6-6."""
    hands = [hand("0-1 0-2 0-3 0-4 0-5 0-6 1-2"),
             hand("1-3 1-4 1-5 1-6 2-3 2-4 2-5"),
             hand("2-6 3-4 3-5 3-6 4-5 4-6 5-6")]
    assert first_lead(rules_for("block", 3), hands) == (2, tile("5-6"))


@pytest.mark.parametrize(("doubles", "expected"), [
    ("0-0 6-6", "6-6"),  # classic's 0-0 comes after 6-6
    ("0-0 1-1 6-6", "1-1"),
    ("0-0 3-3 5-5", "3-3"),
    ("0-0 2-5", "0-0"),
])
def test_r_lead_classic_lowest_double_from_1_1_then_0_0(doubles, expected):
    holder = hand(doubles)
    rest = hand("1-2 2-4 4-6") & ~holder
    assert first_lead(rules_for("classic", 2), [rest, holder]) == (1, tile(expected))


def test_r_lead_classic_no_double_heaviest_tile():
    hands = [hand("0-1 2-4 1-3"), hand("1-5 0-6 2-3")]
    assert first_lead(rules_for("classic", 2), hands) == (1, tile("0-6"))


FULL_DEAL = [
    "6-6 0-1 0-2 0-3 0-4 0-5 0-6",
    "1-2 1-3 1-4 1-5 1-6 2-2 2-3",
    "1-1 2-4 2-5 2-6 3-3 3-4 3-5",
    "0-0 3-6 4-4 4-5 4-6 5-5 5-6",
]


def test_r_lead_kozel_holder_of_1_1_leads_it():
    """R-LEAD / R-KOZEL: 1-1 leads even though 6-6 is higher."""
    masks = [hand(h) for h in FULL_DEAL]
    assert first_lead(rules_for("kozel", 4), masks) == (2, tile("1-1"))


def test_r_lead_partnership_holder_of_6_6_leads_it():
    masks = [hand(h) for h in FULL_DEAL]
    assert first_lead(rules_for("partnership", 4), masks) == (0, tile("6-6"))


def test_r_lead_named_tile_is_the_only_legal_lead():
    state = position("kozel", FULL_DEAL, leader=2, lead="1-1")
    assert legal(state) == ["1-1@0"]


@pytest.mark.parametrize(("variant", "players"), [
    ("draw", 2), ("draw", 4), ("block", 3), ("fives", 2), ("allfives", 3), ("classic", 3),
    ("kozel", 4), ("partnership", 4),
])
def test_r_lead_first_hand_of_a_dealt_match_uses_the_named_tile(variant, players):
    """R-LEAD through start_next_hand: the leader must lead the tile the table names, which
    this test finds by its own search over the deal."""
    order = {
        "classic": ["1-1", "2-2", "3-3", "4-4", "5-5", "6-6", "0-0"],
        "kozel": ["1-1"], "partnership": ["6-6"],
    }.get(variant, ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"])
    for seed in range(20):
        state = State(rules_for(variant, players))
        start_next_hand(state, random.Random(seed))
        dealt = [t for h in state.hands for t in range(28) if h >> t & 1]
        named = [tile(d) for d in order if tile(d) in dealt]
        expected = named[0] if named else max(dealt, key=lambda t: (PIPS[t], TILE_B[t]))
        assert state.lead_tile == expected
        assert state.hands[state.leader] >> expected & 1
        assert [m >> 2 for m in state.legal_moves()] == [expected]


@pytest.mark.parametrize(("variant", "options"), [
    ("partnership-1v1", {}), ("partnership", {"lead": "fid"}),
])
def test_r_lead_by_lot_any_tile_uniform_seat(variant, options):
    """R-LEAD: partnership-1v1 and lead=fid: first leader by lot from the match RNG, any tile."""
    rules = rules_for(variant, None if options else 2, **options)
    leaders = Counter()
    for seed in range(400):
        state = State(rules)
        start_next_hand(state, random.Random(seed))
        leaders[state.leader] += 1
        assert state.lead_tile == -1
        assert len(state.legal_moves()) == 7
    share = 400 / rules.players
    assert all(0.75 * share < leaders[s] < 1.25 * share for s in range(rules.players)), leaders


# -- R-LEAD: later hands ----------------------------------------------------------------------
def test_r_lead_next_hand_winner_leads():
    state = position("draw", ["3-4 6-6", "4-5"], leader=0, moves="0:3-4 1:4-5")
    assert state.hand_results[-1].winners == (1,)
    assert next_leader(state) == 1


@pytest.mark.parametrize("variant", ["draw", "block"])
def test_r_lead_tied_block_seat_after_previous_leader(variant):
    """R-LEAD: seats 0 and 1 tie at 3 (seat 2 holds 5): nobody wins; leader 2 -> seat 0 (not
    the fish maker, seat 1)."""
    state = position(variant, ["1-2", "5-6 0-3", "5-5 1-4"], leader=2,
                     moves="2:5-5 0:pass 1:5-6@1 2:pass 0:pass 1:pass")
    result = state.hand_results[-1]
    assert (result.end, result.winners) == ("blocked", ())
    assert next_leader(state) == 0


def test_r_lead_winner_with_zero_rounded_points_leads_fives_out():
    """R-LEAD-WINNER: seat 1 (the leader; a tie would pass the lead to seat 0) goes out against
    0-1 (1 pip, rounds to 0) and still leads. Its 5 came from the lead 2-3 (R-FIVES-COUNT)."""
    state = position("fives", ["0-1", "2-3 3-6"], leader=1, moves="1:2-3 0:pass 1:3-6")
    result = state.hand_results[-1]
    assert result.winners == (1,)
    assert result.points == (0, 5)
    assert next_leader(state) == 1


def test_r_lead_winner_with_zero_rounded_points_leads_fives_block():
    """R-LEAD-WINNER: blocked 0-1 (1) against 1-2 (3): the difference 2 rounds to 0; seat 0,
    the lower hand, still wins and leads (the previous leader was seat 0, so a tie would give 1).
    """
    state = position("fives", ["6-6 0-1", "1-2"], leader=0, moves="0:6-6 1:pass 0:pass")
    result = state.hand_results[-1]
    assert (result.end, result.winners, result.points) == ("blocked", (0,), (0, 0))
    assert next_leader(state) == 0


def test_r_lead_winner_with_zero_points_leads_draw():
    """R-LEAD-WINNER: leader 1 goes out while seat 0 holds only 0-0: 0 points, still leads."""
    state = position("draw", ["0-0", "6-6 6-3"], leader=1, moves="1:6-6 0:pass 1:6-3@1")
    assert state.hand_results[-1].winners == (1,)
    assert state.hand_results[-1].points == (0, 0)
    assert next_leader(state) == 1


KOZEL_FISH = ["2-2 1-1", "2-3 4-4", "3-5 6-6", "0-6 1-6"]


@pytest.mark.parametrize("variant", ["kozel", "partnership"])
def test_r_lead_team_games_fish_maker_leads_whoever_won(variant):
    """R-LEAD / R-KOZEL / R-PARTNERSHIP: lead 2-2, seat 1 2-3, seat 2 3-5 makes the fish (seats
    3, 0, 1, 2 pass). Team 0 holds 1-1 + 6-6 = 14, team 1 4-4 + 0-6 + 1-6 = 21: team 0 wins;
    the maker, seat 2, leads next."""
    state = position(variant, KOZEL_FISH, leader=0,
                     moves="0:2-2 1:2-3@1 2:3-5@1 3:pass 0:pass 1:pass 2:pass")
    assert state.hand_results[-1].end == "blocked"
    assert next_leader(state) == 2


def test_r_lead_team_games_fish_maker_on_losing_team_leads():
    """R-LEAD: seat 1 makes the fish and its team is heavier (team 0 lighter); seat 1 leads."""
    state = position("kozel", ["2-2 1-1", "2-3 6-6", "1-4 0-0", "5-6 4-4"], leader=0,
                     moves="0:2-2 1:2-3@1 2:pass 3:pass 0:pass 1:pass")
    result = state.hand_results[-1]
    assert result.winners == (0, 2)
    assert next_leader(state) == 1


@pytest.mark.parametrize("variant", ["kozel", "partnership"])
def test_r_lead_team_games_player_who_went_out_leads(variant):
    state = position(variant, ["1-2 6-6", "2-3 5-5", "3-4", "0-0 0-1"], leader=0,
                     moves="0:1-2 1:2-3@1 2:3-4@1")
    assert state.hand_results[-1].end == "domino"
    assert next_leader(state) == 2


def test_r_lead_p1v1_fish_maker_leads_even_when_losing():
    """R-LEAD / R-PARTNERSHIP-1V1: seat 0 makes the fish with the heavier hand; seat 0 leads."""
    state = position("partnership-1v1", ["6-6 5-5", "1-2"], leader=0,
                     moves="0:6-6 1:pass 0:pass")
    result = state.hand_results[-1]
    assert result.winners == (1,)
    assert next_leader(state) == 0


def test_r_lead_p1v1_tied_block_fish_maker_leads():
    state = position("partnership-1v1", ["6-6 1-2", "0-3"], leader=0,
                     moves="0:6-6 1:pass 0:pass")
    assert state.hand_results[-1].winners == ()
    assert next_leader(state) == 0


def test_r_lead_fid_next_seat_every_hand_whoever_won():
    """lead=fid (R-LEAD, R-DETAIL): leader 1 this hand, seat 3 wins; seat 2 leads next."""
    rules = rules_for("partnership", 4, lead="fid")
    state = position(rules, ["0-0 0-1", "1-2 6-6", "2-3 5-5", "3-4"], leader=1,
                     moves="1:1-2 2:2-3@1 3:3-4@1")
    assert state.hand_results[-1].winners == (1, 3)
    assert next_leader(state) == 2
    state = position(rules, ["0-1 2-2", "4-5 6-6", "1-1 0-2", "3-4 0-0"], leader=3,
                     moves="3:3-4 0:pass 1:4-5 2:pass 3:pass 0:pass 1:pass")
    assert state.hand_results[-1].winners == (0, 2)  # team 0 holds 9, team 1 holds 12
    assert next_leader(state) == 0  # fish made by seat 1, but fid: the seat after leader 3


def test_r_lead_later_hands_any_tile():
    """R-LEAD: a later hand of a dealt draw match is led by the winner (tie: the seat after the
    previous leader) with any tile."""
    state = State(rules_for("draw", 2))
    rng = random.Random(1)
    start_next_hand(state, rng)
    first_leader = state.leader
    while not state.hand_over:
        if not state.step_forced():
            state.play(state.legal_moves()[0])
    winners = state.hand_results[-1].winners
    start_next_hand(state, rng)
    assert state.leader == (winners[0] if winners else 1 - first_leader)
    assert state.lead_tile == -1
    assert len(state.legal_moves()) == 7
