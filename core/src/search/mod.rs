//! Determinized search (R-LEVEL insane): every legal move is played out to the end of the hand on
//! the same sampled deals, and the move with the best average value is chosen.
//!
//! A deal (`deals`) is a `Table` at the view's position (`position`) with the hidden hands filled
//! in. From it a move is valued by a fast playout (`playout`: every seat, seeing the whole deal,
//! dumps its heaviest playable tile, favouring one that shuts out the next seat or keeps a
//! follow-up, now and then a random one, with the same random numbers for every move on a deal)
//! or, once few tiles remain, nothing is left to draw and the game has two sides, by an exact
//! alpha-beta solver with a transposition table (`solver`). Values are in the variant's own
//! currency (`judge`). Each deal may be weighted by how likely the other seats' plays were on it
//! (`PlayModel`), and sampling (`evaluate`) spends its deals on the moves still in contention: a
//! move clearly beaten by the best is no longer played out, and sampling stops once one move is
//! left or, with a `loss` setting, once the expected loss of choosing the best so far is below
//! it (`stop`, a sequential stop: easy decisions take few deals, close ones up to the cap).

mod deals;
mod evaluate;
mod judge;
mod mirror;
mod playout;
mod position;
mod solver;
mod stop;

pub use deals::Deals;
pub use evaluate::{evaluate, Evaluation, Settings};
pub use judge::{Judge, CLASSIC_PIP, MATCH_SHARE};
pub use playout::{Playable, Policy, Stream};
pub use position::position;
pub use solver::{solvable, Solver};

use crate::model::TableModel;
use crate::rng::Xoshiro;
use crate::view::View;

/// insane's move for the view's seat.
pub fn choose(view: &View, settings: &Settings, seed: u64) -> Result<u8, String> {
    let mut rng = Xoshiro::new(seed);
    let mut deals = Deals::new(view, settings.beta, settings.model, settings.resample)?;
    let judge = Judge::new(&view.rules, view.seat);
    let table = (settings.model_moves > 0)
        .then_some(settings.model.as_ref())
        .flatten()
        .map(|m| {
            let (template, _, lines) = position(view);
            TableModel::new(view, &template, &lines, m, settings.model_moves)
        });
    let evaluation = evaluate(
        settings,
        judge,
        &view.legal,
        table.as_ref(),
        &mut rng,
        |rng| deals.next(rng),
    )?;
    Ok(evaluation.best(&view.legal))
}
