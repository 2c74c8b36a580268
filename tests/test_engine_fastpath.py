"""The engine's fast paths must change nothing: `State.play_out` plays the same games as the
generic loop, the inlined shuffle deals what `random.Random.shuffle` deals, and the table-driven
`legal_moves` lists what the rules allow (R-MUST: a tile fits an open end showing one of its
numbers), in the documented order."""

import random

import pytest

from domsim.engine import State, start_next_hand
from domsim.engine.deal import shuffle
from domsim.rules import VARIANTS, make_rules
from domsim.tiles import N_TILES, TILE_A, TILE_B

CONFIGS = [(name, players) for name, v in VARIANTS.items() for players in v.player_counts]


def _slots(state: State) -> dict:
    return {name: getattr(state, name) for name in State.__slots__}


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
        after_each_hand.append(_slots(state))
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
    before = _slots(state)
    fast, slow = state.copy(), state.copy()
    fast.play_out(random.Random(1).choice)
    _generic_hand(slow, random.Random(1).choice)
    assert _slots(fast) == _slots(slow)
    assert fast.hand_over
    assert _slots(state) == before


def test_copy_has_every_slot_and_shares_no_list_that_play_changes():
    rules = make_rules("allfives", 3)
    rng = random.Random(2)
    state = State(rules)
    start_next_hand(state, rng)
    for _ in range(6):
        if not state.step_forced():
            state.play(rng.choice(state.legal_moves()))
    copy = state.copy()
    assert _slots(copy) == _slots(state)
    for name in State.__slots__:
        if isinstance(getattr(state, name), list) and name != "boneyard":  # never mutated
            assert getattr(copy, name) is not getattr(state, name), name


def test_shuffle_matches_random_shuffle():
    for seed in range(300):
        ours, theirs = random.Random(seed), random.Random(seed)
        tiles, expected = list(range(N_TILES)), list(range(N_TILES))
        shuffle(ours, tiles)
        theirs.shuffle(expected)
        assert tiles == expected
        assert ours.getstate() == theirs.getstate()


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
