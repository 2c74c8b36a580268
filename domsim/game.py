"""Playing one game (a match: hands until the target; classic: one hand) between strategies, and
the game record it produces (docs/GAME-RECORD.md)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

from .clock import GameClock, TimeControl
from .engine import State, start_next_hand
from .human import HumanSeat, Terminal, is_human
from .limits import MOVE_TIME_LIMIT, ON_FAULT
from .plan.config import SETTINGS, check_settings
from .record import GameResult, forfeit_dict, game_record, hand_record, seal
from .rules import Rules
from .seat.alarm import MoveAlarm
from .seat.command import bot_command, run_key_for
from .seat.pool import BotPool, deal_keys
from .seat.process import DEFAULT_CONFINEMENT, Confinement
from .seat.seats import BotSeat, GuardedSeat, Seat
from .seeding import deal_rng, derive_seed, game_seed, run_seed, seat_rng
from .spec import Spec
from .strategy import Strategy, StrategyError, StrategyFactory, load_strategy
from .view import Move, PlayerView, ViewBuilder

if TYPE_CHECKING:
    from .deals import Deal

#: The built-in bot that takes over a faulty seat (R-SEAT-FAULT).
STAND_IN = Spec.of("medium")


class Chooser(Protocol):
    def choose(self, view: PlayerView) -> Move: ...


def play_hand(state: State, players: Sequence[Chooser], views: ViewBuilder) -> None:
    """Play the current hand to its end; players are asked only when they have a choice.

    `players` are Seats (play_game) or bare strategies (trusted, e.g. benchmarks); a move that
    is not legal is a bug of the caller and raises StrategyError."""
    play_choice, view_of = state.play_choice, views.view
    moves = state.advance()  # the forced actions and lone plays are made up to a choice
    while moves is not None:
        player = players[state.to_move]
        if type(player) is BotSeat:  # it plays the move itself, from the state
            moves = player.play(state, moves, views)
            continue
        view = view_of(state, moves)
        choice = player.choose(view)
        try:
            moves = play_choice(view, choice)  # and on to the next choice
        except ValueError:
            raise StrategyError(f"seat {view.seat} returned {choice!r}, "
                                "not a legal move") from None


@dataclass
class PlayedGame:
    """A finished game: the referee's final `state`, each hand's record (empty unless kept), and
    per seat its `faults` and decision `timing` (as in the record); `on_fault` says what a
    fault costs (`forfeit`: the faulting side loses, whatever the board says)."""

    rules: Rules
    specs: list[Spec]
    seed: int
    state: State
    hands: list[dict]
    faults: list[dict]
    timing: list[dict]
    on_fault: str = ON_FAULT

    @property
    def forfeit(self) -> dict | None:
        """The record's `forfeit` entry (None: the game counts as played)."""
        if self.on_fault != "forfeit":
            return None
        return forfeit_dict(self.rules, self.seats, self.faults, self.state.match_winners)

    @property
    def seats(self) -> list[str]:
        """The spec at each seat, as written (the record's `seats`)."""
        return [spec.text for spec in self.specs]

    @cached_property
    def result(self) -> GameResult:
        """The game's result as it is scored (a forfeit's, else the board's), with its reason:
        worked out once, a game being played out when it is handed back."""
        return GameResult.of(self.rules, self.state, self.faults, self.on_fault)

    @property
    def winners(self) -> list[int]:
        """The seats that won the game as it is scored: a forfeit's, else the board's."""
        return list(self.result.winners)

    def record(self) -> dict:
        """The game record (docs/GAME-RECORD.md); needs the hands kept."""
        record = game_record(self.rules, self.seats, self.seed, self.hands, self.state)
        forfeit = self.forfeit
        # Dealt from `seed` by domsim's generator (R-RNG): replay checks the deals against it.
        return {**record, "dealt_from_seed": True, "on_fault": self.on_fault,
                "faults": self.faults, "timing": self.timing,
                **({"forfeit": forfeit} if forfeit else {})}


@dataclass(frozen=True)
class LoneSeeds:
    """What deals a game played alone (`domsim play`, `api.play`), drawn as a tourney's are
    (domsim.seeding): the run seed, and its key where a bot plays in its own process, so that
    no bot works the deals out from a given seed, however small; `game` the seed it deals
    from (without a key, the run seed itself, as every domsim before keys dealt)."""

    seed: int
    key: str | None

    @classmethod
    def draw(cls, specs: Sequence[Spec], isolate: bool | None, seed: int | None,
             key: str | None) -> LoneSeeds:
        check_settings({"run_key": key}, SETTINGS)
        bots = (spec for spec in specs if not is_human(spec))
        return cls(run_seed(seed), run_key_for(bots, isolate, key))

    @property
    def game(self) -> int:
        return self.seed if self.key is None else game_seed(self.seed, 0, self.key)

    def replay(self) -> str:
        """The options that deal this game again."""
        return f"--seed {self.seed}" + (f" --run-key {self.key}" if self.key else "")

    def in_record(self, record: dict) -> dict:
        """The game's record with what replays it: a keyed game's run seed and key."""
        return record if self.key is None else seal({"run_seed": self.seed, "run_key": self.key,
                                                     **record})


def play_game(rules: Rules, specs: Sequence[Spec | str], seed: int, *,
              move_time_limit: float | None = MOVE_TIME_LIMIT, stand_in: Spec = STAND_IN,
              isolate: bool | None = False, confinement: Confinement = DEFAULT_CONFINEMENT,
              on_fault: str = ON_FAULT, terminal: Terminal | None = None,
              time_control: TimeControl | None = None) -> dict:
    """Play a whole game from `seed` with the strategy specs (Specs, or their text) seated in
    order; return its record.

    Every spec is loaded before the game starts (StrategyError if one cannot be). A faulty seat
    never stops the game (R-SEAT-FAULT, see domsim.seat.seats): a move later than `move_time_limit`
    seconds (None: no limit) is made by the `stand_in` bot, a seat that raises or plays an
    illegal move is handed to it. `exec:` specs, and unless `isolate` is False every spec but a
    built-in level or a class defined in the session, play in their own process, held as
    `confinement` says. A `human` seat is a person at `terminal` (domsim.human). With a
    `time_control` every seat but a person's has a clock (domsim.clock). The record gets
    `faults` and `timing` per seat, and with `on_fault` "forfeit" a faulting side loses the
    game (the record's `forfeit` says why). The record is sealed with its `digest`."""
    with BotPool(confinement) as bots:
        return seal(play(rules, specs, seed, move_time_limit=move_time_limit, stand_in=stand_in,
                         isolate=isolate, bots=bots, on_fault=on_fault, terminal=terminal,
                         time_control=time_control).record())


def play(rules: Rules, specs: Sequence[Spec | str], seed: int, *,
         move_time_limit: float | None = MOVE_TIME_LIMIT, stand_in: Spec = STAND_IN,
         keep_hands: bool = True, first_deal: Deal | None = None, isolate: bool | None = False,
         bots: BotPool | None = None, on_fault: str = ON_FAULT,
         terminal: Terminal | None = None,
         time_control: TimeControl | None = None, alarm: MoveAlarm | None = None,
         game_id: int | None = None, lane: int | None = None) -> PlayedGame:
    """`play_game`, returning the PlayedGame; without `keep_hands` no hand record is built (a
    tourney that keeps no records needs only the results); `first_deal` (a fixed deal) instead
    of the seed's for the first hand. Bots in their own process come from `bots`, which the
    caller closes (None: a pool for this game alone). Games played at once (domsim.seat.tables)
    share one move `alarm`, entered by the caller for `move_time_limit` (None: the game's own).
    `game_id`, a run's id of the game, names it in the log (else its seed does). A `lane` (of
    games played at once: domsim.seat.tables) keeps each bot to the processes of that lane."""
    specs = [Spec.of(spec) for spec in specs]
    if len(specs) != rules.players:
        raise StrategyError(f"{rules.name} needs {rules.players} strategies, got {len(specs)}")
    if terminal is None and any(map(is_human, specs)):
        raise StrategyError("a human seat plays only at a terminal: `domsim play -p human ...`")
    commands = [None if is_human(spec) else bot_command(spec, isolate) for spec in specs]
    factories = [None if command or is_human(spec) else load_strategy(spec)
                 for spec, command in zip(specs, commands, strict=True)]
    stand_in_factory = load_strategy(stand_in)
    game = f"game seed {seed}" if game_id is None else f"game {game_id}"
    seats: list[GuardedSeat] = []
    with (nullcontext(bots) if bots is not None else BotPool()) as bots, \
            (nullcontext(alarm) if alarm is not None else MoveAlarm(move_time_limit)) as alarm:
        try:
            for seat, (command, factory) in enumerate(zip(commands, factories, strict=True)):
                make_stand_in = _stand_in(stand_in_factory, seed, seat)
                clock = GameClock(time_control) if time_control else None
                seats.append(
                    HumanSeat(seat, terminal, make_stand_in, specs, game) if factory is
                    None and command is None else
                    BotSeat(seat, command, bots, seed, make_stand_in, move_time_limit, game,
                            clock, deal_keys(seed, first_deal), lane) if command else
                    Seat(seat, factory, seat_rng(seed, seat), make_stand_in, alarm, game,
                         clock))
            state, hands = _play(rules, seats, seed, keep_hands, first_deal)
        finally:
            for seat in seats:
                seat.close()
    faults, timing = zip(*(seat.report() for seat in seats), strict=True)
    return PlayedGame(rules, specs, seed, state, hands, list(faults), list(timing),
                      on_fault)


def _stand_in(factory: StrategyFactory, seed: int, seat: int) -> Callable[[], Strategy]:
    """Builds the seat's stand-in bot when first needed, with its own generator."""
    return lambda: factory(random.Random(derive_seed("stand-in", seed, seat)))


def _play(rules: Rules, seats: list[GuardedSeat], seed: int, keep_hands: bool,
          first_deal: Deal | None) -> tuple[State, list]:
    for seat in seats:
        seat.start_game(rules)
    rng = deal_rng(seed)
    state = State(rules)
    views = ViewBuilder()
    hands = []
    while not state.match_over:
        if first_deal is not None and state.hand_number < 0:
            first_deal.start(state)
        else:
            start_next_hand(state, rng)
        for seat in seats:
            seat.hand = state.hand_number + 1
        deal = (state.hands[:], state.boneyard[:], state.leader) if keep_hands else None
        play_hand(state, seats, views)
        result = state.last_hand_result
        for seat in seats:
            seat.end_hand(result)
            if isinstance(seat, HumanSeat):  # the history is public: any seat's view tells
                # it; the hands left are shown face up once the hand is over
                seat.show_end(views.view(state, []), result, state.hands)
        if keep_hands:
            hands.append(hand_record(*deal, state.history, result,
                                     _stand_in_moves(seats, state.hand_number)))
    for seat in seats:
        seat.end_game(tuple(state.scores), state.match_winners)
    return state, hands


def _stand_in_moves(seats: list[GuardedSeat], hand: int) -> dict[int, str]:
    """The actions of `hand` the stand-in made (by place), with the fault that made it move."""
    return {index: fault for seat in seats
            for (number, index), fault in seat.stand_in_moves.items() if number == hand}
