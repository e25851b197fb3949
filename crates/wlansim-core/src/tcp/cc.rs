//! Congestion control, split in two orthogonal parts so that further variants slot in
//! without rewriting the sender:
//!
//! - **window growth and reduction** ([`Growth`]): how cwnd grows on new ACKs outside loss
//!   recovery and what ssthresh becomes on a congestion event: AIMD (RFC 5681), Vegas
//!   ([`super::vegas`]), CUBIC (RFC 9438, [`super::cubic`]).
//! - **loss recovery** ([`LossRecovery`]): what the sender does on duplicate ACKs and
//!   partial ACKs: Tahoe, Reno, NewReno, SACK (RFC 6675, [`super::sack`] and the sender).
//!
//! A [`Variant`] is a named pair of the two. Dispatch is by `match` (no trait objects, no
//! allocation).
//!
//! Window arithmetic is in bytes. Growth follows RFC 5681 per-ACK counting by default:
//! slow start adds min(N, SMSS) per ACK that acknowledges N new bytes (§3.1 eq. 2), and
//! congestion avoidance adds SMSS·SMSS/cwnd per ACK (eq. 3, at least 1 byte). With delayed
//! ACKs (d = 2) this grows ~0.5 SMSS per RTT in congestion avoidance, like ns-2 and most
//! stacks of the seed papers' time. `byte_counting` selects RFC 3465 ABC instead
//! (slow start: +min(N, 2·SMSS); congestion avoidance: +SMSS once cwnd bytes are acked).

use super::ack_info::AckInfo;
use super::config::{SenderRules, TcpConfig};
use super::cubic::Cubic;
use super::hystart::HyStart;
use super::variant::Growth;
use super::vegas::Vegas;
use super::Seq;
use crate::sim::time::Time;

/// The growth rule with its state.
#[derive(Debug, Clone)]
enum Rule {
    Aimd,
    Vegas(Vegas),
    Cubic(Cubic),
}

/// cwnd / ssthresh state and the growth rule.
#[derive(Debug, Clone)]
pub(crate) struct CongestionControl {
    pub(crate) cwnd: u64,
    pub(crate) ssthresh: u64,
    mss: u64,
    rule: Rule,
    /// HyStart++ during the initial slow start, if enabled.
    hystart: Option<HyStart>,
    byte_counting: bool,
    /// RFC 3465 congestion-avoidance accumulator.
    bytes_acked: u64,
}

impl CongestionControl {
    pub(crate) fn new(cfg: &TcpConfig) -> Self {
        let rule = match cfg.variant.growth() {
            Growth::Aimd => Rule::Aimd,
            Growth::Vegas => {
                Rule::Vegas(Vegas::new(cfg.vegas, cfg.sender_rules == SenderRules::Ns2))
            }
            Growth::Cubic => Rule::Cubic(Cubic::new(cfg.cubic)),
        };
        CongestionControl {
            cwnd: cfg.initial_window_bytes(),
            ssthresh: cfg.initial_ssthresh_bytes(),
            mss: cfg.mss as u64,
            rule,
            hystart: (cfg.hystart && cfg.variant.growth() != Growth::Vegas).then(HyStart::default),
            byte_counting: cfg.byte_counting,
            bytes_acked: 0,
        }
    }

    /// What slow start adds for an ACK of `acked` bytes: RFC 5681 §3.1 eq. 2 (L = 1 SMSS)
    /// or RFC 3465 §2.2 (L = 2 SMSS).
    fn slow_start_step(&self, acked: u64) -> u64 {
        let limit = if self.byte_counting { 2 } else { 1 } * self.mss;
        acked.min(limit)
    }

    /// New data acknowledged outside loss recovery: grow cwnd.
    pub(crate) fn on_ack(&mut self, a: &AckInfo) {
        let mss = self.mss;
        let step = self.slow_start_step(a.acked);
        match &mut self.rule {
            Rule::Vegas(v) => v.on_ack(&mut self.cwnd, &mut self.ssthresh, mss, step, a),
            _ if self.cwnd < self.ssthresh => {
                let step = match &mut self.hystart {
                    Some(h) => h.on_ack(a, step, self.cwnd, &mut self.ssthresh),
                    None => step,
                };
                self.cwnd = self.cwnd.saturating_add(step);
                self.bytes_acked = 0;
            }
            Rule::Cubic(c) => c.on_ack(&mut self.cwnd, mss, a),
            Rule::Aimd if self.byte_counting => {
                // RFC 3465 §2.1: +SMSS per cwnd bytes acknowledged.
                self.bytes_acked += a.acked;
                if self.bytes_acked >= self.cwnd {
                    self.bytes_acked -= self.cwnd;
                    self.cwnd = self.cwnd.saturating_add(mss);
                }
            }
            Rule::Aimd => {
                // RFC 5681 §3.1 eq. 3.
                self.cwnd = self
                    .cwnd
                    .saturating_add((mss * mss / self.cwnd.max(1)).max(1));
            }
        }
    }

    /// Congestion event detected by duplicate ACKs (`timeout` false) or by the
    /// retransmission timer, with `flight` bytes outstanding: set ssthresh (the caller then
    /// sets cwnd per the loss-recovery rule).
    pub(crate) fn on_congestion_event(&mut self, flight: u64, timeout: bool) {
        let mss = self.mss;
        self.hystart = None; // RFC 9406 §4.3: only the initial slow start
        self.ssthresh = match &mut self.rule {
            // RFC 5681 §3.1 eq. 4.
            Rule::Aimd => (flight / 2).max(2 * mss),
            Rule::Vegas(v) => v.ssthresh_after_loss(flight, mss, timeout),
            Rule::Cubic(c) => c.ssthresh_after_loss(self.cwnd, flight, mss, timeout),
        };
        self.bytes_acked = 0;
    }

    pub(crate) fn mss(&self) -> u64 {
        self.mss
    }

    /// A data segment [`seq`, `seq + len`) goes out at `now` (ns-2's Vegas keeps its
    /// send time).
    pub(crate) fn on_sent(&mut self, seq: Seq, len: u64, now: Time) {
        if let Rule::Vegas(v) = &mut self.rule {
            v.on_sent(seq, len, now);
        }
    }

    /// ns-2's Vegas at a fast retransmit of the segment at `una`: the window (without
    /// the duplicates' inflation), from cwnd and the peer's window `rwnd`; None for the
    /// other rules (`super::vegas::Ns2Vegas`).
    pub(crate) fn ns2_vegas_fast_retransmit(
        &mut self,
        rwnd: u64,
        una: Seq,
        now: Time,
    ) -> Option<u64> {
        let (window, mss) = (self.cwnd.min(rwnd), self.mss);
        match &mut self.rule {
            Rule::Vegas(v) => v.ns2_fast_retransmit(window, una, now, mss),
            _ => None,
        }
    }

    /// ns-2's Vegas leaving recovery: cwnd the window of the cut, ssthresh 2 segments
    /// (true); false for the other rules.
    pub(crate) fn ns2_vegas_recovered(&mut self) -> bool {
        let Rule::Vegas(v) = &self.rule else {
            return false;
        };
        match v.ns2_recovered(self.mss) {
            Some((cwnd, ssthresh)) => {
                (self.cwnd, self.ssthresh) = (cwnd, ssthresh);
                true
            }
            None => false,
        }
    }

    /// ns-2's Vegas after a timeout at `now`: the window it restarts from (2 segments);
    /// None for the other rules.
    pub(crate) fn ns2_vegas_timeout(&mut self, now: Time) -> Option<u64> {
        let mss = self.mss;
        match &mut self.rule {
            Rule::Vegas(v) => v.ns2_timeout(now, mss),
            _ => None,
        }
    }

    /// CUBIC's current epoch (start, K in seconds, W_max in segments), for tests.
    #[cfg(test)]
    pub(crate) fn cubic_epoch(&self) -> Option<(crate::sim::time::Time, f64, f64)> {
        match &self.rule {
            Rule::Cubic(c) => c.epoch(),
            _ => None,
        }
    }
}
