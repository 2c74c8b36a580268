"""The Rust core replaced the pure-Python engine (domsim 0.1.0) without changing a game: records
that engine wrote (tests/data/pre_core_records.jsonl: one game of every variant and player count,
easy, medium and hard seated in turn) still replay and verify, and the same seeds and seats play
them again move for move (R-RNG: the deals of a seed are the same; R-DEAL, R-LEAD and every
scoring rule give the same results)."""

import json
from pathlib import Path

import pytest

from domsim.game import play_game
from domsim.record import rules_of, verify

RECORDS = [json.loads(line) for line in
           (Path(__file__).parent / "data" / "pre_core_records.jsonl").read_text().splitlines()]


def test_the_fixture_covers_every_variant_and_player_count():
    from domsim.rules import VARIANTS
    configs = {(r["variant"], r["players"]) for r in RECORDS}
    assert configs == {(n, p) for n, v in VARIANTS.items() for p in v.player_counts}


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"{r['variant']}-{r['players']}p")
def test_a_pre_core_record_replays_and_is_played_again_the_same(record):
    recomputed, problems = verify(record, 0)
    assert problems == [] and recomputed is not None
    again = play_game(rules_of(record, "record"), record["seats"], record["seed"],
                      move_time_limit=None)
    again.pop("timing")
    assert {k: again[k] for k in record} == record
