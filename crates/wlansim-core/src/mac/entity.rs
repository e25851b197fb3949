//! A channel-access entity: one transmit queue with its own backoff and parameters. Under
//! DCF a node has one; under EDCA (802.11e) one per access category.
use super::{AccessCategory, Backoff};
use crate::net::{NodeId, Packet, TxQueue};
use crate::sim::time::Time;
use serde::Serialize;

/// Contention parameters of one entity (DCF: DIFS and the PHY's CW bounds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AccessParams {
    /// DIFS under DCF; AIFS[AC] = SIFS + AIFSN·slot under EDCA.
    pub aifs: Time,
    pub cw_min: u32,
    pub cw_max: u32,
    /// Attempts allowed for frames sent without RTS (and for RTS frames); None = unlimited.
    pub short_retry_limit: Option<u32>,
    /// Attempts allowed for frames sent after RTS/CTS; None = unlimited.
    pub long_retry_limit: Option<u32>,
    /// TXOP limit (EDCA); 0 = one frame exchange per channel access, as under DCF.
    pub txop_limit: Time,
    /// MSDU lifetime (`mac/lifetime.rs`); None = unlimited.
    pub msdu_lifetime: Option<Time>,
}

/// MAC counters of one entity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct MacStats {
    /// Medium accesses (a data frame, or an RTS, put on the air).
    pub attempts: u64,
    /// Frame exchanges completed (the MAC ACK received).
    pub successes: u64,
    /// Attempts that collided.
    pub collisions: u64,
    /// Attempts that were retransmissions of a frame.
    pub retries: u64,
    /// Frames discarded after the retry limit.
    pub retry_drops: u64,
    /// Packets refused by the full interface queue.
    pub queue_drops: u64,
    /// Frames (MPDUs) discarded because their MSDU lifetime passed (`mac.msdu_lifetime`).
    pub lifetime_drops: u64,
    /// Frames delivered (MAC-acknowledged) by kind: data (UDP, TCP with payload) and TCP
    /// segments without payload (ACKs; pilosof2003 Fig 5).
    pub frames_data: u64,
    pub frames_ack: u64,
    /// `queue_drops` split the same way (pilosof2003 Fig 4).
    pub queue_drops_data: u64,
    pub queue_drops_ack: u64,
    /// EDCA internal collisions lost to a higher AC of the same node (9.19.2.3).
    pub internal_collisions: u64,
    /// Frame exchanges sent SIFS after the previous one inside a TXOP (not contended for).
    pub burst_exchanges: u64,
    /// Data frames lost to the channel's frame error rate (no ACK came back).
    pub frame_errors: u64,
    /// Attempts whose RTS, CTS or ACK the channel lost (shadowing of control frames).
    pub control_errors: u64,
    /// Exchanges that succeeded although another frame started with theirs: captured
    /// by the receiver (SINR reception).
    pub captures: u64,
    /// Collisions (counted in `collisions`) with a frame of another slot, arriving more
    /// than the propagation delay apart: its sender did not sense the earlier one (a
    /// hidden terminal; spatial medium).
    pub hidden_collisions: u64,
    /// ADDBA Requests and Responses sent, each attempt (A-MPDU runs: the Block Ack
    /// agreements' setup, `mac/aggregate.rs`).
    pub addba_sent: u64,
    /// BlockAckReqs sent after a missed BlockAck, each attempt (A-MPDU runs).
    pub bars_sent: u64,
    /// MPDUs sent in data frames under aggregation (an A-MPDU's, or one sent alone
    /// before its agreement), each attempt: per A-MPDU with `attempts` less `bars_sent`
    /// and `addba_sent`.
    pub mpdus_sent: u64,
}

impl MacStats {
    pub fn add(&mut self, o: &MacStats) {
        self.attempts += o.attempts;
        self.successes += o.successes;
        self.collisions += o.collisions;
        self.retries += o.retries;
        self.retry_drops += o.retry_drops;
        self.queue_drops += o.queue_drops;
        self.lifetime_drops += o.lifetime_drops;
        self.frames_data += o.frames_data;
        self.frames_ack += o.frames_ack;
        self.queue_drops_data += o.queue_drops_data;
        self.queue_drops_ack += o.queue_drops_ack;
        self.internal_collisions += o.internal_collisions;
        self.burst_exchanges += o.burst_exchanges;
        self.frame_errors += o.frame_errors;
        self.control_errors += o.control_errors;
        self.captures += o.captures;
        self.hidden_collisions += o.hidden_collisions;
        self.addba_sent += o.addba_sent;
        self.bars_sent += o.bars_sent;
        self.mpdus_sent += o.mpdus_sent;
    }

    /// Count a frame delivered.
    #[inline]
    pub fn count_frame(&mut self, p: &Packet) {
        if p.is_tcp_ack() {
            self.frames_ack += 1;
        } else {
            self.frames_data += 1;
        }
    }

    /// Count a packet refused by the full queue.
    #[inline]
    pub fn count_queue_drop(&mut self, p: &Packet) {
        self.queue_drops += 1;
        if p.is_tcp_ack() {
            self.queue_drops_ack += 1;
        } else {
            self.queue_drops_data += 1;
        }
    }
}

/// Fields in the order channel access touches them, and aligned to a cache line: the
/// backoff (with its random stream) fills the first line; the head-of-line frame, the
/// node, the parameters and the first counters the second and third; the queue, which
/// only a frame that arrives or leaves touches, comes last. A transmitter that collides
/// touches three lines, not six (a cell of hundreds of stations keeps few entities in
/// the first-level cache).
#[repr(C, align(64))]
pub struct Entity {
    pub backoff: Backoff,
    /// The head-of-line frame's receiver and exchange timing, worked out once when the
    /// frame becomes the head (the MAC reads them at every attempt; the packet itself
    /// lives in the queue's buffer, which a cell of many stations does not keep in cache).
    /// Some exactly when the queue holds a frame ([`Entity::has_frame`]).
    pub head: Option<HeadFrame>,
    pub node: NodeId,
    /// The access category of an EDCA entity; None under DCF.
    pub ac: Option<AccessCategory>,
    pub params: AccessParams,
    pub stats: MacStats,
    pub queue: TxQueue,
    /// The exchange of an AP's Beacon when this entity sends them (`mac/beacon.rs`): what
    /// it queues is a Beacon, broadcast, never acknowledged nor retried.
    pub beacon: Option<super::ExchangeTimes>,
}

/// What channel access needs of the head-of-line frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadFrame {
    pub to: NodeId,
    pub times: super::exchange::ExchangeTimes,
    /// The receiver already has this frame: an attempt reached it but its ACK was lost.
    /// A later copy is a duplicate the receiver discards (10.3.2.11), and reaching the
    /// retry limit loses nothing.
    pub delivered: bool,
    /// A broadcast frame (a Beacon): no ACK, no retry. The same as the entity's
    /// `beacon.is_some()`, kept here because every exchange reads it with the head,
    /// and `beacon` sits in the entity's last cache line.
    pub broadcast: bool,
    /// The rung of the link's rate ladder its current attempt goes at (`mac/rate/`), or
    /// `rate::CONFIGURED`: the link's configured rates.
    pub rate: u8,
}

impl HeadFrame {
    /// A unicast frame to `to` that has not reached it yet, its exchange `times` at
    /// `rate`.
    #[inline]
    pub fn unicast(to: NodeId, times: super::exchange::ExchangeTimes, rate: u8) -> HeadFrame {
        HeadFrame {
            to,
            times,
            delivered: false,
            broadcast: false,
            rate,
        }
    }
}

/// What became of the head-of-line frame after a failed attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterFailure {
    Retry,
    Drop,
}

impl Entity {
    /// Count a failed attempt against the retry limits (9.3.4.4): an RTS, or a frame sent
    /// without RTS, increments the short retry count; a frame sent after RTS/CTS the long
    /// one. Reaching the limit discards the frame and resets CW; otherwise CW doubles.
    // Inlined: a collided station's failure is settled once per attempt; out of line it
    // cost the 10,000-station cell about 150 instructions per event (docs/benchmarks.md,
    // "The merge of four branches").
    #[inline]
    pub fn on_failure(&mut self, long_frame: bool) -> AfterFailure {
        let b = &mut self.backoff;
        let (count, limit) = if long_frame {
            (&mut b.long_retries, self.params.long_retry_limit)
        } else {
            (&mut b.short_retries, self.params.short_retry_limit)
        };
        *count += 1;
        if limit.is_some_and(|l| *count >= l) {
            self.stats.retry_drops += 1;
            b.on_success(self.params.cw_min);
            AfterFailure::Drop
        } else {
            b.on_retry(self.params.cw_max);
            AfterFailure::Retry
        }
    }

    /// The entity accesses the medium: its backoff is spent, an attempt is counted. The
    /// exchange of the frame it sends (its head-of-line frame's).
    #[inline(always)]
    pub fn count_attempt(&mut self) -> super::exchange::ExchangeTimes {
        self.backoff.pending = false;
        self.stats.attempts += 1;
        if self.is_retry() {
            self.stats.retries += 1;
        }
        self.head.expect("has frame").times
    }

    /// Whether the queue holds a frame (read from `head`, which sits beside the backoff,
    /// rather than from the queue).
    #[inline]
    pub fn has_frame(&self) -> bool {
        // (An aggregating entity may have MPDUs to resend with an empty queue, or queued
        // packets that wait for their session's ADDBA Response and no frame.)
        self.head.is_some()
    }

    /// Whether the head-of-line frame is being retried.
    #[inline]
    pub fn is_retry(&self) -> bool {
        self.backoff.short_retries + self.backoff.long_retries > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::{Rng, StreamKind};

    fn entity(short: Option<u32>, long: Option<u32>) -> Entity {
        Entity {
            node: 0,
            ac: None,
            queue: TxQueue::shared(4),
            head: None,
            backoff: Backoff::new(31, Rng::named(1, StreamKind::Backoff, "sta-0")),
            params: AccessParams {
                aifs: 50_000,
                cw_min: 31,
                cw_max: 1023,
                short_retry_limit: short,
                long_retry_limit: long,
                txop_limit: 0,
                msdu_lifetime: None,
            },
            stats: MacStats::default(),
            beacon: None,
        }
    }

    #[test]
    fn drops_after_the_short_retry_limit_of_attempts() {
        let mut e = entity(Some(7), Some(4));
        // 7 attempts allowed: the first 6 failures are retried, the 7th drops.
        for _ in 0..6 {
            assert_eq!(e.on_failure(false), AfterFailure::Retry);
        }
        assert_eq!(e.backoff.cw, 1023);
        assert_eq!(e.on_failure(false), AfterFailure::Drop);
        assert_eq!(e.stats.retry_drops, 1);
        assert_eq!(e.backoff.cw, 31, "CW resets after a drop");
        assert!(!e.is_retry());
    }

    #[test]
    fn long_frames_use_the_long_retry_limit() {
        let mut e = entity(Some(7), Some(4));
        for _ in 0..3 {
            assert_eq!(e.on_failure(true), AfterFailure::Retry);
        }
        assert_eq!(e.on_failure(true), AfterFailure::Drop);
    }

    #[test]
    fn unlimited_never_drops() {
        let mut e = entity(None, None);
        for _ in 0..10_000 {
            assert_eq!(e.on_failure(false), AfterFailure::Retry);
        }
        assert_eq!(e.backoff.cw, 1023);
    }
}
