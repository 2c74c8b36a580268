//! A whole match: the `Table` of the hand in play, the hand's history of actions and every
//! finished hand's outcome. What the Python face (`domsim.engine.State`) wraps.

use crate::deal::{deal, first_lead, next_leader};
use crate::rng::Bits;
use crate::state::{Outcome, Table};

#[derive(Clone)]
pub struct Game {
    pub t: Table,
    pub history: Vec<u32>,
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

    fn record(&mut self, action: u32) {
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
        (action >> 4 & 31) as u8
    }

    pub fn pass_turn(&mut self) {
        let action = self.t.pass_turn();
        self.record(action);
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

/// Deal and play `hands` hands of `rules` with every choice uniformly random (a new match when
/// one is over): the engine's own speed, no Python in the loop. Returns the actions made.
pub fn random_play(rules: crate::rules::Rules, hands: u64, seed: u64) -> u64 {
    let mut deals = crate::rng::Mt19937::new(seed);
    let mut picks = crate::rng::Xoshiro::new(seed);
    let mut game = Game::new(Table::new(rules));
    let mut moves = [0u8; 112];
    let mut actions = 0;
    for _ in 0..hands {
        if game.t.match_over {
            game = Game::new(Table::new(rules));
        }
        game.start_next_hand(&mut deals);
        while !game.t.hand_over {
            if game.step_forced() {
                continue;
            }
            let n = game.t.legal_moves(&mut moves);
            game.play(moves[picks.below(n as u64) as usize]);
        }
        actions += game.history.len() as u64;
    }
    actions
}
