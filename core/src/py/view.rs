//! `PlayerView` (R-VIEW) for Python strategies: frozen, holding nothing of another hand, its
//! Python values built only when a strategy reads them; and `ViewBuilder`, which converts each
//! public action of a hand to an `Event` once for every view of that hand.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyTuple};

use super::state::{rules_from, PyState};
use super::{value_error, Handed, EVENT_OF, MOVES, TILES};
use crate::action::{Action, Kind};
use crate::belief::known_voids;
use crate::tiles::{tile_id, ALL_TILES};
use crate::view::View;

/// A tuple domsim.view handed the core.
fn table<'py>(py: Python<'py>, handed: &Handed) -> PyResult<Bound<'py, PyTuple>> {
    Ok(handed.get(py)?.cast_into::<PyTuple>()?)
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
            let tiles = table(py, &TILES)?;
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
                let moves = table(py, &MOVES)?;
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
            .filter(|(_, a)| a.is_play())
            .map(|(i, _)| history.get_item(i))
            .collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, plays)
    }

    /// The index of `choice` in `legal_moves`, or None when it is not one of them. A strategy
    /// returns one of the very objects it was given, so identity is tried before equality.
    pub fn index_of(&self, py: Python<'_>, choice: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
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

    /// The same view with `rules` as its `rules` attribute (a strategy's private copy of the
    /// referee's). Only that attribute changes: every other value, and what the core's search
    /// reads of the rules, stays as the view was built (the core reads a Rules object once).
    fn with_rules(&self, py: Python<'_>, rules: &Bound<'_, PyAny>) -> PlayerView {
        PlayerView {
            data: self.data.clone(),
            rules: rules.clone().unbind(),
            history: self.history.clone_ref(py),
            hand: PyOnceLock::new(),
            legal: PyOnceLock::new(),
        }
    }

    /// The view these values describe: `hand` and `legal` as tile and move ints, `ends` as the
    /// view shows them (None: not open), `actions` the hand's public actions as the engine
    /// encodes them (domsim.engine.state). ValueError for values no view can hold.
    #[staticmethod]
    #[pyo3(signature = (rules, *, seat, hand, ends, actions, hand_counts, boneyard_count,
                        can_draw, scores, carry, hand_number, leader, spinner, end_counts, legal))]
    #[allow(clippy::too_many_arguments)]
    fn from_parts(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        seat: u8,
        hand: Vec<u8>,
        ends: Vec<Option<u8>>,
        actions: Vec<Action>,
        hand_counts: Vec<u8>,
        boneyard_count: u8,
        can_draw: bool,
        scores: Vec<i32>,
        carry: i32,
        hand_number: i32,
        leader: u8,
        spinner: Option<i8>,
        end_counts: Vec<i32>,
        legal: Vec<u8>,
    ) -> PyResult<PlayerView> {
        let core = rules_from(rules)?;
        let mut mask = 0u32;
        for &t in &hand {
            if t >= 28 || mask >> t & 1 == 1 {
                return Err(value_error("a hand holds distinct tile ids 0..27"));
            }
            mask |= 1 << t;
        }
        let width = if core.spinner { 4 } else { 2 };
        let n_ends = ends.iter().take_while(|e| e.is_some()).count();
        if ends.len() != width || ends[n_ends..].iter().any(Option::is_some) {
            return Err(value_error(format!(
                "ends are {width} numbers, the open ones first, None for the others"
            )));
        }
        if end_counts.len() != n_ends {
            return Err(value_error("end_counts has one count 0..12 per open end"));
        }
        if hand_counts.len() != core.players {
            return Err(value_error(format!(
                "hand_counts has {} counts",
                core.players
            )));
        }
        if scores.len() != core.sides() {
            return Err(value_error(format!("scores has {} scores", core.sides())));
        }
        let spinner = match spinner {
            None => -1,
            Some(s) if (0..=6).contains(&s) => s,
            Some(_) => return Err(value_error("the spinner is a number 0..6 or None")),
        };
        let mut data = View {
            rules: core,
            seat,
            hand: mask,
            n_ends: n_ends as u8,
            ends: [0; 4],
            end_counts: [0; 4],
            hand_counts: [0; 4],
            boneyard_count,
            can_draw,
            scores: [0; 4],
            carry,
            hand_number,
            leader,
            spinner,
            legal,
            actions,
        };
        for (slot, e) in data.ends.iter_mut().zip(&ends[..n_ends]) {
            *slot = e.expect("open");
        }
        data.end_counts[..n_ends].copy_from_slice(&end_counts);
        data.hand_counts[..core.players].copy_from_slice(&hand_counts);
        data.scores[..core.sides()].copy_from_slice(&scores);
        check_view(&mut data)?;
        let history = events_of(py, &data.actions, None)?;
        Ok(PlayerView::new(data, rules, history))
    }

    /// This view as a line of the seat protocol's compact encoding (crate::wire), asked as
    /// request `request`.
    fn wire<'py>(&self, py: Python<'py>, request: u64) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &crate::wire::encode(request, &self.data))
    }

    /// Per seat, the numbers it is known not to hold, as 7-bit masks (bit n: number n; R-MUST):
    /// a pass adds the numbers open then; a draw sets them to the numbers open then (the seat
    /// lacked them, and so do the tiles it drew and kept: it plays the first that fits), older
    /// knowledge no longer covering the tiles drawn. The seat to move, having just drawn, holds
    /// the tile it found.
    #[getter]
    fn void_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &known_voids(&self.data)[..self.data.players()])
    }

    /// The tiles this seat has not seen, as a tile mask (bit t: tile id t): in other hands, the
    /// boneyard or out of play; neither in its hand nor on the line.
    #[getter]
    fn unseen_mask(&self) -> u32 {
        ALL_TILES & !self.data.seen()
    }

    /// Own tiles as a tile mask (bit t: tile id t).
    #[getter]
    fn hand_mask(&self) -> u32 {
        self.data.hand
    }

    /// The fives count (R-FIVES-COUNT, R-SPINNER) once `move` is laid, and then `reply` if
    /// given, on the line as it stands: any tile on an open end showing one of its numbers (a
    /// lead on end 0 as written, 1 flipped); a reply on an end open before `move` (or on a lead's
    /// end), as a spinner's short sides opening are not followed (they count nothing yet).
    /// Moves are `Move`s or `(Tile, end)` pairs; ValueError for one that does not fit.
    #[pyo3(signature = (r#move, reply = None))]
    fn count_after(
        &self,
        py: Python<'_>,
        r#move: &Bound<'_, PyAny>,
        reply: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<i32> {
        let mut line = self.line_after(py, r#move)?;
        if let Some(reply) = reply {
            let mv = move_of(reply)?;
            if !line.fits(mv) {
                return Err(value_error(
                    "the reply does not fit the line the move leaves",
                ));
            }
            line = line.after(mv);
        }
        Ok(line.count())
    }

    /// The numbers on the open ends once `move` is laid (see `count_after`: a spinner's short
    /// sides opening are not followed).
    fn ends_after<'py>(
        &self,
        py: Python<'py>,
        r#move: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let line = self.line_after(py, r#move)?;
        PyTuple::new(py, &line.ends[..line.n as usize])
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

/// `tile << 2 | end` of a `Move` or `(Tile, end)` pair (a `Tile` being a pair of numbers).
fn move_of(value: &Bound<'_, PyAny>) -> PyResult<u8> {
    let ((a, b), end) = value
        .extract::<((u8, u8), u8)>()
        .map_err(|_| value_error("a move is a Move: (Tile, end)"))?;
    if a > 6 || b > 6 || end > 3 {
        return Err(value_error(
            "a move's tile shows numbers 0..6, its end is 0..3",
        ));
    }
    Ok(tile_id(a, b) << 2 | end)
}

impl PlayerView {
    /// The line once `value` is laid on it; one of `legal_moves` is found without reading it.
    fn line_after(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<crate::state::Line> {
        let legal = self.legal_moves(py)?;
        let mv = match legal.iter().position(|m| m.is(value)) {
            Some(i) => self.data.legal[i],
            None => move_of(value)?,
        };
        let line = self.data.line();
        if !line.fits(mv) {
            return Err(value_error("the move does not fit the line"));
        }
        Ok(line.after(mv))
    }

    fn new(data: View, rules: &Bound<'_, PyAny>, history: Bound<'_, PyTuple>) -> PlayerView {
        PlayerView {
            data,
            rules: rules.clone().unbind(),
            history: history.unbind(),
            hand: PyOnceLock::new(),
            legal: PyOnceLock::new(),
        }
    }

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
            let event_of = EVENT_OF.get(py)?;
            let mut items: Vec<Bound<'_, PyAny>> = known.iter().collect();
            for &action in &game.history[known.len()..] {
                items.push(event_of.call1((action.public(),))?);
            }
            let tuple = PyTuple::new(py, items)?;
            self.events = Some(tuple.clone().unbind());
            tuple
        } else {
            known
        };
        Ok(PlayerView {
            data: View::of(game, moves),
            rules: state.rules_ref(py),
            history: history.unbind(),
            hand: PyOnceLock::new(),
            legal: PyOnceLock::new(),
        })
    }
}

/// A hand's history can only play each tile once and draw from one set of 28: anything else
/// is refused here, before a search replays it.
fn check_history(actions: &[Action]) -> PyResult<()> {
    let mut played = 0u32;
    let mut draws = 0;
    for a in actions {
        match a.kind() {
            Kind::Play => {
                if played >> a.tile() & 1 == 1 {
                    return Err(value_error("the history plays a tile twice"));
                }
                played |= 1 << a.tile();
            }
            Kind::Draw => draws += 1,
            Kind::Pass => {}
        }
    }
    if draws > 28 {
        return Err(value_error("the history draws more tiles than a set holds"));
    }
    Ok(())
}

/// Refuse a view no game can show (ValueError), and clear the tile of its draws: the seat
/// protocol's hosts rebuild views from what a bot is sent, which a hostile sender may forge.
fn check_view(view: &mut View) -> PyResult<()> {
    let rules = view.rules;
    let players = rules.players;
    if view.seat as usize >= players || view.leader as usize >= players {
        return Err(value_error(format!("seats run 0..{}", players - 1)));
    }
    if view.hand & !crate::tiles::ALL_TILES != 0 {
        return Err(value_error("a hand holds distinct tile ids 0..27"));
    }
    let n_ends = view.n_ends as usize;
    if n_ends > if rules.spinner { 4 } else { 2 } || view.ends.iter().any(|&e| e > 6) {
        return Err(value_error(
            "ends show numbers 0..6, at most 2 (4 with a spinner) open",
        ));
    }
    let counts = &view.end_counts;
    if counts[..n_ends].iter().any(|c| !(0..=12).contains(c))
        || counts[n_ends..] != [0; 4][n_ends..]
    {
        return Err(value_error("end_counts has one count 0..12 per open end"));
    }
    if view.hand_counts.iter().any(|&c| c > 28)
        || view.hand_counts[players..].iter().any(|&c| c != 0)
    {
        return Err(value_error(format!("hand_counts has {players} counts")));
    }
    if !(-1..=6).contains(&view.spinner) {
        return Err(value_error("the spinner is a number 0..6 or None"));
    }
    if view.boneyard_count > 28 || view.legal.iter().any(|&m| m >= 28 * 4) {
        return Err(value_error("moves are tile << 2 | end, tiles 0..27"));
    }
    if view.actions.iter().any(|a| a.seat() as usize >= players) {
        return Err(value_error(format!(
            "actions are by seats 0..{}",
            players - 1
        )));
    }
    check_history(&view.actions)?;
    for action in &mut view.actions {
        *action = action.public();
    }
    Ok(())
}

/// The `Event`s of `actions`, reusing those of `known` (the same hand's earlier events) where
/// the history only grew.
fn events_of<'py>(
    py: Python<'py>,
    actions: &[Action],
    known: Option<(&Bound<'py, PyTuple>, &[Action])>,
) -> PyResult<Bound<'py, PyTuple>> {
    let mut items: Vec<Bound<'_, PyAny>> = Vec::with_capacity(actions.len());
    if let Some((events, earlier)) = known {
        if actions.starts_with(earlier) {
            if earlier.len() == actions.len() {
                return Ok(events.clone());
            }
            items.extend(events.iter());
        }
    }
    let event_of = EVENT_OF.get(py)?;
    for &action in &actions[items.len()..] {
        items.push(event_of.call1((action,))?);
    }
    PyTuple::new(py, items)
}

/// The views of one seat's game rebuilt from compact lines (the seat host's side of
/// crate::wire): each event of a hand is converted once.
#[pyclass(name = "WireViews", module = "domsim._core")]
pub struct WireViews {
    rules: Py<PyAny>,
    core: crate::rules::Rules,
    hand_number: i32,
    actions: Vec<Action>,
    events: Option<Py<PyTuple>>,
}

#[pymethods]
impl WireViews {
    /// Views of a game under `rules`, each showing `shown` as its `rules` (default `rules`):
    /// a strategy's private copy, as `PlayerView.with_rules` gives it.
    #[new]
    #[pyo3(signature = (rules, shown = None))]
    fn new(rules: &Bound<'_, PyAny>, shown: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(WireViews {
            core: rules_from(rules)?,
            rules: shown.unwrap_or(rules).clone().unbind(),
            hand_number: i32::MIN,
            actions: vec![],
            events: None,
        })
    }

    /// (request id, PlayerView) of a compact line; ValueError for a line no view can be.
    fn view(&mut self, py: Python<'_>, line: &[u8]) -> PyResult<(u64, PlayerView)> {
        let (request, mut data) = crate::wire::decode(line, self.core).map_err(value_error)?;
        check_view(&mut data)?;
        let known = self.events.as_ref().map(|e| e.bind(py).clone());
        let same_hand = data.hand_number == self.hand_number;
        let history = events_of(
            py,
            &data.actions,
            known
                .as_ref()
                .filter(|_| same_hand)
                .map(|e| (e, &self.actions[..])),
        )?;
        self.hand_number = data.hand_number;
        self.actions.clone_from(&data.actions);
        self.events = Some(history.clone().unbind());
        Ok((request, PlayerView::new(data, self.rules.bind(py), history)))
    }
}
