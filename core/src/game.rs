//! A whole match: the `Table` of the hand in play, the hand's history of actions and every
//! finished hand's outcome. What the Python face (`domsim.engine.State`) wraps.

use crate::action::{Action, Kind};
use crate::deal::{deal, first_lead, next_leader};
use crate::error::{CoreError, CoreResult};
use crate::rng::Bits;
use crate::rules::Rules;
use crate::state::{Outcome, Table};

/// A position to build a match at (`Game::from_position`): the hand in play as the referee
/// holds it, and the match around it.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// Each seat's tiles now, as masks.
    pub hands: &'a [u32],
    /// The whole boneyard in draw order, the tiles drawn so far first (undealt tiles of a game
    /// that does not draw lie here too).
    pub boneyard: &'a [u8],
    pub leader: u8,
    /// The tile the lead must be (R-LEAD), or -1 for any.
    pub lead_tile: i8,
    /// The hand's actions so far, as `Action` bits (draws with their tiles), read here.
    pub history: &'a [u32],
    /// The match's scores per side and the kozel carry when the hand began.
    pub scores: &'a [i32],
    pub carry: i32,
    pub hand_number: i32,
    /// Whether a draw or pass of the history must have been forced (R-MUST); false for a world
    /// a seat imagines, whose hidden hands need only hold together.
    pub check_must: bool,
}

/// Whether a deal can start a hand: hands and boneyard of distinct tiles 0..27 (not every tile
/// need be dealt: a rules test deals a few), a leader at the table and a forced lead it holds.
pub fn check_deal(
    rules: &Rules,
    hands: &[u32],
    boneyard: &[u8],
    leader: u8,
    lead_tile: i8,
) -> CoreResult<()> {
    let players = rules.players;
    let bad = |why: String| Err(CoreError::InvalidPosition(why));
    if hands.len() != players || leader as usize >= players {
        return bad(format!(
            "a deal needs {players} hands and a leader below {players}"
        ));
    }
    if hands.iter().any(|&h| h >> 28 != 0) || boneyard.iter().any(|&t| t >= 28) {
        return bad("tile ids run 0..27".into());
    }
    let mut seen = 0u32;
    for tiles in hands
        .iter()
        .copied()
        .chain(boneyard.iter().map(|&t| 1u32 << t))
    {
        if seen & tiles != 0 {
            return bad("the deal holds a tile twice".into());
        }
        seen |= tiles;
    }
    if lead_tile >= 28 || lead_tile >= 0 && hands[leader as usize] >> lead_tile & 1 == 0 {
        return bad(format!(
            "the forced lead {lead_tile} is not a tile the leader holds"
        ));
    }
    Ok(())
}

#[derive(Clone)]
pub struct Game {
    pub t: Table,
    pub history: Vec<Action>,
    pub results: Vec<Outcome>,
    pub hand_number: i32,
}

impl Game {
    pub fn new(t: Table) -> Self {
        Game {
            t,
            history: Vec::with_capacity(64),
            results: Vec::new(),
            hand_number: -1,
        }
    }

    pub fn start_hand(&mut self, hands: &[u32], boneyard: &[u8], leader: u8, lead_tile: i8) {
        self.t.start_hand(hands, boneyard, leader, lead_tile);
        self.history.clear();
        self.hand_number += 1;
    }

    /// Deal the next hand from the match generator and decide its lead.
    pub fn start_next_hand(&mut self, bits: &mut impl Bits) {
        let d = deal(bits, &self.t.rules);
        let players = self.t.rules.players;
        let boneyard = &d.boneyard[..d.bone_len];
        if self.hand_number < 0 {
            if self.t.rules.by_lot() {
                let leader = bits.randbelow(players as u32) as u8;
                self.start_hand(&d.hands[..players], boneyard, leader, -1);
            } else {
                let (seat, tile) = first_lead(&self.t.rules, &d.hands[..players]);
                self.start_hand(&d.hands[..players], boneyard, seat, tile as i8);
            }
        } else {
            let leader = next_leader(&self.t);
            self.start_hand(&d.hands[..players], boneyard, leader, -1);
        }
    }

    fn record(&mut self, action: Action) {
        self.history.push(action);
        if self.t.hand_over {
            self.results
                .push(self.t.outcome.expect("a finished hand has an outcome"));
        }
    }

    pub fn play(&mut self, mv: u8) {
        let action = self.t.play(mv);
        self.record(action);
    }

    pub fn draw(&mut self) -> u8 {
        let action = self.t.draw();
        self.record(action);
        action.tile()
    }

    pub fn pass_turn(&mut self) {
        let action = self.t.pass_turn();
        self.record(action);
    }

    /// Lay `mv` when the rules allow it.
    pub fn try_play(&mut self, mv: u8) -> CoreResult<()> {
        self.t.check_play(mv)?;
        self.play(mv);
        Ok(())
    }

    /// Draw the next boneyard tile when the rules allow it; returns the tile.
    pub fn try_draw(&mut self) -> CoreResult<u8> {
        self.t.check_draw()?;
        Ok(self.draw())
    }

    /// Pass when the rules allow it.
    pub fn try_pass(&mut self) -> CoreResult<()> {
        self.t.check_pass()?;
        self.pass_turn();
        Ok(())
    }

    /// Begin a hand from a deal the rules accept (`check_deal`), once the last one is over.
    pub fn try_start_hand(
        &mut self,
        hands: &[u32],
        boneyard: &[u8],
        leader: u8,
        lead_tile: i8,
    ) -> CoreResult<()> {
        self.check_can_start()?;
        check_deal(&self.t.rules, hands, boneyard, leader, lead_tile)?;
        self.start_hand(hands, boneyard, leader, lead_tile);
        Ok(())
    }

    /// A new hand starts only once the last is over and while the match is undecided.
    pub fn check_can_start(&self) -> CoreResult<()> {
        if !self.t.hand_over {
            return Err(CoreError::InvalidPosition(
                "a hand is in play: finish it before starting another".into(),
            ));
        }
        if self.t.match_over {
            return Err(CoreError::InvalidPosition("the match is over".into()));
        }
        Ok(())
    }

    /// The match at `p`: the hand begun from the deal the position implies (each seat's tiles
    /// now and those it played, less those it drew), its history replayed, each action checked
    /// as `try_play`, `try_draw` and `try_pass` check it (R-MUST only with `check_must`) and
    /// agreeing with the position (the seat to move, the boneyard's order, the open numbers).
    pub fn from_position(rules: Rules, p: &Position) -> CoreResult<Game> {
        let bad = |why: String| Err(CoreError::InvalidPosition(why));
        let sides = rules.sides();
        if p.scores.len() != sides || p.hands.len() != rules.players {
            return bad(format!(
                "a position of {} players has {} hands and {sides} scores",
                rules.players, rules.players
            ));
        }
        let undecided = |s: &i32| *s >= 0 && (rules.target == 0 || *s < rules.target);
        if !p.scores.iter().all(undecided) || p.carry < 0 || p.hand_number < 0 {
            return bad(
                "scores run 0 up to the target (not reached), the carry and the hand number from 0"
                    .into(),
            );
        }
        let history = actions_of(p.history)?;
        let start = dealt_hands(&rules, p.hands, &history)?;
        let mut game = Game::new(Table::new(rules));
        game.t.scores[..sides].copy_from_slice(p.scores);
        game.t.carry = p.carry;
        game.hand_number = p.hand_number - 1;
        game.try_start_hand(&start[..rules.players], p.boneyard, p.leader, p.lead_tile)?;
        for (i, &action) in history.iter().enumerate() {
            game.replay(action, p.check_must)
                .map_err(|e| CoreError::InvalidPosition(format!("history action {i}: {e}")))?;
        }
        if game.t.hands[..rules.players] != *p.hands {
            return bad("the hands are not what the deal and the history leave".into());
        }
        Ok(game)
    }

    /// Apply one action of a history being replayed, checked against the position.
    fn replay(&mut self, action: Action, check_must: bool) -> CoreResult<()> {
        let bad = |why: String| Err(CoreError::InvalidPosition(why));
        if self.t.hand_over {
            return bad("the hand is already over".into());
        }
        if action.seat() != self.t.to_move {
            return bad(format!(
                "seat {} acted but seat {} is to move",
                action.seat(),
                self.t.to_move
            ));
        }
        if action.kind() != Kind::Play && action.open_numbers() != self.t.open_numbers() {
            return bad("its open numbers are not those the ends showed".into());
        }
        match action.kind() {
            Kind::Play => self.try_play(action.mv()),
            Kind::Draw if check_must => self.try_draw().map(drop),
            Kind::Pass if check_must => self.try_pass(),
            Kind::Draw if self.t.can_draw() => {
                self.draw();
                Ok(())
            }
            Kind::Draw => bad("a draw with nothing to draw".into()),
            Kind::Pass => {
                self.pass_turn();
                Ok(())
            }
        }?;
        if self.history.last() != Some(&action) {
            return bad("its tile is not the next boneyard tile".into());
        }
        Ok(())
    }

    /// Draw or pass for a seat with no play; false when the seat can play.
    pub fn step_forced(&mut self) -> bool {
        match self.t.step_forced() {
            Some(action) => {
                self.record(action);
                true
            }
            None => false,
        }
    }

    /// Make every forced action and every play that is the only one, up to the next real choice:
    /// the number of legal moves written to `out` (two or more), or 0 once the hand is over.
    pub fn advance(&mut self, out: &mut [u8; 112]) -> usize {
        while !self.t.hand_over {
            if self.step_forced() {
                continue;
            }
            let n = self.t.legal_moves(out);
            if n > 1 {
                return n;
            }
            self.play(out[0]);
        }
        0
    }
}

/// The actions a position's history of bits holds.
fn actions_of(history: &[u32]) -> CoreResult<Vec<Action>> {
    let action = |(i, &bits): (usize, &u32)| {
        Action::from_bits(bits).ok_or_else(|| {
            CoreError::InvalidPosition(format!("history action {i}: {bits} is not an action"))
        })
    };
    history.iter().enumerate().map(action).collect()
}

/// Each seat's hand as dealt, read back from a position: its tiles now (`hands`) and those it
/// played, less those it drew (which must be in its hand or played).
fn dealt_hands(rules: &Rules, hands: &[u32], history: &[Action]) -> CoreResult<[u32; 4]> {
    let mut played = [0u32; 4];
    let mut drawn = [0u32; 4];
    for a in history {
        let seat = a.seat() as usize;
        if seat >= rules.players {
            return Err(CoreError::InvalidPosition(format!("no seat {seat}")));
        }
        match a.kind() {
            Kind::Play => played[seat] |= 1 << a.tile(),
            Kind::Draw => drawn[seat] |= 1 << a.tile(),
            Kind::Pass => {}
        }
    }
    let mut start = [0u32; 4];
    for seat in 0..rules.players {
        let held = hands[seat] | played[seat];
        if hands[seat] & played[seat] != 0 || drawn[seat] & !held != 0 {
            return Err(CoreError::InvalidPosition(format!(
                "seat {seat} holds a tile it played, or lacks one it drew"
            )));
        }
        start[seat] = held & !drawn[seat];
    }
    Ok(start)
}

/// Deal and play `hands` hands of `rules` from `deals`, every choice the `pick(n)`-th of the n
/// legal moves (a new match when one is over), handing each finished hand's game to `each`.
pub fn play_hands(
    rules: crate::rules::Rules,
    hands: u64,
    deals: &mut impl Bits,
    mut pick: impl FnMut(usize) -> usize,
    mut each: impl FnMut(&Game),
) {
    let mut game = Game::new(Table::new(rules));
    let mut moves = [0u8; 112];
    for _ in 0..hands {
        if game.t.match_over {
            game = Game::new(Table::new(rules));
        }
        game.start_next_hand(deals);
        while !game.t.hand_over {
            if game.step_forced() {
                continue;
            }
            let n = game.t.legal_moves(&mut moves);
            game.play(moves[pick(n)]);
        }
        each(&game);
    }
}

/// Deal and play `hands` hands of `rules` with every choice uniformly random: the engine's own
/// speed, no Python in the loop. Returns the actions made.
pub fn random_play(rules: crate::rules::Rules, hands: u64, seed: u64) -> u64 {
    let mut picks = crate::rng::Xoshiro::new(seed);
    let mut actions = 0;
    play_hands(
        rules,
        hands,
        &mut crate::rng::Mt19937::new(seed),
        |n| picks.below(n as u64) as usize,
        |game| actions += game.history.len() as u64,
    );
    actions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Mt19937, Xoshiro};
    use crate::rules::presets;

    fn position_of(g: &Game) -> Game {
        let t = &g.t;
        let sides = t.rules.sides();
        let before: Vec<i32> = (0..sides).map(|s| t.scores[s] - t.hand_points[s]).collect();
        let history: Vec<u32> = g.history.iter().map(|a| a.bits()).collect();
        let p = Position {
            hands: &t.hands[..t.rules.players],
            boneyard: &t.boneyard[..t.bone_len as usize],
            leader: t.leader,
            lead_tile: t.lead_tile,
            history: &history,
            scores: &before,
            carry: t.carry,
            hand_number: g.hand_number,
            check_must: true,
        };
        Game::from_position(t.rules, &p).expect("a position of real play")
    }

    /// Every position of random play of every variant rebuilds into the same table.
    #[test]
    fn from_position_rebuilds_every_position_of_play() {
        for rules in presets::all() {
            let mut deals = Mt19937::new(21);
            let mut picks = Xoshiro::new(21);
            let mut g = Game::new(Table::new(rules));
            for _ in 0..12 {
                if g.t.match_over {
                    g = Game::new(Table::new(rules));
                }
                g.start_next_hand(&mut deals);
                while !g.t.hand_over {
                    let rebuilt = position_of(&g);
                    assert_eq!(format!("{:?}", rebuilt.t), format!("{:?}", g.t));
                    if g.step_forced() {
                        continue;
                    }
                    let legal = g.t.legal_vec();
                    g.play(legal[picks.below(legal.len() as u64) as usize]);
                }
                assert_eq!(position_of(&g).t.outcome, g.t.outcome);
            }
        }
    }

    /// The checked calls refuse what the unchecked ones would do anyway (R-MUST).
    #[test]
    fn the_checked_calls_never_change_a_refused_position() {
        let mut g = Game::new(Table::new(presets::rules("draw", 2)));
        g.start_next_hand(&mut Mt19937::new(1));
        let before = format!("{:?}", g.t);
        assert!(g.try_draw().is_err() && g.try_pass().is_err() && g.try_play(0xff).is_err());
        assert_eq!(format!("{:?}", g.t), before);
        assert!(g.history.is_empty());
    }
}
