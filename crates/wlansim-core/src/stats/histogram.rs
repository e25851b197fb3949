//! A log-linear histogram of non-negative integers (delays in ns): relative bucket width at
//! most 1/64 (about 1.6 %) for quantiles. The mean is exact (running sum). Its buckets are
//! held from the lowest to the highest one a sample fell in (a flow's delays span a few
//! hundred of the 2,816 buckets; a flow without samples holds none), growing by at least
//! half each time, so allocations are few and none once the range is covered.

/// Values below 2^SUB_BITS get one bucket each; above, each power-of-two range is split
/// into HALF buckets.
const SUB_BITS: u32 = 7;
const SUB: u64 = 1 << SUB_BITS;
const HALF: u64 = SUB / 2;
/// Largest group kept: values up to 2^48 ns (78 hours); larger ones share the last bucket.
const MAX_GROUP: u64 = 48 - SUB_BITS as u64 + 1;
const BUCKETS: usize = (SUB + MAX_GROUP * HALF) as usize;

#[derive(Clone)]
pub struct Histogram {
    /// The counts of buckets `base..base + counts.len()`.
    counts: Vec<u64>,
    base: usize,
    count: u64,
    sum: u128,
    /// Only buckets `lo..hi` may be non-zero: clearing touches no other.
    lo: usize,
    hi: usize,
}

impl Default for Histogram {
    fn default() -> Self {
        Self::new()
    }
}

impl Histogram {
    /// Heap memory of one histogram at most (every bucket held).
    pub const HEAP_BYTES: u64 = (BUCKETS * std::mem::size_of::<u64>()) as u64;

    pub fn new() -> Self {
        Histogram {
            counts: Vec::new(),
            base: 0,
            count: 0,
            sum: 0,
            lo: BUCKETS,
            hi: 0,
        }
    }

    /// Forget every sample, without reallocating.
    pub fn clear(&mut self) {
        if self.lo < self.hi {
            self.counts[self.lo - self.base..self.hi - self.base].fill(0);
        }
        self.count = 0;
        self.sum = 0;
        self.lo = BUCKETS;
        self.hi = 0;
    }

    #[inline]
    fn index(v: u64) -> usize {
        if v < SUB {
            return v as usize;
        }
        // Group g covers [HALF·2^g, SUB·2^g) in HALF buckets of width 2^g.
        let g = (63 - v.leading_zeros() as u64) - (SUB_BITS as u64 - 1);
        let i = SUB + (g - 1) * HALF + ((v >> g) - HALF);
        (i as usize).min(BUCKETS - 1)
    }

    /// Smallest value of bucket `i` and its width.
    fn bucket_range(i: usize) -> (u64, u64) {
        let i = i as u64;
        if i < SUB {
            return (i, 1);
        }
        let g = (i - SUB) / HALF + 1;
        (((i - SUB) % HALF + HALF) << g, 1 << g)
    }

    #[inline]
    pub fn record(&mut self, v: u64) {
        let i = Self::index(v);
        if i < self.base || i >= self.base + self.counts.len() {
            self.hold(i);
        }
        self.counts[i - self.base] += 1;
        self.lo = self.lo.min(i);
        self.hi = self.hi.max(i + 1);
        self.count += 1;
        self.sum += v as u128;
    }

    /// Hold bucket `i` too: the held range grows towards it by at least half its length.
    #[cold]
    fn hold(&mut self, i: usize) {
        let (base, end) = (self.base, self.base + self.counts.len());
        let slack = (self.counts.len() / 2).max(16);
        let (lo, hi) = if self.counts.is_empty() {
            (i, i + 1)
        } else if i < base {
            (i.min(base.saturating_sub(slack)), end)
        } else {
            (base, (i + 1).max(end + slack).min(BUCKETS))
        };
        let mut counts = vec![0; hi - lo];
        counts[base.max(lo) - lo..][..self.counts.len()].copy_from_slice(&self.counts);
        self.counts = counts;
        self.base = lo;
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum as f64 / self.count as f64)
    }

    /// The q-quantile (0 < q ≤ 1), as the midpoint of the bucket that holds it.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        for (k, &c) in self.counts.iter().enumerate().skip(self.lo - self.base) {
            seen += c;
            if seen >= rank {
                let (low, width) = Self::bucket_range(self.base + k);
                return Some(low as f64 + (width - 1) as f64 / 2.0);
            }
        }
        unreachable!("rank ≤ count")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clear_forgets_every_sample() {
        let mut h = Histogram::new();
        for v in [3, 1_000, 5_000_000, 1 << 50] {
            h.record(v);
        }
        h.clear();
        assert_eq!(h.count(), 0);
        assert!(h.counts.iter().all(|&c| c == 0));
        h.record(7);
        assert_eq!(h.quantile(1.0), Some(7.0));
    }

    #[test]
    fn the_held_buckets_grow_both_ways_and_keep_the_counts() {
        let mut h = Histogram::new();
        assert!(h.counts.is_empty(), "nothing held before a sample");
        let values = [5_000_000u64, 5_100_000, 4_000, 3, 1 << 45, 6_000_000];
        for &v in &values {
            h.record(v);
        }
        assert_eq!(h.count(), 6);
        for (q, v) in [
            (1.0 / 6.0, 3.0),
            (2.0 / 6.0, 4_000.0),
            (1.0, (1u64 << 45) as f64),
        ] {
            let got = h.quantile(q).unwrap();
            assert!(
                (got / v - 1.0).abs() < 1.0 / 64.0,
                "q {q}: {got} against {v}"
            );
        }
        let mut narrow = Histogram::new();
        for v in 1_000_000..1_001_000u64 {
            narrow.record(v);
        }
        assert!(narrow.counts.len() <= 17, "{}", narrow.counts.len());
    }

    #[test]
    fn buckets_tile_the_line() {
        let mut expected_low = 0;
        for i in 0..BUCKETS {
            let (low, width) = Histogram::bucket_range(i);
            assert_eq!(low, expected_low, "bucket {i}");
            assert_eq!(Histogram::index(low), i);
            assert_eq!(Histogram::index(low + width - 1), i);
            expected_low = low + width;
        }
    }

    #[test]
    fn quantiles_within_bucket_precision() {
        let mut h = Histogram::new();
        for v in 1..=100_000u64 {
            h.record(v * 1000);
        }
        assert_eq!(h.mean().unwrap(), 50_000_500.0);
        let p95 = h.quantile(0.95).unwrap();
        assert!((p95 / 95_000_000.0 - 1.0).abs() < 1.0 / 64.0, "p95 = {p95}");
        let p50 = h.quantile(0.5).unwrap();
        assert!((p50 / 50_000_000.0 - 1.0).abs() < 1.0 / 64.0, "p50 = {p50}");
        assert!(Histogram::new().quantile(0.5).is_none());
    }
}
