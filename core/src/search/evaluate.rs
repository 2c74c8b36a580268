//! How a decision's moves are valued: each played out (or solved) on the same sampled deals,
//! deals spent only on the moves still in contention, until the sequential stop.

use std::time::{Duration, Instant};

use super::judge::Judge;
use super::mirror::distinct_moves;
use super::playout::{Policy, Stream};
use super::solver::{solvable, Solver};
use super::stop::Tally;
use crate::model::{Mixture, TableModel};
use crate::rng::Xoshiro;
use crate::state::Table;
use crate::tiles::heaviness;

/// Deals between two checks for a clear winner, and the fewest before the first (domsim 0.2's
/// floor): a move clearly beaten drops out from then on, however high the floor of the stop.
const BATCH: usize = 8;
const DROP_FLOOR: usize = 8;

/// How hard insane searches: deals per decision at most, a time budget (0: none), the tiles in
/// hands from which the exact solver takes over, and the playout policy's shape.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub samples: usize,
    pub budget_ms: f64,
    pub exact_tiles: u32,
    pub random_share: f64,
    pub block: f64,
    pub follow: f64,
    /// How strongly deals are weighted by the other seats' plays (0: not).
    pub beta: f64,
    /// Deals drawn before the search may stop on its expected loss or budget (it checks every
    /// BATCH; moves clearly beaten drop out from DROP_FLOOR deals, or the floor if lower).
    pub floor: usize,
    /// The expected loss of choosing now (`Tally::expected_loss`, in the judge's currency)
    /// below which a decision stops (0: only when one move is left).
    pub loss: f64,
    /// Whether that loss is against the choice the cap of deals would make (the stop's
    /// `to_go`) rather than against infinitely many deals.
    pub against_cap: bool,
    /// Past the floor, a move in contention whose regret (how much it is expected to beat the
    /// best by, `Tally::contenders`) is below this is no longer played out (0: only the moves
    /// clearly beaten drop out).
    pub drop: f64,
    /// Whether a tile that may go on either of two ends showing the same number is valued on
    /// one of them only (`distinct_moves`: the other leaves the mirror image).
    pub merge_mirrors: bool,
    /// Where the playouts' random numbers come from.
    pub stream: Stream,
    /// The learned play model weighting the deals in place of `beta`'s heavy-tile one (which
    /// it mixes in), if any.
    pub model: Option<Mixture>,
    /// Deals drawn for each one searched, which is picked among them by weight (`Deals`; 1:
    /// each deal drawn is searched).
    pub resample: usize,
    /// The other seats' moves of each playout, its first ones, drawn from `model`'s nets
    /// (`Policy::play_out_modelled`; 0: the policy plays every seat).
    pub model_moves: usize,
}

/// Per move, its value on each deal drawn while it was in contention (the same deals for every
/// move), and each deal's weight.
pub struct Evaluation {
    pub values: Vec<Vec<f64>>,
    pub weights: Vec<f64>,
}

impl Evaluation {
    /// The move of the best weighted mean among those still in contention at the end (ties: the
    /// heavier tile, then the first).
    pub fn best(&self, moves: &[u8]) -> u8 {
        let mut best = None;
        for (i, row) in self.values.iter().enumerate() {
            if row.len() != self.weights.len() {
                continue;
            }
            let key = (weighted_mean(row, &self.weights), heaviness(moves[i] >> 2));
            if best.is_none_or(|(_, k): (usize, (f64, i32))| {
                key.0 > k.0 || (key.0 == k.0 && key.1 > k.1)
            }) {
                best = Some((i, key));
            }
        }
        moves[best.expect("one move is always in contention").0]
    }
}

fn weighted_mean(values: &[f64], weights: &[f64]) -> f64 {
    let total: f64 = weights.iter().sum();
    if total == 0.0 {
        return values.iter().sum::<f64>() / values.len() as f64;
    }
    values.iter().zip(weights).map(|(v, w)| v * w).sum::<f64>() / total
}

/// Evaluate `moves` of the seat to move on the deals `deal` draws (each a Table at the position
/// to decide, with its weight), the playouts playing the other seats by `table` (built for these
/// `moves`) if given.
pub fn evaluate(
    settings: &Settings,
    judge: Judge,
    moves: &[u8],
    table: Option<&TableModel>,
    rng: &mut Xoshiro,
    mut deal: impl FnMut(&mut Xoshiro) -> Result<(Table, f64), String>,
) -> Result<Evaluation, String> {
    let deadline = (settings.budget_ms > 0.0)
        .then(|| Instant::now() + Duration::from_secs_f64(settings.budget_ms / 1000.0));
    let mut sampling = Sampling::new(settings, judge, moves, table);
    for done in 1..=settings.samples {
        let (base, weight) = deal(rng)?;
        if done == 1 && settings.merge_mirrors {
            // The open ends are the same on every deal.
            sampling.active = distinct_moves(&base, moves);
        }
        sampling.value_deal(&base, weight, rng);
        if done >= settings.floor.min(DROP_FLOOR)
            && done % BATCH == 0
            && sampling.settled(done, deadline)
        {
            break;
        }
    }
    Ok(sampling.evaluation)
}

/// One decision's sampling under way.
struct Sampling<'a> {
    settings: &'a Settings,
    judge: Judge,
    moves: &'a [u8],
    evaluation: Evaluation,
    tally: Tally,
    /// The moves still in contention, and their values on the last deal.
    active: Vec<usize>,
    on_deal: Vec<f64>,
    /// Its table holds whole deals: every deal may share it.
    solver: Option<Solver>,
    policy: Policy,
    table: Option<&'a TableModel<'a>>,
}

impl<'a> Sampling<'a> {
    fn new(
        settings: &'a Settings,
        judge: Judge,
        moves: &'a [u8],
        table: Option<&'a TableModel<'a>>,
    ) -> Sampling<'a> {
        let policy = Policy::new(
            settings.random_share,
            settings.block,
            settings.follow,
            settings.stream,
        );
        Sampling {
            settings,
            judge,
            moves,
            evaluation: Evaluation {
                values: vec![Vec::with_capacity(settings.samples); moves.len()],
                weights: Vec::with_capacity(settings.samples),
            },
            tally: Tally::new(moves.len()),
            active: (0..moves.len()).collect(),
            on_deal: vec![0.0; moves.len()],
            solver: None,
            policy: if table.is_some() {
                policy.modelled()
            } else {
                policy
            },
            table,
        }
    }

    /// Value every move in contention on the deal `base` of `weight`: solved exactly once few
    /// tiles remain, else played out on the deal's stream of random numbers. Inlined into its one
    /// caller, as it was written there: out of line, every copy of the deal's table becomes a
    /// memcpy call (about 1% more instructions).
    #[inline(always)]
    fn value_deal(&mut self, base: &Table, weight: f64, rng: &mut Xoshiro) {
        self.evaluation.weights.push(weight);
        let exact = solvable(base, self.settings.exact_tiles + 1);
        self.policy.new_stream(rng);
        for &i in &self.active {
            let mut child = *base;
            child.play(self.moves[i]);
            self.on_deal[i] = if exact {
                let (judge, rules) = (self.judge, &base.rules);
                let solver = self.solver.get_or_insert_with(|| Solver::new(judge, rules));
                solver.value(&child, f64::NEG_INFINITY, f64::INFINITY)
            } else {
                match self.table {
                    Some(table) => self.policy.play_out_modelled(&mut child, table, i),
                    None => self.policy.play_out(&mut child),
                }
                self.judge.value(&child)
            };
            self.evaluation.values[i].push(self.on_deal[i]);
        }
        self.tally.add(weight, &self.on_deal, &self.active);
    }

    /// Drop the moves clearly beaten (past the floor, also those of too little regret);
    /// whether the decision is made after `done` deals: one move left or, past the floor, the
    /// expected loss of choosing now below the setting's or the time budget spent.
    fn settled(&mut self, done: usize, deadline: Option<Instant>) -> bool {
        let (past_floor, to_go) = (done >= self.settings.floor, self.to_go(done));
        let drop = if past_floor { self.settings.drop } else { 0.0 };
        self.active = self.tally.contenders(&self.active, drop, to_go);
        self.active.len() == 1
            || past_floor
                && (self.tally.expected_loss(&self.active, to_go) < self.settings.loss
                    || deadline.is_some_and(|d| Instant::now() > d))
    }

    /// The share of the cap's deals not yet drawn, where the loss is against the cap's choice.
    fn to_go(&self, done: usize) -> f64 {
        if self.settings.against_cap {
            1.0 - done as f64 / self.settings.samples as f64
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets;
    use crate::tiles::tile_id;

    /// A block game of 2 in which seat 1, holding `led` and `others`, led `led` on seat 0's
    /// `own`; and seat 0's legal moves.
    fn after_lead(own: &[(u8, u8)], led: (u8, u8), others: &[(u8, u8)]) -> (Table, Vec<u8>) {
        let mut t = Table::new(presets::rules("block", 2));
        let hand = |tiles: &[(u8, u8)]| tiles.iter().fold(0, |m, &(a, b)| m | 1 << tile_id(a, b));
        t.start_hand(&[hand(own), hand(others) | hand(&[led])], &[], 1, -1);
        t.play(tile_id(led.0, led.1) << 2);
        let moves = t.legal_vec();
        (t, moves)
    }

    fn settings(samples: usize, exact_tiles: u32, floor: usize, loss: f64) -> Settings {
        Settings {
            samples,
            budget_ms: 0.0,
            exact_tiles,
            random_share: 0.1,
            block: 4.0,
            follow: 2.0,
            beta: 0.0,
            floor,
            loss,
            against_cap: false,
            drop: 0.0,
            merge_mirrors: false,
            stream: Stream::Drawn,
            model: None,
            resample: 1,
            model_moves: 0,
        }
    }

    /// Block, 2 players, all hands known: ends 3|4, seat 0 holds 0-3 and 4-6, seat 1 holds 5-6
    /// (R-END, R-SCORE-BASIC). 0-3 wins 11, 4-6 loses 3: the search on that one deal picks 0-3.
    #[test]
    fn the_search_on_a_known_deal_takes_the_solvers_best() {
        let (t, moves) = after_lead(&[(0, 3), (4, 6)], (3, 4), &[(5, 6)]);
        let judge = Judge::new(&t.rules, 0);
        let evaluation = evaluate(
            &settings(1, 7, 8, 0.0),
            judge,
            &moves,
            None,
            &mut Xoshiro::new(0),
            |_| Ok((t, 1.0)),
        )
        .unwrap();
        assert_eq!(evaluation.best(&moves) >> 2, tile_id(0, 3));
        let mut values: Vec<f64> = evaluation.values.iter().map(|row| row[0]).collect();
        values.sort_by(f64::total_cmp);
        assert_eq!(values, vec![-3.0, 11.0]);
    }

    /// The same deal with a floor of 32 and no loss: 4-6, beaten by 14 on every deal, drops out
    /// at the first check (8 deals, domsim 0.2's floor), and with one move left the search stops.
    #[test]
    fn a_move_clearly_beaten_drops_out_below_a_higher_floor() {
        let (t, moves) = after_lead(&[(0, 3), (4, 6)], (3, 4), &[(5, 6)]);
        let judge = Judge::new(&t.rules, 0);
        let evaluation = evaluate(
            &settings(256, 7, 32, 0.0),
            judge,
            &moves,
            None,
            &mut Xoshiro::new(0),
            |_| Ok((t, 1.0)),
        )
        .unwrap();
        let lengths: Vec<usize> = evaluation.values.iter().map(Vec::len).collect();
        assert_eq!((lengths, evaluation.weights.len()), (vec![8, 8], 8));
        assert_eq!(evaluation.best(&moves) >> 2, tile_id(0, 3));
    }

    /// A stop on the expected loss ends the search early, on the very deals (and values) that
    /// the search without one (domsim 0.2's, floor 8) drew first: the generator serves each deal
    /// and its playouts' stream alike whatever the moves in contention, and the same moves drop
    /// out at the same checks.
    #[test]
    fn an_early_stop_searches_a_prefix_of_the_full_searchs_deals() {
        let (t, moves) = after_lead(&[(3, 5), (3, 6), (0, 0)], (3, 3), &[(1, 2), (4, 6)]);
        let judge = Judge::new(&t.rules, 0);
        let search = |floor: usize, loss: f64| {
            let mut deal = |rng: &mut Xoshiro| Ok((t, 0.5 + rng.random()));
            evaluate(
                &settings(512, 0, floor, loss),
                judge,
                &moves,
                None,
                &mut Xoshiro::new(3),
                &mut deal,
            )
            .unwrap()
        };
        let (early, full) = (search(32, 0.5), search(8, 0.0));
        assert!(early.weights.len() < full.weights.len());
        assert_eq!(early.weights[..], full.weights[..early.weights.len()]);
        for (row, whole) in early.values.iter().zip(&full.values) {
            assert_eq!(row[..], whole[..row.len().min(whole.len())]);
        }
    }

    /// Block, 2 players: seat 1 led 3-3, so both ends show 3; seat 0's 3-5 and 3-6 each fit
    /// both. Merging mirrors, the search values them on end 0 only and chooses there; without,
    /// it values all four.
    #[test]
    fn merged_mirrors_are_valued_on_the_first_end_only() {
        let (t, moves) = after_lead(&[(3, 5), (3, 6), (0, 0)], (3, 3), &[(1, 2), (4, 6)]);
        assert_eq!(moves.len(), 4);
        let judge = Judge::new(&t.rules, 0);
        let valued = |merge: bool| {
            let mut s = settings(64, 0, 8, 0.0);
            s.merge_mirrors = merge;
            let evaluation = evaluate(&s, judge, &moves, None, &mut Xoshiro::new(2), |_| {
                Ok((t, 1.0))
            })
            .unwrap();
            let rows: Vec<u8> = (0..moves.len())
                .filter(|&i| !evaluation.values[i].is_empty())
                .map(|i| moves[i] & 3)
                .collect();
            (rows, evaluation.best(&moves) & 3)
        };
        assert_eq!(valued(true), (vec![0, 0], 0));
        assert_eq!(valued(false).0.len(), 4);
    }

    /// Block, 2 players: seat 1 led 3-3, seat 0 holds 3-5 and 0-0: laying 3-5 on either end
    /// leaves the same line, so the two moves tie on every deal. Without a loss nothing tells
    /// them apart and the search spends every deal; with one, it stops at the floor.
    #[test]
    fn a_loss_stops_a_decision_that_cannot_matter_at_the_floor() {
        let (t, moves) = after_lead(&[(3, 5), (0, 0)], (3, 3), &[(1, 2), (4, 6)]);
        assert_eq!(moves.len(), 2);
        let deals = |loss: f64| {
            let judge = Judge::new(&t.rules, 0);
            evaluate(
                &settings(256, 0, 32, loss),
                judge,
                &moves,
                None,
                &mut Xoshiro::new(1),
                |_| Ok((t, 1.0)),
            )
            .unwrap()
            .weights
            .len()
        };
        assert_eq!((deals(0.0), deals(0.01)), (256, 32));
    }
}
