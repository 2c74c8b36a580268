//! Tiles of the double-six set (R-SET) as ids 0..27 and the tables the bit arithmetic runs on.
//! Ids run 0-0, 0-1, .., 0-6, 1-1, .., 6-6, as in `domsim.tiles`.

pub const N_TILES: usize = 28;
pub const ALL_TILES: u32 = (1 << N_TILES) - 1;

const fn halves() -> ([u8; N_TILES], [u8; N_TILES]) {
    let mut a = [0u8; N_TILES];
    let mut b = [0u8; N_TILES];
    let mut t = 0;
    let mut x = 0;
    while x < 7 {
        let mut y = x;
        while y < 7 {
            a[t] = x;
            b[t] = y;
            t += 1;
            y += 1;
        }
        x += 1;
    }
    (a, b)
}

/// `TILE_A[t] <= TILE_B[t]`: the two numbers of tile t.
pub const TILE_A: [u8; N_TILES] = halves().0;
pub const TILE_B: [u8; N_TILES] = halves().1;

const fn pips_table() -> [i32; N_TILES] {
    let mut p = [0i32; N_TILES];
    let mut t = 0;
    while t < N_TILES {
        p[t] = TILE_A[t] as i32 + TILE_B[t] as i32;
        t += 1;
    }
    p
}

pub const PIPS: [i32; N_TILES] = pips_table();

const fn number_masks() -> [u32; 7] {
    let mut m = [0u32; 7];
    let mut t = 0;
    while t < N_TILES {
        m[TILE_A[t] as usize] |= 1 << t;
        m[TILE_B[t] as usize] |= 1 << t;
        t += 1;
    }
    m
}

/// `NUMBER_MASK[n]`: the 7 tiles that show number n.
pub const NUMBER_MASK: [u32; 7] = number_masks();

#[inline]
pub const fn is_double(tile: u8) -> bool {
    TILE_A[tile as usize] == TILE_B[tile as usize]
}

/// The id of the tile showing a and b, in either order.
pub const fn tile_id(a: u8, b: u8) -> u8 {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    // Row `lo` starts after 7 + 6 + .. + (8 - lo) tiles: lo * (15 - lo) / 2.
    lo * (15 - lo) / 2 + (hi - lo)
}

/// A tile as records spell it: "a-b", the smaller number first.
pub fn tile_name(tile: u8) -> String {
    format!("{}-{}", TILE_A[tile as usize], TILE_B[tile as usize])
}

/// The number on `tile` that is not the touching `number` (a double shows it twice).
#[inline]
pub const fn other_number(tile: u8, number: u8) -> u8 {
    let a = TILE_A[tile as usize];
    if a == number {
        TILE_B[tile as usize]
    } else {
        a
    }
}

/// Sum of the pips of the tiles in a mask.
#[inline]
pub fn mask_pips(mut mask: u32) -> i32 {
    let mut total = 0;
    while mask != 0 {
        total += PIPS[mask.trailing_zeros() as usize];
        mask &= mask - 1;
    }
    total
}

/// The tiles showing any number of the bitmask `numbers`.
#[inline]
pub fn fitting(numbers: u8) -> u32 {
    let mut mask = 0;
    for (n, tiles) in NUMBER_MASK.iter().enumerate() {
        if numbers >> n & 1 == 1 {
            mask |= tiles;
        }
    }
    mask
}

/// Sort key for "heaviest tile" (R-SET): pips, then the larger half.
#[inline]
pub fn heaviness(tile: u8) -> i32 {
    HEAVINESS[tile as usize]
}

/// `heaviness` by tile: the playouts read it for every legal move they weigh.
pub const HEAVINESS: [i32; N_TILES] = {
    let mut table = [0; N_TILES];
    let mut tile = 0;
    while tile < N_TILES {
        table[tile] = PIPS[tile] * 8 + TILE_B[tile] as i32;
        tile += 1;
    }
    table
};

/// The tile ids set in a mask, ascending.
pub fn tiles_of(mask: u32) -> impl Iterator<Item = u8> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let t = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        Some(t)
    })
}

/// Tiles written "a-b c-d" as a mask, for the tests' hand-made positions.
#[cfg(test)]
pub fn mask(text: &str) -> u32 {
    text.split_whitespace().fold(0, |m, t| m | 1 << id(t))
}

/// The id of a tile written "a-b", for the tests.
#[cfg(test)]
pub fn id(text: &str) -> u8 {
    let (a, b) = text.split_once('-').expect("a-b");
    tile_id(a.parse().expect("0..6"), b.parse().expect("0..6"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_set_has_28_tiles_each_number_on_seven() {
        for tiles in NUMBER_MASK {
            assert_eq!(tiles.count_ones(), 7);
        }
        assert_eq!(mask_pips(ALL_TILES), 168);
        assert_eq!((0..28u8).filter(|&t| is_double(t)).count(), 7);
    }

    #[test]
    fn tile_id_inverts_the_halves() {
        for t in 0..28u8 {
            let (a, b) = (TILE_A[t as usize], TILE_B[t as usize]);
            assert_eq!(tile_id(a, b), t);
            assert_eq!(tile_id(b, a), t);
        }
    }

    #[test]
    fn heaviest_breaks_ties_by_the_larger_half() {
        assert!(heaviness(tile_id(3, 6)) > heaviness(tile_id(4, 5)));
    }
}
