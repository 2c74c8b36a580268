//! domsim's core: the rules of every variant (R-… of the rule book) and the insane search.
//! Single-threaded by design: the runner forks worker processes.

pub mod belief;
pub mod deal;
pub mod game;
pub mod rng;
pub mod rules;
pub mod scoring;
pub mod search;
pub mod state;
pub mod tiles;
pub mod view;
pub mod wire;

#[cfg(feature = "python")]
mod py;
