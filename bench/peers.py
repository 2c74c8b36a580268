"""Peer-library side of the engine speed benchmark: random-play hands per second.

Peers: OpenSpiel's pure-Python dominoes games and the ``dominoes`` package. Each peer is
imported inside the function that times it, so this module imports without them. Their random
players pick moves as ours do in bench/engine.py: ``pick``, inlined in the loops.
"""

import importlib
import importlib.metadata
import random
import time
from collections.abc import Callable, Sequence
from types import ModuleType

_INSTALL_HINT = "pip install -e '.[bench]'"


def pick(random_: Callable[[], float], moves: Sequence):
    """A uniformly random move (to the 53 bits of a float) from ``random_ = rng.random``; cheaper
    than ``rng.choice``, which makes two Python calls. The loops inline it."""
    return moves[int(random_() * len(moves))]


def _require(module: str, package: str) -> ModuleType:
    """Import ``module`` of peer ``package``, or raise a one-line ImportError on how to install."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise ImportError(f"{package} is not installed; run: {_INSTALL_HINT}") from err


def _openspiel_hands_per_second(game_name: str, seconds: float, seed: int) -> float:
    """Play random OpenSpiel hands of ``game_name`` for about ``seconds``; return hands/s."""
    pyspiel = _require("pyspiel", "open_spiel")
    _require("open_spiel.python.games", "open_spiel")  # registers the python_*_dominoes games
    game = pyspiel.load_game(game_name)
    rng = random.Random(seed)
    random_ = rng.random
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(random_() * len(actions))])  # pick, inlined
        hands += 1
        now = time.perf_counter()
        if now >= deadline:
            return hands / (now - start)


def openspiel_block_hands_per_second(seconds: float = 2.0, seed: int = 0) -> float:
    """Random-play hands/s of OpenSpiel's python_block_dominoes (2 players, no boneyard)."""
    return _openspiel_hands_per_second("python_block_dominoes", seconds, seed)


def openspiel_team_hands_per_second(seconds: float = 2.0, seed: int = 0) -> float:
    """Random-play hands/s of OpenSpiel's python_team_dominoes (4 players, 2 teams)."""
    return _openspiel_hands_per_second("python_team_dominoes", seconds, seed)


def dominoes_hands_per_second(players: int = 4, seconds: float = 2.0, seed: int = 0) -> float:
    """Random-play hands/s of the ``dominoes`` package: one ``Game`` (a single deal) per hand.

    The package only supports 4 players. ``Game.new`` shuffles with the global ``random``
    module, so it is seeded with ``seed`` for the run and its state restored afterwards.
    """
    if players != 4:
        raise ValueError(f"the dominoes package only supports 4 players, not {players}")
    dominoes = _require("dominoes", "dominoes")
    random_ = random.Random(seed).random
    saved = random.getstate()
    random.seed(seed)
    try:
        hands = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            game = dominoes.Game.new(starting_player=0)
            while game.result is None:
                moves = game.valid_moves
                game.make_move(*moves[int(random_() * len(moves))])  # pick, inlined
            hands += 1
            now = time.perf_counter()
            if now >= deadline:
                return hands / (now - start)
    finally:
        random.setstate(saved)


def available() -> dict[str, str | None]:
    """Map each peer's name to its installed version, or None if it is not importable."""
    versions: dict[str, str | None] = {}
    for name, module in (("open_spiel", "pyspiel"), ("dominoes", "dominoes")):
        try:
            importlib.import_module(module)
        except ImportError:
            versions[name] = None
        else:
            versions[name] = importlib.metadata.version(name)
    return versions


if __name__ == "__main__":
    for label, measure in (
        ("openspiel python_block_dominoes", openspiel_block_hands_per_second),
        ("openspiel python_team_dominoes", openspiel_team_hands_per_second),
        ("dominoes (4 players)", dominoes_hands_per_second),
    ):
        print(f"{label}: {measure():.1f} hands/s")
