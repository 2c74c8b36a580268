"""A run's games as the statistics see them, and every statistic of a run: head-to-head pair
statistics over duplicate deals, joint ratings with bootstrap intervals, the summary lines, how
hands end, points per hand and decision times. Used by `domsim stats`, `compare` and `report`.

A run is read from its folder through domsim.results.run (`load_run`)."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from itertools import combinations, pairwise

import numpy as np

from .plan.pairings import pairing_label, seated_twice
from .results.columns import TIMING_PREFIX
from .results.ratings import (
    SAMPLES,
    SEED,
    Outcomes,
    anchor_indices,
    number,
    open_end,
    outcomes_of,
    rate_outcomes,
    summary_lines,
)
from .results.run import Run
from .results.sides import codes, column, margin, sides_of
from .results.summary import (
    Tally,
    elo_cell,
    faults_forfeit,
    interval_cell,
    signed_elo,
    sweep_text,
)
from .stats import (
    ELO_CLAMP,
    EloEstimate,
    RatingIntervals,
    VarianceSaving,
    elo_estimate,
    outcome_counts,
    shown_elo,
    variance_saving,
    wilson_interval,
)
from .timing import histogram_percentile

#: A step of the ladder is significant when the stronger level is rated higher in at least this
#: fraction of the bootstrap samples (one side of a 95% two-sided interval).
SIGNIFICANT = 0.975
#: ... and the run holds at least this many deals: a bootstrap over fewer whole deals cannot
#: see the spread between deals (three deals all won give P 100%), so it judges nothing.
MIN_DEALS = 30
PERCENTILES = (50, 95, 99)


# -- outcomes per game ----------------------------------------------------------------------------
def outcomes(run: Run) -> Outcomes:
    return outcomes_of(run.rules, run.entrants, run.pairings, run.table)


def pair_scores(side_entrants: np.ndarray, shares: np.ndarray, a: int,
                b: int) -> tuple[np.ndarray, np.ndarray]:
    """(which games count, a's score in them): a's share / (a's + b's share), for the games in
    which a or b won something."""
    mine = (shares * (side_entrants == a)).sum(axis=1)
    theirs = (shares * (side_entrants == b)).sum(axis=1)
    counted = mine + theirs > 0
    return counted, mine[counted] / (mine[counted] + theirs[counted])


# -- head to head ---------------------------------------------------------------------------------
@dataclass
class HeadToHead:
    """Entrant a against entrant b over the games both sat in. A game's score for a is
    a's share / (a's + b's share) (games neither won are left out); a unit is one deal of one
    pairing, scored by the mean over its counted games; only units with every seating played
    count for the pair statistics, so every unit is seat-balanced."""

    a: str
    b: str
    games: int
    wins: int
    losses: int
    shared: int
    win_rate: float
    wilson_low: float
    wilson_high: float
    ref: float
    estimate: EloEstimate
    outcomes: list[tuple[float, int]]
    saving: VarianceSaving

    def to_dict(self) -> dict:
        out = {key: value for key, value in asdict(self).items()
               if key not in ("estimate", "saving", "outcomes")}
        out.update(asdict(self.estimate))
        out.update(elo_low=open_end(self.estimate.elo_low),
                   elo_high=open_end(self.estimate.elo_high))
        out["outcomes"] = [[value, count] for value, count in self.outcomes]
        out.update(games_per_unit=self.saving.games_per_unit,
                   game_variance=self.saving.game_variance,
                   unit_variance=self.saving.unit_variance, variance_ratio=self.saving.ratio)
        return out


def head_to_head(run: Run, games: Outcomes) -> list[HeadToHead]:
    """Every pair of entrants that met, in entrant order."""
    met = defaultdict(list)
    for p, pairing in enumerate(run.pairings):
        for a, b in combinations(sorted(set(pairing)), 2):
            met[a, b].append(p)
    return [pair_statistics(run, games, a, b, pairings) for (a, b), pairings in sorted(met.items())]


def pair_statistics(run: Run, games: Outcomes, a: int, b: int,
                    pairings: list[int]) -> HeadToHead:
    met = np.isin(games.pairing, pairings)
    keys = np.stack([games.pairing[met], games.deal_id[met]], axis=1)
    counted, scores = pair_scores(games.side_entrants[met], games.shares[met], a, b)
    units: dict[tuple[int, int], list[float]] = defaultdict(list)
    for key, score in zip(map(tuple, keys[counted].tolist()), scores.tolist(), strict=True):
        units[key].append(score)
    played = Counter(map(tuple, keys.tolist()))
    complete = [units[key] for key in units if played[key] == run.seatings_per_deal]
    return head_to_head_of(run.names[a], run.names[b], scores.tolist(), complete,
                           pair_reference(run.pairings[pairings[0]], a, b))


def pair_reference(pairing: tuple[int, ...], a: int, b: int) -> float:
    """The score of a against an equal b: the share of their sides a holds."""
    return pairing.count(a) / (pairing.count(a) + pairing.count(b))


def head_to_head_of(a: str, b: str, scores: list[float], complete: list[list[float]],
                    ref: float) -> HeadToHead:
    """The pair statistics from a's game scores and the complete units' game scores."""
    total = math.fsum(scores)
    low, high = wilson_interval(total, len(scores))
    unit_scores = [sum(unit) / len(unit) for unit in complete]
    per_unit = sum(map(len, complete)) / len(complete) if complete else 1.0
    return HeadToHead(
        a, b, len(scores), sum(s == 1 for s in scores), sum(s == 0 for s in scores),
        sum(0 < s < 1 for s in scores), total / len(scores) if scores else 0.0, low, high, ref,
        elo_estimate(unit_scores, per_unit, ref), outcome_counts(unit_scores),
        variance_saving(complete))


# -- ratings --------------------------------------------------------------------------------------
def ratings(run: Run, games: Outcomes, samples: int = SAMPLES, seed: int = SEED,
            centre: tuple[int, ...] | None = None) -> RatingIntervals:
    """Joint ratings of every entrant (the mean of the `centre` entrants at 0: by default the
    anchor's, `anchor_indices`), bootstrapped over whole deals."""
    return rate_outcomes(games, run.entrants, run.manifest, samples, seed, centre)


def ratings_dict(run: Run, fitted: RatingIntervals) -> dict:
    """The ratings as plain values; an open end of a one-sided bound, or the anchor's interval,
    is None (`bound` says which)."""
    names = run.names
    faults = sum(np.bincount(codes(column(run.table, f"entrant_{seat}"), names),
                             weights=run.table.column(f"faults_{seat}").to_numpy(),
                             minlength=len(names)) for seat in range(run.rules.players))
    faults = [int(count) for count in faults]
    seated = np.stack([codes(column(run.table, f"entrant_{seat}"), names)
                       for seat in range(run.rules.players)])
    games = [int(np.any(seated == e, axis=0).sum()) for e in range(len(names))]
    return {
        "centre": [names[i] for i in fitted.centre],
        "samples": fitted.samples,
        "entrants": [{"name": name, "elo": float(fitted.ratings.elo[i]),
                      "low": number(fitted.low[i]), "high": number(fitted.high[i]),
                      "bound": fitted.bounds[i], "faults": faults[i], "games": games[i]}
                     for i, name in enumerate(names)],
        "sides": [{"side": j, "elo": float(fitted.ratings.side_elo[j]),
                   "low": float(fitted.side_low[j]), "high": float(fitted.side_high[j])}
                  for j in range(len(fitted.ratings.side_elo))],
        "p_better": {a: {b: float(fitted.p_better[i, j]) for j, b in enumerate(names)}
                     for i, a in enumerate(names)},
        "differences": {a: {b: [float(fitted.difference_low[i, j]),
                                float(fitted.difference_high[i, j])]
                            for j, b in enumerate(names)} for i, a in enumerate(names)},
    }


def strongest_first(lines: list[dict]) -> list[dict]:
    """Rating lines by their results: a sweep's +-infinity beyond every measured rating, two
    sweeps by their bounds."""
    return sorted(lines, key=lambda line: (-line["elo"], -shown_elo(line)))


def rating_text(line: dict) -> str:
    """An entrant's rating as every surface prints it (`elo_cell`)."""
    return elo_cell(line.get("bound"), line["elo"], line["low"], line["high"], line.get("games"))


def zero_label(rating: dict) -> str:
    """What Elo 0 is in these ratings: one entrant, or the mean of several."""
    centre = rating["centre"]
    zero = f"{centre[0]} = 0" if len(centre) == 1 else f"mean of {', '.join(centre)} = 0"
    swept = [line["name"] for line in rating["entrants"]
             if line.get("bound") in ("lower", "upper")]
    if swept:  # a sweep has no finite rating: it never counts in the mean
        zero += f"; {', '.join(swept)} won or lost every game, outside it"
    return zero


def ladder(rating: dict, deals: int) -> dict:
    """The verdict on entrants listed weakest first: is every next one rated higher, and is
    every step significant (P(stronger) >= 97.5% over the bootstrap samples of a run with at
    least MIN_DEALS deals)? A step is the difference of the two ratings, with the 95% interval
    of that difference over the samples."""
    rows = rating["entrants"]
    enough = deals >= MIN_DEALS
    steps = []
    for lower, upper in pairwise(rows):
        p = rating["p_better"][upper["name"]][lower["name"]]
        low, high = rating["differences"][upper["name"]][lower["name"]]
        steps.append({"from": lower["name"], "to": upper["name"],
                      "elo": shown_elo(upper) - shown_elo(lower), "low": low, "high": high,
                      "p_stronger": p, "significant": enough and p >= SIGNIFICANT})
    levels = [{key: line.get(key) for key in ("name", "low", "high", "bound", "games")}
              | {"elo": shown_elo(line)} for line in rows]
    return {"increasing": all(step["elo"] > 0 for step in steps),
            "significant": all(step["significant"] for step in steps), "steps": steps,
            "levels": levels, "zero": zero_label(rating), "deals": deals,
            "enough_deals": enough}


def ladder_line(verdict: dict) -> str:
    """The ladder verdict; under MIN_DEALS no step's P(stronger) is shown: it would claim what
    so few deals cannot show."""
    shape = ("strictly increasing in entrant order" if verdict["increasing"]
             else "NOT strictly increasing in entrant order")
    enough = verdict["enough_deals"]
    proof = ("every step significant" if verdict["significant"]
             else "NOT every step significant")
    if not enough:
        proof = (f"too few deals to judge ({verdict['deals']}; significance needs "
                 f"{MIN_DEALS})")
    steps = ", ".join(f"{s['from']} -> {s['to']} {s['elo']:+.0f} Elo"
                      + (f" (P {s['p_stronger']:.1%}{'' if s['significant'] else ', not sig.'})"
                         if enough else "")
                      for s in verdict["steps"])
    levels = ", ".join(f"{line['name']} {rating_text(line)}" for line in verdict["levels"])
    return (f"ladder {shape}, {proof}, by this run's joint ratings: {steps}; levels (Elo, "
            f"{verdict['zero']}, 95% interval): {levels}")


def ranking_line(stats: dict) -> str:
    """A run that is no ladder: its entrants strongest first, with their ratings."""
    ranked = strongest_first(stats["ratings"]["entrants"])
    return (f"ranking (Elo, {zero_label(stats['ratings'])}, 95% interval): "
            + ", ".join(f"{line['name']} {rating_text(line)}" for line in ranked))


def verdict_text(stats: dict) -> str:
    """What a run's report and `domsim report` say of it: a calibration's ladder verdict,
    any other run's ranking."""
    return ladder_line(stats["ladder"]) if stats["calibration"] else ranking_line(stats)


# -- summary, hands, points and time --------------------------------------------------------------
def rows(run: Run):
    """The games as dicts, one record batch in memory at a time."""
    for batch in run.table.to_batches():
        yield from batch.to_pylist()


def tallied(run: Run) -> Tally:
    tally = Tally(run.rules, run.entrants, run.pairings, faults_forfeit(run.config),
                  run.seatings_per_deal)
    tally.add_table(run.table)
    return tally


def hand_endings(run: Run) -> list[dict]:
    """Per pairing (in the order they first come) and over all: games, hands, and the share of
    hands ended by a domino (a player going out), blocked, with a capicú, and of games won
    dry."""
    table = run.table
    labels = [pairing_label(run.entrants, pairing) for pairing in run.pairings]
    pairing = codes(column(table, "pairing"), labels)
    counts = [np.ones(table.num_rows), *(table.column(name).to_numpy().astype(float) for name
                                         in ("hands", "blocked_hands", "capicu_hands", "dry"))]
    _, first = np.unique(pairing, return_index=True)
    out = []
    for group in [*pairing[np.sort(first)].tolist(), None]:
        met = np.ones(table.num_rows, dtype=bool) if group is None else pairing == group
        games, hands, blocked, capicu, dry = (int(count[met].sum()) for count in counts)
        out.append({"pairing": "all" if group is None else labels[group], "games": games,
                    "hands": hands, "domino": (hands - blocked) / hands,
                    "blocked": blocked / hands, "capicu": capicu / hands,
                    "dry_games": dry / games})
    return out


def points_per_hand(run: Run) -> list[dict]:
    """Per entrant over all its games: points per hand of its side(s) and of the opponents (as
    recorded: kozel records points against), and its margin per hand (summary sign)."""
    games = sides_of(run.rules, run.entrants, run.pairings, run.table,
                     faults_forfeit(run.config))
    out = []
    for e, name in enumerate(run.names):
        plays, mine, theirs = games.points_of(e)
        if plays.any():
            hands = int(games.hands[plays].sum())
            out.append({"entrant": name, "hands": hands, "points": mine.sum() / hands,
                        "opponents": theirs.sum() / hands,
                        "margin": margin(run.rules, mine, theirs).sum() / hands})
    return out


def decision_times(run: Run) -> list[dict]:
    """Per strategy spec: p50/p95/p99 over every decision it made in the run (merged from each
    seat's bucket histogram, domsim.timing.time_histogram) and its slowest decision."""
    specs = list(dict.fromkeys(spec.text for member in run.entrants for spec in member.members))
    table = run.table
    merged: list[dict[int, int]] = [defaultdict(int) for _ in specs]
    games, slowest = np.zeros(len(specs), dtype=np.int64), np.zeros(len(specs))
    for seat in range(run.rules.players):
        spec = codes(column(table, f"seat_{seat}"), specs)
        games += np.bincount(spec, minlength=len(specs))
        top = table.column(f"{TIMING_PREFIX}max_ms_{seat}").to_numpy(zero_copy_only=False)
        np.maximum.at(slowest, spec, np.nan_to_num(top.astype(float)))
        histogram = column(table, f"{TIMING_PREFIX}hist_{seat}")  # bucket -> decisions
        offsets = histogram.offsets.to_numpy()  # (a map has no list kernels)
        owner = np.repeat(spec, np.diff(offsets))
        first, last = int(offsets[0]), int(offsets[-1])
        pairs, where = np.unique(np.stack([owner, histogram.keys[first:last].to_numpy()],
                                          axis=1), axis=0, return_inverse=True)
        counts = np.bincount(where.ravel(),
                             weights=histogram.items[first:last].to_numpy().astype(float))
        for (index, bucket), count in zip(pairs.tolist(), counts.tolist(), strict=True):
            merged[index][bucket] += int(count)
    out = []
    for index, spec in enumerate(specs):
        if not merged[index]:
            continue
        line = {"strategy": spec, "games": int(games[index]),
                "decisions": sum(merged[index].values())}
        for q in PERCENTILES:
            line[f"p{q}_ms"] = histogram_percentile(dict(merged[index]), q)
        line["max_ms"] = float(slowest[index])
        out.append(line)
    return out


# -- everything ----------------------------------------------------------------------------------
def run_statistics(run: Run, samples: int = 1000, seed: int = 0) -> dict:
    """Every statistic of a run as plain values (what `domsim stats --json` prints)."""
    games = outcomes(run)
    # The anchor's mean is 0, so the weakest level has an interval like every other (Ordo's
    # and BayesElo's choice).
    anchor = anchor_indices(run.entrants, run.manifest)
    fitted = ratings(run, games, samples, seed, tuple(anchor))
    rating = ratings_dict(run, fitted)
    manifest = run.manifest
    return {
        "run": str(run.path),
        "variant": run.rules.name,
        "players": run.rules.players,
        "games": run.table.num_rows,
        "games_planned": run.config.games,
        "partial": manifest.get("partial", run.table.num_rows < run.config.games),
        "duplicate": run.config.duplicate,
        "seatings_per_deal": run.seatings_per_deal,
        "seed": manifest.get("seed", run.config.seed),
        "entrants": run.names,
        "calibration": manifest.get("purpose") == "calibration",
        "ratings": rating,
        "ladder": ladder({**rating, "entrants": [rating["entrants"][i] for i in anchor]},
                         len(np.unique(games.deal_id))),
        "seated_twice": seated_twice(run.entrants, run.pairings),
        "pairs": [pair.to_dict() for pair in head_to_head(run, games)],
        "summary": summary_lines(tallied(run), run.pairings, run.seatings_per_deal, games, fitted),
        "hands": hand_endings(run),
        "points": points_per_hand(run),
        "timing": decision_times(run),
    } | ({"compare": manifest["compare"]} if "compare" in manifest else {})


def statistics_lines(stats: dict) -> list[str]:
    """`domsim stats` as text."""
    played = (f"{stats['games']} of {stats['games_planned']} games (partial)" if stats["partial"]
              else f"{stats['games']} games (complete)")
    lines = [f"{stats['run']}: {stats['variant']}, {stats['players']} players, {played}, "
             f"{stats['seatings_per_deal']} seating(s) per deal", "",
             f"Ratings (Elo, {zero_label(stats['ratings'])}; 95% bootstrap interval over "
             f"{stats['ratings']['samples']} resamplings of whole deals)"]
    ranked = stats["ratings"]["entrants"]
    if not stats["calibration"]:  # a ladder is read in entrant order, standings by strength
        ranked = strongest_first(ranked)
        lines[-1] += ", strongest first"
    if stats.get("seated_twice"):
        lines.insert(1, stats["seated_twice"])
    width = max(20, *(len(rating_text(line)) for line in ranked))
    lines.append(f"  {'entrant':<24} {'Elo [95% CI]':>{width}}  faults")
    for line in ranked:
        lines.append(f"  {line['name']:<24} {rating_text(line):>{width}}  {line['faults']:>6}")
    lines += side_lines(stats["ratings"]["sides"])
    lines += ["", *p_better_lines(stats)]
    if stats["calibration"]:
        lines += ["", ladder_line(stats["ladder"])]
    lines += ["", "Head to head (a vs b; units: deals over all their seatings)"]
    for pair in stats["pairs"]:
        lines += pair_lines(pair)
    lines += ["", "Points margin per game and per hand (95% interval over deals)"]
    for row in stats["summary"]:
        per_game, per_hand = (interval_cell(*(row[f"margin_per_{unit}{end}"]
                                              for end in ("", "_low", "_high")), "+.2f")
                              for unit in ("game", "hand"))
        lines.append(f"  {row['pairing'] + ': ' + row['entrant']:<40} {per_game:>24}  "
                     f"{per_hand:>22}")
    if "compare" in stats:
        lines += ["", compare_line(stats["compare"])]
    return lines


def side_lines(sides: list[dict]) -> list[str]:
    """The seat term of the joint fit, apart from the entrants: what sitting on a side is
    worth over side 0, whoever sits there."""
    if len(sides) < 2:
        return []
    return ["", "Side advantage (Elo of sitting on a side over side 0, from the same fit; 95% "
                "interval)",
            *(f"  {'side ' + str(line['side']) + ' vs side 0':<24} "
              f"{elo_cell(None, line['elo'], line['low'], line['high']):>20}"
              for line in sides[1:])]


def p_better_lines(stats: dict) -> list[str]:
    """The P(row stronger than column) matrix; under MIN_DEALS deals, a line saying why not."""
    deals = stats["ladder"]["deals"]
    if deals < MIN_DEALS:
        return [f"P(row stronger than column): not shown, {deals} deals are too few to judge "
                f"(it needs {MIN_DEALS})"]
    lines = ["P(row stronger than column)"]
    names = stats["entrants"]
    width = max(8, *(len(name) for name in names)) + 1
    lines.append(" " * (width + 2) + "".join(f"{name[:width - 1]:>{width}}" for name in names))
    for a in names:
        cells = "".join(f"{stats['ratings']['p_better'][a][b]:>{width}.1%}" for b in names)
        lines.append(f"  {a:<{width}}{cells}")
    return lines


def compare_line(test: dict) -> str:
    """The sequential test of a `domsim compare` run, from its manifest."""
    if "sprt" not in test:
        return f"fixed comparison of {test['a']} and {test['b']}: {test['games']} games"
    sprt = test["sprt"]
    llr = "-" if test["llr"] is None else f"{test['llr']:.2f}"
    return (f"SPRT of {test['a']} against {test['b']} ({sprt['model']} Elo, H0: {sprt['elo0']:g}, "
            f"H1: {sprt['elo1']:g}): LLR {llr}, {test['verdict'] or 'no decision'} after "
            f"{test['games']} games")


def pair_lines(pair: dict) -> list[str]:
    outcomes_text = " ".join(f"{_fraction(value)}:{count}" for value, count in pair["outcomes"])
    return [
        f"  {pair['a']} vs {pair['b']}: {pair['games']} games, W-L-S {pair['wins']}-"
        f"{pair['losses']}-{pair['shared']}, win rate {pair['win_rate']:.1%} "
        f"[{pair['wilson_low']:.1%}, {pair['wilson_high']:.1%}]",
        f"    {elo_text(pair)}, LOS {pair['los']:.1%}, {pair['units']} complete deals",
        f"    deal outcomes (score of {pair['a']}: count) {outcomes_text or '-'}",
        f"    variance of a deal's mean vs independent games: {pair['variance_ratio']:.2f} "
        f"(duplicate play needs {pair['variance_ratio']:.0%} of the games)",
    ]


def elo_text(pair: dict) -> str:
    """Elo and nElo with their intervals; a sweep as what it is (`sweep_text`)."""
    bound = pair.get("one_sided")
    if bound:
        swept = sweep_text(bound, pair["elo_low"], pair["elo_high"], pair["games"], said=True)
        return f"Elo: {swept}, nElo - (no spread)"
    return (f"Elo {pair['elo']:+.1f} [{elo_end(pair['elo_low'])}, {elo_end(pair['elo_high'])}], "
            f"nElo {pair['nelo']:+.1f} [{pair['nelo_low']:+.1f}, {pair['nelo_high']:+.1f}]")


def elo_end(value: float) -> str:
    """An interval's end to a tenth, an unbounded one (at the score clamp) as +-inf."""
    return signed_elo(value) if abs(value) >= ELO_CLAMP else f"{value:+.1f}"


def _fraction(value: float) -> str:
    for denominator in (1, 2, 3, 4, 6, 8, 12):
        numerator = value * denominator
        if math.isclose(numerator, round(numerator), abs_tol=1e-6):
            return f"{round(numerator)}/{denominator}" if denominator > 1 else str(round(value))
    return f"{value:.3f}"
