//! What a seat knows (R-VIEW), as plain data: its own tiles, the line, every public action (a
//! draw without its tile), the counts, scores and target. Built from the referee's state by
//! `View::of`; never holds another hand or the boneyard order. The Python `PlayerView` wraps it.

use crate::game::Game;
use crate::rules::Rules;
use crate::state::DRAW;

#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub rules: Rules,
    pub seat: u8,
    pub hand: u32,
    pub ends: [u8; 4],
    pub n_ends: u8,
    pub end_counts: [i32; 4],
    pub hand_counts: [u8; 4],
    pub boneyard_count: u8,
    pub can_draw: bool,
    pub scores: [i32; 4],
    pub carry: i32,
    pub hand_number: i32,
    pub leader: u8,
    pub spinner: i8,
    pub legal: Vec<u8>,
    /// The hand's actions as the engine encodes them, a draw's tile cleared.
    pub actions: Vec<u32>,
}

/// An action as every seat sees it: a draw without the tile drawn.
#[inline]
pub fn public_action(action: u32) -> u32 {
    if action & 3 == DRAW {
        action & !(31 << 4)
    } else {
        action
    }
}

impl View {
    /// The view of the seat to move, with the legal moves given.
    pub fn of(game: &Game, legal: Vec<u8>) -> View {
        let t = &game.t;
        let seat = t.to_move;
        let mut hand_counts = [0u8; 4];
        for (s, count) in hand_counts.iter_mut().enumerate().take(t.rules.players) {
            *count = t.hands[s].count_ones() as u8;
        }
        View {
            rules: t.rules,
            seat,
            hand: t.hands[seat as usize],
            ends: t.ends,
            n_ends: t.n_ends,
            end_counts: t.end_counts,
            hand_counts,
            boneyard_count: t.boneyard_left(),
            can_draw: t.can_draw(),
            scores: t.scores,
            carry: t.carry,
            hand_number: game.hand_number,
            leader: t.leader,
            spinner: t.spinner,
            legal,
            actions: game.history.iter().map(|&a| public_action(a)).collect(),
        }
    }

    pub fn players(&self) -> usize {
        self.rules.players
    }

    /// The tiles this seat has seen: its own and those on the line.
    pub fn seen(&self) -> u32 {
        self.actions
            .iter()
            .filter(|&&a| a & 3 == crate::state::PLAY)
            .fold(self.hand, |m, &a| m | 1 << (a >> 4 & 31))
    }
}
