//! A-MPDU with immediate compressed Block Ack on the shared medium (802.11-2020 10.12,
//! 10.25; `mac.ampdu_max_bytes`, `mac.ba_window`).
//!
//! Each entity (one TID: its access category) keeps a Block Ack session per receiver:
//! the MPDUs it sent that the receiver has not acknowledged, each with its sequence
//! number and retry count, and on the receiver's side the reordering buffer that passes
//! MSDUs up in sequence order. One channel access sends one A-MPDU:
//! - it is formed when the entity wins the medium ([`Store::form_aggregate`]): the
//!   session with MPDUs to resend first, their retransmissions first, then new packets
//!   from the head of the queue while they go to the same receiver, up to the Block Ack
//!   window (sequence numbers below the oldest unacknowledged one + `ba_window`),
//!   `ampdu_max_bytes`, aPPDUMaxTime and the TXOP limit; its airtime counts each
//!   subframe's delimiter and padding (`mac/exchange.rs` [`Ampdu`]);
//! - the channel decides each MPDU by its own draw, in order
//!   ([`Shared::aggregate_exchange`]); the receiver answers SIFS after the A-MPDU with a
//!   compressed BlockAck when it decoded at least one MPDU; the exchange's received
//!   MPDUs travel as a bitmap (a window is at most 64 MPDUs);
//! - at the exchange's end the receiver keeps what it decoded ([`Store::aggregate_received`])
//!   and passes up what is in order; then the sender learns the BlockAck
//!   ([`Store::aggregate_acked`]: every MPDU the receiver holds leaves the window, each
//!   missing one of the A-MPDU counts a retry, CW resets) or missed it
//!   ([`Store::aggregate_failed`]: every MPDU of the A-MPDU counts a retry, CW doubles);
//!   an MPDU at its retry limit (short or long by the A-MPDU's RTS use) is discarded.
//!
//! What is not modelled, and what stands in for it:
//! - ADDBA: the agreement exists from the first frame (no ADDBA Request/Response
//!   exchange; ns-3 sends the first MPDU alone and sets the agreement up then).
//! - BlockAckReq: after a missed BlockAck the sender resends the whole A-MPDU in its next
//!   access (each MPDU counting a retry), and that A-MPDU's BlockAck reports what the
//!   receiver holds (its scoreboard): the implicit request of 10.25.6 instead of a
//!   BlockAckReq frame. When the sender discards an MPDU, the receiver's window moves
//!   past it at once (the effect of the BlockAckReq the sender would send, without its
//!   airtime), releasing what it held behind the gap.
//! - Sequence numbers are not taken modulo 4096 (the window arithmetic is the same).
//! - MPDUs leave the interface queue when they first go out: the window (at most
//!   `ba_window` MPDUs per receiver) comes on top of `mac.queue`.
//! - The spatial medium has no A-MPDU yet (refused when a run would use it).
use super::entity::HeadFrame;
use super::event::MacOutcome;
use super::exchange::{ampdu_times, Ampdu, PPDU_MAX_TIME};
use super::shared::{Exchange, Shared};
use super::store::{ChannelLoss, Store};
use crate::channel::{Channel, FrameKind, Ppdu};
use crate::net::{NodeId, Packet};
use crate::phy::ht::Format;
use crate::phy::{LinkTimes, Phy};
use crate::sim::time::Time;
use std::collections::VecDeque;

/// The largest A-MPDU a PHY carries (802.11-2020 19.3.13.2 HT: 65535 bytes; VHT with the
/// largest Maximum A-MPDU Length Exponent: 2^20 − 1).
pub fn max_ampdu_bytes(format: Format) -> u32 {
    match format {
        Format::Ht => 65_535,
        Format::Vht => 1_048_575,
    }
}

/// The aggregation of a run: the largest A-MPDU (bytes) and the Block Ack window (MPDUs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AggregationConfig {
    pub max_bytes: u32,
    pub window: u32,
}

impl AggregationConfig {
    /// Whether the A-MPDU `a` may go on `link`: within `max_bytes`, aPPDUMaxTime and,
    /// when given, the `budget` its whole exchange may take (the TXOP's time left).
    #[inline]
    fn fits(
        &self,
        phy: &Phy,
        link: &LinkTimes,
        rts_threshold: Option<u32>,
        budget: Option<Time>,
        a: Ampdu,
    ) -> bool {
        a.bytes <= self.max_bytes
            && link.data(phy, a.bytes) <= PPDU_MAX_TIME
            && budget.is_none_or(|b| ampdu_times(phy, link, rts_threshold, a.bytes).end <= b)
    }

    /// The A-MPDU a saturated sender of packets of `ip_bytes` sends on `link` with nothing
    /// to resend and `queued` packets in its queue (what the analytical models read:
    /// `Scenario::timing`).
    pub fn saturated(
        &self,
        phy: &Phy,
        link: &LinkTimes,
        rts_threshold: Option<u32>,
        budget: Option<Time>,
        (ip_bytes, queued): (u32, u32),
    ) -> Ampdu {
        let mut a = Ampdu::default();
        while a.mpdus < self.window.min(queued) {
            let next = a.with(phy, ip_bytes);
            if a.mpdus > 0 && !self.fits(phy, link, rts_threshold, budget, next) {
                break;
            }
            a = next;
        }
        a
    }
}

/// An MPDU sent and not yet acknowledged to its sender.
struct Mpdu {
    packet: Packet,
    seq: u32,
    /// Failed attempts so far.
    retries: u32,
    /// The receiver holds it (it may not know it yet: its BlockAck was lost).
    received: bool,
}

/// A Block Ack session of one entity (one TID) with one receiver: the sender's window and
/// the receiver's reordering buffer.
struct Session {
    to: NodeId,
    next_seq: u32,
    /// Sent and not acknowledged, in sequence order; the current A-MPDU is its first
    /// MPDUs.
    unacked: VecDeque<Mpdu>,
    /// The receiver: the next sequence number it passes up, and the MPDUs it holds from
    /// there on (index: sequence number − `rx_start`; None: not received).
    rx_start: u32,
    held: VecDeque<Option<Packet>>,
}

impl Session {
    fn new(to: NodeId) -> Session {
        Session {
            to,
            next_seq: 0,
            unacked: VecDeque::new(),
            rx_start: 0,
            held: VecDeque::new(),
        }
    }

    /// The sender's window start: the oldest unacknowledged sequence number.
    fn window_start(&self) -> u32 {
        self.unacked.front().map_or(self.next_seq, |m| m.seq)
    }

    /// The receiver passes up, at `at`, what it holds in order from its window start.
    fn release(&mut self, at: Time, outcomes: &mut Vec<MacOutcome>) {
        while let Some(Some(_)) = self.held.front() {
            let packet = self.held.pop_front().flatten().expect("held");
            self.rx_start += 1;
            outcomes.push(MacOutcome::Delivered { packet, at });
        }
    }

    /// The receiver's window moves to the sender's start (past MPDUs the sender
    /// discarded): what it held before it goes up, gaps skipped, then what follows in
    /// order.
    fn catch_up(&mut self, at: Time, outcomes: &mut Vec<MacOutcome>) {
        let start = self.window_start();
        while self.rx_start < start {
            if let Some(Some(packet)) = self.held.pop_front() {
                outcomes.push(MacOutcome::Delivered { packet, at });
            }
            self.rx_start += 1;
        }
        self.release(at, outcomes);
    }
}

/// Every entity's Block Ack sessions.
pub(crate) struct Aggregation {
    config: AggregationConfig,
    /// Per entity: a session per receiver.
    sessions: Vec<Vec<Session>>,
    /// Per entity: the session of its current A-MPDU and how many MPDUs it holds.
    current: Vec<(u32, u32)>,
}

impl Aggregation {
    pub fn new(config: AggregationConfig, entities: usize) -> Aggregation {
        Aggregation {
            config,
            sessions: (0..entities).map(|_| Vec::new()).collect(),
            current: vec![(0, 0); entities],
        }
    }

    /// The current A-MPDU of entity `t`: its session and its MPDUs.
    fn current(&mut self, t: u32) -> (&mut Session, usize) {
        let (s, count) = self.current[t as usize];
        (&mut self.sessions[t as usize][s as usize], count as usize)
    }

    /// Packets in the windows: sent and not received, or received and held behind a gap.
    pub fn in_flight(&self) -> impl Iterator<Item = &Packet> {
        self.sessions.iter().flatten().flat_map(|s| {
            let sent = s.unacked.iter().filter(|m| !m.received).map(|m| &m.packet);
            sent.chain(s.held.iter().flatten())
        })
    }
}

impl Store {
    /// Whether entity `t` sends A-MPDUs (every entity but a Beacon's, when the run
    /// aggregates).
    #[inline]
    pub(super) fn aggregates(&self, t: u32) -> bool {
        self.aggregation.is_some() && self.entities[t as usize].beacon.is_none()
    }

    /// The head of an aggregating entity: the receiver of its next A-MPDU (the session
    /// with MPDUs to resend, else the queue's head) and, until the A-MPDU is formed when
    /// it wins the medium, the exchange of its first MPDU alone.
    pub(super) fn aggregate_head(&self, t: u32) -> Option<HeadFrame> {
        let agg = self.aggregation.as_ref().expect("aggregation");
        let e = &self.entities[t as usize];
        let sessions = &agg.sessions[t as usize];
        let (to, ip_bytes) = sessions
            .iter()
            .find_map(|s| s.unacked.front().map(|m| (s.to, m.packet.ip_bytes())))
            .or_else(|| e.queue.head().map(|p| (p.hop, p.ip_bytes())))?;
        let link = self.link(e.node, to);
        let one = Ampdu::default().with(&self.phy, ip_bytes);
        Some(HeadFrame {
            rate: super::rate::CONFIGURED,
            to,
            times: ampdu_times(&self.phy, link, self.rts_threshold, one.bytes),
            delivered: false,
            broadcast: false,
        })
    }

    /// Entity `t` won the medium: its A-MPDU, whose whole exchange takes at most `budget`
    /// (the TXOP's time left; None: no TXOP limit). At least one MPDU goes.
    pub(super) fn form_aggregate(&mut self, t: u32, budget: Option<Time>) {
        let to = self.entities[t as usize].head.expect("has frame").to;
        let node = self.entities[t as usize].node;
        let link = *self.link(node, to);
        let Store {
            phy,
            entities,
            aggregation,
            outcomes,
            rts_threshold,
            ..
        } = self;
        let agg = aggregation.as_mut().expect("aggregation");
        let e = &mut entities[t as usize];
        let sessions = &mut agg.sessions[t as usize];
        let s = match sessions.iter().position(|s| s.to == to) {
            Some(s) => s,
            None => {
                sessions.push(Session::new(to));
                sessions.len() - 1
            }
        };
        let session = &mut sessions[s];
        let config = agg.config;
        let fits = |a| config.fits(phy, &link, *rts_threshold, budget, a);
        let mut a = Ampdu::default();
        for m in &session.unacked {
            let next = a.with(phy, m.packet.ip_bytes());
            if a.mpdus > 0 && !fits(next) {
                break;
            }
            a = next;
        }
        if a.mpdus as usize == session.unacked.len() {
            let end = session.window_start() + agg.config.window;
            while session.next_seq < end {
                let Some(p) = e.queue.head().filter(|p| p.hop == to) else {
                    break;
                };
                let next = a.with(phy, p.ip_bytes());
                if a.mpdus > 0 && !fits(next) {
                    break;
                }
                a = next;
                let packet = e.queue.pop().expect("queued");
                session.unacked.push_back(Mpdu {
                    packet,
                    seq: session.next_seq,
                    retries: 0,
                    received: false,
                });
                session.next_seq += 1;
                outcomes.push(MacOutcome::Vacated(t));
            }
        }
        agg.current[t as usize] = (s as u32, a.mpdus);
        e.head = Some(HeadFrame {
            rate: super::rate::CONFIGURED,
            to,
            times: ampdu_times(phy, &link, *rts_threshold, a.bytes),
            delivered: false,
            broadcast: false,
        });
    }

    /// Tracing only: per MPDU of entity `t`'s A-MPDU, its attempt at `at` (`failed`:
    /// None), or the A-MPDU's failure (`Some(lost)`: on the channel, or collided).
    pub(super) fn trace_aggregate(&mut self, t: u32, at: Time, failed: Option<bool>) {
        let node = self.entities[t as usize].node;
        let agg = self.aggregation.as_mut().expect("aggregation");
        let (session, count) = agg.current(t);
        for m in session.unacked.iter().take(count) {
            self.outcomes.push(match failed {
                None => MacOutcome::Attempt {
                    node,
                    packet: m.packet,
                    at,
                    retry: m.retries > 0,
                },
                Some(lost) => MacOutcome::Failed {
                    node,
                    packet: m.packet,
                    lost,
                },
            });
        }
    }

    /// The receiver of entity `t`'s A-MPDU decoded the MPDUs of `bitmap` (bit i: the i-th
    /// subframe), whose reception ended at `at`: it keeps the new ones and passes up what
    /// is in order.
    pub(super) fn aggregate_received(&mut self, t: u32, bitmap: u64, at: Time) {
        let agg = self.aggregation.as_mut().expect("aggregation");
        let (session, count) = agg.current(t);
        for i in 0..count {
            let m = &mut session.unacked[i];
            if bitmap >> i & 1 == 0 || m.received {
                continue;
            }
            m.received = true;
            let slot = (m.seq - session.rx_start) as usize;
            if session.held.len() <= slot {
                session.held.resize(slot + 1, None);
            }
            session.held[slot] = Some(m.packet);
        }
        session.release(at, &mut self.outcomes);
    }

    /// Entity `t`'s BlockAck came back (its exchange began at `start`): the MPDUs the
    /// receiver holds leave the window; each of the A-MPDU's missing ones counts a retry.
    pub(super) fn aggregate_acked(&mut self, t: u32, start: Time) {
        self.settle_aggregate(t, start, true);
        self.new_head(t);
    }

    /// Entity `t`'s A-MPDU (sent at `start`) got no BlockAck (lost, collided, or no MPDU
    /// decoded): each of its MPDUs counts a retry; CW doubles, or resets when every MPDU
    /// of it was discarded. `long_frame`: sent after RTS/CTS (the long retry limit).
    pub(super) fn aggregate_failed(&mut self, t: u32, start: Time, long_frame: bool) {
        let discarded_all = self.settle_aggregate(t, start, false);
        let e = &mut self.entities[t as usize];
        let b = &mut e.backoff;
        if discarded_all {
            b.on_success(e.params.cw_min);
        } else {
            if long_frame {
                b.long_retries += 1;
            } else {
                b.short_retries += 1;
            }
            b.on_retry(e.params.cw_max);
        }
        self.new_head(t);
    }

    /// Entity `t`'s window after its A-MPDU's exchange (begun at `start`; `acked`: its
    /// BlockAck came back): the retries counted, the acknowledged and the discarded MPDUs
    /// out, the receiver's window moved past the discarded ones (what it releases then
    /// goes up at the A-MPDU's end). Whether every MPDU of the A-MPDU was discarded.
    fn settle_aggregate(&mut self, t: u32, start: Time, acked: bool) -> bool {
        let e = &mut self.entities[t as usize];
        let times = e.head.expect("has frame").times;
        let (long, at) = (times.rts, start + times.data_end);
        let limit = if long {
            e.params.long_retry_limit
        } else {
            e.params.short_retry_limit
        };
        let (node, stats) = (e.node, &mut e.stats);
        let agg = self.aggregation.as_mut().expect("aggregation");
        let (session, count) = agg.current(t);
        for m in session.unacked.iter_mut().take(count) {
            if !(acked && m.received) {
                m.retries += 1;
            }
        }
        let at_limit = |m: &Mpdu| limit.is_some_and(|l| m.retries >= l);
        let discarded_all = session.unacked.iter().take(count).all(at_limit);
        let mut discarded = false;
        let outcomes = &mut self.outcomes;
        session.unacked.retain(|m| {
            if acked && m.received {
                stats.count_frame(&m.packet);
                return false;
            }
            if !at_limit(m) {
                return true;
            }
            stats.retry_drops += 1;
            discarded = true;
            // A frame the receiver holds is not lost.
            if !m.received {
                let packet = m.packet;
                outcomes.push(MacOutcome::RetryDrop { node, packet });
            }
            false
        });
        if discarded {
            session.catch_up(at, outcomes);
        }
        discarded_all
    }
}

impl Shared {
    /// The exchange of entity `t`'s A-MPDU, alone on the medium from `start` (in a TXOP
    /// that began at `txop_start`): RTS/CTS when it is long enough, each MPDU decided by
    /// its own draw in order, the BlockAck when at least one MPDU was decoded.
    #[inline(never)]
    pub(super) fn aggregate_exchange(
        &self,
        store: &Store,
        t: u32,
        start: Time,
        txop_start: Time,
        channel: &mut Channel,
    ) -> Exchange {
        use crate::phy::frame::{BLOCK_ACK, CTS, RTS};
        let e = &store.entities[t as usize];
        let head = e.head.expect("has frame");
        let (node, to, times) = (e.node, head.to, head.times);
        let link = *store.link(node, to);
        let phy = &store.phy;
        let (delta, sifs) = (phy.propagation_delay, phy.sifs);
        let every = channel.asks_every_frame();
        let control = |rate, bytes| Ppdu {
            rate,
            bytes,
            short_preamble: false,
            ht: None,
        };
        // The frame from `tx` to `rx` sent `offset` into the exchange is lost (a control
        // frame only when the channel asks about every frame).
        let lost = |c: &mut Channel, tx, rx, offset, kind, frame| {
            c.frame_lost(tx, rx, start, kind)
                || every
                    && !c.decodes(
                        tx,
                        rx,
                        start + offset,
                        frame,
                        self.interference(store, rx, start, offset, c),
                    )
        };
        let ended = |loss, end| Exchange {
            start,
            end: start + end,
            data_end: start + times.data_end,
            loss,
            txop_start,
            ..Exchange::default()
        };
        let cts_at = link.rts + delta + sifs;
        let mut data_at = 0;
        if times.rts && every {
            let rts = control(link.rates.rts, RTS);
            if lost(channel, node, to, 0, FrameKind::Control, rts) {
                return ended(ChannelLoss::Rts, times.first_frame + delta);
            }
            let cts = control(link.rates.cts, CTS);
            if lost(channel, to, node, cts_at, FrameKind::Control, cts) {
                return ended(ChannelLoss::Cts, cts_at + link.cts + delta);
            }
        }
        if times.rts {
            data_at = cts_at + link.cts + delta + sifs;
        }
        let agg = store.aggregation.as_ref().expect("aggregation");
        let (s, count) = agg.current[t as usize];
        let session = &agg.sessions[t as usize][s as usize];
        let mut received = 0u64;
        let mut a = Ampdu::default();
        for (i, m) in session.unacked.iter().take(count as usize).enumerate() {
            // The subframe starts after the preamble and the subframes before it.
            let offset = data_at + if i == 0 { 0 } else { link.data(phy, a.bytes) };
            let next = a.with(phy, m.packet.ip_bytes());
            let frame = Ppdu {
                rate: link.rates.data,
                bytes: next.bytes - a.bytes.next_multiple_of(4),
                short_preamble: false,
                ht: link.rates.ht,
            };
            a = next;
            if !lost(channel, node, to, offset, FrameKind::Data, frame) {
                received |= 1 << i;
            }
        }
        if received == 0 {
            return ended(ChannelLoss::Data, times.data_end);
        }
        let ba_at = times.data_end + sifs;
        let ba = control(link.rates.ack, BLOCK_ACK);
        let ba_lost = every && lost(channel, to, node, ba_at, FrameKind::Control, ba);
        let loss = if ba_lost {
            ChannelLoss::Ack
        } else {
            ChannelLoss::None
        };
        Exchange {
            success: !ba_lost,
            received,
            ..ended(loss, times.end)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(seq: u32) -> Packet {
        Packet::udp(0, seq, 1000, 0, 1, 0)
    }

    #[test]
    fn the_receiver_holds_behind_a_gap_until_the_window_moves() {
        let mut s = Session::new(1);
        for seq in 0..3 {
            s.unacked.push_back(Mpdu {
                packet: packet(seq),
                seq,
                retries: 0,
                received: false,
            });
        }
        s.next_seq = 3;
        // MPDU 0 lost, 1 and 2 held.
        s.held.extend([None, Some(packet(1)), Some(packet(2))]);
        let mut out = Vec::new();
        s.release(10, &mut out);
        assert!(out.is_empty(), "a gap holds what follows");
        // The sender discards MPDU 0: the window moves past it.
        s.unacked.clear();
        s.catch_up(20, &mut out);
        let seqs: Vec<u32> = out
            .iter()
            .map(|o| match o {
                MacOutcome::Delivered { packet, .. } => packet.seq,
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(seqs, [1, 2]);
        assert_eq!(s.rx_start, 3);
    }
}
