"""The eight rule sets (docs/RULES.md) as small declarative presets, and `make_rules`, which turns a
variant name, a player count and options into a validated, frozen `Rules`."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

# A variant, player count, option, deal or action the rules do not allow; the message is one
# line. The core's class, so that what it refuses (IllegalMove, ...) is a RulesError too.
from ._core import RulesError
from ._core import held_value as _held_value
from ._core import points_against as _points_against
from ._core import scores_count as _scores_count
from ._core import tally as _tally
from .suggest import did_you_mean


@dataclass(frozen=True, slots=True)
class Variant:
    """What a rule set fixes. `hand_sizes[players]`; `target` 0 means a single-hand game."""

    name: str
    description: str
    hand_sizes: dict[int, int]
    target: int
    draws: bool  # a stuck player draws (R-MUST) instead of passing
    scoring: str  # basic | fives | classic | kozel | partnership | p1v1
    first_lead: str  # highest_double | lowest_from_1 | 1-1 | 6-6 | lot
    next_lead: str  # winner | out_or_fish
    spinner: bool = False
    teams: bool = False
    options: tuple[str, ...] = ("target",)
    seed: str = ""
    partner_floor: str = ""  # R-LEVEL: the least level a player's partner plays at ("": any)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.hand_sizes))

    @property
    def points_against(self) -> bool:
        """R-KOZEL: the points a hand awards count against the side that gets them (the losers
        record their pips), and reaching the target loses the match (the core's answer)."""
        return _points_against(self.scoring)

    @property
    def scores_count(self) -> bool:
        """R-FIVES-COUNT: a play scores the count of the open ends when it is a positive
        multiple of 5 (the core's answer)."""
        return _scores_count(self.scoring)


_SMALL_HANDS = {2: 7, 3: 5, 4: 5}

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("draw", "draw from the boneyard when stuck; out or lowest block scores the rest",
                _SMALL_HANDS, 100, True, "basic", "highest_double", "winner", seed="000, 001"),
        Variant("block", "pass when stuck; out or lowest block scores the rest",
                {2: 7, 3: 7, 4: 7}, 100, False, "basic", "highest_double", "winner",
                seed="000, 001"),
        Variant("fives", "draw game scoring open-end totals that are multiples of 5",
                {2: 7}, 150, True, "fives", "highest_double", "winner", seed="000"),
        Variant("allfives", "fives with a spinner: the first double opens four ends",
                _SMALL_HANDS, 150, True, "fives", "highest_double", "winner", spinner=True,
                seed="001"),
        Variant("classic", "one hand of the draw game; first out or lowest block wins",
                _SMALL_HANDS, 0, True, "classic", "lowest_from_1", "winner", options=(),
                seed="003"),
        Variant("kozel", "2 on 2, losers record their pips; 101 makes the goats",
                {4: 7}, 101, False, "kozel", "1-1", "out_or_fish", teams=True, seed="000",
                partner_floor="hard"),
        Variant("partnership", "2 on 2 La Plaza block game; the winning team scores all pips",
                {4: 7}, 100, False, "partnership", "6-6", "out_or_fish", teams=True,
                options=("target", "capicu_bonus", "count", "fish", "lead"), seed="004"),
        Variant("partnership-1v1", "one-on-one partnership draw game; first lead by lot",
                {2: 7}, 100, True, "p1v1", "lot", "out_or_fish", seed="004"),
    )
}

#: Option name -> (default, allowed values or None for "integer", lowest integer allowed).
OPTION_SPECS: dict[str, tuple[object, tuple[str, ...] | None, int]] = {
    "target": (None, None, 1),
    "capicu_bonus": (0, None, 0),
    "count": ("all", ("all", "losers"), 0),
    "fish": ("lower", ("lower", "maker"), 0),
    "lead": ("winner", ("winner", "fid"), 0),
}
#: The highest integer option: the core keeps targets, bonuses and scores in 32 bits, and a game
#: to a million points already takes thousands of hands.
HIGHEST_OPTION = 1_000_000


class Tally(NamedTuple):
    """How a finished hand's points are summed from the hands left, for the side that gets them
    (the winners, or the losers where points count against them): what that side's own hands
    count (1 added, -1 taken off, 0 left out), what every other side's count (1 or 0), and
    whether the sum is rounded to the nearest 5 (R-SCORE-BASIC, R-FIVES, R-PARTNERSHIP,
    R-PARTNERSHIP-1V1, R-KOZEL)."""

    own: int
    others: int
    to_five: bool


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything the engine needs to referee one match."""

    variant: Variant
    players: int
    target: int
    capicu_bonus: int = 0
    count: str = "all"
    fish: str = "lower"
    lead: str = "winner"
    hand_size: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hand_size", self.variant.hand_sizes[self.players])

    @property
    def name(self) -> str:
        return self.variant.name

    @property
    def sides(self) -> int:
        """Number of scoring sides: teams in team games, else seats."""
        return 2 if self.variant.teams else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.variant.teams else seat

    @property
    def tally(self) -> Tally:
        """How a finished hand's points are summed from the hands left (the core's answer)."""
        return Tally(*_tally(self))

    def held_value(self, hand: int) -> int:
        """What a hand left (a tile mask) counts when a hand is scored: its pips, or 25 for
        kozel's lone 0-0 (R-KOZEL-25; the core's answer)."""
        return _held_value(self, hand)

    def options(self) -> dict[str, object]:
        """Only the options that differ from the variant's defaults (docs/GAME-RECORD.md)."""
        out: dict[str, object] = {}
        if self.target != self.variant.target:
            out["target"] = self.target
        for key in ("capicu_bonus", "count", "fish", "lead"):
            if getattr(self, key) != OPTION_SPECS[key][0]:
                out[key] = getattr(self, key)
        return out


def find_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise RulesError(
            f"unknown variant {name!r}: {did_you_mean(name, VARIANTS)}choose one of "
            f"{', '.join(VARIANTS)}"
        ) from None


def _coerce_option(variant: Variant, key: str, value: object) -> object:
    if key not in variant.options:
        allowed = ", ".join(variant.options) or "none"
        raise RulesError(f"{variant.name} has no option {key!r} "
                         f"({did_you_mean(key, variant.options)}options: {allowed})")
    default, choices, lowest = OPTION_SPECS[key]
    if choices is not None:
        if str(value) not in choices:
            allowed = ", ".join(choices)
            raise RulesError(f"option {key}={value!r} is not allowed: use one of {allowed}")
        return str(value)
    try:
        number = int(str(value))
    except ValueError:
        raise RulesError(f"option {key}={value!r} must be an integer >= {lowest}") from None
    if not lowest <= number <= HIGHEST_OPTION:
        raise RulesError(f"option {key}={number} must be an integer from {lowest} to "
                         f"{HIGHEST_OPTION}")
    return number


def make_rules(name: str, players: int | None = None, options: dict | None = None) -> Rules:
    """Validated rules for a variant; `players` defaults to the variant's smallest count."""
    variant = find_variant(name)
    players = variant.player_counts[0] if players is None else players
    if players not in variant.hand_sizes:
        counts = ", ".join(map(str, variant.player_counts))
        raise RulesError(f"{name} is played by {counts} players, not {players}")
    values = {k: _coerce_option(variant, k, v) for k, v in (options or {}).items()}
    target = values.pop("target", variant.target)
    return replace(Rules(variant, players, target), **values)


def parse_options(pairs: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Turn ["key=value", ...] into a dict; a pair without "=" is refused."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise RulesError(f"option {pair!r} must be written KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def private_copy(rules: Rules) -> Rules:
    """Rules equal to `rules` sharing nothing mutable with them (not even through
    object.__setattr__): a strategy's own copy (domsim.seat.seats, domsim.seat.host)."""
    variant = rules.variant
    return replace(rules, variant=replace(variant, hand_sizes=dict(variant.hand_sizes)))
