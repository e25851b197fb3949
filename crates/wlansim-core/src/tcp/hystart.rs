//! HyStart++ (RFC 9406): leave the initial slow start when the RTT grows, before losses.
//! Optional (`tcp.hystart`, off by default), for the AIMD and CUBIC variants (Vegas has its
//! own slow-start exit). It needs an RTT sample per ACK, so it requires timestamps.
//!
//! - §4.2 rounds: a round ends when an ACK covers `windowEnd` (SND.NXT at the round's
//!   start); per round the minimum RTT sample and the sample count are kept.
//! - Slow start: once a round has N_RTT_SAMPLE = 8 samples and the previous round's
//!   minimum is known, with RttThresh = clamp(lastRoundMinRTT/8, 4 ms, 16 ms), an RTT
//!   minimum ≥ lastRoundMinRTT + RttThresh enters Conservative Slow Start (CSS), with
//!   cssBaselineMinRtt = currentRoundMinRTT.
//! - CSS: growth is slow start's divided by CSS_GROWTH_DIVISOR = 4; a round minimum below
//!   the baseline (after 8 samples) returns to slow start (spurious exit); after
//!   CSS_ROUNDS = 5 rounds, ssthresh = cwnd (congestion avoidance).
//! - §4.3 only the initial slow start: a congestion event ends HyStart++ for the connection.
//! - Slow-start increments are the sender's (RFC 5681 per ACK, or RFC 3465 with L = 2),
//!   below RFC 9406's L = 8 for unpaced senders.

use super::ack_info::AckInfo;
use super::Seq;
use crate::sim::time::{Time, MS};

const MIN_RTT_THRESH: Time = 4 * MS;
const MAX_RTT_THRESH: Time = 16 * MS;
const MIN_RTT_DIVISOR: Time = 8;
const N_RTT_SAMPLE: u32 = 8;
const CSS_GROWTH_DIVISOR: u64 = 4;
const CSS_ROUNDS: u32 = 5;

#[derive(Debug, Clone, Default)]
pub(crate) struct HyStart {
    window_end: Option<Seq>,
    last_round_min: Option<Time>,
    current_round_min: Option<Time>,
    samples: u32,
    /// In CSS: cssBaselineMinRtt, and the CSS rounds completed.
    css: Option<(Time, u32)>,
}

impl HyStart {
    /// An ACK of new data in slow start: the bytes cwnd grows by (`step` is standard slow
    /// start's). Sets `ssthresh` = `cwnd` when CSS ends.
    pub(crate) fn on_ack(&mut self, a: &AckInfo, step: u64, cwnd: u64, ssthresh: &mut u64) -> u64 {
        if self.window_end.is_none_or(|w| a.ack >= w) {
            self.window_end = Some(a.snd_nxt);
            self.last_round_min = self.current_round_min.take();
            self.samples = 0;
            if let Some((_, rounds)) = &mut self.css {
                *rounds += 1;
                if *rounds >= CSS_ROUNDS {
                    *ssthresh = cwnd;
                    return 0;
                }
            }
        }
        if let Some(r) = a.rtt {
            self.current_round_min = Some(self.current_round_min.map_or(r, |m| m.min(r)));
            self.samples += 1;
        }
        if self.samples >= N_RTT_SAMPLE {
            let current = self.current_round_min.expect("samples were taken");
            match self.css {
                None => {
                    if let Some(last) = self.last_round_min {
                        let thresh = (last / MIN_RTT_DIVISOR).clamp(MIN_RTT_THRESH, MAX_RTT_THRESH);
                        if current >= last + thresh {
                            self.css = Some((current, 0));
                        }
                    }
                }
                Some((baseline, _)) if current < baseline => self.css = None,
                Some(_) => {}
            }
        }
        match self.css {
            Some(_) => step / CSS_GROWTH_DIVISOR,
            None => step,
        }
    }
}
