//! The sequential stop: running sums over the deals drawn so far tell which moves are still in
//! contention and what choosing the best one now is expected to lose, so that easy decisions
//! take few deals and close ones up to the cap.

/// The paired z-score by which the best move drops another.
const CLEAR_Z: f64 = 3.0;

/// Running weighted sums over the deals drawn so far, from which any two moves in contention
/// compare without revisiting the deals: the weights' sum and sum of squares, and per move the
/// sum of weight times value, per pair of weight times the product of their values.
pub struct Tally {
    moves: usize,
    total: f64,
    squares: f64,
    sums: Vec<f64>,
    products: Vec<f64>,
}

impl Tally {
    pub fn new(moves: usize) -> Tally {
        Tally {
            moves,
            total: 0.0,
            squares: 0.0,
            sums: vec![0.0; moves],
            products: vec![0.0; moves * moves],
        }
    }

    /// One more deal of `weight`, on which move `i` of `active` is worth `values[i]`.
    pub fn add(&mut self, weight: f64, values: &[f64], active: &[usize]) {
        self.total += weight;
        self.squares += weight * weight;
        for (k, &i) in active.iter().enumerate() {
            self.sums[i] += values[i] * weight;
            for &j in &active[k..] {
                self.products[i * self.moves + j] += weight * values[i] * values[j];
            }
        }
    }

    fn product(&self, i: usize, j: usize) -> f64 {
        self.products[i.min(j) * self.moves + i.max(j)]
    }

    /// The position in `active` of the best move by weighted mean, and per move of `active` how
    /// far it trails the best and the standard error of that paired difference (over the
    /// effective sample size); None while the weights are too few to tell.
    fn compare(&self, active: &[usize]) -> Option<(usize, Vec<(f64, f64)>)> {
        let effective = if self.total > 0.0 {
            self.total * self.total / self.squares
        } else {
            0.0
        };
        if effective < 2.0 {
            return None;
        }
        let means: Vec<f64> = active.iter().map(|&i| self.sums[i] / self.total).collect();
        let mut best = 0;
        for (k, &m) in means.iter().enumerate() {
            if m > means[best] {
                best = k;
            }
        }
        let b = active[best];
        let gaps = active
            .iter()
            .zip(&means)
            .map(|(&i, &mean)| {
                let lead = means[best] - mean;
                let spread = (self.product(b, b) - 2.0 * self.product(b, i) + self.product(i, i))
                    / self.total
                    - lead * lead;
                (lead, (spread.max(0.0) / (effective - 1.0)).sqrt())
            })
            .collect();
        Some((best, gaps))
    }

    /// The moves of `active` that the best of them (by weighted mean) does not beat on the
    /// same deals by more than CLEAR_Z standard errors of the paired difference, and whose
    /// regret (`regret`, its error shrunk by `to_go` as in `expected_loss`) is at least `drop`:
    /// the search spends its deals on these only. A move that may beat the best by so little,
    /// so seldom, is not worth more deals.
    pub fn contenders(&self, active: &[usize], drop: f64, to_go: f64) -> Vec<usize> {
        let Some((best, gaps)) = self.compare(active) else {
            return active.to_vec();
        };
        let shrink = shrink(to_go);
        // A regret is positive for every move not clearly beaten (at z <= 3 it is at least
        // 0.00038 error), so without a drop the rule is domsim 0.2's: its cost is skipped.
        active
            .iter()
            .zip(&gaps)
            .enumerate()
            .filter(|&(k, (_, &(lead, error)))| {
                k == best
                    || lead <= CLEAR_Z * error
                        && (drop <= 0.0 || regret(lead, error * shrink) >= drop)
            })
            .map(|(_, (&i, _))| i)
            .collect()
    }

    /// The expected loss of choosing the best move of `active` now: summed over the others, the
    /// mean of how much better each may truly be (`regret`), under a normal law of the paired
    /// difference around its estimate (infinite while the weights are too few to tell). With
    /// `to_go`, the share of the cap's deals not yet drawn, it is the loss against the choice
    /// the cap would make instead: the paired difference the cap would end on spreads around
    /// today's estimate by its standard error times sqrt(to_go), so a decision still unresolved
    /// near the cap costs little to stop, while an early lead on few deals must be clear.
    pub fn expected_loss(&self, active: &[usize], to_go: f64) -> f64 {
        let Some((_, gaps)) = self.compare(active) else {
            return f64::INFINITY;
        };
        let shrink = shrink(to_go);
        gaps.iter()
            .map(|&(lead, error)| regret(lead, error * shrink))
            .sum()
    }
}

fn shrink(to_go: f64) -> f64 {
    to_go.clamp(0.0, 1.0).sqrt()
}

/// How much a move trailing the best by `lead`, with that standard error, is expected to beat
/// it by: E[max(D, 0)] for D normal around -lead (0 without an error: the lead is known).
fn regret(lead: f64, error: f64) -> f64 {
    if error <= 0.0 {
        return 0.0;
    }
    let z = lead / error;
    error * normal_density(z) - lead * normal_tail(z)
}

fn normal_density(z: f64) -> f64 {
    (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

/// P(Z > z) for a standard normal Z >= 0 (Abramowitz and Stegun 26.2.17, error below 7.5e-8).
fn normal_tail(z: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.2316419 * z);
    let poly = t
        * (0.319381530
            + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
    normal_density(z) * poly
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally_of(rows: &[Vec<f64>]) -> Tally {
        let mut tally = Tally::new(rows.len());
        let active: Vec<usize> = (0..rows.len()).collect();
        for d in 0..rows[0].len() {
            let on_deal: Vec<f64> = rows.iter().map(|row| row[d]).collect();
            tally.add(1.0, &on_deal, &active);
        }
        tally
    }

    #[test]
    fn contenders_drop_only_the_moves_clearly_beaten() {
        // One move worse by a point on every deal drops out; one that trades wins and losses
        // with the best, for the same mean, stays; a move alone is never dropped.
        let best: Vec<f64> = (0..16)
            .map(|i| if i % 2 == 0 { 1.0 } else { 2.0 })
            .collect();
        let beaten: Vec<f64> = best.iter().map(|v| v - 1.0).collect();
        let close: Vec<f64> = best.iter().map(|v| 3.0 - v).collect();
        let tally = tally_of(&[best, beaten, close]);
        assert_eq!(tally.contenders(&[0, 1, 2], 0.0, 1.0), vec![0, 2]);
        assert_eq!(tally.contenders(&[1], 0.0, 1.0), vec![1]);
    }

    #[test]
    fn a_drop_leaves_out_the_moves_that_may_beat_the_best_by_too_little() {
        // Behind the best by 0.1 on average (0.4 on every fourth deal, else tied): z ~ 2.2, not
        // clearly beaten, but the regret is ~2e-4: kept without a drop or with a smaller one,
        // left out by a drop of 1e-3; against the cap's choice with no deal to go, no regret.
        let best: Vec<f64> = (0..16).map(|i| [1.0, 1.0, 1.0, 1.4][i % 4]).collect();
        let near = vec![1.0; 16];
        let tally = tally_of(&[best, near]);
        let (lead, error) = (0.1, (0.03f64 / 15.0).sqrt());
        assert!(lead <= CLEAR_Z * error);
        let owed = regret(lead, error);
        assert!(owed > 1e-4 && owed < 1e-3, "{owed}");
        assert_eq!(tally.contenders(&[0, 1], 0.0, 1.0), vec![0, 1]);
        assert_eq!(tally.contenders(&[0, 1], 1e-5, 1.0), vec![0, 1]);
        assert_eq!(tally.contenders(&[0, 1], 1e-3, 1.0), vec![0]);
        assert_eq!(tally.contenders(&[0, 1], 1e-5, 0.0), vec![0]);
    }

    #[test]
    fn the_expected_loss_is_the_normal_regret_of_the_paired_difference() {
        // Two moves trading 1 and 3 with the best on alternate deals: a lead of 2 with a
        // standard error of sqrt(1 / 15); a tie with no spread costs nothing; one move alone
        // costs nothing; too few deals cannot tell.
        let best = vec![2.0; 16];
        let other: Vec<f64> = (0..16).map(|i| [1.0, -1.0][i % 2]).collect();
        let same = best.clone();
        let tally = tally_of(&[best, other, same]);
        let error = (1.0f64 / 15.0).sqrt();
        let z = 2.0 / error;
        let regret = error * normal_density(z) - 2.0 * normal_tail(z);
        assert!((tally.expected_loss(&[0, 1], 1.0) - regret).abs() < 1e-12);
        assert_eq!(tally.expected_loss(&[0, 2], 1.0), 0.0);
        assert_eq!(tally.expected_loss(&[1], 1.0), 0.0);
        assert_eq!(
            tally_of(&[vec![1.0], vec![2.0]]).expected_loss(&[0, 1], 1.0),
            f64::INFINITY
        );
        // Against the cap's choice the error shrinks by sqrt(to_go): a quarter of the deals
        // to go halves it, and at the cap there is nothing left to lose.
        let half = error / 2.0;
        let z = 2.0 / half;
        let regret = half * normal_density(z) - 2.0 * normal_tail(z);
        assert!((tally.expected_loss(&[0, 1], 0.25) - regret).abs() < 1e-12);
        assert_eq!(tally.expected_loss(&[0, 1], 0.0), 0.0);
        // The tail against known values of the standard normal.
        for (z, tail) in [
            (0.0, 0.5),
            (1.0, 0.158_655_25),
            (2.0, 0.022_750_13),
            (3.0, 0.001_349_9),
        ] {
            assert!((normal_tail(z) - tail).abs() < 1e-7, "{z}");
        }
    }
}
