//! What a finished hand is worth to one seat, in the variant's own currency.

use crate::rules::{Rules, Scheme};
use crate::state::{Outcome, Table};
use crate::tiles::mask_pips;

/// Share of the target that winning (or losing) the match is worth on top of the hand's points.
pub const MATCH_SHARE: f64 = 0.5;
/// classic values a hand by its win share, plus this much per pip the others hold more than the
/// seat: the pips decide a blocked hand, and they sort the playouts a win share scores alike.
pub const CLASSIC_PIP: f64 = 0.01;

/// The value of a finished hand for one seat, in the variant's currency: its side's points minus
/// the others' mean (reversed where points count against, R-KOZEL), classic's win share plus a
/// pip term, and `MATCH_SHARE * target` more or less when the hand decides the match.
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
            return self.win_share(t, &o);
        }
        let points = self.points(&o);
        if t.match_over {
            points + self.match_bonus(t)
        } else {
            points
        }
    }

    /// classic: the seat's share of the win, plus `CLASSIC_PIP` per pip the others' mean hand
    /// holds more than the seat's.
    fn win_share(&self, t: &Table, o: &Outcome) -> f64 {
        let share = if o.winners >> self.seat & 1 == 1 {
            1.0 / o.winners.count_ones() as f64
        } else {
            0.0
        };
        let n = t.rules.players;
        let pips: Vec<f64> = (0..n).map(|s| mask_pips(t.hands[s]) as f64).collect();
        let mine = pips[self.seat as usize];
        let others = (pips.iter().sum::<f64>() - mine) / (n - 1) as f64;
        share + CLASSIC_PIP * (others - mine)
    }

    /// The side's points minus the other sides' mean (reversed where points count against).
    fn points(&self, o: &Outcome) -> f64 {
        let mine = o.points[self.side] as f64;
        let total: i32 = o.points[..self.sides].iter().sum();
        let others = (total as f64 - mine) / (self.sides - 1) as f64;
        if self.scheme.points_against() {
            others - mine
        } else {
            mine - others
        }
    }

    /// `bonus` for the seat's side winning the match this hand decided, minus it for losing it.
    fn match_bonus(&self, t: &Table) -> f64 {
        if t.match_winners >> self.seat & 1 == 1 {
            self.bonus
        } else {
            -self.bonus
        }
    }
}
