//! Retransmission timeout estimator, RFC 6298 §2 (Jacobson/Karels with K = 4,
//! alpha = 1/8, beta = 1/4), with exponential backoff (§5.5) and bounds (§2.4, §2.5).
//! Integer nanoseconds throughout (engine rules: no floating-point clock).

use super::config::{SenderRules, TcpConfig};
use super::ns2_rto::Ns2Rto;
use crate::sim::time::Time;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RtoEstimator {
    srtt: Option<Time>,
    rttvar: Time,
    rto: Time,
    min_rto: Time,
    max_rto: Time,
    granularity: Time,
    backoffs: u32,
    /// ns-2's arithmetic instead (`SenderRules::Ns2`).
    ns2: Option<Ns2Rto>,
}

impl RtoEstimator {
    /// RFC 6298 §2.1: before any sample, RTO = initial RTO.
    pub fn new(cfg: &TcpConfig) -> Self {
        RtoEstimator {
            srtt: None,
            rttvar: 0,
            rto: cfg.initial_rto.min(cfg.max_rto),
            min_rto: cfg.min_rto,
            max_rto: cfg.max_rto,
            granularity: cfg.clock_granularity,
            backoffs: 0,
            ns2: (cfg.sender_rules == SenderRules::Ns2).then(|| {
                Ns2Rto::new(
                    cfg.clock_granularity,
                    cfg.initial_rto,
                    cfg.min_rto,
                    cfg.max_rto,
                    cfg.timestamps,
                )
            }),
        }
    }

    /// Current RTO (ns), including any backoff.
    pub fn rto(&self) -> Time {
        if let Some(n) = &self.ns2 {
            return n.rto();
        }
        self.rto
    }

    /// Smoothed RTT, `None` before the first sample.
    pub fn srtt(&self) -> Option<Time> {
        if let Some(n) = &self.ns2 {
            return n.srtt();
        }
        self.srtt
    }

    pub fn rttvar(&self) -> Time {
        if let Some(n) = &self.ns2 {
            return n.rttvar();
        }
        self.rttvar
    }

    /// Number of backoffs since the last RTT sample.
    pub fn backoffs(&self) -> u32 {
        if let Some(n) = &self.ns2 {
            return n.backoffs();
        }
        self.backoffs
    }

    /// A measurement as a clock of granularity G reads it: rounded to the nearest tick,
    /// at least one tick (as ns-2's `tcpTick_` and BSD's slow timer do).
    pub fn quantize(&self, rtt: Time) -> Time {
        let g = self.granularity;
        match (rtt + g / 2).checked_div(g) {
            Some(ticks) => ticks.max(1) * g,
            None => rtt, // G = 0: exact clock
        }
    }

    /// Feed one RTT sample (ns) of a segment sent at `sent`; returns the quantized sample
    /// that was used.
    pub fn sample(&mut self, rtt: Time, sent: Time) -> Time {
        if let Some(n) = &mut self.ns2 {
            return n.sample(rtt, sent);
        }
        let r = self.quantize(rtt);
        match self.srtt {
            // §2.2: first measurement.
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2;
            }
            // §2.3: RTTVAR first (with the old SRTT), then SRTT.
            Some(srtt) => {
                self.rttvar = (3 * self.rttvar + srtt.abs_diff(r)) / 4;
                self.srtt = Some((7 * srtt + r) / 8);
            }
        }
        let srtt = self.srtt.unwrap_or(r);
        // §2.2/2.3: RTO = SRTT + max(G, K*RTTVAR); §2.4 lower bound; §2.5 upper bound.
        let rto = srtt + self.granularity.max(4 * self.rttvar);
        self.rto = rto.max(self.min_rto).min(self.max_rto);
        self.backoffs = 0;
        r
    }

    /// §5.5: on timer expiry, RTO = 2·RTO, capped at the maximum (§2.5).
    pub fn backoff(&mut self) {
        if let Some(n) = &mut self.ns2 {
            return n.back_off();
        }
        self.rto = self.rto.saturating_mul(2).min(self.max_rto);
        self.backoffs += 1;
    }

    /// §5.7: re-initialise the RTO (used with 3 s after a lost SYN), clearing any backoff.
    pub fn reset_to(&mut self, rto: Time) {
        if let Some(n) = &mut self.ns2 {
            return n.reset_to(rto);
        }
        self.rto = rto.max(self.min_rto).min(self.max_rto);
        self.backoffs = 0;
    }
}
