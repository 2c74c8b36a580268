//! The Python bindings (`domsim._core`), and nothing else: conversions, argument checks, and
//! Rust errors turned into Python exceptions. Nothing here panics on bad input.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

mod search;
mod state;
mod view;

/// Which engine played, for manifests and records: the crate's version and its generators.
const ENGINE: &str = concat!(
    "domsim-core ",
    env!("CARGO_PKG_VERSION"),
    " (Rust; deals and lots: MT19937 as CPython's random; search: xoshiro256**)"
);

pub(crate) fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<state::PyState>()?;
    m.add_class::<state::MatchRng>()?;
    m.add_class::<view::PlayerView>()?;
    m.add_class::<view::ViewBuilder>()?;
    m.add_class::<view::WireViews>()?;
    m.add_function(wrap_pyfunction!(state::deal, m)?)?;
    m.add_function(wrap_pyfunction!(state::first_lead, m)?)?;
    m.add_function(wrap_pyfunction!(state::next_leader, m)?)?;
    m.add_function(wrap_pyfunction!(state::by_lot, m)?)?;
    m.add_function(wrap_pyfunction!(state::random_play, m)?)?;
    m.add_function(wrap_pyfunction!(state::round_to_five, m)?)?;
    m.add_function(wrap_pyfunction!(state::fives_points, m)?)?;
    m.add_function(wrap_pyfunction!(search::insane_move, m)?)?;
    m.add_function(wrap_pyfunction!(search::sample_deals, m)?)?;
    m.add_function(wrap_pyfunction!(search::play_out, m)?)?;
    m.add_function(wrap_pyfunction!(search::solve, m)?)?;
    m.add_function(wrap_pyfunction!(search::solvable, m)?)?;
    m.add_function(wrap_pyfunction!(search::hand_value, m)?)?;
    m.add_function(wrap_pyfunction!(search::play_likelihood, m)?)?;
    m.add_function(wrap_pyfunction!(search::perfect_information_move, m)?)?;
    m.add_class::<search::PyBelief>()?;
    m.add("ENGINE", ENGINE)?;
    m.add("MATCH_SHARE", crate::search::MATCH_SHARE)?;
    m.add("CLASSIC_PIP", crate::search::CLASSIC_PIP)?;
    Ok(())
}
