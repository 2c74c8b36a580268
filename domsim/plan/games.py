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
        """The plan of these settings, its entrants named as the manifest keeps them
        (ConfigError, StrategyError, ...: one line, if none)."""
        config.check()
        config = replace(config, entrants=tuple(config.entrant_names()))
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

    @classmethod
    def settle(cls, config: TourneyConfig, per_pairing: int | None = None,
               every_deal: bool = False) -> tuple[Plan, str | None]:
        """The plan with its game count settled, once: `per_pairing` games for every pairing
        rounded up to whole deals (each in every seating), or (`every_deal`) every fixed deal
        once in every seating of every pairing, else config.games; and a note saying what was
        rounded (None: nothing)."""
        plan = cls.of(config)
        if per_pairing is not None:
            seatings = plan.schedule.seatings_per_deal
            rounded = round_up(per_pairing, seatings)
            note = None if rounded == per_pairing else (
                f"{per_pairing} games per pairing rounded up to {rounded}: whole deals, each in "
                f"{seatings} seatings")
            return plan.playing(rounded * len(plan.pairings)), note
        if every_deal:
            return plan.playing(len(plan.deals) * plan.deal_set), None
        return plan, None

    def in_whole_deal_sets(self, min_deals: int = 1) -> tuple[Plan, str | None]:
        """The plan with its games rounded up to whole deal sets (every pairing plays every
        deal in every seating), at least `min_deals` of them, and a note saying what was
        rounded (None: nothing)."""
        games = max(round_up(self.config.games, self.deal_set), min_deals * self.deal_set)
        if games == self.config.games:
            return self, None
        why = (f"the {min_deals} deals a ladder verdict needs" if games == min_deals
               * self.deal_set and games > round_up(self.config.games, self.deal_set)
               else "whole deal sets")
        return self.playing(games), (
            f"{self.config.games} games rounded up to {games}: {why} ({len(self.pairings)} "
            f"pairings x {self.schedule.seatings_per_deal} seatings a deal)")

    def playing(self, games: int) -> Plan:
        """The same plan for `games` games."""
        return replace(self, config=replace(self.config, games=games),
                       schedule=replace(self.schedule, games=games))

    def keyed(self, run_key: str | None) -> Plan:
        """The same plan with the run's secret key in its game seeds (domsim.seeding)."""
        return replace(self, config=replace(self.config, run_key=run_key),
                       schedule=replace(self.schedule, run_key=run_key))

    @property
    def deal_set(self) -> int:
        """The games that play one deal in every seating of every pairing."""
        return self.schedule.seatings_per_deal * len(self.pairings)

    def fixed_deal(self, game_id: int) -> Deal:
        """The first hands of a game of a run on fixed deals."""
        deal_id = self.schedule.slot(game_id).deal_id
        return self.deals[deal_index(deal_id, len(self.deals), self.config.deals_order,
                                     self.config.seed)]


def round_up(count: int, unit: int) -> int:
    """`count` rounded up to a whole number of `unit`s."""
    return -(-count // unit) * unit
