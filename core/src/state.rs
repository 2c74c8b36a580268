//! The referee's state of one hand and the match scores around it: hands as tile bitmasks, the
//! line as open-end numbers. `Table` is `Copy` and allocation-free, so the search copies it at
//! will; `crate::game::Game` adds the history and the finished hands' results.
//!
//! Moves are `tile << 2 | end`. For the lead, `end` 0 lays the tile as "a-b" (end 0 shows a) and
//! 1 lays it flipped. What was done is an `Action` (crate::action). The unchecked `play`, `draw`
//! and `pass_turn` are the search's; `check_play`, `check_draw` and `check_pass` say why the
//! rules refuse an action, and `Game` never makes one they refuse.

use crate::action::Action;
use crate::error::{CoreError, CoreResult};
use crate::rules::Rules;
use crate::scoring;
use crate::tiles::{is_double, other_number, tile_name, ALL_TILES, NUMBER_MASK, TILE_A, TILE_B};

/// How a hand ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum End {
    Domino,
    Blocked,
    Target,
}

/// The outcome of the last finished hand; points and scores are per side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    pub end: End,
    /// Bitmask of the winning seats.
    pub winners: u8,
    pub points: [i32; 4],
    pub scores: [i32; 4],
    pub carry: i32,
    /// The seat that went out or made the fish.
    pub maker: u8,
    pub capicu: bool,
}

/// A match position: the hand being played and the match's scores.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    pub rules: Rules,
    pub hands: [u32; 4],
    pub boneyard: [u8; 28],
    pub bone_len: u8,
    pub drawn: u8,
    /// The number each open end shows; only the first `n_ends` are open.
    pub ends: [u8; 4],
    /// What each open end adds to the fives count (a double there counts both halves).
    pub end_counts: [i32; 4],
    pub n_ends: u8,
    /// -1: no spinner yet; 0 or 1: the arm it lies on; 2: the lead is the spinner.
    pub spinner_arm: i8,
    pub spinner_depth: u8,
    /// The spinner's number, or -1.
    pub spinner: i8,
    pub arm_len: [u8; 2],
    pub line_count: u8,
    /// The tiles that fit an open end (before the lead: every tile, or the forced lead tile).
    pub fit: u32,
    /// Two ends, nothing that scores: the plain attach path.
    pub plain_line: bool,
    pub to_move: u8,
    pub leader: u8,
    pub lead_tile: i8,
    pub passes: u8,
    pub hand_over: bool,
    pub hand_points: [i32; 4],
    pub scores: [i32; 4],
    pub carry: i32,
    pub match_over: bool,
    /// Bitmask of the match's winning seats once it is over.
    pub match_winners: u8,
    pub outcome: Option<Outcome>,
}

#[inline]
fn two_ends_fit(a: u8, b: u8) -> u32 {
    NUMBER_MASK[a as usize] | NUMBER_MASK[b as usize]
}

/// (the number an end shows once `tile` is laid against `number`, what that end then adds to
/// the fives count).
#[inline]
pub const fn attach(tile: u8, number: u8) -> (u8, i32) {
    let shown = other_number(tile, number);
    (shown, shown as i32 * if is_double(tile) { 2 } else { 1 })
}

/// The two ends a lead opens (`flipped` 1 lays it as "b-a"): the numbers they show and what
/// each adds to the fives count (a double counts both halves).
#[inline]
fn lead_ends(tile: u8, flipped: u8) -> ([u8; 2], [i32; 2]) {
    let (ta, tb) = (TILE_A[tile as usize], TILE_B[tile as usize]);
    let (a, b) = if flipped == 1 { (tb, ta) } else { (ta, tb) };
    let weight = if a == b { 2 } else { 1 };
    ([a, b], [a as i32 * weight, b as i32 * weight])
}

/// The open ends of a line, all a seat sees of it that counts: the number each shows and what it
/// adds to the fives count, the first `n` open (none before the lead); `lead_alone` while the
/// lead is the only tile laid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub ends: [u8; 4],
    pub counts: [i32; 4],
    pub n: u8,
    pub lead_alone: bool,
}

impl Line {
    pub fn of(t: &Table) -> Line {
        Line {
            ends: t.ends,
            counts: t.end_counts,
            n: t.n_ends,
            lead_alone: t.line_count == 1,
        }
    }

    /// R-FIVES-COUNT / R-SPINNER: the open-end total: the lead alone counts its pips (a double
    /// once), a longer line what each open end adds (a double across it both halves, a short
    /// side of the spinner nothing until a tile is laid on it).
    #[inline]
    pub fn count(&self) -> i32 {
        if self.lead_alone {
            return self.ends[0] as i32 + self.ends[1] as i32;
        }
        self.counts[..self.n as usize].iter().sum()
    }

    /// Bitmask of the numbers the open ends show.
    pub fn open_numbers(&self) -> u8 {
        self.ends[..self.n as usize]
            .iter()
            .fold(0, |m, &n| m | 1 << n)
    }

    /// Whether `mv` may be laid here: a lead either way (end 0 or 1), any other tile on an
    /// open end showing one of its numbers.
    pub fn fits(&self, mv: u8) -> bool {
        let (tile, end) = (mv >> 2, mv & 3);
        if tile >= 28 {
            return false;
        }
        if self.n == 0 {
            return end < 2;
        }
        end < self.n && NUMBER_MASK[self.ends[end as usize] as usize] >> tile & 1 == 1
    }

    /// The line once `mv` (which `fits`) is laid, as `Table::play` lays it; a spinner's short
    /// sides opening are not followed (R-SPINNER: they count nothing until played on, so the
    /// count is the same; only the table knows when they open).
    #[inline]
    pub fn after(&self, mv: u8) -> Line {
        let (tile, end) = (mv >> 2, (mv & 3) as usize);
        let mut line = *self;
        if self.n == 0 {
            let (ends, counts) = lead_ends(tile, end as u8);
            line.ends[..2].copy_from_slice(&ends);
            line.counts[..2].copy_from_slice(&counts);
            line.n = 2;
            line.lead_alone = true;
        } else {
            (line.ends[end], line.counts[end]) = attach(tile, self.ends[end]);
            line.lead_alone = false;
        }
        line
    }
}

impl Table {
    pub fn new(rules: Rules) -> Self {
        Table {
            rules,
            hands: [0; 4],
            boneyard: [0; 28],
            bone_len: 0,
            drawn: 0,
            ends: [0; 4],
            end_counts: [0; 4],
            n_ends: 0,
            spinner_arm: -1,
            spinner_depth: 0,
            spinner: -1,
            arm_len: [0; 2],
            line_count: 0,
            fit: ALL_TILES,
            plain_line: false,
            to_move: 0,
            leader: 0,
            lead_tile: -1,
            passes: 0,
            hand_over: true,
            hand_points: [0; 4],
            scores: [0; 4],
            carry: 0,
            match_over: false,
            match_winners: 0,
            outcome: None,
        }
    }

    /// Begin a hand from a deal. `lead_tile` >= 0 forces the lead (R-LEAD).
    pub fn start_hand(&mut self, hands: &[u32], boneyard: &[u8], leader: u8, lead_tile: i8) {
        self.hands = [0; 4];
        self.hands[..hands.len()].copy_from_slice(hands);
        self.boneyard = [0; 28];
        self.boneyard[..boneyard.len()].copy_from_slice(boneyard);
        self.bone_len = boneyard.len() as u8;
        self.drawn = 0;
        self.ends = [0; 4];
        self.end_counts = [0; 4];
        self.n_ends = 0;
        self.spinner_arm = -1;
        self.spinner_depth = 0;
        self.spinner = -1;
        self.arm_len = [0; 2];
        self.line_count = 0;
        self.fit = if lead_tile < 0 {
            ALL_TILES
        } else {
            1 << lead_tile
        };
        self.plain_line = false;
        self.to_move = leader;
        self.leader = leader;
        self.lead_tile = lead_tile;
        self.passes = 0;
        self.hand_over = false;
        self.hand_points = [0; 4];
        self.outcome = None;
    }

    #[inline]
    pub fn next_seat(&self, seat: u8) -> u8 {
        if seat as usize + 1 == self.rules.players {
            0
        } else {
            seat + 1
        }
    }

    /// Bitmask of the numbers showing on the playable ends (none before the lead).
    #[inline]
    pub fn open_numbers(&self) -> u8 {
        if self.n_ends == 0 {
            return 0;
        }
        // A number is open exactly when its double fits.
        const DOUBLES: [u8; 7] = [0, 7, 13, 18, 22, 25, 27];
        DOUBLES.iter().enumerate().fold(0, |numbers, (n, &d)| {
            numbers | (((self.fit >> d) & 1) as u8) << n
        })
    }

    /// Whether the variant draws and the boneyard holds a tile: what a seat with no play does
    /// then (a seat with a play may not draw: `check_draw`).
    #[inline]
    pub fn can_draw(&self) -> bool {
        self.rules.draws && self.drawn < self.bone_len
    }

    pub fn boneyard_left(&self) -> u8 {
        self.bone_len - self.drawn
    }

    /// Tiles of `seat` that fit some open end (the whole hand before the lead).
    #[inline]
    pub fn playable(&self, seat: u8) -> u32 {
        self.hands[seat as usize] & self.fit
    }

    /// The plays open to the seat to move, in the documented order: by end, then by tile;
    /// the lead lists each tile once, as written (end 0). Returns how many were written.
    pub fn legal_moves(&self, out: &mut [u8; 112]) -> usize {
        let hand = self.hands[self.to_move as usize];
        let mut count = 0;
        if self.n_ends == 0 {
            for t in crate::tiles::tiles_of(hand & self.fit) {
                out[count] = t << 2;
                count += 1;
            }
            return count;
        }
        for end in 0..self.n_ends {
            for t in crate::tiles::tiles_of(hand & NUMBER_MASK[self.ends[end as usize] as usize]) {
                out[count] = t << 2 | end;
                count += 1;
            }
        }
        count
    }

    pub fn legal_vec(&self) -> Vec<u8> {
        let mut buf = [0u8; 112];
        let n = self.legal_moves(&mut buf);
        buf[..n].to_vec()
    }

    /// Whether `mv` is one of the plays the rules allow now (the lead may be laid either way).
    pub fn is_legal(&self, mv: u8) -> bool {
        let (tile, end) = (mv >> 2, mv & 3);
        if tile >= 28 || self.hands[self.to_move as usize] >> tile & 1 == 0 {
            return false;
        }
        if self.n_ends == 0 {
            return end < 2 && self.fit >> tile & 1 == 1;
        }
        end < self.n_ends && NUMBER_MASK[self.ends[end as usize] as usize] >> tile & 1 == 1
    }

    /// The open ends `tile` fits, as a bitmask of end indices (before the lead: both ways,
    /// when the tile may lead).
    pub fn ends_fitting(&self, tile: u8) -> u8 {
        if tile >= 28 {
            return 0;
        }
        if self.n_ends == 0 {
            return if self.fit >> tile & 1 == 1 { 0b11 } else { 0 };
        }
        (0..self.n_ends)
            .filter(|&e| NUMBER_MASK[self.ends[e as usize] as usize] >> tile & 1 == 1)
            .fold(0, |m, e| m | 1 << e)
    }

    fn check_in_play(&self, what: &'static str) -> CoreResult<()> {
        if self.hand_over {
            return Err(CoreError::NoHandInPlay(what));
        }
        Ok(())
    }

    /// Why the rules refuse `mv` for the seat to move now (R-LINE, R-LEAD), if they do.
    pub fn check_play(&self, mv: u8) -> CoreResult<()> {
        self.check_in_play("play")?;
        if self.is_legal(mv) {
            return Ok(());
        }
        let (tile, end) = (mv >> 2, mv & 3);
        let why = if tile >= 28 {
            format!("move {mv} is not tile << 2 | end of a tile 0..27")
        } else if self.hands[self.to_move as usize] >> tile & 1 == 0 {
            format!("seat {} does not hold {}", self.to_move, tile_name(tile))
        } else if self.n_ends == 0 && self.lead_tile >= 0 && tile as i8 != self.lead_tile {
            format!("the lead must be {}", tile_name(self.lead_tile as u8))
        } else if self.n_ends == 0 {
            format!("a lead is laid on end 0 (as written) or 1 (flipped), not {end}")
        } else {
            format!("{} does not fit end {end}", tile_name(tile))
        };
        Err(CoreError::IllegalMove(why))
    }

    /// Why the rules refuse a draw now, if they do (R-MUST, R-DRAW-THEN-PLAY).
    pub fn check_draw(&self) -> CoreResult<()> {
        self.check_in_play("draw")?;
        let why = if self.playable(self.to_move) != 0 {
            "a draw while able to play"
        } else if !self.rules.draws {
            "a draw in a game that passes when stuck"
        } else if !self.can_draw() {
            "a draw with nothing to draw"
        } else {
            return Ok(());
        };
        Err(CoreError::IllegalDraw(why.into()))
    }

    /// Why the rules refuse a pass now, if they do (R-MUST: only a seat that can neither play
    /// nor draw passes).
    pub fn check_pass(&self) -> CoreResult<()> {
        self.check_in_play("pass")?;
        let why = if self.playable(self.to_move) != 0 {
            "a pass while able to play"
        } else if self.can_draw() {
            "a pass while able to draw"
        } else {
            return Ok(());
        };
        Err(CoreError::IllegalPass(why.into()))
    }

    /// Lay a tile; the caller guarantees the move is legal (`check_play`). Returns the action.
    pub fn play(&mut self, mv: u8) -> Action {
        let seat = self.to_move;
        let (tile, end) = (mv >> 2, mv & 3);
        let action = Action::play(seat, tile, end);
        let hand = self.lay_from_hand(tile);
        if self.plain_line {
            self.attach_plain(tile, end);
        } else {
            self.lay_on_line(tile, end);
            if self.rules.fives() && self.score_fives(seat) {
                return action;
            }
        }
        if hand != 0 {
            self.to_move = self.next_seat(seat);
        } else {
            self.go_out(seat, tile);
        }
        action
    }

    /// `play` on a plain line (`plain_line`) for a seat that keeps a tile: the playouts'
    /// fast path, with no action to return and no hand to settle.
    #[inline]
    pub fn lay_on_plain_line(&mut self, mv: u8) {
        let (tile, end) = (mv >> 2, mv & 3);
        self.lay_from_hand(tile);
        self.attach_plain(tile, end);
        self.to_move = self.next_seat(self.to_move);
    }

    /// `tile` leaves the hand of the seat to move for the line: what is left of the hand.
    #[inline]
    fn lay_from_hand(&mut self, tile: u8) -> u32 {
        let hand = &mut self.hands[self.to_move as usize];
        *hand &= !(1u32 << tile);
        self.passes = 0;
        self.line_count += 1;
        *hand
    }

    #[inline]
    fn attach_plain(&mut self, tile: u8, end: u8) {
        let e = end as usize;
        (self.ends[e], self.end_counts[e]) = attach(tile, self.ends[e]);
        self.fit = two_ends_fit(self.ends[0], self.ends[1]);
    }

    /// `seat` played its last tile: out of `play`'s line, which the playouts run through for
    /// every tile laid and which ends a hand once.
    #[cold]
    #[inline(never)]
    fn go_out(&mut self, seat: u8, tile: u8) {
        let outcome = scoring::settle_domino(self, seat, tile);
        self.finish(outcome);
    }

    /// The tile just taken from a hand joins a line that is not plain: as the lead, or on an
    /// end (the spinner's sides growing).
    fn lay_on_line(&mut self, tile: u8, end: u8) {
        if self.line_count == 1 {
            self.lay_lead(tile, end);
        } else {
            self.attach_tile(tile, end);
        }
    }

    fn attach_tile(&mut self, tile: u8, end: u8) {
        let e = end as usize;
        (self.ends[e], self.end_counts[e]) = attach(tile, self.ends[e]);
        if self.rules.spinner && end < 2 {
            self.grow_spinner(e, is_double(tile), self.ends[e]);
        }
        self.fit = two_ends_fit(self.ends[0], self.ends[1]);
        if self.n_ends == 4 {
            self.fit |= two_ends_fit(self.ends[2], self.ends[3]);
        }
    }

    fn lay_lead(&mut self, tile: u8, flipped: u8) {
        let ([a, b], counts) = lead_ends(tile, flipped);
        self.ends[0] = a;
        self.ends[1] = b;
        self.end_counts[..2].copy_from_slice(&counts);
        self.n_ends = 2;
        self.fit = two_ends_fit(a, b);
        self.plain_line = !(self.rules.spinner || self.rules.fives());
        if a == b && self.rules.spinner {
            self.spinner_arm = 2;
            self.spinner = a as i8;
        }
    }

    /// R-SPINNER: the first double becomes the spinner; once both of its long sides hold a tile,
    /// its two short sides open as ends 2 and 3 (counting nothing until played on). A tile
    /// showing `number` was just laid on long side `arm`, which it lengthens.
    fn grow_spinner(&mut self, arm: usize, double: bool, number: u8) {
        self.arm_len[arm] += 1;
        if self.spinner_arm == -1 {
            if double {
                self.spinner_arm = arm as i8;
                self.spinner_depth = self.arm_len[arm];
                self.spinner = number as i8;
            }
            return;
        }
        if self.n_ends == 4 {
            return;
        }
        let both_long = if self.spinner_arm == 2 {
            self.arm_len[0] > 0 && self.arm_len[1] > 0
        } else {
            arm as i8 == self.spinner_arm && self.arm_len[arm] > self.spinner_depth
        };
        if both_long {
            self.ends[2] = self.spinner as u8;
            self.ends[3] = self.spinner as u8;
            self.n_ends = 4;
        }
    }

    /// R-FIVES-COUNT / R-SPINNER: the open-end total after the last play (`Line::count`).
    pub fn fives_count(&self) -> i32 {
        Line::of(self).count()
    }

    /// R-FIVES-COUNT / R-SPINNER: the fives count after each of a hand's plays (`tile << 2 |
    /// end`, in order), laid as `play` lays them with no hands and no turns: what a table shows
    /// a person. None when a play does not fit the line it meets.
    pub fn line_counts(rules: Rules, moves: &[u8]) -> Option<Vec<i32>> {
        let mut t = Table::new(rules);
        let mut counts = Vec::with_capacity(moves.len());
        for &mv in moves {
            if !Line::of(&t).fits(mv) {
                return None;
            }
            t.line_count += 1;
            t.lay_on_line(mv >> 2, mv & 3);
            counts.push(t.fives_count());
        }
        Some(counts)
    }

    /// Score a multiple of 5; true when that reached the target (R-TARGET).
    fn score_fives(&mut self, seat: u8) -> bool {
        let points = scoring::fives_points(self.fives_count());
        let s = seat as usize;
        if points != 0 {
            self.hand_points[s] += points;
            self.scores[s] += points;
            if self.scores[s] >= self.rules.target {
                let outcome = scoring::settle_target(self, seat);
                self.finish(outcome);
                return true;
            }
        }
        false
    }

    /// The seat to move draws the next boneyard tile; the caller guarantees it may
    /// (`check_draw`).
    pub fn draw(&mut self) -> Action {
        let open = self.open_numbers();
        let tile = self.draw_unrecorded();
        Action::draw(self.to_move, tile, open)
    }

    /// `draw` with no action to return: the tile drawn.
    #[inline]
    fn draw_unrecorded(&mut self) -> u8 {
        let tile = self.boneyard[self.drawn as usize];
        self.drawn += 1;
        self.hands[self.to_move as usize] |= 1 << tile;
        tile
    }

    /// The seat to move passes; n passes in a row block the hand (R-BLOCK-PASSES). The caller
    /// guarantees it may (`check_pass`).
    pub fn pass_turn(&mut self) -> Action {
        let action = Action::pass(self.to_move, self.open_numbers());
        self.pass_unrecorded();
        action
    }

    /// `pass_turn` with no action to return.
    #[inline]
    fn pass_unrecorded(&mut self) {
        self.passes += 1;
        if self.passes as usize == self.rules.players {
            self.block();
        } else {
            self.to_move = self.next_seat(self.to_move);
        }
    }

    /// Every seat passed in a row (R-BLOCK-PASSES): out of line, as `go_out`.
    #[cold]
    #[inline(never)]
    fn block(&mut self) {
        let outcome = scoring::settle_block(self);
        self.finish(outcome);
    }

    /// `step_forced` with no action to return (the playouts'): whether the seat drew or passed.
    #[inline]
    pub fn step_forced_unrecorded(&mut self) -> bool {
        let draw = |t: &mut Table| {
            t.draw_unrecorded();
        };
        self.forced(draw, Table::pass_unrecorded).is_some()
    }

    /// Draw or pass for a seat with no play: the action, or None when the seat can play.
    #[inline]
    pub fn step_forced(&mut self) -> Option<Action> {
        self.forced(Table::draw, Table::pass_turn)
    }

    /// R-MUST: a seat with no play draws while it can, else passes; None when it can play.
    #[inline(always)]
    fn forced<A>(
        &mut self,
        draw: impl FnOnce(&mut Self) -> A,
        pass: impl FnOnce(&mut Self) -> A,
    ) -> Option<A> {
        if self.playable(self.to_move) != 0 {
            return None;
        }
        Some(if self.can_draw() {
            draw(self)
        } else {
            pass(self)
        })
    }

    fn finish(&mut self, outcome: Outcome) {
        self.hand_over = true;
        self.outcome = Some(outcome);
        if let Some(winners) = scoring::match_winners(self, &outcome) {
            self.match_over = true;
            self.match_winners = winners;
        }
    }

    pub fn hand_count(&self, seat: usize) -> u32 {
        self.hands[seat].count_ones()
    }

    /// Tiles in all hands.
    pub fn tiles_in_hands(&self) -> u32 {
        self.hands[..self.rules.players]
            .iter()
            .map(|h| h.count_ones())
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::CoreError;
    use crate::rules::presets;
    use crate::tiles::{id, mask};

    /// A hand of `variant` dealt as written, seat 0 leading.
    fn table(variant: &str, hands: &[&str], boneyard: &str) -> Table {
        let rules = presets::rules(variant, hands.len());
        let mut t = Table::new(rules);
        let masks: Vec<u32> = hands.iter().map(|h| mask(h)).collect();
        let bones: Vec<u8> = boneyard.split_whitespace().map(id).collect();
        t.start_hand(&masks, &bones, 0, -1);
        t
    }

    fn mv(tile: &str, end: u8) -> u8 {
        id(tile) << 2 | end
    }

    /// R-FIVES-COUNT, R-SPINNER: a line laid with no hands counts as the played hand did after
    /// each play; a play that fits no end is refused.
    #[test]
    fn line_counts_follow_the_played_hand() {
        let plays = [
            mv("5-5", 0),
            mv("1-5", 0),
            mv("2-5", 1),
            mv("3-5", 2),
            mv("5-6", 3),
            mv("3-4", 2),
        ];
        let mut t = table("allfives", &["5-5 2-5 5-6 0-0", "1-5 3-5 3-4 0-1"], "");
        let played: Vec<i32> = plays
            .iter()
            .map(|&m| {
                t.play(m);
                t.fives_count()
            })
            .collect();
        let rules = presets::rules("allfives", 2);
        assert_eq!(Table::line_counts(rules, &plays), Some(played.clone()));
        assert_eq!(played, [10, 11, 3, 6, 12, 13]);
        assert_eq!(
            Table::line_counts(rules, &[mv("5-5", 0), mv("0-0", 1)]),
            None
        );
        assert_eq!(Table::line_counts(rules, &[mv("5-5", 2)]), None);
    }

    /// R-MUST: a seat with a play may neither draw nor pass; a stuck seat draws while it can,
    /// then passes; a block game never draws.
    #[test]
    fn r_must_draws_and_passes_only_when_stuck() {
        let mut t = table("draw", &["6-6 0-0", "6-1 1-1"], "2-3");
        assert!(t.can_draw() && t.playable(0) != 0);
        assert!(matches!(t.check_draw(), Err(CoreError::IllegalDraw(_))));
        assert!(matches!(t.check_pass(), Err(CoreError::IllegalPass(_))));
        t.play(mv("6-6", 0));
        t.play(mv("1-6", 0));
        assert_eq!(t.playable(0), 0);
        assert_eq!(
            t.check_pass(),
            Err(CoreError::IllegalPass("a pass while able to draw".into()))
        );
        assert_eq!(t.check_draw(), Ok(()));
        assert_eq!(t.draw(), Action::draw(0, id("2-3"), 1 << 1 | 1 << 6));
        assert_eq!(
            t.check_draw(),
            Err(CoreError::IllegalDraw("a draw with nothing to draw".into()))
        );
        assert_eq!(t.check_pass(), Ok(()));
        let mut block = table("block", &["6-6 0-0", "1-2 3-4"], "2-3");
        block.play(mv("6-6", 0));
        assert_eq!(
            block.check_draw(),
            Err(CoreError::IllegalDraw(
                "a draw in a game that passes when stuck".into()
            ))
        );
    }

    /// R-LINE, R-LEAD: a play names a held tile on an end it fits; the forced lead is the lead.
    #[test]
    fn r_line_check_play_says_why() {
        let mut t = table("draw", &["0-0 0-1 2-3", "0-2 4-4"], "");
        t.lead_tile = id("0-0") as i8;
        t.fit = 1 << id("0-0");
        let refusal = |t: &Table, m| match t.check_play(m) {
            Err(CoreError::IllegalMove(why)) => why,
            other => panic!("{other:?}"),
        };
        assert_eq!(refusal(&t, mv("0-1", 0)), "the lead must be 0-0");
        assert_eq!(
            refusal(&t, mv("0-0", 2)),
            "a lead is laid on end 0 (as written) or 1 (flipped), not 2"
        );
        assert_eq!(refusal(&t, mv("4-4", 0)), "seat 0 does not hold 4-4");
        assert_eq!(t.ends_fitting(id("0-0")), 0b11);
        assert_eq!(t.ends_fitting(id("0-1")), 0);
        t.play(mv("0-0", 0));
        assert_eq!(t.ends_fitting(id("0-2")), 0b11);
        t.play(mv("0-2", 1));
        assert_eq!(t.ends[..2], [0, 2]);
        assert_eq!(t.ends_fitting(id("2-3")), 0b10);
        assert_eq!(refusal(&t, mv("2-3", 0)), "2-3 does not fit end 0");
        assert_eq!(t.check_play(mv("2-3", 1)), Ok(()));
        assert_eq!(
            refusal(&t, 28 << 2),
            "move 112 is not tile << 2 | end of a tile 0..27"
        );
    }

    /// R-SPINNER: the first double is the spinner; once both long sides hold a tile its short
    /// sides open as ends 2 and 3, showing its number and counting nothing yet.
    #[test]
    fn r_spinner_opens_four_ends() {
        let mut t = table("allfives", &["5-5 0-5 1-1", "3-5 2-2 4-4"], "");
        t.play(mv("5-5", 0));
        assert_eq!((t.spinner, t.spinner_arm, t.n_ends), (5, 2, 2));
        t.play(mv("3-5", 0));
        assert_eq!(t.n_ends, 2);
        t.play(mv("0-5", 1));
        assert_eq!(t.n_ends, 4);
        assert_eq!(t.ends, [3, 0, 5, 5]);
        assert_eq!(t.end_counts[2..], [0, 0]);
        assert_eq!(t.fives_count(), 3);
        assert_eq!(t.ends_fitting(id("0-5")), 0b1110);
    }

    /// R-FIVES-COUNT, R-FIVES: a lead alone counts its pips (5-5: 10); a multiple of 5 scores
    /// at once, in fives only.
    #[test]
    fn r_fives_the_lead_scores_its_count() {
        let mut t = table("fives", &["5-5 1-1", "0-1 2-2"], "");
        t.play(mv("5-5", 0));
        assert_eq!(t.fives_count(), 10);
        assert_eq!((t.hand_points[0], t.scores[0]), (10, 10));
        let mut plain = table("draw", &["5-5 1-1", "0-1 2-2"], "");
        plain.play(mv("5-5", 0));
        assert!(plain.plain_line && plain.scores[0] == 0);
    }

    /// R-BLOCK-PASSES: n passes in a row block the hand, the last seat that played its maker.
    #[test]
    fn r_block_passes_end_the_hand() {
        let mut t = table("block", &["6-6 0-0", "1-2 3-4", "1-3 2-4"], "");
        t.play(mv("6-6", 0));
        for seat in [1, 2] {
            assert_eq!(t.to_move, seat);
            assert!(!t.hand_over);
            assert_eq!(t.pass_turn(), Action::pass(seat, 1 << 6));
        }
        assert!(!t.hand_over);
        t.pass_turn();
        assert!(t.hand_over);
        let outcome = t.outcome.expect("blocked");
        assert_eq!((outcome.end, outcome.maker), (End::Blocked, 0));
    }

    /// R-END: the seat playing its last tile ends the hand; no action is asked after it.
    #[test]
    fn r_end_domino_ends_the_hand() {
        let mut t = table("draw", &["0-0", "1-1"], "");
        assert_eq!(t.play(mv("0-0", 1)), Action::play(0, id("0-0"), 1));
        assert!(t.hand_over);
        assert_eq!(
            t.check_play(mv("1-1", 0)),
            Err(CoreError::NoHandInPlay("play"))
        );
        assert_eq!(t.check_draw(), Err(CoreError::NoHandInPlay("draw")));
        assert_eq!(t.outcome.expect("over").end, End::Domino);
    }
}
