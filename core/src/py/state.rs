//! `State` (the referee's match state), `MatchRng` and the dealing functions for Python.

use pyo3::exceptions::PyRuntimeError;

use super::view::PlayerView;
use super::{core_error, rules_error, value_error, HAND_RESULT};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::action::Action;
use crate::deal as dealing;
use crate::game::{Game, Position};
use crate::rng::{Bits, Mt19937};
use crate::rules::{FirstLead, Rules, Scheme};
use crate::scoring;
use crate::state::{End, Outcome, Table};

/// Read `domsim.rules.Rules` into the core's rules.
pub fn rules_from(rules: &Bound<'_, PyAny>) -> PyResult<Rules> {
    let variant = rules.getattr("variant")?;
    let string =
        |obj: &Bound<'_, PyAny>, name: &str| -> PyResult<String> { obj.getattr(name)?.extract() };
    let out = Rules {
        players: rules.getattr("players")?.extract()?,
        hand_size: rules.getattr("hand_size")?.extract()?,
        target: rules.getattr("target")?.extract()?,
        draws: variant.getattr("draws")?.extract()?,
        scheme: Scheme::parse(&string(&variant, "scoring")?).map_err(rules_error)?,
        first_lead: FirstLead::parse(&string(&variant, "first_lead")?).map_err(rules_error)?,
        lead_out_or_fish: string(&variant, "next_lead")? == "out_or_fish",
        spinner: variant.getattr("spinner")?.extract()?,
        teams: variant.getattr("teams")?.extract()?,
        capicu_bonus: rules.getattr("capicu_bonus")?.extract()?,
        count_losers: string(rules, "count")? == "losers",
        fish_maker: string(rules, "fish")? == "maker",
        lead_fid: string(rules, "lead")? == "fid",
    };
    out.validate().map_err(rules_error)?;
    Ok(out)
}

/// The match generator: CPython's `random.Random` bit for bit, so a seed deals as it always did.
#[pyclass(name = "MatchRng", module = "domsim._core")]
pub struct MatchRng(pub Mt19937);

#[pymethods]
impl MatchRng {
    #[new]
    fn new(seed: u64) -> Self {
        MatchRng(Mt19937::new(seed))
    }

    /// `random.Random.getrandbits` for 0 <= k <= 32.
    fn getrandbits(&mut self, k: u32) -> PyResult<u32> {
        if k > 32 {
            return Err(value_error("getrandbits takes at most 32 bits here"));
        }
        Ok(self.0.getrandbits(k))
    }

    /// `random.Random.randrange(n)`.
    fn randrange(&mut self, n: u32) -> PyResult<u32> {
        if n == 0 {
            return Err(value_error("empty range for randrange(0)"));
        }
        Ok(self.0.randbelow(n))
    }

    fn random(&mut self) -> f64 {
        self.0.random()
    }
}

/// Bits from any Python object with `getrandbits` (a `random.Random`); the first error is kept.
struct PyBits<'py> {
    source: Bound<'py, PyAny>,
    error: Option<PyErr>,
}

impl Bits for PyBits<'_> {
    fn getrandbits(&mut self, k: u32) -> u32 {
        if self.error.is_some() {
            return 0;
        }
        match self
            .source
            .call_method1("getrandbits", (k,))
            .and_then(|v| v.extract::<u32>())
        {
            Ok(v) => v,
            Err(e) => {
                self.error = Some(e);
                0
            }
        }
    }
}

/// Calls `f` with the generator's bits: natively for a `MatchRng`, else through Python.
fn with_bits<R>(rng: &Bound<'_, PyAny>, f: impl FnOnce(&mut dyn Bits) -> R) -> PyResult<R> {
    if let Ok(native) = rng.cast::<MatchRng>() {
        let mut native = native.borrow_mut();
        return Ok(f(&mut native.0));
    }
    let mut bits = PyBits {
        source: rng.clone(),
        error: None,
    };
    let out = f(&mut bits);
    match bits.error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Small ids as a Python list of ints (a `Vec<u8>` would become `bytes`).
pub fn ints(ids: &[u8]) -> Vec<u32> {
    ids.iter().map(|&i| i as u32).collect()
}

pub fn seats_of(mask: u8) -> Vec<u32> {
    (0..4u32).filter(|s| mask >> s & 1 == 1).collect()
}

/// A finished hand as `domsim.engine.results.HandResult`.
fn hand_result<'py>(py: Python<'py>, o: &Outcome, sides: usize) -> PyResult<Bound<'py, PyAny>> {
    let class = HAND_RESULT.get(py)?;
    let end = match o.end {
        End::Domino => "domino",
        End::Blocked => "blocked",
        End::Target => "target",
    };
    let winners = PyTuple::new(py, seats_of(o.winners))?;
    let points = PyTuple::new(py, &o.points[..sides])?;
    let scores = PyTuple::new(py, &o.scores[..sides])?;
    class.call1((
        end,
        winners,
        points,
        scores,
        o.carry,
        o.maker as i32,
        o.capicu,
    ))
}

/// The referee's state of one match (see `domsim.engine`).
#[pyclass(name = "State", module = "domsim._core")]
pub struct PyState {
    pub game: Game,
    rules_obj: Py<PyAny>,
}

impl PyState {
    pub fn from_parts(game: Game, rules_obj: Py<PyAny>) -> Self {
        PyState { game, rules_obj }
    }

    pub fn rules_ref(&self, py: Python<'_>) -> Py<PyAny> {
        self.rules_obj.clone_ref(py)
    }

    pub fn t(&self) -> &Table {
        &self.game.t
    }

    fn sides(&self) -> usize {
        self.game.t.rules.sides()
    }
}

#[pymethods]
impl PyState {
    #[new]
    fn new(rules: &Bound<'_, PyAny>) -> PyResult<Self> {
        let core = rules_from(rules)?;
        Ok(PyState {
            game: Game::new(Table::new(core)),
            rules_obj: rules.clone().unbind(),
        })
    }

    /// Begin the next hand from a deal, once the last one is over: hands as tile masks, the
    /// boneyard in draw order, all tiles distinct. `lead_tile` >= 0 forces the lead (R-LEAD).
    #[pyo3(signature = (hands, boneyard, leader, lead_tile = -1))]
    fn start_hand(
        &mut self,
        hands: Vec<u32>,
        boneyard: Vec<u8>,
        leader: u8,
        lead_tile: i8,
    ) -> PyResult<()> {
        self.game
            .try_start_hand(&hands, &boneyard, leader, lead_tile)
            .map_err(core_error)
    }

    /// The match at a position: the hand in play as the referee holds it (`hands` now, the
    /// whole `boneyard` in draw order, the hand's `history` of actions with the tiles drawn)
    /// and the match's `scores` and `carry` when the hand began. The hand is dealt as the
    /// position implies and its history replayed, every action checked as `play`, `draw` and
    /// `pass_turn` check it (with `check_must` False, a draw or pass need not have been forced:
    /// a world a seat imagines). InvalidPosition for what no match holds.
    #[staticmethod]
    #[pyo3(signature = (rules, *, hands, boneyard = vec![], leader = 0, lead_tile = -1,
                        history = vec![], scores = None, carry = 0, hand_number = 0,
                        check_must = true))]
    #[allow(clippy::too_many_arguments)]
    fn from_position(
        rules: &Bound<'_, PyAny>,
        hands: Vec<u32>,
        boneyard: Vec<u8>,
        leader: u8,
        lead_tile: i8,
        history: Vec<u32>,
        scores: Option<Vec<i32>>,
        carry: i32,
        hand_number: i32,
        check_must: bool,
    ) -> PyResult<Self> {
        let core = rules_from(rules)?;
        let scores = scores.unwrap_or_else(|| vec![0; core.sides()]);
        let position = Position {
            hands: &hands,
            boneyard: &boneyard,
            leader,
            lead_tile,
            history: &history,
            scores: &scores,
            carry,
            hand_number,
            check_must,
        };
        Ok(PyState {
            game: Game::from_position(core, &position).map_err(core_error)?,
            rules_obj: rules.clone().unbind(),
        })
    }

    /// Deal the next hand from the match generator (`MatchRng`, or any object with
    /// `getrandbits`) and decide its lead.
    fn start_next_hand(&mut self, rng: &Bound<'_, PyAny>) -> PyResult<()> {
        self.game.check_can_start().map_err(core_error)?;
        with_bits(rng, |bits| self.game.start_next_hand(&mut BitsRef(bits)))
    }

    /// An independent copy (the search's and a caller's what-ifs).
    fn copy(&self, py: Python<'_>) -> Self {
        PyState {
            game: self.game.clone(),
            rules_obj: self.rules_obj.clone_ref(py),
        }
    }

    fn __copy__(&self, py: Python<'_>) -> Self {
        self.copy(py)
    }

    fn open_numbers(&self) -> u8 {
        self.t().open_numbers()
    }

    fn playable_mask(&self, seat: usize) -> PyResult<u32> {
        if seat >= self.t().rules.players {
            return Err(value_error(format!("no seat {seat}")));
        }
        Ok(self.t().playable(seat as u8))
    }

    /// The plays open to the seat to move; empty when it must draw or pass.
    fn legal_moves(&self) -> Vec<u32> {
        if self.t().hand_over {
            return vec![];
        }
        ints(&self.t().legal_vec())
    }

    /// Whether the variant draws and the boneyard holds a tile: what a seat with no play then
    /// does. A seat with a play may not draw (`draw` raises IllegalDraw, R-MUST).
    fn can_draw(&self) -> bool {
        self.t().can_draw()
    }

    /// Lay a tile: `move` is `tile << 2 | end`; IllegalMove (a RulesError) for a play the rules
    /// do not allow now.
    fn play(&mut self, r#move: u8) -> PyResult<()> {
        self.game.try_play(r#move).map_err(core_error)
    }

    /// The seat to move draws the next boneyard tile; returns it. IllegalDraw unless the seat
    /// has no play and the boneyard a tile (R-MUST).
    fn draw(&mut self) -> PyResult<u8> {
        self.game.try_draw().map_err(core_error)
    }

    /// The seat to move passes. IllegalPass unless it can neither play nor draw (R-MUST).
    fn pass_turn(&mut self) -> PyResult<()> {
        self.game.try_pass().map_err(core_error)
    }

    /// The open ends `tile` fits, ascending (before the lead: 0 and 1, the two ways to lay it,
    /// when it may lead).
    fn ends_fitting(&self, tile: u8) -> Vec<u32> {
        let ends = self.t().ends_fitting(tile);
        (0..4).filter(|e| ends >> e & 1 == 1).collect()
    }

    /// Draw or pass for a seat with no play; False when the seat can play.
    fn step_forced(&mut self) -> PyResult<bool> {
        if self.t().hand_over {
            return Err(core_error(crate::error::CoreError::NoHandInPlay("step")));
        }
        Ok(self.game.step_forced())
    }

    /// Make the forced actions and single plays up to the next real choice: its legal moves
    /// (two or more), or None once the hand is over.
    fn advance(&mut self) -> Option<Vec<u32>> {
        let mut buf = [0u8; 112];
        let n = self.game.advance(&mut buf);
        (n > 0).then(|| ints(&buf[..n]))
    }

    /// Play `choice`, which the seat to move chose from `view.legal_moves` (its view of this
    /// state), then `advance`: the next choice's legal moves, or None once the hand is over.
    /// ValueError when the choice is not one of the view's legal moves.
    fn play_choice(
        &mut self,
        py: Python<'_>,
        view: &Bound<'_, PyAny>,
        choice: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Vec<u32>>> {
        let view = view
            .cast::<PlayerView>()
            .map_err(|_| value_error("expected a PlayerView"))?
            .get();
        let index = view
            .index_of(py, choice)?
            .ok_or_else(|| value_error("not a legal move"))?;
        let mv = view.data.legal[index];
        if self.t().hand_over || view.data.seat != self.t().to_move || !self.t().is_legal(mv) {
            return Err(value_error("the view is not of this state's seat to move"));
        }
        self.game.play(mv);
        Ok(self.advance())
    }

    /// Play the move at `index` of `legal_moves()` (a seat's answer by index), then `advance`
    /// as `play_choice` does. ValueError when there is none at `index`.
    fn play_index(&mut self, index: usize) -> PyResult<Option<Vec<u32>>> {
        if self.t().hand_over {
            return Err(value_error("no hand is in play"));
        }
        let mv = *self
            .t()
            .legal_vec()
            .get(index)
            .ok_or_else(|| value_error(format!("no legal move {index}")))?;
        self.game.play(mv);
        Ok(self.advance())
    }

    /// Play the hand to its end, `choose(moves)` picking every play from `legal_moves()`.
    fn play_out(&mut self, choose: &Bound<'_, PyAny>) -> PyResult<()> {
        while !self.t().hand_over {
            if self.game.step_forced() {
                continue;
            }
            let moves = ints(&self.t().legal_vec());
            let picked: u8 = choose.call1((moves,))?.extract()?;
            self.play(picked)?;
        }
        Ok(())
    }

    fn hand_counts(&self) -> Vec<u32> {
        (0..self.t().rules.players)
            .map(|s| self.t().hand_count(s))
            .collect()
    }

    fn boneyard_left(&self) -> u8 {
        self.t().boneyard_left()
    }

    /// The spinner's number, or -1 before any double was played (allfives).
    fn spinner_number(&self) -> i8 {
        self.t().spinner
    }

    /// R-FIVES-COUNT / R-SPINNER: the open-end total after the last play.
    fn fives_count(&self) -> i32 {
        self.t().fives_count()
    }

    #[getter]
    fn rules(&self, py: Python<'_>) -> Py<PyAny> {
        self.rules_obj.clone_ref(py)
    }

    #[getter]
    fn n(&self) -> usize {
        self.t().rules.players
    }

    #[getter]
    fn hands(&self) -> Vec<u32> {
        self.t().hands[..self.t().rules.players].to_vec()
    }

    /// The whole boneyard in draw order, the drawn tiles first.
    #[getter]
    fn boneyard(&self) -> Vec<u32> {
        ints(&self.t().boneyard[..self.t().bone_len as usize])
    }

    #[getter]
    fn drawn(&self) -> u8 {
        self.t().drawn
    }

    /// The number each end shows: -1 for an end not open.
    #[getter]
    fn ends(&self) -> Vec<i8> {
        let t = self.t();
        (0..4)
            .map(|e| {
                if e < t.n_ends {
                    t.ends[e as usize] as i8
                } else {
                    -1
                }
            })
            .collect()
    }

    #[getter]
    fn end_counts(&self) -> Vec<i32> {
        self.t().end_counts.to_vec()
    }

    #[getter]
    fn n_ends(&self) -> u8 {
        self.t().n_ends
    }

    #[getter]
    fn spinner(&self) -> i8 {
        self.t().spinner
    }

    #[getter]
    fn line_count(&self) -> u8 {
        self.t().line_count
    }

    #[getter]
    fn to_move(&self) -> u8 {
        self.t().to_move
    }

    #[getter]
    fn passes(&self) -> u8 {
        self.t().passes
    }

    /// The actions of the hand in play (see `domsim.engine.actions`).
    #[getter]
    fn history(&self) -> Vec<Action> {
        self.game.history.clone()
    }

    /// The actions from index `start` on (a view builder reads only what is new).
    fn history_since(&self, start: usize) -> Vec<Action> {
        self.game
            .history
            .get(start..)
            .map(<[Action]>::to_vec)
            .unwrap_or_default()
    }

    #[getter]
    fn hand_over(&self) -> bool {
        self.t().hand_over
    }

    #[getter]
    fn hand_points(&self) -> Vec<i32> {
        self.t().hand_points[..self.sides()].to_vec()
    }

    #[getter]
    fn scores(&self) -> Vec<i32> {
        self.t().scores[..self.sides()].to_vec()
    }

    #[getter]
    fn carry(&self) -> i32 {
        self.t().carry
    }

    #[getter]
    fn leader(&self) -> u8 {
        self.t().leader
    }

    #[getter]
    fn hand_number(&self) -> i32 {
        self.game.hand_number
    }

    #[getter]
    fn match_over(&self) -> bool {
        self.t().match_over
    }

    #[getter]
    fn match_winners<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, seats_of(self.t().match_winners))
    }

    /// Every finished hand's result, as `HandResult`s.
    #[getter]
    fn hand_results<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let sides = self.sides();
        let items = self
            .game
            .results
            .iter()
            .map(|o| hand_result(py, o, sides))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// The last finished hand's result (None before the first ends): `hand_results[-1]`
    /// without building every earlier one.
    #[getter]
    fn last_hand_result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let sides = self.sides();
        self.game
            .results
            .last()
            .map(|o| hand_result(py, o, sides))
            .transpose()
    }

    #[getter]
    fn lead_tile(&self) -> i8 {
        self.t().lead_tile
    }

    #[getter]
    fn fit(&self) -> u32 {
        self.t().fit
    }

    #[getter]
    fn draws(&self) -> bool {
        self.t().rules.draws
    }

    #[getter]
    fn fives(&self) -> bool {
        self.t().rules.fives()
    }

    #[getter]
    fn spins(&self) -> bool {
        self.t().rules.spinner
    }

    #[getter]
    fn plain_line(&self) -> bool {
        self.t().plain_line
    }

    /// Whether a team match was won dry (R-KOZEL, R-PARTNERSHIP; None before its end and
    /// outside team games).
    #[getter]
    fn won_dry(&self) -> Option<bool> {
        scoring::won_dry(self.t())
    }
}

/// `&mut dyn Bits` as a sized `Bits`, for the generic engine functions.
struct BitsRef<'a>(&'a mut dyn Bits);

impl Bits for BitsRef<'_> {
    fn getrandbits(&mut self, k: u32) -> u32 {
        self.0.getrandbits(k)
    }
}

/// Shuffle and deal: (each seat's tile mask, the boneyard in draw order).
#[pyfunction]
pub fn deal(rng: &Bound<'_, PyAny>, rules: &Bound<'_, PyAny>) -> PyResult<(Vec<u32>, Vec<u32>)> {
    let core = rules_from(rules)?;
    let d = with_bits(rng, |bits| dealing::deal(&mut BitsRef(bits), &core))?;
    Ok((
        d.hands[..core.players].to_vec(),
        ints(&d.boneyard[..d.bone_len]),
    ))
}

/// (seat, tile) of the first hand's named lead among the dealt tiles (R-LEAD, R-LEAD-DEALT).
#[pyfunction]
pub fn first_lead(rules: &Bound<'_, PyAny>, hands: Vec<u32>) -> PyResult<(u8, u8)> {
    let core = rules_from(rules)?;
    if hands.len() > 4 || hands.iter().all(|&h| h == 0) || core.by_lot() {
        return Err(value_error(
            "first_lead needs dealt hands of a variant with a named lead",
        ));
    }
    Ok(dealing::first_lead(&core, &hands))
}

/// Who leads the hand after the one just finished.
#[pyfunction]
pub fn next_leader(state: &PyState) -> PyResult<u8> {
    if state.t().outcome.is_none() {
        return Err(PyRuntimeError::new_err("no hand has finished yet"));
    }
    Ok(dealing::next_leader(state.t()))
}

/// Deal and play `hands` random hands natively (see `crate::game::random_play`); the benchmark
/// of the engine's own speed. Returns the actions made.
#[pyfunction]
pub fn random_play(
    py: Python<'_>,
    rules: &Bound<'_, PyAny>,
    hands: u64,
    seed: u64,
) -> PyResult<u64> {
    let core = rules_from(rules)?;
    Ok(py.detach(move || crate::game::random_play(core, hands, seed)))
}

/// Whether the first hand's leader is drawn by lot (and leads any tile).
#[pyfunction]
pub fn by_lot(rules: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(rules_from(rules)?.by_lot())
}

/// Nearest multiple of 5; remainder 1-2 rounds down, 3-4 up (R-FIVES).
#[pyfunction]
pub fn round_to_five(points: i32) -> i32 {
    crate::scoring::round_to_five(points)
}

/// What a play leaving the fives count `count` scores: the count when it is a multiple of 5
/// (R-FIVES).
#[pyfunction]
pub fn fives_points(count: i32) -> i32 {
    crate::scoring::fives_points(count)
}

/// How a finished hand's points are summed from the hands left under `rules`
/// (`crate::scoring::Tally`): what the scoring side's own hands count (1, -1 or 0), what every
/// other side's count (1 or 0), and whether the sum is rounded to the nearest 5.
#[pyfunction]
pub fn tally(rules: &Bound<'_, PyAny>) -> PyResult<(i32, i32, bool)> {
    let t = crate::scoring::tally(&rules_from(rules)?);
    Ok((t.own, t.others, t.to_five))
}

/// R-FIVES-COUNT / R-SPINNER: the fives count after each of a hand's plays under `rules`
/// (`crate::state::Table::line_counts`; each play `tile << 2 | end`).
#[pyfunction]
pub fn line_counts(rules: &Bound<'_, PyAny>, plays: Vec<u8>) -> PyResult<Vec<i32>> {
    crate::state::Table::line_counts(rules_from(rules)?, &plays)
        .ok_or_else(|| value_error("a play does not fit the line it meets"))
}

/// What the hand `hand` (a tile mask) left counts when a hand of `rules` is scored: its pips, or
/// 25 for kozel's lone 0-0 (R-KOZEL-25).
#[pyfunction]
pub fn held_value(rules: &Bound<'_, PyAny>, hand: u32) -> PyResult<i32> {
    Ok(crate::scoring::held_value(&rules_from(rules)?, hand))
}

/// R-KOZEL: whether the points a hand of scoring scheme `scoring` awards count against the side
/// that gets them (and reaching the target loses the match).
#[pyfunction]
pub fn points_against(scoring: &str) -> PyResult<bool> {
    Ok(Scheme::parse(scoring)
        .map_err(rules_error)?
        .points_against())
}

/// R-FIVES-COUNT: whether a play of scoring scheme `scoring` scores the count of the open ends
/// when it is a positive multiple of 5.
#[pyfunction]
pub fn scores_count(scoring: &str) -> PyResult<bool> {
    Ok(Scheme::parse(scoring).map_err(rules_error)?.scores_count())
}
