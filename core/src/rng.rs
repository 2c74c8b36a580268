//! Random numbers. `Mt19937` is CPython's `random.Random` bit for bit (seeding by an integer,
//! `getrandbits`, `random`, `randrange`), so the deals of a seed are the same in the core as in
//! every earlier domsim, and a Python generator and a core one can be compared. The search uses
//! `Xoshiro`, a small fast generator seeded from the caller's.

const N: usize = 624;
const M: usize = 397;

#[derive(Clone)]
pub struct Mt19937 {
    state: [u32; N],
    index: usize,
}

impl Mt19937 {
    fn init_genrand(seed: u32) -> Self {
        let mut state = [0u32; N];
        state[0] = seed;
        for i in 1..N {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { state, index: N }
    }

    fn init_by_array(key: &[u32]) -> Self {
        let mut g = Self::init_genrand(19_650_218);
        let mt = &mut g.state;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            let prev = mt[i - 1];
            mt[i] = (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = mt[i - 1];
            mt[i] =
                (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        g
    }

    /// `random.Random(seed)` for a non-negative integer seed below 2**64.
    pub fn new(seed: u64) -> Self {
        let (low, high) = (seed as u32, (seed >> 32) as u32);
        if high == 0 {
            Self::init_by_array(&[low])
        } else {
            Self::init_by_array(&[low, high])
        }
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    fn twist(&mut self) {
        let mt = &mut self.state;
        for k in 0..N {
            let y = (mt[k] & 0x8000_0000) | (mt[(k + 1) % N] & 0x7fff_ffff);
            let mag = if y & 1 == 1 { 0x9908_b0df } else { 0 };
            mt[k] = mt[(k + M) % N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    /// `getrandbits(k)` for 0 <= k <= 32.
    pub fn getrandbits(&mut self, k: u32) -> u32 {
        if k == 0 {
            return 0;
        }
        self.next_u32() >> (32 - k)
    }

    /// `random()`: 53 random bits as a float in [0, 1).
    pub fn random(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }
}

/// A source of random bits for the deal: the core's `Mt19937`, or a Python generator.
pub trait Bits {
    fn getrandbits(&mut self, k: u32) -> u32;
    /// `randrange(n)` for 0 < n, as CPython draws it.
    fn randbelow(&mut self, n: u32) -> u32 {
        let k = 32 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }
}

impl Bits for Mt19937 {
    fn getrandbits(&mut self, k: u32) -> u32 {
        Mt19937::getrandbits(self, k)
    }
}

/// xoshiro256** (Blackman and Vigna), seeded through SplitMix64.
#[derive(Clone)]
pub struct Xoshiro {
    s: [u64; 4],
}

/// SplitMix64's step between states.
pub const SPLITMIX_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's output for a state.
#[inline(always)]
pub fn splitmix64(state: u64) -> u64 {
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Xoshiro {
    pub fn new(seed: u64) -> Self {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(SPLITMIX_GAMMA);
            splitmix64(x)
        };
        Xoshiro {
            s: [next(), next(), next(), next()],
        }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A float in [0, 1).
    #[inline]
    pub fn random(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }

    /// Uniform in 0..n (n > 0), without modulo bias (Lemire's method: the division that sets
    /// the rejection threshold, which is below n, is made only when a draw could fall under it).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        let mut product = (self.next_u64() as u128) * (n as u128);
        if (product as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (product as u64) < threshold {
                product = (self.next_u64() as u128) * (n as u128);
            }
        }
        (product >> 64) as u64
    }

    /// Uniform in 0..n for a count that may pass 2**64.
    pub fn below_u128(&mut self, n: u128) -> u128 {
        if n <= u64::MAX as u128 {
            return self.below(n as u64) as u128;
        }
        let bits = 128 - n.leading_zeros();
        loop {
            let r = ((self.next_u64() as u128) << 64 | self.next_u64() as u128) >> (128 - bits);
            if r < n {
                return r;
            }
        }
    }
}

impl Bits for Xoshiro {
    fn getrandbits(&mut self, k: u32) -> u32 {
        if k == 0 {
            0
        } else {
            (self.next_u64() >> (64 - k)) as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mt19937_matches_the_reference_sequence() {
        // init_by_array({0x123, 0x234, 0x345, 0x456}) of mt19937ar.c starts 1067595299 955945823.
        let mut g = Mt19937::init_by_array(&[0x123, 0x234, 0x345, 0x456]);
        assert_eq!(g.next_u32(), 1_067_595_299);
        assert_eq!(g.next_u32(), 955_945_823);
    }

    #[test]
    fn below_stays_in_range() {
        let mut g = Xoshiro::new(5);
        for n in 1..50u64 {
            assert!(g.below(n) < n);
        }
    }
}
