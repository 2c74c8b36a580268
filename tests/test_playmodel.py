"""insane's learned play model (issue 39): the fit, the shipped model and the search that reads
the other seats' plays through it (R-VIEW)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from domsim.strategies.insane import Insane
from positions import hand, position, tile

from domsim import playfit, playmodel
from domsim._core import PLAY_HIDDEN
from domsim.game import play_game
from domsim.playmodel import FEATURES
from domsim.rules import VARIANTS, make_rules
from domsim.search import model_likelihood, move_features
from domsim.view import ViewBuilder

DATA = Path(__file__).parent / "data"


def test_refitting_the_small_log_reproduces_its_model():
    """The fit is deterministic: tests/data/play_model_small.npz (6 games of insane and hard in
    partnership) refits to the weights recorded beside it, the partner role on insane's
    decisions and the opponents' on hard's."""
    expected = json.loads((DATA / "play_model_small.json").read_text())["fit"]
    fitted = playfit.fit([playfit.read_log(DATA / "play_model_small.npz")], "insane")
    assert fitted == expected
    roles = fitted["partnership"]["decisions"]
    assert roles["partner"] > 100 and roles["next"] > 100 and roles["opponent"] == 0


def test_the_fit_hashes_each_roles_rows_once(monkeypatch):
    """A role's rows are hashed once to find the roles that share a fit, and the rows of every
    role together once for the roles with no decisions (the small log's opponents)."""
    hashed = []
    rows_key = playfit.rows_key
    monkeypatch.setattr(playfit, "rows_key", lambda rows: hashed.append(id(rows)) or rows_key(rows))
    fitted = playfit.fit([playfit.read_log(DATA / "play_model_small.npz")], "insane")
    empty = sum(n == 0 for n in fitted["partnership"]["decisions"].values())
    assert empty and len(hashed) == len(set(hashed)) == len(playmodel.ROLES) - empty + 1


def test_the_fit_recovers_the_weights_choices_were_drawn_from():
    """Decisions simulated from a known conditional logit: the fitted weights come back within
    sampling error (the ridge pulls them in a little)."""
    rng = np.random.default_rng(3)
    k = len(playmodel.FEATURES)
    truth = rng.normal(0, 0.5, k)
    features, decision, chosen = [], [], []
    for d in range(4000):
        x = rng.integers(0, 4, (3, k)).astype(float)
        p = np.exp(x @ truth)
        pick = rng.choice(3, p=p / p.sum())
        features.append(x)
        decision += [d] * 3
        chosen += [i == pick for i in range(3)]
    rows = {"features": np.concatenate(features), "decision": np.array(decision),
            "chosen": np.array(chosen)}
    assert np.abs(playfit.fit_rows(rows) - truth).max() < 0.15


def test_a_net_learns_an_interaction_the_logit_cannot():
    """Decisions simulated from a score in which a move is liked when exactly one of two
    features is set (an exclusive or, which no weighting of them expresses): on decisions it
    was not fitted on, a net with hidden units predicts the choices better than the logit by
    more than a tenth of a nat a decision, and its fit is deterministic."""
    rng = np.random.default_rng(5)

    def simulated(count: int) -> dict[str, np.ndarray]:
        x = rng.integers(0, 2, (count, 3, 2)).astype(float)
        score = 2.0 * (x[..., 0] != x[..., 1])
        p = np.exp(score) / np.exp(score).sum(1, keepdims=True)
        picks = [rng.choice(3, p=row) for row in p]
        return {"features": x.reshape(-1, 2), "decision": np.repeat(np.arange(count), 3),
                "chosen": np.array([i == pick for pick in picks for i in range(3)])}

    train, test = simulated(3000), simulated(1000)
    net = playfit.fit_net(train, 4)
    assert json.dumps(net, default=list) == json.dumps(playfit.fit_net(train, 4), default=list)
    logit = {"weights": playfit.fit_rows(train)}
    gain = (playfit.net_log_likelihood(net, test) - playfit.net_log_likelihood(logit, test)) / 1000
    assert gain > 0.1


NET_SIZE = len(playmodel.FEATURES) + PLAY_HIDDEN * (len(playmodel.FEATURES) + 2)


def test_the_shipped_models_cover_their_variants_and_roles():
    """issue 39's model covers every variant on its 12 features (the first of the core's);
    issue 51's, on all of them with hidden units, partnership and kozel."""
    assert playmodel.shipped()["features"] == list(playmodel.FEATURES[:12])
    assert playmodel.shipped("play_model_history")["features"] == list(playmodel.FEATURES)
    for name, variants in (("play_model", VARIANTS), ("play_model_history",
                                                       ("partnership", "kozel"))):
        for variant in variants:
            weights = playmodel.model_weights(variant, name)
            assert weights is not None and len(weights) == len(playmodel.ROLES) * NET_SIZE
    first = playmodel.model_weights("kozel")[:NET_SIZE]
    assert first[12:] == [0.0] * (NET_SIZE - 12)
    assert any(playmodel.model_weights("kozel", "play_model_history")[len(FEATURES):NET_SIZE])


def test_the_core_scores_a_net_as_the_fit_does():
    """Block: seat 1 lays 1-6 on ends 6|6 holding 2-6 too (four moves). Its probability under a
    random net with hidden units, as numpy scores the features it saw (domsim.playfit), is the
    likelihood seat 0's view gives that deal when the net is the whole mixture."""
    state = position("block", ["6-6 5-6 4-6 3-6 2-5 1-4 0-3", "1-6 2-6 0-0 0-1 0-2 1-1 1-2"],
                     moves="0:6-6")
    legal = state.legal_moves()
    rows = np.array(move_features(ViewBuilder().view(state, legal)))
    rng = np.random.default_rng(1)
    k = len(FEATURES)
    net = {"weights": rng.normal(0, 0.3, k),
           "hidden": [{"input": rng.normal(0, 0.3, k), "bias": rng.normal(), "out": rng.normal()}
                      for _ in range(PLAY_HIDDEN)]}
    score, active = playfit.net_scores(net, rows)
    assert (active > 0).any() and (active == 0).any()
    chosen = next(i for i, m in enumerate(legal) if m >> 2 == tile("1-6"))
    expected = math.exp(score[chosen]) / np.exp(score).sum()
    state.play(legal[chosen])
    flat = list(net["weights"]) + [w for u in net["hidden"]
                                   for w in [*u["input"], u["bias"], u["out"]]]
    hands = [hand("6-6 5-6 4-6 3-6 2-5 1-4 0-3") & ~hand("6-6"), hand("2-6 0-0 0-1 0-2 1-1 1-2")]
    view = ViewBuilder().view(state, state.legal_moves())
    got = model_likelihood(view, hands, flat * len(playmodel.ROLES), prior=(1.0, 0.0, 0.0))
    assert math.isclose(got, expected, rel_tol=1e-9)


def test_model_preset_plays_legal_deterministic_games_of_its_own():
    """`insane?preset=model` replays for a seed (R-RNG) and is not lean: it reads the plays."""
    rules = make_rules("partnership")
    games = [play_game(rules, [spec, "hard"] * 2, 4, move_time_limit=None)["hands"]
             for spec in ("insane?preset=model", "insane?preset=model", "insane?preset=lean")]
    assert games[0] == games[1] != games[2]


def test_history_preset_reads_through_issue_51s_model_where_it_has_one():
    """`insane?preset=history` replays for a seed (R-RNG); in partnership, where issue 51's
    model covers it, it plays otherwise than `model`; in block, which that model does not cover,
    it reads through issue 39's model and plays `model`'s game move for move."""
    for variant, same in (("partnership", False), ("block", True)):
        rules = make_rules(variant)
        games = [play_game(rules, [spec, "hard"] * (rules.players // 2), 4,
                           move_time_limit=None)["hands"]
                 for spec in ("insane?preset=history", "insane?preset=history",
                              "insane?preset=model")]
        assert games[0] == games[1] and (games[0] == games[2]) == same, variant


def test_resampling_deals_by_weight_is_its_own_search():
    """`resample=1` is each deal searched as drawn (the presets' own); resampling 4 deals for
    each searched plays another game, and replays it for a seed (R-RNG)."""
    rules = make_rules("kozel")
    games = [play_game(rules, [spec, "hard"] * 2, 6, move_time_limit=None)["hands"]
             for spec in ("insane?preset=history", "insane?preset=history&resample=1",
                          "insane?preset=history&resample=4",
                          "insane?preset=history&resample=4")]
    assert games[0] == games[1] != games[2] == games[3]


def test_history_draws_the_other_seats_first_playout_move_from_the_model():
    """In partnership `insane?preset=history` draws the other seats' first move of each playout
    from the learned model (`model_moves=1`): with the fixed policy for every seat (0) it plays
    another game, and so with two moves drawn, which replays for a seed (R-RNG); without the
    model, drawing changes nothing."""
    rules = make_rules("partnership")
    games = [play_game(rules, [spec, "hard"] * 2, 6, move_time_limit=None)["hands"]
             for spec in ("insane?preset=history", "insane?preset=history&model_moves=1",
                          "insane?preset=history&model_moves=0",
                          "insane?preset=history&model_moves=2",
                          "insane?preset=history&model_moves=2",
                          "insane?preset=lean", "insane?preset=lean&model_moves=2")]
    assert games[0] == games[1] != games[2]
    assert games[3] == games[4] != games[0]
    assert games[5] == games[6]


def _view_after(hidden: str):
    """Block: seat 0 led 6-6, seat 1 laid 6-1; seat 0's view (seat 1's other tiles hidden)."""
    state = position("block", ["6-6 5-6 4-6 3-6 2-5 1-4 0-3", f"1-6 {hidden}"], moves="0:6-6")
    state.play(next(m for m in state.legal_moves() if m >> 2 == tile("1-6")))
    return ViewBuilder().view(state, state.legal_moves())


def test_the_model_sees_only_the_view_r_view():
    """R-VIEW: deals that differ only in seat 1's unplayed tiles give seat 0 the same features
    and the same likelihood of any deal it imagines."""
    weights = playmodel.model_weights("block")
    views = [_view_after(h) for h in ("0-0 0-1 0-2 1-1 1-2 2-2", "0-4 0-5 1-3 1-5 2-3 2-4")]
    assert move_features(views[0]) == move_features(views[1])
    imagined = [views[0].hand_mask, hand("1-6 2-6 0-0 0-1 0-2 1-1 1-2")]
    assert len({model_likelihood(v, imagined, weights) for v in views}) == 1


def test_each_seat_is_read_by_a_mixture_of_the_models():
    """On a deal where seat 1 held 1-6 and 2-6 on ends 6|6 (four moves), its play of 1-6 has
    probability 1/4 under the uniform model; under the learned one another, and a deal's weight
    under a mixture is the prior-weighted sum of the two: a seat the learned model predicts
    badly keeps the weight the uniform model gives it."""
    view = _view_after("0-0 0-1 0-2 1-1 1-2 2-2")
    weights = playmodel.model_weights("block")
    hands = [view.hand_mask, hand("1-6 2-6 0-0 0-1 0-2 1-1 1-2")]
    pure = model_likelihood(view, hands, weights, prior=(1.0, 0.0, 0.0))
    uniform = model_likelihood(view, hands, weights, prior=(0.0, 0.0, 1.0))
    mixed = model_likelihood(view, hands, weights, prior=(0.5, 0.0, 0.5))
    assert uniform == 0.25 and pure != uniform
    assert math.isclose(mixed, (pure + uniform) / 2)


def test_insane_model_parameter_off_is_lean():
    """`insane?preset=model&model=0` is lean move for move (the model is the only change)."""
    rules = make_rules("kozel")
    games = [play_game(rules, [spec, "hard"] * 2, 2, move_time_limit=None)["hands"]
             for spec in ("insane?preset=model&model=0", "insane?preset=lean")]
    assert games[0] == games[1]


def test_insane_model_share_must_be_a_share():
    with pytest.raises(ValueError, match="model_share"):
        Insane(preset="model", model_share=1.5)
