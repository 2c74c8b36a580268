//! `Action` as Python sees it: an int of the engine's encoding both ways (checked on the way
//! in), and the encoder and decoder `domsim.engine.Action` reads and writes it with.

use std::convert::Infallible;

use pyo3::prelude::*;
use pyo3::types::PyInt;

use super::value_error;
use crate::action::{Action, Kind};

impl<'py> IntoPyObject<'py> for Action {
    type Target = PyInt;
    type Output = Bound<'py, PyInt>;
    type Error = Infallible;

    fn into_pyobject(self, py: Python<'py>) -> Result<Self::Output, Self::Error> {
        self.bits().into_pyobject(py)
    }
}

impl<'py> IntoPyObject<'py> for &Action {
    type Target = PyInt;
    type Output = Bound<'py, PyInt>;
    type Error = Infallible;

    fn into_pyobject(self, py: Python<'py>) -> Result<Self::Output, Self::Error> {
        (*self).into_pyobject(py)
    }
}

impl<'py> FromPyObject<'_, 'py> for Action {
    type Error = PyErr;

    /// ValueError for an int no action has.
    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        let bits: u32 = obj.extract()?;
        Action::from_bits(bits)
            .ok_or_else(|| value_error(format!("{bits} is not an action of the engine's encoding")))
    }
}

/// The bits of an action (see `domsim.engine.Action`); ValueError for fields out of range.
#[pyfunction]
#[pyo3(signature = (kind, seat, tile = 0, end = 0, open_numbers = 0))]
pub fn encode_action(kind: u8, seat: u8, tile: u8, end: u8, open_numbers: u8) -> PyResult<Action> {
    if seat > 3 || tile > 27 || end > 3 || open_numbers > 127 {
        return Err(value_error(
            "an action has a seat 0..3, a tile 0..27, an end 0..3 and open numbers 0..127",
        ));
    }
    match kind {
        0 => Ok(Action::play(seat, tile, end)),
        1 => Ok(Action::draw(seat, tile, open_numbers)),
        2 => Ok(Action::pass(seat, open_numbers)),
        _ => Err(value_error(
            "an action's kind is 0 (play), 1 (draw) or 2 (pass)",
        )),
    }
}

/// (kind, seat, tile, end, open_numbers) of an action's bits; ValueError for bits no action
/// has.
#[pyfunction]
pub fn decode_action(bits: Action) -> (u8, u8, u8, u8, u8) {
    let (tile, end) = match bits.kind() {
        Kind::Play => (bits.tile(), bits.end()),
        Kind::Draw => (bits.tile(), 0),
        Kind::Pass => (0, 0),
    };
    (
        bits.kind() as u8,
        bits.seat(),
        tile,
        end,
        bits.open_numbers(),
    )
}
