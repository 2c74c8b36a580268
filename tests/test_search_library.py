"""The core as a library for bot authors (domsim.search): strategies/example_pimc.py, a search
bot written only on its documented calls, plays legal games in every variant and beats easy."""

from test_strategies import assert_replays

from domsim.engine import State, start_next_hand
from domsim.game import play_game
from domsim.rules import VARIANTS, make_rules
from domsim.search import sample_deals, solvable
from domsim.seeding import deal_rng
from domsim.view import ViewBuilder

PIMC = "strategies/example_pimc.py?deals=8"


def test_example_pimc_plays_every_variant_legally_r_level():
    for name, variant in VARIANTS.items():
        players = variant.player_counts[-1]
        record = play_game(make_rules(name, players), [PIMC] + ["easy"] * (players - 1), 3,
                           move_time_limit=None)
        assert_replays(record)
        assert record["faults"][0] == {"timeouts": 0, "errors": 0, "illegal": 0,
                                       "replaced": False, "first": None}


def test_example_pimc_beats_easy_in_block():
    rules = make_rules("block", 2)
    wins = 0
    for seed in range(10):
        for first in (True, False):
            specs = [PIMC, "easy"] if first else ["easy", PIMC]
            record = play_game(rules, specs, seed, move_time_limit=None)
            wins += (0 if first else 1) in record["result"]["winners"]
    assert wins >= 14


def test_sampled_deals_are_consistent_and_solvable_once_small():
    """Each sampled deal keeps the seat's own hand and every hand's size (R-VIEW); in block
    with 2 players a deal with few tiles left is solvable, one at the start is not."""
    rules = make_rules("block", 2)
    state = State(rules)
    start_next_hand(state, deal_rng(4))
    moves = state.advance()
    view = ViewBuilder().view(state, moves)
    deals = sample_deals(view, 20, seed=9)
    assert len(deals) == 20 and len({tuple(d.hands) for d, _ in deals}) > 1
    for deal, _ in deals:
        assert deal.hands[view.seat] == state.hands[view.seat]
        assert deal.hand_counts() == state.hand_counts()
        assert not solvable(deal, 8) and solvable(deal)


def test_bad_calls_are_value_errors_not_crashes():
    """No panic crosses into Python: a hand never started, or a view with nothing to choose."""
    import pytest

    from domsim.search import hand_value, insane_move, solve

    rules = make_rules("block", 2)
    fresh = State(rules)
    for call, words in ((lambda: hand_value(fresh, 0), "the hand is not over"),
                        (lambda: solve(fresh, 0), "no hand has been played"),
                        (lambda: hand_value(fresh, 5), "no seat 5")):
        with pytest.raises(ValueError, match=words):
            call()
    state = State(rules)
    start_next_hand(state, deal_rng(2))
    while state.advance() is not None:
        state.play(state.legal_moves()[0])
    over = ViewBuilder().view(state, [])
    with pytest.raises(ValueError, match="no legal move"):
        insane_move(over, 1, samples=8, budget_ms=0.0, exact_tiles=7, random_share=0.1,
                    block=4.0, follow=2.0, beta=0.0)


def test_insane_move_refuses_a_loss_or_drop_that_is_negative_or_not_a_number():
    """The sequential stop's loss and the drop's regret are expected amounts: >= 0 and finite
    (0: no early stop, no drop but of the moves clearly beaten)."""
    import pytest

    from domsim.search import insane_move

    state = State(make_rules("block", 2))
    start_next_hand(state, deal_rng(2))
    moves = state.advance()
    view = ViewBuilder().view(state, moves)
    options = dict(samples=8, budget_ms=0.0, exact_tiles=7, random_share=0.1, block=4.0,
                   follow=2.0, beta=0.0)
    for loss in (-0.1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="a loss >= 0"):
            insane_move(view, 1, loss=loss, **options)
        with pytest.raises(ValueError, match="a drop >= 0"):
            insane_move(view, 1, drop=loss, **options)
    assert insane_move(view, 1, loss=0.0, drop=0.0, **options) in moves
