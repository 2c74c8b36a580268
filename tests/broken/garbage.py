"""Broken on purpose: returns something that is not a Move, chosen by `kind`."""

from domsim.strategy import Strategy
from domsim.view import Move


class Weird:
    """Equal to everything, and its repr fails."""

    def __eq__(self, other):
        raise ValueError("no comparing me")

    def __repr__(self):
        raise ValueError("no printing me")


def garbage(kind: str, view):
    move = view.legal_moves[0]
    return {
        "none": None,
        "int": 42,
        "str": str(move),
        "list": [move.tile, move.end],
        "dict": {"tile": move.tile, "end": move.end},
        "bad_end": Move(move.tile, 9),
        "bad_types": Move(str(move.tile), "0"),
        "short_tuple": (move.tile,),
        "weird": Weird(),
        "weird_in_tuple": (Weird(), move.end),
    }[kind]


class Garbage(Strategy):
    def __init__(self, *, kind: str = "none") -> None:
        self.kind = kind

    def choose(self, view):
        return garbage(self.kind, view)
