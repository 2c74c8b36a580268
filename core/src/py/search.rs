//! The search for Python: insane's move, and the pieces a bot author builds a search from
//! (sample deals consistent with a view, play a deal out, solve a deal exactly, value a hand).
//! Long searches release the GIL, so threaded Dask workers run them in parallel.

use std::collections::BTreeMap;

use pyo3::prelude::*;

use super::state::PyState;
use super::value_error;
use super::view::PlayerView;
use crate::belief::{Belief, PlayModel};
use crate::game::Game;
use crate::model::{decision_features, Mixture, Net, PlayInference, NET_SIZE, ROLES};
use crate::rng::Xoshiro;
use crate::search::{self, Deals, Judge, Policy, Settings, Solver, Stream};

/// insane's move (`tile << 2 | end`) for the view's seat; see `strategies/insane.py` for the
/// settings (`floor`, `loss`, `against_cap` and `drop` default to domsim 0.2's stop: only when
/// one move is left; `keyed_stream` to its 64 random numbers drawn for every deal).
#[pyfunction]
#[pyo3(signature = (view, seed, *, samples, budget_ms, exact_tiles, random_share, block, follow, beta, floor = 8, loss = 0.0, against_cap = false, drop = 0.0, merge_mirrors = false, keyed_stream = false, model = None, prior = (0.6, 0.2, 0.2), resample = 1, model_moves = 0))]
#[allow(clippy::too_many_arguments)]
pub fn insane_move(
    py: Python<'_>,
    view: &Bound<'_, PyAny>,
    seed: u64,
    samples: usize,
    budget_ms: f64,
    exact_tiles: u32,
    random_share: f64,
    block: f64,
    follow: f64,
    beta: f64,
    floor: usize,
    loss: f64,
    against_cap: bool,
    drop: f64,
    merge_mirrors: bool,
    keyed_stream: bool,
    model: Option<Vec<f64>>,
    prior: (f64, f64, f64),
    resample: usize,
    model_moves: usize,
) -> PyResult<u32> {
    let data = PlayerView::data_of(view)?.clone();
    let model = mixture(model, prior, beta)?;
    if data.legal.is_empty() {
        return Err(value_error("the view has no legal move to choose from"));
    }
    if samples == 0
        || resample == 0
        || !(0.0..=1.0).contains(&random_share)
        || !budget_ms.is_finite()
        || budget_ms < 0.0
        || !loss.is_finite()
        || loss < 0.0
        || !drop.is_finite()
        || drop < 0.0
    {
        return Err(value_error(
            "insane needs samples >= 1, resample >= 1, 0 <= random_share <= 1, a budget_ms >= 0, a loss >= 0 \
             and a drop >= 0",
        ));
    }
    let settings = Settings {
        samples,
        budget_ms,
        exact_tiles,
        random_share,
        block,
        follow,
        beta,
        floor,
        loss,
        against_cap,
        drop,
        merge_mirrors,
        stream: if keyed_stream {
            Stream::Keyed
        } else {
            Stream::Drawn
        },
        model,
        resample,
        model_moves,
    };
    let mv = py
        .detach(move || search::choose(&data, &settings, seed))
        .map_err(value_error)?;
    Ok(mv as u32)
}

/// The learned mixture from its parts: each role's net (`ROLES` runs of `NET_SIZE`
/// parameters, flat: `model::Net::of`), the prior shares of the net, heavy-tile and uniform
/// models, and the heavy model's strength.
fn mixture(
    model: Option<Vec<f64>>,
    prior: (f64, f64, f64),
    beta: f64,
) -> PyResult<Option<Mixture>> {
    let Some(params) = model else {
        return Ok(None);
    };
    let prior = [prior.0, prior.1, prior.2];
    if params.len() != ROLES * NET_SIZE
        || !params.iter().chain(&prior).all(|w| w.is_finite())
        || prior.iter().any(|&p| p < 0.0)
        || prior.iter().sum::<f64>() <= 0.0
    {
        return Err(value_error(format!(
            "a play model is {ROLES} x {NET_SIZE} finite parameters and 3 shares >= 0, not all 0"
        )));
    }
    let nets = std::array::from_fn(|role| Net::of(&params[role * NET_SIZE..][..NET_SIZE]));
    Ok(Some(Mixture { nets, beta, prior }))
}

/// How `seat` stands to `observer` for the learned play model: 0 partner, 1 the next seat,
/// 2 the previous one, 3 another opponent (`ROLE_NAMES`).
#[pyfunction]
pub fn seat_role(rules: &Bound<'_, PyAny>, observer: u8, seat: u8) -> PyResult<usize> {
    let rules = super::state::rules_from(rules)?;
    if observer as usize >= rules.players || seat as usize >= rules.players || observer == seat {
        return Err(value_error("two different seats of the game"));
    }
    Ok(crate::model::role(&rules, observer, seat))
}

/// The features (`model.FEATURE_NAMES`) of each legal move of the view's decision, as the seat
/// sees them (R-VIEW), in the view's legal order; None for a lead, which has none.
#[pyfunction]
pub fn move_features(view: &Bound<'_, PyAny>) -> PyResult<Option<Vec<Vec<f64>>>> {
    let data = PlayerView::data_of(view)?;
    let (_, _, lines) = search::position(data);
    Ok(decision_features(data, &lines).map(|rows| rows.iter().map(|r| r.to_vec()).collect()))
}

/// How likely the other seats' plays seen in the view were, were the hands `hands` (tile masks
/// per seat), under each seat's mixture of the learned model (`model`, as insane_move takes it),
/// the heavy-tile model (`beta`) and the uniform one, with prior shares `prior`.
#[pyfunction]
#[pyo3(signature = (view, hands, model, *, beta = 0.4, prior = (0.6, 0.2, 0.2)))]
pub fn model_likelihood(
    view: &Bound<'_, PyAny>,
    hands: Vec<u32>,
    model: Vec<f64>,
    beta: f64,
    prior: (f64, f64, f64),
) -> PyResult<f64> {
    let data = PlayerView::data_of(view)?;
    if hands.len() != data.players() {
        return Err(value_error("one tile mask per seat"));
    }
    let mixture = mixture(Some(model), prior, beta)?.expect("a model was given");
    let (_, fits, lines) = search::position(data);
    let seats: Vec<u8> = (0..data.players() as u8)
        .filter(|&s| s != data.seat)
        .collect();
    let mut masks = [0u32; 4];
    masks[..hands.len()].copy_from_slice(&hands);
    Ok(PlayInference::new(data, &lines, &fits, &seats, mixture).likelihood(&masks))
}

/// The move of the seat to move in `state` found by insane's search when every hand is known
/// (a perfect-information reference): every deal searched is `state` with its undrawn boneyard
/// reshuffled, as nobody knows its order.
#[pyfunction]
#[pyo3(signature = (state, seed, *, samples, exact_tiles, random_share, block, follow))]
#[allow(clippy::too_many_arguments)]
pub fn perfect_information_move(
    py: Python<'_>,
    state: &PyState,
    seed: u64,
    samples: usize,
    exact_tiles: u32,
    random_share: f64,
    block: f64,
    follow: f64,
) -> PyResult<u32> {
    let t = *state.t();
    let moves = t.legal_vec();
    if t.hand_over || moves.is_empty() || samples == 0 {
        return Err(value_error(
            "the seat to move has no play to choose, or samples is 0",
        ));
    }
    let settings = Settings {
        samples,
        budget_ms: 0.0,
        exact_tiles,
        random_share,
        block,
        follow,
        beta: 0.0,
        floor: 8,
        loss: 0.0,
        against_cap: false,
        drop: 0.0,
        merge_mirrors: false,
        stream: Stream::Drawn,
        model: None,
        resample: 1,
        model_moves: 0,
    };
    let judge = Judge::new(&t.rules, t.to_move);
    let evaluation = py.detach(move || {
        search::evaluate(
            &settings,
            judge,
            &moves,
            None,
            &mut Xoshiro::new(seed),
            |rng| {
                let mut deal = t;
                crate::belief::shuffle(
                    rng,
                    &mut deal.boneyard[deal.drawn as usize..deal.bone_len as usize],
                );
                Ok((deal, 1.0))
            },
        )
        .map(|e| e.best(&moves))
    });
    Ok(evaluation.map_err(value_error)? as u32)
}

/// `count` deals consistent with the view, drawn uniformly from its belief: each a `State` at
/// the view's position with every hidden hand (and the boneyard) filled in, and its weight under
/// a play model preferring heavy tiles (`beta`, 0: every weight 1).
#[pyfunction]
#[pyo3(signature = (view, count, seed, *, beta = 0.0))]
pub fn sample_deals(
    py: Python<'_>,
    view: &Bound<'_, PyAny>,
    count: usize,
    seed: u64,
    beta: f64,
) -> PyResult<Vec<(PyState, f64)>> {
    let data = PlayerView::data_of(view)?.clone();
    let rules = view.getattr("rules")?.unbind();
    let mut rng = Xoshiro::new(seed);
    let mut deals = Deals::new(&data, beta, None, 1).map_err(value_error)?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let (table, weight) = deals.next(&mut rng).map_err(value_error)?;
        let mut game = Game::new(table);
        game.history = data.actions.clone();
        game.hand_number = data.hand_number;
        out.push((PyState::from_parts(game, rules.clone_ref(py)), weight));
    }
    Ok(out)
}

fn seat_of(state: &PyState, seat: usize) -> PyResult<u8> {
    if seat >= state.t().rules.players {
        return Err(value_error(format!("no seat {seat}")));
    }
    Ok(seat as u8)
}

/// A copy of `state` played to the end of the hand with insane's playout policy (every seat
/// sees the whole deal); `hand_value` then tells what it was worth to a seat.
#[pyfunction]
#[pyo3(signature = (state, seed, *, random_share = 0.1, block = 4.0, follow = 2.0))]
pub fn play_out(
    py: Python<'_>,
    state: &PyState,
    seed: u64,
    random_share: f64,
    block: f64,
    follow: f64,
) -> PyResult<PyState> {
    if !(0.0..=1.0).contains(&random_share) {
        return Err(value_error("random_share is a probability, 0..1"));
    }
    let mut game = state.game.clone();
    let mut policy = Policy::new(random_share, block, follow, Stream::Drawn);
    policy.new_stream(&mut Xoshiro::new(seed));
    policy.play_out(&mut game);
    Ok(PyState::from_parts(game, state.rules_ref(py)))
}

/// The exact value of `state` for `seat`'s side, all seats seeing every hand (alpha-beta with a
/// transposition table). Needs two sides, no spinner and nothing left to draw.
#[pyfunction]
pub fn solve(py: Python<'_>, state: &PyState, seat: usize) -> PyResult<f64> {
    let seat = seat_of(state, seat)?;
    let t = *state.t();
    if t.hand_over && t.outcome.is_none() {
        return Err(value_error("no hand has been played: start one first"));
    }
    if !t.hand_over && !search::solvable(&t, 28) {
        return Err(value_error(
            "solve needs two sides, no spinner and an empty boneyard (or a block game)",
        ));
    }
    Ok(py.detach(move || {
        Solver::new(Judge::new(&t.rules, seat), &t.rules).value(
            &t,
            f64::NEG_INFINITY,
            f64::INFINITY,
        )
    }))
}

/// Whether `solve` applies: two sides, no spinner, nothing left to draw, and at most
/// `max_tiles` tiles in hands (solving takes long with many more than 10).
#[pyfunction]
#[pyo3(signature = (state, max_tiles = 28))]
pub fn solvable(state: &PyState, max_tiles: u32) -> bool {
    !state.t().hand_over && search::solvable(state.t(), max_tiles)
}

/// The value of a finished hand for `seat`, in the variant's currency: its side's points minus
/// the others' (kozel: reversed), classic's win share plus 0.01 a pip, and half the target more
/// or less when the hand decides the match.
#[pyfunction]
pub fn hand_value(state: &PyState, seat: usize) -> PyResult<f64> {
    let seat = seat_of(state, seat)?;
    if !state.t().hand_over || state.t().outcome.is_none() {
        return Err(value_error("the hand is not over"));
    }
    Ok(Judge::new(&state.t().rules, seat).value(state.t()))
}

/// A sampled deal for Python: seat -> its tiles, and the rest in order.
type SampledDeal = (BTreeMap<u8, Vec<u32>>, Vec<u32>);

/// What the view's seat can believe about the hidden tiles, and uniform sampling of the deals
/// consistent with it (see the core's `belief` module); `seed` starts its generator.
#[pyclass(name = "Belief", module = "domsim._core", unsendable)]
pub struct PyBelief {
    belief: Belief,
    rng: Xoshiro,
}

#[pymethods]
impl PyBelief {
    #[new]
    #[pyo3(signature = (view, seed = 0))]
    fn new(view: &Bound<'_, PyAny>, seed: u64) -> PyResult<Self> {
        let belief = Belief::of(PlayerView::data_of(view)?).map_err(value_error)?;
        Ok(PyBelief {
            belief,
            rng: Xoshiro::new(seed),
        })
    }

    /// A belief from its parts: the other seats, the tiles at each location (those seats, then
    /// the rest) and, per unseen tile, the bitmask of the locations that may hold it.
    #[staticmethod]
    #[pyo3(signature = (seats, sizes, allowed, seed = 0))]
    fn from_parts(
        seats: Vec<u8>,
        sizes: Vec<u8>,
        allowed: BTreeMap<u8, u8>,
        seed: u64,
    ) -> PyResult<Self> {
        if sizes.len() != seats.len() + 1 || sizes.len() > 4 || allowed.keys().any(|&t| t >= 28) {
            return Err(value_error(
                "one size per other seat and one for the rest, tiles 0..27",
            ));
        }
        let mut caps = [0u8; 4];
        caps[..sizes.len()].copy_from_slice(&sizes);
        let belief =
            Belief::new(seats, caps, allowed.into_iter().collect()).map_err(value_error)?;
        Ok(PyBelief {
            belief,
            rng: Xoshiro::new(seed),
        })
    }

    #[getter]
    fn seats(&self) -> Vec<u32> {
        self.belief.seats.iter().map(|&s| s as u32).collect()
    }

    /// The index of the rest location (boneyard or out of play).
    #[getter]
    fn rest(&self) -> usize {
        self.belief.seats.len()
    }

    #[getter]
    fn sizes(&self) -> Vec<u32> {
        self.belief.sizes[..=self.belief.seats.len()]
            .iter()
            .map(|&k| k as u32)
            .collect()
    }

    #[getter]
    fn allowed(&self) -> BTreeMap<u8, u8> {
        self.belief.allowed.iter().copied().collect()
    }

    /// The number of deals consistent with the belief.
    fn count(&mut self) -> u128 {
        self.belief.count()
    }

    /// One deal drawn uniformly: (seat -> its tiles, the rest in a uniform random order).
    fn sample(&mut self) -> PyResult<SampledDeal> {
        let (placed, rest) = self.belief.sample(&mut self.rng).map_err(value_error)?;
        let hands = self
            .belief
            .seats
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                (
                    s,
                    crate::tiles::tiles_of(placed[i]).map(u32::from).collect(),
                )
            })
            .collect();
        Ok((hands, rest.iter().map(|&t| u32::from(t)).collect()))
    }
}

/// How likely the other seats' plays seen in the view were, were the hands `hands` (tile masks
/// per seat), under the model preferring heavy tiles with strength `beta`.
#[pyfunction]
pub fn play_likelihood(view: &Bound<'_, PyAny>, hands: Vec<u32>, beta: f64) -> PyResult<f64> {
    let data = PlayerView::data_of(view)?;
    if hands.len() != data.players() {
        return Err(value_error("one tile mask per seat"));
    }
    let (_, fits, _) = search::position(data);
    let mut masks = [0u32; 4];
    masks[..hands.len()].copy_from_slice(&hands);
    Ok(PlayModel::new(data, &fits, beta).likelihood(&masks))
}
