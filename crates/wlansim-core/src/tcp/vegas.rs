//! TCP Vegas window growth (Brakmo & Peterson, IEEE JSAC 13(8), 1995, §3.2–3.3), with
//! ns-2's (`Agent/TCP/Vegas`, tcp-vegas.cc) choices where the paper leaves room, and, under
//! the ns2 profile ([`super::config::SenderRules::Ns2`]), ns-2.35's arithmetic itself.
//!
//! The paper's form (the standard profile):
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
//! ns-2.35's arithmetic ([`Ns2Vegas`]; `VegasTcpAgent::recv`, `output`, `timeout`):
//! - every segment's send time and number of transmissions are kept; an ACK of new data
//!   whose highest segment was sent once gives a fine-grained RTT sample, which lowers
//!   BaseRTT and adds to the round's samples (BaseRTT starts at the first segment's RTT);
//! - a round ends at the ACK of the first segment sent in it: RTT = the mean of its
//!   samples (the time since the round began without any), rttLen = the segments sent in
//!   it; BaseRTT = RTT when RTT is lower or rttLen ≤ 1; Expected = (t_seqno − last_ack)/
//!   BaseRTT, t_seqno − last_ack counting the segments from the highest acknowledged to the
//!   next to send, Actual = rttLen/RTT, and delta = ⌊(Expected − Actual)·BaseRTT + 0.5⌋
//!   (whole segments: the band is [α − ½, β + ½));
//! - congestion avoidance: delta > β: cwnd − 1 at once (at least 2); delta < α: cwnd
//!   grows by 1/cwnd per ACK of the next round; slow start (every other round): delta > γ
//!   ends it (ssthresh 2, cwnd − cwnd/8), else cwnd + 1 per ACK; a step is taken only while
//!   cwnd − (t_seqno − last_ack) ≤ 2;
//! - losses: at the third duplicate ACK the window (min(cwnd, rwnd), whole segments) is cut
//!   to ¾ (to ½ when the lost segment had been retransmitted, to 2 from 3 or fewer) if no
//!   cut came after that segment was sent, and inflated by the duplicates; recovery
//!   (Reno's) ends with cwnd at the cut window and ssthresh 2; a timeout restarts from 2
//!   segments (`v_slowstart_`).
//!
//! Omitted in both: Vegas's fine-grained retransmission check (retransmit on the first or
//! second duplicate ACK when the oldest segment's fine-grained timer has expired, paper
//! §3.1; ns-2's `vegas_expire`, `v_worried_`); loss detection here is the recovery rule's.

use super::ack_info::AckInfo;
use super::Seq;
use crate::sim::time::{Time, SECOND};
use std::collections::VecDeque;

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
    /// ns-2.35's arithmetic instead of the paper's (the ns2 profile).
    ns2: Option<Ns2Vegas>,
}

impl Vegas {
    /// `ns2`: ns-2.35's arithmetic ([`Ns2Vegas`]).
    pub(crate) fn new(p: VegasParams, ns2: bool) -> Self {
        Vegas {
            p,
            base_rtt: None,
            grow_round: true,
            ns2: ns2.then(Ns2Vegas::default),
        }
    }

    /// A data segment [`seq`, `seq + len`) goes out at `now` (ns-2's arithmetic keeps its
    /// send time and transmissions).
    pub(crate) fn on_sent(&mut self, seq: Seq, len: u64, now: Time) {
        if let Some(v) = &mut self.ns2 {
            v.on_sent(seq, len, now);
        }
    }

    /// ns-2: the window (without the inflation by the duplicates) at a fast retransmit of
    /// the segment at `una` at `now`, from the usable window `window` (min(cwnd, rwnd));
    /// None: not ns-2's arithmetic (the sender's own rule applies).
    pub(crate) fn ns2_fast_retransmit(
        &mut self,
        window: u64,
        una: Seq,
        now: Time,
        mss: u64,
    ) -> Option<u64> {
        self.ns2
            .as_mut()
            .map(|v| v.fast_retransmit(window, una, now, mss))
    }

    /// ns-2: (cwnd, ssthresh) when a recovery ends: the window of the cut, 2 segments;
    /// None: not ns-2's arithmetic.
    pub(crate) fn ns2_recovered(&self, mss: u64) -> Option<(u64, u64)> {
        self.ns2.as_ref().map(|v| (v.newcwnd.max(2 * mss), 2 * mss))
    }

    /// ns-2: the window after a timeout at `now` (`v_slowstart_`, 2 segments); None: not
    /// ns-2's arithmetic.
    pub(crate) fn ns2_timeout(&mut self, now: Time, mss: u64) -> Option<u64> {
        self.ns2.as_mut().map(|v| {
            v.cut_at = Some(now);
            v.newcwnd = 0;
            2 * mss
        })
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
        if let Some(v) = &mut self.ns2 {
            return v.on_ack(&self.p, cwnd, ssthresh, mss, a);
        }
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

/// ns-2.35's Vegas state (`VegasTcpAgent`: `v_sendtime_`, `v_transmits_`, `v_begseq_`,
/// `v_begtime_`, `v_sumRTT_`, `v_cntRTT_`, `v_baseRTT_`, `v_inc_flag_`, `v_incr_`,
/// `t_cwnd_changed_`, `v_newcwnd_`); times in seconds, as ns-2 keeps them.
#[derive(Debug, Clone)]
pub(crate) struct Ns2Vegas {
    /// Segments sent and not yet acknowledged: start, end, last send time, transmissions.
    sent: VecDeque<(Seq, Seq, Time, u32)>,
    /// When the first segment went out (ns-2's `firstsent_`); the first ACK came back.
    first_sent: Option<Time>,
    first_ack: bool,
    /// The round: the start of its first segment, and when it began.
    beg_seq: Seq,
    beg_time: Time,
    /// The round's fine-grained RTT samples: their sum (s) and number.
    sum_rtt: f64,
    cnt_rtt: u32,
    base_rtt: f64,
    inc_flag: bool,
    /// Segments cwnd grows by per ACK of the current round.
    incr: f64,
    /// The last window cut (fast retransmit or timeout).
    cut_at: Option<Time>,
    /// The window the last fast retransmit cut to, bytes.
    newcwnd: u64,
}

impl Default for Ns2Vegas {
    fn default() -> Self {
        Ns2Vegas {
            sent: VecDeque::new(),
            first_sent: None,
            first_ack: false,
            beg_seq: 0,
            beg_time: 0,
            sum_rtt: 0.0,
            cnt_rtt: 0,
            base_rtt: 1e9,
            inc_flag: true,
            incr: 0.0,
            cut_at: None,
            newcwnd: 0,
        }
    }
}

fn secs(t: Time) -> f64 {
    t as f64 / SECOND as f64
}

impl Ns2Vegas {
    fn on_sent(&mut self, seq: Seq, len: u64, now: Time) {
        if self.first_sent.is_none() {
            (self.first_sent, self.beg_seq, self.beg_time) = (Some(now), seq, now);
        }
        match self.sent.iter_mut().find(|s| s.0 == seq) {
            Some(s) => (s.2, s.3) = (now, s.3 + 1),
            None => self.sent.push_back((seq, seq + len, now, 1)),
        }
    }

    fn fast_retransmit(&mut self, window: u64, una: Seq, now: Time, mss: u64) -> u64 {
        let (sent_at, transmits) = self
            .sent
            .iter()
            .find(|s| s.0 == una)
            .map_or((now, 1), |s| (s.2, s.3));
        if self.cut_at.is_none_or(|t| t < sent_at) {
            let win = window / mss;
            let cut = if win <= 3 {
                2
            } else if transmits > 1 {
                win >> 1
            } else {
                win - (win >> 2)
            };
            self.newcwnd = cut * mss;
            self.cut_at = Some(now);
        }
        self.newcwnd
    }

    fn on_ack(
        &mut self,
        p: &VegasParams,
        cwnd: &mut u64,
        ssthresh: &mut u64,
        mss: u64,
        a: &AckInfo,
    ) {
        let now = a.now;
        if !self.first_ack {
            self.first_ack = true;
            self.base_rtt = secs(now - self.first_sent.unwrap_or(now));
        }
        let pkts = |bytes: u64| bytes as f64 / mss as f64;
        // t_seqno − last_ack: from the highest acknowledged segment to the next to send.
        let ahead = pkts(a.snd_nxt.saturating_sub(a.ack)) + 1.0;
        if a.ack > self.beg_seq {
            let rtt = if self.cnt_rtt > 0 {
                self.sum_rtt / self.cnt_rtt as f64
            } else {
                secs(now - self.beg_time)
            };
            (self.sum_rtt, self.cnt_rtt) = (0.0, 0);
            let rtt_len = pkts(a.snd_nxt.saturating_sub(self.beg_seq));
            if rtt > 0.0 {
                if rtt < self.base_rtt || rtt_len <= 1.0 {
                    self.base_rtt = rtt;
                }
                let expect = ahead / self.base_rtt;
                let actual = rtt_len / rtt;
                let delta = ((expect - actual) * self.base_rtt + 0.5).floor();
                if *cwnd < *ssthresh {
                    self.inc_flag = !self.inc_flag;
                    if !self.inc_flag {
                        self.incr = 0.0;
                    } else if delta > p.gamma {
                        *ssthresh = 2 * mss;
                        *cwnd = (*cwnd - *cwnd / 8).max(2 * mss);
                        self.incr = 0.0;
                    } else {
                        self.incr = 1.0;
                    }
                } else if delta > p.beta {
                    *cwnd = cwnd.saturating_sub(mss).max(2 * mss);
                    self.incr = 0.0;
                } else if delta < p.alpha {
                    self.incr = mss as f64 / *cwnd as f64;
                } else {
                    self.incr = 0.0;
                }
            }
            (self.beg_seq, self.beg_time) = (a.snd_nxt, now);
        }
        if self.incr == 1.0 && *cwnd >= *ssthresh {
            self.incr = 0.0;
        }
        if self.incr > 0.0 && pkts(*cwnd) - ahead <= 2.0 {
            *cwnd += (self.incr * mss as f64).round() as u64;
        }
        // The fine-grained sample of the highest segment this ACK covers, if sent once.
        while let Some(&(_, end, at, transmits)) = self.sent.front() {
            if end > a.ack {
                break;
            }
            self.sent.pop_front();
            if end == a.ack && transmits == 1 {
                let rtt = secs(now - at);
                self.sum_rtt += rtt;
                self.cnt_rtt += 1;
                if rtt > 0.0 && rtt < self.base_rtt {
                    self.base_rtt = rtt;
                }
            }
        }
    }
}
