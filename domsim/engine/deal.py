"""Dealing (R-DEAL) and who leads each hand (R-LEAD, R-LEAD-DEALT, R-LEAD-WINNER, lead=fid)."""

from __future__ import annotations

import random

from ..rules import Rules
from ..tiles import ALL_TILES_MASK, N_TILES, heaviness, tile_id
from .state import State

_HIGHEST_FIRST = tuple(tile_id(n, n) for n in range(6, -1, -1))
_LOWEST_FROM_ONE = tuple(tile_id(n, n) for n in (1, 2, 3, 4, 5, 6, 0))
_NAMED_LEADS = {
    "highest_double": _HIGHEST_FIRST,
    "lowest_from_1": _LOWEST_FROM_ONE,
    "1-1": (tile_id(1, 1),),
    "6-6": (tile_id(6, 6),),
}
_TILE_IDS = tuple(range(N_TILES))
_TILE_BITS = tuple(1 << t for t in _TILE_IDS)
_TILE_OF_BIT = {1 << t: t for t in _TILE_IDS}


#: _DEAL_STEPS[size]: the Fisher-Yates steps of a deal, last position first, down to position
#: `size`: (i, bits for a number up to i, whether position i is the first of a hand after seat 0).
_DEAL_STEPS = {
    size: tuple((i, i.bit_length(), i % size == 0) for i in range(N_TILES - 1, size - 1, -1))
    for size in range(1, N_TILES + 1)
}


def deal(rng: random.Random, rules: Rules) -> tuple[list[int], list[int]]:
    """Shuffle the set; return each seat's hand as a bitmask and the boneyard in draw order.

    Fisher-Yates over the tiles' bits, from the last position down: step i swaps position i with
    a uniform j <= i, which fixes position i; j comes from `rng.getrandbits` with as many bits as
    it needs, redrawn when too large (no modulo bias). The boneyard's positions, the last ones,
    are swapped in place, as their order counts; a hand's tile is added to the hand's mask
    instead. The steps stop at seat 0's hand, positions 0..size-1, which gets the tiles left: a
    hand is a set."""
    size = rules.hand_size
    dealt = size * rules.players
    bits = list(_TILE_BITS)
    getrandbits = rng.getrandbits
    hands = []  # from the last seat down, reversed at the end
    hand = 0
    for i, width, first in _DEAL_STEPS[size]:
        j = getrandbits(width)
        while j > i:
            j = getrandbits(width)
        if i >= dealt:
            bits[i], bits[j] = bits[j], bits[i]
            continue
        hand += bits[j]
        bits[j] = bits[i]
        if first:
            hands.append(hand)
            hand = 0
    if dealt == N_TILES:  # seat 0 holds what the others do not
        hands.append(ALL_TILES_MASK - sum(hands))
        boneyard = []
    else:
        hands.append(sum(bits[:size]))
        boneyard = list(map(_TILE_OF_BIT.__getitem__, bits[dealt:]))
    hands.reverse()
    return hands, boneyard


def by_lot(rules: Rules) -> bool:
    """Whether the first hand's leader is drawn by lot (and leads any tile)."""
    return rules.variant.first_lead == "lot" or rules.lead == "fid"


def first_lead(rules: Rules, hands: list[int]) -> tuple[int, int]:
    """(seat, tile) of the first hand's lead among the dealt tiles; not for leads by lot."""
    dealt = 0
    for hand in hands:
        dealt |= hand
    for tile in _NAMED_LEADS[rules.variant.first_lead]:
        if dealt >> tile & 1:
            return _holder(hands, tile), tile
    heaviest = max((t for t in _TILE_IDS if dealt >> t & 1), key=heaviness)
    return _holder(hands, heaviest), heaviest


def _holder(hands: list[int], tile: int) -> int:
    return next(seat for seat, hand in enumerate(hands) if hand >> tile & 1)


def next_leader(state: State) -> int:
    """Who leads the hand after the one just finished (any tile)."""
    rules = state.rules
    last = state.hand_results[-1]
    if rules.lead == "fid":
        return (state.leader + 1) % state.n
    if rules.variant.next_lead == "out_or_fish":
        return last.maker
    if len(last.winners) == 1:
        return last.winners[0]
    return (state.leader + 1) % state.n


def start_next_hand(state: State, rng: random.Random) -> None:
    """Deal the next hand of `state`'s match from the match generator and decide its lead."""
    hands, boneyard = deal(rng, state.rules)
    if state.hand_number < 0:
        if by_lot(state.rules):
            state.start_hand(hands, boneyard, rng.randrange(state.n))
        else:
            state.start_hand(hands, boneyard, *first_lead(state.rules, hands))
    else:
        state.start_hand(hands, boneyard, next_leader(state))
