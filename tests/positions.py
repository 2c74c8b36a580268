"""Hand-made positions for the rules tests: hands written as strings ("6-6 1-5 0-3"), moves as
"5-6@1" (tile at open end 1), checked against the referee's own notion of what is allowed."""

from __future__ import annotations

from domsim.engine import State
from domsim.rules import Rules, make_rules
from domsim.tiles import TILE_A, mask_of, parse_tile, tile_id, tile_name


def tile(text: str) -> int:
    """The id of a tile written "a-b" (either order)."""
    return tile_id(*parse_tile(text))


def tile_list(text: str) -> list[int]:
    """Tile ids in the order written: "2-3 4-6" -> [id(2-3), id(4-6)]."""
    return [tile(word) for word in text.split()]


def hand(text: str) -> int:
    """Bitmask of the tiles written."""
    return mask_of(tile_list(text))


def rules_for(variant: str, players: int | None = None, **options) -> Rules:
    return make_rules(variant, players, options)


def position(rules: Rules | str, hands: list[str], boneyard: str = "", leader: int = 0,
             lead: str | None = None, moves: str = "", scores: list[int] | None = None,
             carry: int = 0) -> State:
    """A State in a hand started from the written deal (`lead` names a forced lead tile), with
    match scores/carry set beforehand and `moves` applied (see `apply`)."""
    if isinstance(rules, str):
        rules = make_rules(rules, len(hands))
    state = State.from_position(rules, hands=[hand(h) for h in hands],
                                boneyard=tile_list(boneyard), leader=leader,
                                lead_tile=tile(lead) if lead else -1, scores=scores, carry=carry)
    return apply(state, moves)


def next_hand(state: State, hands: list[str], boneyard: str = "", leader: int = 0,
              lead: str | None = None, moves: str = "") -> State:
    """Start another hand of `state`'s match from a written deal and apply `moves`."""
    lead_tile = tile(lead) if lead else -1
    state.start_hand([hand(h) for h in hands], tile_list(boneyard), leader, lead_tile)
    return apply(state, moves)


def apply(state: State, moves: str) -> State:
    """Apply moves separated by blanks, each checked legal for the seat to move:
    "a-b@e" plays at open end e; "a-b" plays the lead as written (end 0 shows a) or a tile that
    fits exactly one end; "draw" and "pass" only when the seat has no play; "s:" before any of
    them asserts that seat s is to move."""
    for token in moves.split():
        seat, _, word = token.rpartition(":")
        assert not state.hand_over, f"{token}: the hand is over"
        if seat:
            assert state.to_move == int(seat), f"{token}: seat {state.to_move} is to move"
        if word in ("draw", "pass"):
            _forced(state, word)
        else:
            state.play(_move(state, word))
    return state


def _forced(state: State, word: str) -> None:
    assert not state.legal_moves(), f"{word}: seat {state.to_move} can play"
    if word == "draw":
        assert state.can_draw(), f"seat {state.to_move} cannot draw"
        state.draw()
    else:
        assert not state.can_draw(), f"seat {state.to_move} must draw, not pass"
        state.pass_turn()


def _move(state: State, word: str) -> int:
    text, _, end = word.partition("@")
    t = tile(text)
    legal = state.legal_moves()
    if state.line_count == 0:
        assert t << 2 in legal, f"{word}: not a legal lead"
        return t << 2 | (parse_tile(text)[0] != TILE_A[t])
    if end:
        move = t << 2 | int(end)
        assert move in legal, f"{word}: not legal (legal: {moves_text(legal)})"
        return move
    fits = [m for m in legal if m >> 2 == t]
    assert len(fits) == 1, f"{word}: fits {len(fits)} ends, name one"
    return fits[0]


def legal(state: State) -> list[str]:
    """The seat to move's legal plays as sorted "a-b@e" strings."""
    return sorted(moves_text(state.legal_moves()))


def moves_text(moves: list[int]) -> list[str]:
    """Moves as "a-b@e" strings (the lead as "a-b@0")."""
    return [f"{tile_name(m >> 2)}@{m & 3}" for m in moves]


# A whole 28-tile deal for the team games that blocks on 0: ten plays put all seven 0s on the
# line with 0 at both ends, seat 1 making the fish; then every seat passes. Left in hand: seat 0
# 6-6 5-5 4-6 4-5 (41), seat 2 1-1 1-3 2-2 1-4 1-6 (22), seat 1 1-5 2-3 2-4 2-5 (24), seat 3
# 2-6 3-3 3-5 3-6 4-4 (39): both teams hold 63.
ZERO_FISH_HANDS = [
    "0-0 3-4 5-6 6-6 5-5 4-6 4-5",
    "0-2 0-1 0-6 1-5 2-3 2-4 2-5",
    "0-3 0-4 1-1 1-3 2-2 1-4 1-6",
    "1-2 0-5 2-6 3-3 3-5 3-6 4-4",
]
ZERO_FISH_MOVES = ("0:0-0 1:0-2@0 2:0-3@1 3:1-2@0 0:3-4@1 1:0-1@0 2:0-4@1 3:0-5@1 0:5-6@1 "
                   "1:0-6@1 2:pass 3:pass 0:pass 1:pass")


def swapped(hands: list[str], first: str, second: str) -> list[str]:
    """The written hands with tiles `first` and `second` exchanged between their holders."""
    trade = {first: second, second: first}
    return [" ".join(trade.get(word, word) for word in h.split()) for h in hands]
