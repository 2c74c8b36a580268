//! The exact solver that values a move once few tiles remain, nothing is left to draw and the
//! game has two sides.

use std::collections::HashMap;

use super::judge::Judge;
use crate::hash::BuildKeyHasher;
use crate::rules::Rules;
use crate::state::Table;
use crate::tiles::heaviness;

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

    /// The value of `t` within the window (`alpha`, `beta`): exact inside it, a bound outside.
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
        let best = self.children(t, alpha, beta);
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

    /// The best value of `t`'s children for the seat to move: its plays, heaviest first, or its
    /// pass.
    fn children(&mut self, t: &Table, alpha: f64, beta: f64) -> f64 {
        let mut moves = [0u8; 112];
        let n = t.legal_moves(&mut moves);
        if n == 0 {
            let mut child = *t;
            child.pass_turn();
            return self.value(&child, alpha, beta);
        }
        let moves = &mut moves[..n];
        moves.sort_by_key(|&m| std::cmp::Reverse(heaviness(m >> 2)));
        self.search(t, moves, alpha, beta)
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
