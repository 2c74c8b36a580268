"""Entrants, pairings and duplicate seatings.

A pairing is a tuple of entrant indices, one per *slot*: a slot is a scoring side (a seat in
individual games, a team in team games), so 2-player and team games are head-to-head and 3-4
player individual games seat one entrant per seat. A seating rotates the slots over the sides
(R-DUP: 2 players swap hands, 3-4 players rotate seats, teams swap places), and every seating of a
deal is played when the run is duplicate, so deal luck cancels."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from ..bot import BUILT_IN_LEVELS
from ..rules import Rules
from ..strategy import StrategyError, entry_points

LEVELS = BUILT_IN_LEVELS
FORMATS = ("round-robin", "gauntlet")


@dataclass(frozen=True)
class Entrant:
    """`name` as the user wrote it; `members` the spec per team seat (one spec: every seat)."""

    name: str
    members: tuple[str, ...]

    def spec_at(self, member: int) -> str:
        return self.members[member % len(self.members)]


def builtin_levels() -> list[str]:
    """The registered built-in levels, weakest first: the default entrants."""
    return [name for name in LEVELS if name in entry_points()]


def parse_entrants(names: list[str] | tuple[str, ...], rules: Rules) -> list[Entrant]:
    """Entrants from specs; `a+b` is a team (seats 0 and 2, or 1 and 3) in team variants only."""
    if len(names) < 2:
        raise StrategyError(f"a tourney needs at least 2 entrants, got {len(names)}: "
                            "give -p SPEC at least twice")
    repeated = sorted({name for name in names if list(names).count(name) > 1})
    if repeated:
        raise StrategyError(f"entrant {repeated[0]!r} is given twice: give each entrant once")
    entrants = []
    for name in names:
        members = tuple(part.strip() for part in name.split("+"))
        if len(members) > 1 and not rules.variant.teams:
            raise StrategyError(f"team entrant {name!r}: {rules.name} is not a team game")
        if len(members) > 2 or not all(members):
            raise StrategyError(f"team entrant {name!r} must be two specs joined by '+'")
        entrants.append(Entrant(name, members))
    return entrants


def make_pairings(count: int, slots: int, form: str) -> list[tuple[int, ...]]:
    """Pairings of `count` entrants for games with `slots` sides.

    round-robin: every group of `slots` entrants; gauntlet: entrant 0 with every group of the
    others. With fewer entrants than slots, the entrants fill the slots in turn."""
    if form not in FORMATS:
        raise StrategyError(f"unknown format {form!r}: use {' or '.join(FORMATS)}")
    if count < slots:
        return [tuple(i % count for i in range(slots))]
    if form == "gauntlet":
        return [(0, *group) for group in combinations(range(1, count), slots - 1)]
    return list(combinations(range(count), slots))


def seat_owner(rules: Rules, seating: int, seat: int) -> tuple[int, int]:
    """(slot, team member) of the entrant at `seat` when the slots are rotated by `seating`."""
    slot = (rules.side_of(seat) - seating) % rules.sides
    return slot, seat // 2 if rules.variant.teams else 0


def seat_specs(rules: Rules, entrants: list[Entrant], pairing: tuple[int, ...],
               seating: int) -> list[str]:
    """The strategy spec at each seat."""
    specs = []
    for seat in range(rules.players):
        slot, member = seat_owner(rules, seating, seat)
        specs.append(entrants[pairing[slot]].spec_at(member))
    return specs


def pairing_label(entrants: list[Entrant], pairing: tuple[int, ...]) -> str:
    return " vs ".join(entrants[i].name for i in pairing)
