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

use super::config::TcpConfig;
use super::cubic::Cubic;
use super::hystart::HyStart;
use super::vegas::Vegas;
use super::Seq;
use crate::sim::time::Time;

/// TCP congestion-control variant: a window-growth rule and a loss-recovery rule. Names
/// (scenario key `tcp.variant`) are the growth rule's, then the recovery rule's when it is
/// not the growth rule's usual one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// "tahoe": fast retransmit, then slow start from one segment (go-back-N from the
    /// loss), as 4.3BSD-Tahoe and ns-2's Agent/TCP.
    Tahoe,
    /// "reno": RFC 5681 fast retransmit / fast recovery.
    Reno,
    /// "newreno": RFC 6582: fast recovery stays until the recovery point is acknowledged;
    /// partial ACKs retransmit the next hole.
    NewReno,
    /// "sack": AIMD with SACK-based loss recovery (RFC 2018, RFC 6675).
    Sack,
    /// "vegas": Vegas growth with Reno recovery (Brakmo & Peterson built Vegas on Reno;
    /// ns-2's Agent/TCP/Vegas).
    Vegas,
    /// "vegas-sack": Vegas growth with SACK recovery.
    VegasSack,
    /// "cubic": CUBIC growth with NewReno recovery.
    Cubic,
    /// "cubic-sack": CUBIC growth with SACK recovery (Linux's default).
    CubicSack,
}

/// Window growth / reduction rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Growth {
    /// RFC 5681 slow start + congestion avoidance; ssthresh = max(FlightSize/2, 2·SMSS).
    Aimd,
    /// TCP Vegas ([`super::vegas`]).
    Vegas,
    /// CUBIC, RFC 9438 ([`super::cubic`]).
    Cubic,
}

/// Loss-recovery rule applied by the sender on duplicate and partial ACKs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LossRecovery {
    Tahoe,
    Reno,
    NewReno,
    /// RFC 6675 (needs SACK on both ends; NewReno if the peer does not permit it).
    Sack,
}

impl Variant {
    pub fn growth(self) -> Growth {
        match self {
            Variant::Tahoe | Variant::Reno | Variant::NewReno | Variant::Sack => Growth::Aimd,
            Variant::Vegas | Variant::VegasSack => Growth::Vegas,
            Variant::Cubic | Variant::CubicSack => Growth::Cubic,
        }
    }

    pub fn loss_recovery(self) -> LossRecovery {
        match self {
            Variant::Tahoe => LossRecovery::Tahoe,
            Variant::Reno | Variant::Vegas => LossRecovery::Reno,
            Variant::NewReno | Variant::Cubic => LossRecovery::NewReno,
            Variant::Sack | Variant::VegasSack | Variant::CubicSack => LossRecovery::Sack,
        }
    }
}

/// The growth rule with its state.
#[derive(Debug, Clone)]
enum Rule {
    Aimd,
    Vegas(Vegas),
    Cubic(Cubic),
}

/// What the sender knows about an ACK of new data, for the growth rules.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AckInfo {
    /// Bytes newly acknowledged.
    pub acked: u64,
    pub now: Time,
    /// Exact RTT of the timed segment, when this ACK covers it (about once per RTT; Karn's
    /// rule applies).
    pub round_rtt: Option<Time>,
    /// Smoothed RTT (RFC 6298).
    pub srtt: Option<Time>,
    /// The RTT sample this ACK gave the estimator (per ACK with timestamps).
    pub rtt: Option<Time>,
    /// The ACK number, and SND.NXT when it arrived (HyStart++ rounds).
    pub ack: Seq,
    pub snd_nxt: Seq,
    /// The flow used its window (not limited by rwnd or the application). Vegas and CUBIC
    /// grow only then; AIMD always (RFC 5681 does not ask, and the seed studies' results
    /// depend on it).
    pub cwnd_limited: bool,
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
            Growth::Vegas => Rule::Vegas(Vegas::new(cfg.vegas)),
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

    /// CUBIC's current epoch (start, K in seconds, W_max in segments), for tests.
    #[cfg(test)]
    pub(crate) fn cubic_epoch(&self) -> Option<(Time, f64, f64)> {
        match &self.rule {
            Rule::Cubic(c) => c.epoch(),
            _ => None,
        }
    }
}
