//! A learned model of how a seat plays (issue 39): a conditional logit over the legal moves of a
//! decision, on features of each move read from the seat's own view (R-VIEW), and the likelihood
//! of the other seats' observed plays on a sampled deal under a per-seat mixture of that model,
//! the heavy-tile model and the uniform one.
//!
//! The features of a move, in `FEATURES` order: its pips; whether it is a double; follow (the
//! mover's other tiles that fit the ends afterwards); own_x (the mover's other tiles holding x,
//! the number the move newly exposes: the other half of the tile, a double's own number);
//! unseen_x (tiles holding x the mover has not seen: neither laid nor its own); x_dead (none
//! unseen); next_void_x (the next seat is known to lack x, R-MUST); next_blocked (the next seat
//! is known to lack every number open afterwards); partner_void_x; partner_exposed_x and
//! opponent_exposed_x (the first seat to expose x this hand was the partner, an opponent);
//! covers_partner (the end played on was exposed by the partner). Four (follow, own_x, unseen_x,
//! x_dead) depend on the mover's hand; the rest are public. A lead opens no end and has no x:
//! leads are no evidence. Numbers are read off the line as `Line::after` follows it: a
//! spinner's short sides count once they show on the table.

use crate::action::{Action, Kind};
use crate::belief::{note_void, plays_since_draw};
use crate::rules::Rules;
use crate::state::Line;
use crate::tiles::{fitting, is_double, other_number, tiles_of, NUMBER_MASK, PIPS};
use crate::view::View;

pub const FEATURES: usize = 12;
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "pips",
    "double",
    "follow",
    "own_x",
    "unseen_x",
    "x_dead",
    "next_void_x",
    "next_blocked",
    "partner_void_x",
    "partner_exposed_x",
    "opponent_exposed_x",
    "covers_partner",
];
const FOLLOW: usize = 2;
const OWN_X: usize = 3;
const UNSEEN_X: usize = 4;
const X_DEAD: usize = 5;

/// How a seat stands to the one that models it: its partner, the next seat, the previous one, or
/// another opponent (the only other seat in 2-player games, the seat across in 4-player games
/// without teams).
pub const ROLES: usize = 4;
pub const ROLE_NAMES: [&str; ROLES] = ["partner", "next", "previous", "opponent"];

pub fn role(rules: &Rules, observer: u8, seat: u8) -> usize {
    let players = rules.players as u8;
    if rules.teams && rules.side_of(observer as usize) == rules.side_of(seat as usize) {
        0
    } else if players > 2 && (observer + 1) % players == seat {
        1
    } else if players > 2 && (seat + 1) % players == observer {
        2
    } else {
        3
    }
}

const NOBODY: u8 = u8::MAX;

/// What every seat sees before an action: the line, the numbers each seat is known to lack, the
/// tiles laid, who first exposed each number this hand and who exposed each open end, and the
/// seat to act.
#[derive(Clone, Copy, Debug)]
pub struct Moment {
    pub seat: u8,
    line: Line,
    voids: [u8; 4],
    laid: u32,
    next: u8,
    partner: u8,
    first_exposer: [u8; 7],
    end_exposer: [u8; 4],
}

/// A move's public features and what its hand-dependent ones need.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    pub mv: u8,
    x: u8,
    /// Tiles that fit the ends once the move is laid.
    after_fit: u32,
    laid: u32,
    public: [f64; FEATURES],
}

impl Moment {
    /// The candidate `mv` (which fits the line), or None for a lead.
    pub fn candidate(&self, mv: u8) -> Option<Candidate> {
        if self.line.n == 0 {
            return None;
        }
        let (tile, end) = (mv >> 2, (mv & 3) as usize);
        let x = other_number(tile, self.line.ends[end]);
        let after = self.line.after(mv);
        let open = after.ends[..after.n as usize]
            .iter()
            .fold(0u8, |m, &e| m | 1 << e);
        let has = |mask: u8| f64::from(mask >> x & 1);
        let by = |seat: u8| f64::from(seat != NOBODY && seat == self.partner);
        let first = self.first_exposer[x as usize];
        let mut public = [0.0; FEATURES];
        public[0] = PIPS[tile as usize] as f64;
        public[1] = f64::from(is_double(tile));
        public[6] = has(self.voids[self.next as usize]);
        public[7] = f64::from(open & !self.voids[self.next as usize] == 0);
        if self.partner != NOBODY {
            public[8] = has(self.voids[self.partner as usize]);
        }
        public[9] = by(first);
        public[10] = f64::from(first != NOBODY && first != self.seat && first != self.partner);
        public[11] = by(self.end_exposer[end]);
        Some(Candidate {
            mv,
            x,
            after_fit: fitting(open),
            laid: self.laid,
            public,
        })
    }

    /// Every move of `tiles` that fits the line (none before the lead).
    pub fn candidates(&self, tiles: u32) -> Vec<Candidate> {
        let mut out = Vec::new();
        for end in 0..self.line.n {
            let number = self.line.ends[end as usize];
            for tile in tiles_of(tiles & NUMBER_MASK[number as usize]) {
                out.extend(self.candidate(tile << 2 | end));
            }
        }
        out
    }
}

impl Candidate {
    pub fn tile(&self) -> u8 {
        self.mv >> 2
    }

    /// All its features for a mover holding `hand` (the tile among them).
    pub fn features(&self, hand: u32) -> [f64; FEATURES] {
        let mut f = self.public;
        let others = hand & !(1 << self.tile());
        let x_tiles = NUMBER_MASK[self.x as usize];
        let unseen = (x_tiles & !(self.laid | hand)).count_ones();
        f[FOLLOW] = (others & self.after_fit).count_ones() as f64;
        f[OWN_X] = (others & x_tiles).count_ones() as f64;
        f[UNSEEN_X] = unseen as f64;
        f[X_DEAD] = f64::from(unseen == 0);
        f
    }
}

/// The moment before each action of the view's history and the moment now (`lines[i]`: the
/// line before action i, as `search::position` replays it).
pub fn moments(view: &View, lines: &[Line]) -> Vec<Moment> {
    let rules = &view.rules;
    let players = rules.players as u8;
    let partner_of = |seat: u8| {
        if rules.teams && players == 4 {
            (seat + 2) % 4
        } else {
            NOBODY
        }
    };
    let mut voids = [0u8; 4];
    let mut laid = 0u32;
    let mut first_exposer = [NOBODY; 7];
    let mut end_exposer = [NOBODY; 4];
    let mut out = Vec::with_capacity(view.actions.len() + 1);
    let now = view.line();
    for (i, line) in lines.iter().chain(std::iter::once(&now)).enumerate() {
        let seat = view.actions.get(i).map_or(view.seat, |a| a.seat());
        out.push(Moment {
            seat,
            line: *line,
            voids,
            laid,
            next: (seat + 1) % players,
            partner: partner_of(seat),
            first_exposer,
            end_exposer,
        });
        let Some(&a) = view.actions.get(i) else { break };
        note_void(&mut voids, a);
        if a.kind() == Kind::Play {
            laid |= 1 << a.tile();
            let after = lines.get(i + 1).unwrap_or(&now);
            expose(a, line, after, &mut first_exposer, &mut end_exposer);
        }
    }
    out
}

/// Who exposed what once play `a` turned line `before` into `after`: the lead both ends, a
/// tile its end, a spinner's sides as they open.
fn expose(a: Action, before: &Line, after: &Line, first: &mut [u8; 7], ends: &mut [u8; 4]) {
    let seat = a.seat();
    let fresh = if before.n == 0 {
        0..after.n as usize
    } else {
        let end = a.end() as usize;
        ends[end] = seat;
        before.n as usize..after.n as usize
    };
    for e in fresh {
        ends[e] = seat;
    }
    for (&number, &by) in after.ends.iter().zip(ends.iter()).take(after.n as usize) {
        if first[number as usize] == NOBODY && by == seat {
            first[number as usize] = seat;
        }
    }
}

/// The models mixed for each seat: the logit's weights by role, the heavy-tile model's strength
/// (`beta`: a logit on pips alone) and the uniform model, with their prior shares.
#[derive(Clone, Copy, Debug)]
pub struct Mixture {
    pub logit: [[f64; FEATURES]; ROLES],
    pub beta: f64,
    /// The prior shares of the logit, heavy and uniform models.
    pub prior: [f64; 3],
}

/// One observed play that was a choice: its seat (by location), its candidates (every move the
/// seat might have held then), which was chosen, each candidate's public score under the seat's
/// logit, and the seat's tiles played from then on.
struct Evidence {
    location: usize,
    candidates: Vec<(Candidate, f64)>,
    chosen: u8,
    later: u32,
}

/// How likely the other seats' observed plays were on a sampled deal, under each seat's mixture:
/// for seat s, the sum over models m of prior(m) times the product of m's probabilities of s's
/// plays. A model that predicts a seat badly on the deals that fit gives way to the others: the
/// mixture's shares are, in effect, learnt from that seat's plays this hand. Only plays made
/// since the seat last drew are evidence (a hand before a draw is not known from a deal of the
/// present), and the first hand's named lead was no choice (leads are no evidence anyway).
pub struct PlayInference {
    mixture: Mixture,
    logit: Vec<[f64; FEATURES]>,
    evidence: Vec<Evidence>,
    seats: Vec<u8>,
}

impl PlayInference {
    /// `seats`: the other seats in order (the belief's locations); `lines` and `fits` as
    /// `search::position` gives them.
    pub fn new(
        view: &View,
        lines: &[Line],
        fits: &[u32],
        seats: &[u8],
        mixture: Mixture,
    ) -> PlayInference {
        let moments = moments(view, lines);
        let logit: Vec<_> = seats
            .iter()
            .map(|&s| mixture.logit[role(&view.rules, view.seat, s)])
            .collect();
        let mut evidence = Vec::new();
        for (index, a, later) in plays_since_draw(view) {
            let Some(location) = seats.iter().position(|&s| s == a.seat()) else {
                continue;
            };
            let moment = &moments[index];
            if moment.candidate(a.mv()).is_none() {
                continue;
            }
            let candidates = moment
                .candidates(fits[index] & !moment.laid)
                .into_iter()
                .map(|c| (c, dot(&logit[location], &c.public)))
                .collect();
            evidence.push(Evidence {
                location,
                candidates,
                chosen: a.mv(),
                later,
            });
        }
        PlayInference {
            mixture,
            logit,
            evidence,
            seats: seats.to_vec(),
        }
    }

    /// The likelihood of the evidence on a deal (`hands` by seat).
    pub fn likelihood(&self, hands: &[u32; 4]) -> f64 {
        let mut log = vec![[0.0f64; 3]; self.seats.len()];
        let mut scores = Vec::with_capacity(32);
        for e in &self.evidence {
            let hand = hands[self.seats[e.location] as usize] | e.later;
            let w = &self.logit[e.location];
            scores.clear();
            let mut chosen = usize::MAX;
            for (c, public) in &e.candidates {
                if hand >> c.tile() & 1 == 0 {
                    continue;
                }
                let f = c.features(hand);
                let own = w[FOLLOW] * f[FOLLOW]
                    + w[OWN_X] * f[OWN_X]
                    + w[UNSEEN_X] * f[UNSEEN_X]
                    + w[X_DEAD] * f[X_DEAD];
                if c.mv == e.chosen {
                    chosen = scores.len();
                }
                scores.push([public + own, self.mixture.beta * f[0], 0.0]);
            }
            if scores.len() < 2 || chosen == usize::MAX {
                continue;
            }
            for (m, total) in log[e.location].iter_mut().enumerate() {
                let top = scores.iter().map(|s| s[m]).fold(f64::MIN, f64::max);
                let sum: f64 = scores.iter().map(|s| (s[m] - top).exp()).sum();
                *total += scores[chosen][m] - top - sum.ln();
            }
        }
        log.iter()
            .map(|l| {
                l.iter()
                    .zip(self.mixture.prior)
                    .map(|(&ll, p)| p * ll.exp())
                    .sum::<f64>()
            })
            .product()
    }
}

fn dot(w: &[f64; FEATURES], f: &[f64; FEATURES]) -> f64 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}

/// The features of each legal move of the view's decision, from the view (its own hand): what
/// the decision logs hold (`None` for a lead).
pub fn decision_features(view: &View, lines: &[Line]) -> Option<Vec<[f64; FEATURES]>> {
    let now = *moments(view, lines).last().expect("the moment now");
    view.legal
        .iter()
        .map(|&mv| now.candidate(mv).map(|c| c.features(view.hand)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rules::presets;
    use crate::search::position;
    use crate::state::Table;
    use crate::view::tests::random_decisions;

    /// Random hands of every variant: at each decision with a choice, the view of the seat to
    /// move and the hands as they are.
    fn decisions(mut each: impl FnMut(&View, &[u32; 4])) {
        random_decisions(9, 20, 4, |game, view| each(view, &game.t.hands));
    }

    /// R-VIEW: what a seat's features of its own decision were (what the logs hold) is what any
    /// later view of the hand rebuilds for that decision from the seat's true hand then: the
    /// inference reads a past play as the logs recorded it, from public actions and the hand.
    #[test]
    fn a_later_view_rebuilds_the_features_of_a_past_decision() {
        // (the decision's place in the history, the hands then, its features, its moves)
        type Logged = (usize, [u32; 4], Vec<[f64; FEATURES]>, Vec<u8>);
        let mut logged: Vec<Logged> = Vec::new();
        let mut rebuilt = 0;
        decisions(|view, hands| {
            if view.actions.is_empty() {
                logged.clear();
            }
            logged.retain(|(at, ..)| *at < view.actions.len());
            let (_, _, lines) = position(view);
            let moments = moments(view, &lines);
            for (at, hands_then, features, legal) in &logged {
                let moment = &moments[*at];
                let hand = hands_then[moment.seat as usize];
                for (mv, f) in legal.iter().zip(features) {
                    assert_eq!(moment.candidate(*mv).unwrap().features(hand), *f);
                    rebuilt += 1;
                }
            }
            if let Some(features) = decision_features(view, &lines) {
                logged.push((view.actions.len(), *hands, features, view.legal.clone()));
            }
        });
        assert!(rebuilt > 10_000);
    }

    /// R-SEAT: seats sit in turn order, partners across in team games: to seat 0, seat 2 is the
    /// partner, 1 the next seat and 3 the previous one; without teams the seat across is another
    /// opponent, and with 2 players the other seat is the opponent.
    #[test]
    fn roles_follow_the_seating() {
        let roles = |name: &str, players: usize| {
            let rules = presets::rules(name, players);
            (1..players as u8)
                .map(|s| ROLE_NAMES[role(&rules, 0, s)])
                .collect::<Vec<_>>()
        };
        assert_eq!(roles("partnership", 4), ["next", "partner", "previous"]);
        assert_eq!(roles("draw", 4), ["next", "opponent", "previous"]);
        assert_eq!(roles("block", 3), ["next", "previous"]);
        assert_eq!(roles("block", 2), ["opponent"]);
    }

    /// Block, 2 players, R-MUST: seat 0 leads 0-6 and seat 1 passes (it lacks 0 and 6). Seat 0,
    /// holding 0-1, 1-6, 4-6, 3-3, 2-2 and 2-5 on ends 0|6: 0-1 on the 0 exposes 1 (ends 1|6,
    /// which 1-6 and 4-6 fit; it holds 1-6; five 1s unseen); 4-6 on the 6 exposes 4 (six 4s
    /// unseen, none its own); neither leaves seat 1 known to have nothing.
    #[test]
    fn features_of_a_block_decision() {
        let hand = crate::tiles::mask;
        let mut game = Game::new(Table::new(presets::rules("block", 2)));
        game.start_hand(
            &[
                hand("0-6 0-1 1-6 4-6 3-3 2-2 2-5"),
                hand("1-1 1-2 1-3 1-4 1-5 2-3 3-4"),
            ],
            &[],
            0,
            -1,
        );
        game.play(crate::tiles::id("0-6") << 2);
        game.pass_turn();
        let view = View::of(&game, game.t.legal_vec());
        let (_, _, lines) = position(&view);
        let features = decision_features(&view, &lines).expect("not a lead");
        let of = |tile: &str, end: u8| {
            let mv = crate::tiles::id(tile) << 2 | end;
            features[view.legal.iter().position(|&m| m == mv).expect("legal")]
        };
        assert_eq!(
            of("0-1", 0),
            [1.0, 0.0, 2.0, 1.0, 5.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        );
        assert_eq!(
            of("4-6", 1),
            [10.0, 0.0, 1.0, 0.0, 6.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        );
    }
}
