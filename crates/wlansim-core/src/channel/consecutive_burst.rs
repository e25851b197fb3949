//! The consecutive-burst loss of fotiadis2005 §IV: "in a 10 % loss scenario 10 out of 100
//! packets are lost consecutively". A PER p comes as runs of exactly L lost frame attempts:
//!
//! - [`Periodic`]: a deterministic period of L/p attempts starting with a run of L losses,
//!   at a phase drawn uniformly per link (links do not lose in step);
//! - [`Bernoulli`]: bursts start as a Bernoulli process; every attempt outside a burst,
//!   except the one right after a burst (so runs never merge and stay exactly L long),
//!   starts one with probability q = p / (L(1 − p)), which makes the long-run PER
//!   L / (L + 1 + (1 − q)/q) = p (p ≤ L/(L + 1)).
//!
//! Attempts drive both (an idle link keeps its place in the pattern).
use crate::sim::rng::Rng;

#[derive(Clone, Debug, PartialEq)]
pub struct Periodic {
    period: u64,
    burst: u64,
    /// Position of the next attempt in the period.
    at: u64,
}

impl Periodic {
    /// Period `burst / per` attempts (an integer: checked by the scenario).
    pub fn new(per: f64, burst: u64, rng: &mut Rng) -> Self {
        let period = (burst as f64 / per).round() as u64;
        let at = rng.uniform_inclusive((period - 1) as u32) as u64;
        Periodic { period, burst, at }
    }

    #[inline]
    pub fn frame_lost(&mut self) -> bool {
        let lost = self.at < self.burst;
        self.at += 1;
        if self.at == self.period {
            self.at = 0;
        }
        lost
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Bernoulli {
    start: f64,
    burst: u64,
    /// Losses left in the current burst.
    left: u64,
    /// The previous attempt closed a burst: this one is delivered.
    after_burst: bool,
}

impl Bernoulli {
    pub fn new(per: f64, burst: u64) -> Self {
        Bernoulli {
            start: per / (burst as f64 * (1.0 - per)),
            burst,
            left: 0,
            after_burst: false,
        }
    }

    #[inline]
    pub fn frame_lost(&mut self, rng: &mut Rng) -> bool {
        if self.left == 0 {
            if self.after_burst {
                self.after_burst = false;
                return false;
            }
            if !(self.start > 0.0 && rng.uniform() < self.start) {
                return false;
            }
            self.left = self.burst;
        }
        self.left -= 1;
        self.after_burst = self.left == 0;
        true
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::sim::rng::StreamKind;

    /// Lengths of the runs of `true` in `fates`.
    pub(crate) fn loss_runs(fates: &[bool]) -> Vec<usize> {
        let mut runs = Vec::new();
        let mut run = 0;
        for &lost in fates.iter().chain([false].iter()) {
            if lost {
                run += 1;
            } else if run > 0 {
                runs.push(run);
                run = 0;
            }
        }
        runs
    }

    /// (fraction lost, mean run length of losses).
    pub(crate) fn per_and_mean_burst(fates: &[bool]) -> (f64, f64) {
        let runs = loss_runs(fates);
        let lost: usize = runs.iter().sum();
        (
            lost as f64 / fates.len() as f64,
            lost as f64 / runs.len().max(1) as f64,
        )
    }

    #[test]
    fn periodic_runs_are_exact_and_phase_is_random() {
        let mut first_loss = Vec::new();
        for link in ["a", "b", "c", "d"] {
            let mut rng = Rng::named(5, StreamKind::Channel, link);
            let mut m = Periodic::new(0.15, 15, &mut rng);
            let fates: Vec<bool> = (0..10_000).map(|_| m.frame_lost()).collect();
            let runs = loss_runs(&fates);
            // Whole runs (the first and last may be cut by the window's edges).
            assert!(runs[1..runs.len() - 1].iter().all(|&r| r == 15), "{runs:?}");
            // Exactly 15 losses in every window of 100 attempts.
            assert!(fates
                .windows(100)
                .all(|w| w.iter().filter(|&&l| l).count() == 15));
            first_loss.push(fates.iter().position(|&l| l).unwrap());
        }
        first_loss.dedup();
        assert!(first_loss.len() > 1, "phases {first_loss:?}");
    }

    #[test]
    fn bernoulli_runs_are_exact_and_per_matches() {
        for (per, burst) in [(0.1, 10), (0.3, 30), (0.05, 1)] {
            let mut rng = Rng::named(6, StreamKind::Channel, "bern");
            let mut m = Bernoulli::new(per, burst);
            let fates: Vec<bool> = (0..200_000).map(|_| m.frame_lost(&mut rng)).collect();
            let runs = loss_runs(&fates);
            assert!(runs[..runs.len() - 1].iter().all(|&r| r == burst as usize));
            let (p, _) = per_and_mean_burst(&fates);
            assert!((p / per - 1.0).abs() < 0.05, "PER {p} vs {per}");
        }
    }
}
