"""The joint ratings' fit on a sparse design gives what the dense fit it replaced gave: the dense
one (a design column per parameter, the Hessian as a product over all of them and solved by
pseudo-inverse) is kept here as the reference, and both rate the same outcomes with the same seed
(two and more sides, sweeps, draws, shared wins, entrants filling seats in turn, one deal)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from domsim.plan.pairings import make_pairings
from domsim.stats import (
    ELO_PER_NATURAL,
    GameTypes,
    RatingIntervals,
    Ratings,
    bootstrap_ratings,
    deal_weights,
    fit_ratings,
    fit_score_line,
    sweep_shares,
    sweeps,
)

#: How far apart the two may rate (Elo): rounding apart, they solve the same equations.
ELO_TOLERANCE = 1e-6


# -- the dense reference --------------------------------------------------------------------------
def dense_types(side_entrants: np.ndarray, shares: np.ndarray, entrants: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(design[t, j, p] = d u_j / d param p, targets, index) of the games' distinct types."""
    sides = side_entrants.shape[1]
    keys = np.concatenate([side_entrants, np.round(shares * 1e9)], axis=1)
    unique, index = np.unique(keys, axis=0, return_inverse=True)
    design = np.zeros((len(unique), sides, entrants + sides - 1))
    types, side_index = np.indices((len(unique), sides))
    np.add.at(design, (types, side_index, unique[:, :sides].astype(np.int64)), 1.0)
    for j in range(1, sides):
        design[:, j, entrants + j - 1] = 1.0
    return design, unique[:, sides:] / 1e9, index.ravel()


def dense_log_p(design: np.ndarray, params: np.ndarray) -> np.ndarray:
    types, sides, size = design.shape
    logits = (params @ design.reshape(types * sides, size).T).reshape(len(params), types, sides)
    top = logits.max(axis=2, keepdims=True)
    return logits - top - np.log(np.exp(logits - top).sum(axis=2, keepdims=True))


def dense_log_likelihood(design, targets, counts, params, prior):
    prior_term = prior * np.sum(-np.logaddexp(0, -params) / 2 - np.logaddexp(0, params) / 2,
                                axis=1)
    return (np.sum(counts[:, :, None] * targets * dense_log_p(design, params), axis=(1, 2))
            + prior_term)


def dense_step(design, targets, counts, params, prior):
    """The Newton step by pseudo-inverse of the Hessian, built from the dense design."""
    fits, (types, sides, size) = len(params), design.shape
    flat = design.reshape(types * sides, size)
    p = np.exp(dense_log_p(design, params))
    weighted = counts[:, :, None] * targets
    weight_sum = weighted.sum(axis=2, keepdims=True)
    gradient = (weighted - weight_sum * p).reshape(fits, -1) @ flat
    mixed = np.matmul(p[:, :, None, :], design)[:, :, 0, :]
    outer = (flat[:, :, None] * flat[:, None, :]).reshape(types * sides, size * size)
    hessian = -((weight_sum * p).reshape(fits, -1) @ outer).reshape(fits, size, size)
    hessian += np.matmul((mixed * weight_sum).transpose(0, 2, 1), mixed)
    sigmoid = 1 / (1 + np.exp(-params))
    gradient += prior * (0.5 - sigmoid)
    hessian -= (prior * sigmoid * (1 - sigmoid))[:, :, None] * np.eye(size)
    cutoff = size * np.finfo(float).eps
    return np.einsum("fpq,fq->fp", np.linalg.pinv(-hessian, rcond=cutoff), gradient)


def dense_maximize(design, targets, counts, prior, start=None):
    """Newton's method with step halving, every fit until its step is below 1e-9."""
    counts = np.atleast_2d(counts)
    params = np.zeros((len(counts), design.shape[2])) + (0 if start is None else start)
    current = dense_log_likelihood(design, targets, counts, params, prior)
    running = np.arange(len(counts))
    for _ in range(100):
        step = dense_step(design, targets, counts[running], params[running], prior)
        scale, trial = dense_halved(design, targets, counts[running], params[running], step,
                                    current[running], prior)
        moved = scale[:, None] * step
        params[running] += moved
        current[running] = trial
        running = running[np.max(np.abs(moved), axis=1, initial=0.0) >= 1e-9]
        if not len(running):
            break
    return params


def dense_halved(design, targets, counts, params, step, current, prior):
    """Each fit's step scale, halved from 1 until the likelihood does not fall (or the scale is
    below 1e-4), and the likelihood there."""
    scale, trial = np.ones(len(params)), np.empty(len(params))
    halving = np.arange(len(params))
    while len(halving):
        tried = dense_log_likelihood(design, targets, counts[halving],
                                     params[halving] + scale[halving, None] * step[halving],
                                     prior)
        trial[halving] = tried
        falls = (tried < current[halving] - 1e-12) & (scale[halving] >= 1e-4)
        halving = halving[falls]
        scale[halving] /= 2
    return scale, trial


def dense_ratings(params: np.ndarray, entrants: int, centre) -> Ratings:
    elo = params[:entrants] * ELO_PER_NATURAL
    return Ratings(elo - elo[list(centre)].mean(),
                   np.concatenate([[0.0], params[entrants:] * ELO_PER_NATURAL]))


def dense_bootstrap(deal_ids, side_entrants, shares, entrants, samples, seed, prior=1.0,
                    centre=(0,)) -> dict:
    """The ratings, intervals and each sample's ratings as the dense bootstrap gave them."""
    swept = sweeps(deal_ids, side_entrants, shares, entrants)
    centre = tuple(c for c in centre if c not in swept) or tuple(centre)
    design, targets, index = dense_types(side_entrants, shares, entrants)

    def counts(weights):
        return np.bincount(index, weights=weights, minlength=len(targets))

    best = dense_maximize(design, targets, counts(None), prior)[0]
    point = dense_ratings(best, entrants, centre)
    rng = np.random.default_rng(seed)
    deals, deal_index = np.unique(deal_ids, return_inverse=True)
    drawn = np.array([counts(deal_weights(deal_index.ravel(), len(deals), rng))
                      for _ in range(samples)]).reshape(samples, len(targets))
    fits = [dense_ratings(params, entrants, centre)
            for params in dense_maximize(design, targets, drawn, prior, best)]
    elo = np.array([fit.elo for fit in fits]).reshape(samples, entrants)
    side = np.array([fit.side_elo for fit in fits]).reshape(samples, len(point.side_elo))
    gaps = (elo[:, :, None] - elo[:, None, :]).reshape(samples, entrants * entrants)
    out = {"elo": point.elo.copy(), "side_elo": point.side_elo, "samples": elo}
    for name, values, at in (("", elo, point.elo), ("side_", side, point.side_elo),
                             ("difference_", gaps, (point.elo[:, None] - point.elo).ravel())):
        low, high = (np.percentile(values, [2.5, 97.5], axis=0) if samples
                     else (at.copy(), at.copy()))
        out[name + "low"], out[name + "high"] = np.minimum(low, at), np.maximum(high, at)
    for e, (bound, units) in swept.items():
        shrunk = sweep_shares(side_entrants, shares, e, bound, units)
        design_e, targets_e, index_e = dense_types(side_entrants, shrunk, entrants)
        counts_e = np.bincount(index_e, minlength=len(targets_e))
        limit = dense_ratings(dense_maximize(design_e, targets_e, counts_e, prior)[0], entrants,
                              centre).elo[e]
        out["low"][e], out["high"][e] = (limit, np.nan) if bound == "lower" else (np.nan, limit)
        out["elo"][e] = math.inf if bound == "lower" else -math.inf
    out["bounds"] = [swept.get(e, (None,))[0] for e in range(entrants)]
    if len(centre) == 1:
        out["low"][centre[0]] = out["high"][centre[0]] = np.nan
        out["bounds"][centre[0]] = "anchor"
    for e in range(entrants):
        if out["bounds"][e] is None and out["low"][e] == out["high"][e]:
            out["low"][e] = out["high"][e] = np.nan
            out["bounds"][e] = "unmeasured"
    return out


# -- outcomes to rate ---------------------------------------------------------------------------
def outcomes(entrants: int, sides: int = 2, form: str = "round-robin", deals: int = 3,
             seed: int = 0, draws: float = 0.1, sweep: tuple[int, ...] = (),
             lose: tuple[int, ...] = ()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(deal ids, side entrants, shares) of `deals` deals of every pairing in every seating:
    strengths, a side advantage and the deal's luck drawn from the seed; a fraction `draws` of
    the games without a winner (equal shares), with 3 or more sides as many won by two sides
    together; the entrants of `lose` lose every game, those of `sweep` win every one."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 0.8, entrants)
    pairings = np.array(make_pairings(entrants, sides, form))
    deal_ids, on_sides, shares = [], [], []
    for deal, luck in enumerate(rng.normal(0, 0.5, (deals, sides))):
        for seating in range(sides):
            seated = np.roll(pairings, seating, axis=1)
            logits = strength[seated] + np.linspace(0, -0.3, sides) + luck
            p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
            share = np.eye(sides)[(p.cumsum(axis=1) < rng.random((len(p), 1))).sum(axis=1)]
            share[rng.random(len(p)) < draws] = 1 / sides
            if sides > 2:
                pair = rng.random(len(p)) < draws
                share[pair] = np.r_[0.5, 0.5, np.zeros(sides - 2)][rng.permutation(sides)]
            for e, won in [(e, 0.0) for e in lose] + [(e, 1.0) for e in sweep]:
                on = seated == e
                mine = on / np.maximum(on.sum(axis=1, keepdims=True), 1)
                theirs = ~on / np.maximum((~on).sum(axis=1, keepdims=True), 1)
                rows = on.any(axis=1) & ~on.all(axis=1)
                share[rows] = (won * mine + (1 - won) * theirs)[rows]
            deal_ids.append(np.full(len(p), deal))
            on_sides.append(seated)
            shares.append(share)
    return np.concatenate(deal_ids), np.concatenate(on_sides), np.concatenate(shares)


DATASETS = {
    "round-robin": dict(entrants=6),
    "gauntlet, two deals": dict(entrants=12, form="gauntlet", deals=2),
    "sweeps won and lost": dict(entrants=8, sweep=(2,), lose=(5,)),
    "mostly draws": dict(entrants=5, draws=0.7, seed=3),
    "three sides": dict(entrants=6, sides=3, seed=1),
    "four sides, a sweep": dict(entrants=6, sides=4, form="gauntlet", seed=2, sweep=(3,)),
    "teams filling four seats": dict(entrants=2, sides=4, deals=8),
    "three entrants in four seats": dict(entrants=3, sides=4, deals=6, seed=5),
    "one deal": dict(entrants=4, deals=1, seed=4),
}


def assert_elo_equal(new: np.ndarray, old: np.ndarray) -> None:
    """Equal within ELO_TOLERANCE, infinities and nan (an open end) in the same places."""
    new, old = np.asarray(new, dtype=float), np.asarray(old, dtype=float)
    assert np.array_equal(np.isnan(new), np.isnan(old))
    assert np.array_equal(np.isinf(new), np.isinf(old))
    assert np.array_equal(new[np.isinf(new)], old[np.isinf(old)])
    finite = np.isfinite(old)
    assert np.max(np.abs(new[finite] - old[finite]), initial=0.0) < ELO_TOLERANCE


@pytest.mark.parametrize("centre", ["anchor", "all"])
@pytest.mark.parametrize("name", list(DATASETS))
def test_the_sparse_fit_rates_as_the_dense_one(name, centre):
    data = outcomes(**DATASETS[name])
    entrants = int(data[1].max()) + 1
    centre = (0,) if centre == "anchor" else tuple(range(entrants))
    new = bootstrap_ratings(*data, entrants, samples=120, seed=7, centre=centre)
    old = dense_bootstrap(*data, entrants, samples=120, seed=7, centre=centre)
    assert_elo_equal(new.ratings.elo, old["elo"])
    assert_elo_equal(new.ratings.side_elo, old["side_elo"])
    ends = {end: (getattr(new, end).copy(), np.reshape(old[end], getattr(new, end).shape))
            for end in ("low", "high", "side_low", "side_high", "difference_low",
                        "difference_high")}
    for e in rounding_unmeasured(new, old):
        for end in ("low", "high"):
            ends[end][0][e] = ends[end][1][e] = np.nan
    for ours, theirs in ends.values():
        assert_elo_equal(ours, theirs)
    # p_better: the same but where rounding decides a tie (both rated alike in a sample).
    gaps = old["samples"][:, :, None] - old["samples"][:, None, :]
    above = (gaps >= ELO_TOLERANCE).mean(axis=0)
    tied = (np.abs(gaps) < ELO_TOLERANCE).mean(axis=0)
    assert np.all((above - 1e-12 <= new.p_better) & (new.p_better <= above + tied + 1e-12))
    assert new.p_better + new.p_better.T == pytest.approx(np.ones((entrants, entrants)))


@pytest.mark.parametrize("name", ["sweeps won and lost", "four sides, a sweep", "one deal"])
def test_the_intervals_bounds_are_the_dense_ones(name):
    """Sweeps' one-sided bounds, the anchor and unmeasured entrants as the dense fit finds them
    (and the data make sure there are some)."""
    data = outcomes(**DATASETS[name])
    entrants = int(data[1].max()) + 1
    new = bootstrap_ratings(*data, entrants, samples=50, seed=2)
    old = dense_bootstrap(*data, entrants, samples=50, seed=2)
    assert set(new.bounds) - {None, "anchor"}
    alike = rounding_unmeasured(new, old)
    assert [b for e, b in enumerate(new.bounds) if e not in alike] == [
        b for e, b in enumerate(old["bounds"]) if e not in alike]


def rounding_unmeasured(new: RatingIntervals, old: dict) -> list[int]:
    """The entrants that one fit finds unmeasured and the other not. An entrant is unmeasured
    when its interval's ends are exactly equal, so where every sample rates it as the point
    does (one deal), rounding decides: each must then be within ELO_TOLERANCE wide where it
    is measured, and the dense fit's samples alike."""
    out = [e for e, pair in enumerate(zip(new.bounds, old["bounds"], strict=True))
           if set(pair) == {None, "unmeasured"}]
    for e in out:
        assert np.ptp(old["samples"][:, e]) < ELO_TOLERANCE
        low, high = (new.low, new.high) if new.bounds[e] is None else (old["low"], old["high"])
        assert high[e] - low[e] < ELO_TOLERANCE
    return out


@pytest.mark.parametrize("name", ["round-robin", "three sides", "teams filling four seats"])
def test_a_fit_without_prior_or_with_weights_is_the_dense_one(name):
    """No prior: the Hessian is singular (a shift of every rating changes nothing), the step
    the least-squares one; weights: a bootstrap sample's counts."""
    _, side_entrants, shares = outcomes(**DATASETS[name])
    entrants = int(side_entrants.max()) + 1
    weights = np.random.default_rng(1).integers(0, 3, len(shares)).astype(float)
    design, targets, index = dense_types(side_entrants, shares, entrants)
    for prior, weight in ((0.0, None), (1.0, weights), (0.0, weights)):
        counts = np.bincount(index, weights=weight, minlength=len(targets))
        old = dense_ratings(dense_maximize(design, targets, counts, prior)[0], entrants, (0,))
        new = fit_ratings(side_entrants, shares, entrants, weight, prior)
        assert_elo_equal(new.elo, old.elo)
        assert_elo_equal(new.side_elo, old.side_elo)


def test_fits_side_by_side_in_blocks_are_the_fits_alone(monkeypatch):
    """Fits solved in blocks of working arrays, or one at a time, end alike."""
    _, side_entrants, shares = outcomes(**DATASETS["three sides"])
    games = GameTypes.of(side_entrants, shares, 6)
    rng = np.random.default_rng(0)
    wins = np.array([games.wins(rng.integers(0, 3, len(shares)).astype(float))
                     for _ in range(7)])
    together = games.maximize(wins, 1.0)
    monkeypatch.setattr("domsim.stats.BLOCK_ELEMENTS", 1)
    alone = games.maximize(wins, 1.0)
    assert np.max(np.abs(together - alone)) * ELO_PER_NATURAL < ELO_TOLERANCE


def dense_score_line(x: np.ndarray, scores: np.ndarray, clusters: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray]:
    """(intercept and slope, their clustered covariance) as the dense fit gave them."""
    labels, cluster_index = np.unique(clusters, return_inverse=True)
    unique, index = np.unique(np.stack([x, np.round(scores * 1e9)], axis=1), axis=0,
                              return_inverse=True)
    index = index.ravel()
    design = np.zeros((len(unique), 2, 2))
    design[:, 0, 0], design[:, 0, 1] = 1.0, unique[:, 0]
    share = unique[:, 1] / 1e9
    targets = np.stack([share, 1 - share], axis=1)
    counts = np.bincount(index, minlength=len(unique))[None].astype(float)
    params = dense_maximize(design, targets, counts, 0.0)
    p = np.exp(dense_log_p(design, params))[0]
    mixed = np.einsum("tj,tjp->tp", p, design)
    hessian = (-np.einsum("t,tj,tjp,tjq->pq", counts[0], p, design, design)
               + np.einsum("t,tp,tq->pq", counts[0], mixed, mixed))
    per_game = np.einsum("tj,tjp->tp", targets - p, design)[index]
    per_cluster = np.zeros((len(labels), 2))
    np.add.at(per_cluster, cluster_index.ravel(), per_game)
    meat = per_cluster.T @ per_cluster * len(labels) / (len(labels) - 1)
    bread = np.linalg.inv(-hessian)
    return params[0], bread @ meat @ bread


@pytest.mark.parametrize("seed", range(4))
def test_the_score_line_is_the_dense_fits(seed):
    """The dial's logistic line in strength (two parameters, no prior: the least-squares step)
    and its covariance as the dense fit found them."""
    rng = np.random.default_rng(seed)
    x = np.repeat(np.linspace(0.1, 0.9, 5), 12)
    scores = (rng.random(len(x)) < 1 / (1 + np.exp(1 - 2 * x))).astype(float)
    scores[rng.random(len(x)) < 0.2] = 0.5
    deals = np.arange(len(x)) // 2
    line = fit_score_line(x, scores, deals)
    params, covariance = dense_score_line(x, scores, deals)
    assert abs(line.intercept - params[0]) < 1e-9 and abs(line.slope - params[1]) < 1e-9
    assert np.allclose(line.covariance, covariance, rtol=1e-9, atol=0)


def test_entrants_with_the_same_record_are_tied_whatever_their_numbers():
    """A gauntlet where entrants 1-3 each beat entrant 0 alike on every deal: each is better
    than another in half the samples, numbered in any order (with ties left to the rounding
    of their fits, it moved by up to 0.62)."""
    def outcomes_with(order: list[int]) -> tuple[np.ndarray, ...]:
        deals, seated, won = [], [], []
        for deal in range(6):
            share = 0.75 if deal % 3 else 0.25  # entrant 0 wins one deal in three
            for other in order:
                deals += [deal, deal]
                seated += [[0, other], [other, 0]]
                won += [[1 - share, share], [share, 1 - share]]
        return np.array(deals), np.array(seated), np.array(won)
    for order in ([1, 2, 3], [3, 1, 2], [2, 3, 1]):
        fit = bootstrap_ratings(*outcomes_with(order), 4, samples=200, seed=5)
        assert np.array_equal(fit.p_better[1:, 1:], np.full((3, 3), 0.5)), order
        assert np.all(fit.p_better[1:, 0] > 0.5)
