//! Tests of `crate::belief` (kept apart from its logic): the voids and undealt tiles read off a
//! view, and the exact counting and uniform sampling of consistent deals.

use std::collections::HashMap;

use crate::belief::{known_voids, not_dealt, Belief};
use crate::game::Game;
use crate::rng::Xoshiro;
use crate::rules::presets;
use crate::state::Table;
use crate::tiles::{id, mask, tiles_of, ALL_TILES};
use crate::view::View;

/// A game of `variant` from the written deal, seat 0 leading, after `moves` (tile, end) plays,
/// every forced draw and pass made between them.
fn game(variant: &str, hands: &[&str], boneyard: &str, moves: &[(&str, u8)]) -> Game {
    let mut g = Game::new(Table::new(presets::rules(variant, hands.len())));
    let masks: Vec<u32> = hands.iter().map(|h| mask(h)).collect();
    let bones: Vec<u8> = boneyard.split_whitespace().map(id).collect();
    g.start_hand(&masks, &bones, 0, -1);
    let forced = |g: &mut Game| while !g.t.hand_over && g.step_forced() {};
    for &(tile, end) in moves {
        forced(&mut g);
        g.try_play(id(tile) << 2 | end).expect("a legal play");
    }
    forced(&mut g);
    g
}

fn view(g: &Game) -> View {
    View::of(g, g.t.legal_vec())
}

/// Every assignment of the unseen tiles to the locations, by brute force.
fn brute_force(sizes: &[u8], allowed: &[(u8, u8)]) -> u128 {
    fn go(i: usize, caps: &mut Vec<u8>, allowed: &[(u8, u8)]) -> u128 {
        if i == allowed.len() {
            return u128::from(caps.iter().all(|&c| c == 0));
        }
        let mut total = 0;
        for location in 0..caps.len() {
            if allowed[i].1 >> location & 1 == 1 && caps[location] > 0 {
                caps[location] -= 1;
                total += go(i + 1, caps, allowed);
                caps[location] += 1;
            }
        }
        total
    }
    go(0, &mut sizes.to_vec(), allowed)
}

fn caps(sizes: &[u8]) -> [u8; 4] {
    let mut out = [0; 4];
    out[..sizes.len()].copy_from_slice(sizes);
    out
}

/// R-MUST: a pass adds the numbers open then to what a seat lacks; a draw sets them to those.
#[test]
fn r_must_passes_add_voids_and_draws_reset_them() {
    let block = game(
        "block",
        &["6-6 5-5 0-0", "1-2 3-4", "5-6 0-1"],
        "",
        &[("6-6", 0)],
    );
    assert_eq!(block.t.to_move, 2);
    assert_eq!(known_voids(&view(&block))[1], 1 << 6);
    let draw = game("draw", &["6-6 0-0", "1-2 3-4"], "2-3 0-6", &[("6-6", 0)]);
    // Seat 1 drew 2-3 and 0-6 on 6|6, found the 6, and must play it.
    assert_eq!(draw.t.to_move, 1);
    assert_eq!(known_voids(&view(&draw))[1], 1 << 6);
    // Later seat 1 draws again on 0|4: it may have drawn a 6 since, so only 0 and 4 are void.
    let moves = [("6-6", 0), ("0-6", 0), ("4-6", 1)];
    let after = game(
        "draw",
        &["6-6 4-6 5-5", "1-1 3-5"],
        "3-3 0-6 2-4 1-2",
        &moves,
    );
    assert_eq!(
        (after.t.to_move, after.t.ends[..2].to_vec()),
        (1, vec![0, 4])
    );
    assert_eq!(known_voids(&view(&after))[1], 1 << 0 | 1 << 4);
}

/// R-LEAD, R-LEAD-DEALT: the first hand's lead of 5-5 shows 6-6 was dealt to nobody.
#[test]
fn r_lead_dealt_the_lead_shows_what_was_not_dealt() {
    let g = game("block", &["5-5 0-1", "1-5 3-4"], "", &[("5-5", 0)]);
    assert_eq!(g.t.to_move, 1);
    let v = view(&g);
    let unseen = ALL_TILES & !v.seen();
    assert_eq!(not_dealt(&v, unseen), mask("6-6"));
    let later = Game {
        hand_number: 1,
        ..g.clone()
    };
    assert_eq!(not_dealt(&view(&later), unseen), 0);
}

/// The count is the number of assignments respecting every tile's locations and every
/// location's size, as brute force finds.
#[test]
fn the_count_is_the_brute_force_count() {
    let mut rng = Xoshiro::new(9);
    for _ in 0..200 {
        let locations = 2 + rng.below(3) as usize;
        let sizes: Vec<u8> = (0..locations).map(|_| rng.below(3) as u8).collect();
        let tiles: u8 = sizes.iter().sum();
        let allowed: Vec<(u8, u8)> = (0..tiles)
            .map(|t| (t, 1 << (locations - 1) | rng.below(1 << locations) as u8))
            .collect();
        let seats: Vec<u8> = (1..locations as u8).collect();
        let mut belief = Belief::new(seats, caps(&sizes), allowed.clone()).expect("valid");
        assert_eq!(
            belief.count(),
            brute_force(&sizes, &allowed),
            "{sizes:?} {allowed:?}"
        );
    }
}

/// Sampling draws every consistent deal with the same probability, each respecting the
/// belief: 6 tiles, 2 to each other seat and 2 to the rest, some tiles barred from a seat.
#[test]
fn sampling_is_uniform_over_the_consistent_deals() {
    let allowed = vec![
        (0, 0b101),
        (1, 0b101),
        (2, 0b111),
        (3, 0b111),
        (4, 0b110),
        (5, 0b111),
    ];
    let sizes = [2, 2, 2];
    let mut belief = Belief::new(vec![1, 2], caps(&sizes), allowed.clone()).expect("valid");
    let deals = belief.count();
    assert_eq!(deals, brute_force(&sizes, &allowed));
    let mut rng = Xoshiro::new(4);
    let mut seen: HashMap<(u32, u32, u32), u32> = HashMap::new();
    let draws = 20_000;
    for _ in 0..draws {
        let (placed, rest) = belief.sample(&mut rng).expect("consistent");
        let rest_mask = rest.iter().fold(0u32, |m, &t| m | 1 << t);
        for (location, tiles) in [placed[0], placed[1], rest_mask].into_iter().enumerate() {
            assert_eq!(tiles.count_ones(), sizes[location] as u32);
            for t in tiles_of(tiles) {
                assert_eq!(allowed[t as usize].1 >> location & 1, 1);
            }
        }
        *seen.entry((placed[0], placed[1], rest_mask)).or_default() += 1;
    }
    assert_eq!(seen.len() as u128, deals);
    let expected = draws as f64 / deals as f64;
    let sigma = (expected * (1.0 - 1.0 / deals as f64)).sqrt();
    for (deal, &n) in &seen {
        assert!(
            (n as f64 - expected).abs() < 5.0 * sigma,
            "{deal:?}: {n} vs {expected}"
        );
    }
}

/// A belief whose sizes do not add up to its unseen tiles, or one no deal satisfies, is an
/// error, not a panic.
#[test]
fn impossible_beliefs_are_errors() {
    assert!(Belief::new(vec![1], caps(&[1, 1]), vec![(0, 0b11)]).is_err());
    let mut none = Belief::new(vec![1], caps(&[2, 0]), vec![(0, 0b10), (1, 0b11)]).expect("sizes");
    assert_eq!(none.count(), 0);
    assert!(none.sample(&mut Xoshiro::new(1)).is_err());
}

/// R-VIEW: the real deal is always among those a seat's belief allows.
#[test]
fn the_real_deal_is_allowed_by_every_view() {
    for rules in presets::all() {
        let mut deals = crate::rng::Mt19937::new(11);
        let mut picks = Xoshiro::new(11);
        for _ in 0..10 {
            let mut g = Game::new(Table::new(rules));
            g.start_next_hand(&mut deals);
            while !g.t.hand_over {
                if g.step_forced() {
                    continue;
                }
                let v = view(&g);
                let belief = Belief::of(&v).expect("a consistent view");
                for (i, &seat) in belief.seats.iter().enumerate() {
                    for t in tiles_of(g.t.hands[seat as usize]) {
                        let (_, locations) =
                            belief.allowed.iter().find(|a| a.0 == t).expect("unseen");
                        assert_eq!(locations >> i & 1, 1, "{rules:?}: seat {seat} holds {t}");
                    }
                    assert_eq!(
                        belief.sizes[i] as u32,
                        g.t.hands[seat as usize].count_ones()
                    );
                }
                let legal = g.t.legal_vec();
                g.play(legal[picks.below(legal.len() as u64) as usize]);
            }
        }
    }
}
