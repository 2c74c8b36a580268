//! The fast playout that values a move on a deal: every seat, seeing the whole deal, dumps its
//! heaviest playable tile, favouring one that shuts out the next seat or keeps a follow-up (in
//! fives, first the points it makes), now and then a random one.

use crate::game::Game;
use crate::rng::Xoshiro;
use crate::scoring::fives_points;
use crate::state::{Line, Table};
use crate::tiles::{fitting, heaviness, other_number, HEAVINESS, NUMBER_MASK};

/// Random numbers drawn per deal and replayed in every move's playout on it (common random
/// numbers: the moves' values on a deal then differ by the move, not by the playouts' luck).
const STREAM: usize = 64;

/// What a playout plays on: a bare Table (the search's), or a Game that keeps its history
/// and results (the Python API's).
pub trait Playable {
    fn table(&self) -> &Table;
    /// The bare table once its line has two plain ends (`Table::plain_line`), for the fast path
    /// of `Policy::play_out`; a Game, which records every action, never takes it.
    fn plain_table(&mut self) -> Option<&mut Table>;
    /// Draw or pass for a seat with no play; false when the seat can play.
    fn step_forced(&mut self) -> bool;
    fn play(&mut self, mv: u8);
}

impl Playable for Table {
    fn table(&self) -> &Table {
        self
    }
    fn plain_table(&mut self) -> Option<&mut Table> {
        self.plain_line.then_some(self)
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
    fn plain_table(&mut self) -> Option<&mut Table> {
        None
    }
    fn step_forced(&mut self) -> bool {
        Game::step_forced(self)
    }
    fn play(&mut self, mv: u8) {
        Game::play(self, mv);
    }
}

/// How every seat plays in a playout, seeing the whole sampled deal (see the module's doc), with
/// the same random numbers (`new_stream`) for every move on a deal.
pub struct Policy {
    random_share: f64,
    block: f64,
    follow: f64,
    stream: [f64; STREAM],
}

/// What a move's key reads of the table, once per decision.
struct Decision {
    hand: u32,
    /// The tiles of the seat after the one to move.
    after: u32,
    ends: [u8; 4],
    /// Per end, the tiles fitting the other open ends.
    others: [u32; 4],
    fives: bool,
    line: Line,
    block: f64,
    follow: f64,
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
            if let Some(t) = position.plain_table() {
                return self.play_out_plain(t, &mut drawn);
            }
            if position.step_forced() {
                continue;
            }
            let n = position.table().legal_moves(&mut moves);
            let mv = self.choose(position.table(), &moves[..n], &mut drawn);
            position.play(mv);
        }
    }

    /// `play_out` on a line of two plain ends, where every variant but fives and allfives
    /// spends its playouts once the lead is down: the same choices as `choose`'s, read straight
    /// off the hands' masks rather than a list of moves. The action that ends the hand goes
    /// through the table's `play` or `pass_turn`, which settle it.
    fn play_out_plain(&self, t: &mut Table, drawn: &mut usize) {
        loop {
            let hand = t.hands[t.to_move as usize];
            let fits = [
                NUMBER_MASK[t.ends[0] as usize],
                NUMBER_MASK[t.ends[1] as usize],
            ];
            let plays = [hand & fits[0], hand & fits[1]];
            if plays[0] | plays[1] == 0 {
                if t.can_draw() {
                    t.draw();
                } else if t.pass_unrecorded() {
                    return;
                }
                continue;
            }
            let mv = self.choose_plain(t, plays, fits, drawn);
            if hand & (hand - 1) == 0 {
                t.play(mv);
                return;
            }
            t.lay_on_plain_line(mv);
        }
    }

    /// `choose` on a plain line, the seat's plays given per end: the legal moves in their
    /// order (end 0's tiles ascending, then end 1's), keyed as `Decision::key` keys them.
    #[inline(always)]
    fn choose_plain(&self, t: &Table, plays: [u32; 2], fits: [u32; 2], drawn: &mut usize) -> u8 {
        let counts = [plays[0].count_ones(), plays[1].count_ones()];
        let n = counts[0] + counts[1];
        if n == 1 {
            let end = (plays[0] == 0) as usize;
            return (plays[end].trailing_zeros() as u8) << 2 | end as u8;
        }
        if self.random_share > 0.0 && self.chance(drawn) < self.random_share {
            let k = (self.chance(drawn) * n as f64) as u32;
            let end = (k >= counts[0]) as usize;
            let k = if end == 1 { k - counts[0] } else { k };
            return nth_tile(plays[end], k) << 2 | end as u8;
        }
        let hand = t.hands[t.to_move as usize];
        let after = t.hands[t.next_seat(t.to_move) as usize];
        let (mut best, mut best_key) = (0u8, f64::NEG_INFINITY);
        for end in 0..2 {
            let beside = fits[1 - end];
            let mut rest = plays[end];
            while rest != 0 {
                let tile = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                let fit = beside | NUMBER_MASK[other_number(tile, t.ends[end]) as usize];
                let mut key = HEAVINESS_KEY[tile as usize];
                if after & fit == 0 {
                    key += self.block;
                }
                if hand & !(1 << tile) & fit != 0 {
                    key += self.follow;
                }
                if key > best_key {
                    (best, best_key) = (tile << 2 | end as u8, key);
                }
            }
        }
        best
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
        let decision = Decision::of(t, self);
        first_max_by(moves, |mv| decision.key(mv))
    }
}

impl Decision {
    fn of(t: &Table, policy: &Policy) -> Decision {
        let seat = t.to_move;
        Decision {
            hand: t.hands[seat as usize],
            after: t.hands[t.next_seat(seat) as usize],
            ends: t.ends,
            others: fits_beside(t),
            fives: t.rules.fives(),
            line: Line::of(t),
            block: policy.block,
            follow: policy.follow,
        }
    }

    /// How much the policy wants `mv`: its tile's heaviness, plus `block` if the next seat
    /// cannot follow it and `follow` if the seat can, and in fives first the points it makes
    /// (R-FIVES-COUNT). Called per legal move of every playout decision: out of line, the
    /// playouts take 4% more instructions.
    #[inline(always)]
    fn key(&self, mv: u8) -> f64 {
        let (tile, end) = (mv >> 2, (mv & 3) as usize);
        let shown = other_number(tile, self.ends[end]);
        let fit = self.others[end] | NUMBER_MASK[shown as usize];
        let mut key = HEAVINESS_KEY[tile as usize];
        if self.fives {
            key += fives_points(self.line.after(mv).count()) as f64 * 1024.0;
        }
        if self.after & fit == 0 {
            key += self.block;
        }
        if self.hand & !(1 << tile) & fit != 0 {
            key += self.follow;
        }
        key
    }
}

/// `HEAVINESS` as the keys add it up: one load a legal move instead of a load and a conversion.
const HEAVINESS_KEY: [f64; 28] = {
    let mut table = [0.0; 28];
    let mut tile = 0;
    while tile < 28 {
        table[tile] = HEAVINESS[tile] as f64;
        tile += 1;
    }
    table
};

/// Per open end, the tiles that fit the other open ends.
fn fits_beside(t: &Table) -> [u32; 4] {
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
    others
}

/// The `k`th tile of `mask`, ascending from 0.
fn nth_tile(mut mask: u32, k: u32) -> u8 {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as u8
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets;

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

    /// The fast path on a plain line (a bare Table) makes the choices of the general one (a
    /// Game, which never takes it): over many hands of every variant, from the lead and from
    /// a few plays in, both end alike (the hands, the line and the outcome).
    #[test]
    fn the_plain_lines_fast_path_plays_as_the_general_path() {
        let mut plain = 0;
        for rules in presets::all() {
            for seed in 0..300u64 {
                let mut policy = Policy::new(0.3, 4.0, 2.0);
                policy.new_stream(&mut Xoshiro::new(seed));
                let mut game = Game::new(Table::new(rules));
                game.start_next_hand(&mut crate::rng::Mt19937::new(seed));
                let mut moves = [0u8; 112];
                for _ in 0..seed % 4 {
                    while !game.t.hand_over && game.step_forced() {}
                    if game.t.hand_over {
                        break;
                    }
                    let n = game.t.legal_moves(&mut moves);
                    game.play(moves[seed as usize % n]);
                }
                let mut table = game.t;
                plain += table.plain_line as usize;
                policy.play_out(&mut game);
                policy.play_out(&mut table);
                let t = &game.t;
                assert_eq!(
                    (t.hands, t.ends, t.line_count, t.drawn, t.outcome),
                    (
                        table.hands,
                        table.ends,
                        table.line_count,
                        table.drawn,
                        table.outcome
                    ),
                    "{rules:?} seed {seed}"
                );
            }
        }
        assert!(plain > 1000, "only {plain} hands took the fast path");
    }
}
