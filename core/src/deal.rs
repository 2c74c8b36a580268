//! Dealing (R-DEAL) and who leads each hand (R-LEAD, R-LEAD-DEALT, R-LEAD-WINNER, lead=fid).

use crate::rng::Bits;
use crate::rules::{FirstLead, Rules};
use crate::state::Table;
use crate::tiles::{heaviness, tile_id, tiles_of, ALL_TILES, N_TILES};

/// A deal: each seat's hand as a bitmask, and the boneyard in draw order.
pub struct Deal {
    pub hands: [u32; 4],
    pub boneyard: [u8; 28],
    pub bone_len: usize,
}

/// Shuffle the set and deal it.
///
/// Fisher-Yates over the tiles, from the last position down: step i swaps position i with a
/// uniform j <= i, drawn with as many bits as i needs and redrawn when too large (no modulo
/// bias). The boneyard's positions, the last ones, are swapped in place, as their order counts;
/// a hand's tile is added to the hand's mask instead. The steps stop at seat 0's hand, which gets
/// the tiles left: a hand is a set. (The same draws as every earlier domsim, for the same seed.)
pub fn deal(bits: &mut impl Bits, rules: &Rules) -> Deal {
    let size = rules.hand_size;
    let dealt = size * rules.players;
    let mut slots: [u8; 28] = std::array::from_fn(|t| t as u8);
    let mut hands = [0u32; 4];
    let mut seat = rules.players - 1; // filled from the last seat down
    let mut hand = 0u32;
    for i in (size..N_TILES).rev() {
        let width = 32 - (i as u32).leading_zeros();
        let mut j = bits.getrandbits(width) as usize;
        while j > i {
            j = bits.getrandbits(width) as usize;
        }
        if i >= dealt {
            slots.swap(i, j);
            continue;
        }
        hand |= 1 << slots[j];
        slots[j] = slots[i];
        if i % size == 0 {
            hands[seat] = hand;
            seat -= 1;
            hand = 0;
        }
    }
    let mut boneyard = [0u8; 28];
    let bone_len = N_TILES - dealt;
    if dealt == N_TILES {
        hands[0] = ALL_TILES & !hands[1..].iter().fold(0, |a, h| a | h);
    } else {
        hands[0] = slots[..size].iter().fold(0, |a, &t| a | 1 << t);
        boneyard[..bone_len].copy_from_slice(&slots[dealt..]);
    }
    Deal {
        hands,
        boneyard,
        bone_len,
    }
}

fn named_leads(first: FirstLead) -> &'static [u8] {
    const HIGHEST: [u8; 7] = [27, 25, 22, 18, 13, 7, 0]; // 6-6 down to 0-0
    const FROM_ONE: [u8; 7] = [7, 13, 18, 22, 25, 27, 0]; // 1-1 .. 6-6, then 0-0
    const ONE_ONE: [u8; 1] = [tile_id(1, 1)];
    const SIX_SIX: [u8; 1] = [tile_id(6, 6)];
    match first {
        FirstLead::HighestDouble => &HIGHEST,
        FirstLead::LowestFromOne => &FROM_ONE,
        FirstLead::OneOne => &ONE_ONE,
        FirstLead::SixSix => &SIX_SIX,
        FirstLead::Lot => &[],
    }
}

/// (seat, tile) of the first hand's lead among the dealt tiles; not for leads by lot.
pub fn first_lead(rules: &Rules, hands: &[u32]) -> (u8, u8) {
    let dealt = hands.iter().fold(0, |a, h| a | h);
    let tile = named_leads(rules.first_lead)
        .iter()
        .copied()
        .find(|&t| dealt >> t & 1 == 1)
        .unwrap_or_else(|| {
            tiles_of(dealt)
                .max_by_key(|&t| heaviness(t))
                .expect("tiles are dealt")
        });
    let holder = hands
        .iter()
        .position(|h| h >> tile & 1 == 1)
        .expect("the tile is dealt");
    (holder as u8, tile)
}

/// Who leads the hand after the one just finished (any tile).
pub fn next_leader(t: &Table) -> u8 {
    let last = t.outcome.expect("a hand has finished");
    if t.rules.lead_fid {
        return t.next_seat(t.leader);
    }
    if t.rules.lead_out_or_fish {
        return last.maker;
    }
    if last.winners.count_ones() == 1 {
        return last.winners.trailing_zeros() as u8;
    }
    t.next_seat(t.leader)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Mt19937;
    use crate::rules::presets;

    #[test]
    fn r_deal_conserves_the_set() {
        for rules in presets::all() {
            let mut g = Mt19937::new(3);
            for _ in 0..50 {
                let d = deal(&mut g, &rules);
                let mut seen = 0u32;
                for h in &d.hands[..rules.players] {
                    assert_eq!(h.count_ones() as usize, rules.hand_size);
                    assert_eq!(seen & h, 0);
                    seen |= h;
                }
                for &t in &d.boneyard[..d.bone_len] {
                    assert_eq!(seen >> t & 1, 0);
                    seen |= 1 << t;
                }
                assert_eq!(seen, ALL_TILES);
            }
        }
    }

    #[test]
    fn r_lead_highest_double_then_heaviest() {
        let rules = presets::rules("draw", 2);
        let hands = [1 << tile_id(5, 5) | 1 << tile_id(6, 6), 1 << tile_id(0, 0)];
        assert_eq!(first_lead(&rules, &hands), (0, tile_id(6, 6)));
        let none = [1 << tile_id(3, 6), 1 << tile_id(4, 5)];
        assert_eq!(first_lead(&rules, &none), (0, tile_id(3, 6)));
        let classic = presets::rules("classic", 2);
        let doubles = [1 << tile_id(0, 0), 1 << tile_id(2, 2)];
        assert_eq!(first_lead(&classic, &doubles), (1, tile_id(2, 2)));
    }
}
