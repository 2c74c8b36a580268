"""Statistics over game outcomes: small pure functions with the formulas named."""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

Z95 = 1.959963984540054
#: Samples from this size on take the normal quantile: t differs from it by under 0.1%.
T_UNTIL = 1000


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (successes may be fractional: a shared win is 1/2)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return (centre - spread) / denominator, (centre + spread) / denominator


def t_cdf(t: float, df: int) -> float:
    """Student's t distribution function for a whole number of degrees of freedom, in closed
    form (Abramowitz & Stegun 26.7.3-4: a finite series in cos^2 of atan(t / sqrt(df)))."""
    theta = math.atan(t / math.sqrt(df))
    c2, term, total = math.cos(theta) ** 2, 1.0, 1.0
    for k in range(1 + df % 2, df - 2, 2):  # odd df: 2/3, 2*4/(3*5), ...; even: 1/2, 1*3/(2*4)
        term *= c2 * k / (k + 1)
        total += term
    if df % 2:
        inside = 2 / math.pi * (theta + (math.sin(theta) * math.cos(theta) * total
                                         if df > 1 else 0.0))
    else:
        inside = math.sin(theta) * total
    return (1 + inside) / 2


def t_quantile(p: float, df: int) -> float:
    """The t with t_cdf(t, df) = p: Cornish-Fisher's expansion from the normal quantile (A&S
    26.7.5), polished by Newton steps on `t_cdf`."""
    x = NormalDist().inv_cdf(p)
    t = x + sum(sum(c * x ** e for c, e in terms) / df ** k for k, terms in enumerate((
        ((1 / 4, 3), (1 / 4, 1)),
        ((5 / 96, 5), (16 / 96, 3), (3 / 96, 1)),
        ((3 / 384, 7), (19 / 384, 5), (17 / 384, 3), (-15 / 384, 1)),
        ((79 / 92160, 9), (776 / 92160, 7), (1482 / 92160, 5), (-1920 / 92160, 3),
         (-945 / 92160, 1))), start=1))
    log_norm = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - math.log(df * math.pi) / 2
    for _ in range(3):
        density = math.exp(log_norm - (df + 1) / 2 * math.log1p(t * t / df))
        t -= (t_cdf(t, df) - p) / density
    return t


@functools.cache
def critical_value(z: float, n: int) -> float:
    """The multiple of the standard error a two-sided interval of normal quantile `z` takes
    for the mean of `n` values: Student's t with n - 1 degrees of freedom, which tends to z as
    n grows (a small sample's interval is wider than the normal one)."""
    if n < 2:
        return math.inf  # one value says nothing of the spread
    return t_quantile(phi(z), n - 1) if n < T_UNTIL else z


def mean_interval(values: list[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean with a 95% interval (Student's t): (mean, low, high)."""
    if not values:
        return 0.0, 0.0, 0.0
    return moments_interval(len(values), math.fsum(values), math.fsum(v * v for v in values), z)


def moments_interval(n: int, total: float, total_squares: float,
                     z: float = Z95) -> tuple[float, float, float]:
    """`mean_interval` from running sums (n, sum, sum of squares), so a stream needs no list:
    half-width t * s / sqrt(n) with the sample variance s^2 = (sum_sq - sum^2 / n) / (n - 1) and
    t = `critical_value(z, n)`."""
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = total / n
    if n < 2:
        return mean, mean, mean
    variance = max(0.0, (total_squares - total * total / n) / (n - 1))
    half = critical_value(z, n) * math.sqrt(variance / n)
    return mean, mean - half, mean + half


# -- Elo, normalized Elo and LOS of a head-to-head score ------------------------------------------
#: fishtest's `nelo_divided_by_nt`: normalized Elo per unit of t-value (the slope 800/ln 10).
NELO_PER_T = 800 / math.log(10)
SCORE_CLAMP = 1e-3  # as fishtest: a score of 0 or 1 maps to about -/+1200 Elo, not infinity
#: The Elo of the clamped score: an interval end this far out is unbounded (shown as infinite).
ELO_CLAMP = 400 * math.log10((1 - SCORE_CLAMP) / SCORE_CLAMP) - 1e-6


def shown_elo(line: dict) -> float:
    """Where a chart or a curve places a rating line (`elo`, `low`, `high`, `bound`): at its
    Elo, or a sweep's (+-infinity, ordered beyond every measured rating) at its bound."""
    if line.get("bound") == "lower":
        return line["low"]
    if line.get("bound") == "upper":
        return line["high"]
    return line["elo"]


def phi(x: float) -> float:
    """Standard normal distribution function, from erfc."""
    return 0.5 * math.erfc(-x / math.sqrt(2))


def elo_from_score(score: float, ref: float = 0.5) -> float:
    """Logistic Elo of an expected score: 400 log10(odds(score) / odds(ref)), odds(p) = p/(1-p).

    `ref` is the score of two equals: 1/2 head to head; k/(k+m) when one entrant holds k seats of
    a game to the other's m (then this is the Bradley-Terry strength ratio per seat)."""
    score = min(max(score, SCORE_CLAMP), 1 - SCORE_CLAMP)
    return 400 * math.log10(score / (1 - score) * (1 - ref) / ref)


def score_from_elo(elo: float, ref: float = 0.5) -> float:
    """The inverse of `elo_from_score`: odds(ref) * 10^(elo/400) turned back into a probability."""
    odds = ref / (1 - ref) * 10 ** (elo / 400)
    return odds / (1 + odds)


#: The tail a one-sided bound leaves out: that of one side of a two-sided 95% interval.
ONE_TAIL = 0.025


@dataclass(frozen=True)
class EloEstimate:
    """A head-to-head estimate from N units (games, or deals over all their seatings).

    A sweep (every unit won, or every unit lost) has no spread to measure: its score is then
    only bounded on one side (`one_sided` "lower": at least score_low, the other end is the
    clamp; "upper": at most score_high), and normalized Elo is undefined (None)."""

    units: int
    score: float
    score_low: float
    score_high: float
    elo: float
    elo_low: float
    elo_high: float
    nelo: float | None
    nelo_low: float | None
    nelo_high: float | None
    los: float
    one_sided: str | None = None


def unit_moments(unit_scores: Sequence[float]) -> tuple[int, float, float]:
    """(N, mean, population variance) of the unit scores, the moments fishtest works with."""
    n = len(unit_scores)
    if n == 0:
        return 0, 0.0, 0.0
    mean = math.fsum(unit_scores) / n
    return n, mean, math.fsum((s - mean) ** 2 for s in unit_scores) / n


def elo_estimate(unit_scores: Sequence[float], games_per_unit: float = 1.0, ref: float = 0.5,
                 z: float = Z95) -> EloEstimate:
    """Elo, normalized Elo and LOS from the mean score of each unit (fishtest's get_elo; with
    units of 2 seatings these are its pentanomial game pairs).

    score interval: mu +/- t sigma_u / sqrt(N), mapped through `elo_from_score` (t: Student's
    for N - 1 degrees of freedom, `critical_value`; fishtest takes z);
    LOS: `likelihood_of_superiority`, the sign test over units;
    nElo = (mu - ref) / sigma_g * 800 / ln 10 with the per-game deviation
    sigma_g = sigma_u * sqrt(games per unit) (fishtest: sqrt(2 var_pair))."""
    n, mean, variance = unit_moments(unit_scores)
    if n == 0:  # nothing known: the widest (clamped, so finite) interval
        return EloEstimate(0, ref, 0.0, 1.0, 0.0, elo_from_score(0.0, ref),
                           elo_from_score(1.0, ref), 0.0, 0.0, 0.0, 0.5)
    los = likelihood_of_superiority(unit_scores, ref)
    if variance == 0 and mean in (0.0, 1.0):
        return sweep_estimate(n, mean, ref, los)
    # Units that all scored alike show no spread, yet may have one: take the largest a score
    # in [0, 1] with this mean can have, so the interval is never narrower than the data allow.
    variance = variance or mean * (1 - mean)
    error = math.sqrt(variance / n)
    half = critical_value(z, n) * error
    low, high = max(mean - half, 0.0), min(mean + half, 1.0)
    sigma_game = math.sqrt(variance * games_per_unit)

    def nelo(score: float) -> float:
        return (score - ref) / sigma_game * NELO_PER_T

    return EloEstimate(n, mean, low, high, elo_from_score(mean, ref),
                       elo_from_score(low, ref), elo_from_score(high, ref), nelo(mean), nelo(low),
                       nelo(high), los)


def sweep_estimate(n: int, mean: float, ref: float, los: float) -> EloEstimate:
    """N units all won (mean 1) or all lost (mean 0): a one-sided bound. A score in [0, 1] with
    mean mu is 1 with probability at most mu, so N wins in a row have probability at most mu^N:
    below ONE_TAIL^(1/N) a sweep is that unlikely."""
    bound = ONE_TAIL ** (1 / n)
    if mean == 1.0:
        low, high, side = bound, 1.0, "lower"
    else:
        low, high, side = 0.0, 1 - bound, "upper"
    return EloEstimate(n, mean, low, high, elo_from_score(mean, ref), elo_from_score(low, ref),
                       elo_from_score(high, ref), None, None, None, los, side)


#: A unit's score this close to the reference is neither won nor lost (a rounding error apart).
TIE_SCORE = 1e-9


def likelihood_of_superiority(unit_scores: Sequence[float], ref: float = 0.5) -> float:
    """LOS: the probability that the first side is the stronger, by the sign test over units
    (deals): W units scored above `ref`, L below, the rest even. With a uniform prior on the
    chance p that a decided unit goes the first side's way, LOS = P(p > 1/2 | W, L) =
    P(Binomial(W + L + 1, 1/2) <= W). It never falls as a unit's score rises (a unit lost
    becomes even, or even becomes won: W rises or L falls), holds at any N (no normal
    approximation: 4 units won give 31/32, 3 won and 1 even 15/16), is 1/2 when W = L, and
    LOS(W, L) = 1 - LOS(L, W)."""
    won = sum(score > ref + TIE_SCORE for score in unit_scores)
    lost = sum(score < ref - TIE_SCORE for score in unit_scores)
    return binomial_cdf(won, won + lost + 1)


#: Up to this many trials a binomial tail is summed in whole numbers (exact, so correctly
#: rounded: LOS is then monotone to the last bit); beyond, in log space.
EXACT_TRIALS = 1000


def binomial_cdf(k: int, n: int) -> float:
    """P(Binomial(n, 1/2) <= k). The smaller tail is summed (P(X <= k) = 1 - P(X <= n - k - 1)),
    so a probability near 1 keeps its precision."""
    if k >= n:
        return 1.0
    if k < 0:
        return 0.0
    if 2 * k >= n:
        return 1.0 - binomial_cdf(n - k - 1, n)
    if n <= EXACT_TRIALS:
        total, term = 0, 1
        for j in range(k + 1):
            total += term
            term = term * (n - j) // (j + 1)
        return total / 2 ** n
    j = np.arange(1, k + 1)
    log_comb = np.concatenate([[0.0], np.cumsum(np.log((n - j + 1) / j))])
    top = log_comb.max()
    return math.exp(top + math.log(np.exp(log_comb - top).sum()) - n * math.log(2))


# -- pairs of games on one deal -----------------------------------------------------------------
def outcome_counts(unit_scores: Sequence[float]) -> list[tuple[float, int]]:
    """How often each unit score occurs, lowest first. With 2 seatings and game scores 0, 1/2, 1
    the values 0, 1/4, 1/2, 3/4, 1 are fishtest's pentanomial LL, LD, WL+DD, WD, WW."""
    counts = Counter(round(s, 9) for s in unit_scores)
    return sorted(counts.items())


@dataclass(frozen=True)
class VarianceSaving:
    """What duplicate play saves: independent games would give the mean of `games_per_unit`
    games a variance of game_variance / games_per_unit; the units show unit_variance."""

    game_variance: float
    unit_variance: float
    games_per_unit: float

    @property
    def ratio(self) -> float:
        """unit variance / (game variance / games per unit): 1 is no saving; 0.5 means duplicate
        play needs half the games of independent play for the same precision."""
        independent = self.game_variance / self.games_per_unit if self.games_per_unit else 0.0
        return self.unit_variance / independent if independent > 0 else 1.0


def variance_saving(units: Sequence[Sequence[float]]) -> VarianceSaving:
    """Measured saving of duplicate play from the game scores of each unit (population
    variances: of every game's score, and of every unit's mean score)."""
    games = [score for unit in units for score in unit]
    means = [sum(unit) / len(unit) for unit in units if unit]
    _, _, game_variance = unit_moments(games)
    _, _, unit_variance = unit_moments(means)
    per_unit = len(games) / len(means) if means else 0.0
    return VarianceSaving(game_variance, unit_variance, per_unit)


# -- GSPRT (fishtest's generalized SPRT on a discrete distribution of unit scores) --------------
def _secular_root(values: Sequence[float], probs: Sequence[float]) -> float:
    """The x solving sum p_i a_i / (1 + x a_i) = 0 between -1/max(a) and -1/min(a), where the sum
    falls from +inf to -inf (needs min(a) < 0 < max(a)); by bisection."""
    low, high = -1 / max(values), -1 / min(values)
    for _ in range(200):
        middle = (low + high) / 2
        total = sum(p * a / (1 + middle * a) for a, p in zip(values, probs, strict=True))
        if total > 0:
            low = middle
        else:
            high = middle
        if high - low < 1e-15:
            break
    return (low + high) / 2


def mle_with_mean(values: Sequence[float], probs: Sequence[float], mean: float) -> list[float]:
    """The most likely distribution on `values` with expectation `mean`, given the empirical
    `probs`: q_i = p_i / (1 + x (a_i - mean)) with x the secular-equation root (Van den Bergh,
    "support_MLE_multinomial", Proposition 1.1)."""
    shifted = [a - mean for a in values]
    x = _secular_root(shifted, probs)
    return [p / (1 + x * a) for a, p in zip(shifted, probs, strict=True)]


def mle_with_t(values: Sequence[float], probs: Sequence[float], ref: float,
               t: float) -> list[float]:
    """The most likely distribution on `values` with t-value (mu - ref) / sigma = t, by the
    fixed-point iteration of Van den Bergh, "normalized_elo_practical", section 4.1."""
    q = [1 / len(values)] * len(values)
    for _ in range(100):
        mu = sum(a * p for a, p in zip(values, q, strict=True))
        sigma = math.sqrt(sum(p * (a - mu) ** 2 for a, p in zip(values, q, strict=True)))
        shifted = [a - ref - t * sigma * (1 + ((mu - a) / sigma) ** 2) / 2 for a in values]
        x = _secular_root(shifted, probs)
        new = [p / (1 + x * a) for a, p in zip(shifted, probs, strict=True)]
        if max(abs(a - b) for a, b in zip(new, q, strict=True)) < 1e-12:
            return new
        q = new
    return q


def _empirical(counts: dict[float, float]) -> tuple[list[float], list[float], float]:
    """(values, probabilities, N) of unit-score counts; as fishtest regularizes empty bins, the
    extreme scores 0 and 1 get a count of 1e-3 when absent, so every hypothesis in (0, 1) has a
    solution."""
    n = sum(counts.values())
    counts = {0.0: 1e-3, 1.0: 1e-3} | dict(counts)
    values = sorted(counts)
    total = sum(counts.values())
    return values, [counts[v] / total for v in values], n


def gsprt_llr(unit_scores: Sequence[float] | dict[float, float], s0: float, s1: float) -> float:
    """Generalized log-likelihood ratio of mean score s1 against s0: N sum p_i log(q1_i / q0_i),
    q0, q1 the most likely distributions with those means (fishtest's LLR_logistic). The units
    are given as scores or as {score: count}."""
    values, probs, n = _empirical(_counts(unit_scores))
    if n == 0:
        return 0.0
    q0, q1 = (mle_with_mean(values, probs, s) for s in (s0, s1))
    return n * sum(p * math.log(b / a) for p, a, b in zip(probs, q0, q1, strict=True))


def gsprt_llr_t(unit_scores: Sequence[float] | dict[float, float], ref: float, t0: float,
                t1: float) -> float:
    """As `gsprt_llr` for the t-value (mu - ref) / sigma (fishtest's LLR_normalized)."""
    values, probs, n = _empirical(_counts(unit_scores))
    if n == 0:
        return 0.0
    q0, q1 = (mle_with_t(values, probs, ref, t) for t in (t0, t1))
    return n * sum(p * math.log(b / a) for p, a, b in zip(probs, q0, q1, strict=True))


def _counts(unit_scores: Sequence[float] | dict[float, float]) -> dict[float, float]:
    return unit_scores if isinstance(unit_scores, dict) else dict(outcome_counts(unit_scores))


ELO_MODELS = ("logistic", "normalized")


@dataclass(frozen=True)
class Sprt:
    """H0: Elo = elo0 against H1: Elo = elo1 with error rates alpha and beta, on unit scores;
    Wald's bounds log(beta / (1 - alpha)) and log((1 - beta) / alpha)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"  # or "normalized": the bounds are in normalized Elo

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, unit_scores: Sequence[float] | dict[float, float],
            games_per_unit: float = 1.0, ref: float = 0.5) -> float:
        """Logistic: the scores of the two bounds; normalized: their t-values per unit,
        t = nElo / (800 / ln 10) * sqrt(games per unit) (fishtest: * sqrt 2 for pairs)."""
        if self.model == "normalized":
            t0, t1 = (e / NELO_PER_T * math.sqrt(games_per_unit) for e in (self.elo0, self.elo1))
            return gsprt_llr_t(unit_scores, ref, t0, t1)
        return gsprt_llr(unit_scores, score_from_elo(self.elo0, ref),
                         score_from_elo(self.elo1, ref))

    def verdict(self, llr: float) -> str | None:
        """"H1" or "H0" once the LLR leaves the bounds, else None (go on playing)."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


# -- joint ratings: multinomial-logit Bradley-Terry over every game ------------------------------
ELO_PER_NATURAL = 400 / math.log(10)


@dataclass(frozen=True)
class Ratings:
    """Elo per entrant (the centre's mean at 0) and per side (side 0 at 0: the advantage of
    sitting on that side, i.e. the seat and lead term)."""

    elo: np.ndarray
    side_elo: np.ndarray


def fit_ratings(side_entrants: np.ndarray, shares: np.ndarray, entrants: int,
                weights: np.ndarray | None = None, prior_draws: float = 1.0,
                centre: Sequence[int] = (0,)) -> Ratings:
    """Maximum-likelihood ratings of every entrant from every game.

    side_entrants[g, j] is the entrant on side j of game g, shares[g, j] that side's share of the
    win (a shared win splits it; no winner: equal shares). Model (Bradley-Terry / Elo, as
    Plackett-Luce's first place for 3-4 sides): P(side j wins) = exp(u_j) / sum_k exp(u_k) with
    u_j = r[entrant on j] + theta_j; the log-likelihood sum_g w_g sum_j share_gj log P_gj is
    concave, maximized by Newton's method. `prior_draws` virtual drawn games of each entrant and
    side against a 0-rated opponent (as BayesElo's prior) keep it finite when one never loses.
    Only differences are identified: the mean rating of the `centre` entrants is set to 0."""
    games = GameTypes.of(side_entrants, shares, entrants)
    return games.ratings(games.maximize(games.wins(weights)[None], prior_draws)[0], centre)


#: The most elements of a working array of fits solved side by side (GameTypes.maximize).
BLOCK_ELEMENTS = 1 << 20


@dataclass(frozen=True)
class GameTypes:
    """Games of the same sides (the same entrants in the same seats) merged into one type: the
    likelihood needs only each type's shares of the win summed over its games, so a refit (a
    bootstrap sample) only re-sums them. The design is kept sparse, a few parameters per side:
    d u_j / d param columns[t, j, k] is values[t, j, k] for type t (every other derivative 0);
    index[g] the type of game g, shares[g] its shares, `size` the number of parameters."""

    columns: np.ndarray
    values: np.ndarray
    index: np.ndarray
    shares: np.ndarray
    entrants: int
    size: int

    @classmethod
    def of(cls, side_entrants: np.ndarray, shares: np.ndarray, entrants: int) -> GameTypes:
        """u_j = r[entrant on side j] + theta_j, theta_0 = 0 (its column's value is 0)."""
        side_entrants = np.asarray(side_entrants, dtype=np.int64)
        sides = side_entrants.shape[1]
        on_sides, index = np.unique(side_entrants, axis=0, return_inverse=True)
        theta = np.broadcast_to(entrants + np.arange(-1, sides - 1), on_sides.shape)
        columns = np.stack([on_sides, np.maximum(theta, 0)], axis=2)
        values = np.ones(columns.shape)
        values[:, 0, 1] = 0.0  # side 0 has no theta: a 0 on whichever column
        return cls(columns, values, index.ravel(), np.asarray(shares, dtype=float), entrants,
                   entrants + sides - 1)

    @classmethod
    def dense(cls, design: np.ndarray, index: np.ndarray, shares: np.ndarray) -> GameTypes:
        """Game types of a dense design[t, j, p] = d u_j / d param p (a few parameters)."""
        size = design.shape[2]
        return cls(np.broadcast_to(np.arange(size), design.shape), design, index, shares, 0,
                   size)

    @functools.cached_property
    def hessian_entries(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every type's nonzero terms of X^T W X (X its design, W sides x sides): which of the
        flattened W[t, j, j2] each takes, its cell p * size + q and the product of the design's
        values x[t, j, p] x[t, j2, q] (k, k2: the entries of sides j, j2)."""
        types, sides, per_side = self.columns.shape
        t, j, k, j2, k2 = np.indices((types, sides, per_side, sides, per_side)).reshape(5, -1)
        products = self.values[t, j, k] * self.values[t, j2, k2]
        kept = products != 0
        cells = self.columns[t, j, k] * self.size + self.columns[t, j2, k2]
        return ((t * sides + j) * sides + j2)[kept], cells[kept], products[kept]

    def wins(self, weights: np.ndarray | None) -> np.ndarray:
        """wins[t, j]: side j's shares of the games of type t, summed (each game weighted)."""
        types, sides = self.columns.shape[:2]
        shares = self.shares if weights is None else weights[:, None] * self.shares
        slots = self.index[:, None] * sides + np.arange(sides)
        return np.bincount(slots.ravel(), weights=shares.ravel(),
                           minlength=types * sides).reshape(types, sides)

    def maximize(self, wins: np.ndarray, prior: float,
                 start: np.ndarray | None = None) -> np.ndarray:
        """The most likely parameters (natural units) of each fit's wins (of shape (fits,
        types, sides): parameters of shape (fits, params)), by Newton's method
        with step halving, each fit on its own until its steps are below 1e-9, from `start`
        (a bootstrap sample starts from the full fit: a few steps suffice). The fits are
        solved side by side, in blocks of a few megabytes of working arrays."""
        types, sides, per_side = self.columns.shape
        per_fit = max(self.size ** 2, types * (sides * per_side) ** 2)
        block = max(1, BLOCK_ELEMENTS // per_fit)
        return np.concatenate([self._maximize_block(wins[first:first + block], prior, start)
                               for first in range(0, len(wins), block)]
                              or [np.empty((0, self.size))])

    def _maximize_block(self, wins: np.ndarray, prior: float,
                        start: np.ndarray | None) -> np.ndarray:
        params = np.zeros((len(wins), self.size))
        if start is not None:
            params += start
        current = _log_likelihood(self, wins, params, prior)
        running = np.arange(len(wins))
        for _ in range(100):
            step = _newton_step(self, wins[running], params[running], prior)
            scale, trial = self._halved(wins[running], params[running], step,
                                        current[running], prior)
            moved = scale[:, None] * step
            params[running] += moved
            current[running] = trial
            running = running[np.max(np.abs(moved), axis=1, initial=0.0) >= 1e-9]
            if not len(running):
                break
        return params

    def _halved(self, wins: np.ndarray, params: np.ndarray, step: np.ndarray,
                current: np.ndarray, prior: float) -> tuple[np.ndarray, np.ndarray]:
        """Each fit's step scale, halved from 1 until the likelihood does not fall (or the
        scale is below 1e-4), and the likelihood there."""
        scale, trial = np.ones(len(params)), np.empty(len(params))
        halving = np.arange(len(params))
        while len(halving):
            tried = _log_likelihood(self, wins[halving],
                                    params[halving] + scale[halving, None] * step[halving],
                                    prior)
            trial[halving] = tried
            falls = (tried < current[halving] - 1e-12) & (scale[halving] >= 1e-4)
            halving = halving[falls]
            scale[halving] /= 2
        return scale, trial

    def ratings(self, params: np.ndarray, centre: Sequence[int]) -> Ratings:
        elo = params[:self.entrants] * ELO_PER_NATURAL
        side_elo = np.concatenate([[0.0], params[self.entrants:] * ELO_PER_NATURAL])
        return Ratings(elo - elo[list(centre)].mean(), side_elo)


def _logits(types: GameTypes, params: np.ndarray) -> np.ndarray:
    """u[f, t, j] of fit f's parameters (params[f]) for game type t, side j."""
    return _along_last(np.add, params[:, types.columns] * types.values)


def _along_last(combine: np.ufunc, values: np.ndarray) -> np.ndarray:
    """`combine` (np.add, np.maximum) reduced along the last axis, a short one (the sides, a
    side's few parameters), slice by slice: numpy's own reduction along an axis of 2 to 4 is
    tens of times slower."""
    out = values[..., 0].copy()
    for i in range(1, values.shape[-1]):
        combine(out, values[..., i], out=out)
    return out


def _probabilities(types: GameTypes, params: np.ndarray) -> np.ndarray:
    logits = _logits(types, params)
    logits -= _along_last(np.maximum, logits)[..., None]
    exp = np.exp(logits)
    return exp / _along_last(np.add, exp)[..., None]


def _log_likelihood(types: GameTypes, wins: np.ndarray, params: np.ndarray,
                    prior: float) -> np.ndarray:
    """Each fit's log-likelihood (wins[f] and params[f] the fit's)."""
    logits = _logits(types, params)
    logits -= _along_last(np.maximum, logits)[..., None]
    log_p = logits - np.log(_along_last(np.add, np.exp(logits)))[..., None]
    prior_term = prior * np.sum(-np.logaddexp(0, -params) / 2 - np.logaddexp(0, params) / 2,
                                axis=1)
    return np.sum(wins * log_p, axis=(1, 2)) + prior_term


def _newton_step(types: GameTypes, wins: np.ndarray, params: np.ndarray,
                 prior: float) -> np.ndarray:
    """Each fit's Newton step. With a prior the Hessian is negative definite: a plain solve.
    Without one a shift of every rating leaves the likelihood unchanged, so the step is the
    least-squares one (the pseudo-inverse, with lstsq's cutoff of small singular values)."""
    gradient, hessian = _gradient_hessian(types, wins, params, prior)
    if prior > 0:
        return np.linalg.solve(-hessian, gradient[:, :, None])[:, :, 0]
    cutoff = hessian.shape[-1] * np.finfo(float).eps
    return np.einsum("fpq,fq->fp", np.linalg.pinv(-hessian, rcond=cutoff), gradient)


def _gradient_hessian(types: GameTypes, wins: np.ndarray, params: np.ndarray,
                      prior: float) -> tuple[np.ndarray, np.ndarray]:
    """Each fit's gradient and Hessian, summed over the sparse design's entries: of type t,
    sum_j residual_j x_j and -X^T W X with W = w (diag(p) - p p^T), w its games' weight."""
    fits, size, sides = len(params), types.size, wins.shape[2]
    p = _probabilities(types, params)
    weight_sum = _along_last(np.add, wins)[..., None]
    residual = wins - weight_sum * p
    gradient = _summed(residual[..., None] * types.values, types.columns, size)
    curvature = (weight_sum * p)[..., None] * (np.eye(sides) - p[:, :, None, :])
    source, cells, products = types.hessian_entries
    hessian = -_summed(curvature.reshape(fits, -1)[:, source] * products, cells,
                       size * size).reshape(fits, size, size)
    sigmoid = 1 / (1 + np.exp(-params))
    gradient += prior * (0.5 - sigmoid)
    hessian -= (prior * sigmoid * (1 - sigmoid))[:, :, None] * np.eye(size)
    return gradient, hessian


def _summed(weights: np.ndarray, columns: np.ndarray, size: int) -> np.ndarray:
    """out[f, c] = the sum of weights[f][i] over the i with columns[i] = c, c < size."""
    fits = len(weights)
    flat = (columns.reshape(1, -1) + size * np.arange(fits)[:, None]).ravel()
    return np.bincount(flat, weights=weights.ravel(), minlength=fits * size).reshape(fits, size)


# -- bootstrap over whole deals -----------------------------------------------------------------
#: Ratings this close are alike: entrants with the same record come out of the fit a rounding
#: error apart (about 1e-9 Elo), which must not decide which is better, or whether an interval
#: has a spread.
TIE_ELO = 1e-6


def deal_weights(deal_index: np.ndarray, deals: int, rng: np.random.Generator) -> np.ndarray:
    """One bootstrap sample as game weights: `deals` deals drawn with replacement, each game
    weighted by how often its deal (deal_index[g] in 0..deals-1) was drawn, so the games of a
    deal (every pairing and seating) stay together with the correlation duplicate play builds."""
    drawn = np.bincount(rng.integers(0, deals, deals), minlength=deals)
    return drawn[deal_index].astype(float)


@dataclass(frozen=True)
class RatingIntervals:
    """Ratings with percentile bootstrap intervals, and p_better[i, j]: the fraction of samples
    in which entrant i is rated above entrant j (ties count one half). `bounds[i]` says what
    entrant i's interval is: None a two-sided interval; "lower" (it won every game: elo[i] is
    +infinity, so it ranks above every measured rating, bounded below at low[i], high[i] nan)
    or "upper" (it won none: elo[i] -infinity, bounded above at high[i], low[i] nan), the
    one-sided bounds of a sweep; "anchor" the one entrant Elo 0 is
    pinned to, "unmeasured" one whose resamplings all agree (too few deals to show a spread):
    no interval, low and high nan."""

    ratings: Ratings
    low: np.ndarray
    high: np.ndarray
    side_low: np.ndarray
    side_high: np.ndarray
    p_better: np.ndarray
    samples: int
    centre: tuple[int, ...] = (0,)
    bounds: tuple[str | None, ...] = ()
    #: The 95% percentile interval of elo[i] - elo[j] over the samples (of a ladder's step).
    difference_low: np.ndarray | None = None
    difference_high: np.ndarray | None = None


def bootstrap_ratings(deal_ids: np.ndarray, side_entrants: np.ndarray, shares: np.ndarray,
                      entrants: int, samples: int = 1000, seed: int = 0,
                      prior_draws: float = 1.0,
                      centre: Sequence[int] = (0,)) -> RatingIntervals:
    """`fit_ratings` on the games and on `samples` resamplings of whole deals. Each sample is
    centred on its own mean of the `centre` entrants, so every one of them (a single anchor
    aside) has an interval: how far it sits from their average level.

    An entrant that won every game it played (or none) has no finite most likely rating: the
    fit's value is the prior's. Its rating is then +-infinity with the one-sided bound of its
    sweep (as a head to head's, `sweep_estimate`): the rating at which it would score
    ONE_TAIL^(1/N) of its N deals' wins (or at most 1 - that), fitted with the other games as
    they are; and it leaves the centre, so that the others' ratings do not move with the
    prior."""
    deal_ids, side_entrants = np.asarray(deal_ids), np.asarray(side_entrants, dtype=np.int64)
    shares = np.asarray(shares, dtype=float)
    swept = sweeps(deal_ids, side_entrants, shares, entrants)
    centre = tuple(c for c in centre if c not in swept) or tuple(centre)
    games = GameTypes.of(side_entrants, shares, entrants)
    best = games.maximize(games.wins(None)[None], prior_draws)[0]
    point = games.ratings(best, centre)
    rng = np.random.default_rng(seed)
    deals, deal_index = np.unique(deal_ids, return_inverse=True)
    wins = np.empty((samples, *games.columns.shape[:2]))
    for sample in wins:  # filled in place: a list of them first would take twice the memory
        sample[:] = games.wins(deal_weights(deal_index.ravel(), len(deals), rng))
    fits = [games.ratings(params, centre) for params in games.maximize(wins, prior_draws, best)]
    elos, sides = [fit.elo for fit in fits], [fit.side_elo for fit in fits]
    elo = np.array(elos).reshape(samples, entrants)
    side = np.array(sides).reshape(samples, len(point.side_elo))
    p_better = better_fraction(elo) if samples else np.full((entrants, entrants), 0.5)
    np.fill_diagonal(p_better, 0.5)
    low, high = percentile_interval(elo.T, point.elo)
    side_low, side_high = percentile_interval(side.T, point.side_elo)
    gap_low, gap_high = difference_intervals(elo.T, point.elo)
    bounds: list[str | None] = [None] * entrants
    values = point.elo.copy()
    for e, (bound, units) in swept.items():
        shrunk = sweep_shares(side_entrants, shares, e, bound, units)
        limit = fit_ratings(side_entrants, shrunk, entrants, None, prior_draws, centre).elo[e]
        low[e], high[e] = (limit, np.nan) if bound == "lower" else (np.nan, limit)
        values[e] = math.inf if bound == "lower" else -math.inf
        bounds[e] = bound
    if len(centre) == 1:
        low[centre[0]] = high[centre[0]] = np.nan
        bounds[centre[0]] = "anchor"
    for e in range(entrants):  # every resampling alike (one deal, say): no spread was measured
        if bounds[e] is None and high[e] - low[e] <= TIE_ELO:
            low[e] = high[e] = np.nan
            bounds[e] = "unmeasured"
    return RatingIntervals(Ratings(values, point.side_elo), low, high, side_low, side_high,
                           p_better, samples, centre, tuple(bounds),
                           gap_low, gap_high)


def better_fraction(elo: np.ndarray) -> np.ndarray:
    """p[i, j]: the fraction of the samples (rows of elo) in which entrant i is rated above
    entrant j, ties (within TIE_ELO) one half; one entrant i at a time, as
    `difference_intervals`."""
    rows = []
    for mine in elo.T:
        gaps = mine[:, None] - elo
        rows.append(np.count_nonzero(gaps > TIE_ELO, axis=0)
                    + 0.5 * np.count_nonzero(np.abs(gaps) <= TIE_ELO, axis=0))
    return np.array(rows) / len(elo)


def difference_intervals(by_entrant: np.ndarray, point: np.ndarray
                         ) -> tuple[np.ndarray, np.ndarray]:
    """The percentile intervals of elo[i] - elo[j] (by_entrant[i]: entrant i's samples), one
    entrant i at a time: every pair's samples at once would take gigabytes of many entrants."""
    ends = [percentile_interval(samples - by_entrant, value - point)
            for samples, value in zip(by_entrant, point, strict=True)]
    return np.array([low for low, _ in ends]), np.array([high for _, high in ends])


def sweeps(deal_ids: np.ndarray, side_entrants: np.ndarray, shares: np.ndarray,
           entrants: int) -> dict[int, tuple[str, int]]:
    """The entrants that won every game they played ("lower": a rating bounded below only) or
    none ("upper"), each with the number of deals it played."""
    out = {}
    for e in range(entrants):
        on = side_entrants == e
        played = on.any(axis=1)
        if not played.any():
            continue
        share = (shares * on).sum(axis=1)[played]
        units = len(np.unique(deal_ids[played]))
        if np.all(share > 1 - 1e-9):
            out[e] = ("lower", units)
        elif np.all(share < 1e-9):
            out[e] = ("upper", units)
    return out


def sweep_shares(side_entrants: np.ndarray, shares: np.ndarray, e: int, bound: str,
                 units: int) -> np.ndarray:
    """The shares with entrant e's sweep made its bound: in each of its games it takes
    ONE_TAIL^(1/units) of the win ("lower"), or 1 - that ("upper"), the other sides the rest."""
    target = ONE_TAIL ** (1 / units)
    target = target if bound == "lower" else 1 - target
    on = side_entrants == e
    mine, theirs = on.sum(axis=1, keepdims=True), (~on).sum(axis=1, keepdims=True)
    if bound == "lower":  # e held the whole win, the others nothing
        shrunk = np.where(on, shares * target, (1 - target) / np.maximum(theirs, 1))
    else:  # e held nothing, the others the whole win
        shrunk = np.where(on, target / np.maximum(mine, 1), shares * (1 - target))
    return np.where(on.any(axis=1, keepdims=True), shrunk, shares)


def percentile_interval(samples: np.ndarray, point: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 2.5th and 97.5th percentiles of each quantity's samples (samples[i]: quantity i's),
    widened to hold the point estimate: ordered low <= point <= high by construction, whatever
    the rounding or the skew of a small bootstrap."""
    if not samples.shape[1]:
        return point.copy(), point.copy()  # two arrays: a sweep sets one end of each
    low, high = np.percentile(samples, [100 * ONE_TAIL, 100 * (1 - ONE_TAIL)], axis=1)
    return np.minimum(low, point), np.maximum(high, point)


# -- a score's logistic line in a covariate, and where it reaches a target ----------------------
@dataclass(frozen=True)
class ScoreLine:
    """logit(score) = intercept + slope * x, fitted by maximum likelihood to game scores (a
    shared win scores 1/2), with the covariance of (intercept, slope) robust to the games'
    clustering (sandwich: the games of a deal are not independent draws)."""

    intercept: float
    slope: float
    covariance: np.ndarray
    games: int
    clusters: int

    def x_at(self, logit: float) -> float:
        return (logit - self.intercept) / self.slope


def fit_score_line(x: Sequence[float], scores: Sequence[float],
                   clusters: Sequence[int]) -> ScoreLine | None:
    """The line through game g's score at x[g], the games of cluster c[g] one independent unit.
    None when the data cannot fix a line: fewer than two x values, two clusters, or both
    outcomes. The fit is the two-sided multinomial logit of `fit_ratings` with the design
    (1, x) for the scoring side, so one Newton solver serves both."""
    x, scores = np.asarray(x, dtype=float), np.asarray(scores, dtype=float)
    labels, cluster_index = np.unique(np.asarray(clusters), return_inverse=True)
    if len(np.unique(x)) < 2 or len(labels) < 2 or not 0 < scores.mean() < 1:
        return None
    unique, index = np.unique(x, return_inverse=True)
    design = np.zeros((len(unique), 2, 2))
    design[:, 0, 0], design[:, 0, 1] = 1.0, unique
    types = GameTypes.dense(design, index, np.stack([scores, 1 - scores], axis=1))
    wins = types.wins(None)[None]
    params = types.maximize(wins, 0.0)
    _, hessian = _gradient_hessian(types, wins, params, 0.0)
    residual = types.shares - _probabilities(types, params)[0][index]
    per_game = np.einsum("gj,gjp->gp", residual, design[index])
    per_cluster = np.zeros((len(labels), 2))
    np.add.at(per_cluster, cluster_index.ravel(), per_game)
    groups = len(labels)
    meat = per_cluster.T @ per_cluster * groups / (groups - 1)
    bread = np.linalg.inv(-hessian[0])
    (intercept, slope), = params
    return ScoreLine(float(intercept), float(slope), bread @ meat @ bread, len(x), groups)


def fieller_interval(line: ScoreLine, logit: float, logit_variance: float = 0.0,
                     z: float = Z95) -> tuple[float, float] | None:
    """Fieller's interval for the x at which the line reaches `logit` (itself uncertain by
    `logit_variance`, e.g. a target measured on games): every x where the test of
    intercept + slope * x = logit does not reject, |a + b x - L| <= z sqrt(Var(a + b x) + Var L).
    The quadratic A x^2 + B x + C <= 0 has a bounded solution only when the slope itself is
    significant (A > 0); else None (the data cannot bound the setting)."""
    a, b = line.intercept - logit, line.slope
    (vaa, vab), (_, vbb) = line.covariance
    quadratic = b * b - z * z * vbb
    if quadratic <= 0:
        return None
    linear = 2 * (a * b - z * z * vab)
    constant = a * a - z * z * (vaa + logit_variance)
    root = math.sqrt(max(linear * linear - 4 * quadratic * constant, 0.0))
    return (-linear - root) / (2 * quadratic), (-linear + root) / (2 * quadratic)


def logit(p: float) -> float:
    return math.log(p / (1 - p))
