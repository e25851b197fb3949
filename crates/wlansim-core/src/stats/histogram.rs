//! A log-linear histogram of non-negative integers (delays in ns): constant memory, no
//! allocation per sample, relative bucket width at most 1/64 (about 1.6 %) for quantiles.
//! The mean is exact (running sum).

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
    counts: Vec<u64>,
    count: u64,
    sum: u128,
    /// Only buckets `lo..hi` may be non-zero: clearing touches no other (a histogram is
    /// 22 KB; a cell of 500 flows clears 11 MB at the end of its warm-up otherwise).
    lo: usize,
    hi: usize,
}

impl Default for Histogram {
    fn default() -> Self {
        Self::new()
    }
}

impl Histogram {
    /// Heap memory of one histogram (its bucket counts).
    pub const HEAP_BYTES: u64 = (BUCKETS * std::mem::size_of::<u64>()) as u64;

    pub fn new() -> Self {
        Histogram {
            counts: vec![0; BUCKETS],
            count: 0,
            sum: 0,
            lo: BUCKETS,
            hi: 0,
        }
    }

    /// Forget every sample, without reallocating.
    pub fn clear(&mut self) {
        if self.lo < self.hi {
            self.counts[self.lo..self.hi].fill(0);
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
        self.counts[i] += 1;
        self.lo = self.lo.min(i);
        self.hi = self.hi.max(i + 1);
        self.count += 1;
        self.sum += v as u128;
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
        for (i, &c) in self.counts.iter().enumerate().skip(self.lo) {
            seen += c;
            if seen >= rank {
                let (low, width) = Self::bucket_range(i);
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
