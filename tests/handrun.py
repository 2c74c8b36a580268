"""A small run built by hand (block, 2 players; easy, medium and hard round-robin; 2 deals, each
in both seatings), written as a tourney folder, so statistics and report tables can be checked
against values worked out on paper."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from domsim.plan.config import TourneyConfig
from domsim.results.columns import games_schema
from domsim.results.folder import PARTS
from domsim.results.parts import write_part
from domsim.results.table import csv_table
from domsim.seeding import game_seed
from domsim.timing import time_histogram

CONFIG = TourneyConfig(variant="block", players=2, games=12, entrants=("easy", "medium", "hard"),
                       seed=1)
PAIRINGS = ["easy vs medium", "easy vs hard", "medium vs hard"]
# game id -> (seat 0, seat 1, winners, hand points, blocked, capicu, dry); game ids run deal by
# deal, pairing by pairing, seating 0 then 1 (seating 1 swaps the hands).
GAMES = [
    ("easy", "medium", "1", [[0, 10]], 0, 1, False),
    ("medium", "easy", "0", [[10, 0]], 0, 0, False),
    ("easy", "hard", "1", [[0, 10]], 0, 0, False),
    ("hard", "easy", "0", [[10, 0]], 0, 0, False),
    ("medium", "hard", "0", [[10, 0]], 0, 0, False),
    ("hard", "medium", "0", [[10, 0]], 1, 0, False),
    ("easy", "medium", "0", [[10, 0]], 0, 0, True),
    ("medium", "easy", "0", [[10, 0]], 0, 0, False),
    ("easy", "hard", "0,1", [[0, 0]], 1, 0, False),
    ("hard", "easy", "0", [[10, 0]], 0, 0, False),
    ("medium", "hard", "1", [[0, 10]], 0, 0, False),
    ("hard", "medium", "0", [[10, 0]], 0, 0, False),
]
# seat 0 and seat 1 in game g make three decisions each, of g + 1 and 10 * (g + 1) ms
SEAT_MEDIANS = [(g + 1.0, 10.0 * (g + 1)) for g in range(len(GAMES))]


def rows(games: list = GAMES) -> list[dict]:
    out = []
    for game_id, (seat_0, seat_1, winners, points, blocked, capicu, dry) in enumerate(games):
        medians = SEAT_MEDIANS[game_id]
        won = [int(seat) for seat in winners.split(",")]
        out.append({
            "game_id": game_id, "deal_id": game_id // 6, "pairing": PAIRINGS[game_id % 6 // 2],
            "seating": game_id % 2, "variant": "block", "options_hash": "x",
            "seed": game_seed(CONFIG.seed, game_id // 6),
            "seat_0": seat_0, "seat_1": seat_1, "entrant_0": seat_0, "entrant_1": seat_1,
            "winners": won, "winner_entrants": [(seat_0, seat_1)[seat] for seat in won],
            "score_0": points[0][0], "score_1": points[0][1], "hands": len(points),
            "blocked_hands": blocked, "capicu_hands": capicu, "dry": dry,
            "hand_points": points, "faults_0": 0, "faults_1": 0,
            "time_p50_ms_0": medians[0], "time_p50_ms_1": medians[1],
            "time_max_ms_0": medians[0], "time_max_ms_1": medians[1],
            "time_hist_0": time_histogram([medians[0]] * 3),
            "time_hist_1": time_histogram([medians[1]] * 3)})
    return out


def write_run(path: Path, games: list = GAMES, config: TourneyConfig = CONFIG,
              output_format: str = "parquet", purpose: str = "tourney") -> Path:
    """A tourney folder holding `games` (a finished run when they are config.games); with
    output_format "parts", as a running run holds them: part files of 4 games, no games file;
    `purpose` as the manifest's (a calibration's entrants are a ladder)."""
    path.mkdir(parents=True)
    rules = config.rules()
    schema = games_schema(rules)
    game_rows = rows(games)
    table = pa.Table.from_pylist(game_rows, schema=schema)
    if output_format == "parts":
        (path / PARTS).mkdir()
        for first in range(0, len(games), 4):
            batch = game_rows[first:first + 4]
            write_part(path, pa.Table.from_pylist(batch, schema=schema), [])
    elif output_format == "csv":
        pacsv.write_csv(csv_table(table), path / "games.csv")
    else:
        pq.write_table(table, path / "games.parquet")
    manifest = {"purpose": purpose, "variant": rules.name, "players": rules.players,
                "seed": config.seed,
                "games": config.games, "config": config.to_dict(),
                "partial": len(games) < config.games}
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return path
