//! ns-2.35's retransmission-timer arithmetic (`tcp/tcp.cc`), used by the `ns2` TCP profile
//! ([`super::config::SenderRules::Ns2`]) in place of RFC 6298's (`super::rto`):
//! - `TcpAgent::rtt_update`: a sample is counted in whole ticks of `tcpTick_` (G): without
//!   timestamps the ticks the clock crossed between send and ACK, `int((tao + tickoff) /
//!   tcp_tick_)` with `tickoff = fmod(sendtime + boot_time_, tcp_tick_)` (here
//!   `boot_time_ = 0`: ns-2 draws it once per agent in `[0, tcpTick_)`); with timestamps
//!   rounded to the nearest tick; at least one tick. SRTT (×8) and RTTVAR (×4) are
//!   integers of ticks with Jacobson's shifts; the current RTO is
//!   `t_rtxcur_ = ((t_rttvar_ << 3) + t_srtt_) >> 3` ticks = SRTT + 4·RTTVAR, no `max(G, …)`
//!   term. Before any sample it is `rtxcur_init_` (3 s).
//! - `TcpAgent::rtt_timeout` (`rfc2988_ true`): `minrto_` applies before the backoff
//!   multiplier (`minrto_ · t_backoff_` when `t_rtxcur_ < minrto_`), then `maxrto_`, then
//!   at least two ticks.
//! - `TcpAgent::rtt_backoff`: the multiplier doubles while below 64 or while the timeout is
//!   below `maxrto_`; beyond 8 backoffs SRTT is folded into RTTVAR and cleared (the next
//!   sample starts afresh). A sample resets the multiplier to 1 (`TcpAgent::newack`).
//! - The window at a timeout: `super::ns2_window`.
use crate::sim::time::Time;

/// `T_SRTT_BITS` and `T_RTTVAR_BITS` (`tcl/lib/ns-default.tcl`).
const SRTT_BITS: u32 = 3;
const RTTVAR_BITS: u32 = 2;
/// `rttvar_exp_`: RTO = SRTT + 2^rttvar_exp_ · RTTVAR.
const RTTVAR_EXP: u32 = 2;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ns2Rto {
    /// `tcpTick_` (ns), positive.
    tick: Time,
    /// `t_srtt_`: SRTT in ticks × 8 (0 = no estimate).
    srtt8: i64,
    /// `t_rttvar_`: RTTVAR in ticks × 4.
    rttvar4: i64,
    /// `t_rtxcur_`: the RTO before backoff.
    rtxcur: Time,
    /// `t_backoff_`: the backoff multiplier.
    backoff: u64,
    min_rto: Time,
    max_rto: Time,
    timestamps: bool,
}

impl Ns2Rto {
    /// `TcpAgent::rtt_init`: no estimate, RTO `rtxcur_init_`, multiplier 1.
    pub fn new(tick: Time, initial_rto: Time, min_rto: Time, max_rto: Time, ts: bool) -> Self {
        Ns2Rto {
            tick: tick.max(1),
            srtt8: 0,
            rttvar4: 0,
            rtxcur: initial_rto,
            backoff: 1,
            min_rto,
            max_rto,
            timestamps: ts,
        }
    }

    /// `TcpAgent::rtt_timeout`.
    pub fn rto(&self) -> Time {
        let base = if self.rtxcur < self.min_rto {
            self.min_rto
        } else {
            self.rtxcur
        };
        base.saturating_mul(self.backoff)
            .min(self.max_rto)
            .max(2 * self.tick)
    }

    pub fn srtt(&self) -> Option<Time> {
        (self.srtt8 > 0).then(|| (self.srtt8 >> SRTT_BITS) as Time * self.tick)
    }

    pub fn rttvar(&self) -> Time {
        (self.rttvar4.max(0) >> RTTVAR_BITS) as Time * self.tick
    }

    pub fn backoffs(&self) -> u32 {
        self.backoff.trailing_zeros()
    }

    /// The sample in whole ticks, as ns-2 measures `tao` sent at `sent` (see the module).
    pub fn ticks(&self, rtt: Time, sent: Time) -> i64 {
        let t = if self.timestamps {
            (rtt + self.tick / 2) / self.tick
        } else {
            (rtt + sent % self.tick) / self.tick
        };
        (t as i64).max(1)
    }

    /// `TcpAgent::rtt_update` for a segment sent at `sent` and acknowledged `rtt` later;
    /// returns the sample as counted (ns).
    pub fn sample(&mut self, rtt: Time, sent: Time) -> Time {
        let m = self.ticks(rtt, sent);
        if self.srtt8 != 0 {
            let mut delta = m - (self.srtt8 >> SRTT_BITS);
            self.srtt8 += delta;
            if self.srtt8 <= 0 {
                self.srtt8 = 1;
            }
            delta = delta.abs() - (self.rttvar4 >> RTTVAR_BITS);
            self.rttvar4 += delta;
            if self.rttvar4 <= 0 {
                self.rttvar4 = 1;
            }
        } else {
            self.srtt8 = m << SRTT_BITS;
            self.rttvar4 = m << (RTTVAR_BITS - 1);
        }
        let shift = RTTVAR_EXP + SRTT_BITS - RTTVAR_BITS;
        let ticks = ((self.rttvar4 << shift) + self.srtt8) >> SRTT_BITS;
        self.rtxcur = ticks.max(0) as Time * self.tick;
        self.backoff = 1;
        m as Time * self.tick
    }

    /// `TcpAgent::rtt_backoff`.
    pub fn back_off(&mut self) {
        if self.backoff < 64 || self.rto() < self.max_rto {
            self.backoff = self.backoff.saturating_mul(2);
        }
        if self.backoff > 8 {
            self.rttvar4 += self.srtt8 >> SRTT_BITS;
            self.srtt8 = 0;
        }
    }

    /// RFC 6298 §5.7's re-initialisation (after a retransmitted SYN): ns-2 has no
    /// handshake; the RTO before any sample is `rtxcur_init_` already.
    pub fn reset_to(&mut self, rto: Time) {
        self.rtxcur = rto;
        self.backoff = 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::{MS, SECOND};

    fn ns2() -> Ns2Rto {
        Ns2Rto::new(10 * MS, 3 * SECOND, 200 * MS, 60 * SECOND, false)
    }

    #[test]
    fn first_sample_gives_srtt_plus_four_rttvar_in_ticks() {
        let mut r = ns2();
        assert_eq!(r.rto(), 3 * SECOND);
        // 95 ms sent at a tick boundary: 9 ticks (truncated, not rounded).
        assert_eq!(r.sample(95 * MS, 0), 90 * MS);
        // t_srtt_ = 9 << 3 = 72, t_rttvar_ = 9 << 1 = 18: rtxcur = ((18 << 3) + 72) >> 3
        // = 27 ticks = 270 ms (SRTT + 4·RTTVAR, above minrto_).
        assert_eq!(r.rto(), 270 * MS);
        // The tick phase of the send time counts: 95 ms sent 6 ms into a tick: 10 ticks.
        assert_eq!(r.ticks(95 * MS, 6 * MS), 10);
    }

    #[test]
    fn min_rto_applies_before_the_backoff_then_max_rto() {
        let mut r = ns2();
        r.sample(10 * MS, 0); // 1 tick: rtxcur 3 ticks = 30 ms < minrto_
        assert_eq!(r.rto(), 200 * MS);
        r.back_off();
        assert_eq!(r.rto(), 400 * MS); // minrto_ · 2, not max(30 ms · 2, minrto_)
        for _ in 0..10 {
            r.back_off();
        }
        assert_eq!(r.rto(), 60 * SECOND);
        assert_eq!(r.srtt(), None); // folded into RTTVAR beyond 8 backoffs
    }
}
