//! CUBIC window growth (RFC 9438). Windows in segments (f64), time in seconds.
//!
//! - §4.2 eq. 1: W_cubic(t) = C·(t − K)³ + W_max, t from the start of the congestion
//!   avoidance epoch; eq. 2: K = ∛((W_max − cwnd_epoch)/C), which is ∛(W_max·(1 − β)/C)
//!   right after a reduction to β·W_max.
//! - §4.2 target: W_cubic(t + RTT) clamped to [cwnd, 1.5·cwnd]; per ACK cwnd grows by
//!   (target − cwnd)/cwnd for each segment the ACK covers (as Linux: delayed ACKs do not
//!   slow the curve down). RTT is the smoothed RTT.
//! - §4.3 Reno-friendly region: W_est starts at cwnd_epoch and grows by
//!   α·segments_acked/cwnd, α = 3(1 − β)/(1 + β) until W_est reaches cwnd_prior, 1 after;
//!   when W_cubic(t) < W_est, cwnd = W_est.
//! - §4.6 on a congestion event ssthresh = max(FlightSize·β, 2 segments); §4.7 fast
//!   convergence: W_max = cwnd·(1 + β)/2 if cwnd < the previous W_max, else cwnd.
//! - §4.8 after a timeout, the first epoch uses K = 0 and W_max = cwnd_epoch.
//! - §5.8 a flow that does not use its window (rwnd- or application-limited) does not grow
//!   cwnd, and that time does not count in t (the epoch start moves forward).
//! - Slow start is RFC 5681's, or HyStart++ (RFC 9406, `tcp.hystart`, §4.10).

use super::ack_info::AckInfo;
use crate::sim::time::{Time, SECOND};

/// CUBIC parameters (RFC 9438 §5: C = 0.4, β_cubic = 0.7, fast convergence on).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CubicParams {
    pub c: f64,
    pub beta: f64,
    pub fast_convergence: bool,
}

impl Default for CubicParams {
    fn default() -> Self {
        CubicParams {
            c: 0.4,
            beta: 0.7,
            fast_convergence: true,
        }
    }
}

impl CubicParams {
    pub(crate) fn validate(&self) -> Result<(), String> {
        if !self.c.is_finite() || self.c <= 0.0 {
            return Err(format!(
                "tcp.cubic_c = {}: must be a finite number > 0 (segments/s³; RFC 9438: 0.4)",
                self.c
            ));
        }
        if !self.beta.is_finite() || self.beta <= 0.0 || self.beta >= 1.0 {
            return Err(format!(
                "tcp.cubic_beta = {}: must be between 0 and 1, exclusive (RFC 9438: 0.7)",
                self.beta
            ));
        }
        Ok(())
    }
}

/// One congestion-avoidance epoch.
#[derive(Debug, Clone, Copy)]
struct Epoch {
    start: Time,
    k: f64,
    w_max: f64,
    w_est: f64,
    /// cwnd in segments, unrounded, and the byte value last written from it.
    cwnd: f64,
    written: u64,
    /// Time of the last ACK (for §5.8: time while not cwnd-limited does not count).
    last_ack: Time,
}

#[derive(Debug, Clone)]
pub(crate) struct Cubic {
    p: CubicParams,
    /// W_max (segments) at the last congestion event; 0 before any.
    w_max: f64,
    /// cwnd (segments) when ssthresh was last set.
    cwnd_prior: f64,
    after_timeout: bool,
    epoch: Option<Epoch>,
}

impl Cubic {
    pub(crate) fn new(p: CubicParams) -> Self {
        Cubic {
            p,
            w_max: 0.0,
            cwnd_prior: 0.0,
            after_timeout: false,
            epoch: None,
        }
    }

    /// RFC 9438 eq. 2.
    pub(crate) fn k(c: f64, w_max: f64, cwnd_epoch: f64) -> f64 {
        ((w_max - cwnd_epoch).max(0.0) / c).cbrt()
    }

    /// RFC 9438 eq. 1.
    pub(crate) fn w_cubic(c: f64, k: f64, w_max: f64, t: f64) -> f64 {
        c * (t - k).powi(3) + w_max
    }

    /// (start, K, W_max) of the current epoch.
    #[cfg(test)]
    pub(crate) fn epoch(&self) -> Option<(Time, f64, f64)> {
        self.epoch.map(|e| (e.start, e.k, e.w_max))
    }

    /// New data acknowledged in congestion avoidance.
    pub(crate) fn on_ack(&mut self, cwnd: &mut u64, mss: u64, a: &AckInfo) {
        let (acked, now) = (a.acked, a.now);
        let mss_f = mss as f64;
        let c = self.p.c;
        let e = match &mut self.epoch {
            Some(e) if e.written == *cwnd => e,
            slot => {
                // Start of an epoch (or cwnd was set from outside: resynchronise).
                let cwnd_epoch = *cwnd as f64 / mss_f;
                let (k, w_max) = match slot {
                    Some(e) => (e.k, e.w_max),
                    None if self.after_timeout || self.w_max <= cwnd_epoch => (0.0, cwnd_epoch),
                    None => (Self::k(c, self.w_max, cwnd_epoch), self.w_max),
                };
                self.after_timeout = false;
                let start = slot.map_or(now, |e| e.start);
                let w_est = slot.map_or(cwnd_epoch, |e| e.w_est);
                slot.insert(Epoch {
                    start,
                    k,
                    w_max,
                    w_est,
                    cwnd: cwnd_epoch,
                    written: *cwnd,
                    last_ack: now,
                })
            }
        };
        let idle = now - e.last_ack;
        e.last_ack = now;
        if !a.cwnd_limited {
            e.start += idle; // §5.8
            return;
        }
        let secs = |d: Time| d as f64 / SECOND as f64;
        let t = secs(now - e.start);
        let segs = acked as f64 / mss_f;
        let beta = self.p.beta;
        let alpha = if e.w_est >= self.cwnd_prior {
            1.0
        } else {
            3.0 * (1.0 - beta) / (1.0 + beta)
        };
        e.w_est += alpha * segs / e.cwnd;
        if Self::w_cubic(c, e.k, e.w_max, t) < e.w_est {
            e.cwnd = e.cwnd.max(e.w_est);
        } else {
            let rtt = secs(a.srtt.unwrap_or(0));
            let target = Self::w_cubic(c, e.k, e.w_max, t + rtt).clamp(e.cwnd, 1.5 * e.cwnd);
            e.cwnd += (target - e.cwnd) / e.cwnd * segs;
        }
        e.written = (e.cwnd * mss_f) as u64;
        *cwnd = e.written;
    }

    /// ssthresh after a congestion event at window `cwnd` with `flight` bytes outstanding.
    pub(crate) fn ssthresh_after_loss(
        &mut self,
        cwnd: u64,
        flight: u64,
        mss: u64,
        timeout: bool,
    ) -> u64 {
        let w = cwnd as f64 / mss as f64;
        self.w_max = if self.p.fast_convergence && w < self.w_max {
            w * (1.0 + self.p.beta) / 2.0
        } else {
            w
        };
        self.cwnd_prior = w;
        self.after_timeout = timeout;
        self.epoch = None;
        ((flight as f64 * self.p.beta) as u64).max(2 * mss)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_and_curve_follow_rfc9438() {
        // W_max = 100 segments, reduced to β·W_max = 70: K = ∛(100·0.3/0.4) = ∛75.
        let k = Cubic::k(0.4, 100.0, 70.0);
        assert!((k - 75f64.cbrt()).abs() < 1e-12, "{k}");
        assert!((Cubic::w_cubic(0.4, k, 100.0, 0.0) - 70.0).abs() < 1e-9);
        assert_eq!(Cubic::w_cubic(0.4, k, 100.0, k), 100.0);
        // Fast convergence: a loss below the previous W_max lowers W_max further.
        let mut c = Cubic::new(CubicParams::default());
        let mss = 1000;
        assert_eq!(
            c.ssthresh_after_loss(100 * mss, 100 * mss, mss, false),
            70 * mss
        );
        assert_eq!(c.w_max, 100.0);
        c.ssthresh_after_loss(80 * mss, 80 * mss, mss, false);
        assert!((c.w_max - 80.0 * 1.7 / 2.0).abs() < 1e-9);
    }
}
