"""The seat protocol's wire format (docs/seat-protocol.md): JSON objects, one a line, between
domsim and a bot in its own process. Both ends live here: what domsim sends (rules, views,
results) and reads back (moves), and what the Python seat host rebuilds from them."""

from __future__ import annotations

import json

from ..engine import DRAW, PASS, PLAY, Action, HandResult
from ..errors import DomsimError
from ..rules import OPTION_SPECS, Rules, find_variant, make_rules
from ..tiles import TILES, Tile, tile_id
from ..view import Event, Move, PlayerView

#: Bumped whenever a message changes in a way an existing bot could notice (2: `game` carries
#: the seat's own seed instead of the game's).
PROTOCOL_VERSION = 2
#: The `choose` encodings domsim offers in `hello`; "compact" (docs/seat-protocol.md) only to a
#: host of the same domsim version, since it follows the core's encoding of actions.
ENCODINGS = ("json", "compact")
#: Most brackets a line from a bot may hold: far more than any message needs, far fewer than
#: the nesting at which json.loads runs out of recursion.
MAX_BRACKETS = 256
#: The rule options a `rules` object spells out (with their values, defaults included).
RULE_OPTIONS = tuple(OPTION_SPECS)


class ProtocolError(DomsimError):
    """A line that is not a protocol message; the message is one line."""


def _dumps(message: dict) -> str:
    return json.dumps(message, separators=(",", ":"))


def encode(message: dict) -> bytes:
    return _dumps(message).encode() + b"\n"


def decode(line: bytes) -> dict:
    """The message a bot's line holds; ProtocolError for anything else, however deep or odd
    (a bot's bytes must never raise anything else in domsim)."""
    if line.count(b"[") + line.count(b"{") > MAX_BRACKETS:
        raise ProtocolError(f"nested too deep (more than {MAX_BRACKETS} brackets): "
                            f"{line[:80]!r}")
    try:
        message = json.loads(line)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ProtocolError(f"not JSON: {line[:80]!r}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(f"not a message (a JSON object with a \"type\"): {line[:80]!r}")
    return message


# -- domsim to bot -------------------------------------------------------------------------------
def rules_message(rules: Rules) -> dict:
    variant = rules.variant
    return {"variant": rules.name, "players": rules.players, "hand_size": rules.hand_size,
            "teams": variant.teams, "scoring": variant.scoring,
            **{key: getattr(rules, key) for key in RULE_OPTIONS}}


def rules_from(message: dict) -> Rules:
    accepted = find_variant(message["variant"]).options
    options = {key: message[key] for key in RULE_OPTIONS if key in accepted}
    return make_rules(message["variant"], message["players"], options)


def game_message(rules: Rules, seat: int, seat_seed: int, time_limit: float | None,
                 parameters: dict[str, str] | None = None) -> dict:
    """`seat_seed` is the seat's own (domsim.seeding.seat_seed), never the game's;
    `parameters`, the seat's spec's own (text by name), go only where it has some."""
    return {"type": "game", "seat": seat, "seat_seed": seat_seed, "time_limit": time_limit,
            "rules": rules_message(rules), **({"parameters": parameters} if parameters else {})}


def _tile(tile: Tile | None) -> list[int] | None:
    return None if tile is None else [tile.a, tile.b]


#: The JSON of every tile, and of every move as `legal_moves` lists it.
_TILE_JSON = {tile: f"[{tile.a},{tile.b}]" for tile in TILES}
_MOVE_JSON = {Move(tile, end): f'{{"tile":{text},"end":{end}}}'
              for tile, text in _TILE_JSON.items() for end in range(4)}


def _json_list(values) -> str:
    return ",".join("null" if v is None else str(v) for v in values)


class ViewEncoder:
    """`choose` messages for one seat, as bytes: every PlayerView field but `rules` (sent with
    `game`), tiles as [a, b]. They are written without json.dumps, from precomputed pieces: the
    round trip of a decision is mostly this. A view's history grows by a few events a decision,
    so each event of a hand is encoded once."""

    def __init__(self) -> None:
        self._history: tuple[Event, ...] = ()
        self._events: list[str] = []  # self._history, encoded

    def encode(self, request: int, view: PlayerView) -> bytes:
        history = view.history
        if history[:len(self._history)] != self._history:  # a new hand
            self._history, self._events = (), []
        self._events += [_dumps({"seat": e.seat, "kind": e.kind, "tile": _tile(e.tile),
                                 "end": e.end, "open_numbers": list(e.open_numbers)})
                         for e in history[len(self._history):]]
        self._history = history
        spinner = "null" if view.spinner is None else view.spinner
        return (
            f'{{"type":"choose","id":{request},"seat":{view.seat},'
            f'"hand":[{",".join(map(_TILE_JSON.__getitem__, view.hand))}],'
            f'"ends":[{_json_list(view.ends)}],"hand_counts":[{_json_list(view.hand_counts)}],'
            f'"boneyard_count":{view.boneyard_count},'
            f'"can_draw":{"true" if view.can_draw else "false"},'
            f'"scores":[{_json_list(view.scores)}],"carry":{view.carry},"target":{view.target},'
            f'"hand_number":{view.hand_number},"leader":{view.leader},"spinner":{spinner},'
            f'"end_counts":[{_json_list(view.end_counts)}],'
            f'"legal_moves":[{",".join(map(_MOVE_JSON.__getitem__, view.legal_moves))}],'
            f'"history":[{",".join(self._events)}]}}\n').encode()


def hand_message(result: HandResult) -> dict:
    return {"type": "hand", "end": result.end, "winners": list(result.winners),
            "points": list(result.points), "scores": list(result.scores),
            "carry": result.carry, "capicu": result.capicu}


def game_over_message(scores: tuple[int, ...], winners: tuple[int, ...]) -> dict:
    return {"type": "game_over", "scores": list(scores), "winners": list(winners)}


# -- bot to domsim -------------------------------------------------------------------------------
def compact_reply(request: int, index: int) -> bytes:
    return b"m %d %d\n" % (request, index)


def move_of(message: dict, legal_moves: tuple[Move, ...]) -> Move | None:
    """The legal move a `move` reply names, or None."""
    index = message.get("index")
    if type(index) is int:
        return legal_moves[index] if 0 <= index < len(legal_moves) else None
    tile, end = message.get("tile"), message.get("end")
    if not (isinstance(tile, list) and len(tile) == 2 and all(type(n) is int for n in tile)
            and type(end) is int):
        return None
    a, b = sorted(tile)
    move = Move(Tile(a, b), end)
    return move if move in legal_moves else None


# -- the Python host's side ----------------------------------------------------------------------
_KINDS = {"play": PLAY, "draw": DRAW, "pass": PASS}


def _action(event: dict) -> int:
    """An event of a `choose` message as the engine encodes the action (a draw without its
    tile: domsim.engine.Action)."""
    kind = _KINDS[event["kind"]]
    if kind == PLAY:
        return Action(kind, event["seat"], _tile_id(event["tile"]), event["end"]).bits
    return Action(kind, event["seat"],
                  open_numbers=sum(1 << n for n in set(event["open_numbers"]))).bits


_TILE_IDS = [[tile_id(a, b) for b in range(7)] for a in range(7)]


def _tile_id(pair: list[int]) -> int:
    a, b = pair
    if not (0 <= a <= 6 and 0 <= b <= 6):
        raise ValueError(f"not a tile: {pair!r}")
    return _TILE_IDS[a][b]


class ViewDecoder:
    """PlayerViews from the `choose` messages of one game (a new one per game): within a hand
    the history only grows, so each of its events is decoded once."""

    def __init__(self) -> None:
        self._hand: int | None = None
        self._last: dict | None = None  # the last event decoded
        self._actions: list[int] = []

    def view(self, message: dict, rules: Rules) -> PlayerView:
        """The PlayerView `message` describes, under `rules` (the game's: the core reads them;
        PlayerView.with_rules gives a strategy its own copy). It is the core's PlayerView, so
        a strategy in the host can use domsim.search on it as in process. ValueError for
        values no view can hold; the `target` sent is the rules' own."""
        history, known = message["history"], len(self._actions)
        if (message["hand_number"] != self._hand or len(history) < known
                or known and history[known - 1] != self._last):
            self._hand, self._actions, known = message["hand_number"], [], 0
        self._actions += [_action(e) for e in history[known:]]
        self._last = history[-1] if history else None
        return PlayerView.from_parts(
            rules, seat=message["seat"], hand=[_tile_id(t) for t in message["hand"]],
            ends=message["ends"], actions=self._actions,
            hand_counts=message["hand_counts"], boneyard_count=message["boneyard_count"],
            can_draw=message["can_draw"], scores=message["scores"], carry=message["carry"],
            hand_number=message["hand_number"], leader=message["leader"],
            spinner=message["spinner"], end_counts=message["end_counts"],
            legal=[_tile_id(m["tile"]) << 2 | m["end"] for m in message["legal_moves"]],
        )


def view_from(message: dict, rules: Rules) -> PlayerView:
    """The PlayerView one `choose` message describes (`ViewDecoder.view`)."""
    return ViewDecoder().view(message, rules)


def move_message(request: int, choice: object) -> dict:
    """The reply to `choose` for whatever a strategy returned (a non-move as tile null)."""
    if isinstance(choice, tuple) and len(choice) == 2 and isinstance(choice[0], tuple):
        tile, end = choice
        if len(tile) == 2 and all(type(n) is int for n in tile) and type(end) is int:
            return {"type": "move", "id": request, "tile": list(tile), "end": end}
    return {"type": "move", "id": request, "tile": None, "end": None}
