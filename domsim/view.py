"""PlayerView (R-VIEW): what a person at one seat knows, as immutable plain values. A strategy
gets nothing else: never another hand's tiles, never the boneyard order."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NamedTuple

from .engine.state import (
    PLAY,
    State,
    action_end,
    action_kind,
    action_open_numbers,
    action_seat,
    action_tile,
)
from .rules import Rules
from .tiles import TILES, Tile, tiles_of

KINDS = ("play", "draw", "pass")


class Move(NamedTuple):
    """A play: `tile` laid on open end `end` (the lead uses end 0)."""

    tile: Tile
    end: int

    def __str__(self) -> str:
        return f"{self.tile}@{self.end}"


class Event(NamedTuple):
    """One public action of the hand. `tile` and `end` are None for draws and passes (nobody sees
    a drawn tile); `open_numbers` are the numbers the ends showed when a seat drew or passed,
    which that seat is known not to have held at that moment."""

    seat: int
    kind: str  # play | draw | pass
    tile: Tile | None
    end: int | None
    open_numbers: tuple[int, ...]


_MOVES = tuple(Move(TILES[m >> 2], m & 3) for m in range(28 * 4))


def move_value(move: int) -> Move:
    return _MOVES[move]


def move_int(move: Move) -> int:
    return move.tile.id << 2 | move.end


def event_of(action: int) -> Event:
    kind = action_kind(action)
    if kind == PLAY:
        tile = TILES[action_tile(action)]
        return Event(action_seat(action), "play", tile, action_end(action), ())
    numbers = tuple(n for n in range(7) if action_open_numbers(action) >> n & 1)
    return Event(action_seat(action), KINDS[kind], None, None, numbers)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """The information set of `seat` when it must choose a play.

    `ends[e]` is the number showing on open end e (None: not open); `end_counts[e]` is what open
    end e adds to the fives count now (a double there counts both halves, an empty short side of
    the spinner 0; while the lead is alone the count is its pip total instead); `history` is
    every action of this hand in order; `scores` are per side (seat, or team 0 = seats 0 and 2
    in team games); `legal_moves` are the plays allowed now (there is always at least one)."""

    rules: Rules
    seat: int
    hand: tuple[Tile, ...]
    ends: tuple[int | None, ...]
    history: tuple[Event, ...]
    hand_counts: tuple[int, ...]
    boneyard_count: int
    can_draw: bool
    scores: tuple[int, ...]
    carry: int
    target: int
    hand_number: int
    leader: int
    spinner: int | None
    end_counts: tuple[int, ...]
    legal_moves: tuple[Move, ...]

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def variant(self) -> str:
        return self.rules.name

    @property
    def line(self) -> tuple[Event, ...]:
        """The plays of this hand in order (who, which tile, which end)."""
        return tuple(e for e in self.history if e.kind == "play")

    def partner(self) -> int | None:
        """The partner's seat in team games, else None."""
        return (self.seat + 2) % 4 if self.rules.variant.teams else None


# Events are immutable, so one per distinct action serves every view.
_event_of_cached = functools.cache(event_of)
_NO_ENDS = (None, None, None, None)
#: _BYTE_TILES[k][m]: the Tiles set in byte k of a hand mask being m (tile ids end at 27).
_BYTE_TILES: tuple[tuple[tuple[Tile, ...], ...], ...] = tuple(
    tuple(tuple(TILES[t] for t in tiles_of(byte << 8 * k)) for byte in range(256 if k < 3 else 16))
    for k in range(4)
)


# A frozen dataclass's __init__ writes each field through object.__setattr__: slow for a view
# built per decision. ViewBuilder fills a plain object with PlayerView's slots and then gives it
# PlayerView's class (the layouts are the same), five times faster; the view is frozen from then.
_Draft = type("_Draft", (), {"__slots__": PlayerView.__slots__})
_NEW = object.__new__


class ViewBuilder:
    """Builds views for one match, converting each public action to an Event only once."""

    def __init__(self) -> None:
        self._history: tuple[Event, ...] = ()
        self._hand = -1

    def view(self, state: State, moves: list[int]) -> PlayerView:
        if state.hand_number != self._hand:
            self._history, self._hand = (), state.hand_number
        history = self._history
        new = state.history_since(len(history))
        if new:
            history += tuple([_event_of_cached(action) for action in new])
            self._history = history
        seat = state.to_move
        n_ends = state.n_ends
        spinner = state.spinner_number()
        hand = state.hands[seat]
        view = _NEW(_Draft)
        view.rules = state.rules
        view.seat = seat
        view.hand = (_BYTE_TILES[0][hand & 0xFF] + _BYTE_TILES[1][hand >> 8 & 0xFF]
                     + _BYTE_TILES[2][hand >> 16 & 0xFF] + _BYTE_TILES[3][hand >> 24])
        view.ends = tuple(state.ends[:n_ends]) + _NO_ENDS[n_ends:4 if state.spins else 2]
        view.history = history
        view.hand_counts = tuple([mask.bit_count() for mask in state.hands])
        view.boneyard_count = state.boneyard_left()
        view.can_draw = state.can_draw()
        view.scores = tuple(state.scores)
        view.carry = state.carry
        view.target = state.rules.target
        view.hand_number = state.hand_number
        view.leader = state.leader
        view.spinner = None if spinner < 0 else spinner
        view.end_counts = tuple(state.end_counts[:n_ends])
        view.legal_moves = tuple([_MOVES[move] for move in moves])
        view.__class__ = PlayerView
        return view
