"""insane's learned play model (domsim/playmodel.py, issues 39 and 51): log decisions from
domsim's own games, and fit the models shipped in the package from such logs.

    python bench/play_model.py log partnership --seat insane --games 200 --out p.npz
                               [--seat hard ...] [--first 0] [--players N] [--workers 1]
    python bench/play_model.py log --records games.jsonl --out p.npz [--workers 1]
    python bench/play_model.py fit p.npz [more.npz ...] [--observer insane] [--hidden 8]
                               [--out FILE]
    python bench/play_model.py score p.npz [--observer insane] [--hidden 8]

`log` plays games (seeds from 20261205, never bench/strength.py's) with the seats' specs in turn
(one --seat for every seat, or as many as seats), or reads finished games (--records: one game
record a line), and writes every decision with more than one legal move that is not a lead:
each legal move's features from the deciding seat's view (domsim.search.move_features, with
their names), the move chosen and how the deciding seat stands to each other seat. `fit` fits
the model per variant and role (domsim.playfit.fit: the conditional logit, or with --hidden a
net of that many hidden units) and writes the model file (default: the package's
domsim/play_model.json), keeping the variants it does not refit. `score` fits on the first 70%
of a log's decisions of each role and prints, on the other 30%, the mean log-likelihood a
decision (nats) and how often the model's likeliest move was the one chosen, for the uniform
model, the heavy-tile one (beta 0.4, insane's), the logit on issue 39's 12 features, the logit
on all the log's and, with --hidden, the net."""

from __future__ import annotations

import argparse
import json
import multiprocessing
from pathlib import Path

import numpy as np

from domsim import playfit, playmodel
from domsim._core import seat_role
from domsim.engine.state import Action
from domsim.game import play_game
from domsim.record import replay_steps, rules_of
from domsim.rules import make_rules
from domsim.search import move_features
from domsim.seeding import game_seed
from domsim.view import ViewBuilder

SEED = 20261205


def game_decisions(job: tuple[str, int, list[str], int]) -> list[tuple[int, list, int]]:
    """One game's decisions, the game played from the log's seeds."""
    variant, players, specs, index = job
    rules = make_rules(variant, players)
    return record_decisions(play_game(rules, specs, game_seed(SEED, index), move_time_limit=None))


def record_decisions(record: dict) -> list[tuple[int, list, int]]:
    """A game record's decisions: (deciding seat, the legal moves' features, the chosen move's
    index)."""
    out, pending = [], None
    for kind, _, _, state, _ in replay_steps(record, 0):
        if kind == "action" and pending is not None:
            seat, legal, features = pending
            last = Action.of(state.history[-1])
            if last.kind == 0:  # a play
                out.append((seat, features, legal.index(last.move)))
        pending = None
        if kind in ("hand", "action") and not state.hand_over:
            legal = state.legal_moves()
            if len(legal) > 1:
                features = move_features(ViewBuilder().view(state, legal))
                if features is not None:
                    pending = state.to_move, legal, features
    return out


def log(args) -> None:
    if args.records:
        records = [json.loads(line) for line in Path(args.records).read_text().splitlines()]
        rules = rules_of(records[0], args.records)
        specs = records[0]["seats"]
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            games = pool.map(record_decisions, records, chunksize=2)
    else:
        rules = make_rules(args.variant, args.players)
        specs = [args.seat[s % len(args.seat)] for s in range(rules.players)]
        jobs = [(args.variant, rules.players, specs, i)
                for i in range(args.first, args.first + args.games)]
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            games = pool.map(game_decisions, jobs, chunksize=2)
    features, decision, chosen, roles = [], [], [], []
    for game in games:
        for seat, rows, pick in game:
            d = len(roles)
            features += rows
            decision += [d] * len(rows)
            chosen += [i == pick for i in range(len(rows))]
            roles.append([seat_role(rules, o, seat) if o != seat else -1
                          for o in range(rules.players)])
    np.savez_compressed(args.out, features=np.array(features, np.float32),
                        decision=np.array(decision, np.int32), chosen=np.array(chosen),
                        roles=np.array(roles, np.int8), specs=np.array(specs),
                        variant=np.array(rules.variant.name), names=np.array(playmodel.FEATURES))
    print(f"{args.out}: {len(roles)} decisions, {len(decision)} moves, {len(games)} games")


def fit(args) -> None:
    logs = [playfit.read_log(path) for path in args.logs]
    names = [str(n) for n in logs[0]["names"]]
    if any([str(n) for n in log["names"]] != names for log in logs):
        raise SystemExit("the logs hold different features: fit them apart")
    fitted = playfit.fit(logs, args.observer, args.hidden)
    out = args.out or playmodel.FILE
    try:
        model = json.loads(Path(out).read_text())
    except FileNotFoundError:
        model = {"features": names, "roles": list(playmodel.ROLES), "variants": {}}
    if model["features"] != names:
        raise SystemExit(f"{out} holds a model of other features: write another file")
    model["variants"].update(fitted)
    Path(out).write_text(json.dumps(model, indent=1, sort_keys=True) + "\n")
    for variant, entry in fitted.items():
        for role in playmodel.ROLES:
            weights = " ".join(f"{w:+.2f}" for w in entry["weights"][role])
            print(f"{variant:<16} {role:<9} {entry['decisions'][role]:>6} "
                  f"{entry['nats'][role]}  {weights}")


def score(args) -> None:
    log = playfit.read_log(args.log)
    names = [str(n) for n in log["names"]]
    pips = np.zeros(len(names))
    pips[names.index("pips")] = 0.4
    first = [names.index(n) for n in playfit.FIRST_FEATURES]
    scored: dict[bytes, str] = {}
    for r, role in enumerate(playmodel.ROLES):
        decisions = playfit.role_decisions(log, r, args.observer)
        if not len(decisions):
            continue
        if decisions.tobytes() in scored:
            print(f"{log['variant']} {role:<9} the decisions of {scored[decisions.tobytes()]}")
            continue
        scored[decisions.tobytes()] = role
        cut = int(len(decisions) * 0.7)
        train, test = (playfit.rows_of(log, d) for d in (decisions[:cut], decisions[cut:]))
        n = len(decisions) - cut
        models = {"uniform": {"weights": pips * 0}, "heavy": {"weights": pips},
                  "logit-12": {"weights": np.zeros(len(names))},
                  "logit": {"weights": playfit.fit_rows(train)}}
        models["logit-12"]["weights"][first] = playfit.fit_rows(
            {**train, "features": train["features"][:, first]})
        if args.hidden:
            models["net"] = playfit.fit_net(train, args.hidden)
        for name, model in models.items():
            nats = playfit.net_log_likelihood(model, test) / n
            score, _ = playfit.net_scores(model, test["features"])
            print(f"{log['variant']} {role:<9} {name:<8} {n:>6} held out: {nats:+.3f} nats, "
                  f"top-1 {top_share(score, test):.3f}", flush=True)


def top_share(score: np.ndarray, rows: dict[str, np.ndarray]) -> float:
    """How often the likeliest move (ties shared) was the one chosen."""
    group = rows["decision"]
    top = np.full(group.max() + 1, -np.inf)
    np.maximum.at(top, group, score)
    best = score == top[group]
    ties = np.bincount(group, best)
    return float((best & rows["chosen"]).astype(float) @ (1 / ties[group]) / len(ties))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("log")
    p.add_argument("variant", nargs="?")
    p.add_argument("--seat", action="append")
    p.add_argument("--records", default=None,
                   help="log the games of this file of records (one JSON a line) instead")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", required=True)
    p = sub.add_parser("fit")
    p.add_argument("logs", nargs="+")
    p.add_argument("--observer", default=None,
                   help="fit on the decisions seats with this spec saw (default: every seat's)")
    p.add_argument("--hidden", type=int, default=0,
                   help="fit a net with this many hidden units (default: the logit)")
    p.add_argument("--out", default=None)
    p = sub.add_parser("score")
    p.add_argument("log")
    p.add_argument("--observer", default=None)
    p.add_argument("--hidden", type=int, default=0, help="score a net of this many units too")
    args = parser.parse_args()
    {"log": log, "fit": fit, "score": score}[args.command](args)


if __name__ == "__main__":
    main()
