"""Belief and the exact deal sampler of insane (R-VIEW, R-MUST, R-LEAD, R-SCORE-BASIC)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

from domsim.strategies.medium import Medium
from positions import hand, position, tile

from domsim.engine import State, start_next_hand
from domsim.game import play_hand
from domsim.rules import VARIANTS, make_rules
from domsim.search import Belief, play_likelihood
from domsim.strategy import Strategy
from domsim.tiles import NUMBER_MASK
from domsim.view import ViewBuilder


def view_of(state: State):
    return ViewBuilder().view(state, state.legal_moves())


def test_pass_excludes_open_numbers_r_must():
    """R-MUST: seat 1 passed on ends 6-6, so no tile with a 6 may lie in its hand; seat 2 may
    hold any; the tiles out of play (R-SCORE-BASIC, block with 3 players) may be anything."""
    state = position("block", ["6-6 5-5 4-6 0-0 0-1 0-2 0-3", "1-1 1-2 1-3 1-4 1-5 2-2 2-3",
                               "0-6 0-4 0-5 2-4 2-5 3-3 3-4"], moves="0:6-6 1:pass 2:0-6@0")
    belief = Belief(view_of(state))
    assert belief.seats == [1, 2]
    for t, allowed in belief.allowed.items():
        assert bool(allowed & 1) == (not NUMBER_MASK[6] >> t & 1)
        assert allowed >> 1 & 1 and allowed >> belief.rest & 1


def test_draw_resets_voids_to_the_open_numbers_r_must():
    """R-MUST: seat 1 drew on ends 6-6 (it lacked 6), then played the drawn 1-6: its hand lacks
    6 and may hold anything else; the boneyard's 13 tiles may be anything."""
    state = position("draw", ["6-6 0-0 0-2 0-3 0-4 0-5 1-2", "1-3 1-4 1-5 2-3 2-4 2-5 3-4"],
                     boneyard="1-6 0-1 1-1 2-2 3-3 3-5 4-4 4-5 5-5 0-6 2-6 3-6 4-6 5-6",
                     moves="0:6-6 1:draw 1:1-6@0")
    belief = Belief(view_of(state))
    allowed = belief.allowed
    assert not allowed[tile("5-6")] >> 0 & 1
    assert allowed[tile("3-5")] >> 0 & 1
    assert belief.sizes == [7, 13]


def test_first_lead_shows_higher_doubles_were_not_dealt_r_lead():
    """R-LEAD, R-LEAD-DEALT: the first hand was led with 5-5, so 6-6 was dealt to nobody: in
    block with 2 players seat 1 knows it is out of play, never in seat 0's hand, while 4-4 may
    be anywhere it cannot see."""
    state = position("block", ["5-5 0-1 0-2 0-3 0-4 0-5 0-6", "1-1 1-2 1-3 1-4 1-5 2-2 2-3"],
                     moves="0:5-5")
    belief = Belief(view_of(state))
    assert belief.seats == [0]
    assert belief.allowed[tile("6-6")] == 1 << belief.rest
    assert belief.allowed[tile("4-4")] == 0b11


def test_block_out_of_play_tiles_are_unknown_not_absent():
    """R-SCORE-BASIC: with 2-3 players in block the undealt tiles are out of play and unseen:
    every sampled deal puts 7 tiles in each other hand and the rest out of play."""
    for players, rest in ((2, 14), (3, 7)):
        rules = make_rules("block", players)
        state = State(rules)
        start_next_hand(state, random.Random(players))
        belief = Belief(view_of(state))
        assert belief.sizes == [7] * (players - 1) + [rest]
        hands, out = belief.sample()
        assert len(out) == rest and all(len(h) == 7 for h in hands.values())


def _all_deals(belief: Belief) -> list[tuple[int, ...]]:
    """Every assignment tile -> location that respects `allowed` and the sizes, by brute force."""
    tiles = sorted(belief.allowed)
    deals = []
    for places in itertools.product(range(len(belief.sizes)), repeat=len(tiles)):
        fits = all(belief.allowed[t] >> p & 1 for t, p in zip(tiles, places, strict=True))
        if fits and Counter(places) == {i: k for i, k in enumerate(belief.sizes) if k}:
            deals.append(places)
    return deals


def _deal_key(belief: Belief, hands: dict[int, list[int]], rest: list[int]) -> tuple[int, ...]:
    where = {t: belief.seats.index(s) for s, ts in hands.items() for t in ts}
    where.update({t: belief.rest for t in rest})
    return tuple(where[t] for t in sorted(belief.allowed))


def test_sampler_is_exactly_uniform_on_a_tiny_case():
    """Every consistent deal is equally likely (chi-square at p = 0.001, fixed seed)."""
    allowed = {0: 0b110, 1: 0b110, 2: 0b101, 3: 0b111, 4: 0b111, 5: 0b100, 6: 0b011}
    belief = Belief.from_parts([1, 2], [2, 3, 2], allowed, seed=7)
    deals = _all_deals(belief)
    assert belief.count() == len(deals) > 10
    draws = 300 * len(deals)
    seen = Counter(_deal_key(belief, *belief.sample()) for _ in range(draws))
    assert set(seen) <= set(deals)
    expected = draws / len(deals)
    chi2 = sum((seen[d] - expected) ** 2 / expected for d in deals)
    df = len(deals) - 1
    z = 3.09  # upper 0.1% of the normal; Wilson-Hilferty approximation of the chi-square
    critical = df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
    assert chi2 < critical


class _CheckingBot(Strategy):
    """Checks, at every decision, that the true deal and every sampled one obey the belief."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.checked = 0

    def choose(self, view):
        belief = Belief(view, seed=self.rng.getrandbits(64))
        truth = self.state
        for location, seat in enumerate(belief.seats):
            for t in belief.allowed:
                if truth.hands[seat] >> t & 1:
                    assert belief.allowed[t] >> location & 1, (view.variant, seat, t)
        for _ in range(3):
            hands, rest = belief.sample()
            for location, seat in enumerate(belief.seats):
                assert len(hands[seat]) == view.hand_counts[seat]
                assert all(belief.allowed[t] >> location & 1 for t in hands[seat])
            if view.rules.variant.draws:
                assert len(rest) == view.boneyard_count
            placed = sorted(rest + [t for ts in hands.values() for t in ts])
            assert placed == sorted(belief.allowed)
        self.checked += 1
        return Medium().choose(view)


def test_true_deal_and_samples_respect_every_constraint():
    """In every variant and player count, the real hands are always allowed by the belief (it
    is sound), and sampled deals keep hand sizes, boneyard size and every allowed set."""
    for name, variant in VARIANTS.items():
        for players in variant.player_counts:
            rules = make_rules(name, players)
            checked = 0
            for deal in range(3):
                state = State(rules)
                start_next_hand(state, random.Random(deal * 10 + players))
                bots = [_CheckingBot(state) for _ in range(players)]
                for bot in bots:
                    bot.rng = random.Random(deal)
                play_hand(state, bots, ViewBuilder())
                assert state.hand_over
                checked += sum(bot.checked for bot in bots)
            assert checked >= 6, (name, players, checked)  # decisions really were checked


def test_play_model_weighs_deals_by_the_plays_seen():
    """Seat 1 answered the 3-3 lead with the light 0-3. A deal in which it also held 3-6 (9
    pips, playable) explains that play with probability e^(3b) / (e^(3b) + e^(9b)); a deal in
    which 0-3 was its only playable tile explains it with probability 1."""
    state = position("block", ["3-3 0-0 0-1 0-2 0-4 0-5 0-6", "0-3 3-6 1-1 1-2 1-4 1-5 2-2"],
                     moves="0:3-3 1:0-3@0")
    view = view_of(state)
    mine = hand("0-0 0-1 0-2 0-4 0-5 0-6")
    with_heavier = play_likelihood(view, [mine, hand("3-6 1-1 1-2 1-4 1-5 2-2")], 0.4)
    without = play_likelihood(view, [mine, hand("1-1 1-2 1-4 1-5 2-2 2-4")], 0.4)
    assert math.isclose(with_heavier, 1 / (1 + math.exp(0.4 * 6)))
    assert math.isclose(without, 1.0)
