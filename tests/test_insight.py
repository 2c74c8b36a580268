"""What a view shows of the hidden tiles (R-VIEW, R-MUST): the numbers each seat is known to
lack and the tiles not seen, as the core reads them off a PlayerView and domsim.insight gives
them to strategies."""

from __future__ import annotations

import itertools
import random

from positions import position

from domsim.engine import State, start_next_hand
from domsim.engine.state import DRAW
from domsim.insight import known_voids, tile_mask, unseen_mask, unseen_tiles
from domsim.rules import VARIANTS, make_rules
from domsim.tiles import ALL_TILES_MASK, NUMBER_MASK, TILES, Tile, mask_of
from domsim.view import ViewBuilder


def view_of(state: State):
    return ViewBuilder().view(state, state.legal_moves())


def test_a_pass_adds_the_open_numbers_r_must():
    """R-MUST: seats 1 and 2 passed on 5 and 6; seat 0 (which led) lacks nothing known."""
    state = position("block", ["5-6 5-5 4-6 0-0", "0-1 0-2 4-4", "0-4"],
                     moves="0:5-6 1:pass 2:pass")
    view = view_of(state)
    assert view.void_masks == (0, 1 << 5 | 1 << 6, 1 << 5 | 1 << 6)
    assert known_voids(view) == [set(), {5, 6}, {5, 6}]


def test_a_draw_resets_the_voids_to_the_open_numbers_r_must():
    """R-MUST: seat 1 drew on 6|6 (it lacked 6) and played the drawn 1-6; on 1|2 it drew again
    and played the drawn 0-1: it lacked 1 and 2 then, but the tiles drawn since it lacked 6 may
    show a 6, so only 1 and 2 are known."""
    deal = ["6-6 2-6 1-2 1-1 1-3 2-2 2-3", "0-0 0-3 0-4 0-5 3-3 3-4 3-5"]
    boneyard = "1-6 0-1 0-2 0-6 1-4 1-5 2-4 2-5 3-6 4-4 4-5 4-6 5-5 5-6"
    state = position("draw", deal, boneyard=boneyard, moves="0:6-6 1:draw 1:1-6@0")
    assert known_voids(view_of(state))[1] == {6}
    state = position("draw", deal, boneyard=boneyard,
                     moves="0:6-6 1:draw 1:1-6@0 0:2-6@1 1:draw 1:0-1@0")
    assert known_voids(view_of(state)) == [set(), {1, 2}]


def test_unseen_tiles_are_neither_in_hand_nor_on_the_line():
    state = position("block", ["5-6 5-5 4-6 0-0", "0-1 0-2 4-4", "0-4"],
                     moves="0:5-6 1:pass 2:pass")
    view = view_of(state)
    seen = {Tile(5, 6), Tile(5, 5), Tile(4, 6), Tile(0, 0)}
    assert unseen_tiles(view) == set(TILES) - seen
    assert unseen_mask(view) == view.unseen_mask == ALL_TILES_MASK & ~tile_mask(seen)
    assert view.hand_mask == tile_mask(view.hand)


def test_voids_and_unseen_tiles_hold_against_the_deal_in_every_variant():
    """R-MUST, R-VIEW: in random games of every variant, no seat holds a tile showing a number
    it is known to lack (but the seat to move that just drew, which holds the tile it found),
    and the unseen tiles are exactly those in the other hands, undrawn or out of play."""
    views = known = 0
    for name, variant in VARIANTS.items():
        for players, seed in itertools.product(variant.player_counts, range(5)):
            rules = make_rules(name, players)
            rng = random.Random(seed)
            state, builder = State(rules), ViewBuilder()
            while not state.match_over:
                start_next_hand(state, rng)
                while not state.hand_over:
                    if state.step_forced():
                        continue
                    view = builder.view(state, state.legal_moves())
                    views += 1
                    just_drew = bool(state.history) and state.history[-1] & 3 == DRAW
                    elsewhere = 0
                    for seat, void in enumerate(view.void_masks):
                        hand = state.hands[seat]
                        if seat != view.seat:
                            elsewhere |= hand
                        elif just_drew:
                            hand &= ~state.playable_mask(seat)  # the tile it found
                        fitting = 0
                        for n in range(7):
                            if void >> n & 1:
                                fitting |= NUMBER_MASK[n]
                        assert hand & fitting == 0
                        known += void != 0
                    on_line = mask_of(e.tile.id for e in view.line)
                    undrawn = mask_of(state.boneyard[state.drawn:])
                    assert view.unseen_mask == ALL_TILES_MASK & ~on_line & ~view.hand_mask
                    assert elsewhere | undrawn == view.unseen_mask  # undealt ones: undrawn
                    state.play(rng.choice(state.legal_moves()))
    assert views > 5000 and known > 1000
