"""Game records (docs/GAME-RECORD.md): writing them from a played game, reading them, and replaying
them under the rules to verify every action and recompute every result."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .engine import HandResult, State, by_lot, first_lead, next_leader, start_next_hand
from .engine.state import DRAW, PLAY, Action
from .errors import DomsimError
from .rules import Rules, RulesError, make_rules
from .seeding import deal_rng, game_seed
from .tiles import N_TILES, TILE_A, TILE_B, parse_tile, tile_id, tile_name, tiles_of

FORMAT = "domsim-game/1"
#: Longest line a records or deals file may hold (a game of thousands of actions takes a few
#: hundred KiB).
MAX_LINE_BYTES = 64 << 20
#: What a seat's fault costs its side (R-SEAT-FAULT): `forfeit` scores the game as lost (as
#: fastchess scores a crash or a time loss), `substitute` counts the stand-in's moves as the seat's.
FAULT_POLICIES = ("forfeit", "substitute")
#: How a seat's `first` fault begins when a person left the table (domsim.human): its seat was
#: handed over with no fault counted, for a person is not a program that failed.
LEFT_THE_TABLE = "the player left the table"
#: A fault's kind as a record's `faults` entry counts it, and in words (its `first_kind`).
FAULT_KINDS = {"timeouts": "timeout", "errors": "exception", "illegal": "illegal move"}


class RecordError(DomsimError):
    """A record that is malformed or breaks the rules; the message names where, in one line."""


# -- writing -----------------------------------------------------------------------------------
_NAMES = tuple(map(tile_name, range(N_TILES)))  # tile_name of every tile, looked up per action


def action_dict(action: int, first: bool) -> dict:
    kind, seat, tile, end, _ = Action.of(action)
    if kind == PLAY:
        if first:
            a, b = TILE_A[tile], TILE_B[tile]
            return {"seat": seat, "play": f"{b}-{a}" if end else _NAMES[tile]}
        return {"seat": seat, "play": _NAMES[tile], "end": end}
    if kind == DRAW:
        return {"seat": seat, "draw": _NAMES[tile]}
    return {"seat": seat, "pass": True}


def result_dict(result: HandResult) -> dict:
    out = {
        "end": result.end,
        "winners": list(result.winners),
        "points": list(result.points),
        "scores": list(result.scores),
        "carry": result.carry,
    }
    if result.capicu:
        out["capicu"] = True
    return out


def deal_dict(hands: list[int], boneyard: list[int]) -> dict:
    """A hand's `deal`: each seat's tiles (from bit masks) and the boneyard in draw order."""
    return {"hands": [[_NAMES[t] for t in tiles_of(h)] for h in hands],
            "boneyard": [_NAMES[t] for t in boneyard]}


def hand_record(hands: list[int], boneyard: list[int], leader: int, history: list[int],
                result: HandResult, stand_in: dict[int, str] | None = None) -> dict:
    """A hand's record; `stand_in` marks the actions (by place) the stand-in made, with the fault
    that handed it the move ("" when the seat was handed over before)."""
    actions = [action_dict(a, i == 0) for i, a in enumerate(history)]
    for index, fault in (stand_in or {}).items():
        actions[index]["stand_in"] = True
        if fault:
            actions[index]["fault"] = fault
    return {
        "deal": deal_dict(hands, boneyard),
        "leader": leader,
        "actions": actions,
        "result": result_dict(result),
    }


def match_result(state: State) -> dict:
    out = {
        "winners": list(state.match_winners),
        "scores": list(state.scores),
        "complete": state.match_over,
    }
    if state.won_dry is not None:
        out["dry"] = state.won_dry
    return out


def fault_count(faults: dict) -> int:
    """A seat's faults of every kind, from its record's `faults` entry."""
    return faults["timeouts"] + faults["errors"] + faults["illegal"]


def fault_words(faults: dict) -> str:
    """A seat's first fault, from its `faults` entry, as a result gives its reason: `exception
    at hand 3`, `timeout before the first hand` (a record written before the entry kept its
    first fault's kind and hand: the kind it counted, without the hand)."""
    kind = faults.get("first_kind") or next(
        (word for key, word in FAULT_KINDS.items() if faults[key]), "fault")
    hand = faults.get("first_hand")
    if not _is_int(hand):
        return kind
    return f"{kind} at hand {hand}" if hand else f"{kind} before the first hand"


@dataclass(frozen=True)
class GameResult:
    """A game's result as its run scored it, the one every surface shows (R-SEAT-FAULT): the
    winning seats (a forfeit's when a side forfeited, else the board's), whether the game was
    decided, the board's final scores per side, and each forfeiting seat's fault in words."""

    winners: tuple[int, ...]
    complete: bool
    scores: tuple[int, ...]
    forfeits: dict[int, str]  # seat -> its first fault (fault_words)

    @classmethod
    def of(cls, rules: Rules, state: State, faults: object, on_fault: str) -> GameResult:
        """The result of the game that ended in `state` with these `faults` (a record's
        entries, per seat: no forfeit unless they are well formed) under `on_fault`."""
        board = list(state.match_winners)
        scored = None
        if on_fault == "forfeit" and faults_problem(faults, rules.players) is None:
            scored = forfeit_winners(rules, [fault_count(entry) > 0 for entry in faults], board)
        forfeits = {} if scored is None else {
            seat: fault_words(entry) for seat, entry in enumerate(faults) if fault_count(entry)}
        return cls(tuple(board if scored is None else scored), state.match_over,
                   tuple(state.scores), forfeits)

    @classmethod
    def of_record(cls, record: dict, rules: Rules, state: State) -> GameResult:
        """The result a record states, from its replay's final `state`."""
        return cls.of(rules, state, record.get("faults"), record.get("on_fault", "substitute"))

    def words(self, rules: Rules, names: Sequence[str]) -> str:
        """`easy wins`, `easy and hard share the win`, `nobody wins`, `not finished`, `easy wins
        by forfeit (crashy: exception at hand 3)`; `names`: each seat's entrant (or spec)."""
        why = self.why(rules, names)
        return self.winning(rules, names) + (f" by forfeit ({why})" if why else "")

    def winning(self, rules: Rules, names: Sequence[str]) -> str:
        """Who won, without why: `easy wins`."""
        if not self.complete:
            return "not finished"
        sides = side_names(rules, names)
        won = list(dict.fromkeys(sides[rules.side_of(seat)] for seat in self.winners))
        return (f"{won[0]} wins" if len(won) == 1 else
                f"{' and '.join(won)} share the win" if won else "nobody wins")

    def why(self, rules: Rules, names: Sequence[str]) -> str:
        """What forfeited the game, by side: `crashy: exception at hand 3` ("": nothing)."""
        sides = side_names(rules, names)
        return "; ".join(f"{sides[rules.side_of(seat)]}: {what}"
                         for seat, what in self.forfeits.items())

    def board(self, rules: Rules, names: Sequence[str]) -> str:
        """The board's scores by side: `crashy 150, easy 70`."""
        sides = side_names(rules, names)
        return ", ".join(f"{side} {score}" for side, score in zip(sides, self.scores,
                                                                    strict=True))

    def line(self, rules: Rules, names: Sequence[str]) -> str:
        """The result with the board's scores (a game to a target), which a forfeit overrules:
        `hard wins (scores hard 150, easy 70)`, `easy wins by forfeit (crashy: exception at hand
        3; on the board crashy 150, easy 70)`."""
        board = self.board(rules, names) if rules.target else ""
        why = self.why(rules, names)
        if why:
            return (f"{self.winning(rules, names)} by forfeit ({why}"
                    + (f"; on the board {board})" if board else ")"))
        return self.winning(rules, names) + (f" (scores {board})" if board else "")


def side_names(rules: Rules, names: Sequence[str]) -> list[str]:
    """Each side by its seats' names (a team entrant's one name; two specs joined by "and"), a
    side whose name another side shares also by its seat or team: `easy (seat 0)`."""
    sides = [" and ".join(dict.fromkeys(names[seat] for seat in range(rules.players)
                                        if rules.side_of(seat) == side))
             for side in range(rules.sides)]
    word = "team" if rules.variant.teams else "seat"
    return [f"{name} ({word} {side})" if sides.count(name) > 1 else name
            for side, name in enumerate(sides)]


def seat_names(record: dict, players: int) -> list[str]:
    """Each seat's name in a record: its entrant's in a tourney's record, else its spec."""
    for key in ("entrants", "seats"):
        if _names(record.get(key), players):
            return list(record[key])
    return [f"seat {seat}" for seat in range(players)]


def forfeit_winners(rules: Rules, faulted: list[bool], winners: list[int]) -> list[int] | None:
    """The winners of a game whose `faulted` seats forfeit it for their sides: a winner on a clean
    side keeps the win, else every seat of the clean sides shares it. None when nothing is
    forfeited: no seat faulted, or every side did (then the game stands as played)."""
    lost = {rules.side_of(seat) for seat, bad in enumerate(faulted) if bad}
    if not lost or len(lost) == rules.sides:
        return None
    kept = [seat for seat in winners if rules.side_of(seat) not in lost]
    return kept or [seat for seat in range(rules.players) if rules.side_of(seat) not in lost]


def forfeit_dict(rules: Rules, specs: list[str], faults: list[dict],
                 winners: list[int]) -> dict | None:
    """The record's `forfeit` entry: the seats that forfeited, the winners as scored, and why."""
    faulted = [fault_count(entry) > 0 for entry in faults]
    scored = forfeit_winners(rules, faulted, winners)
    if scored is None:
        return None
    seats = [seat for seat, bad in enumerate(faulted) if bad]
    why = "; ".join(f"seat {seat} ({specs[seat]}) faulted {fault_count(faults[seat])} time(s), "
                    f"first: {faults[seat]['first']}" for seat in seats)
    return {"seats": seats, "winners": scored, "reason": f"{why}: its side loses the game"}


def game_record(rules: Rules, seats: list[str], seed: int, hands: list[dict],
                state: State) -> dict:
    return {
        "format": FORMAT,
        "variant": rules.name,
        "players": rules.players,
        "options": rules.options(),
        "seats": list(seats),
        "seed": seed,
        "hands": hands,
        "result": match_result(state),
    }


def seal(record: dict) -> dict:
    """The record with its `digest`, so that replay finds any later edit of what it states."""
    return {**record, "digest": digest_of(record)}


def digest_of(record: dict) -> str:
    """sha256 of the record's canonical JSON, leaving out its digest and its timing (decision
    times differ from run to run; they decide nothing)."""
    stated = {key: value for key, value in record.items() if key not in ("digest", "timing")}
    text = json.dumps(stated, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


# -- reading -----------------------------------------------------------------------------------
def read_records(path: str | Path, at_least_one: bool = True) -> list[dict]:
    """One JSON object, or JSON Lines with one game per line; at least one game unless
    `at_least_one` is false (the caller says what an empty file lacks)."""
    try:
        text = "".join(_bounded_lines(Path(path)))
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"cannot read {path}: not UTF-8 text") from None
    try:
        records = [parse_json(text, f"{path}")]
    except RecordError:
        records = [parse_json(line, f"{path}, line {number}")
                   for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not records and at_least_one:
        raise RecordError(f"{path} holds no game record: give a file `domsim play --record` or "
                          "`tourney --records` wrote")
    for index, record in enumerate(records):
        if not isinstance(record, dict):
            raise RecordError(f"{path}: game {index + 1} is not a JSON object")
    return records


def _bounded_lines(path: Path) -> Iterator[str]:
    """The file's lines, each refused (RecordError) past `MAX_LINE_BYTES`: a file that is no
    records file (/dev/zero, say) is never read into memory whole."""
    with path.open("rb") as file:
        number = 0
        while line := file.readline(MAX_LINE_BYTES + 1):
            number += 1
            if len(line) > MAX_LINE_BYTES:
                raise RecordError(f"{path}, line {number}: longer than {MAX_LINE_BYTES >> 20} "
                                  "MiB: not a game record")
            yield line.decode("utf-8")


def parse_json(text: str, where: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise RecordError(f"{where}: nested too deeply to be a game record") from None


def _field(record: dict, key: str, kind: type | tuple, where: str, default=None):
    value = record.get(key, default)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise RecordError(f"{where}: field {key!r} is missing or has the wrong type")
    return value


def rules_of(record: dict, where: str) -> Rules:
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"{where}: format must be {FORMAT!r}")
    variant = _field(record, "variant", str, where)
    players = record.get("players")
    if players is None and isinstance(record.get("seats"), list):
        players = len(record["seats"])
    elif players is not None:
        players = _field(record, "players", int, where)
    options = _field(record, "options", dict, where, {})
    try:
        return make_rules(variant, players, options)
    except RulesError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _tile(value, where: str) -> tuple[int, int]:
    try:
        return parse_tile(value)
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _read_deal(hand: dict, rules: Rules, where: str) -> tuple[list[int], list[int], bool]:
    deal = _field(hand, "deal", dict, where)
    seats = _field(deal, "hands", list, where)
    if len(seats) != rules.players:
        raise RecordError(f"{where}: the deal has {len(seats)} hands, {rules.name} needs "
                          f"{rules.players}")
    seen: set[int] = set()
    masks = []
    for seat, tiles in enumerate(seats):
        if not isinstance(tiles, list) or len(tiles) != rules.hand_size:
            raise RecordError(f"{where}: the hand of seat {seat} must list {rules.hand_size} tiles")
        ids = [tile_id(*_tile(t, where)) for t in tiles]
        masks.append(sum(1 << t for t in ids))
        seen.update(ids)
    known = "boneyard" in deal
    boneyard = [tile_id(*_tile(t, where)) for t in _field(deal, "boneyard", list, where, [])]
    seen.update(boneyard)
    everything = rules.players * rules.hand_size + len(boneyard)
    if len(seen) != everything or (known and everything != N_TILES):
        raise RecordError(f"{where}: the deal must hold each of the 28 tiles exactly once")
    if not known:
        boneyard = [t for t in range(N_TILES) if t not in seen]
    return masks, boneyard, known


# -- replay ------------------------------------------------------------------------------------
def game_label(record: dict, index: int) -> str:
    """How messages name a record: by its game id as stored (a tourney's), else by its place in
    the file, counting from 1 as hands and actions do."""
    game_id = record.get("game_id")
    return f"game id {game_id}" if _is_int(game_id) else f"game {index + 1}"


def replay_steps(record: dict, game: int) -> Iterator[tuple[str, int, int, State, object]]:
    """Re-apply a record's actions (`game`: its index in the file). Yields ("hand", h, -1,
    state, None) at each hand's start, ("action", h, i, state, action_dict) after each action
    and ("result", h, -1, state, result) when a hand ends (h and i count from 0; messages from
    1). Raises RecordError at the first illegal action or malformed field."""
    where = game_label(record, game)
    rules = rules_of(record, where)
    state = State(rules)
    for h, hand in enumerate(_field(record, "hands", list, where)):
        at = f"{where}, hand {h + 1}"
        if not isinstance(hand, dict):
            raise RecordError(f"{at}: a hand must be a JSON object")
        if state.match_over:
            raise RecordError(f"{at}: the match was already decided")
        hands, boneyard, known = _read_deal(hand, rules, at)
        try:
            state.start_hand(hands, boneyard, *_leader(state, hand, hands, at))
        except RulesError as exc:
            raise RecordError(f"{at}: {exc}") from None
        yield "hand", h, -1, state, None
        for i, action in enumerate(_field(hand, "actions", list, at)):
            if state.hand_over:
                raise RecordError(f"{at}, action {i + 1}: the hand was already over")
            _apply(state, action, known, f"{at}, action {i + 1}")
            yield "action", h, i, state, action
        if not state.hand_over:
            raise RecordError(f"{at}: the actions stop before the hand is over")
        yield "result", h, -1, state, state.last_hand_result


def _leader(state: State, hand: dict, hands: list[int], at: str) -> tuple[int, int]:
    """The (leader, forced lead tile) of the hand starting now; checked unless drawn by lot."""
    given = hand.get("leader")
    if given is not None and (not isinstance(given, int) or not 0 <= given < state.n):
        raise RecordError(f"{at}: leader must be a seat 0..{state.n - 1}")
    if state.hand_number < 0:
        if by_lot(state.rules):
            if given is None:
                raise RecordError(f"{at}: the first leader is drawn by lot; name it")
            return given, -1
        leader, tile = first_lead(state.rules, hands)
    else:
        leader, tile = next_leader(state), -1
    if given is not None and given != leader:
        raise RecordError(f"{at}: leader {given} is wrong, the rules say seat {leader} leads")
    return leader, tile


def _apply(state: State, action, known_boneyard: bool, at: str) -> None:
    if not isinstance(action, dict) or not isinstance(action.get("seat"), int):
        raise RecordError(f"{at}: an action must be an object with a seat")
    if action["seat"] != state.to_move:
        raise RecordError(f"{at}: seat {action['seat']} acted but seat {state.to_move} is to move")
    try:
        if "play" in action:
            state.play(_play_move(state, action, at))
        elif "draw" in action:
            wanted = tile_id(*_tile(action["draw"], at))
            drawn = state.draw()
            if not known_boneyard:
                raise RecordError(f"{at}: a draw, but the deal lists no boneyard")
            if wanted != drawn:
                raise RecordError(f"{at}: drew {action['draw']} but the next boneyard tile is "
                                  f"{tile_name(drawn)}")
        elif action.get("pass") is True:
            state.pass_turn()
        else:
            raise RecordError(f"{at}: an action must have play, draw or pass")
    except RulesError as exc:  # what the core refuses (R-MUST, R-LINE, R-LEAD)
        raise RecordError(f"{at}: {exc}") from None


def _play_move(state: State, action: dict, at: str) -> int:
    """The move a play names: a lead laid as written, else on the end named or, when none is
    named, the only end the tile fits. Whether the rules allow it is the core's to say."""
    a, b = _tile(action["play"], at)
    tile = tile_id(a, b)
    if state.line_count == 0:
        return tile << 2 | (a > b)
    end = action.get("end")
    if end is not None and (type(end) is not int or not 0 <= end <= 3):
        raise RecordError(f"{at}: end must be an integer 0..3, not {end!r}")
    if end is None:
        fits = state.ends_fitting(tile)
        if len(fits) != 1:
            raise RecordError(f"{at}: {tile_name(tile)} fits "
                              + (f"ends {fits}: name the end" if fits else "no open end"))
        end = fits[0]
    return tile << 2 | end


def verify(record: dict, game: int) -> tuple[dict | None, list[str]]:
    """Replay one record. Returns it with recomputed results (None when an action is illegal or
    a field malformed) and every disagreement with the results it carried, and of a tourney's
    record with the deals its seed makes, in order."""
    recomputed = copy.deepcopy(record)
    problems: list[str] = []
    state = None
    where = game_label(record, game)
    deals = SeededDeals.of(record, where)
    try:
        for kind, h, _, at_state, payload in replay_steps(record, game):
            state = at_state
            if kind == "hand" and deals:
                problems += deals.check(state, record["hands"][h], f"{where}, hand {h + 1}")
            if kind == "result":
                fresh = result_dict(payload)
                problems += _compare(record["hands"][h].get("result"), fresh,
                                     f"{where}, hand {h + 1}")
                recomputed["hands"][h]["result"] = fresh
                if deals:
                    deals.hand_over(state)
    except RecordError as exc:
        return None, [*problems, str(exc)]
    if state is None:
        return None, [f"{where}: the record has no hands"]
    final = match_result(state)
    problems += _compare(record.get("result"), final, where)
    if deals:  # domsim wrote it: it states every result, and what it states must hold
        problems += missing_results(record, where)
        problems += stated_problems(record, state.rules, final["winners"], where)
    recomputed["result"] = final
    return recomputed, (deals.seed_problems if deals else []) + problems


def missing_results(record: dict, where: str) -> list[str]:
    """The results a record of domsim's lacks (it writes the game's and every hand's)."""
    hands = [h for h, hand in enumerate(record["hands"]) if "result" not in hand]
    out = [] if "result" in record else [f"{where}: no result: domsim states every game's; "
                                          "the record was edited"]
    return out + [f"{where}, hand {h}: no result: domsim states every hand's; the record was "
                  "edited" for h in hands]


def stated_problems(record: dict, rules: Rules, winners: list[int], where: str) -> list[str]:
    """What a domsim record states beside its actions and results that it cannot state: seats
    and entrants not one per seat, faults that are no seat's faults, a forfeit the faults and
    the result do not give, a digest that is not its own."""
    problems = [f"{where}: {key} must list one name per seat ({rules.players}), not "
                f"{_short(record[key])}" for key in ("seats", "entrants")
                if key in record and not _names(record[key], rules.players)]
    faults = record.get("faults")
    problem = None if faults is None else faults_problem(faults, rules.players)
    if problem:
        return [*problems, f"{where}: faults {problem}"]
    policy = record.get("on_fault", "substitute")
    if policy not in FAULT_POLICIES:
        problems.append(f"{where}: on_fault must be {' or '.join(FAULT_POLICIES)}, not "
                        f"{_short(policy)}")
    elif policy == "forfeit" or "forfeit" in record:
        specs = record["seats"] if _names(record.get("seats"), rules.players) else (
            ["?"] * rules.players)
        expected = (forfeit_dict(rules, specs, faults, winners)
                    if policy == "forfeit" and faults is not None else None)
        if record.get("forfeit") != expected:
            problems.append(f"{where}: forfeit is {_short(record.get('forfeit'))}, but its "
                            f"faults and result give {_short(expected)}")
    if "digest" in record and record["digest"] != digest_of(record):
        problems.append(f"{where}: the record is not as domsim wrote it (its digest differs): "
                        "a field was edited")
    return problems


def _names(value: object, players: int) -> bool:
    return (isinstance(value, list) and len(value) == players
            and all(isinstance(name, str) for name in value))


def faults_problem(faults: object, players: int) -> str | None:
    """Why `faults` is not one entry per seat as domsim writes them (None: it is)."""
    if not isinstance(faults, list) or len(faults) != players:
        return f"must list one entry per seat ({players}), not {_short(faults)}"
    for seat, entry in enumerate(faults):
        counts = [entry.get(kind) for kind in ("timeouts", "errors", "illegal")] if isinstance(
            entry, dict) else [None]
        if not all(_is_int(n) and n >= 0 for n in counts):
            return (f"of seat {seat} must count timeouts, errors and illegal moves, not "
                    f"{_short(entry)}")
        if not isinstance(entry.get("replaced"), bool) or not isinstance(entry.get("first"),
                                                                         str | None):
            return f"of seat {seat} must say whether it was replaced and its first fault"
        left = entry["replaced"] and str(entry["first"]).startswith(LEFT_THE_TABLE)
        if not left and ((sum(counts) == 0) != (entry["first"] is None)
                         or entry["replaced"] and not sum(counts)):
            return (f"of seat {seat} do not add up: {sum(counts)} fault(s), first "
                    f"{_short(entry['first'])}, replaced {entry['replaced']}")
    return None


def _short(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


class SeededDeals:
    """The deals a tourney's record must hold: those its seed makes (R-RNG), dealt hand by hand
    by the engine on a copy of the match as it stood before each hand."""

    def __init__(self, rules: Rules, seed: int, seed_problems: list[str],
                 fixed_first: bool = False) -> None:
        self.rng = deal_rng(seed)
        self.before = State(rules)
        self.seed_problems = seed_problems
        self.fixed_first = fixed_first  # the first hand came from a deals file, not the seed
        self.strayed = False  # once a deal differs, every later one does: say it once

    @classmethod
    def of(cls, record: dict, where: str) -> SeededDeals | None:
        """For a record domsim dealt from its seed (`dealt_from_seed`) or that carries its run
        seed and game id (a tourney's, also one of 0.1), else None (another tool's); with
        `fixed_deal` its first hand is a deals file's (`tourney --deals`), not the seed's."""
        keys = ("run_seed", "game_id", "seed", "deal_id")
        of_tourney = all(_is_int(record.get(key)) for key in keys)
        if not (of_tourney or record.get("dealt_from_seed") is True and
                _is_int(record.get("seed"))):
            return None
        try:
            rules = rules_of(record, where)
        except RecordError:
            return None  # replay_steps reports it
        seed = record["seed"]
        wrong = []
        key = record.get("run_key")
        if of_tourney and game_seed(record["run_seed"], record["deal_id"],
                                    key if isinstance(key, str) else None) != seed:
            keyed = " and its run_key" if key is not None else ""
            wrong = [f"{where}: seed {seed} is not the seed of deal {record['deal_id']} of "
                     f"run seed {record['run_seed']}{keyed}"]
        return cls(rules, seed, wrong, record.get("fixed_deal") is True)

    def check(self, state: State, hand: dict, where: str) -> list[str]:
        """Whether the hand just started in `state` is the one the seed deals next."""
        if self.strayed:
            return []
        if self.fixed_first and state.hand_number == 0:
            return []  # a fixed deal: the seed deals the later hands, from a fresh generator
        dealt = self.before
        start_next_hand(dealt, self.rng)
        differs = [what for what, given, made in (
            ("hands", state.hands, dealt.hands), ("leader", state.leader, dealt.leader),
            ("boneyard", state.boneyard if "boneyard" in hand["deal"] else None,
             dealt.boneyard if "boneyard" in hand["deal"] else None)) if given != made]
        self.strayed = bool(differs)
        return [f"{where}: the deal's {', '.join(differs)} are not what the record's seed "
                "deals"] if differs else []

    def hand_over(self, state: State) -> None:
        self.before = state.copy()


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _compare(given, fresh: dict, where: str) -> list[str]:
    if given is None:
        return []
    if not isinstance(given, dict):
        return [f"{where}: result must be a JSON object"]
    out = []
    for key, value in fresh.items():
        if key in given and _normal(given[key], key) != _normal(value, key):
            out.append(f"{where}: result {key} is {given[key]!r}, replay gives {value!r}")
    return out


def _normal(value, key: str):
    """Winners in any order (any JSON in them: a record may hold anything)."""
    return sorted(map(json.dumps, value)) if key == "winners" and isinstance(value, list) else value
