"""A game as a page: one self-contained HTML file (its SVG drawn and stepped by a script inline, no
address outside the file) that shows a game record's table as the seeds describe it (the line
snaking, the hands face up or as one seat sees them, the counts, the boneyard, the scores and the
fives count), steps through every action with keys and buttons, marks forced moves, faults and the
stand-in's moves, shows each hand's result with its arithmetic, and gives each step a line of
text for screen readers (`domsim show --html`, `domsim play --html`, the report's games).

The record is replayed under the rules (domsim.record), so a page never shows a game the rules
refuse; the line's geometry is domsim.tableline's."""

from __future__ import annotations

import html
import json
from dataclasses import asdict
from importlib import resources
from pathlib import Path

from .._core import fives_points
from ..engine import HandResult, State
from ..record import GameResult, replay_steps, rules_of, seat_names
from ..rules import Rules
from ..tableline import lay_out
from ..tabletalk import Names, hand_over, held_lines, laid_tiles, points_lines
from ..tiles import tile_name, tiles_of
from ..transcript import written
from ..view import event_of

#: The page's template: `/*DATA*/` becomes the game's frames as JSON, `TITLE` its title.
TEMPLATE = "gamepage.html"


def write_page(record: dict, path: Path, *, title: str, game: int = 0,
               view_seat: int | None = None) -> None:
    """Write the page of `record` (`game`: its place in its file, for messages) to `path`,
    which must not exist yet. `view_seat`: the page opens as that seat sees the table."""
    text = page_html(record, title=title, game=game, view_seat=view_seat)
    with path.open("x", encoding="utf-8") as out:
        out.write(text)


def page_html(record: dict, *, title: str, game: int = 0, view_seat: int | None = None) -> str:
    data = game_frames(record, game)
    title = f"{title}: {' v '.join(data['names'])}"
    data |= {"title": title, "view": view_seat}
    template = resources.files("domsim.pages").joinpath(TEMPLATE).read_text(encoding="utf-8")
    shown_title = html.escape(title).replace("://", ":&#47;/")  # reads the same, names no address
    return template.replace("TITLE", shown_title).replace("/*DATA*/", _script_json(data))


def _script_json(data: dict) -> str:
    """JSON that is safe inside a <script> element, and names no address: `<` and the scheme
    of any address a bot's name holds are written as escapes, which JSON reads back the same."""
    return (json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
            .replace("http", "\\u0068ttp"))


def game_frames(record: dict, game: int = 0) -> dict:
    """Everything the page draws: the seats and per hand its layout and a frame per step."""
    rules = rules_of(record, f"game {game}")
    names = page_names(record, rules.players)
    hands: list[dict] = []
    state = None
    for kind, _, _, state, payload in replay_steps(record, game):
        if kind == "hand":
            hand = _Hand(rules, names, state)
            hands.append(hand.data)
        elif kind == "action":
            hand.act(state, payload)
        else:
            hand.finish(state, payload)
    return {"rules": rules.name, "players": rules.players, "teams": rules.variant.teams,
            "target": rules.target, "names": names, "hands": hands,
            "outcome": _outcome(record, rules, state)}


def page_names(record: dict, players: int) -> list[str]:
    """What the page calls each seat: its entrant's name in a tourney's record (with its spec
    where they differ), else its spec."""
    seats = record.get("seats") or ["?"] * players
    entrants = record.get("entrants")
    if isinstance(entrants, list) and len(entrants) == players:
        return [str(e) if str(e) == str(s) else f"{e} ({s})"
                for e, s in zip(entrants, seats, strict=False)]
    return [str(s) for s in seats]


class _Hand:
    """One hand's frames, built as the replay goes: the deal, each action, the result."""

    def __init__(self, rules: Rules, names: list[str], state: State) -> None:
        self.rules, self.names = rules, names
        self.plays: list[tuple[int, int, int, int, int]] = []
        self.made = [0] * rules.sides  # fives made during the hand, per side
        self.carry = state.carry  # points a drawn hand left for this hand's losers (kozel)
        self.legal = len(state.legal_moves())
        leader = state.leader
        self.data = {"number": state.hand_number + 1, "leader": leader, "frames": [
            self._frame(state, f"Hand {state.hand_number + 1}: {self.who(leader)} leads",
                        seat=leader, kind="deal")]}

    def act(self, state: State, action: dict) -> None:
        seat, index = action["seat"], len(self.data["frames"]) - 1
        forced = "play" not in action or self.legal == 1
        scored = 0
        if "play" in action:
            text, scored = self._play(state, action, index)
        elif "draw" in action:
            text = f"{self.who(seat)} draws {written(action['draw'])}"
        else:
            text = f"{self.who(seat)} passes"
        frame = self._frame(state, text, seat=seat, kind=_kind(action), forced=forced,
                            scored=scored, mark=_mark(action))
        if "draw" in action:  # what the other seats see of a draw
            frame["hidden"] = f"{self.who(seat)} draws a tile"
        self.data["frames"].append(frame)
        self.legal = 0 if state.hand_over else len(state.legal_moves())

    def _play(self, state: State, action: dict, index: int) -> tuple[str, int]:
        """The play just made, as it lies (domsim.tabletalk.laid_tiles) and in words."""
        seat = action["seat"]
        played = [event for event in map(event_of, state.history) if event.kind == "play"]
        laid = laid_tiles(self.rules, played)[-1]
        self.plays.append((index, laid.end, laid.inward, laid.outward,
                           int(laid.inward == laid.outward)))
        shown = f"{laid.inward}-{laid.outward}"
        text = (f"{self.who(seat)} leads {shown}" if laid.end < 0 else
                f"{self.who(seat)} plays {shown} on end {laid.end}")
        return text, self._scored(state, seat)

    def _scored(self, state: State, seat: int) -> int:
        points = fives_points(state.fives_count()) if self.rules.variant.scores_count else 0
        self.made[self.rules.side_of(seat)] += points
        return points

    def finish(self, state: State, result: HandResult) -> None:
        layout = lay_out(self.plays)
        self.data["tiles"] = [asdict(t) for t in layout.tiles]
        self.data["connectors"] = layout.connectors
        self.data["bounds"] = layout.table()
        lines = self.result_lines(state, result)
        frame = self._frame(state, " ".join(lines), seat=-1, kind="result")
        frame["result"] = lines
        self.data["frames"].append(frame)

    def result_lines(self, state: State, result: HandResult) -> list[str]:
        """The hand's result with its arithmetic, as the person's table works it out
        (domsim.tabletalk): every hand left face up, the points as the rules' tally sums them,
        and the scores."""
        names = self._table_names()
        held = state.hands
        how = hand_over(names, result, held)
        return ([f"Hand {state.hand_number + 1}: {how}."]
                + [f"{line}." for line in held_lines(self.rules, names, held)]
                + [f"{line}." for line in points_lines(self.rules, names, held, result,
                                                         self.made, self.carry)]
                + [f"{names.scores(self.rules, result.scores, result.carry)}."])

    def _table_names(self) -> Names:
        seats = tuple(self.who(seat) for seat in range(self.rules.players))
        return Names(seats, tuple(self._side_name(side) for side in range(self.rules.sides)))

    def _side_name(self, side: int) -> str:
        if self.rules.variant.teams:
            return f"Team {side} ({' and '.join(self.names[s] for s in (side, side + 2))})"
        return self.who(side)

    def who(self, seat: int) -> str:
        return f"{self.names[seat]} (seat {seat})"

    def _frame(self, state: State, text: str, *, seat: int, kind: str, forced: bool = False,
               scored: int = 0, mark: str | None = None) -> dict:
        return {"text": text, "seat": seat, "kind": kind, "forced": forced, "scored": scored,
                "mark": mark, "placed": len(self.plays),
                "hands": [[tile_name(t) for t in tiles_of(m)] for m in state.hands],
                "boneyard": state.boneyard_left() if self.rules.variant.draws else None,
                "scores": list(state.scores),
                "count": state.fives_count() if self.rules.variant.scores_count else None,
                "ends": [e for e in state.ends[:state.n_ends] if e >= 0]}


def _kind(action: dict) -> str:
    return "play" if "play" in action else "draw" if "draw" in action else "pass"


def _mark(action: dict) -> str | None:
    """A fault at this move, or the stand-in's move (docs/GAME-RECORD.md, "Actions")."""
    if action.get("fault"):
        return f"{action['fault']}: the stand-in moved"
    return "the stand-in's move" if action.get("stand_in") else None


def _outcome(record: dict, rules: Rules, state: State | None) -> str:
    """The game's result as its run scored it, with its reason (domsim.record.GameResult)."""
    if state is None or not state.match_over:
        return "The game was not finished."
    result = GameResult.of_record(record, rules, state)
    return f"{result.line(rules, seat_names(record, rules.players))}."
