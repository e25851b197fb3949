//! Delay variation of a flow: the mean absolute difference between the one-way delays of
//! consecutive received packets (the IP packet delay variation of RFC 3393 between
//! successive packets, averaged without smoothing; RFC 3550's interarrival jitter is the
//! same difference smoothed with gain 1/16).
use crate::sim::time::Time;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Jitter {
    /// The previous packet's delay (ns).
    last: Time,
    /// Sum of |D(i) − D(i−1)| (ns; a u64 holds 584 years of it).
    sum_ns: u64,
    packets: u64,
}

impl Jitter {
    /// A packet arrived with one-way delay `delay`.
    #[inline]
    pub fn record(&mut self, delay: Time) {
        if self.packets > 0 {
            self.sum_ns += delay.abs_diff(self.last);
        }
        self.last = delay;
        self.packets += 1;
    }

    /// Mean |D(i) − D(i−1)| in ns; None before two packets arrived.
    pub fn mean(&self) -> Option<f64> {
        (self.packets > 1).then(|| self.sum_ns as f64 / (self.packets - 1) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_absolute_difference_of_consecutive_delays() {
        let mut j = Jitter::default();
        assert_eq!(j.mean(), None);
        for d in [10, 14, 11, 11] {
            j.record(d);
        }
        assert_eq!(j.mean(), Some((4.0 + 3.0 + 0.0) / 3.0));
    }
}
