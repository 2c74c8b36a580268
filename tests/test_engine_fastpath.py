"""The engine's fast paths must change nothing: `State.play_out` plays the same games as the
generic loop, the short Fisher-Yates deal is the textbook one and uniform, the table-driven
`legal_moves` lists what the rules allow (R-MUST: a tile fits an open end showing one of its
numbers), in the documented order, and a hand's maker is read without a trail of the last player."""

import math
import random
from collections import Counter

import pytest

from domsim.engine import State, deal, start_next_hand
from domsim.engine.state import PLAY, Action
from domsim.rules import VARIANTS, make_rules
from domsim.tiles import N_TILES, TILE_A, TILE_B, tiles_of

#: Every attribute of a State that the play changes: a state is these values.
FIELDS = (
    "n", "hands", "boneyard", "drawn", "ends", "end_counts", "n_ends", "spinner", "line_count",
    "to_move", "passes", "history", "hand_over", "hand_points", "scores", "carry", "leader",
    "hand_number", "match_over", "match_winners", "hand_results", "lead_tile", "fit",
    "plain_line",
)


def snapshot(state: State) -> dict:
    """The state's values (FIELDS) as plain Python values, to compare states."""
    return {name: getattr(state, name) for name in FIELDS}


CONFIGS = [(name, players) for name, v in VARIANTS.items() for players in v.player_counts]


def _generic_hand(state: State, choose) -> None:
    while not state.hand_over:
        if not state.step_forced():
            state.play(choose(state.legal_moves()))


def _match(rules, seed: int, fast: bool) -> list[dict]:
    """Every hand of one match from `seed`, as the full state after each hand."""
    rng = random.Random(seed)
    state = State(rules)
    after_each_hand = []
    while not state.match_over:
        start_next_hand(state, rng)
        if fast:
            state.play_out(rng.choice)
        else:
            _generic_hand(state, rng.choice)
        after_each_hand.append(snapshot(state))
    return after_each_hand


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_play_out_plays_the_generic_loops_games(name, players):
    rules = make_rules(name, players)
    for seed in range(4):
        assert _match(rules, seed, fast=True) == _match(rules, seed, fast=False)


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_play_out_from_a_copy_mid_hand_leaves_the_original_alone(name, players):
    rules = make_rules(name, players)
    rng = random.Random(7)
    state = State(rules)
    start_next_hand(state, rng)
    for _ in range(5):
        if not state.hand_over and not state.step_forced():
            state.play(rng.choice(state.legal_moves()))
    before = snapshot(state)
    fast, slow = state.copy(), state.copy()
    fast.play_out(random.Random(1).choice)
    _generic_hand(slow, random.Random(1).choice)
    assert snapshot(fast) == snapshot(slow)
    assert fast.hand_over
    assert snapshot(state) == before


def test_copy_has_every_field_and_shares_nothing_that_play_changes():
    rules = make_rules("allfives", 3)
    rng = random.Random(2)
    state = State(rules)
    start_next_hand(state, rng)
    for _ in range(6):
        if not state.step_forced():
            state.play(rng.choice(state.legal_moves()))
    copy = state.copy()
    assert snapshot(copy) == snapshot(state)
    before = snapshot(state)
    copy.play_out(rng.choice)
    assert snapshot(state) == before
    assert {name for name in FIELDS if getattr(copy, name) != before[name]} >= {"hands", "history"}


def _chi_square_limit(df: int, z: float = 4.0) -> float:
    """Wilson-Hilferty: the chi-square value exceeded with the normal tail beyond `z` (~3e-5)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize(("name", "players"), [("block", 2), ("draw", 4)])
def test_r_deal_places_every_tile_uniformly(name, players):
    """R-DEAL: each tile is equally likely to be in each hand and at each boneyard position
    (chi-square over tile x place: the hands, then every draw position)."""
    rules = make_rules(name, players)
    rng = random.Random(19)
    deals = 2800
    places = players + N_TILES - players * rules.hand_size
    counts = [[0] * places for _ in range(N_TILES)]
    for _ in range(deals):
        hands, boneyard = deal(rng, rules)
        for seat, hand in enumerate(hands):
            for tile in tiles_of(hand):
                counts[tile][seat] += 1
        for position, tile in enumerate(boneyard):
            counts[tile][players + position] += 1
    expected = [deals * rules.hand_size / N_TILES] * players + [deals / N_TILES] * (
        places - players)
    chi_square = sum((row[i] - expected[i]) ** 2 / expected[i]
                     for row in counts for i in range(places))
    assert chi_square < _chi_square_limit(N_TILES * (places - 1))


def _textbook_deal(rng: random.Random, rules) -> tuple[list[int], list[int]]:
    """Fisher-Yates swapping tile ids in place, each index drawn as `deal` draws it, down to
    seat 0's positions (a set), then hands and boneyard read off the positions."""
    tiles = list(range(N_TILES))
    size, dealt = rules.hand_size, rules.players * rules.hand_size
    for i in range(N_TILES - 1, size - 1, -1):
        j = rng.getrandbits(i.bit_length())
        while j > i:
            j = rng.getrandbits(i.bit_length())
        tiles[i], tiles[j] = tiles[j], tiles[i]
    hands = [sum(1 << t for t in tiles[start:start + size]) for start in range(0, dealt, size)]
    return hands, tiles[dealt:]


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_deal_is_the_textbook_shuffle(name, players):
    """`deal` sums the hands as it shuffles and writes back only the boneyard's positions: the
    deals of a generator must still be those of the plain shuffle, one after the other."""
    rules = make_rules(name, players)
    ours, textbook = random.Random(5), random.Random(5)
    for _ in range(200):
        assert deal(ours, rules) == _textbook_deal(textbook, rules)


def _rule_book_moves(state: State) -> list[int]:
    """R-MUST: every tile of the hand that shows the number of an open end, end by end."""
    hand = state.hands[state.to_move]
    return [t << 2 | end for end in range(state.n_ends) for t in range(N_TILES)
            if hand >> t & 1 and state.ends[end] in (TILE_A[t], TILE_B[t])]


@pytest.mark.parametrize(("name", "players"), [("allfives", 3), ("draw", 2), ("block", 4)])
def test_legal_moves_are_the_tiles_that_fit_an_open_end(name, players):
    rules = make_rules(name, players)
    rng = random.Random(3)
    checked = 0
    for _ in range(40):
        state = State(rules)
        start_next_hand(state, rng)
        state.play(rng.choice(state.legal_moves()))
        while not state.hand_over:
            moves = state.legal_moves()
            assert moves == _rule_book_moves(state)
            assert bool(moves) == bool(state.playable_mask(state.to_move))
            checked += 1
            if not state.step_forced():
                state.play(rng.choice(moves))
    assert checked > 400


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_a_hands_maker_is_the_seat_that_laid_its_last_tile(name, players):
    """R-LEAD (the fish maker): a blocked hand's maker is taken as the seat to move at the last
    pass, the passes having gone round the table; the history must agree."""
    rules = make_rules(name, players)
    rng = random.Random(11)
    ends = Counter()  # how the hands ended: the blocked ones are the point
    for _ in range(20):
        state = State(rules)
        while not state.match_over:
            start_next_hand(state, rng)
            _generic_hand(state, rng.choice)
            result = state.hand_results[-1]
            last_play = next(a for a in reversed(state.history) if Action.of(a).kind == PLAY)
            assert result.maker == Action.of(last_play).seat
            ends[result.end] += 1
    assert ends["blocked"] > 0 and ends["domino"] > 0
