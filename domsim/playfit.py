"""Fitting insane's learned play model (domsim.playmodel, issue 39) with numpy.

A decision log (bench/play_model.py writes one) is an .npz of:

- `features` (rows x features, float) and `decision` (each row's decision) and `chosen` (bool):
  one row per legal move of each decision with more than one legal move that is not a lead;
- `roles` (decisions x seats): how the deciding seat stands to each other seat (-1: itself or no
  such seat), and `specs` (seats) the strategy at each seat;
- `variant`: the rule set's name;
- `names`: the features' names, in column order (a log without them has issue 39's 12, the first
  of `FEATURES`).

`fit(logs)` fits one weight vector per role on the decisions the `observer` seats saw (all seats
by default) by Newton's method on the penalized log-likelihood: deterministic for a given log. A
role with no decisions takes the fit on every distinct role's decisions together."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from .playmodel import FEATURES, ROLES

#: The L2 penalty on the weights (per unit of each feature), which keeps a feature that never
#: varies in a small log at 0 instead of undefined.
RIDGE = 1.0
NEWTON_STEPS = 50


#: The features of issue 39's logs, which do not name them.
FIRST_FEATURES = FEATURES[:12]


def read_log(path: str | Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        log = {key: data[key] for key in data.files}
    log.setdefault("names", np.array(FIRST_FEATURES))
    return log


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
    value, p = choice_log_likelihood(x @ weights, rows)
    mean = np.zeros((int(group.max()) + 1 if len(group) else 0, x.shape[1]))
    np.add.at(mean, group, p[:, None] * x)
    gradient = x[chosen].sum(0) - mean.sum(0)
    centred = x - mean[group]
    hessian = -(centred * p[:, None]).T @ centred
    return value, gradient, hessian


def fit_rows(rows: dict[str, np.ndarray]) -> np.ndarray:
    """The weights maximizing the log-likelihood less RIDGE/2 times their squared norm."""
    k = rows["features"].shape[1]
    weights = np.zeros(k)
    for _ in range(NEWTON_STEPS):
        _, gradient, hessian = log_likelihood(weights, rows)
        gradient = gradient - RIDGE * weights
        step = np.linalg.solve(hessian - RIDGE * np.eye(k), -gradient)
        weights = weights + step
        if np.abs(step).max() < 1e-10:
            break
    return weights


def fit(logs: Iterable[dict[str, np.ndarray]], observer: str | None = None,
        hidden: int = 0) -> dict:
    """Per variant, the model of each role with the decisions it was fitted on and its mean
    log-likelihood a decision (nats): the conditional logit's weights (rounded to 1e-6), or
    with `hidden` units a net's (`fit_net`: its linear weights, and its units as `hidden`). Roles
    whose decisions are the same (every seat observing one strategy's self-play) share one fit,
    and a role with no decisions takes the fit on every distinct role's decisions together."""
    by_variant: dict[str, list[dict]] = {}
    for log in logs:
        by_variant.setdefault(str(log["variant"]), []).append(log)
    out = {}
    for variant, variant_logs in sorted(by_variant.items()):
        per_role = [merge([rows_of(log, role_decisions(log, r, observer))
                           for log in variant_logs]) for r in range(len(ROLES))]
        keys, models = fitted(per_role, hidden)
        entry: dict = {"weights": {}, "decisions": {}, "nats": {}}
        if hidden:
            entry["hidden"] = {}
        for name, rows, key in zip(ROLES, per_role, keys, strict=True):
            n = int(rows["decision"].max()) + 1 if len(rows["decision"]) else 0
            model = models[key]
            entry["weights"][name] = [round(float(w), 6) for w in model["weights"]]
            if hidden:
                entry["hidden"][name] = [{key: rounded(value) for key, value in unit.items()}
                                         for unit in model["hidden"]]
            entry["decisions"][name] = n
            nats = float(net_log_likelihood(model, rows)) / n if n else None
            entry["nats"][name] = None if nats is None else round(nats, 6)
        out[variant] = entry
    return out


def fitted(per_role: list[dict[str, np.ndarray]], hidden: int) -> tuple[list[str], dict]:
    """Each role's rows' key (their hash, taken once) and the model fitted on them (`fit_net`
    with `hidden` units, else the logit), once for the same rows; a role with none is keyed to
    every distinct role's rows together."""
    keys = [rows_key(rows) if len(rows["decision"]) else "" for rows in per_role]
    distinct = {key: rows for key, rows in zip(keys, per_role, strict=True) if key}
    if "" in keys:
        together = merge(list(distinct.values()))
        together_key = rows_key(together)
        distinct.setdefault(together_key, together)
        keys = [key or together_key for key in keys]
    return keys, {key: fit_net(rows, hidden) if hidden else {"weights": fit_rows(rows)}
                  for key, rows in distinct.items()}


def rows_key(rows: dict[str, np.ndarray]) -> str:
    return hashlib.sha256(b"".join(np.ascontiguousarray(rows[k]).tobytes()
                                   for k in ("features", "decision", "chosen"))).hexdigest()


def rounded(value: float | np.ndarray) -> float | list[float]:
    return round(float(value), 6) if np.ndim(value) == 0 else [round(float(v), 6) for v in value]


#: The net's fit: full-batch Adam steps on the mean log-likelihood a decision, its rate and the
#: L2 penalty on every parameter (on standardized features), and the seed of its first units.
NET_STEPS = 600
NET_RATE = 0.01
NET_RIDGE = 1e-4
NET_SEED = 0


def net_scores(model: dict, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The moves' scores under a model (`fit_net`'s, or a logit's alone) and its units'
    activations."""
    score = x @ model["weights"]
    if not model.get("hidden"):
        return score, np.zeros((len(x), 0))
    inputs = np.array([u["input"] for u in model["hidden"]]).T
    bias = np.array([u["bias"] for u in model["hidden"]])
    out = np.array([u["out"] for u in model["hidden"]])
    active = np.maximum(x @ inputs + bias, 0)
    return score + active @ out, active


def net_log_likelihood(model: dict, rows: dict[str, np.ndarray]) -> float:
    score, _ = net_scores(model, rows["features"])
    return choice_log_likelihood(score, rows)[0]


def choice_log_likelihood(score: np.ndarray, rows: dict[str, np.ndarray]) -> tuple[float,
                                                                                    np.ndarray]:
    """The log-likelihood of the chosen moves given every move's score, and each move's
    probability."""
    group = rows["decision"]
    groups = int(group.max()) + 1 if len(group) else 0
    top = np.full(groups, -np.inf)
    np.maximum.at(top, group, score)
    e = np.exp(score - top[group])
    total = np.bincount(group, e, groups)
    return float(score[rows["chosen"]].sum() - (top + np.log(total)).sum()), e / total[group]


def fit_net(rows: dict[str, np.ndarray], hidden: int) -> dict:
    """A net scoring each move by linear weights on its features plus `hidden` rectified units
    (core/src/model.rs's `Net`), fitted on standardized features by NET_STEPS of Adam from a
    seeded start (deterministic for a log), returned on the raw features: {"weights": linear
    weights, "hidden": [{"input", "bias", "out"}, ...]}."""
    x = rows["features"]
    mean, spread = x.mean(0), x.std(0)
    spread[spread == 0] = 1.0
    z = (x - mean) / spread
    rng = np.random.default_rng(NET_SEED)
    params = {"weights": np.zeros(x.shape[1]), "input": rng.normal(0, 0.3, (x.shape[1], hidden)),
              "bias": np.zeros(hidden), "out": np.zeros(hidden)}
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    decisions = int(rows["decision"].max()) + 1
    for step in range(1, NET_STEPS + 1):
        active = np.maximum(z @ params["input"] + params["bias"], 0)
        _, p = choice_log_likelihood(z @ params["weights"] + active @ params["out"], rows)
        ds = (rows["chosen"] - p) / decisions
        back = np.outer(ds, params["out"]) * (active > 0)
        ascent = {"weights": z.T @ ds, "out": active.T @ ds, "input": z.T @ back,
                  "bias": back.sum(0)}
        for k, value in params.items():
            g = NET_RIDGE * value - ascent[k]
            m, v = moments[k]
            m[...] = 0.9 * m + 0.1 * g
            v[...] = 0.999 * v + 0.001 * g * g
            value -= NET_RATE * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    inputs = params["input"] / spread[:, None]
    return {"weights": params["weights"] / spread,
            "hidden": [{"input": inputs[:, j], "bias": params["bias"][j] - mean @ inputs[:, j],
                        "out": params["out"][j]} for j in range(hidden)]}


def merge(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Rows of several decision sets as one, the decisions renumbered apart."""
    offset, decisions = 0, []
    for part in parts:
        decisions.append(part["decision"] + offset)
        offset += int(part["decision"].max()) + 1 if len(part["decision"]) else 0
    return {"features": np.concatenate([p["features"] for p in parts]),
            "decision": np.concatenate(decisions).astype(int),
            "chosen": np.concatenate([p["chosen"] for p in parts])}
