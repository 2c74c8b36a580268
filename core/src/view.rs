//! What a seat knows (R-VIEW), as plain data: its own tiles, the line, every public action (a
//! draw without its tile), the counts, scores and target. Built from the referee's state by
//! `View::of`; never holds another hand or the boneyard order. The Python `PlayerView` wraps it.

use crate::action::Action;
use crate::game::Game;
use crate::rules::Rules;
use crate::state::Line;

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
    /// The hand's actions as every seat sees them (`Action::public`: a draw's tile cleared).
    pub actions: Vec<Action>,
}

/// The plays among a history's actions.
fn plays(actions: &[Action]) -> impl Iterator<Item = Action> + '_ {
    actions.iter().copied().filter(|a| a.is_play())
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
            actions: game.history.iter().map(|a| a.public()).collect(),
        }
    }

    pub fn players(&self) -> usize {
        self.rules.players
    }

    /// The tiles this seat has seen: its own and those on the line.
    pub fn seen(&self) -> u32 {
        plays(&self.actions).fold(self.hand, |m, a| m | 1 << a.tile())
    }

    /// The open ends as the view shows them.
    pub fn line(&self) -> Line {
        let mut plays = plays(&self.actions);
        let lead_alone = plays.next().is_some() && plays.next().is_none();
        Line {
            ends: self.ends,
            counts: self.end_counts,
            n: self.n_ends,
            lead_alone,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::action::Kind;
    use crate::belief::known_voids;
    use crate::rng::{Mt19937, Xoshiro};
    use crate::rules::presets;
    use crate::state::Table;
    use crate::tiles::{fitting, ALL_TILES};

    /// Every decision of random hands of every variant, as the seat to move sees it.
    fn decisions(each: impl FnMut(&Game, &View)) {
        random_decisions(5, 40, 6, each);
    }

    /// Every decision with a choice of `games` random games of every variant (up to `hands`
    /// hands each, dealt and played from `seed`), as the seat to move sees it; the game as it
    /// is then (the hands, for a test that checks what a view hides).
    pub(crate) fn random_decisions(
        seed: u64,
        games: usize,
        hands: i32,
        mut each: impl FnMut(&Game, &View),
    ) {
        for rules in presets::all() {
            let mut deals = Mt19937::new(seed);
            let mut picks = Xoshiro::new(seed);
            for _ in 0..games {
                let mut game = Game::new(Table::new(rules));
                while !game.t.match_over && game.hand_number < hands {
                    game.start_next_hand(&mut deals);
                    while !game.t.hand_over {
                        if game.step_forced() {
                            continue;
                        }
                        let legal = game.t.legal_vec();
                        each(&game, &View::of(&game, legal.clone()));
                        game.play(legal[picks.below(legal.len() as u64) as usize]);
                    }
                }
            }
        }
    }

    /// R-FIVES-COUNT, R-SPINNER: the count and the ends a view reads off its line for each legal
    /// move are those the table has once the move is played (a spinner's short sides opening
    /// aside: they count nothing yet), and its count now is the table's.
    #[test]
    fn the_line_after_a_move_is_the_tables() {
        let mut spinner_opened = 0;
        decisions(|game, view| {
            let line = view.line();
            if line.n > 0 {
                assert_eq!(line.count(), game.t.fives_count());
            }
            for &mv in &view.legal {
                assert!(line.fits(mv));
                let after = line.after(mv);
                let mut t = game.t;
                t.play(mv);
                assert_eq!(after.count(), t.fives_count(), "{:?} {mv}", game.t.rules);
                let n = after.n as usize;
                assert_eq!(after.ends[..n], t.ends[..n]);
                assert_eq!(after.counts[..n], t.end_counts[..n]);
                if t.n_ends > after.n {
                    spinner_opened += 1;
                    assert_eq!(t.end_counts[n..t.n_ends as usize], [0, 0]);
                }
            }
        });
        assert!(spinner_opened > 100);
    }

    /// R-MUST, R-VIEW: the numbers a view says a seat lacks are in none of its tiles, and the
    /// tiles it has not seen are exactly those in the other hands, undrawn or out of play.
    #[test]
    fn known_voids_and_unseen_tiles_hold_against_the_deal() {
        let mut voids_seen = 0;
        decisions(|game, view| {
            let t = &game.t;
            let voids = known_voids(view);
            let mut elsewhere = 0u32;
            let drew_last = game.history.last().is_some_and(|a| a.kind() == Kind::Draw);
            let players = t.rules.players;
            for (seat, (&hand, &void)) in t.hands.iter().zip(&voids).take(players).enumerate() {
                let own = seat == view.seat as usize;
                // A seat that just drew holds the tile it found (the only one it can play).
                let found = if own && drew_last {
                    t.playable(view.seat)
                } else {
                    0
                };
                assert_eq!(hand & !found & fitting(void), 0);
                voids_seen += (void != 0) as usize;
                if !own {
                    elsewhere |= hand;
                }
            }
            let undrawn = t.boneyard[t.drawn as usize..t.bone_len as usize]
                .iter()
                .fold(0u32, |m, &b| m | 1 << b);
            let on_line = plays(&game.history).fold(0u32, |m, a| m | 1 << a.tile());
            let out_of_play = ALL_TILES & !(on_line | elsewhere | undrawn | view.hand);
            assert_eq!(ALL_TILES & !view.seen(), elsewhere | undrawn | out_of_play);
            if t.rules.draws || t.rules.players == 4 {
                assert_eq!(out_of_play, 0);
            }
        });
        assert!(voids_seen > 1000);
    }
}
