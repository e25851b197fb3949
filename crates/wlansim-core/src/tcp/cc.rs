//! Congestion control, split in two orthogonal parts so that further variants slot in
//! without rewriting the sender:
//!
//! - **window growth and reduction** ([`Growth`]): how cwnd grows on new ACKs outside loss
//!   recovery and what ssthresh becomes on a congestion event. Today: AIMD (RFC 5681).
//!   CUBIC (RFC 9438) and Vegas will be further `Growth` arms (they need `now` and RTT
//!   samples, which `on_ack` already receives).
//! - **loss recovery** ([`LossRecovery`]): what the sender does on duplicate ACKs and
//!   partial ACKs (Tahoe, Reno, NewReno today; SACK / RFC 6675 will add a scoreboard and a
//!   `Sack` arm in the sender's dispatch).
//!
//! A [`Variant`] is a pair of the two. Dispatch is by `match` (no trait objects, no
//! allocation).
//!
//! Window arithmetic is in bytes. Growth follows RFC 5681 per-ACK counting by default:
//! slow start adds min(N, SMSS) per ACK that acknowledges N new bytes (§3.1 eq. 2), and
//! congestion avoidance adds SMSS·SMSS/cwnd per ACK (eq. 3, at least 1 byte). With delayed
//! ACKs (d = 2) this grows ~0.5 SMSS per RTT in congestion avoidance, like ns-2 and most
//! stacks of the seed papers' time. `byte_counting` selects RFC 3465 ABC instead
//! (slow start: +min(N, 2·SMSS); congestion avoidance: +SMSS once cwnd bytes are acked).

use crate::sim::time::Time;

/// TCP congestion-control variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Fast retransmit, then slow start from one segment (go-back-N from the loss), as
    /// 4.3BSD-Tahoe and ns-2's Agent/TCP.
    Tahoe,
    /// RFC 5681 fast retransmit / fast recovery.
    Reno,
    /// RFC 6582: fast recovery stays until the recovery point is acknowledged; partial ACKs
    /// retransmit the next hole.
    NewReno,
}

/// Window growth / reduction rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Growth {
    /// RFC 5681 slow start + congestion avoidance; ssthresh = max(FlightSize/2, 2·SMSS).
    Aimd,
}

/// Loss-recovery rule applied by the sender on duplicate and partial ACKs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LossRecovery {
    Tahoe,
    Reno,
    NewReno,
}

impl Variant {
    pub fn growth(self) -> Growth {
        match self {
            Variant::Tahoe | Variant::Reno | Variant::NewReno => Growth::Aimd,
        }
    }

    pub fn loss_recovery(self) -> LossRecovery {
        match self {
            Variant::Tahoe => LossRecovery::Tahoe,
            Variant::Reno => LossRecovery::Reno,
            Variant::NewReno => LossRecovery::NewReno,
        }
    }
}

/// cwnd / ssthresh state and the growth rule.
#[derive(Debug, Clone)]
pub(crate) struct CongestionControl {
    pub(crate) cwnd: u64,
    pub(crate) ssthresh: u64,
    mss: u64,
    growth: Growth,
    byte_counting: bool,
    /// RFC 3465 congestion-avoidance accumulator.
    bytes_acked: u64,
}

impl CongestionControl {
    pub(crate) fn new(
        growth: Growth,
        mss: u32,
        cwnd: u64,
        ssthresh: u64,
        byte_counting: bool,
    ) -> Self {
        CongestionControl {
            cwnd,
            ssthresh,
            mss: mss as u64,
            growth,
            byte_counting,
            bytes_acked: 0,
        }
    }

    pub(crate) fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }

    /// New data acknowledged outside loss recovery: grow cwnd.
    /// `_now` and `_rtt` are for delay- and time-based growth rules (Vegas, CUBIC).
    pub(crate) fn on_ack(&mut self, acked: u64, _now: Time, _rtt: Option<Time>) {
        match self.growth {
            Growth::Aimd => {
                let mss = self.mss;
                if self.in_slow_start() {
                    // RFC 5681 §3.1 eq. 2 (L = 1 SMSS) or RFC 3465 §2.2 (L = 2 SMSS).
                    let limit = if self.byte_counting { 2 * mss } else { mss };
                    self.cwnd = self.cwnd.saturating_add(acked.min(limit));
                    self.bytes_acked = 0;
                } else if self.byte_counting {
                    // RFC 3465 §2.1: +SMSS per cwnd bytes acknowledged.
                    self.bytes_acked += acked;
                    if self.bytes_acked >= self.cwnd {
                        self.bytes_acked -= self.cwnd;
                        self.cwnd = self.cwnd.saturating_add(mss);
                    }
                } else {
                    // RFC 5681 §3.1 eq. 3.
                    self.cwnd = self
                        .cwnd
                        .saturating_add((mss * mss / self.cwnd.max(1)).max(1));
                }
            }
        }
    }

    /// ssthresh after a congestion event with `flight` bytes outstanding
    /// (RFC 5681 §3.1 eq. 4: max(FlightSize/2, 2·SMSS)).
    pub(crate) fn ssthresh_after_loss(&self, flight: u64) -> u64 {
        match self.growth {
            Growth::Aimd => (flight / 2).max(2 * self.mss),
        }
    }

    /// Congestion event detected by duplicate ACKs or by the retransmission timer: set
    /// ssthresh (the caller then sets cwnd per the loss-recovery rule).
    pub(crate) fn on_congestion_event(&mut self, flight: u64, _now: Time) {
        self.ssthresh = self.ssthresh_after_loss(flight);
        self.bytes_acked = 0;
    }

    pub(crate) fn mss(&self) -> u64 {
        self.mss
    }
}
