"""A readable transcript of a game record: each deal, every action with the open ends after it,
fives made, each hand's result and the running scores. Built by replaying the record."""

from __future__ import annotations

from collections.abc import Iterator

from ._core import fives_points
from .engine import HandResult, State
from .record import GameResult, replay_steps, seat_names
from .tiles import parse_tile, tile_name, tiles_of


def _ends(state: State) -> str:
    return " ".join(str(state.ends[e]) for e in range(state.n_ends))


def _side_label(state: State) -> str:
    return "team" if state.rules.variant.teams else "seat"


def transcript_lines(record: dict, game: int = 0) -> Iterator[str]:
    seats = record.get("seats") or []
    yield (f"{record.get('variant')}, {len(seats) or record.get('players')} players, "
           f"seed {record.get('seed')}: " + ", ".join(f"seat {s} {n}" for s, n in enumerate(seats)))
    state = None
    for kind, h, _, state, payload in replay_steps(record, game):
        if kind == "hand":
            yield from _hand_header(state, h)
        elif kind == "action" and "play" in payload:
            line = f"{_action_line(payload):<30} ends {_ends(state)}"
            count = state.fives_count() if state.fives else 0
            if fives_points(count):
                line += f"   count {count}: scores {fives_points(count)}"
            yield line
        elif kind == "action":
            yield _action_line(payload)
        else:
            yield _result_line(state, payload)
    if state is not None and state.match_over:
        result = GameResult.of_record(record, state.rules, state)
        yield f"Game over: {result.line(state.rules, seat_names(record, state.rules.players))}"
    elif state is not None:
        yield f"Game not finished after {len(record['hands'])} hands: scores {state.scores}"


def _hand_header(state: State, index: int) -> Iterator[str]:
    yield f"Hand {index + 1}: seat {state.leader} leads"
    for seat, tiles in enumerate(state.hands):
        yield f"  seat {seat} holds {' '.join(tile_name(t) for t in tiles_of(tiles))}"
    if state.boneyard:
        label = "boneyard" if state.rules.variant.draws else "out of play"
        yield f"  {label}: {len(state.boneyard)} tiles"


def written(tile) -> str:
    """A tile as the record wrote it (a lead's order matters), spelled "a-b"."""
    return "-".join(map(str, parse_tile(tile)))


def _action_line(action: dict) -> str:
    seat = action["seat"]
    if "play" in action:
        where = f" on end {action['end']}" if "end" in action else ""
        return f"  seat {seat} plays {written(action['play'])}{where}"
    if "draw" in action:
        return f"  seat {seat} draws {written(action['draw'])}"
    return f"  seat {seat} passes"


def _result_line(state: State, result: HandResult) -> str:
    label = _side_label(state)
    winners = ", ".join(map(str, result.winners)) or "nobody"
    extra = " (capicú)" if result.capicu else ""
    carry = f", carry {result.carry}" if result.carry else ""
    return (f"  => {result.end}{extra}: seats {winners} win; points per {label} "
            f"{list(result.points)}; scores {list(result.scores)}{carry}")
