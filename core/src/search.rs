//! Determinized search (R-LEVEL insane): every legal move is played out to the end of the hand on
//! the same sampled deals, and the move with the best average value is chosen.
//!
//! A deal is a `Table` at the view's position with the hidden hands filled in. From it a move is
//! valued by a fast playout (`Policy`: every seat, seeing the whole deal, dumps its heaviest
//! playable tile, favouring one that shuts out the next seat or keeps a follow-up, now and then a
//! random one, with the same random numbers for every move on a deal) or, once few tiles remain,
//! nothing is left to draw and the game has two sides, by an exact alpha-beta solver with a
//! transposition table (`Solver`). Values are in the variant's own currency (`Judge`). Each deal
//! may be weighted by how likely the other seats' plays were on it (`PlayModel`), and sampling
//! spends its deals on the moves still in contention: a move clearly beaten by the best is no
//! longer played out, and sampling stops once one move is left or, with a `loss` setting, once
//! the expected loss of choosing the best so far is below it (a sequential stop: easy decisions
//! take few deals, close ones up to the cap; `Tally::expected_loss`).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::action::Kind;
use crate::belief::{Belief, PlayModel};
use crate::game::Game;
use crate::rng::Xoshiro;
use crate::rules::{Rules, Scheme};
use crate::scoring::fives_points;
use crate::state::{Line, Table};
use crate::tiles::{fitting, heaviness, mask_pips, other_number, ALL_TILES, NUMBER_MASK};
use crate::view::View;

/// Share of the target that winning (or losing) the match is worth on top of the hand's points.
pub const MATCH_SHARE: f64 = 0.5;
/// classic values a hand by its win share, plus this much per pip the others hold more than the
/// seat: the pips decide a blocked hand, and they sort the playouts a win share scores alike.
pub const CLASSIC_PIP: f64 = 0.01;
/// Samples between two checks for a clear winner, and the paired z-score that drops a move.
const BATCH: usize = 8;
const CLEAR_Z: f64 = 3.0;
/// Random numbers drawn per deal and replayed in every move's playout on it (common random
/// numbers: the moves' values on a deal then differ by the move, not by the playouts' luck).
const STREAM: usize = 64;

/// The value of a finished hand for one seat, in the variant's currency: its side's points minus
/// the others' mean (kozel: reversed, the records are against), classic's win share plus a pip
/// term, and `MATCH_SHARE * target` more or less when the hand decides the match.
#[derive(Clone, Copy)]
pub struct Judge {
    pub seat: u8,
    side: usize,
    sides: usize,
    scheme: Scheme,
    bonus: f64,
}

impl Judge {
    pub fn new(rules: &Rules, seat: u8) -> Judge {
        Judge {
            seat,
            side: rules.side_of(seat as usize),
            sides: rules.sides(),
            scheme: rules.scheme,
            bonus: MATCH_SHARE * rules.target as f64,
        }
    }

    /// The value of `t`, whose hand is over.
    pub fn value(&self, t: &Table) -> f64 {
        let o = t.outcome.expect("the judge values finished hands");
        if self.scheme == Scheme::Classic {
            let share = if o.winners >> self.seat & 1 == 1 {
                1.0 / o.winners.count_ones() as f64
            } else {
                0.0
            };
            let n = t.rules.players;
            let pips: Vec<f64> = (0..n).map(|s| mask_pips(t.hands[s]) as f64).collect();
            let mine = pips[self.seat as usize];
            let others = (pips.iter().sum::<f64>() - mine) / (n - 1) as f64;
            return share + CLASSIC_PIP * (others - mine);
        }
        let mine = o.points[self.side] as f64;
        let total: i32 = o.points[..self.sides].iter().sum();
        let others = (total as f64 - mine) / (self.sides - 1) as f64;
        let mut value = if self.scheme == Scheme::Kozel {
            others - mine
        } else {
            mine - others
        };
        if t.match_over {
            value += if t.match_winners >> self.seat & 1 == 1 {
                self.bonus
            } else {
                -self.bonus
            };
        }
        value
    }
}

/// What a playout plays on: a bare Table (the search's), or a Game that keeps its history
/// and results (the Python API's).
pub trait Playable {
    fn table(&self) -> &Table;
    /// Draw or pass for a seat with no play; false when the seat can play.
    fn step_forced(&mut self) -> bool;
    fn play(&mut self, mv: u8);
}

impl Playable for Table {
    fn table(&self) -> &Table {
        self
    }
    fn step_forced(&mut self) -> bool {
        Table::step_forced(self).is_some()
    }
    fn play(&mut self, mv: u8) {
        Table::play(self, mv);
    }
}

impl Playable for Game {
    fn table(&self) -> &Table {
        &self.t
    }
    fn step_forced(&mut self) -> bool {
        Game::step_forced(self)
    }
    fn play(&mut self, mv: u8) {
        Game::play(self, mv);
    }
}

/// How every seat plays in a playout, seeing the whole sampled deal (see the module's doc).
pub struct Policy {
    random_share: f64,
    block: f64,
    follow: f64,
    stream: [f64; STREAM],
}

impl Policy {
    /// `block` and `follow` in pips, as the insane parameters give them.
    pub fn new(random_share: f64, block: f64, follow: f64) -> Policy {
        Policy {
            random_share,
            block: block * 8.0,
            follow: follow * 8.0,
            stream: [0.0; STREAM],
        }
    }

    /// Draw the random numbers that the following playouts replay.
    pub fn new_stream(&mut self, rng: &mut Xoshiro) {
        if self.random_share > 0.0 {
            for x in self.stream.iter_mut() {
                *x = rng.random();
            }
        }
    }

    /// Play `position` to the end of the hand (a Game: with its history and results).
    pub fn play_out<P: Playable>(&self, position: &mut P) {
        let mut drawn = 0usize;
        let mut moves = [0u8; 112];
        while !position.table().hand_over {
            if position.step_forced() {
                continue;
            }
            let n = position.table().legal_moves(&mut moves);
            let mv = self.choose(position.table(), &moves[..n], &mut drawn);
            position.play(mv);
        }
    }

    fn chance(&self, drawn: &mut usize) -> f64 {
        let x = self.stream[*drawn % STREAM];
        *drawn += 1;
        x
    }

    fn choose(&self, t: &Table, moves: &[u8], drawn: &mut usize) -> u8 {
        if moves.len() == 1 {
            return moves[0];
        }
        if self.random_share > 0.0 && self.chance(drawn) < self.random_share {
            return moves[(self.chance(drawn) * moves.len() as f64) as usize];
        }
        if t.n_ends == 0 {
            return first_max_by(moves, |m| heaviness(m >> 2) as f64);
        }
        let seat = t.to_move;
        let hand = t.hands[seat as usize];
        let after = t.hands[t.next_seat(seat) as usize];
        let ends = &t.ends;
        let mut others = [0u32; 4];
        if t.n_ends == 2 {
            others[0] = NUMBER_MASK[ends[1] as usize];
            others[1] = NUMBER_MASK[ends[0] as usize];
        } else {
            for (e, other) in others.iter_mut().enumerate() {
                let numbers = (0..4)
                    .filter(|&i| i != e)
                    .fold(0u8, |m, i| m | 1 << ends[i]);
                *other = fitting(numbers);
            }
        }
        // In fives games a move's key puts first the points it makes (R-FIVES-COUNT).
        let fives = t.rules.fives();
        let line = Line::of(t);
        first_max_by(moves, |mv| {
            let (tile, end) = (mv >> 2, (mv & 3) as usize);
            let number = ends[end];
            let shown = other_number(tile, number);
            let fit = others[end] | NUMBER_MASK[shown as usize];
            let mut key = heaviness(tile) as f64;
            if fives {
                key += fives_points(line.after(mv).count()) as f64 * 1024.0;
            }
            if after & fit == 0 {
                key += self.block;
            }
            if hand & !(1 << tile) & fit != 0 {
                key += self.follow;
            }
            key
        })
    }
}

/// The first move with the greatest key.
fn first_max_by(moves: &[u8], key: impl Fn(u8) -> f64) -> u8 {
    let mut best = moves[0];
    let mut best_key = f64::NEG_INFINITY;
    for &mv in moves {
        let k = key(mv);
        if k > best_key {
            best = mv;
            best_key = k;
        }
    }
    best
}

/// Whether the exact solver applies: two sides, no spinner, nothing left to draw, and at most
/// `max_tiles` tiles in hands.
pub fn solvable(t: &Table, max_tiles: u32) -> bool {
    t.rules.sides() == 2 && !t.rules.spinner && !t.can_draw() && t.tiles_in_hands() <= max_tiles
}

/// Exact minimax value of a fully known position for the judge's side (alpha-beta, fail-soft,
/// with a transposition table of bounds keyed on the hands, ends, seat to move and passes, and
/// in fives the end counts and points made).
pub struct Solver {
    judge: Judge,
    table: HashMap<u128, (f64, f64), BuildKeyHasher>,
    fives: bool,
    maximizing: [bool; 4],
}

impl Solver {
    pub fn new(judge: Judge, rules: &Rules) -> Solver {
        let side = rules.side_of(judge.seat as usize);
        Solver {
            judge,
            table: HashMap::with_capacity_and_hasher(1 << 14, BuildKeyHasher),
            fives: rules.fives(),
            maximizing: std::array::from_fn(|s| s < rules.players && rules.side_of(s) == side),
        }
    }

    fn key(&self, t: &Table) -> u128 {
        let h = &t.hands;
        let mut key = h[0] as u128 | (h[1] as u128) << 28;
        if self.fives {
            // Two seats: the room of seats 2 and 3 holds the counts and the points made.
            let c = (t.end_counts[0] as u128) | (t.end_counts[1] as u128) << 4;
            let p = (t.hand_points[0] as u128 & 0xffff) | (t.hand_points[1] as u128 & 0xffff) << 16;
            key |= (c | p << 8) << 56;
        } else {
            key |= (h[2] as u128) << 56 | (h[3] as u128) << 84;
        }
        let small = (t.ends[0] as u128 * 7 + t.ends[1] as u128)
            | (t.to_move as u128) << 6
            | (t.passes as u128) << 8;
        key | small << 112
    }

    pub fn value(&mut self, t: &Table, alpha: f64, beta: f64) -> f64 {
        if t.hand_over {
            return self.judge.value(t);
        }
        let key = self.key(t);
        let (low, high) = self
            .table
            .get(&key)
            .copied()
            .unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
        if low >= beta || low == high {
            return low;
        }
        if high <= alpha {
            return high;
        }
        let (alpha, beta) = (alpha.max(low), beta.min(high));
        let mut moves = [0u8; 112];
        let n = t.legal_moves(&mut moves);
        let best = if n == 0 {
            let mut child = *t;
            child.pass_turn();
            self.value(&child, alpha, beta)
        } else {
            let moves = &mut moves[..n];
            moves.sort_by_key(|&m| std::cmp::Reverse(heaviness(m >> 2)));
            self.search(t, moves, alpha, beta)
        };
        let bounds = if best <= alpha {
            (low, best)
        } else if best >= beta {
            (best, high)
        } else {
            (best, best)
        };
        self.table.insert(key, bounds);
        best
    }

    fn search(&mut self, t: &Table, moves: &[u8], mut alpha: f64, mut beta: f64) -> f64 {
        let maximize = self.maximizing[t.to_move as usize];
        let mut best = if maximize {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for &mv in moves {
            let mut child = *t;
            child.play(mv);
            let value = self.value(&child, alpha, beta);
            if maximize {
                best = best.max(value);
                alpha = alpha.max(value);
            } else {
                best = best.min(value);
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// A multiplicative hash of the solver's u128 keys (the std SipHash is several times slower and
/// the keys are not chosen by an adversary).
#[derive(Clone, Copy, Default)]
pub struct BuildKeyHasher;

#[derive(Default)]
pub struct KeyHasher(u64);

impl std::hash::BuildHasher for BuildKeyHasher {
    type Hasher = KeyHasher;
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(0)
    }
}

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
}

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
    /// Deals drawn before the search may drop a move or stop (then it checks every BATCH).
    pub floor: usize,
    /// The expected loss of choosing now (`Tally::expected_loss`, in the judge's currency)
    /// below which a decision stops (0: only when one move is left).
    pub loss: f64,
}

/// A Table at the view's position: the line, the fives points, the scores and the seat to move
/// as in the game, every hand holding placeholder tiles until a deal is filled in; and the tiles
/// that fitted the open ends before each action of the history.
pub fn position(view: &View) -> (Table, Vec<u32>) {
    let players = view.players();
    let mut played = [0u32; 4];
    let mut draws = 0;
    for a in &view.actions {
        match a.kind() {
            Kind::Play => played[a.seat() as usize] |= 1 << a.tile(),
            Kind::Draw => draws += 1,
            Kind::Pass => {}
        }
    }
    // Unplayed tiles in every hand keep hands from emptying while the history is replayed.
    let filler = ALL_TILES & !played.iter().fold(0, |m, p| m | p);
    let mut t = Table::new(view.rules);
    t.carry = view.carry;
    let hands: Vec<u32> = played[..players].iter().map(|p| p | filler).collect();
    t.start_hand(&hands, &vec![0u8; draws], view.leader, -1);
    let mut fits = Vec::with_capacity(view.actions.len());
    for a in &view.actions {
        fits.push(if fits.is_empty() {
            ALL_TILES
        } else {
            fitting(t.open_numbers())
        });
        match a.kind() {
            Kind::Play => t.play(a.mv()),
            Kind::Draw => t.draw(),
            Kind::Pass => t.pass_turn(),
        };
    }
    t.scores = view.scores;
    (t, fits)
}

/// `template` holding a full deal: every hand, and the undrawn boneyard in draw order.
pub fn with_deal(template: &Table, hands: &[u32; 4], boneyard: &[u8]) -> Table {
    let mut t = *template;
    t.hands = *hands;
    let kept = if t.rules.draws { boneyard } else { &[] };
    t.boneyard[..kept.len()].copy_from_slice(kept);
    t.bone_len = kept.len() as u8;
    t.drawn = 0;
    t
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

/// Evaluate `moves` of the seat to move on the deals `deal` draws (each a Table at the position
/// to decide, with its weight).
pub fn evaluate(
    settings: &Settings,
    judge: Judge,
    moves: &[u8],
    rng: &mut Xoshiro,
    mut deal: impl FnMut(&mut Xoshiro) -> Result<(Table, f64), String>,
) -> Result<Evaluation, String> {
    let deadline = (settings.budget_ms > 0.0)
        .then(|| Instant::now() + Duration::from_secs_f64(settings.budget_ms / 1000.0));
    let mut values: Vec<Vec<f64>> = vec![Vec::with_capacity(settings.samples); moves.len()];
    let mut weights = Vec::with_capacity(settings.samples);
    let mut tally = Tally::new(moves.len());
    let mut on_deal = vec![0.0; moves.len()];
    let mut active: Vec<usize> = (0..moves.len()).collect();
    let mut solver: Option<Solver> = None; // its table holds whole deals: every deal may share it
    let mut policy = Policy::new(settings.random_share, settings.block, settings.follow);
    for done in 1..=settings.samples {
        let (base, weight) = deal(rng)?;
        weights.push(weight);
        let exact = solvable(&base, settings.exact_tiles + 1);
        policy.new_stream(rng);
        for &i in &active {
            let mut child = base;
            child.play(moves[i]);
            on_deal[i] = if exact {
                let solver = solver.get_or_insert_with(|| Solver::new(judge, &base.rules));
                solver.value(&child, f64::NEG_INFINITY, f64::INFINITY)
            } else {
                policy.play_out(&mut child);
                judge.value(&child)
            };
            values[i].push(on_deal[i]);
        }
        tally.add(weight, &on_deal, &active);
        if done >= settings.floor && done % BATCH == 0 {
            active = tally.contenders(&active);
            if active.len() == 1
                || tally.expected_loss(&active) < settings.loss
                || deadline.is_some_and(|d| Instant::now() > d)
            {
                break;
            }
        }
    }
    Ok(Evaluation { values, weights })
}

fn weighted_mean(values: &[f64], weights: &[f64]) -> f64 {
    let total: f64 = weights.iter().sum();
    if total == 0.0 {
        return values.iter().sum::<f64>() / values.len() as f64;
    }
    values.iter().zip(weights).map(|(v, w)| v * w).sum::<f64>() / total
}

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
    /// same deals by more than CLEAR_Z standard errors of the paired difference: the search
    /// spends its deals on these only.
    pub fn contenders(&self, active: &[usize]) -> Vec<usize> {
        let Some((best, gaps)) = self.compare(active) else {
            return active.to_vec();
        };
        active
            .iter()
            .zip(&gaps)
            .enumerate()
            .filter(|&(k, (_, &(lead, error)))| k == best || lead <= CLEAR_Z * error)
            .map(|(_, (&i, _))| i)
            .collect()
    }

    /// The expected loss of choosing the best move of `active` now: summed over the others, the
    /// mean of how much better each may truly be, under a normal law of the paired difference
    /// around its estimate (infinite while the weights are too few to tell).
    pub fn expected_loss(&self, active: &[usize]) -> f64 {
        let Some((_, gaps)) = self.compare(active) else {
            return f64::INFINITY;
        };
        gaps.iter()
            .filter(|&&(_, error)| error > 0.0)
            .map(|&(lead, error)| {
                let z = lead / error;
                error * normal_density(z) - lead * normal_tail(z)
            })
            .sum()
    }
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

/// The deals a view's seat may face: sampled from its belief, each weighted by how likely the
/// other seats' plays were on it (`settings.beta`, 0: all alike).
pub struct Deals {
    belief: Belief,
    template: Table,
    model: Option<PlayModel>,
    seat: u8,
    hand: u32,
}

impl Deals {
    pub fn new(view: &View, beta: f64) -> Result<Deals, String> {
        let belief = Belief::of(view)?;
        let (template, fits) = position(view);
        let model = (beta != 0.0).then(|| PlayModel::new(view, &fits, beta));
        Ok(Deals {
            belief,
            template,
            model,
            seat: view.seat,
            hand: view.hand,
        })
    }

    /// The next deal, as a Table at the view's position, and its weight.
    pub fn next(&mut self, rng: &mut Xoshiro) -> Result<(Table, f64), String> {
        let (placed, rest) = self.belief.sample(rng)?;
        let mut hands = [0u32; 4];
        hands[self.seat as usize] = self.hand;
        for (i, &s) in self.belief.seats.iter().enumerate() {
            hands[s as usize] = placed[i];
        }
        let weight = self.model.as_ref().map_or(1.0, |m| m.likelihood(&hands));
        Ok((with_deal(&self.template, &hands, &rest), weight))
    }
}

/// insane's move for the view's seat.
pub fn choose(view: &View, settings: &Settings, seed: u64) -> Result<u8, String> {
    let mut rng = Xoshiro::new(seed);
    let mut deals = Deals::new(view, settings.beta)?;
    let judge = Judge::new(&view.rules, view.seat);
    let evaluation = evaluate(settings, judge, &view.legal, &mut rng, |rng| {
        deals.next(rng)
    })?;
    Ok(evaluation.best(&view.legal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets;
    use crate::tiles::tile_id;

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
        assert_eq!(tally.contenders(&[0, 1, 2]), vec![0, 2]);
        assert_eq!(tally.contenders(&[1]), vec![1]);
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
        assert!((tally.expected_loss(&[0, 1]) - regret).abs() < 1e-12);
        assert_eq!(tally.expected_loss(&[0, 2]), 0.0);
        assert_eq!(tally.expected_loss(&[1]), 0.0);
        assert_eq!(
            tally_of(&[vec![1.0], vec![2.0]]).expected_loss(&[0, 1]),
            f64::INFINITY
        );
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

    /// Block, 2 players, all hands known: ends 3|4, seat 0 holds 0-3 and 4-6, seat 1 holds 5-6
    /// (R-END, R-SCORE-BASIC). 0-3 wins 11, 4-6 loses 3: the search on that one deal picks 0-3.
    #[test]
    fn the_search_on_a_known_deal_takes_the_solvers_best() {
        let rules = presets::rules("block", 2);
        let mut t = Table::new(rules);
        let hand =
            |tiles: &[(u8, u8)]| tiles.iter().fold(0u32, |m, &(a, b)| m | 1 << tile_id(a, b));
        t.start_hand(
            &[hand(&[(0, 3), (4, 6)]), hand(&[(3, 4), (5, 6)])],
            &[],
            1,
            -1,
        );
        t.play(tile_id(3, 4) << 2);
        let moves = t.legal_vec();
        let settings = Settings {
            samples: 1,
            budget_ms: 0.0,
            exact_tiles: 7,
            random_share: 0.1,
            block: 4.0,
            follow: 2.0,
            beta: 0.0,
            floor: 8,
            loss: 0.0,
        };
        let judge = Judge::new(&rules, 0);
        let evaluation = evaluate(&settings, judge, &moves, &mut Xoshiro::new(0), |_| {
            Ok((t, 1.0))
        })
        .unwrap();
        assert_eq!(evaluation.best(&moves) >> 2, tile_id(0, 3));
        let mut values: Vec<f64> = evaluation.values.iter().map(|row| row[0]).collect();
        values.sort_by(f64::total_cmp);
        assert_eq!(values, vec![-3.0, 11.0]);
    }

    /// Block, 2 players: seat 1 led 3-3, seat 0 holds 3-5 and 0-0: laying 3-5 on either end
    /// leaves the same line, so the two moves tie on every deal. Without a loss nothing tells
    /// them apart and the search spends every deal; with one, it stops at the floor.
    #[test]
    fn a_loss_stops_a_decision_that_cannot_matter_at_the_floor() {
        let rules = presets::rules("block", 2);
        let mut t = Table::new(rules);
        let hand =
            |tiles: &[(u8, u8)]| tiles.iter().fold(0u32, |m, &(a, b)| m | 1 << tile_id(a, b));
        t.start_hand(
            &[hand(&[(3, 5), (0, 0)]), hand(&[(3, 3), (1, 2), (4, 6)])],
            &[],
            1,
            -1,
        );
        t.play(tile_id(3, 3) << 2);
        let moves = t.legal_vec();
        assert_eq!(moves.len(), 2);
        let deals = |loss: f64| {
            let settings = Settings {
                samples: 256,
                budget_ms: 0.0,
                exact_tiles: 0,
                random_share: 0.1,
                block: 4.0,
                follow: 2.0,
                beta: 0.0,
                floor: 32,
                loss,
            };
            let judge = Judge::new(&rules, 0);
            evaluate(&settings, judge, &moves, &mut Xoshiro::new(1), |_| {
                Ok((t, 1.0))
            })
            .unwrap()
            .weights
            .len()
        };
        assert_eq!((deals(0.0), deals(0.01)), (256, 32));
    }

    #[test]
    fn playouts_end_every_hand_of_every_variant() {
        let policy = Policy::new(0.3, 4.0, 2.0);
        for rules in presets::all() {
            let mut g = crate::rng::Mt19937::new(9);
            let mut game = Game::new(Table::new(rules));
            game.start_next_hand(&mut g);
            policy.play_out(&mut game);
            // R-DEAL: every tile is in a hand, on the line or left undrawn (or out of play).
            let t = &game.t;
            let on_line = game.history.iter().filter(|a| a.is_play()).count() as u32;
            let undrawn = (t.bone_len - t.drawn) as u32;
            assert_eq!(t.tiles_in_hands() + on_line + undrawn, 28, "{rules:?}");
            assert!(t.hand_over && t.outcome.is_some());
        }
    }
}
