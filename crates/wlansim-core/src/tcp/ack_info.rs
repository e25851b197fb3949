//! What a congestion-control rule learns from an ACK of new data (AIMD, Vegas, CUBIC,
//! HyStart++ all read it).
use super::Seq;
use crate::sim::time::Time;

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
