"""Entrants, pairings and duplicate seatings.

A pairing is a tuple of entrant indices, one per *slot*: a slot is a scoring side (a seat in
individual games, a team in team games), so 2-player and team games are head-to-head and 3-4
player individual games seat one entrant per seat. A seating rotates the slots over the sides
(R-DUP: 2 players swap hands, 3-4 players rotate seats, teams swap places), and every seating of a
deal is played when the run is duplicate, so deal luck cancels."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from ..rules import Rules
from ..spec import BUILT_IN_LEVELS, DIAL, SESSION_PREFIX, Spec
from ..strategy import StrategyError, entry_points

FORMATS = ("round-robin", "gauntlet")
#: What an entrant's name may hold: `-p NAME=SPEC` names an entrant when the text before the first
#: `=` is such a name (a spec's parameters follow a `?`, so `hard?shed=2` names nothing).
NAME = re.compile(r"[A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class Entrant:
    """`name` as the user gave it (or made from the spec); `members` the spec per team seat (one
    spec: every seat)."""

    name: str
    members: tuple[Spec, ...]

    def spec_at(self, member: int) -> Spec:
        return self.members[member % len(self.members)]

    @property
    def plays_dial(self) -> bool:
        """Whether it is a dial setting (a team: its first member; the partner may be a level),
        read off its spec: nothing is loaded."""
        first = self.members[0]
        return first.kind == "name" and first.target == DIAL


def level_indices(entrants: Sequence[Entrant]) -> list[int]:
    """The entrants that are not dial settings (every entrant if all are)."""
    levels = [i for i, entrant in enumerate(entrants) if not entrant.plays_dial]
    return levels or list(range(len(entrants)))


def builtin_levels() -> list[str]:
    """The registered built-in levels, weakest first: the default entrants."""
    return [name for name in BUILT_IN_LEVELS if name in entry_points()]


def split_name(text: str) -> tuple[str | None, str]:
    """`NAME=SPEC` -> (NAME, SPEC); a bare SPEC -> (None, SPEC)."""
    name, sep, spec = text.partition("=")
    if sep and NAME.fullmatch(name.strip()):
        return name.strip(), spec.strip()
    return None, text.strip()


def team_members(spec: str) -> tuple[str, ...]:
    """The specs an entrant's `a+b` joins: split at every `+` outside shell quotes and not
    escaped by a backslash, so an `exec:` command keeps a quoted `'a+b'` (or `a\\+b`) whole."""
    members, current, quote, escaped = [], [], None, False
    for char in spec:
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "+":
            members.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    return (*members, "".join(current).strip())


def default_name(spec: str) -> str:
    """An entrant's name when none is given: the spec, a strategy file by its stem (so a path
    does not widen every table) and a class defined in the session by the class's name."""
    names = []
    for member in team_members(spec):
        path = Spec.of(member).path
        if path:
            member = Path(path).stem + member[len(path):]
        names.append(member.removeprefix(SESSION_PREFIX))
    return "+".join(names)


def parse_entrants(texts: list[str] | tuple[str, ...], rules: Rules) -> list[Entrant]:
    """Entrants from `[NAME=]SPEC` texts; `a+b` is a team (seats 0 and 2, or 1 and 3) in team
    variants only. Names must differ; the same spec may enter under two names."""
    if len(texts) < 2:
        raise StrategyError(f"a tourney needs at least 2 entrants, got {len(texts)}: "
                            "give -p SPEC at least twice")
    entrants = []
    for text in texts:
        name, spec = split_name(text)
        members = team_members(spec)
        if len(members) > 1 and not rules.variant.teams:
            raise StrategyError(f"team entrant {spec!r}: {rules.name} is not a team game (a '+' "
                                "that belongs to an exec: command is quoted: 'a+b')")
        if len(members) > 2 or not all(members):
            raise StrategyError(f"team entrant {spec!r} must be two specs joined by '+'")
        entrants.append(Entrant(name or default_name(spec), tuple(map(Spec.of, members))))
    names = [entrant.name for entrant in entrants]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        spec = "+".join(member.text for member in entrants[names.index(repeated[0])].members)
        raise StrategyError(f"two entrants are named {repeated[0]!r}: name them apart with "
                            f"NAME=SPEC, e.g. {repeated[0]}2={spec}")
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


def seat_entrants(rules: Rules, pairing: tuple[int, ...], seating: int) -> list[int]:
    """The entrant (index) at each seat."""
    return [pairing[seat_owner(rules, seating, seat)[0]] for seat in range(rules.players)]


def seat_specs(rules: Rules, entrants: list[Entrant], pairing: tuple[int, ...],
               seating: int) -> list[Spec]:
    """The strategy spec at each seat."""
    return [entrants[e].spec_at(seat_owner(rules, seating, seat)[1])
            for seat, e in enumerate(seat_entrants(rules, pairing, seating))]


def pairing_label(entrants: list[Entrant], pairing: tuple[int, ...]) -> str:
    return " vs ".join(entrants[i].name for i in pairing)


def seated_twice(entrants: list[Entrant], pairings: list[tuple[int, ...]]) -> str | None:
    """What to say when fewer entrants than sides seat one entrant on several sides of a game
    (None: every entrant has one side). Its rating counts each side it holds; its win rate is
    its sides' share of the wins, against an equal's share of those sides."""
    twice = {e: pairing.count(e) for pairing in pairings for e in pairing if pairing.count(e) > 1}
    if not twice:
        return None
    held = ", ".join(f"{entrants[e].name} holds {count} sides" for e, count in twice.items())
    return (f"fewer entrants than sides: {held} of every game (rated per side held; its win "
            "rate is against the share of equals holding as many)")
