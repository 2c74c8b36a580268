"""A tourney's plan (`Plan`): its settings resolved once into rules, entrants, pairings, the
schedule and the fixed deals, before any folder or bot exists; and the game counts that make
whole deals, with a note saying what was rounded."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..deals import Deal, deal_index, read_deals
from ..rules import Rules
from .config import ConfigError, TourneyConfig
from .pairings import Entrant, make_pairings, parse_entrants
from .schedule import Schedule


@dataclass(frozen=True)
class Plan:
    """What a tourney is: its settings, rules, entrants, pairings, schedule and fixed deals."""

    config: TourneyConfig
    rules: Rules
    entrants: list[Entrant]
    pairings: list[tuple[int, ...]]
    schedule: Schedule
    deals: list[Deal]

    @classmethod
    def of(cls, config: TourneyConfig) -> Plan:
        """The plan of these settings (ConfigError, StrategyError, ...: one line, if none)."""
        config.check()
        rules = config.rules()
        entrants = parse_entrants(config.entrant_names(), rules)
        pairings = make_pairings(len(entrants), rules.sides, config.format)
        if len(pairings) % config.deal_groups:
            raise ConfigError(f"deal_groups must divide the {len(pairings)} pairings, got "
                              f"{config.deal_groups}")
        schedule = Schedule(config.games, len(pairings), rules.sides, config.duplicate,
                            config.seed, config.run_key, config.deal_groups)
        deals = read_deals(config.deals, rules) if config.deals else []
        return cls(config, rules, entrants, pairings, schedule, deals)

    @property
    def deal_set(self) -> int:
        """The games that play one deal in every seating of every pairing."""
        return self.schedule.seatings_per_deal * len(self.pairings)

    def fixed_deal(self, game_id: int) -> Deal:
        """The first hands of a game of a run on fixed deals."""
        deal_id = self.schedule.slot(game_id).deal_id
        return self.deals[deal_index(deal_id, len(self.deals), self.config.deals_order,
                                     self.config.seed)]


def every_deal_once(settings: dict) -> int:
    """The games that play every fixed deal once in every seating of every pairing."""
    plan = Plan.of(TourneyConfig.from_dict(settings))
    return len(plan.deals) * plan.deal_set


def games_for_pairings(settings: dict, per_pairing: int) -> tuple[int, str | None]:
    """The total games that give every pairing `per_pairing` games rounded up to whole deals
    (each in every seating), and a note saying what was rounded (None: nothing)."""
    plan = Plan.of(TourneyConfig.from_dict(settings))
    seatings = plan.schedule.seatings_per_deal
    rounded = round_up(per_pairing, seatings)
    note = None if rounded == per_pairing else (
        f"{per_pairing} games per pairing rounded up to {rounded}: whole deals, each in "
        f"{seatings} seatings")
    return rounded * len(plan.pairings), note


def round_up(count: int, unit: int) -> int:
    """`count` rounded up to a whole number of `unit`s."""
    return -(-count // unit) * unit


def whole_deal_sets(config: TourneyConfig,
                    min_deals: int = 1) -> tuple[TourneyConfig, str | None]:
    """`config` with its games rounded up to whole deal sets (every pairing plays every deal in
    every seating), at least `min_deals` of them, and a note saying what was rounded (None:
    nothing)."""
    plan = Plan.of(config)
    deal_set = plan.deal_set
    games = max(round_up(config.games, deal_set), min_deals * deal_set)
    if games == config.games:
        return config, None
    why = (f"the {min_deals} deals a ladder verdict needs" if games == min_deals * deal_set
           and games > round_up(config.games, deal_set) else "whole deal sets")
    return replace(config, games=games), (
        f"{config.games} games rounded up to {games}: {why} ({len(plan.pairings)} "
        f"pairings x {plan.schedule.seatings_per_deal} seatings a deal)")
