"""What a person at the table is told, worked out from what the seat may know (R-VIEW): the line
as it lies, the fives count after each play, the moves worth offering, a move typed as a tile,
and at a hand's end every hand left and the arithmetic of the points. Text only: domsim.human
says it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ._core import fives_points, line_counts, round_to_five
from .engine import HandResult
from .rules import Rules
from .tiles import TILES, mask_pips, other_number, tile_id, tile_name, tiles_of
from .view import Event, Move, PlayerView

#: A tile of the line as it is drawn: `[3|5]`.
CELL = len("[3|5]")


class Laid(NamedTuple):
    """A tile on the table: the end it went on (-1: the lead), the number it shows towards the
    lead (the lead: the one end 0 shows) and outwards, and the fives count once it lay
    (R-FIVES-COUNT, R-SPINNER)."""

    end: int
    inward: int
    outward: int
    count: int


def laid_tiles(rules: Rules, plays: Sequence[Event]) -> list[Laid]:
    """The hand's plays, in order, as they lie (docs/GAME-RECORD.md, "Ends"): the lead on end 0
    shows its smaller number on end 0, on end 1 (flipped) its larger; a tile covers the number
    its end showed; ends 2 and 3 grow from the spinner, the first double laid. The fives count
    after each is the core's (R-FIVES-COUNT, R-SPINNER)."""
    shown: dict[int, int] = {}  # end -> the number it shows
    spinner: int | None = None
    laid: list[Laid] = []
    counts = line_counts(rules, [play.tile.id << 2 | play.end for play in plays])
    for play, count in zip(plays, counts, strict=True):
        tile = play.tile
        if not laid:
            first, second = (tile.a, tile.b) if play.end == 0 else (tile.b, tile.a)
            shown = {0: first, 1: second}
            laid.append(Laid(-1, first, second, count))
        else:
            inward = shown.get(play.end, spinner)
            shown[play.end] = other_number(tile.id, inward)
            laid.append(Laid(play.end, inward, shown[play.end], count))
        if spinner is None and tile.is_double:
            spinner = tile.a
    return laid


def laid_by_event(rules: Rules, history: Sequence[Event]) -> list[Laid | None]:
    """`laid_tiles` beside each event of the hand (None for a draw or a pass)."""
    laid = iter(laid_tiles(rules, [event for event in history if event.kind == "play"]))
    return [next(laid) if event.kind == "play" else None for event in history]


def fives_made(rules: Rules, history: Sequence[Event]) -> list[int]:
    """The points each side made during the hand by the fives count (R-FIVES-COUNT)."""
    made = [0] * rules.sides
    if rules.variant.scores_count:
        for event, laid in zip(history, laid_by_event(rules, history), strict=True):
            if laid is not None:
                made[rules.side_of(event.seat)] += fives_points(laid.count)
    return made


def line_rows(laid: Sequence[Laid], width: int) -> list[str]:
    """The line from end 0's arm through the lead to end 1's arm (`[3|5][5|5][5|1]`), wrapped to
    `width` columns, then the spinner's short sides (ends 2 and 3) a row each, from the
    spinner outwards."""
    if not laid:
        return []
    arm = [f"[{t.outward}|{t.inward}]" for t in reversed(laid) if t.end == 0]
    arm.append(f"[{laid[0].inward}|{laid[0].outward}]")
    arm += [f"[{t.inward}|{t.outward}]" for t in laid if t.end == 1]
    rows = _wrapped("Line: ", arm, width)
    for end in (2, 3):
        side = [f"[{t.inward}|{t.outward}]" for t in laid if t.end == end]
        if side:
            rows += _wrapped(f"  end {end}: ", side, width)
    return rows


def _wrapped(label: str, cells: list[str], width: int) -> list[str]:
    per_row = max(1, (width - 1 - len(label)) // CELL)
    return [(label if start == 0 else " " * len(label)) + "".join(cells[start:start + per_row])
            for start in range(0, len(cells), per_row)]


def distinct_moves(view: PlayerView) -> list[Move]:
    """The legal moves worth offering: on a line with no spinner whose two ends show the same
    number and count alike, a tile fitting both leaves the same line seen from its other side on
    either, which the rules treat alike (R-END, R-FIVES-COUNT; the core's search/mirror.rs): it
    is offered on end 0 only."""
    moves = view.legal_moves
    ends, counts = view.ends, view.end_counts
    mirrored = (not view.rules.variant.spinner and len(counts) == 2 and ends[0] == ends[1]
                and counts[0] == counts[1])
    return [move for move in moves
            if not (mirrored and move.end == 1 and Move(move.tile, 0) in moves)]


_TILE_TYPED = re.compile(r"([0-6])\s*[-|]\s*([0-6])(?:\s+(?:on\s+)?(.+))?")
_END_TYPED = re.compile(r"(?:end\s*)?([0-3])")
_END_WORDS = {"left": 0, "right": 1}


def end_named(text: str) -> int | None:
    """The end `text` names: `left` (end 0), `right` (end 1), `end N` or `N`; else None."""
    text = text.strip().lower()
    if text in _END_WORDS:
        return _END_WORDS[text]
    typed = _END_TYPED.fullmatch(text)
    return int(typed[1]) if typed else None


def read_move(text: str, view: PlayerView, offered: Sequence[Move]) -> list[Move] | str:
    """What `text` names among the moves `offered` (numbered from 1): a number, or a tile
    (`0-6`, `6-0`, `0|6`) with or without its end (`6-0 left`, `6-0 right`, `6-0 end 1`). Returns
    the one move meant, the moves a tile typed without its end may be (several: ask which), or
    why the text names no move."""
    text = text.strip().lower()
    if text.isdigit() and 1 <= int(text) <= len(offered):
        return [offered[int(text) - 1]]
    typed = _TILE_TYPED.fullmatch(text)
    if typed is None:
        return (f"{text!r} is no move: type a number from 1 to {len(offered)}, a tile (3-5, "
                "3-5 left), or ? for help")
    tile = TILES[tile_id(int(typed[1]), int(typed[2]))]
    fits = [move for move in view.legal_moves if move.tile == tile]
    if tile not in view.hand:
        return f"{tile} is not in your hand"
    if not fits:
        return f"{tile} fits no open end" if view.history else f"{tile} may not lead this hand"
    if typed[3] is None:
        return [move for move in offered if move.tile == tile]
    end = end_named(typed[3])
    if end is None:
        return f"{typed[3]!r} names no end: type left, right or end N"
    if not view.history:  # the lead opens both ends at once
        return fits
    if end >= len(view.ends) or view.ends[end] is None:
        return f"end {end} is not open"
    return [move for move in fits if move.end == end] or \
        f"{tile} does not fit end {end} (the {view.ends[end]})"


#: How the question names ends 0 and 1.
_SIDE = {0: "left, the", 1: "right, the"}


def which_end(moves: Sequence[Move], view: PlayerView) -> str:
    """The question when a tile typed fits several ends."""
    ends = " and ".join(f"end {move.end} ({_SIDE.get(move.end, 'the')} {view.ends[move.end]})"
                        for move in moves)
    return f"{moves[0].tile} fits {ends}: which end (left, right or end N)? "


# -- a hand's end ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Names:
    """What the person is told each seat is (`seats`: "you", "seat 1 (hard)") and each side
    (`sides`: "you", "hard", "your team", "the other team")."""

    seats: tuple[str, ...]
    sides: tuple[str, ...]

    @classmethod
    def of(cls, specs: Sequence[str], seat: int, teams: bool) -> Names:
        seats = tuple("you" if other == seat else f"seat {other} ({spec})"
                      for other, spec in enumerate(specs))
        if teams:
            return cls(seats, tuple("your team" if side == seat % 2 else "the other team"
                                    for side in (0, 1)))
        return cls(seats, tuple(
            name if other == seat or list(specs).count(specs[other]) > 1 else specs[other]
            for other, name in enumerate(seats)))

    def wins(self, rules: Rules, seats: Sequence[int]) -> str:
        """"hard wins", "you win", "your team wins", "you and seat 2 (easy) win"."""
        if not seats:
            return "nobody wins"
        names = list(dict.fromkeys(self.sides[rules.side_of(seat)] for seat in seats))
        return " and ".join(names) + (" win" if len(names) > 1 or names == ["you"] else " wins")

    def scores(self, rules: Rules, scores: Sequence[int], carry: int = 0) -> str:
        """"Scores: you 10, hard 45, target 150", with the carry waiting for the next losers."""
        against = " (points against)" if rules.variant.points_against else ""
        board = ", ".join(f"{self.sides[side]} {score}" for side, score in enumerate(scores))
        target = ""
        if rules.target:
            target = (f", {rules.target} loses" if rules.variant.points_against
                      else f", target {rules.target}")
        kept = f"; {carry} carried to the next hand's losers" if carry else ""
        return f"Scores{against}: {board}{target}{kept}"


def hand_over(names: Names, result: HandResult, held: Sequence[int]) -> str:
    """How the hand ended, in words."""
    if result.end == "target":
        return f"{names.seats[result.maker]} reached the target in play"
    if result.end == "domino":
        out = next(seat for seat, mask in enumerate(held) if not mask)
        return f"{names.seats[out]} went out" + (" with a capicú" if result.capicu else "")
    return "the line is blocked"


def held_lines(rules: Rules, names: Names, held: Sequence[int]) -> list[str]:
    """Every hand left, face up, with what it counts: "seat 1 (hard) holds 6-6 2-3: 17 pips"."""
    lines = []
    for seat, mask in enumerate(held):
        verb = "hold" if names.seats[seat] == "you" else "holds"
        value, pips = rules.held_value(mask), mask_pips(mask)
        counts = f": {pips} pip{'s' * (pips != 1)}" + (f", which counts {value}"
                                                       if value != pips else "")
        tiles = " ".join(tile_name(t) for t in tiles_of(mask))
        lines.append(f"{names.seats[seat]} {verb} " + (tiles + counts if mask else "nothing"))
    return lines


def points_lines(rules: Rules, names: Names, held: Sequence[int], result: HandResult,
                 made: Sequence[int], carry: int) -> list[str]:
    """The hand's points worked out as the rules score them (R-SCORE-BASIC, R-FIVES,
    R-PARTNERSHIP, R-PARTNERSHIP-1V1, R-KOZEL, R-TARGET): who wins, and for the side that gets
    the points, the sum of the fives made in play, the hands left, the rounding, the capicú
    bonus and the carry. `made` per side (`fives_made`), `carry` before the hand."""
    side = _scoring_side(rules, result)
    lines = [names.wins(rules, result.winners) + (
        "" if side is None else _equation(rules, names, held, result, made[side], carry, side))]
    if carry < result.carry:  # nobody won: the points wait for the next hand's losers
        lines.append(f"nobody is written down: {result.carry - carry} carried to the next "
                     "hand's losers")
    lines += [f"{names.sides[other]} made {points} (fives in play)"
              for other, points in enumerate(made) if points and other != side]
    return lines


def _scoring_side(rules: Rules, result: HandResult) -> int | None:
    """The side the hands left give points to: the winners', or the losers' where points
    count against; None when they give none (no winner, the target reached in play, a game
    without points)."""
    if not result.winners or result.end == "target" or rules.tally[:2] == (0, 0):
        return None
    won = rules.side_of(result.winners[0])
    return 1 - won if rules.variant.points_against else won


def _equation(rules: Rules, names: Names, held: Sequence[int], result: HandResult, made: int,
              carry: int, side: int) -> str:
    """" 24 = 17 + 7 (the other hands)": what the hand gives `side` and how."""
    from_hands = _hand_terms(rules, held, side)
    terms = ([_Terms(1, [made], "fives in play")] if made else []) + from_hands
    summed = sum(group.sign * sum(group.values) for group in from_hands)
    rounding = round_to_five(summed) - summed if rules.tally.to_five else 0
    if rounding:
        terms.append(_Terms(1 if rounding > 0 else -1, [abs(rounding)], "to the nearest 5"))
    if result.capicu and rules.capicu_bonus:
        terms.append(_Terms(1, [rules.capicu_bonus], "capicú"))
    if rules.variant.points_against and carry:
        terms.append(_Terms(1, [carry], "carried"))
    points = result.points[side]
    if rules.variant.points_against:
        return f" the hand: {points} against {names.sides[side]} = {_written(terms)}"
    return f" {points} = {_written(terms)}"


class _Terms(NamedTuple):
    """Values added (`sign` 1) or taken off (-1), and what they are."""

    sign: int
    values: list[int]
    note: str


def _hand_terms(rules: Rules, held: Sequence[int], side: int) -> list[_Terms]:
    """What the hands left give `side`, as the rules' tally counts them (an empty hand shows
    nothing)."""
    tally = rules.tally
    seats = [seat for seat in range(rules.players) if held[seat]]
    if tally.own == tally.others:  # every hand left counts alike
        return [_Terms(tally.own, [rules.held_value(held[s]) for s in seats], "every hand left")]
    theirs = ("the other team's hands" if rules.variant.teams else
              "the other hand" if rules.sides == 2 else "the other hands")
    own = "the losers' hands" if rules.variant.points_against else "the winner's own"
    return [_Terms(sign, [rules.held_value(held[s]) for s in seats
                          if (rules.side_of(s) == side) == mine], note)
            for sign, mine, note in ((tally.others, False, theirs), (tally.own, True, own))
            if sign]


def _written(terms: list[_Terms]) -> str:
    """`17 + 7 (the other hands) - 12 (the winner's own)`; "0" for nothing."""
    words: list[str] = []
    for group in terms:
        for value in group.values:
            sign = "+" if group.sign > 0 else "-"
            words.append(str(value) if not words and sign == "+" else f"{sign} {value}")
        if group.values:
            words[-1] += f" ({group.note})"
    return " ".join(words) or "0"
