"""medium and hard play as they did (R-LEVEL): games of every variant and player count, the
levels and easy mixed at the seats, give the records they gave when the core took over what a
view shows (voids, unseen tiles, the fives count a move leaves) from domsim.insight's Python
copies; tests/data/level_games.json holds each configuration's SHA-256 over its games. A change
to how a level plays changes them on purpose: then rewrite the file with
`python tests/test_level_games.py` and say so in the commit."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from domsim.game import play_game
from domsim.rules import VARIANTS, make_rules

DATA = Path(__file__).parent / "data" / "level_games.json"
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


def digest(name: str, players: int, options: dict) -> str:
    """SHA-256 over the records (timing, the seed marker, the fault policy and the digest left
    out) of the configuration's games."""
    rules = make_rules(name, players, options)
    sha = hashlib.sha256()
    for seed in range(SEEDS):
        record = play_game(rules, list(LINEUPS[seed % len(LINEUPS)][:players]), seed,
                           move_time_limit=None)
        record.pop("timing")
        record.pop("dealt_from_seed")  # how the deals were made, not how the levels play
        record.pop("on_fault"), record.pop("digest")  # what a fault costs; the record's seal
        sha.update(json.dumps(record, sort_keys=True).encode())
    return sha.hexdigest()


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS,
                         ids=[key(*config) for config in CONFIGS])
def test_the_levels_play_the_games_they_played(name, players, options):
    assert digest(name, players, options) == json.loads(DATA.read_text())[key(name, players,
                                                                              options)]


if __name__ == "__main__":
    digests = {key(*config): digest(*config) for config in CONFIGS}
    DATA.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    sys.exit(f"wrote {len(digests)} digests to {DATA}")
