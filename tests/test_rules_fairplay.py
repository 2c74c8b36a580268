"""R-RNG, R-VIEW, R-LEVEL (easy) and R-SEAT-FAULT: what the referee guarantees the seats."""

import random
from collections import Counter

import pytest
from domsim.strategies.easy import Easy
from positions import position

from domsim.game import play_game
from domsim.rules import make_rules
from domsim.seeding import game_seed
from domsim.strategy import Strategy
from domsim.tiles import Tile
from domsim.view import Move, ViewBuilder


class Raiser(Strategy):
    """Raises on its first decision (R-SEAT-FAULT)."""

    def choose(self, view):
        raise RuntimeError("boom")


class Cheater(Strategy):
    """Returns a tile it does not hold (R-SEAT-FAULT)."""

    def choose(self, view):
        return Move(Tile(6, 6), 3)


# -- R-RNG ------------------------------------------------------------------------------------
def test_r_rng_game_seed_depends_on_base_seed_and_index_only():
    assert game_seed(7, 3) == game_seed(7, 3)
    assert len({game_seed(7, i) for i in range(50)}) == 50
    assert game_seed(7, 3) != game_seed(8, 3)


@pytest.mark.parametrize(("variant", "players"), [("fives", 2), ("kozel", 4), ("draw", 3)])
def test_r_rng_same_seed_same_game(variant, players):
    rules = make_rules(variant, players)
    first = play_game(rules, ["easy"] * players, 1234)
    again = play_game(rules, ["easy"] * players, 1234)
    assert first["hands"] == again["hands"]
    assert first["result"] == again["result"]
    other = play_game(rules, ["easy"] * players, 1235)
    assert other["hands"] != first["hands"]


def test_r_rng_deals_do_not_depend_on_the_strategies():
    """R-RNG: the match generator only shuffles and draws lots, so the first deal of a seed is
    the same whoever plays."""
    rules = make_rules("draw", 2)
    easy = play_game(rules, ["easy", "easy"], 99)
    other = play_game(rules, ["medium", "easy"], 99)
    assert easy["hands"][0]["deal"] == other["hands"][0]["deal"]


# -- R-VIEW -----------------------------------------------------------------------------------
def test_r_view_shows_own_tiles_counts_and_events_never_hidden_tiles():
    """R-VIEW: seat 1 drew 0-1 (no fit) and 5-6 (fits); its view holds its own four tiles,
    the counts, the line, two draws without their tiles, and nothing of seat 0's hand or the
    boneyard's last tile 2-3."""
    state = position("draw", ["6-6 3-3 4-4", "1-2 0-0"], boneyard="0-1 5-6 2-3",
                     moves="0:6-6 1:draw 1:draw")
    view = ViewBuilder().view(state, state.legal_moves())
    assert view.seat == 1
    assert view.hand == (Tile(0, 0), Tile(0, 1), Tile(1, 2), Tile(5, 6))
    assert view.hand_counts == (2, 4)
    assert view.boneyard_count == 1
    assert [(e.seat, e.kind, e.tile) for e in view.history] == [
        (0, "play", Tile(6, 6)), (1, "draw", None), (1, "draw", None)]
    assert view.history[1].open_numbers == (6,)
    assert set(view.legal_moves) == {Move(Tile(5, 6), 0), Move(Tile(5, 6), 1)}
    seen = set(view.hand) | {e.tile for e in view.history}
    assert not seen & {Tile(3, 3), Tile(4, 4), Tile(2, 3)}


def test_r_view_undealt_block_tiles_are_unknown():
    """R-VIEW: in block with 2 players the 14 undealt tiles are not shown as a boneyard to
    draw from."""
    state = position("block", ["6-6 3-3", "6-1 0-0"], boneyard="2-2 2-3", moves="0:6-6")
    view = ViewBuilder().view(state, state.legal_moves())
    assert view.can_draw is False
    assert Tile(2, 2) not in view.hand


# -- R-LEVEL (easy) ---------------------------------------------------------------------------
def test_r_level_easy_plays_uniformly_among_legal_moves():
    """R-LEVEL easy: every legal move comes up, about equally often, and nothing else."""
    state = position("draw", ["6-6 3-3", "6-1 6-2 0-0"], moves="0:6-6")
    view = ViewBuilder().view(state, state.legal_moves())
    easy = Easy()
    easy.rng = random.Random(5)
    counts = Counter(easy.choose(view) for _ in range(800))
    assert set(counts) == set(view.legal_moves)  # 1-6 and 2-6 on either end: 4 moves
    assert all(140 < c < 260 for c in counts.values()), counts


# -- R-SEAT-FAULT -----------------------------------------------------------------------------
@pytest.mark.parametrize(("spec", "kind"), [
    ("test_rules_fairplay:Raiser", "errors"), ("test_rules_fairplay:Cheater", "illegal"),
])
def test_r_seat_fault_a_bot_takes_over_and_the_match_goes_on(spec, kind):
    rules = make_rules("draw", 2)
    record = play_game(rules, [spec, "easy"], 7)
    assert record["result"]["complete"] is True
    faults = record["faults"][0]
    assert faults[kind] == 1
    assert faults["replaced"] is True
    assert record["faults"][1]["replaced"] is False
