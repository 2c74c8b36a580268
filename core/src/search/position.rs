//! The table a search starts from: the view's position replayed, every hidden hand a
//! placeholder until a sampled deal fills it in.

use crate::action::Kind;
use crate::state::{Line, Table};
use crate::tiles::{fitting, ALL_TILES};
use crate::view::View;

/// A Table at the view's position: the line, the fives points, the scores and the seat to move
/// as in the game, every hand holding placeholder tiles until a deal is filled in; the tiles
/// that fitted the open ends before each action of the history, and the line then.
pub fn position(view: &View) -> (Table, Vec<u32>, Vec<Line>) {
    let mut t = Table::new(view.rules);
    t.carry = view.carry;
    let (hands, draws) = placeholder_deal(view);
    t.start_hand(&hands, &vec![0u8; draws], view.leader, -1);
    let mut fits = Vec::with_capacity(view.actions.len());
    let mut lines = Vec::with_capacity(view.actions.len());
    for a in &view.actions {
        lines.push(Line::of(&t));
        fits.push(if fits.is_empty() {
            ALL_TILES
        } else {
            fitting(t.open_numbers())
        });
        match a.kind() {
            Kind::Play => t.play(a.mv()),
            Kind::Draw => t.draw(),
            Kind::Pass => t.pass_turn(),
        };
    }
    t.scores = view.scores;
    (t, fits, lines)
}

/// A deal the view's history replays on: each seat holding the tiles it played and every tile
/// nobody played (so that no hand empties while the history is replayed), and the number of
/// draws.
fn placeholder_deal(view: &View) -> (Vec<u32>, usize) {
    let mut played = [0u32; 4];
    let mut draws = 0;
    for a in &view.actions {
        match a.kind() {
            Kind::Play => played[a.seat() as usize] |= 1 << a.tile(),
            Kind::Draw => draws += 1,
            Kind::Pass => {}
        }
    }
    let filler = ALL_TILES & !played.iter().fold(0, |m, p| m | p);
    let hands = played[..view.players()]
        .iter()
        .map(|p| p | filler)
        .collect();
    (hands, draws)
}

/// `template` holding a full deal: every hand, and the undrawn boneyard in draw order.
pub fn with_deal(template: &Table, hands: &[u32; 4], boneyard: &[u8]) -> Table {
    let mut t = *template;
    t.hands = *hands;
    let kept = if t.rules.draws { boneyard } else { &[] };
    t.boneyard[..kept.len()].copy_from_slice(kept);
    t.bone_len = kept.len() as u8;
    t.drawn = 0;
    t
}
