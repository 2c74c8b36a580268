"""A person at the table: the `human` seat of `domsim play -p human -p hard`.

At each real choice the seat shows what happened since the last one (the other seats' plays,
draws and passes, and its own forced moves, which are announced, never asked), then the hand, the
open ends, every other seat's tile count, the boneyard and the scores, and the legal moves
numbered from 1, and reads a number. `?` prints the help, `h` the hand so far, `q` (or the end of
the input, or Ctrl-C) leaves the table: the stand-in bot plays the seat to the end of the game, so
the record stays whole and replays. The seat sees only what its view holds (R-VIEW); the terminal
(what it prints and reads) is the caller's, so nothing below the command line prints."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from .engine import HandResult
from .record import LEFT_THE_TABLE
from .rules import Rules
from .seat import GuardedSeat
from .strategy import Strategy
from .tiles import Tile
from .view import Event, Move, PlayerView

#: The spec of a person's seat (`domsim play` only: a tourney has nobody to ask).
HUMAN = "human"

HELP = """Type the number of a move and Enter. Other commands:
  ?   this help
  h   every play, draw and pass of this hand so far
  q   leave the table: a bot plays your seat to the end of the game, the record is kept
Moves you have no choice about (a draw, a pass, a lone legal play) are made for you and
announced. Ends are numbered as in the record: 0 and 1 are the two arms of the line, 2 and 3
the spinner's short sides (allfives)."""


class Terminal(Protocol):
    """Where a human seat prints and reads: `ask` returns the line typed, None when there is
    no more input (end of file, Ctrl-C)."""

    def say(self, line: str) -> None: ...

    def ask(self, prompt: str) -> str | None: ...


def is_human(spec: str) -> bool:
    return spec.strip() == HUMAN


class HumanSeat(GuardedSeat):
    """A seat played by a person at `terminal`; no time limit. After `q` the stand-in plays."""

    def __init__(self, seat: int, terminal: Terminal, stand_in: Callable[[], Strategy],
                 specs: list[str], game: str) -> None:
        super().__init__(seat, HUMAN, stand_in, None, game)
        self.terminal = terminal
        self.names = [("you" if other == seat else f"seat {other} ({spec})")
                      for other, spec in enumerate(specs)]
        self._hand_number = -1
        self._shown = 0  # events of this hand already told
        self._chosen: Move | None = None  # the last move typed, not yet seen in the history
        self._tiles: set[Tile] = set()  # own tiles at the last look

    def start_game(self, rules: Rules) -> None:
        self._rules = rules
        partner = f" with seat {(self.seat + 2) % 4} as your partner" \
            if rules.variant.teams else ""
        target = f", to {rules.target}" if rules.target else ", one hand"
        self.terminal.say(f"{rules.name}, {rules.players} players{target}: you are seat "
                          f"{self.seat}{partner}. Type ? for help.")

    def choose(self, view: PlayerView) -> Move:
        if not self.playing:
            return self.stand_in_move(view)
        self._tell_news(view)
        self._show_table(view)
        moves = view.legal_moves
        while True:
            text = self.terminal.ask(f"Your move (1-{len(moves)}, ? for help): ")
            command = "q" if text is None else text.strip().lower()
            if command in ("q", "quit"):
                self._leave(view)
                return self.stand_in_move(view)
            if command in ("?", "help"):
                self.terminal.say(HELP)
            elif command == "h":
                for index, event in enumerate(view.history):
                    self.terminal.say("  " + self._event_line(event, index))
            elif command.isdigit() and 1 <= int(command) <= len(moves):
                self._chosen = moves[int(command) - 1]
                return self._chosen
            else:
                self.terminal.say(f"{text.strip()!r} is no move: type a number from 1 to "
                                  f"{len(moves)}, or ? for help")

    def show_end(self, view: PlayerView, result: HandResult) -> None:
        """The hand is over: what happened since the last choice, and the result. `view` is any
        seat's (only its public part is read: the history and the counts)."""
        if not self.playing:
            return
        self._tell_news(view)
        side = "team" if view.rules.variant.teams else "seat"
        winners = ", ".join(map(str, result.winners)) or "nobody"
        self.terminal.say(f"Hand {view.hand_number + 1} over ({result.end}): seats {winners} "
                          f"win; points per {side} {list(result.points)}, scores "
                          f"{list(result.scores)}")

    def end_game(self, scores: tuple[int, ...], winners: tuple[int, ...]) -> None:
        if self.playing:
            outcome = "you win" if self.seat in winners else (
                "nobody wins" if not winners else f"seats {', '.join(map(str, winners))} win")
            self.terminal.say(f"Game over: {outcome}; scores {list(scores)}")

    def _leave(self, view: PlayerView) -> None:
        self.playing = False
        self.faults.replaced = True
        self.faults.first = f"{LEFT_THE_TABLE} in hand {view.hand_number + 1}"
        self.terminal.say(f"You left the table: {self._stand_in_name()} plays your seat to the "
                          "end of the game, and the record is kept.")

    def _stand_in_name(self) -> str:
        return type(self.stand_in).__name__.lower()

    # -- what the person is told ----------------------------------------------------------------
    def _tell_news(self, view: PlayerView) -> None:
        if view.hand_number != self._hand_number:
            self._hand_number, self._shown, self._tiles = view.hand_number, 0, set()
            verb = "lead" if view.leader == self.seat else "leads"
            self.terminal.say(f"Hand {view.hand_number + 1}: {self.names[view.leader]} {verb}")
        for index, event in enumerate(view.history[self._shown:], self._shown):
            self.terminal.say("  " + self._event_line(event, index, news=True))
        self._shown = len(view.history)
        if view.seat == self.seat:
            drawn = sorted(set(view.hand) - self._tiles) if self._tiles else []
            if drawn:
                self.terminal.say(f"  you drew {' '.join(map(str, drawn))}")
            self._tiles = set(view.hand)

    def _event_line(self, event: Event, index: int, news: bool = False) -> str:
        """One event of the hand; `index` is its place (the first play is the lead)."""
        who, mine = self.names[event.seat], event.seat == self.seat
        lacking = " ".join(map(str, event.open_numbers))
        if event.kind != "play":
            verb = {"draw": "draw", "pass": "pass"}[event.kind] + ("" if mine else
                                                                  "s" if event.kind == "draw"
                                                                  else "es")
            return f"{who} {verb} (no {lacking})"
        verb = ("lead" if index == 0 else "play") + ("" if mine else "s")
        line = f"{who} {verb} {event.tile}" + ("" if index == 0 else f" on end {event.end}")
        if news and mine:
            if self._chosen is not None and (event.tile, event.end) == tuple(self._chosen):
                self._chosen = None
            else:
                line += " (your only move: played for you)"
        return line

    def _show_table(self, view: PlayerView) -> None:
        say = self.terminal.say
        ends = "  ".join(f"end {e}: {n}" for e, n in enumerate(view.ends) if n is not None)
        say(f"Ends: {ends or 'none yet (you lead)'}" + self._count(view))
        others = ", ".join(f"{self.names[s]} {count} tiles"
                           for s, count in enumerate(view.hand_counts) if s != self.seat)
        bone = f"; boneyard {view.boneyard_count}" if view.rules.variant.draws else ""
        say(f"Others: {others}{bone}")
        if view.rules.target:
            side = "team" if view.rules.variant.teams else "seat"
            say(f"Scores per {side}: {list(view.scores)}, target {view.rules.target}")
        say(f"Your hand: {' '.join(map(str, view.hand))}")
        for number, move in enumerate(view.legal_moves, 1):
            say(f"  {number}) {self._move_text(view, move)}")

    def _count(self, view: PlayerView) -> str:
        if not view.rules.variant.scores_count or not view.history:
            return ""
        return f"  (count {sum(view.end_counts)})"

    def _move_text(self, view: PlayerView, move: Move) -> str:
        if not view.history or all(n is None for n in view.ends):
            return f"lead {move.tile}"
        text = f"{move.tile} on end {move.end} (the {view.ends[move.end]})"
        if view.rules.variant.scores_count:
            count = view.count_after(move)
            if count and count % 5 == 0:
                text += f": scores {count}"
        return text
