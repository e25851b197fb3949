//! Gilbert–Elliott channel (Gilbert 1960, Elliott 1963): a two-state Markov chain, Good and
//! Bad, each with its own frame error rate. The chain moves once per frame attempt on the
//! link (attempts drive it, not time: an idle link keeps its state), after that attempt's
//! fate is drawn; the initial state is drawn from the stationary distribution. Mean
//! sojourns are `good_frames` and `bad_frames` attempts (geometric), so the long-run frame
//! error rate is (G·good_fer + B·bad_fer) / (G + B).
//!
//! Given an average PER p and a mean burst length L instead, the chain is the classic
//! simplified one: good_fer 0, bad_fer 1, B = L, G = L(1 − p)/p; every run of lost frames is
//! a Bad sojourn, of mean length L.
use crate::sim::rng::Rng;

#[derive(Clone, Debug, PartialEq)]
pub struct GilbertElliott {
    good_fer: f64,
    bad_fer: f64,
    /// Per attempt: probability of leaving Good, of leaving Bad.
    leave_good: f64,
    leave_bad: f64,
    bad: bool,
}

impl GilbertElliott {
    /// Mean sojourns `good_frames`, `bad_frames` ≥ 1 (`good_frames` may be infinite: never
    /// Bad); the initial state drawn from `rng`.
    pub fn new(
        good_fer: f64,
        bad_fer: f64,
        good_frames: f64,
        bad_frames: f64,
        rng: &mut Rng,
    ) -> Self {
        let p_bad = bad_frames / (good_frames + bad_frames);
        GilbertElliott {
            good_fer,
            bad_fer,
            leave_good: 1.0 / good_frames,
            leave_bad: 1.0 / bad_frames,
            bad: rng.uniform() < p_bad,
        }
    }

    /// The simplified chain of long-run PER `per` in [0, 1) and mean burst `burst_length`.
    pub fn from_per(per: f64, burst_length: f64, rng: &mut Rng) -> Self {
        let good_frames = burst_length * (1.0 - per) / per;
        GilbertElliott::new(0.0, 1.0, good_frames, burst_length, rng)
    }

    /// The fate of one attempt, then the state change.
    #[inline]
    pub fn frame_lost(&mut self, rng: &mut Rng) -> bool {
        let fer = if self.bad {
            self.bad_fer
        } else {
            self.good_fer
        };
        let lost = fer >= 1.0 || (fer > 0.0 && rng.uniform() < fer);
        let leave = if self.bad {
            self.leave_bad
        } else {
            self.leave_good
        };
        if leave > 0.0 && rng.uniform() < leave {
            self.bad = !self.bad;
        }
        lost
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::consecutive_burst::tests::{loss_runs, per_and_mean_burst};
    use crate::sim::rng::StreamKind;

    /// Acceptance (issue 14): long-run PER and mean burst length within 5 % of the
    /// configured values over 1e5 frames, for several (PER, burst) pairs.
    #[test]
    fn long_run_per_and_mean_burst_match_the_parameters() {
        for (per, burst) in [(0.05, 5.0), (0.2, 10.0), (0.3, 3.0)] {
            let mut rng = Rng::named(1, StreamKind::Channel, "ge-test");
            let mut ge = GilbertElliott::from_per(per, burst, &mut rng);
            let fates: Vec<bool> = (0..100_000).map(|_| ge.frame_lost(&mut rng)).collect();
            let (p, b) = per_and_mean_burst(&fates);
            assert!((p / per - 1.0).abs() < 0.05, "PER {p} vs {per}");
            assert!((b / burst - 1.0).abs() < 0.05, "burst {b} vs {burst}");
        }
    }

    #[test]
    fn two_state_rates_give_the_weighted_per() {
        // G = 90, B = 10 attempts; FER 0.01 and 0.5: long-run PER 0.9·0.01 + 0.1·0.5.
        let mut rng = Rng::named(2, StreamKind::Channel, "ge-test");
        let mut ge = GilbertElliott::new(0.01, 0.5, 90.0, 10.0, &mut rng);
        let fates: Vec<bool> = (0..200_000).map(|_| ge.frame_lost(&mut rng)).collect();
        let (p, _) = per_and_mean_burst(&fates);
        assert!((p / 0.059 - 1.0).abs() < 0.05, "PER {p}");
        assert!(!loss_runs(&fates).is_empty());
    }

    #[test]
    fn zero_per_never_loses() {
        let mut rng = Rng::named(3, StreamKind::Channel, "ge-test");
        let mut ge = GilbertElliott::from_per(0.0, 10.0, &mut rng);
        assert!((0..10_000).all(|_| !ge.frame_lost(&mut rng)));
    }
}
