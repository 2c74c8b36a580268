"""Dealing (R-DEAL) and who leads each hand (R-LEAD, R-LEAD-DEALT, R-LEAD-WINNER, lead=fid)."""

from __future__ import annotations

import random

from ..rules import Rules
from ..tiles import N_TILES, heaviness, tile_id
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


#: (i, bits for a number up to i) for each Fisher-Yates swap of a 28-item list, in order.
_SHUFFLE_STEPS = tuple((i, i.bit_length()) for i in range(N_TILES - 1, 0, -1))


def shuffle(rng: random.Random, items: list, keep: int = 0) -> None:
    """Fisher-Yates on a list of 28: a uniformly random order in positions `keep` and up.

    The first `keep` positions get the remaining items in no particular order, which is enough
    when they make one hand (a set), and saves the last swaps. Each index comes from
    `rng.getrandbits` with as many bits as it needs, redrawn when too large: no modulo bias."""
    getrandbits = rng.getrandbits
    for i, width in _SHUFFLE_STEPS[:N_TILES - max(keep, 1)]:
        j = getrandbits(width)
        while j > i:
            j = getrandbits(width)
        items[i], items[j] = items[j], items[i]


def deal(rng: random.Random, rules: Rules) -> tuple[list[int], list[int]]:
    """Shuffle the set; return each seat's hand as a bitmask and the boneyard in draw order."""
    # Shuffling the tiles' bits instead of their ids is the same permutation, and a hand's mask
    # is then the sum of its slice.
    bits = list(_TILE_BITS)
    size = rules.hand_size
    shuffle(rng, bits, keep=size)  # seat 0's hand, positions 0..size-1, is a set
    dealt = rules.players * size
    hands = [sum(bits[start:start + size]) for start in range(0, dealt, size)]
    return hands, list(map(_TILE_OF_BIT.__getitem__, bits[dealt:]))


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
