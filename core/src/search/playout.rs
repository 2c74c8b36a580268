//! The fast playout that values a move on a deal: every seat, seeing the whole deal, dumps its
//! heaviest playable tile, favouring one that shuts out the next seat or keeps a follow-up (in
//! fives, first the points it makes), now and then a random one.

use crate::game::Game;
use crate::model::{Moment, TableModel};
use crate::rng::{splitmix64, Xoshiro, SPLITMIX_GAMMA};
use crate::scoring::fives_points;
use crate::state::{attach, Line, Table};
use crate::tiles::{HEAVINESS, NUMBER_MASK};

/// Random numbers drawn per deal by `Stream::Drawn` and replayed, cycled, in every move's
/// playout on it.
const STREAM: usize = 64;

/// Where the playouts on a deal take their random numbers, the same for every move (common
/// random numbers: the moves' values on a deal then differ by the move, not by the playouts'
/// luck).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stream {
    /// `STREAM` numbers drawn from the search's generator for every deal (domsim 0.2's, which
    /// its games need): most are never used.
    Drawn,
    /// One key drawn for every deal; a playout's k-th number is SplitMix64's k-th output from
    /// that key (`keyed_number`), worked out only when the playout needs it.
    Keyed,
}

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
        self.step_forced_unrecorded()
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
    kind: Stream,
    stream: [f64; STREAM],
    key: u64,
    /// Whether the playouts draw moves from a learned model (`play_out_modelled`), which needs
    /// the random numbers whatever `random_share`.
    modelled: bool,
}

impl Policy {
    /// `block` and `follow` in pips, as the insane parameters give them.
    pub fn new(random_share: f64, block: f64, follow: f64, kind: Stream) -> Policy {
        Policy {
            random_share,
            block: block * 8.0,
            follow: follow * 8.0,
            kind,
            stream: [0.0; STREAM],
            key: 0,
            modelled: false,
        }
    }

    /// The policy whose playouts may draw moves from a learned model (`play_out_modelled`).
    pub fn modelled(self) -> Policy {
        Policy {
            modelled: true,
            ..self
        }
    }

    /// Draw what the following playouts' random numbers come from (`Stream`).
    pub fn new_stream(&mut self, rng: &mut Xoshiro) {
        if self.random_share == 0.0 && !self.modelled {
            return;
        }
        match self.kind {
            Stream::Drawn => self.stream.iter_mut().for_each(|x| *x = rng.random()),
            Stream::Keyed => self.key = rng.next_u64(),
        }
    }

    /// Play `position` to the end of the hand (a Game: with its history and results).
    pub fn play_out<P: Playable>(&self, position: &mut P) {
        self.play_out_from(position, 0);
    }

    /// `play_out` on a bare table where the decision's `index`th move was just made, the other
    /// seats' first `table.moves` moves drawn from their nets (issue 51: the table plays as the
    /// model says it plays).
    pub fn play_out_modelled(&self, t: &mut Table, table: &TableModel, index: usize) {
        let (mut seen, mut reply) = table.after(index);
        let (mut drawn, mut left) = (0usize, table.moves);
        while left > 0 && !t.hand_over {
            let (seat, before) = (t.to_move, Line::of(t));
            if let Some(a) = t.step_forced() {
                seen.note(a, &before, &before);
                reply = None;
                continue;
            }
            let mv = match table.net(seat) {
                Some(net) => {
                    left -= 1;
                    only_move(t).unwrap_or_else(|| {
                        let (hand, chance) = (t.hands[seat as usize], || self.chance(&mut drawn));
                        if let Some(reply) = reply {
                            return reply.draw(net, hand, chance);
                        }
                        let count = hand.count_ones() as i32;
                        let moment = Moment::new(&t.rules, seat, before, seen, count);
                        moment.draw_move(net, hand, chance)
                    })
                }
                None => self.choose_on_any_line(t, &mut drawn),
            };
            let a = t.play(mv);
            if left > 0 {
                seen.note(a, &before, &Line::of(t));
            }
            reply = None;
        }
        self.play_out_from(t, drawn);
    }

    /// `play_out` with the random numbers from the `drawn`th on.
    fn play_out_from<P: Playable>(&self, position: &mut P, mut drawn: usize) {
        while !position.table().hand_over {
            if let Some(t) = position.plain_table() {
                return self.play_out_plain(t, &mut drawn);
            }
            if position.step_forced() {
                continue;
            }
            let mv = self.choose_on_any_line(position.table(), &mut drawn);
            position.play(mv);
        }
    }

    /// `play_out` on a line of two plain ends, where every variant but fives and allfives
    /// spends its playouts once the lead is down: the choices of `choose_on_any_line`, with the
    /// tiles fitting each end kept from turn to turn and the table's `play`, which settles the
    /// hand, only for a seat's last tile.
    fn play_out_plain(&self, t: &mut Table, drawn: &mut usize) {
        let mut fits = [
            NUMBER_MASK[t.ends[0] as usize],
            NUMBER_MASK[t.ends[1] as usize],
        ];
        loop {
            let seat = t.to_move as usize;
            let hand = t.hands[seat];
            let plays = [hand & fits[0], hand & fits[1]];
            if plays[0] | plays[1] == 0 {
                t.step_forced_unrecorded();
                if t.hand_over {
                    return;
                }
                continue;
            }
            let mv = self.unkeyed(plays, drawn).unwrap_or_else(|| {
                let after = t.hands[t.next_seat(t.to_move) as usize];
                best_by(plays, |tile, end| {
                    self.key(
                        tile,
                        fits[1 - end] | AFTER[t.ends[end] as usize][tile as usize].fit,
                        hand,
                        after,
                        0,
                    )
                })
            });
            if hand & (hand - 1) == 0 {
                t.play(mv);
                return;
            }
            t.lay_on_plain_line(mv);
            let end = (mv & 3) as usize;
            fits[end] = NUMBER_MASK[t.ends[end] as usize];
        }
    }

    /// The policy's move for the seat to move, which has a play, on any line (before the lead,
    /// the heaviest tile); in fives, the points a move makes come first (R-FIVES-COUNT).
    fn choose_on_any_line(&self, t: &Table, drawn: &mut usize) -> u8 {
        let hand = t.hands[t.to_move as usize];
        if t.n_ends == 0 {
            let plays = [hand & t.fit];
            return self
                .unkeyed(plays, drawn)
                .unwrap_or_else(|| best_by(plays, |tile, _| HEAVINESS_KEY[tile as usize]));
        }
        if t.n_ends == 2 {
            self.choose_on_ends::<2>(t, drawn)
        } else {
            self.choose_on_ends::<4>(t, drawn)
        }
    }

    /// `choose_on_any_line` past the lead, on `ENDS` ends at most (a line of two is
    /// worth its own copy: most are).
    #[inline(always)]
    fn choose_on_ends<const ENDS: usize>(&self, t: &Table, drawn: &mut usize) -> u8 {
        let hand = t.hands[t.to_move as usize];
        let mut plays = [0u32; ENDS];
        for (end, play) in plays.iter_mut().enumerate().take(t.n_ends as usize) {
            *play = hand & NUMBER_MASK[t.ends[end] as usize];
        }
        if let Some(mv) = self.unkeyed(plays, drawn) {
            return mv;
        }
        let after = t.hands[t.next_seat(t.to_move) as usize];
        let beside = fits_beside(t);
        let counts = &t.end_counts;
        let fives = t
            .rules
            .fives()
            .then(|| counts[..t.n_ends as usize].iter().sum::<i32>());
        best_by(plays, |tile, end| {
            let laid = AFTER[t.ends[end] as usize][tile as usize];
            let points = fives.map_or(0, |total| {
                fives_points(count_after(counts, total, end, laid.count))
            });
            self.key(tile, beside[end] | laid.fit, hand, after, points)
        })
    }

    /// The move among `plays` (the seat's playable tiles per end) that needs no key: the only
    /// one, or now and then a random one.
    #[inline(always)]
    fn unkeyed<const ENDS: usize>(&self, plays: [u32; ENDS], drawn: &mut usize) -> Option<u8> {
        if only_play(plays) {
            return Some(nth_play(plays, 0));
        }
        if self.random_share > 0.0 && self.chance(drawn) < self.random_share {
            let n: u32 = plays.iter().map(|p| p.count_ones()).sum();
            return Some(nth_play(plays, (self.chance(drawn) * n as f64) as u32));
        }
        None
    }

    /// How much the policy wants to lay `tile`, after which the open ends fit `fit`, from
    /// `hand`: its heaviness, plus `block` if the next seat (holding `after`) cannot follow it
    /// and `follow` if the seat can, and first the fives `points` it makes.
    #[inline(always)]
    fn key(&self, tile: u8, fit: u32, hand: u32, after: u32, points: i32) -> f64 {
        let mut key = HEAVINESS_KEY[tile as usize];
        if points != 0 {
            key += points as f64 * 1024.0;
        }
        if after & fit == 0 {
            key += self.block;
        }
        if hand & !(1 << tile) & fit != 0 {
            key += self.follow;
        }
        key
    }

    fn chance(&self, drawn: &mut usize) -> f64 {
        let x = match self.kind {
            Stream::Drawn => self.stream[*drawn % STREAM],
            Stream::Keyed => keyed_number(self.key, *drawn as u64),
        };
        *drawn += 1;
        x
    }
}

/// SplitMix64's `k`th output (from 0) from `key`, as a float in [0, 1) (`Xoshiro::random`'s).
#[inline(always)]
fn keyed_number(key: u64, k: u64) -> f64 {
    let bits = splitmix64(key.wrapping_add((k + 1).wrapping_mul(SPLITMIX_GAMMA)));
    (bits >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
}

/// `AFTER[number][tile]`: the end `tile` leaves once laid against `number`, as a key reads it:
/// the tiles that fit it and what it adds to the fives count (`attach`; one load a key instead of
/// three and a comparison).
static AFTER: [[After; 28]; 7] = {
    let mut table = [[After { fit: 0, count: 0 }; 28]; 7];
    let mut number = 0;
    while number < 7 {
        let mut tile = 0;
        while tile < 28 {
            let (shown, count) = attach(tile as u8, number as u8);
            let fit = NUMBER_MASK[shown as usize];
            table[number][tile] = After { fit, count };
            tile += 1;
        }
        number += 1;
    }
    table
};

#[derive(Clone, Copy)]
struct After {
    fit: u32,
    count: i32,
}

/// `HEAVINESS` as the keys add it up: one load a legal move instead of a load and a conversion.
static HEAVINESS_KEY: [f64; 28] = {
    let mut table = [0.0; 28];
    let mut tile = 0;
    while tile < 28 {
        table[tile] = HEAVINESS[tile] as f64;
        tile += 1;
    }
    table
};

/// R-FIVES-COUNT: the open-end count once a tile is laid on open end `end` (not the lead), from
/// the ends' counts now and their `total`: the end played on adds `laid` instead (the count of
/// `Line::after`, which a test pins it to, without building the line for every key).
#[inline(always)]
fn count_after(counts: &[i32; 4], total: i32, end: usize, laid: i32) -> i32 {
    total - counts[end] + laid
}

/// Per open end, the tiles that fit the other open ends.
fn fits_beside(t: &Table) -> [u32; 4] {
    let fits = t.ends.map(|number| NUMBER_MASK[number as usize]);
    if t.n_ends == 2 {
        return [fits[1], fits[0], 0, 0];
    }
    let all_but = |e: usize| (0..4).filter(|&i| i != e).fold(0, |m, i| m | fits[i]);
    [all_but(0), all_but(1), all_but(2), all_but(3)]
}

/// Whether `plays`, a seat's playable tiles per end, hold one move: one tile, on one end only
/// (no count of bits: without a popcnt instruction, which the portable build may not assume,
/// counting costs a dozen).
fn only_play<const ENDS: usize>(plays: [u32; ENDS]) -> bool {
    let (mut all, mut twice) = (0, 0);
    for play in plays {
        twice |= all & play;
        all |= play;
    }
    all.is_power_of_two() && twice == 0
}

/// The move of the seat to move on a line, if it has only one.
fn only_move(t: &Table) -> Option<u8> {
    let hand = t.hands[t.to_move as usize];
    let mut plays = [0u32; 4];
    for (end, play) in plays.iter_mut().enumerate().take(t.n_ends as usize) {
        *play = hand & NUMBER_MASK[t.ends[end] as usize];
    }
    only_play(plays).then(|| nth_play(plays, 0))
}

/// The first of `plays` (per end, as `nth_play` orders them) with the greatest `key(tile, end)`.
#[inline(always)]
fn best_by<const ENDS: usize>(plays: [u32; ENDS], key: impl Fn(u8, usize) -> f64) -> u8 {
    let (mut best, mut best_key) = (0u8, f64::NEG_INFINITY);
    for (end, &play) in plays.iter().enumerate() {
        let mut rest = play;
        while rest != 0 {
            let tile = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let tile_key = key(tile, end);
            if tile_key > best_key {
                (best, best_key) = (tile << 2 | end as u8, tile_key);
            }
        }
    }
    best
}

/// The `k`th move (from 0) of `plays` in the legal moves' order: end by end, tiles ascending.
fn nth_play<const ENDS: usize>(plays: [u32; ENDS], mut k: u32) -> u8 {
    for (end, &play) in plays.iter().enumerate() {
        let mut rest = play;
        while rest != 0 {
            if k == 0 {
                return (rest.trailing_zeros() as u8) << 2 | end as u8;
            }
            k -= 1;
            rest &= rest - 1;
        }
    }
    unreachable!("k is below the number of plays")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets;
    use crate::state::Line;

    #[test]
    fn playouts_end_every_hand_of_every_variant() {
        let policy = Policy::new(0.3, 4.0, 2.0, Stream::Drawn);
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

    /// R-FIVES-COUNT: the keys' count after a move is `Line::after`'s, on every position of
    /// many random fives and allfives hands (a spinner's arms included).
    #[test]
    fn the_keys_fives_count_is_the_lines() {
        let mut checked = 0;
        for rules in presets::all().into_iter().filter(|r| r.fives()) {
            for seed in 0..100u64 {
                let mut game = Game::new(Table::new(rules));
                game.start_next_hand(&mut crate::rng::Mt19937::new(seed));
                let mut moves = [0u8; 112];
                while !game.t.hand_over {
                    if game.step_forced() {
                        continue;
                    }
                    let (t, n) = (game.t, game.t.legal_moves(&mut moves));
                    let total = t.end_counts[..t.n_ends as usize].iter().sum();
                    for &mv in moves[..n].iter().filter(|_| t.n_ends > 0) {
                        let (tile, end) = (mv >> 2, (mv & 3) as usize);
                        let laid = AFTER[t.ends[end] as usize][tile as usize].count;
                        let expected = Line::of(&t).after(mv).count();
                        assert_eq!(count_after(&t.end_counts, total, end, laid), expected);
                        checked += 1;
                    }
                    game.play(moves[seed as usize % n]);
                }
            }
        }
        assert!(checked > 1000, "only {checked} moves checked");
    }

    /// The fast path on a plain line (a bare Table) makes the choices of the general one (a
    /// Game, which never takes it): over many hands of every variant, from the lead and from
    /// a few plays in, both end alike (the hands, the line, the seat to move and the outcome).
    #[test]
    fn the_plain_lines_fast_path_plays_as_the_general_path() {
        let mut plain = 0;
        let kinds = [Stream::Drawn, Stream::Keyed];
        for (rules, kind) in presets::all()
            .into_iter()
            .flat_map(|r| kinds.map(|k| (r, k)))
        {
            for seed in 0..300u64 {
                let mut policy = Policy::new(0.3, 4.0, 2.0, kind);
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
                let state = |t: &Table| {
                    let line = (t.ends, t.end_counts, t.fit, t.line_count);
                    (t.hands, line, t.drawn, t.passes, t.to_move, t.outcome)
                };
                assert_eq!(
                    state(&game.t),
                    state(&table),
                    "{rules:?} {kind:?} seed {seed}"
                );
            }
        }
        assert!(plain > 1000, "only {plain} hands took the fast path");
    }

    /// A modelled playout reads each of its decisions as a view of it would (R-VIEW): what it
    /// keeps of the table, action by action, and the reply it worked out ahead of every deal
    /// give the choices of a playout that rebuilds each decision's moment from the game's
    /// history (`model::moments`, which the logs' features are pinned to), on random positions
    /// of every variant, with a net that reads every feature.
    #[test]
    fn a_modelled_playout_reads_the_table_as_a_view_does() {
        use crate::model::{moments, Mixture, Net, ROLES};
        use crate::search::position;
        use crate::view::{tests::random_decisions, View};
        let net = Net::dense(13, 6.0);
        let mixture = Mixture {
            nets: [net; ROLES],
            beta: 0.0,
            prior: [1.0, 0.0, 0.0],
        };
        let (mut playouts, mut drawn_moves) = (0, 0);
        random_decisions(5, 3, 2, |game, view| {
            let (template, _, lines) = position(view);
            let table = TableModel::new(view, &template, &lines, &mixture, 6);
            let mut policy = Policy::new(0.1, 4.0, 2.0, Stream::Keyed).modelled();
            policy.new_stream(&mut Xoshiro::new(game.history.len() as u64));
            let mv = view.legal[0];
            let mut t = game.t;
            t.play(mv);
            policy.play_out_modelled(&mut t, &table, 0);
            let mut rebuilt = game.clone();
            rebuilt.play(mv);
            let (mut drawn, mut left) = (0, table.moves);
            while left > 0 && !rebuilt.t.hand_over {
                if rebuilt.step_forced() {
                    continue;
                }
                let seat = rebuilt.t.to_move;
                let mv = if seat == view.seat {
                    policy.choose_on_any_line(&rebuilt.t, &mut drawn)
                } else {
                    left -= 1;
                    let now = View::of(&rebuilt, rebuilt.t.legal_vec());
                    let moment = *moments(&now, &position(&now).2).last().unwrap();
                    let hand = rebuilt.t.hands[seat as usize];
                    drawn_moves += usize::from(now.legal.len() > 1);
                    moment.draw_move(&net, hand, || policy.chance(&mut drawn))
                };
                rebuilt.play(mv);
            }
            policy.play_out_from(&mut rebuilt, drawn);
            let state = |t: &Table| (t.hands, t.ends, t.drawn, t.to_move, t.outcome);
            assert_eq!(state(&t), state(&rebuilt.t), "{:?}", view.rules);
            playouts += 1;
        });
        assert!(
            playouts > 500 && drawn_moves > 2000,
            "{playouts} {drawn_moves}"
        );
    }

    /// A keyed stream serves every playout on a deal the same numbers (common random numbers)
    /// and the next deal others, spread evenly over [0, 1).
    #[test]
    fn a_keyed_stream_repeats_on_a_deal_and_is_uniform() {
        let mut policy = Policy::new(0.1, 4.0, 2.0, Stream::Keyed);
        let numbers = |policy: &Policy| {
            let mut drawn = 0;
            (0..1000)
                .map(|_| policy.chance(&mut drawn))
                .collect::<Vec<f64>>()
        };
        let mut rng = Xoshiro::new(7);
        policy.new_stream(&mut rng);
        let first = numbers(&policy);
        assert_eq!(first, numbers(&policy));
        policy.new_stream(&mut rng);
        let second = numbers(&policy);
        assert!(first.iter().zip(&second).all(|(a, b)| a != b));
        let mut deciles = [0; 10];
        for x in first.iter().chain(&second) {
            assert!((0.0..1.0).contains(x));
            deciles[(x * 10.0) as usize] += 1;
        }
        assert!(
            deciles.iter().all(|n| (150..=250).contains(n)),
            "{deciles:?}"
        );
    }
}
