//! Auto Rate Fallback (Kamerman & Monteban, "WaveLAN-II: a high-performance wireless LAN
//! for the unlicensed band", Bell Labs Technical Journal 1997) and Adaptive ARF (Lacage,
//! Manshaei & Turletti, "IEEE 802.11 rate adaptation: a practical approach", MSWiM 2004),
//! with the thresholds of ns-3's `ArfWifiManager` and `AarfWifiManager`:
//! - start at the lowest rate;
//! - after `success_threshold` acknowledged attempts in a row (10), or `timer_threshold`
//!   attempts (15) at the rate, go one rate up; the next attempt is a probe;
//! - a failed probe goes back down at once; otherwise 2 failures in a row go down;
//! - AARF: a failed probe also doubles both thresholds (success at most 60); going down
//!   after 2 failures resets them to 10 and 15 (the timer's threshold doubles without a
//!   bound, as in ns-3, saturating at 2^32 − 1 attempts).
//!
//! Every step counts the attempt (not the frame), as ns-3 does: a retry is an attempt.
const MIN_SUCCESS: u32 = 10;
const MAX_SUCCESS: u32 = 60;
const MIN_TIMER: u32 = 15;
const FAILURES: u32 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arf {
    adaptive: bool,
    rate: u8,
    successes: u32,
    failures: u32,
    /// Attempts since the rate last changed.
    timer: u32,
    /// The last change was a step up and no attempt has been acknowledged since.
    probing: bool,
    success_threshold: u32,
    timer_threshold: u32,
}

impl Arf {
    /// ARF, or AARF when `adaptive`.
    pub fn new(adaptive: bool) -> Arf {
        Arf {
            adaptive,
            rate: 0,
            successes: 0,
            failures: 0,
            timer: 0,
            probing: false,
            success_threshold: MIN_SUCCESS,
            timer_threshold: MIN_TIMER,
        }
    }

    /// The rung of the next attempt.
    #[inline]
    pub fn rate(&self) -> u8 {
        self.rate
    }

    /// An attempt at [`Arf::rate`] was acknowledged (`success`) or not; `top`: the highest
    /// rung.
    pub fn report(&mut self, success: bool, top: u8) {
        self.timer += 1;
        if success {
            self.successes += 1;
            self.failures = 0;
            self.probing = false;
            if (self.successes >= self.success_threshold || self.timer >= self.timer_threshold)
                && self.rate < top
            {
                self.rate += 1;
                self.restart();
                self.probing = true;
            }
            return;
        }
        self.successes = 0;
        self.failures += 1;
        if self.probing {
            if self.adaptive {
                self.success_threshold = (2 * self.success_threshold).min(MAX_SUCCESS);
                self.timer_threshold = self.timer_threshold.saturating_mul(2);
            }
            self.step_down();
        } else if self.failures >= FAILURES {
            if self.adaptive {
                self.success_threshold = MIN_SUCCESS;
                self.timer_threshold = MIN_TIMER;
            }
            self.step_down();
        }
    }

    fn step_down(&mut self) {
        self.rate = self.rate.saturating_sub(1);
        self.restart();
    }

    fn restart(&mut self) {
        self.successes = 0;
        self.failures = 0;
        self.timer = 0;
        self.probing = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(a: &mut Arf, pattern: &[bool]) {
        for &s in pattern {
            a.report(s, 3);
        }
    }

    #[test]
    fn arf_goes_up_after_10_successes_and_down_after_2_failures() {
        let mut a = Arf::new(false);
        run(&mut a, &[true; 9]);
        assert_eq!(a.rate(), 0);
        run(&mut a, &[true]);
        assert_eq!(a.rate(), 1, "the 10th success steps up");
        run(&mut a, &[true, false]);
        assert_eq!(a.rate(), 1, "one failure after an acknowledged probe: stay");
        run(&mut a, &[false]);
        assert_eq!(a.rate(), 0, "two failures in a row: down");
        run(&mut a, &[true; 30]);
        assert_eq!(a.rate(), 3, "never above the top rung");
    }

    #[test]
    fn a_failed_probe_goes_back_at_once() {
        let mut a = Arf::new(false);
        run(&mut a, &[true; 10]);
        run(&mut a, &[false]);
        assert_eq!(a.rate(), 0);
        // ARF: 10 successes again step up.
        run(&mut a, &[true; 10]);
        assert_eq!(a.rate(), 1);
    }

    #[test]
    fn the_timer_steps_up_after_15_attempts_with_failures_between() {
        let mut a = Arf::new(false);
        // Success, failure alternating: never 2 failures in a row, never 10 successes.
        let alternating: Vec<bool> = (0..15).map(|i| i % 2 == 0).collect();
        run(&mut a, &alternating[..14]);
        assert_eq!(a.rate(), 0);
        run(&mut a, &alternating[14..]);
        assert_eq!(a.rate(), 1);
    }

    #[test]
    fn aarf_doubles_its_threshold_after_each_failed_probe_up_to_60() {
        let mut a = Arf::new(true);
        let mut needed = Vec::new();
        for _ in 0..5 {
            let mut n = 0;
            while a.rate() == 0 {
                a.report(true, 3);
                n += 1;
            }
            needed.push(n);
            a.report(false, 3); // the probe fails
            assert_eq!(a.rate(), 0);
        }
        // Successes needed (the timer doubles too, so it never fires first).
        assert_eq!(needed, [10, 20, 40, 60, 60]);
        // Two failures in a row reset the thresholds to 10.
        run(&mut a, &[false, false]);
        let mut n = 0;
        while a.rate() == 0 {
            a.report(true, 3);
            n += 1;
        }
        assert_eq!(n, 10);
    }
}

#[cfg(test)]
mod probe_tests {
    use super::*;

    /// Share of 10,000 attempts at the best rung when every rung up to `good` always
    /// succeeds and every higher one always fails.
    fn at_best(adaptive: bool, good: u8) -> f64 {
        let mut a = Arf::new(adaptive);
        let mut n = 0;
        for _ in 0..10_000 {
            let r = a.rate();
            n += u32::from(r == good);
            a.report(r <= good, 7);
        }
        f64::from(n) / 10_000.0
    }

    #[test]
    fn aarf_probes_less_than_arf_where_the_rate_above_always_fails() {
        let (arf, aarf) = (at_best(false, 5), at_best(true, 5));
        assert!(arf > 0.85 && arf < 0.95, "{arf}");
        assert!(aarf > 0.97, "{aarf}");
    }
}
