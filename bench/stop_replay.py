"""Sequential stops replayed on recorded decisions: per stop rule, how often it chooses unlike
v0.2's (no early stop) on the same deals, what that costs on an independent valuation, and its
playouts as a share of v0.2's.

    python bench/stop_replay.py record kozel --games 20 --out kozel.pkl [--deals 2048] [--first 0]
    python bench/stop_replay.py replay kozel.pkl --rule loss:0.1:32 --rule cap:0.03:128

`record` plays lean against v0.2 (lean on the even seats, bench/strength.py's seeds) and at every
decision with more than one legal move values each move on two independent streams of deals
(insane's playouts, the exact solver late, each deal's weight under the play model): a search
stream of the cap's length (`--deals`: 512 with 2 players, 2,048 with 4) and a 2,048-deal truth
stream. `replay` runs each rule's stop on the search stream as the core does (a move 3 standard
errors behind dropped at every 8th deal, the stop checked from the floor on) and values its
choice on the truth stream: the loss is the truth of v0.2's choice less that of the rule's, a
mean over the decisions with its 95% interval; with more than one rule, each after the first is
also paired with the first on the same decisions. Rules: `loss:L:FLOOR` (the expected loss below
L against infinitely many deals, lean's `loss`), `cap:L:FLOOR` (against the cap's choice,
`against_cap`), either with `:DROP` after it (lean's `drop`: past the floor, a move whose regret
is below DROP is no longer played out). Values are the judge's (strategies/insane.py), so a loss
is in pips a decision (classic: win share)."""

from __future__ import annotations

import argparse
import math
import pickle
import random

import numpy as np
from domsim.strategies.insane import Insane

from domsim.game import play_game
from domsim.rules import make_rules
from domsim.search import hand_value, play_out, sample_deals, solvable, solve
from domsim.seeding import game_seed
from domsim.view import move_int

BATCH, DROP_FLOOR, CLEAR_Z = 8, 8, 3.0  # the core's (core/src/search/evaluate.rs, stop.rs)
TRUTH_DEALS = 2048
RECORDS: list[dict] = []
SETTINGS = {"deals": 0}


def values(view, options: dict, deals: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Each legal move's value on `deals` sampled deals (one playout seed a deal for every move),
    and the deals' weights."""
    moves = [move_int(m) for m in view.legal_moves]
    seeds = random.Random(seed)
    table, weights = np.zeros((len(moves), deals)), np.zeros(deals)
    for d, (deal, weight) in enumerate(sample_deals(view, deals, seed, beta=options["beta"])):
        playout_seed = seeds.getrandbits(64)
        weights[d] = weight
        exact = solvable(deal, options["exact_tiles"] + 1)
        for i, move in enumerate(moves):
            table[i, d] = value_after(deal, move, view.seat, exact, playout_seed)
    return table, weights


def value_after(deal, move: int, seat: int, exact: bool, playout_seed: int) -> float:
    """`move`'s value for `seat` on `deal`: exact once the solver applies, else a playout's."""
    after = deal.copy()
    after.play(move)
    if after.hand_over:
        return hand_value(after, seat)
    if exact:
        return solve(after, seat)
    return hand_value(play_out(after, playout_seed), seat)


class Recorder(Insane):
    """insane that records each decision's value streams before choosing."""

    def choose(self, view):
        if len(view.legal_moves) > 1:
            options = self.search_options(view)
            cap = SETTINGS["deals"] or options["samples"]
            seed = self.rng.getrandbits(64)
            search, search_w = values(view, options, cap, seed)
            truth, truth_w = values(view, options, TRUTH_DEALS, seed ^ 0x9E3779B97F4A7C15)
            RECORDS.append({"search": search, "search_w": search_w, "truth": truth,
                            "truth_w": truth_w})
        return super().choose(view)


def record(args) -> None:
    SETTINGS["deals"] = args.deals
    rules = make_rules(args.variant)
    for index in range(args.first, args.first + args.games):
        specs = ["stop_replay:Recorder" if seat % 2 == 0 else "stop_replay:Recorder?preset=v0.2"
                 for seat in range(rules.players)]
        play_game(rules, specs, game_seed(20261130, index), move_time_limit=None)
        print(f"game {index}: {len(RECORDS)} decisions", flush=True)
    with open(args.out, "wb") as out:
        pickle.dump(RECORDS, out)


class Sums:
    """Cumulative weighted sums of one decision's search stream, for any prefix of its deals."""

    def __init__(self, rec: dict) -> None:
        v, w = rec["search"], rec["search_w"]
        self.cap = v.shape[1]
        self.sums = np.cumsum(v * w, 1)
        self.products = np.cumsum(np.einsum("id,jd,d->ijd", v, v, w), 2)
        self.total, self.squares = np.cumsum(w), np.cumsum(w * w)
        self.truth = (rec["truth"] * rec["truth_w"]).sum(1) / rec["truth_w"].sum()

    def compare(self, d: int, active: np.ndarray):
        """As the core's Tally::compare over the first d + 1 deals."""
        total = self.total[d]
        effective = total * total / self.squares[d]
        if effective < 2:
            return None
        means = self.sums[active, d] / total
        k = int(np.argmax(means))
        b = active[k]
        lead = means[k] - means
        spread = ((self.products[b, b, d] - 2 * self.products[b, active, d]
                   + self.products[active, active, d]) / total - lead ** 2)
        return k, lead, np.sqrt(np.maximum(spread, 0) / (effective - 1))


def regrets(lead: np.ndarray, error: np.ndarray) -> np.ndarray:
    """Per move, as the core's stop::regret: how much it is expected to beat the best by."""
    out = np.zeros_like(lead)
    keep = error > 0
    z = lead[keep] / error[keep]
    density = np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
    tail = 0.5 * np.array([math.erfc(x / math.sqrt(2)) for x in z])
    out[keep] = error[keep] * density - lead[keep] * tail
    return out


def search(s: Sums, floor: int, loss: float, against_cap: bool,
           drop: float = 0.0) -> tuple[int, int]:
    """The move the core's search chooses on this stream, and its playouts."""
    active, playouts, last = np.arange(s.sums.shape[0]), 0, 0
    for d in range(BATCH - 1, s.cap, BATCH):
        done = d + 1
        playouts += len(active) * (done - last)
        last = done
        if done < min(floor, DROP_FLOOR):
            continue
        shrink = math.sqrt(max(0.0, 1 - done / s.cap)) if against_cap else 1.0
        compared = s.compare(d, active)
        if compared is not None:
            k, lead, error = compared
            keep = lead <= CLEAR_Z * error
            if drop > 0 and done >= floor:
                keep &= regrets(lead, error * shrink) >= drop
            keep[k] = True
            active = active[keep]
        if len(active) == 1:
            break
        if done >= floor and loss > 0:
            compared = s.compare(d, active)
            if compared is not None and regrets(compared[1], compared[2] * shrink).sum() < loss:
                break
    return int(active[int(np.argmax(s.sums[active, last - 1]))]), playouts


def replay(args) -> None:
    sums = []
    for path in args.records:
        with open(path, "rb") as f:
            sums += [Sums(rec) for rec in pickle.load(f)]
    base = [search(s, 8, 0.0, False) for s in sums]
    base_playouts = sum(b[1] for b in base)
    print(f"{len(sums)} decisions; v0.2: {base_playouts / len(sums):.0f} playouts a decision")
    first = None
    for rule in args.rule:
        kind, loss, floor, *drop = rule.split(":")
        chosen = [search(s, int(floor), float(loss), kind == "cap", float(drop[0]) if drop else 0.0)
                  for s in sums]
        gaps = np.array([s.truth[b[0]] - s.truth[c[0]]
                         for s, b, c in zip(sums, base, chosen, strict=True)])
        differ = np.mean([b[0] != c[0] for b, c in zip(base, chosen, strict=True)])
        print(f"{rule:<16} differ {differ:6.2%}  loss a decision {gaps.mean():+.4f} "
              f"+-{1.96 * gaps.std() / math.sqrt(len(gaps)):.4f}  playouts "
              f"{sum(c[1] for c in chosen) / base_playouts:.3f}", flush=True)
        if first is None:
            first = gaps
        else:
            paired = gaps - first
            print(f"{'':<16} paired with {args.rule[0]}: {paired.mean():+.4f} "
                  f"+-{1.96 * paired.std() / math.sqrt(len(paired)):.4f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    rec = commands.add_parser("record")
    rec.add_argument("variant")
    rec.add_argument("--games", type=int, default=20)
    rec.add_argument("--first", type=int, default=0, help="the first game's index")
    rec.add_argument("--deals", type=int, default=0, help="search stream (0: the cap)")
    rec.add_argument("--out", required=True)
    rep = commands.add_parser("replay")
    rep.add_argument("records", nargs="+", help="record files (of one variant)")
    rep.add_argument("--rule", action="append", required=True)
    args = parser.parse_args()
    record(args) if args.command == "record" else replay(args)


if __name__ == "__main__":
    import stop_replay  # the Recorder specs load this module by name: share its globals

    stop_replay.main()
