"""Fixed deals, as chess testers use opening books: a file of first-hand deals that a tourney
plays (`--deals FILE`), in order or shuffled, every deal in every seating; and the deals of a
run, or the first deals of a seed, written to such a file (`domsim deals`).

A deals file is JSON Lines in the game-record format (docs/GAME-RECORD.md): one object per deal with
`variant`, `players`, `options` and `hands`, of which only the first hand's `deal` (and `leader`,
needed where the first leader is drawn by lot) is read. A records file is therefore a deals
file. Later hands of a game are dealt from its seed, as always."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from .engine import State
from .record import RecordError, deal_dict, read_records, rules_of
from .record import _leader as record_leader  # the record's own checks of a deal and its lead
from .record import _read_deal as record_deal
from .rules import Rules
from .seeding import deal_rng, derive_seed, game_seed

ORDERS = ("in-order", "shuffled")


@dataclass(frozen=True)
class Deal:
    """A first hand: each seat's tiles (bit masks), the boneyard in draw order, the leader and
    the tile it must lead (-1: any)."""

    hands: tuple[int, ...]
    boneyard: tuple[int, ...]
    leader: int
    lead_tile: int

    def start(self, state: State) -> None:
        state.start_hand(list(self.hands), list(self.boneyard), self.leader, self.lead_tile)


def read_deals(path: str | Path, rules: Rules) -> list[Deal]:
    """The deals in `path` (RecordError naming the file and the deal if one is malformed or made
    for other rules)."""
    records = read_records(path, at_least_one=False)
    if not records:
        raise RecordError(f"{path}: holds no deal: write one JSON object per line")
    out = []
    for index, record in enumerate(records):
        where = f"{path}, deal {index + 1}"
        theirs = rules_of(record, where)
        if (theirs.name, theirs.players) != (rules.name, rules.players):
            raise RecordError(f"{where}: dealt for {theirs.name} with {theirs.players} players, "
                              f"the run plays {rules.name} with {rules.players}")
        hands = record.get("hands")
        if not isinstance(hands, list) or not hands or not isinstance(hands[0], dict):
            raise RecordError(f"{where}: field 'hands' must list the first hand's deal")
        masks, boneyard, _ = record_deal(hands[0], rules, where)
        leader, tile = record_leader(State(rules), hands[0], masks, where)
        out.append(Deal(tuple(masks), tuple(boneyard), leader, tile))
    return out


def deal_index(deal_id: int, count: int, order: str, seed: int) -> int:
    """Which of `count` deals the run's deal `deal_id` plays: in file order, round after round,
    or shuffled afresh each round from the run seed."""
    cycle, position = divmod(deal_id, count)
    if order == "in-order":
        return position
    permutation = list(range(count))
    random.Random(derive_seed("deals", seed, cycle)).shuffle(permutation)
    return permutation[position]


def seeded_deal(rules: Rules, seed: int) -> Deal:
    """The first hand a game with this seed deals (domsim.engine.start_next_hand)."""
    state = State(rules)
    state.start_next_hand(deal_rng(seed))
    return Deal(tuple(state.hands), tuple(state.boneyard), state.leader, state.lead_tile)


def run_deals(rules: Rules, config, table) -> list[tuple[int, int, Deal]]:
    """(deal id, game seed, first-hand deal) of every deal in a run's games table, in deal-id
    order: the deals file's (`config.deals`, which must still be there) or the seeds'."""
    columns = table.select(["deal_id", "seed"]).to_pydict()
    seeds = dict(zip(columns["deal_id"], columns["seed"], strict=True))
    fixed = read_deals(config.deals, rules) if config.deals else []
    return [(deal_id, seed,
             fixed[deal_index(deal_id, len(fixed), config.deals_order, config.seed)] if fixed
             else seeded_deal(rules, seed))
            for deal_id, seed in sorted(seeds.items())]


def seed_deals(rules: Rules, seed: int, count: int) -> list[tuple[int, int, Deal]]:
    """(deal id, game seed, first-hand deal) of the first `count` deals a run with this seed
    deals (deal i from the game seed of (seed, i), R-RNG), without playing them."""
    seeds = [(deal_id, game_seed(seed, deal_id)) for deal_id in range(count)]
    return [(deal_id, game, seeded_deal(rules, game)) for deal_id, game in seeds]


def deal_line(rules: Rules, deal: Deal, **labels) -> str:
    """One line of a deals file."""
    hand = {"deal": deal_dict(list(deal.hands), list(deal.boneyard)), "leader": deal.leader}
    return json.dumps({"format": "domsim-game/1", "variant": rules.name, "players": rules.players,
                       "options": rules.options(), **labels, "hands": [hand]})
