"""insane's learned play model (issue 39): a conditional logit over the legal moves of a decision,
per variant and seat role, shipped in the package (`play_model.json`) for `insane?preset=model` to
weight its deals by; domsim.playfit fits it (with numpy) on decisions logged from domsim's own
games (bench/play_model.py).

The features of a move (`FEATURES`) are computed by the core from the deciding seat's view only
(R-VIEW; `domsim.search.move_features`, core/src/model.rs says what each is); a role (`ROLES`) is
how the deciding seat stands to the seat that models it (`domsim._core.seat_role`). Loading the
model needs no numpy (a bot's process loads no heavy library)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from ._core import PLAY_FEATURES, SEAT_ROLES

FEATURES = tuple(PLAY_FEATURES)
ROLES = tuple(SEAT_ROLES)
FILE = Path(__file__).with_name("play_model.json")


@functools.cache
def shipped() -> dict:
    return json.loads(FILE.read_text())


def model_weights(variant: str) -> list[float] | None:
    """The shipped model's weights for a variant, role after role (as the core's insane_move
    takes them), or None where it has none."""
    entry = shipped()["variants"].get(variant)
    if entry is None:
        return None
    return [w for role in ROLES for w in entry["weights"][role]]
