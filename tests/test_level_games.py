"""medium and hard play as they did (R-LEVEL): games of every variant and player count, the
levels and easy mixed at the seats, give the records they gave when the core took over what a
view shows (voids, unseen tiles, the fives count a move leaves) from domsim.insight's Python
copies; tests/data/level_games.json holds each configuration's SHA-256 over its games.

These digests detect change, not wrong play: they pin what the levels did, right or wrong, so
that nothing changes it unnoticed (the rules tests and tests/test_strategies.py say what is
right). So that a change can be read, not only detected, tests/data/level_games/ keeps the
first hand of each configuration's first game as a readable transcript (every play with the
ends it leaves, every draw and pass, the result), checked line by line.

A change to how a level plays changes them on purpose: then rewrite both with
`python tests/test_level_games.py`, read the transcripts' diff, and say so in the commit."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from domsim.game import play_game
from domsim.rules import VARIANTS, make_rules
from domsim.transcript import transcript_lines

DATA = Path(__file__).parent / "data" / "level_games.json"
MOVES = DATA.parent / "level_games"
SEEDS = 20
H, M, E = "hard", "medium", "easy"
LINEUPS = [(H, M, E, H), (M, H, H, E), (H, H, M, M), (E, H, M, H), (H, E, H, M), (M, M, E, H)]
CONFIGS = [(name, players, {}) for name, variant in VARIANTS.items()
           for players in variant.player_counts]
CONFIGS += [("partnership", 4, {"capicu_bonus": "25", "count": "losers", "fish": "maker",
                                "lead": "fid"}),
            ("fives", 2, {"target": "300"}), ("allfives", 4, {"target": "250"})]


def key(name: str, players: int, options: dict) -> str:
    return f"{name}/{players}" + "".join(f"/{k}={v}" for k, v in sorted(options.items()))


def game(name: str, players: int, options: dict, seed: int) -> dict:
    """The record of the configuration's game `seed` (timing, the seed marker, the fault policy
    and the digest left out)."""
    record = play_game(make_rules(name, players, options),
                       list(LINEUPS[seed % len(LINEUPS)][:players]), seed, move_time_limit=None)
    record.pop("timing")
    record.pop("dealt_from_seed")  # how the deals were made, not how the levels play
    record.pop("on_fault"), record.pop("digest")  # what a fault costs; the record's seal
    return record


def digest(name: str, players: int, options: dict) -> str:
    """SHA-256 over the records of the configuration's games."""
    sha = hashlib.sha256()
    for seed in range(SEEDS):
        sha.update(json.dumps(game(name, players, options, seed), sort_keys=True).encode())
    return sha.hexdigest()


def first_hand(name: str, players: int, options: dict) -> str:
    """The transcript of the first game's first hand, up to its result."""
    lines = []
    for line in transcript_lines(game(name, players, options, 0)):
        lines.append(line)
        if line.startswith("  => "):
            break
    return "\n".join(lines) + "\n"


def moves_file(config: tuple) -> Path:
    return MOVES / (key(*config).replace("/", "_") + ".txt")


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS,
                         ids=[key(*config) for config in CONFIGS])
def test_the_levels_play_the_games_they_played(name, players, options):
    assert digest(name, players, options) == json.loads(DATA.read_text())[key(name, players,
                                                                              options)]


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS,
                         ids=[key(*config) for config in CONFIGS])
def test_the_first_hand_reads_as_it_did(name, players, options):
    written = moves_file((name, players, options)).read_text().splitlines()
    assert first_hand(name, players, options).splitlines() == written


if __name__ == "__main__":
    digests = {key(*config): digest(*config) for config in CONFIGS}
    DATA.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    MOVES.mkdir(exist_ok=True)
    for config in CONFIGS:
        moves_file(config).write_text(first_hand(*config))
    sys.exit(f"wrote {len(digests)} digests to {DATA} and their first hands to {MOVES}")
