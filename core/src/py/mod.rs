//! The Python bindings (`domsim._core`), and nothing else: conversions, argument checks, and
//! Rust errors turned into Python exceptions. Nothing here panics on bad input.

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use crate::error::CoreError;

mod action;
mod pipes;
mod search;
mod state;
mod view;

create_exception!(
    domsim._core,
    DomsimError,
    PyValueError,
    "The base of every error domsim raises to a user (domsim.errors); the message is one line."
);
create_exception!(
    domsim._core,
    RulesError,
    DomsimError,
    "A variant, option, deal, position or action the rules do not allow; the message is one line."
);
create_exception!(
    domsim._core,
    IllegalMove,
    RulesError,
    "A play the rules do not allow now (R-LINE, R-LEAD)."
);
create_exception!(
    domsim._core,
    IllegalDraw,
    RulesError,
    "A draw the rules do not allow now (R-MUST, R-DRAW-THEN-PLAY)."
);
create_exception!(
    domsim._core,
    IllegalPass,
    RulesError,
    "A pass the rules do not allow now (R-MUST)."
);
create_exception!(
    domsim._core,
    NoHandInPlay,
    RulesError,
    "An action asked of a match with no hand in play."
);
create_exception!(
    domsim._core,
    InvalidPosition,
    RulesError,
    "A deal or position no match can hold."
);

/// The core's error as its Python exception.
pub(crate) fn core_error(error: CoreError) -> PyErr {
    let message = error.to_string();
    match error {
        CoreError::NoHandInPlay(_) => NoHandInPlay::new_err(message),
        CoreError::IllegalMove(_) => IllegalMove::new_err(message),
        CoreError::IllegalDraw(_) => IllegalDraw::new_err(message),
        CoreError::IllegalPass(_) => IllegalPass::new_err(message),
        CoreError::InvalidPosition(_) => InvalidPosition::new_err(message),
    }
}

pub(crate) fn rules_error(message: impl Into<String>) -> PyErr {
    RulesError::new_err(message.into())
}

/// A Python value the core builds with, handed to it by the module that defines it when that
/// module is imported (`register_results`, `register_view`), never looked up by name.
pub(crate) struct Handed {
    cell: PyOnceLock<Py<PyAny>>,
    /// The public module whose import hands the value over.
    module: &'static str,
}

impl Handed {
    const fn new(module: &'static str) -> Self {
        Handed {
            cell: PyOnceLock::new(),
            module,
        }
    }

    fn set(&self, py: Python<'_>, value: &Bound<'_, PyAny>) {
        // A module imported again (importlib.reload) hands an equal value: the first one stays.
        let _ = self.cell.set(py, value.clone().unbind());
    }

    pub(crate) fn get<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if self.cell.get(py).is_none() {
            py.import(self.module)?;
        }
        self.cell
            .get(py)
            .map(|value| value.bind(py).clone())
            .ok_or_else(|| {
                PyRuntimeError::new_err(format!(
                    "{} did not hand the core its classes",
                    self.module
                ))
            })
    }
}

pub(crate) static HAND_RESULT: Handed = Handed::new("domsim.engine.results");
pub(crate) static TILES: Handed = Handed::new("domsim.view");
pub(crate) static MOVES: Handed = Handed::new("domsim.view");
pub(crate) static EVENT_OF: Handed = Handed::new("domsim.view");

/// domsim.engine.results hands over the class of a finished hand's result.
#[pyfunction]
fn register_results(py: Python<'_>, hand_result: &Bound<'_, PyAny>) {
    HAND_RESULT.set(py, hand_result);
}

/// domsim.view hands over the `Tile` of every id, the `Move` of every move int and the function
/// turning a public action into an `Event`.
#[pyfunction]
#[pyo3(signature = (*, tiles, moves, event_of))]
fn register_view(
    py: Python<'_>,
    tiles: &Bound<'_, pyo3::types::PyTuple>,
    moves: &Bound<'_, pyo3::types::PyTuple>,
    event_of: &Bound<'_, PyAny>,
) -> PyResult<()> {
    if tiles.len() != 28 || moves.len() != 28 * 4 || !event_of.is_callable() {
        return Err(value_error(
            "register_view takes the 28 tiles, the 112 moves and a callable",
        ));
    }
    TILES.set(py, tiles.as_any());
    MOVES.set(py, moves.as_any());
    EVENT_OF.set(py, event_of);
    Ok(())
}

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
    let py = m.py();
    m.add("DomsimError", py.get_type::<DomsimError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("IllegalMove", py.get_type::<IllegalMove>())?;
    m.add("IllegalDraw", py.get_type::<IllegalDraw>())?;
    m.add("IllegalPass", py.get_type::<IllegalPass>())?;
    m.add("NoHandInPlay", py.get_type::<NoHandInPlay>())?;
    m.add("InvalidPosition", py.get_type::<InvalidPosition>())?;
    m.add_function(wrap_pyfunction!(register_results, m)?)?;
    m.add_function(wrap_pyfunction!(register_view, m)?)?;
    m.add_function(wrap_pyfunction!(action::encode_action, m)?)?;
    m.add_function(wrap_pyfunction!(action::decode_action, m)?)?;
    m.add_function(wrap_pyfunction!(state::points_against, m)?)?;
    m.add_function(wrap_pyfunction!(state::scores_count, m)?)?;
    m.add_function(wrap_pyfunction!(state::tally, m)?)?;
    m.add_function(wrap_pyfunction!(state::line_counts, m)?)?;
    m.add_function(wrap_pyfunction!(state::held_value, m)?)?;
    m.add_class::<state::PyState>()?;
    m.add_class::<state::MatchRng>()?;
    m.add_class::<view::PlayerView>()?;
    m.add_class::<view::ViewBuilder>()?;
    m.add_class::<view::WireViews>()?;
    m.add_class::<pipes::Pipes>()?;
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
    m.add_function(wrap_pyfunction!(search::move_features, m)?)?;
    m.add_function(wrap_pyfunction!(search::seat_role, m)?)?;
    m.add("PLAY_FEATURES", crate::model::FEATURE_NAMES.to_vec())?;
    m.add("PLAY_HIDDEN", crate::model::HIDDEN)?;
    m.add("SEAT_ROLES", crate::model::ROLE_NAMES.to_vec())?;
    m.add_function(wrap_pyfunction!(search::model_likelihood, m)?)?;
    m.add_function(wrap_pyfunction!(search::perfect_information_move, m)?)?;
    m.add_class::<search::PyBelief>()?;
    m.add("ENGINE", ENGINE)?;
    m.add("MATCH_SHARE", crate::search::MATCH_SHARE)?;
    m.add("CLASSIC_PIP", crate::search::CLASSIC_PIP)?;
    Ok(())
}
