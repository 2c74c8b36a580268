"""The built-in levels medium and hard (R-LEVEL) on hand-made positions, and their determinism."""

from __future__ import annotations

import random

from domsim.strategies.hard import Hard
from domsim.strategies.medium import Medium
from positions import position

from domsim.engine import State, start_next_hand
from domsim.game import play_game
from domsim.insight import tile_mask
from domsim.rules import make_rules
from domsim.tiles import NUMBER_MASK, Tile
from domsim.view import Move, ViewBuilder


def choose(strategy, state):
    strategy.rng = random.Random(0)
    return strategy.choose(ViewBuilder().view(state, state.legal_moves()))


def test_medium_dumps_heaviest_playable_tile():
    """R-LEVEL medium: heaviest playable tile first. Ends 3 and 6: 4-6 (10) beats 2-6 (8)."""
    state = position("block", ["6-6 2-6 4-6 1-2", "3-6 0-0"], moves="0:6-6 1:3-6@0")
    assert choose(Medium(), state).tile == Tile(4, 6)


def test_medium_takes_best_immediate_fives_score():
    """R-LEVEL medium in fives: 3-4 on the 4 makes 12 + 3 = 15 and scores, so it beats the
    heavier 5-6, which makes 5 + 4 = 9 (R-FIVES-COUNT: the 6-6 at an end counts 12)."""
    state = position("fives", ["6-6 3-4 5-6 0-0", "4-6 1-1"], moves="0:6-6 1:4-6@1")
    assert choose(Medium(), state) == (Tile(3, 4), 1)


def _hard_table(state):
    view = ViewBuilder().view(state, state.legal_moves())
    hard = Hard()
    return hard, view, hard._table(view)


def test_hard_counts_ends_the_next_opponent_passed_on():
    """R-LEVEL hard: seat 1 passed on 5 and 6, so ends 5-6 shut it out; 5-4 only half."""
    state = position("block", ["5-6 5-5 4-6 0-0", "0-1 0-2 4-4", "0-4"],
                     moves="0:5-6 1:pass 2:pass")
    hard, view, table = _hard_table(state)
    assert table.voids[1] == 1 << 5 | 1 << 6  # numbers as bits
    assert hard._blocking(table, [5, 6]) == 2.0
    assert hard._blocking(table, [5, 4]) == 0.5
    assert choose(Hard(), state).tile == Tile(5, 5)


def test_hard_estimates_the_chance_each_opponent_is_stuck():
    """R-LEVEL hard: seats 1 and 2 passed on 5 and 6, so each may hold only the 14 unseen tiles
    of numbers 0..4 (0-0 is ours). Ends 5-6: neither can play (next seat counts double: 3).
    Ends 5-4: five of those 14 show a 4; seat 1 (3 tiles) misses all with 9/14 * 8/13 * 7/12,
    seat 2 (1 tile) with 9/14."""
    state = position("block", ["5-6 5-5 4-6 0-0", "0-1 0-2 4-4", "0-4"],
                     moves="0:5-6 1:pass 2:pass")
    hard, view, table = _hard_table(state)
    assert hard._stuck(table, NUMBER_MASK[5] | NUMBER_MASK[6]) == 3.0
    expected = 2 * (9 / 14 * 8 / 13 * 7 / 12) + 9 / 14
    assert abs(hard._stuck(table, NUMBER_MASK[5] | NUMBER_MASK[4]) - expected) < 1e-12


def test_hard_locks_only_when_lighter():
    """R-LEVEL hard: ends nobody else can match are good while we hold fewer pips."""
    state = position("block", ["0-0 0-1 0-2 0-3 0-4 0-5 0-6", "6-6 5-5 4-4"],
                     moves="0:0-0 1:pass")
    hard, view, table = _hard_table(state)
    light, heavy = tile_mask([Tile(0, 1)]), tile_mask([Tile(6, 6), Tile(5, 6)])
    assert hard._locking(table, NUMBER_MASK[0], light) == 1.0
    assert hard._locking(table, NUMBER_MASK[0], heavy) == -1.0
    assert hard._locking(table, NUMBER_MASK[0] | NUMBER_MASK[6], light) == 0.0


def test_hard_weighs_the_reply_in_fives():
    """R-LEVEL hard in fives: after 3-3 led (ends 3 and 3-3 counting 6) and seat 1 passing on 3,
    0-3 leaves 0 + 6 = 6, which 0-4 turns into 10 for seat 1; 3-4 scores 4 + 6 = 10 now and
    leaves 4 + 6, which no tile seat 1 may hold can turn into a multiple of 5."""
    state = position("fives", ["3-3 3-4 0-3", "1-1 2-2"], moves="0:3-3 1:pass")
    hard, view, table = _hard_table(state)
    zero_three, three_four = Move(Tile(0, 3), 0), Move(Tile(3, 4), 0)
    assert view.count_after(zero_three) == 6 and view.count_after(three_four) == 10
    assert hard._best_reply(view, table, zero_three) > 0
    assert hard._best_reply(view, table, three_four) == 0
    assert hard.choose(view) == three_four


def test_levels_are_deterministic_given_the_seed():
    """R-RNG: medium and hard play the same game twice from one seed."""
    for variant, players in (("fives", 2), ("kozel", 4), ("allfives", 3)):
        rules = make_rules(variant, players)
        specs = ["domsim.strategies.hard:Hard", "domsim.strategies.medium:Medium"] * (players // 2)
        specs += ["domsim.strategies.easy:Easy"] * (players - len(specs))
        first, second = (play_game(rules, specs, 11) for _ in range(2))
        assert first.pop("timing") and second.pop("timing")  # wall-clock decision times differ
        assert first == second


def test_hard_weights_are_parameters():
    hard = Hard(block=0.5, reply=2.0)
    assert hard.weights["block"] == 0.5 and hard.weights["reply"] == 2.0


def test_hard_reads_each_view_whole():
    """R-VIEW: hard carries nothing from one decision to the next (the core reads the voids and
    the unseen tiles off each view): fed the views of one game in order, then of two games
    interleaved, it chooses on each view as a fresh Hard does."""
    for variant in ("draw", "fives"):
        rules = make_rules(variant, 3 if variant == "draw" else 2)
        hard = Hard()
        games = [_views_of_a_random_game(rules, seed) for seed in (1, 2)]
        interleaved = [view for pair in zip(*games, strict=False) for view in pair]
        assert len(interleaved) > 40
        for view in games[0] + interleaved:
            assert hard.choose(view) == Hard().choose(view)


def _views_of_a_random_game(rules, seed: int) -> list:
    rng = random.Random(seed)
    state, views = State(rules), ViewBuilder()
    seen = []
    while not state.match_over:
        start_next_hand(state, rng)
        while not state.hand_over:
            if not state.step_forced():
                moves = state.legal_moves()
                seen.append(views.view(state, moves))
                state.play(rng.choice(moves))
    return seen
