"""insane's learned play model (issues 39 and 51): a conditional logit over the legal moves of a
decision, per variant and seat role, shipped in the package for insane to weight its deals by:
`play_model.json` (issue 39: 12 features, `insane?preset=model`) and `play_model_history.json`
(issue 51: those and the features of the seats' history, `insane?preset=history`);
domsim.playfit fits a model (with numpy) on decisions logged from domsim's own games
(bench/play_model.py).

The features of a move (`FEATURES`) are computed by the core from the deciding seat's view only
(R-VIEW; `domsim.search.move_features`, core/src/model.rs says what each is); a model file names
the features it was fitted on, and weighs every other one 0. A role (`ROLES`) is how the deciding
seat stands to the seat that models it (`domsim._core.seat_role`). Loading a model needs no numpy
(a bot's process loads no heavy library)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from ._core import PLAY_FEATURES, PLAY_HIDDEN, SEAT_ROLES

FEATURES = tuple(PLAY_FEATURES)
ROLES = tuple(SEAT_ROLES)
FILES = {name: Path(__file__).with_name(f"{name}.json")
         for name in ("play_model", "play_model_history")}
FILE = FILES["play_model"]


@functools.cache
def shipped(name: str = "play_model") -> dict:
    return json.loads(FILES[name].read_text())


def model_weights(variant: str, name: str = "play_model", scale: float = 1.0) -> list[float] | None:
    """A shipped model's parameters for a variant as the core's insane_move takes them, role
    after role: the linear weights in `FEATURES` order (0 for a feature the model does not
    name), then `PLAY_HIDDEN` hidden units, each its input weights, bias and output weight (a
    unit the model lacks has output weight 0); the score (the linear and output weights) times
    `scale`. None where the model has no such variant."""
    model = shipped(name)
    entry = model["variants"].get(variant)
    if entry is None:
        return None
    out = []
    for role in ROLES:
        out += [w * scale for w in by_feature(model["features"], entry["weights"][role])]
        units = entry.get("hidden", {}).get(role, [])
        for unit in units + [None] * (PLAY_HIDDEN - len(units)):
            if unit is None:
                out += [0.0] * (len(FEATURES) + 2)
            else:
                out += by_feature(model["features"], unit["input"])
                out += [unit["bias"], unit["out"] * scale]
    return out


def by_feature(names: list[str], weights: list[float]) -> list[float]:
    """Weights given for the features `names`, in `FEATURES` order, 0 for the others."""
    weight = dict(zip(names, weights, strict=True))
    return [weight.get(feature, 0.0) for feature in FEATURES]
