//! The consecutive-burst loss of fotiadis2005 §IV: "in a 10 % loss scenario 10 out of 100
//! packets are lost consecutively". A PER p comes as runs of exactly L lost frame attempts:
//!
//! - [`Periodic`]: a deterministic period of L/p attempts starting with a run of L losses,
//!   at a phase drawn per link (links do not lose in step): uniformly over the period
//!   ([`Phase::Uniform`]), or as ns-2's `ErrorModel/Periodic` places its pattern
//!   ([`Phase::Ns2`]: `offset_` − 1 delivered attempts, then the first burst; `offset_` ≥ 2,
//!   so the first attempt is never lost);
//! - [`Bernoulli`]: bursts start as a Bernoulli process; every attempt outside a burst,
//!   except the one right after a burst (so runs never merge and stay exactly L long),
//!   starts one with probability q = p / (L(1 − p)), which makes the long-run PER
//!   L / (L + 1 + (1 − q)/q) = p (p ≤ L/(L + 1)).
//!
//! Attempts drive both (an idle link keeps its place in the pattern): every attempt of a
//! data frame on the link, one that collides too (`Channel::collided_attempt`), as
//! ns-2.35's error model on the sender's outgoing path counts every frame its MAC sends.
use crate::sim::rng::Rng;

/// Where a link's first attempt falls in its periodic pattern.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// Anywhere in the period, uniformly: a link starts inside a burst (after its first
    /// loss) with probability (L − 1)/period = p(L − 1)/L.
    #[default]
    Uniform,
    /// As ns-2.35's `ErrorModel/Periodic` (`queue/errmodel.cc`, unit pkt) with `offset_`
    /// k: k − 1 attempts delivered, then the first burst; k drawn uniformly from 2 to
    /// period − L + 1, so the link starts between two bursts, never inside one (its first
    /// attempt is never lost; `offset_` 1 would lose it, beginning a burst).
    Ns2,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Periodic {
    period: u64,
    burst: u64,
    /// Position of the next attempt in the period.
    at: u64,
}

impl Periodic {
    /// Period `burst / per` attempts (an integer: checked by the scenario), its phase
    /// drawn as `phase` says.
    pub fn new(per: f64, burst: u64, phase: Phase, rng: &mut Rng) -> Self {
        let period = (burst as f64 / per).round() as u64;
        let at = match phase {
            Phase::Uniform => rng.uniform_inclusive((period - 1) as u32) as u64,
            Phase::Ns2 => {
                // `offset_` − 1 attempts delivered before the first burst: 1 to period − L.
                let good = 1 + rng.uniform_inclusive((period - burst - 1) as u32) as u64;
                period - good
            }
        };
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
            let mut m = Periodic::new(0.15, 15, Phase::Uniform, &mut rng);
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

    /// ns-2's placement: over many links, the first attempt is never inside a burst (never
    /// lost): 1 to period − L delivered attempts, each count occurring, then a whole run of
    /// L, and the same periodic pattern afterwards.
    #[test]
    fn ns2_phase_never_starts_inside_a_burst() {
        let (per, burst) = (0.2, 20);
        let mut starts = std::collections::BTreeSet::new();
        for link in 0..2000 {
            let mut rng = Rng::named(9, StreamKind::Channel, &format!("mob-{link}"));
            let mut m = Periodic::new(per, burst, Phase::Ns2, &mut rng);
            let fates: Vec<bool> = (0..1000).map(|_| m.frame_lost()).collect();
            let first = fates.iter().position(|&l| l).unwrap();
            // the first run of losses is a whole burst, and nothing but delivered attempts
            // precedes it
            assert!(fates[first..first + burst as usize].iter().all(|&l| l));
            assert!(
                (1..=80).contains(&first),
                "first loss after {first} attempts"
            );
            assert!(fates
                .windows(100)
                .all(|w| w.iter().filter(|&&l| l).count() == 20));
            starts.insert(first);
        }
        assert_eq!(
            starts,
            (1..=80).collect(),
            "every ns-2 offset_ from 2 to 81 occurs"
        );
        // the uniform phase does start inside bursts
        let inside = (0..2000)
            .filter(|link| {
                let mut rng = Rng::named(9, StreamKind::Channel, &format!("mob-{link}"));
                let mut m = Periodic::new(per, burst, Phase::Uniform, &mut rng);
                let fates: Vec<bool> = (0..100).map(|_| m.frame_lost()).collect();
                fates[0] && loss_runs(&fates)[0] < burst as usize
            })
            .count();
        assert!(
            (300..460).contains(&inside),
            "{inside} of 2000 start inside a burst"
        );
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
