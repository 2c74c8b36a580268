"""A person at the table: the `human` seat of `domsim play -p human -p hard`.

At each real choice the seat shows what happened since the last one (the other seats' plays,
draws and passes, and its own forced moves, which are announced, never asked; in fives every
scoring play with its count), then the line as it lies, the open ends, every other seat's tile
count, the boneyard and the scores, the hand and the legal moves numbered from 1 (a tile fitting
two ends that mirror each other once), and reads a number or a tile (`3-5`, `3-5 left`). `?`
prints the help, `h` the hand so far, `q` (or the end of the input, or Ctrl-C) leaves the table:
the stand-in bot plays the seat to the end of the game, so the record stays whole and replays.
At a hand's end every hand is shown face up with the points worked out (domsim.tabletalk). The
seat sees only what its view holds (R-VIEW) and, once a hand is over, the hands left; the
terminal (what it prints and reads) is the caller's, so nothing below the command line prints."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import click

from ._core import fives_points
from .engine import HandResult
from .record import LEFT_THE_TABLE
from .rules import Rules
from .seat.seats import GuardedSeat
from .spec import Spec
from .strategy import Strategy
from .tabletalk import (
    Laid,
    Names,
    distinct_moves,
    end_named,
    fives_made,
    hand_over,
    held_lines,
    laid_by_event,
    laid_tiles,
    line_rows,
    points_lines,
    read_move,
    which_end,
)
from .tiles import Tile
from .view import Event, Move, PlayerView

#: The spec of a person's seat (`domsim play` only: a tourney has nobody to ask).
HUMAN = "human"

HELP = """Type the number of a move, or its tile (3-5, 5-3 or 5|3; where a tile fits two ends,
3-5 left, 3-5 right or 3-5 end 2), and Enter. Other commands:
  ?   this help
  h   every play, draw and pass of this hand so far
  q   leave the table: a bot plays your seat to the end of the game, the record is kept
Moves you have no choice about (a draw, a pass, a lone legal play) are made for you and
announced. Ends are numbered as in the record: 0 (left) and 1 (right) are the two arms of the
line, 2 and 3 the spinner's short sides (allfives). A tile that would leave the same line on
either of two ends showing the same number is offered once."""

#: A terminal's width when it says none.
WIDTH = 80


class Terminal(Protocol):
    """Where a human seat prints and reads: `ask` returns the line typed, None when there is
    no more input (end of file, Ctrl-C). A terminal may also say how many columns it has
    (`width`, else 80) and whether it shows colour (`color`, click's styles; else plain text)."""

    def say(self, line: str) -> None: ...

    def ask(self, prompt: str) -> str | None: ...


def is_human(spec: Spec) -> bool:
    return spec.text.strip() == HUMAN


class HumanSeat(GuardedSeat):
    """A seat played by a person at `terminal`; no time limit. After `q` the stand-in plays."""

    def __init__(self, seat: int, terminal: Terminal, stand_in: Callable[[], Strategy],
                 specs: list[Spec], game: str) -> None:
        super().__init__(seat, Spec.of(HUMAN), stand_in, None, game)
        self.terminal = terminal
        self.specs = specs
        self._color = bool(getattr(terminal, "color", False))
        self._hand_number = -1
        self._shown = 0  # events of this hand already told
        self._chosen: Move | None = None  # the last move typed, not yet seen in the history
        self._tiles: set[Tile] = set()  # own tiles at the last look
        self._carry = 0  # what the last hand carried to the next one's losers

    def start_game(self, rules: Rules) -> None:
        self._rules = rules
        self.names = Names.of([spec.text for spec in self.specs], self.seat,
                              rules.variant.teams)
        partner = f" with seat {(self.seat + 2) % 4} as your partner" \
            if rules.variant.teams else ""
        target = f", to {rules.target}" if rules.target else ", one hand"
        self.terminal.say(f"{rules.name}, {rules.players} players{target}: you are seat "
                          f"{self.seat}{partner}. Type ? for help.")

    def choose(self, view: PlayerView) -> Move:
        if not self.playing:
            return self.stand_in_move(view)
        self._tell_news(view)
        moves = distinct_moves(view)
        if len(moves) == 1:  # mirror images of one move: no choice, announced as forced
            return moves[0]
        self._show_table(view, moves)
        prompt = f"Your move (1-{len(moves)} or a tile, ? for help): "
        text = self.terminal.ask(prompt)
        while True:
            command = "q" if text is None else text.strip().lower()
            if command in ("q", "quit"):
                self._leave(view)
                return self.stand_in_move(view)
            meant = self._command(command, view, moves)
            if len(meant) == 1:
                self._chosen = meant[0]
                return self._chosen
            if meant:  # a tile fitting several ends: the answer names one, or is a command
                self._chosen, text = self._ask_end(meant, view)
                if self._chosen is not None:
                    return self._chosen
                continue
            text = self.terminal.ask(prompt)

    def _ask_end(self, moves: list[Move], view: PlayerView) -> tuple[Move | None, str | None]:
        """Which of `moves` (one tile on several ends) is meant, asked until the answer names
        one of their ends (the move, None) or no end at all (None, the answer: a command)."""
        while True:
            text = self.terminal.ask(which_end(moves, view))
            end = end_named(text or "")
            if end is None:
                return None, text
            chosen = [move for move in moves if move.end == end]
            if chosen:
                return chosen[0], None
            self.terminal.say(self._paint(f"{moves[0].tile} does not fit end {end}", fg="red"))

    def _command(self, command: str, view: PlayerView, moves: list[Move]) -> list[Move]:
        """The moves `command` may mean (none for help, the history or a mistake, told)."""
        if command in ("?", "help"):
            self.terminal.say(HELP)
            return []
        if command == "h":
            laids = laid_by_event(view.rules, view.history)
            for index, (event, laid) in enumerate(zip(view.history, laids, strict=True)):
                self.terminal.say("  " + self._event_line(event, index, laid))
            return []
        meant = read_move(command, view, moves)
        if isinstance(meant, str):
            self.terminal.say(self._paint(meant, fg="red"))
            return []
        return meant

    def show_end(self, view: PlayerView, result: HandResult, held: Sequence[int]) -> None:
        """The hand is over: what happened since the last choice, every hand left (`held`, tile
        masks per seat, face up now) and the points worked out. `view` is any seat's (only its
        public part is read: the history and the counts)."""
        if not self.playing:
            return
        self._tell_news(view)
        rules, names = self._rules, self.names
        self.terminal.say(self._paint(f"Hand {view.hand_number + 1} over: "
                                      f"{hand_over(names, result, held)}", bold=True))
        for line in held_lines(rules, names, held):
            self.terminal.say("  " + line)
        lines = points_lines(rules, names, held, result, fives_made(rules, view.history),
                             self._carry)
        self.terminal.say("  " + self._paint(lines[0], **self._outcome_style(result.winners)))
        for line in lines[1:]:
            self.terminal.say("  " + line)
        self.terminal.say(names.scores(rules, result.scores, result.carry))
        self._carry = result.carry

    def end_game(self, scores: tuple[int, ...], winners: tuple[int, ...]) -> None:
        if self.playing:
            outcome = self.names.wins(self._rules, winners)
            self.terminal.say(self._paint(f"Game over: {outcome}.", bold=True,
                                          **self._outcome_style(winners)))
            self.terminal.say(self.names.scores(self._rules, scores))

    def _leave(self, view: PlayerView) -> None:
        self.playing = False
        self.faults.replaced = True
        self.faults.first = f"{LEFT_THE_TABLE} in hand {view.hand_number + 1}"
        self.terminal.say(f"You left the table: {self._stand_in_name()} plays your seat to the "
                          "end of the game, and the record is kept.")

    def _stand_in_name(self) -> str:
        return type(self.stand_in).__name__.lower()

    # -- what the person is told ----------------------------------------------------------------
    def _paint(self, text: str, **style) -> str:
        """`text` in click's `style` where the terminal shows colour, else as it is."""
        return click.style(text, **style) if self._color else text

    def _outcome_style(self, winners: Sequence[int]) -> dict:
        """Green when the person's side won, red when another did."""
        if not winners:
            return {}
        mine = self._rules.side_of(self.seat) in {self._rules.side_of(s) for s in winners}
        return {"fg": "green" if mine else "red"}

    def _tell_news(self, view: PlayerView) -> None:
        if view.hand_number != self._hand_number:
            self._hand_number, self._shown, self._tiles = view.hand_number, 0, set()
            verb = "lead" if view.leader == self.seat else "leads"
            self.terminal.say(self._paint(f"Hand {view.hand_number + 1}: "
                                          f"{self.names.seats[view.leader]} {verb}", bold=True))
        laid = laid_by_event(view.rules, view.history)
        for index in range(self._shown, len(view.history)):
            line = self._event_line(view.history[index], index, laid[index], news=True)
            self.terminal.say("  " + line)
        self._shown = len(view.history)
        if view.seat == self.seat:
            drawn = sorted(set(view.hand) - self._tiles) if self._tiles else []
            if drawn:
                self.terminal.say(f"  you drew {' '.join(map(str, drawn))}")
            self._tiles = set(view.hand)

    def _event_line(self, event: Event, index: int, laid: Laid | None,
                    news: bool = False) -> str:
        """One event of the hand; `index` is its place (the first play is the lead), `laid`
        how its tile lies."""
        who, mine = self.names.seats[event.seat], event.seat == self.seat
        lacking = " ".join(map(str, event.open_numbers))
        if laid is None:
            verb = {"draw": "draw", "pass": "pass"}[event.kind] + ("" if mine else
                                                                  "s" if event.kind == "draw"
                                                                  else "es")
            return f"{who} {verb} (no {lacking})"
        verb = ("lead" if index == 0 else "play") + ("" if mine else "s")
        line = f"{who} {verb} {event.tile}" + ("" if index == 0 else f" on end {event.end}")
        points = fives_points(laid.count) if self._rules.variant.scores_count else 0
        if points:
            line += self._paint(f": count {laid.count}, scores {points}", fg="yellow", bold=True)
        if news and mine:
            if self._chosen is not None and (event.tile, event.end) == tuple(self._chosen):
                self._chosen = None
            else:
                line += " (your only move: played for you)"
        return line

    def _show_table(self, view: PlayerView, moves: list[Move]) -> None:
        say = self.terminal.say
        laid = laid_tiles(view.rules, view.line)
        for row in line_rows(laid, getattr(self.terminal, "width", WIDTH)):
            say(self._paint(row, fg="cyan"))
        ends = "  ".join(f"end {e}: {n}" for e, n in enumerate(view.ends) if n is not None)
        fives = view.rules.variant.scores_count and laid
        say(f"Ends: {ends or 'none yet (you lead)'}" + (f"  (count {laid[-1].count})"
                                                        if fives else ""))
        others = ", ".join(f"{self.names.seats[s]} {count} tile{'s' * (count != 1)}"
                           for s, count in enumerate(view.hand_counts) if s != self.seat)
        bone = f"; boneyard {view.boneyard_count}" if view.rules.variant.draws else ""
        say(f"Others: {others}{bone}")
        if view.rules.target:
            say(self.names.scores(view.rules, view.scores, view.carry))
        say(self._paint(f"Your hand: {' '.join(map(str, view.hand))}", bold=True))
        for number, move in enumerate(moves, 1):
            say(f"  {number}) {self._move_text(view, move)}")

    def _move_text(self, view: PlayerView, move: Move) -> str:
        if not view.history or all(n is None for n in view.ends):
            return f"lead {move.tile}"
        text = f"{move.tile} on end {move.end} (the {view.ends[move.end]})"
        points = fives_points(view.count_after(move)) if view.rules.variant.scores_count else 0
        return text + (f": scores {points}" if points else "")
