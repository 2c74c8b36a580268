//! `PlayerView` (R-VIEW) for Python strategies: frozen, holding nothing of another hand, its
//! Python values built only when a strategy reads them; and `ViewBuilder`, which converts each
//! public action of a hand to an `Event` once for every view of that hand.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyTuple;

use super::state::PyState;
use super::value_error;
use crate::state::PLAY;
use crate::view::{public_action, View};

static TILES: PyOnceLock<Py<PyTuple>> = PyOnceLock::new();
static MOVES: PyOnceLock<Py<PyTuple>> = PyOnceLock::new();
static EVENT_OF: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn table<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyTuple>>,
    module: &str,
    name: &str,
) -> PyResult<Bound<'py, PyTuple>> {
    Ok(cell.import(py, module, name)?.clone())
}

/// What a person at one seat knows when it must choose a play (see `domsim.view`).
#[pyclass(frozen, name = "PlayerView", module = "domsim._core")]
pub struct PlayerView {
    pub data: View,
    rules: Py<PyAny>,
    history: Py<PyTuple>,
    hand: PyOnceLock<Py<PyTuple>>,
    legal: PyOnceLock<Py<PyTuple>>,
}

#[pymethods]
impl PlayerView {
    #[getter]
    fn rules(&self, py: Python<'_>) -> Py<PyAny> {
        self.rules.clone_ref(py)
    }

    #[getter]
    fn seat(&self) -> u8 {
        self.data.seat
    }

    /// Own tiles, ascending, as `Tile`s.
    #[getter]
    fn hand<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let tuple = self.hand.get_or_try_init(py, || -> PyResult<Py<PyTuple>> {
            let tiles = table(py, &TILES, "domsim.tiles", "TILES")?;
            let own = crate::tiles::tiles_of(self.data.hand)
                .map(|t| tiles.get_item(t as usize))
                .collect::<PyResult<Vec<_>>>()?;
            Ok(PyTuple::new(py, own)?.unbind())
        })?;
        Ok(tuple.bind(py).clone())
    }

    /// The number on each open end; None for an end not open (2 ends, 4 with a spinner).
    #[getter]
    fn ends<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let width = if self.data.rules.spinner { 4 } else { 2 };
        let ends = (0..width).map(|e| (e < self.data.n_ends).then_some(self.data.ends[e as usize]));
        PyTuple::new(py, ends)
    }

    #[getter]
    fn history(&self, py: Python<'_>) -> Py<PyTuple> {
        self.history.clone_ref(py)
    }

    #[getter]
    fn hand_counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.data.hand_counts[..self.data.players()])
    }

    #[getter]
    fn boneyard_count(&self) -> u8 {
        self.data.boneyard_count
    }

    #[getter]
    fn can_draw(&self) -> bool {
        self.data.can_draw
    }

    /// Per side: seat, or team (team 0 = seats 0 and 2) in team games.
    #[getter]
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.data.scores[..self.data.rules.sides()])
    }

    #[getter]
    fn carry(&self) -> i32 {
        self.data.carry
    }

    #[getter]
    fn target(&self) -> i32 {
        self.data.rules.target
    }

    #[getter]
    fn hand_number(&self) -> i32 {
        self.data.hand_number
    }

    #[getter]
    fn leader(&self) -> u8 {
        self.data.leader
    }

    #[getter]
    fn spinner(&self) -> Option<i8> {
        (self.data.spinner >= 0).then_some(self.data.spinner)
    }

    /// What each open end adds to the fives count now.
    #[getter]
    fn end_counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.data.end_counts[..self.data.n_ends as usize])
    }

    /// The plays allowed now, as `Move`s (there are always at least two when a strategy is asked).
    #[getter]
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let tuple = self
            .legal
            .get_or_try_init(py, || -> PyResult<Py<PyTuple>> {
                let moves = table(py, &MOVES, "domsim.view", "_MOVES")?;
                let legal = self
                    .data
                    .legal
                    .iter()
                    .map(|&m| moves.get_item(m as usize))
                    .collect::<PyResult<Vec<_>>>()?;
                Ok(PyTuple::new(py, legal)?.unbind())
            })?;
        Ok(tuple.bind(py).clone())
    }

    #[getter]
    fn players(&self) -> usize {
        self.data.players()
    }

    #[getter]
    fn variant(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.rules.getattr(py, "name")
    }

    /// The plays of this hand in order (who, which tile, which end).
    #[getter]
    fn line<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let history = self.history.bind(py);
        let plays = self
            .data
            .actions
            .iter()
            .enumerate()
            .filter(|(_, &a)| a & 3 == PLAY)
            .map(|(i, _)| history.get_item(i))
            .collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, plays)
    }

    /// The index of `choice` in `legal_moves`, or None when it is not one of them. A strategy
    /// returns one of the very objects it was given, so identity is tried before equality.
    fn index_of(&self, py: Python<'_>, choice: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        let legal = self.legal_moves(py)?;
        if let Some(i) = legal.iter().position(|m| m.is(choice)) {
            return Ok(Some(i));
        }
        for (i, m) in legal.iter().enumerate() {
            if m.eq(choice)? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// The partner's seat in team games, else None.
    fn partner(&self) -> Option<u8> {
        self.data.rules.teams.then_some((self.data.seat + 2) % 4)
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        match other.cast::<PlayerView>() {
            Ok(other) => {
                let other = other.get();
                Ok(self.data == other.data && self.rules.bind(py).eq(other.rules.bind(py))?)
            }
            Err(_) => Ok(false),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let hand = self.hand(py)?.str()?.to_string();
        Ok(format!(
            "PlayerView(variant={}, seat={}, hand={hand}, actions={})",
            self.variant(py)?.bind(py).str()?,
            self.data.seat,
            self.data.actions.len()
        ))
    }
}

impl PlayerView {
    /// The core data of a Python `PlayerView`.
    pub fn data_of<'a>(view: &'a Bound<'_, PyAny>) -> PyResult<&'a View> {
        let view = view
            .cast::<PlayerView>()
            .map_err(|_| value_error("expected a PlayerView"))?;
        Ok(&view.get().data)
    }
}

/// Builds the views of one match, converting each public action to an `Event` only once.
#[pyclass(subclass, name = "ViewBuilder", module = "domsim._core")]
pub struct ViewBuilder {
    hand_number: i32,
    events: Option<Py<PyTuple>>,
}

#[pymethods]
impl ViewBuilder {
    #[new]
    fn new() -> Self {
        ViewBuilder {
            hand_number: -1,
            events: None,
        }
    }

    /// The view of the seat to move in `state`, whose legal moves are `moves`.
    fn view(
        &mut self,
        py: Python<'_>,
        state: PyRef<'_, PyState>,
        moves: Vec<u8>,
    ) -> PyResult<PlayerView> {
        let game = &state.game;
        let legal = if game.t.hand_over {
            vec![]
        } else {
            game.t.legal_vec()
        };
        if moves != legal {
            return Err(value_error(
                "the moves given are not the legal moves of the seat to move",
            ));
        }
        if game.hand_number != self.hand_number || self.events.is_none() {
            self.hand_number = game.hand_number;
            self.events = Some(PyTuple::empty(py).unbind());
        }
        let known = self.events.as_ref().expect("set above").bind(py).clone();
        let history = if known.len() < game.history.len() {
            let event_of = EVENT_OF.import(py, "domsim.view", "_event_of_cached")?;
            let mut items: Vec<Bound<'_, PyAny>> = known.iter().collect();
            for &action in &game.history[known.len()..] {
                items.push(event_of.call1((public_action(action),))?);
            }
            let tuple = PyTuple::new(py, items)?;
            self.events = Some(tuple.clone().unbind());
            tuple
        } else {
            known
        };
        Ok(PlayerView {
            data: View::of(game, &moves),
            rules: state.rules_ref(py),
            history: history.unbind(),
            hand: PyOnceLock::new(),
            legal: PyOnceLock::new(),
        })
    }
}
