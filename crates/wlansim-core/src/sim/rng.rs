//! Deterministic random-number streams.
//!
//! Every entity that draws random numbers (a MAC backoff entity, a traffic source, a
//! channel) owns its own stream, seeded from (scenario seed, purpose, the entity's stable
//! name: `sta-3`, `sta-3/AC_VO`, `up-2`) through SplitMix64. Streams are keyed by name,
//! not by position, so adding a station, reordering groups or switching QoS on at the AP
//! leaves every other entity's draws unchanged (DESIGN.md, determinism). The generator is
//! xoshiro256++ (Blackman & Vigna), implemented here (with FNV-1a to hash the name) so
//! results never depend on a crate's version or on the platform.

/// SplitMix64 step: used to expand a 64-bit key into generator state.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a stream is used for; part of the stream key so that two uses by one entity
/// never share draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u64)]
pub enum StreamKind {
    Backoff = 1,
    Traffic = 2,
    Channel = 3,
    Tcp = 4,
    /// A link's rate controller (Minstrel's sampling).
    Rate = 5,
}

/// FNV-1a, 64 bits: a fixed, portable hash of a stream's name.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// The stream of `kind` for the entity called `name` under the run's `seed`.
    pub fn named(seed: u64, kind: StreamKind, name: &str) -> Rng {
        let mut key = seed
            ^ (kind as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)
            ^ fnv1a(name.as_bytes()).wrapping_mul(0xA076_1D64_78BD_642F);
        let mut s = [0u64; 4];
        for word in &mut s {
            *word = splitmix64(&mut key);
        }
        Rng { s }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[0]
            .wrapping_add(self.s[3])
            .rotate_left(23)
            .wrapping_add(self.s[0]);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform integer in `0..=max` (unbiased: Lemire's multiply-and-reject).
    #[inline]
    pub fn uniform_inclusive(&mut self, max: u32) -> u32 {
        let range = max as u64 + 1;
        loop {
            let m = (self.next_u64() >> 32) * range;
            let low = m & 0xFFFF_FFFF;
            // The threshold 2^32 mod range is below range: a low part at or above range
            // is accepted without working it out (a division).
            if low >= range || low >= (1u64 << 32) % range {
                return (m >> 32) as u32;
            }
        }
    }

    /// Uniform real in [0, 1) with 53 bits of precision.
    #[inline]
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p`: a uniform draw below `p`, none when `p` is 1 or more
    /// (certain events consume no draw, so a stream's later draws do not depend on them).
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        p >= 1.0 || self.uniform() < p
    }

    /// Exponential variate with the given mean.
    #[inline]
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -mean * (1.0 - self.uniform()).ln()
    }
}

/// The stream as a `rand_core` generator, so that `rand_distr` distributions draw from it.
impl rand_core::TryRng for Rng {
    type Error = std::convert::Infallible;
    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok((self.next_u64() >> 32) as u32)
    }
    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.next_u64())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(8) {
            let n = chunk.len();
            chunk.copy_from_slice(&self.next_u64().to_le_bytes()[..n]);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..4)
            .map({
                let mut r = Rng::named(7, StreamKind::Backoff, "sta-3");
                move |_| r.next_u64()
            })
            .collect();
        let mut r2 = Rng::named(7, StreamKind::Backoff, "sta-3");
        let b: Vec<u64> = (0..4).map(|_| r2.next_u64()).collect();
        assert_eq!(a, b);
        let mut r3 = Rng::named(7, StreamKind::Backoff, "sta-4");
        assert_ne!(a[0], r3.next_u64());
        let mut r4 = Rng::named(7, StreamKind::Traffic, "sta-3");
        assert_ne!(a[0], r4.next_u64());
        let mut r5 = Rng::named(8, StreamKind::Backoff, "sta-3");
        assert_ne!(a[0], r5.next_u64());
    }

    #[test]
    fn uniform_inclusive_covers_range_evenly() {
        let mut r = Rng::named(1, StreamKind::Backoff, "sta-0");
        let mut counts = [0u32; 32];
        for _ in 0..320_000 {
            counts[r.uniform_inclusive(31) as usize] += 1;
        }
        for c in counts {
            assert!((9_400..10_600).contains(&c), "count {c} far from 10000");
        }
    }
}
