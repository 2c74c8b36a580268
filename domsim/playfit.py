"""Fitting insane's learned play model (domsim.playmodel, issue 39) with numpy.

A decision log (bench/play_model.py writes one) is an .npz of:

- `features` (rows x features, float) and `decision` (each row's decision) and `chosen` (bool):
  one row per legal move of each decision with more than one legal move that is not a lead;
- `roles` (decisions x seats): how the deciding seat stands to each other seat (-1: itself or no
  such seat), and `specs` (seats) the strategy at each seat;
- `variant`: the rule set's name.

`fit(logs)` fits one weight vector per role on the decisions the `observer` seats saw (all seats
by default) by Newton's method on the penalized log-likelihood: deterministic for a given log. A
role with no decisions takes the weights fitted on every role's together."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from .playmodel import FEATURES, ROLES

#: The L2 penalty on the weights (per unit of each feature), which keeps a feature that never
#: varies in a small log at 0 instead of undefined.
RIDGE = 1.0
NEWTON_STEPS = 50


def read_log(path: str | Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        return {key: data[key] for key in data.files}


def role_decisions(log: dict[str, np.ndarray], role: int,
                   observer: str | None = None) -> np.ndarray:
    """The decisions some observing seat (`observer`'s spec; None: any seat) saw made by a seat
    standing to it in `role`."""
    roles = log["roles"]
    watching = np.ones(roles.shape[1], bool) if observer is None else log["specs"] == observer
    return np.flatnonzero(((roles == role) & watching[None, :]).any(axis=1))


def rows_of(log: dict[str, np.ndarray], decisions: np.ndarray) -> dict[str, np.ndarray]:
    """The log's rows of those decisions, renumbered 0.. in order."""
    keep = np.isin(log["decision"], decisions)
    renumber = np.searchsorted(decisions, log["decision"][keep])
    return {"features": log["features"][keep].astype(float), "decision": renumber,
            "chosen": log["chosen"][keep]}


def log_likelihood(weights: np.ndarray, rows: dict[str, np.ndarray]) -> tuple[float, np.ndarray,
                                                                               np.ndarray]:
    """The conditional logit's log-likelihood of the chosen moves, its gradient and Hessian."""
    x, group, chosen = rows["features"], rows["decision"], rows["chosen"]
    groups = int(group.max()) + 1 if len(group) else 0
    score = x @ weights
    top = np.full(groups, -np.inf)
    np.maximum.at(top, group, score)
    e = np.exp(score - top[group])
    total = np.bincount(group, e, groups)
    p = e / total[group]
    value = score[chosen].sum() - (top + np.log(total)).sum()
    mean = np.zeros((groups, x.shape[1]))
    np.add.at(mean, group, p[:, None] * x)
    gradient = x[chosen].sum(0) - mean.sum(0)
    centred = x - mean[group]
    hessian = -(centred * p[:, None]).T @ centred
    return value, gradient, hessian


def fit_rows(rows: dict[str, np.ndarray]) -> np.ndarray:
    """The weights maximizing the log-likelihood less RIDGE/2 times their squared norm."""
    k = len(FEATURES)
    weights = np.zeros(k)
    for _ in range(NEWTON_STEPS):
        _, gradient, hessian = log_likelihood(weights, rows)
        gradient = gradient - RIDGE * weights
        step = np.linalg.solve(hessian - RIDGE * np.eye(k), -gradient)
        weights = weights + step
        if np.abs(step).max() < 1e-10:
            break
    return weights


def fit(logs: Iterable[dict[str, np.ndarray]], observer: str | None = None) -> dict:
    """Per variant, the weights of each role (rounded to 1e-6) with the decisions they were
    fitted on and their mean log-likelihood a decision (nats)."""
    by_variant: dict[str, list[dict]] = {}
    for log in logs:
        by_variant.setdefault(str(log["variant"]), []).append(log)
    out = {}
    for variant, variant_logs in sorted(by_variant.items()):
        per_role = [merge([rows_of(log, role_decisions(log, r, observer))
                           for log in variant_logs]) for r in range(len(ROLES))]
        pooled = fit_rows(merge(per_role))
        entry = {"weights": {}, "decisions": {}, "nats": {}}
        for name, rows in zip(ROLES, per_role, strict=True):
            n = int(rows["decision"].max()) + 1 if len(rows["decision"]) else 0
            weights = fit_rows(rows) if n else pooled
            entry["weights"][name] = [round(float(w), 6) for w in weights]
            entry["decisions"][name] = n
            nats = float(log_likelihood(weights, rows)[0]) / n if n else None
            entry["nats"][name] = None if nats is None else round(nats, 6)
        out[variant] = entry
    return out


def merge(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Rows of several decision sets as one, the decisions renumbered apart."""
    offset, decisions = 0, []
    for part in parts:
        decisions.append(part["decision"] + offset)
        offset += int(part["decision"].max()) + 1 if len(part["decision"]) else 0
    return {"features": np.concatenate([p["features"] for p in parts]),
            "decision": np.concatenate(decisions).astype(int),
            "chosen": np.concatenate([p["chosen"] for p in parts])}
