//! TCP Vegas window growth (Brakmo & Peterson, IEEE JSAC 13(8), 1995, §3.2–3.3), with
//! ns-2's (`Agent/TCP/Vegas`, tcp-vegas.cc) choices where the paper leaves room.
//!
//! - BaseRTT is the smallest RTT seen. Once per RTT (when the ACK of the timed
//!   "distinguished" segment arrives, with that segment's exact RTT), Expected = cwnd/BaseRTT
//!   and Actual = cwnd/RTT are compared: diff = (Expected − Actual)·BaseRTT segments
//!   = cwnd·(RTT − BaseRTT)/RTT.
//! - Congestion avoidance: diff < α → cwnd + 1 segment; diff > β → cwnd − 1 segment
//!   (at least 2); otherwise unchanged. The change is applied once, at the end of the RTT,
//!   and cwnd grows only if the window was in use (ns-2: cwnd − flight ≤ 2 segments).
//! - Slow start grows cwnd only every other RTT (per ACK, as RFC 5681 slow start), so it
//!   doubles every two RTTs; when diff > γ it ends: cwnd − cwnd/8 and ssthresh = 2 segments
//!   (ns-2).
//! - Losses: a fast retransmit cuts the window by a quarter (ssthresh = ¾·FlightSize, the
//!   paper's §3.1 and ns-2's `win -= win >> 2`), a timeout by half (ns-2 `closecwnd(0)`);
//!   recovery itself is the variant's loss-recovery rule (Reno for "vegas", as ns-2).
//!
//! Omitted: Vegas's fine-grained retransmission check (retransmit on the first or second
//! duplicate ACK when the oldest segment's fine-grained timer has expired, paper §3.1). It
//! needs per-segment send times; loss detection here is the recovery rule's.

use super::ack_info::AckInfo;
use crate::sim::time::Time;

/// Vegas thresholds in segments (defaults: ns-2's `v_alpha_ 1`, `v_beta_ 3`, `v_gamma_ 1`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VegasParams {
    pub alpha: f64,
    pub beta: f64,
    pub gamma: f64,
}

impl Default for VegasParams {
    fn default() -> Self {
        VegasParams {
            alpha: 1.0,
            beta: 3.0,
            gamma: 1.0,
        }
    }
}

impl VegasParams {
    pub(crate) fn validate(&self) -> Result<(), String> {
        for (key, v) in [
            ("vegas_alpha", self.alpha),
            ("vegas_beta", self.beta),
            ("vegas_gamma", self.gamma),
        ] {
            if !v.is_finite() || v < 0.0 {
                return Err(format!(
                    "tcp.{key} = {v}: must be a finite number of segments ≥ 0"
                ));
            }
        }
        if self.alpha > self.beta {
            return Err(format!(
                "tcp.vegas_alpha = {}: must not exceed tcp.vegas_beta = {}",
                self.alpha, self.beta
            ));
        }
        Ok(())
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Vegas {
    p: VegasParams,
    base_rtt: Option<Time>,
    /// Slow start: this RTT is one of growth (they alternate with RTTs without).
    grow_round: bool,
}

impl Vegas {
    pub(crate) fn new(p: VegasParams) -> Self {
        Vegas {
            p,
            base_rtt: None,
            grow_round: true,
        }
    }

    /// diff = (Expected − Actual)·BaseRTT, in segments.
    pub(crate) fn diff(cwnd: u64, mss: u64, rtt: Time, base_rtt: Time) -> f64 {
        let w = cwnd as f64 / mss as f64;
        w * (rtt - base_rtt.min(rtt)) as f64 / rtt as f64
    }

    /// New data acknowledged outside loss recovery. `slow_start_step` is what RFC 5681 slow
    /// start would add for this ACK; `a.round_rtt` the exact RTT of the timed segment when
    /// this ACK covers it (once per RTT).
    pub(crate) fn on_ack(
        &mut self,
        cwnd: &mut u64,
        ssthresh: &mut u64,
        mss: u64,
        slow_start_step: u64,
        a: &AckInfo,
    ) {
        let slow_start = *cwnd < *ssthresh;
        if slow_start && self.grow_round && a.cwnd_limited {
            *cwnd = cwnd.saturating_add(slow_start_step);
        }
        let Some(rtt) = a.round_rtt.filter(|&r| r > 0) else {
            return;
        };
        let base = self.base_rtt.map_or(rtt, |b| b.min(rtt));
        self.base_rtt = Some(base);
        let diff = Self::diff(*cwnd, mss, rtt, base);
        if slow_start {
            if diff > self.p.gamma {
                *cwnd = (*cwnd - *cwnd / 8).max(2 * mss);
                *ssthresh = 2 * mss;
                self.grow_round = true;
            } else {
                self.grow_round = !self.grow_round;
            }
        } else if diff < self.p.alpha && a.cwnd_limited {
            *cwnd = cwnd.saturating_add(mss);
        } else if diff > self.p.beta {
            *cwnd = cwnd.saturating_sub(mss).max(2 * mss);
        }
    }

    /// ssthresh after a congestion event with `flight` bytes outstanding.
    pub(crate) fn ssthresh_after_loss(&mut self, flight: u64, mss: u64, timeout: bool) -> u64 {
        self.grow_round = true;
        let w = if timeout {
            flight / 2
        } else {
            flight - flight / 4
        };
        w.max(2 * mss)
    }
}
