"""Broken on purpose: hunts through its view for other hands and the boneyard, and tries to
write to the view. It records what it finds in SEEN / ATTEMPTS and then plays legally."""

from domsim.strategy import Strategy
from domsim.tiles import Tile

SEEN: list[tuple[set, set, set]] = []  # (tiles reachable from the view, own hand, tiles played)
ATTEMPTS: list[tuple[str, str]] = []  # (what was tried, the exception it raised or "allowed")
HIDDEN_NAMES = ("hands", "boneyard", "state", "_state", "deal", "__dict__", "stock", "unseen")


def reachable_tiles(value, seen: dict[int, object], found: set) -> None:
    """Every Tile reachable from `value` through attributes, properties and containers. `seen`
    keeps every object visited alive, so a property's fresh value never reuses a visited id."""
    if id(value) in seen or value is None or isinstance(value, int | float | str | bytes):
        return
    seen[id(value)] = value
    if isinstance(value, Tile):
        found.add(value)
        return
    if isinstance(value, dict):
        value = [*value.keys(), *value.values()]
    if isinstance(value, tuple | list | set | frozenset):
        for item in value:
            reachable_tiles(item, seen, found)
        return
    for name in dir(value):
        if name.startswith("__"):
            continue
        try:
            attribute = getattr(value, name)
        except Exception:
            continue
        if not callable(attribute):
            reachable_tiles(attribute, seen, found)


class Snoop(Strategy):
    def choose(self, view):
        found: set = set()
        reachable_tiles(view, {}, found)
        played = {event.tile for event in view.history if event.kind == "play"}
        SEEN.append((found, set(view.hand), played))
        for name in HIDDEN_NAMES:
            self.attempt(f"read {name}", lambda name=name: getattr(view, name))
            self.attempt(f"write {name}", lambda name=name: setattr(view, name, ()))
        self.attempt("write hand", lambda: setattr(view, "hand", ()))
        self.attempt("write legal_moves", lambda: setattr(view, "legal_moves", ()))
        return view.legal_moves[0]

    @staticmethod
    def attempt(what: str, action) -> None:
        try:
            action()
        except Exception as exc:
            ATTEMPTS.append((what, type(exc).__name__))
        else:
            ATTEMPTS.append((what, "allowed"))
