"""Game records (docs/GAME-RECORD.md): writing them from a played game, reading them, and replaying
them under the rules to verify every action and recompute every result."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path

from .engine import HandResult, State, by_lot, first_lead, next_leader, start_next_hand
from .engine.state import DRAW, PLAY, action_end, action_kind, action_seat, action_tile
from .rules import Rules, RulesError, make_rules
from .seeding import deal_rng, game_seed
from .tiles import N_TILES, NUMBER_MASK, TILE_A, TILE_B, parse_tile, tile_id, tile_name, tiles_of

FORMAT = "domsim-game/1"


class RecordError(ValueError):
    """A record that is malformed or breaks the rules; the message names where, in one line."""


# -- writing -----------------------------------------------------------------------------------
_NAMES = tuple(map(tile_name, range(N_TILES)))  # tile_name of every tile, looked up per action


def action_dict(action: int, first: bool) -> dict:
    seat = action_seat(action)
    tile = action_tile(action)
    kind = action_kind(action)
    if kind == PLAY:
        if first:
            a, b = TILE_A[tile], TILE_B[tile]
            return {"seat": seat, "play": f"{b}-{a}" if action_end(action) else _NAMES[tile]}
        return {"seat": seat, "play": _NAMES[tile], "end": action_end(action)}
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
                result: HandResult) -> dict:
    return {
        "deal": deal_dict(hands, boneyard),
        "leader": leader,
        "actions": [action_dict(a, i == 0) for i, a in enumerate(history)],
        "result": result_dict(result),
    }


def match_result(state: State) -> dict:
    out = {
        "winners": list(state.match_winners),
        "scores": list(state.scores),
        "complete": state.match_over,
    }
    if state.rules.variant.teams and state.match_over:
        losers = 1 - state.match_winners[0] % 2
        if state.rules.variant.scoring == "kozel":
            out["dry"] = state.scores[1 - losers] == 0
        else:
            out["dry"] = state.scores[losers] == 0
    return out


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


# -- reading -----------------------------------------------------------------------------------
def read_records(path: str | Path, at_least_one: bool = True) -> list[dict]:
    """One JSON object, or JSON Lines with one game per line; at least one game unless
    `at_least_one` is false (the caller says what an empty file lacks)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
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
        state.start_hand(hands, boneyard, *_leader(state, hand, hands, at))
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
    stuck = not state.playable_mask(state.to_move)
    if "play" in action:
        state.play(_play_move(state, action, at))
    elif "draw" in action:
        if not stuck:
            raise RecordError(f"{at}: a draw while able to play")
        if not known_boneyard:
            raise RecordError(f"{at}: a draw, but the deal lists no boneyard")
        if not state.can_draw():
            raise RecordError(f"{at}: a draw with nothing to draw")
        expected = state.boneyard[state.drawn]
        if tile_id(*_tile(action["draw"], at)) != expected:
            raise RecordError(f"{at}: drew {action['draw']} but the next boneyard tile is "
                              f"{tile_name(expected)}")
        state.draw()
    elif action.get("pass") is True:
        if not stuck or state.can_draw():
            raise RecordError(f"{at}: a pass while able to " + ("play" if not stuck else "draw"))
        state.pass_turn()
    else:
        raise RecordError(f"{at}: an action must have play, draw or pass")


def _play_move(state: State, action: dict, at: str) -> int:
    a, b = _tile(action["play"], at)
    tile = tile_id(a, b)
    if not state.hands[state.to_move] >> tile & 1:
        raise RecordError(f"{at}: seat {state.to_move} does not hold {tile_name(tile)}")
    if state.line_count == 0:
        if state.lead_tile >= 0 and tile != state.lead_tile:
            raise RecordError(f"{at}: the lead must be {tile_name(state.lead_tile)}")
        return tile << 2 | (a > b)
    fits = [e for e in range(state.n_ends) if NUMBER_MASK[state.ends[e]] >> tile & 1]
    end = action.get("end")
    if end is not None and (not isinstance(end, int) or isinstance(end, bool)):
        raise RecordError(f"{at}: end must be an integer 0..3, not {end!r}")
    if end is None:
        if len(fits) != 1:
            raise RecordError(f"{at}: {tile_name(tile)} fits "
                              + (f"ends {fits}: name the end" if fits else "no open end"))
        end = fits[0]
    if end not in fits:
        raise RecordError(f"{at}: {tile_name(tile)} does not fit end {end}")
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
    recomputed["result"] = final
    return recomputed, (deals.seed_problems if deals else []) + problems


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
        if of_tourney and game_seed(record["run_seed"], record["deal_id"]) != seed:
            wrong = [f"{where}: seed {seed} is not the seed of deal {record['deal_id']} of "
                     f"run seed {record['run_seed']}"]
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
