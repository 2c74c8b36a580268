//! A learned model of how a seat plays (issues 39 and 51): a score of each legal move of a
//! decision (a `Net`: linear in the move's features, plus rectified hidden units for what a
//! linear score cannot express), a softmax over the moves, on features read from the seat's own
//! view (R-VIEW); and the likelihood of the other seats' observed plays on a sampled deal under a
//! per-seat mixture of that model, the heavy-tile model and the uniform one.
//!
//! The features of a move, in `FEATURES` order, x the number the move newly exposes (the other
//! half of the tile, a double's own number) and e the number it covers: its pips; whether it is a
//! double; follow (the mover's other tiles that fit the ends afterwards); own_x (the mover's other
//! tiles holding x); unseen_x (tiles holding x the mover has not seen: neither laid nor its own);
//! x_dead (none unseen); next_void_x (the next seat is known to lack x, R-MUST); next_blocked
//! (the next seat is known to lack every number open afterwards); partner_void_x;
//! partner_exposed_x and opponent_exposed_x (the first seat to expose x this hand was the
//! partner, an opponent); covers_partner (the end played on was exposed by the partner). Issue
//! 51 adds the seats' history and more of the hand: own_exposed_x (the mover first exposed x);
//! covers_own, covers_next (the end was exposed by the mover, the next seat); next_void_e,
//! partner_void_e; previous_void_x (the seat before the mover lacks x); partner_led_x (the
//! partner led this hand with a tile holding x); declined_x, declined_e (the mover laid a tile
//! elsewhere this hand while x, e showed on an end); x_twice (x shows on two ends afterwards);
//! e_still_open; partner_blocked (the partner is known to lack every number open afterwards);
//! late_pips (the pips when the mover holds `LATE_TILES` or fewer); own_e (the mover's other
//! tiles holding e); own_double_x (it holds the double of x); heaviest (no tile it could lay is
//! heavier); longest_x (x is its longest number among its other tiles); no_follow. Those of
//! `HAND_FEATURES` depend on the mover's hand; the rest are public. A lead opens no end and has
//! no x: leads are no evidence. Numbers are read off the line as `Line::after` follows it: a
//! spinner's short sides count once they show on the table.

use crate::action::{Action, Kind};
use crate::belief::{note_void, plays_since_draw};
use crate::rules::Rules;
use crate::state::{Line, Table};
use crate::tiles::{
    fitting, is_double, other_number, tile_id, tiles_of, ALL_TILES, NUMBER_MASK, PIPS, TILE_A,
    TILE_B,
};
use crate::view::View;

pub const FEATURES: usize = 30;
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "pips",
    "double",
    "follow",
    "own_x",
    "unseen_x",
    "x_dead",
    "next_void_x",
    "next_blocked",
    "partner_void_x",
    "partner_exposed_x",
    "opponent_exposed_x",
    "covers_partner",
    "own_exposed_x",
    "covers_own",
    "covers_next",
    "next_void_e",
    "partner_void_e",
    "previous_void_x",
    "partner_led_x",
    "declined_x",
    "declined_e",
    "x_twice",
    "e_still_open",
    "partner_blocked",
    "late_pips",
    "own_e",
    "own_double_x",
    "heaviest",
    "longest_x",
    "no_follow",
];
const FOLLOW: usize = 2;
const OWN_X: usize = 3;
const UNSEEN_X: usize = 4;
const X_DEAD: usize = 5;
const OWN_E: usize = 25;
const OWN_DOUBLE_X: usize = 26;
const HEAVIEST: usize = 27;
const LONGEST_X: usize = 28;
const NO_FOLLOW: usize = 29;
/// The features that depend on the mover's hand, worked out on each deal (`Candidate::features`);
/// the others are public, worked out once (`Candidate::public`).
const HAND_FEATURES: [usize; 9] = [
    FOLLOW,
    OWN_X,
    UNSEEN_X,
    X_DEAD,
    OWN_E,
    OWN_DOUBLE_X,
    HEAVIEST,
    LONGEST_X,
    NO_FOLLOW,
];
type HandFeatures = [f64; HAND_FEATURES.len()];
/// The mover's hand counts as late from this many tiles down (`late_pips`).
const LATE_TILES: i32 = 3;

/// How a seat stands to the one that models it: its partner, the next seat, the previous one, or
/// another opponent (the only other seat in 2-player games, the seat across in 4-player games
/// without teams).
pub const ROLES: usize = 4;
pub const ROLE_NAMES: [&str; ROLES] = ["partner", "next", "previous", "opponent"];

pub fn role(rules: &Rules, observer: u8, seat: u8) -> usize {
    let players = rules.players as u8;
    if rules.teams && rules.side_of(observer as usize) == rules.side_of(seat as usize) {
        0
    } else if players > 2 && (observer + 1) % players == seat {
        1
    } else if players > 2 && (seat + 1) % players == observer {
        2
    } else {
        3
    }
}

const NOBODY: u8 = u8::MAX;

/// What every seat has seen of the hand before an action, as the features read it: the numbers
/// each seat is known to lack, the tiles laid, who first exposed each number this hand and who
/// exposed each open end, who led and the numbers of the lead, and the numbers each seat left
/// open on another end when it played (declined).
#[derive(Clone, Copy, Debug)]
pub struct Seen {
    voids: [u8; 4],
    laid: u32,
    first_exposer: [u8; 7],
    end_exposer: [u8; 4],
    leader: u8,
    lead_numbers: u8,
    declined: [u8; 4],
}

impl Seen {
    const START: Seen = Seen {
        voids: [0; 4],
        laid: 0,
        first_exposer: [NOBODY; 7],
        end_exposer: [NOBODY; 4],
        leader: NOBODY,
        lead_numbers: 0,
        declined: [0; 4],
    };

    /// Note action `a`, which turned line `before` into `after` (the same line unless a play).
    pub fn note(&mut self, a: Action, before: &Line, after: &Line) {
        note_void(&mut self.voids, a);
        if a.kind() != Kind::Play {
            return;
        }
        let (seat, tile) = (a.seat(), a.tile());
        let numbers = 1 << TILE_A[tile as usize] | 1 << TILE_B[tile as usize];
        if before.n == 0 {
            (self.leader, self.lead_numbers) = (seat, numbers);
        }
        self.declined[seat as usize] |= before.open_numbers() & !numbers;
        self.laid |= 1 << tile;
        self.expose(a, before, after);
    }

    /// Who exposed what once play `a` turned line `before` into `after`: the lead both ends, a
    /// tile its end, a spinner's sides as they open.
    fn expose(&mut self, a: Action, before: &Line, after: &Line) {
        let seat = a.seat();
        let ends = &mut self.end_exposer;
        let fresh = if before.n == 0 {
            0..after.n as usize
        } else {
            let end = a.end() as usize;
            ends[end] = seat;
            before.n as usize..after.n as usize
        };
        for e in fresh {
            ends[e] = seat;
        }
        for (&number, &by) in after.ends.iter().zip(ends.iter()).take(after.n as usize) {
            if self.first_exposer[number as usize] == NOBODY && by == seat {
                self.first_exposer[number as usize] = seat;
            }
        }
    }
}

/// What every seat sees before an action: the line, what it has `Seen` of the hand, the seat to
/// act, its partner, the seats before and after it and how many tiles it holds.
#[derive(Clone, Copy, Debug)]
pub struct Moment {
    pub seat: u8,
    line: Line,
    seen: Seen,
    next: u8,
    partner: u8,
    previous: u8,
    hand_count: i32,
    /// The tiles that fit the ends.
    now_fit: u32,
}

/// A move's public features and what its hand-dependent ones need.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    pub mv: u8,
    x: u8,
    e: u8,
    /// Tiles that fit the ends once the move is laid.
    after_fit: u32,
    laid: u32,
    public: [f64; FEATURES],
}

/// What the hand-dependent features read of a mover's hand at a decision, worked out once for
/// all its candidates: its tiles, how many hold each number, and the most pips it could lay.
struct Hand {
    tiles: u32,
    per_number: [u32; 7],
    heaviest: i32,
}

impl Moment {
    /// The moment `seat`, holding `hand_count` tiles, acts on `line` after what is `seen`.
    pub fn new(rules: &Rules, seat: u8, line: Line, seen: Seen, hand_count: i32) -> Moment {
        let players = rules.players as u8;
        let partner = if rules.teams && players == 4 {
            (seat + 2) % 4
        } else {
            NOBODY
        };
        let previous = if players > 2 {
            (seat + players - 1) % players
        } else {
            NOBODY
        };
        Moment {
            seat,
            line,
            seen,
            next: (seat + 1) % players,
            partner,
            previous,
            hand_count,
            now_fit: fitting(line.open_numbers()),
        }
    }

    /// The candidate `mv` (which fits the line), or None for a lead.
    pub fn candidate(&self, mv: u8) -> Option<Candidate> {
        if self.line.n == 0 {
            return None;
        }
        let (tile, end) = (mv >> 2, (mv & 3) as usize);
        let e = self.line.ends[end];
        let x = other_number(tile, e);
        let after = self.line.after(mv);
        let open_ends = &after.ends[..after.n as usize];
        let open = after.open_numbers();
        let seen = &self.seen;
        let has = |mask: u8, number: u8| f64::from(mask >> number & 1);
        let void_of = |seat: u8| {
            if seat == NOBODY {
                0
            } else {
                seen.voids[seat as usize]
            }
        };
        let is = |seat: u8, who: u8| f64::from(seat != NOBODY && seat == who);
        let first = seen.first_exposer[x as usize];
        let by_end = seen.end_exposer[end];
        let mut public = [0.0; FEATURES];
        public[0] = PIPS[tile as usize] as f64;
        public[1] = f64::from(is_double(tile));
        public[6] = has(void_of(self.next), x);
        public[7] = f64::from(open & !void_of(self.next) == 0);
        public[8] = has(void_of(self.partner), x);
        public[9] = is(first, self.partner);
        public[10] = f64::from(first != NOBODY && first != self.seat && first != self.partner);
        public[11] = is(by_end, self.partner);
        public[12] = is(first, self.seat);
        public[13] = is(by_end, self.seat);
        public[14] = is(by_end, self.next);
        public[15] = has(void_of(self.next), e);
        public[16] = has(void_of(self.partner), e);
        public[17] = has(void_of(self.previous), x);
        public[18] = is(seen.leader, self.partner) * has(seen.lead_numbers, x);
        public[19] = has(seen.declined[self.seat as usize], x);
        public[20] = has(seen.declined[self.seat as usize], e);
        public[21] = f64::from(open_ends.iter().filter(|&&n| n == x).count() > 1);
        public[22] = has(open, e);
        public[23] = f64::from(self.partner != NOBODY && open & !void_of(self.partner) == 0);
        if self.hand_count <= LATE_TILES {
            public[24] = public[0];
        }
        Some(Candidate {
            mv,
            x,
            e,
            after_fit: fitting(open),
            laid: seen.laid,
            public,
        })
    }

    /// Every move of `tiles` that fits the line (none before the lead).
    pub fn candidates(&self, tiles: u32) -> impl Iterator<Item = Candidate> + '_ {
        (0..self.line.n).flat_map(move |end| {
            let number = self.line.ends[end as usize];
            tiles_of(tiles & NUMBER_MASK[number as usize])
                .filter_map(move |tile| self.candidate(tile << 2 | end))
        })
    }

    /// The mover's `tiles` as its candidates' features read them.
    fn hand(&self, tiles: u32) -> Hand {
        let heaviest = tiles_of(tiles & self.now_fit)
            .map(|t| PIPS[t as usize])
            .max()
            .unwrap_or(0);
        Hand {
            tiles,
            per_number: NUMBER_MASK.map(|m| (tiles & m).count_ones()),
            heaviest,
        }
    }

    /// A move of the mover, which holds `tiles` and may play, drawn from `net`'s softmax over
    /// its plays (the only one without a draw), `chance` giving a uniform number in [0, 1).
    pub fn draw_move(&self, net: &Net, tiles: u32, chance: impl FnOnce() -> f64) -> u8 {
        let hand = self.hand(tiles);
        let mut scored = [(0u8, 0.0f64); 112];
        let mut n = 0;
        for c in self.candidates(tiles) {
            scored[n] = (
                c.mv,
                net.finish(net.partial(&c.public), &c.hand_features(&hand)),
            );
            n += 1;
        }
        draw(&mut scored[..n], chance)
    }
}

/// One of the moves `scored` (with their scores), drawn from their softmax, `chance` giving a
/// uniform number in [0, 1) when there is more than one.
fn draw(scored: &mut [(u8, f64)], chance: impl FnOnce() -> f64) -> u8 {
    let n = scored.len();
    if n == 1 {
        return scored[0].0;
    }
    let top = scored.iter().map(|s| s.1).fold(f64::MIN, f64::max);
    scored.iter_mut().for_each(|s| s.1 = (s.1 - top).exp());
    let mut pick = chance() * scored.iter().map(|s| s.1).sum::<f64>();
    for &(mv, weight) in scored.iter() {
        pick -= weight;
        if pick < 0.0 {
            return mv;
        }
    }
    scored[n - 1].0
}

impl Candidate {
    pub fn tile(&self) -> u8 {
        self.mv >> 2
    }

    /// All its features for a mover holding `hand` (the tile among them).
    fn features(&self, hand: &Hand) -> [f64; FEATURES] {
        let mut f = self.public;
        for (&k, x) in HAND_FEATURES.iter().zip(self.hand_features(hand)) {
            f[k] = x;
        }
        f
    }

    /// Its features that depend on the mover's `hand`, in `HAND_FEATURES` order.
    fn hand_features(&self, hand: &Hand) -> HandFeatures {
        let tile = self.tile();
        let others = hand.tiles & !(1 << tile);
        let holds = |number: usize| hand.per_number[number] - (NUMBER_MASK[number] >> tile & 1);
        let x_tiles = NUMBER_MASK[self.x as usize];
        let unseen = (x_tiles & !(self.laid | hand.tiles)).count_ones();
        let follow = (others & self.after_fit).count_ones();
        let own_x = holds(self.x as usize);
        let longest = (0..7).map(holds).max().unwrap_or(0);
        [
            follow as f64,
            own_x as f64,
            unseen as f64,
            f64::from(unseen == 0),
            holds(self.e as usize) as f64,
            f64::from(others >> tile_id(self.x, self.x) & 1 == 1),
            f64::from(hand.heaviest <= PIPS[tile as usize]),
            f64::from(own_x > 0 && own_x == longest),
            f64::from(follow == 0),
        ]
    }
}

/// The moment before each action of the view's history and the moment now (`lines[i]`: the
/// line before action i, as `search::position` replays it).
pub fn moments(view: &View, lines: &[Line]) -> Vec<Moment> {
    let mut counts = hand_counts_at_start(view);
    let mut seen = Seen::START;
    let mut out = Vec::with_capacity(view.actions.len() + 1);
    let now = view.line();
    for (i, line) in lines.iter().chain(std::iter::once(&now)).enumerate() {
        let seat = view.actions.get(i).map_or(view.seat, |a| a.seat());
        out.push(Moment::new(
            &view.rules,
            seat,
            *line,
            seen,
            counts[seat as usize],
        ));
        let Some(&a) = view.actions.get(i) else { break };
        match a.kind() {
            Kind::Play => counts[seat as usize] -= 1,
            Kind::Draw => counts[seat as usize] += 1,
            Kind::Pass => {}
        }
        seen.note(a, line, lines.get(i + 1).unwrap_or(&now));
    }
    out
}

/// How many tiles each seat held when the hand's first action was made: what it holds now,
/// with what it laid since and less what it drew.
fn hand_counts_at_start(view: &View) -> [i32; 4] {
    let mut counts = view.hand_counts.map(i32::from);
    for a in &view.actions {
        let seat = a.seat() as usize;
        match a.kind() {
            Kind::Play => counts[seat] += 1,
            Kind::Draw => counts[seat] -= 1,
            Kind::Pass => {}
        }
    }
    counts
}

/// Hidden units of a seat's net at most.
pub const HIDDEN: usize = 8;
/// A net's parameters as Python passes them: its linear weights, then each hidden unit's input
/// weights, bias and output weight.
pub const NET_SIZE: usize = FEATURES + HIDDEN * (FEATURES + 2);

/// One hidden unit: a rectified linear function of the features, `out` times it added to the
/// move's score.
#[derive(Clone, Copy, Debug)]
pub struct Unit {
    pub input: [f64; FEATURES],
    pub bias: f64,
    pub out: f64,
}

/// How a seat's move is scored (issue 51): a linear function of its features (the logit of
/// issue 39 when that is all) plus its hidden units, which express interactions the logit
/// cannot. A unit whose output weight is 0 is not worked out.
#[derive(Clone, Copy, Debug)]
pub struct Net {
    pub linear: [f64; FEATURES],
    pub units: [Unit; HIDDEN],
    pub live: usize,
    /// By feature, its linear weight and each unit's input weight (`score`'s layout).
    by_feature: [[f64; HIDDEN + 1]; FEATURES],
}

impl Net {
    /// A net from `NET_SIZE` parameters (`NET_SIZE` above); its live units first.
    pub fn of(params: &[f64]) -> Net {
        let mut linear = [0.0; FEATURES];
        linear.copy_from_slice(&params[..FEATURES]);
        let empty = Unit {
            input: [0.0; FEATURES],
            bias: 0.0,
            out: 0.0,
        };
        let mut units = [empty; HIDDEN];
        let mut live = 0;
        for chunk in params[FEATURES..].chunks(FEATURES + 2) {
            if chunk[FEATURES + 1] == 0.0 {
                continue;
            }
            units[live].input.copy_from_slice(&chunk[..FEATURES]);
            units[live].bias = chunk[FEATURES];
            units[live].out = chunk[FEATURES + 1];
            live += 1;
        }
        let by_feature = std::array::from_fn(|k| {
            let mut row = [linear[k]; HIDDEN + 1];
            for (w, unit) in row[1..].iter_mut().zip(&units) {
                *w = unit.input[k];
            }
            row
        });
        Net {
            linear,
            units,
            live,
            by_feature,
        }
    }

    /// A net with nearly every weight set, each one of `spread` values scaled by `scale` about
    /// 0: tests read every feature through it.
    #[cfg(test)]
    pub fn dense(spread: usize, scale: f64) -> Net {
        let params: Vec<f64> = (0..NET_SIZE)
            .map(|i| (i * 7919 % spread) as f64 / scale - 1.0)
            .collect();
        Net::of(&params)
    }

    /// A playout's scoring, feature by feature, skipping those that are 0 (most are): the
    /// linear score and each unit's input as a candidate's public features make them
    /// (`finish` adds the hand's). The inference, which scores a candidate on many deals,
    /// works out its public part once by dot products instead (`net_score`).
    fn partial(&self, public: &[f64; FEATURES]) -> Partial {
        let mut sums = [0.0; HIDDEN + 1];
        for (sum, unit) in sums[1..].iter_mut().zip(&self.units) {
            *sum = unit.bias;
        }
        for (&x, row) in public.iter().zip(&self.by_feature) {
            if x != 0.0 {
                for (sum, w) in sums.iter_mut().zip(row) {
                    *sum += w * x;
                }
            }
        }
        sums
    }

    /// The score of a move whose public features made `sums` (`partial`) and whose hand's
    /// are `own`.
    fn finish(&self, mut sums: Partial, own: &HandFeatures) -> f64 {
        for (&k, &x) in HAND_FEATURES.iter().zip(own) {
            if x != 0.0 {
                for (sum, w) in sums.iter_mut().zip(&self.by_feature[k]) {
                    *sum += w * x;
                }
            }
        }
        let hidden = self.live_units().iter().zip(&sums[1..]);
        sums[0] + hidden.map(|(u, &h)| u.out * h.max(0.0)).sum::<f64>()
    }

    fn live_units(&self) -> &[Unit] {
        &self.units[..self.live]
    }
}

/// A move's linear score and each live unit's input (`Net::partial`).
type Partial = [f64; HIDDEN + 1];

/// The models mixed for each seat: the net by role, the heavy-tile model's strength (`beta`: a
/// logit on pips alone) and the uniform model, with their prior shares.
#[derive(Clone, Copy, Debug)]
pub struct Mixture {
    pub nets: [Net; ROLES],
    pub beta: f64,
    /// The prior shares of the net, heavy and uniform models.
    pub prior: [f64; 3],
}

/// A candidate with what its score needs: its public part of the linear score and of each live
/// unit's input.
struct Scored {
    candidate: Candidate,
    linear: f64,
    hidden: [f64; HIDDEN],
}

impl Scored {
    fn new(net: &Net, candidate: Candidate) -> Scored {
        let mut hidden = [0.0; HIDDEN];
        for (h, unit) in hidden.iter_mut().zip(net.live_units()) {
            *h = unit.bias + dot(&unit.input, &candidate.public);
        }
        Scored {
            candidate,
            linear: dot(&net.linear, &candidate.public),
            hidden,
        }
    }
}

/// One observed play that was a choice: its seat (by location), the moment before it, its
/// candidates (every move the seat might have held then), which was chosen, and the seat's
/// tiles played from then on.
struct Evidence {
    location: usize,
    moment: Moment,
    candidates: Vec<Scored>,
    chosen: u8,
    later: u32,
}

/// How likely the other seats' observed plays were on a sampled deal, under each seat's mixture:
/// for seat s, the sum over models m of prior(m) times the product of m's probabilities of s's
/// plays. A model that predicts a seat badly on the deals that fit gives way to the others: the
/// mixture's shares are, in effect, learnt from that seat's plays this hand. Only plays made
/// since the seat last drew are evidence (a hand before a draw is not known from a deal of the
/// present), and the first hand's named lead was no choice (leads are no evidence anyway).
pub struct PlayInference {
    mixture: Mixture,
    nets: Vec<Net>,
    evidence: Vec<Evidence>,
    seats: Vec<u8>,
}

impl PlayInference {
    /// `seats`: the other seats in order (the belief's locations); `lines` and `fits` as
    /// `search::position` gives them.
    pub fn new(
        view: &View,
        lines: &[Line],
        fits: &[u32],
        seats: &[u8],
        mixture: Mixture,
    ) -> PlayInference {
        let moments = moments(view, lines);
        let nets: Vec<Net> = seats
            .iter()
            .map(|&s| mixture.nets[role(&view.rules, view.seat, s)])
            .collect();
        let mut evidence = Vec::new();
        for (index, a, later) in plays_since_draw(view) {
            let Some(location) = seats.iter().position(|&s| s == a.seat()) else {
                continue;
            };
            let moment = &moments[index];
            if moment.candidate(a.mv()).is_none() {
                continue;
            }
            let net = &nets[location];
            let candidates = moment
                .candidates(fits[index] & !moment.seen.laid)
                .map(|c| Scored::new(net, c))
                .collect();
            evidence.push(Evidence {
                location,
                moment: *moment,
                candidates,
                chosen: a.mv(),
                later,
            });
        }
        PlayInference {
            mixture,
            nets,
            evidence,
            seats: seats.to_vec(),
        }
    }

    /// The likelihood of the evidence on a deal (`hands` by seat).
    pub fn likelihood(&self, hands: &[u32; 4]) -> f64 {
        let mut log = [[0.0f64; 3]; 3];
        let mut scores = [[0.0f64; 3]; 112];
        for e in &self.evidence {
            let tiles = hands[self.seats[e.location] as usize] | e.later;
            let hand = e.moment.hand(tiles);
            let net = &self.nets[e.location];
            let (mut n, mut chosen) = (0, usize::MAX);
            for s in &e.candidates {
                let c = &s.candidate;
                if tiles >> c.tile() & 1 == 0 {
                    continue;
                }
                if c.mv == e.chosen {
                    chosen = n;
                }
                let own = c.hand_features(&hand);
                scores[n] = [
                    net_score(net, s, &own),
                    self.mixture.beta * c.public[0],
                    0.0,
                ];
                n += 1;
            }
            if n < 2 || chosen == usize::MAX {
                continue;
            }
            let scores = &scores[..n];
            for (m, total) in log[e.location].iter_mut().enumerate() {
                let top = scores.iter().map(|s| s[m]).fold(f64::MIN, f64::max);
                let sum: f64 = scores.iter().map(|s| (s[m] - top).exp()).sum();
                *total += scores[chosen][m] - top - sum.ln();
            }
        }
        log[..self.seats.len()]
            .iter()
            .map(|l| {
                l.iter()
                    .zip(self.mixture.prior)
                    .map(|(&ll, p)| p * ll.exp())
                    .sum::<f64>()
            })
            .product()
    }
}

/// A candidate's score under a net, its public parts worked out already and `own` its features
/// of the hand on the deal.
fn net_score(net: &Net, s: &Scored, own: &HandFeatures) -> f64 {
    let by_hand = |w: &[f64; FEATURES]| -> f64 {
        HAND_FEATURES.iter().zip(own).map(|(&k, x)| w[k] * x).sum()
    };
    let mut score = s.linear + by_hand(&net.linear);
    for (unit, &public) in net.live_units().iter().zip(&s.hidden) {
        let input = public + by_hand(&unit.input);
        score += unit.out * input.max(0.0);
    }
    score
}

fn dot(w: &[f64; FEATURES], f: &[f64; FEATURES]) -> f64 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}

/// The other seats as a search's playouts may play them (issue 51): each other seat's net by its
/// role to the searcher, how many of their moves a playout draws from the nets (its first ones),
/// and the line and what the table had seen at the decision.
pub struct TableModel<'a> {
    nets: [Option<&'a Net>; 4],
    pub moves: usize,
    /// By legal move of the decision, what the table has seen once it is made, and the next
    /// seat's reply to it (`Reply`; None once the hand is over).
    afters: Vec<(Seen, Option<Reply>)>,
}

/// The moment a seat replies to the decision's move, the same on every deal, and every move it
/// might make then (of the tiles the searcher has not seen, none of a number the seat is known to
/// lack) with its public part of the score:
/// on each deal only the features of the hand are left to work out.
pub struct Reply {
    moment: Moment,
    /// The candidates' tiles (which a deal's hand picks from), then the candidates.
    tiles: Vec<u8>,
    candidates: Vec<(Candidate, Partial)>,
}

impl Reply {
    /// The reply of the seat to move on `t`, which `net` plays, holding `hand_count` tiles of
    /// `may_hold`.
    fn new(t: &Table, seen: Seen, net: &Net, hand_count: i32, may_hold: u32) -> Reply {
        let moment = Moment::new(&t.rules, t.to_move, Line::of(t), seen, hand_count);
        let candidates: Vec<(Candidate, Partial)> = moment
            .candidates(may_hold)
            .map(|c| (c, net.partial(&c.public)))
            .collect();
        Reply {
            moment,
            tiles: candidates.iter().map(|(c, _)| c.tile()).collect(),
            candidates,
        }
    }

    /// `Moment::draw_move` for the replying seat holding `tiles`.
    pub fn draw(&self, net: &Net, tiles: u32, chance: impl FnOnce() -> f64) -> u8 {
        let hand = self.moment.hand(tiles);
        let mut scored = [(0u8, 0.0f64); 112];
        let mut n = 0;
        for (i, &tile) in self.tiles.iter().enumerate() {
            if tiles >> tile & 1 == 1 {
                let (c, sums) = &self.candidates[i];
                scored[n] = (c.mv, net.finish(*sums, &c.hand_features(&hand)));
                n += 1;
            }
        }
        draw(&mut scored[..n], chance)
    }
}

impl<'a> TableModel<'a> {
    /// `template` and `lines` as `search::position` gives them.
    pub fn new(
        view: &View,
        template: &Table,
        lines: &[Line],
        mixture: &'a Mixture,
        moves: usize,
    ) -> TableModel<'a> {
        let now = moments(view, lines).pop().expect("the moment now");
        let nets: [Option<&Net>; 4] = std::array::from_fn(|s| {
            let other = s < view.players() && s as u8 != view.seat;
            other.then(|| &mixture.nets[role(&view.rules, view.seat, s as u8)])
        });
        let unseen = ALL_TILES & !view.seen();
        let after = |&mv: &u8| {
            let mut t = *template;
            let a = t.play(mv);
            let mut seen = now.seen;
            seen.note(a, &now.line, &Line::of(&t));
            let seat = t.to_move as usize;
            let count = i32::from(view.hand_counts[seat]);
            let may_hold = unseen & !fitting(seen.voids[seat]);
            let reply = (nets[seat].filter(|_| !t.hand_over))
                .map(|net| Reply::new(&t, seen, net, count, may_hold));
            (seen, reply)
        };
        TableModel {
            nets,
            moves,
            afters: view.legal.iter().map(after).collect(),
        }
    }

    /// The net `seat` plays by, None for the searcher's seat.
    pub fn net(&self, seat: u8) -> Option<&'a Net> {
        self.nets[seat as usize]
    }

    /// What the table has seen once the decision's `index`th legal move is made, and the reply
    /// to it.
    pub fn after(&self, index: usize) -> (Seen, Option<&Reply>) {
        let (seen, reply) = &self.afters[index];
        (*seen, reply.as_ref())
    }
}

/// The features of each legal move of the view's decision, from the view (its own hand): what
/// the decision logs hold (`None` for a lead).
pub fn decision_features(view: &View, lines: &[Line]) -> Option<Vec<[f64; FEATURES]>> {
    let now = *moments(view, lines).last().expect("the moment now");
    let hand = now.hand(view.hand);
    view.legal
        .iter()
        .map(|&mv| now.candidate(mv).map(|c| c.features(&hand)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rules::presets;
    use crate::search::position;
    use crate::state::Table;
    use crate::view::tests::random_decisions;

    /// Random hands of every variant: at each decision with a choice, the view of the seat to
    /// move and the hands as they are.
    fn decisions(mut each: impl FnMut(&View, &[u32; 4])) {
        random_decisions(9, 20, 4, |game, view| each(view, &game.t.hands));
    }

    /// R-VIEW: what a seat's features of its own decision were (what the logs hold) is what any
    /// later view of the hand rebuilds for that decision from the seat's true hand then: the
    /// inference reads a past play as the logs recorded it, from public actions and the hand.
    #[test]
    fn a_later_view_rebuilds_the_features_of_a_past_decision() {
        // (the decision's place in the history, the hands then, its features, its moves)
        type Logged = (usize, [u32; 4], Vec<[f64; FEATURES]>, Vec<u8>);
        let mut logged: Vec<Logged> = Vec::new();
        let mut rebuilt = 0;
        decisions(|view, hands| {
            if view.actions.is_empty() {
                logged.clear();
            }
            logged.retain(|(at, ..)| *at < view.actions.len());
            let (_, _, lines) = position(view);
            let moments = moments(view, &lines);
            for (at, hands_then, features, legal) in &logged {
                let moment = &moments[*at];
                let hand = moment.hand(hands_then[moment.seat as usize]);
                for (mv, f) in legal.iter().zip(features) {
                    assert_eq!(moment.candidate(*mv).unwrap().features(&hand), *f);
                    rebuilt += 1;
                }
            }
            if let Some(features) = decision_features(view, &lines) {
                logged.push((view.actions.len(), *hands, features, view.legal.clone()));
            }
        });
        assert!(rebuilt > 10_000);
    }

    /// A move drawn from a net is one of the mover's plays, in its softmax's proportions: with
    /// every weight 0 each play is as likely (the uniform number picks the play at its rank);
    /// weighting the pips strongly, the heaviest comes whatever the number. Block, 2 players,
    /// ends 0|6: 0-1 on the 0, 4-6 and 1-6 on the 6.
    #[test]
    fn a_move_drawn_from_a_net_follows_its_softmax() {
        let view = block_decision();
        let (_, _, lines) = position(&view);
        let now = *moments(&view, &lines).last().unwrap();
        let mut params = [0.0; NET_SIZE];
        let uniform = Net::of(&params);
        let drawn = |net: &Net, u: f64| now.draw_move(net, view.hand, || u);
        let tile = |name: &str, end: u8| crate::tiles::id(name) << 2 | end;
        let order = [tile("0-1", 0), tile("1-6", 1), tile("4-6", 1)];
        for (rank, mv) in order.iter().enumerate() {
            assert_eq!(drawn(&uniform, (rank as f64 + 0.5) / 3.0), *mv);
        }
        params[0] = 20.0;
        let heavy = Net::of(&params);
        assert!([0.001, 0.5, 0.999]
            .iter()
            .all(|&u| drawn(&heavy, u) == order[2]));
    }

    /// A net scores a move alike both ways: feature by feature, skipping zeros (a playout's
    /// draws), and from its public part worked out ahead (the inference's), with every unit live.
    #[test]
    fn both_ways_of_scoring_agree() {
        let net = Net::dense(17, 8.0);
        assert_eq!(net.live, HIDDEN);
        let mut scored = 0;
        decisions(|view, _| {
            let (_, _, lines) = position(view);
            let now = *moments(view, &lines).last().unwrap();
            let hand = now.hand(view.hand);
            for c in now.candidates(view.hand) {
                let own = c.hand_features(&hand);
                let ahead = net_score(&net, &Scored::new(&net, c), &own);
                let sparse = net.finish(net.partial(&c.public), &own);
                assert!((sparse - ahead).abs() < 1e-9 * ahead.abs().max(1.0));
                scored += 1;
            }
        });
        assert!(scored > 10_000, "{scored}");
    }

    /// R-SEAT: seats sit in turn order, partners across in team games: to seat 0, seat 2 is the
    /// partner, 1 the next seat and 3 the previous one; without teams the seat across is another
    /// opponent, and with 2 players the other seat is the opponent.
    #[test]
    fn roles_follow_the_seating() {
        let roles = |name: &str, players: usize| {
            let rules = presets::rules(name, players);
            (1..players as u8)
                .map(|s| ROLE_NAMES[role(&rules, 0, s)])
                .collect::<Vec<_>>()
        };
        assert_eq!(roles("partnership", 4), ["next", "partner", "previous"]);
        assert_eq!(roles("draw", 4), ["next", "opponent", "previous"]);
        assert_eq!(roles("block", 3), ["next", "previous"]);
        assert_eq!(roles("block", 2), ["opponent"]);
    }

    /// Seat 0's view in `features_of_a_block_decision`.
    fn block_decision() -> View {
        let hand = crate::tiles::mask;
        let mut game = Game::new(Table::new(presets::rules("block", 2)));
        game.start_hand(
            &[
                hand("0-6 0-1 1-6 4-6 3-3 2-2 2-5"),
                hand("1-1 1-2 1-3 1-4 1-5 2-3 3-4"),
            ],
            &[],
            0,
            -1,
        );
        game.play(crate::tiles::id("0-6") << 2);
        game.pass_turn();
        View::of(&game, game.t.legal_vec())
    }

    /// Block, 2 players, R-MUST: seat 0 leads 0-6 and seat 1 passes (it lacks 0 and 6). Seat 0,
    /// holding 0-1, 1-6, 4-6, 3-3, 2-2 and 2-5 on ends 0|6: 0-1 on the 0 exposes 1 (ends 1|6,
    /// which 1-6 and 4-6 fit; it holds 1-6; five 1s unseen); 4-6 on the 6 exposes 4 (six 4s
    /// unseen, none its own); neither leaves seat 1 known to have nothing. Both cover an end
    /// seat 0 exposed and a number seat 1 lacks; 4-6 is the heaviest it may lay, and it keeps
    /// 1-6 for the 6 it covers.
    #[test]
    fn features_of_a_block_decision() {
        let view = block_decision();
        let (_, _, lines) = position(&view);
        let features = decision_features(&view, &lines).expect("not a lead");
        let of = |tile: &str, end: u8| {
            let mv = crate::tiles::id(tile) << 2 | end;
            features[view.legal.iter().position(|&m| m == mv).expect("legal")]
        };
        assert_eq!(
            of("0-1", 0),
            [
                1.0, 0.0, 2.0, 1.0, 5.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // issue 39's
                0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // public
                0.0, 0.0, 0.0, 0.0, 0.0, // the hand's
            ]
        );
        assert_eq!(
            of("4-6", 1),
            [
                10.0, 0.0, 1.0, 0.0, 6.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // issue 39's
                0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // public
                1.0, 0.0, 1.0, 0.0, 0.0, // the hand's
            ]
        );
    }
}
