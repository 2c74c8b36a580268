//! What a seat can believe about the hidden tiles (R-VIEW), read off its view only, and exact
//! uniform sampling of the deals consistent with it.
//!
//! Locations are the other seats in order, then the rest: the boneyard in draw games, the tiles
//! out of play in block with 2-3 players (unknown, not absent), nothing when all 28 are dealt. A
//! tile may lie in a seat's hand unless the seat is known to lack one of its numbers (R-MUST: a
//! pass adds the open numbers, a draw resets them to the numbers open then) or the first hand's
//! named lead shows it was not dealt (R-LEAD: it would have been led) and the seat has not drawn
//! since. The rest takes any tile.
//!
//! Sampling groups the unseen tiles by the set of locations allowed to them, counts completions
//! with a dynamic programme over groups and remaining capacities, and deals group by group in
//! proportion to those counts: every consistent deal is equally likely, and nothing can stall.

use std::collections::HashMap;
use std::rc::Rc;

use crate::action::{Action, Kind};
use crate::deal::first_lead;
use crate::hash::BuildKeyHasher;
use crate::rng::Xoshiro;
use crate::tiles::{fitting, tiles_of, ALL_TILES, PIPS};
use crate::view::View;

/// Up to 3 other seats and the rest.
const MAX_LOCATIONS: usize = 4;
type Caps = [u8; MAX_LOCATIONS];

pub struct Belief {
    /// The other seats, in order.
    pub seats: Vec<u8>,
    /// Tiles at each location: the other seats, then the rest.
    pub sizes: Caps,
    /// Each unseen tile and the bitmask of the locations that may hold it.
    pub allowed: Vec<(u8, u8)>,
    /// Groups of unseen tiles sharing the bitmask of locations allowed to them, most
    /// constrained first.
    groups: Vec<(u8, Vec<u8>)>,
    /// The splits of a group given the capacities left (see `splits`), keyed by `memo_key`.
    memo: HashMap<u64, Rc<Splits>, BuildKeyHasher>,
}

/// A group's possible splits over the locations, each with its weight, and their total.
struct Splits {
    choices: Vec<(Caps, u128)>,
    total: u128,
}

/// The numbers each seat cannot hold now, read off the actions (R-MUST).
pub fn known_voids(view: &View) -> [u8; 4] {
    let mut voids = [0u8; 4];
    for &a in &view.actions {
        note_void(&mut voids, a);
    }
    voids
}

/// What one action shows of the numbers its seat cannot hold (R-MUST): a pass adds the open
/// numbers, a draw resets them to the numbers open then.
pub fn note_void(voids: &mut [u8; 4], a: Action) {
    let seat = a.seat() as usize;
    match a.kind() {
        Kind::Pass => voids[seat] |= a.open_numbers(),
        Kind::Draw => voids[seat] = a.open_numbers(),
        Kind::Play => {}
    }
}

/// The plays that tell of their seat's hand (R-MUST): last first, each play made since its seat
/// last drew, as (its place in the view's history, the action, the tiles its seat laid from
/// then on this hand, itself included).
pub fn plays_since_draw(view: &View) -> Vec<(usize, Action, u32)> {
    let mut later = [0u32; 4];
    let mut drew = [false; 4];
    let mut plays = Vec::new();
    for (index, &a) in view.actions.iter().enumerate().rev() {
        let seat = a.seat() as usize;
        match a.kind() {
            Kind::Draw => drew[seat] = true,
            Kind::Play => {
                later[seat] |= 1 << a.tile();
                if !drew[seat] {
                    plays.push((index, a, later[seat]));
                }
            }
            Kind::Pass => {}
        }
    }
    plays
}

/// Tiles the first hand's named lead shows were dealt to nobody (R-LEAD, R-LEAD-DEALT).
pub fn not_dealt(view: &View, unseen: u32) -> u32 {
    let first_play = view.actions.iter().find(|a| a.is_play());
    let Some(lead) = first_play else { return 0 };
    if view.hand_number != 0 || view.rules.by_lot() {
        return 0;
    }
    let led = lead.tile();
    tiles_of(unseen)
        .filter(|&t| first_lead(&view.rules, &[1 << led | 1 << t]).1 == t)
        .fold(0, |m, t| m | 1 << t)
}

impl Belief {
    /// The belief of the seat to move, from what its view shows.
    pub fn of(view: &View) -> Result<Belief, String> {
        let players = view.players();
        let seats: Vec<u8> = (0..players as u8).filter(|&s| s != view.seat).collect();
        let unseen = ALL_TILES & !view.seen();
        let voids = known_voids(view);
        let drew = view
            .actions
            .iter()
            .filter(|a| a.kind() == Kind::Draw)
            .fold(0u8, |m, a| m | 1 << a.seat());
        let undealt = not_dealt(view, unseen);
        let mut sizes = [0u8; MAX_LOCATIONS];
        let mut held = 0u32;
        for (i, &s) in seats.iter().enumerate() {
            sizes[i] = view.hand_counts[s as usize];
            held += sizes[i] as u32;
        }
        let total = unseen.count_ones();
        if held > total {
            return Err(format!(
                "{held} tiles in other hands but only {total} unseen"
            ));
        }
        sizes[seats.len()] = (total - held) as u8;
        let mut allowed = Vec::new();
        for tile in tiles_of(unseen) {
            let mut mask = 1u8 << seats.len(); // the rest may hold anything
            for (i, &s) in seats.iter().enumerate() {
                let lacks = fitting(voids[s as usize]) >> tile & 1 == 1;
                let was_not_dealt = undealt >> tile & 1 == 1 && drew >> s & 1 == 0;
                if !lacks && !was_not_dealt {
                    mask |= 1 << i;
                }
            }
            allowed.push((tile, mask));
        }
        Belief::new(seats, sizes, allowed)
    }

    /// A belief from its parts: `sizes[i]` tiles at location i (the other seats, then the
    /// rest), `allowed` each unseen tile with the locations that may hold it.
    pub fn new(seats: Vec<u8>, sizes: Caps, allowed: Vec<(u8, u8)>) -> Result<Belief, String> {
        let held: u32 = sizes.iter().map(|&k| k as u32).sum();
        if seats.len() >= MAX_LOCATIONS || held as usize != allowed.len() {
            return Err(format!(
                "{} unseen tiles for locations holding {held}",
                allowed.len()
            ));
        }
        let mut groups: Vec<(u8, Vec<u8>)> = Vec::new();
        for &(tile, mask) in &allowed {
            match groups.iter_mut().find(|(m, _)| *m == mask) {
                Some((_, tiles)) => tiles.push(tile),
                None => groups.push((mask, vec![tile])),
            }
        }
        groups.sort_by_key(|(m, _)| (m.count_ones(), *m));
        Ok(Belief {
            seats,
            sizes,
            allowed,
            groups,
            memo: HashMap::default(),
        })
    }

    fn locations(&self) -> usize {
        self.seats.len() + 1
    }

    /// The number of deals consistent with the belief.
    pub fn count(&mut self) -> u128 {
        self.count_from(0, self.sizes)
    }

    fn count_from(&mut self, index: usize, caps: Caps) -> u128 {
        if index == self.groups.len() {
            return u128::from(caps.iter().all(|&c| c == 0));
        }
        self.splits(index, caps).total
    }

    /// The ways group `index` can be split over the locations within the capacities left,
    /// each weighted by the ways to choose its tiles times the completions of the rest.
    fn splits(&mut self, index: usize, caps: Caps) -> Rc<Splits> {
        let key = index as u64 | (u32::from_le_bytes(caps) as u64) << 8;
        if let Some(known) = self.memo.get(&key) {
            return Rc::clone(known);
        }
        let (mask, n) = (self.groups[index].0, self.groups[index].1.len() as u8);
        let mut choices = Vec::new();
        let mut split = [0u8; MAX_LOCATIONS];
        self.enumerate(index, caps, mask, n, 0, &mut split, &mut choices);
        let total = choices.iter().map(|(_, w)| w).sum();
        let splits = Rc::new(Splits { choices, total });
        self.memo.insert(key, Rc::clone(&splits));
        splits
    }

    #[allow(clippy::too_many_arguments)]
    fn enumerate(
        &mut self,
        index: usize,
        caps: Caps,
        mask: u8,
        left: u8,
        location: usize,
        split: &mut Caps,
        out: &mut Vec<(Caps, u128)>,
    ) {
        let last = self.locations() - 1;
        let allowed = mask >> location & 1 == 1;
        if location == last {
            if left <= caps[location] && (left == 0 || allowed) {
                split[location] = left;
                let mut rest = caps;
                for (r, k) in rest.iter_mut().zip(split.iter()) {
                    *r -= k;
                }
                let ways = multinomial(split.iter().map(|&k| k as u32).sum(), split)
                    * self.count_from(index + 1, rest);
                if ways > 0 {
                    out.push((*split, ways));
                }
            }
            return;
        }
        let top = if allowed { left.min(caps[location]) } else { 0 };
        for k in 0..=top {
            split[location] = k;
            self.enumerate(index, caps, mask, left - k, location + 1, split, out);
        }
        split[location] = 0;
    }

    /// One deal drawn uniformly: the tiles of each other seat (as masks, by location) and the
    /// rest in a uniform random order.
    pub fn sample(&mut self, rng: &mut Xoshiro) -> Result<([u32; 4], Rest), String> {
        let mut caps = self.sizes;
        let mut placed = [0u32; MAX_LOCATIONS];
        let mut rest = Rest {
            tiles: [0; 28],
            len: 0,
        };
        let last = self.locations() - 1;
        for index in 0..self.groups.len() {
            let splits = self.splits(index, caps);
            if splits.total == 0 {
                return Err("no deal is consistent with the view".into());
            }
            let mut pick = rng.below_u128(splits.total);
            let split = splits
                .choices
                .iter()
                .find(|(_, w)| {
                    if pick < *w {
                        true
                    } else {
                        pick -= w;
                        false
                    }
                })
                .map(|(s, _)| *s)
                .expect("pick is below the total");
            let group = &self.groups[index].1;
            let mut shuffled = [0u8; 28];
            let tiles = &mut shuffled[..group.len()];
            tiles.copy_from_slice(group);
            shuffle(rng, tiles);
            let mut start = 0;
            for (location, &k) in split.iter().enumerate().take(self.locations()) {
                for &t in &tiles[start..start + k as usize] {
                    if location == last {
                        rest.tiles[rest.len] = t;
                        rest.len += 1;
                    } else {
                        placed[location] |= 1 << t;
                    }
                }
                start += k as usize;
                caps[location] -= k;
            }
        }
        shuffle(rng, &mut rest);
        Ok((placed, rest))
    }
}

/// The rest's tiles in a sampled deal, in their random order (a slice; no allocation a deal).
#[derive(Clone, Copy)]
pub struct Rest {
    tiles: [u8; 28],
    len: usize,
}

impl std::ops::Deref for Rest {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.tiles[..self.len]
    }
}

impl std::ops::DerefMut for Rest {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.tiles[..self.len]
    }
}

fn factorial(n: u32) -> u128 {
    (1..=n as u128).product()
}

fn multinomial(total: u32, parts: &Caps) -> u128 {
    parts
        .iter()
        .fold(factorial(total), |ways, &k| ways / factorial(k as u32))
}

/// Fisher-Yates.
pub fn shuffle<T>(rng: &mut Xoshiro, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// How likely the other seats' observed plays were on a sampled deal, under a model of play that
/// prefers heavy tiles: each playable tile is chosen with probability proportional to
/// exp(beta * pips). Only plays made since the seat last drew are used (a hand before a draw is
/// not known from a deal of the present). The first hand's named lead was no choice.
pub struct PlayModel {
    weights: [f64; 28],
    /// (seat, tile, the tiles fitting the ends before the play, the seat's tiles played from
    /// then on).
    evidence: Vec<(u8, u8, u32, u32)>,
}

impl PlayModel {
    /// `fits[i]`: the tiles fitting the open ends before action i of the view's history.
    pub fn new(view: &View, fits: &[u32], beta: f64) -> PlayModel {
        let weights = std::array::from_fn(|t| (beta * PIPS[t] as f64).exp());
        let forced_lead = view.hand_number == 0 && !view.rules.by_lot();
        let evidence = plays_since_draw(view)
            .into_iter()
            .filter(|&(index, a, _)| a.seat() != view.seat && !(index == 0 && forced_lead))
            .map(|(index, a, later)| (a.seat(), a.tile(), fits[index], later))
            .collect();
        PlayModel { weights, evidence }
    }

    pub fn likelihood(&self, hands: &[u32; 4]) -> f64 {
        let mut value = 1.0;
        for &(seat, tile, fit, later) in &self.evidence {
            let playable = (hands[seat as usize] | later) & fit;
            let total: f64 = tiles_of(playable).map(|t| self.weights[t as usize]).sum();
            value *= self.weights[tile as usize] / total;
        }
        value
    }
}
