//! domsim's core: the rules of every variant (the R-… ids of docs/RULES.md) and the insane search.
//! Single-threaded by design: the runner forks worker processes.

pub mod action;
pub mod belief;
#[cfg(test)]
mod belief_tests;
pub mod deal;
pub mod error;
pub mod game;
pub mod hash;
pub mod model;
#[cfg(test)]
mod perft;
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
