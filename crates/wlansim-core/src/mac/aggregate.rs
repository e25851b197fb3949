//! A-MPDU with immediate compressed Block Ack, and A-MSDU, on the shared medium
//! (802.11-2020 9.3.2.2.2, 10.12, 10.25; `mac.ampdu_max_bytes`, `mac.ba_window`,
//! `mac.amsdu_max_bytes`).
//!
//! An MPDU carries one packet or, with `amsdu_max_bytes`, an A-MSDU: the packets at the
//! head of the queue to its receiver that fit ([`Msdus`]); it has one error draw, one
//! retry count and one place in the window, and its packets go up together. Without
//! `ampdu_max_bytes` the same sessions carry one MPDU per exchange, acknowledged by an
//! ACK (a window of 1).
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
//! - after a missed BlockAck (lost, collided, or nothing decoded) the sender's next
//!   channel access, after its backoff, is a BlockAckReq (10.25.6; as ns-3's
//!   `UseExplicitBarAfterMissedBlockAck`): 24 bytes at the control-response rate, the
//!   receiver's compressed BlockAck SIFS later with what it holds; the MPDUs it reports
//!   leave the window and CW resets (no retry counted: the A-MPDU counted them); only
//!   the others are sent again, in the access after. A BlockAckReq without its BlockAck
//!   (lost, collided) counts a retry on every MPDU of the window and doubles CW, and the
//!   next access asks again, until those MPDUs are acknowledged or discarded.
//!
//! What is not modelled, and what stands in for it:
//! - ADDBA: the agreement exists from the first frame (no ADDBA Request/Response
//!   exchange; ns-3 sends the first MPDU alone and sets the agreement up then).
//! - When the sender discards an MPDU, the receiver's window moves past it at once (the
//!   effect of the BlockAckReq the sender would send, without its airtime), releasing
//!   what it held behind the gap.
//! - Sequence numbers are not taken modulo 4096 (the window arithmetic is the same).
//! - MPDUs leave the interface queue when they first go out: the window (at most
//!   `ba_window` MPDUs per receiver) comes on top of `mac.queue`.
//! - The spatial medium has no A-MPDU yet (refused when a run would use it).
use super::entity::HeadFrame;
use super::event::MacOutcome;
use super::exchange::{ampdu_times, Ampdu, ExchangeTimes, Msdus, PPDU_MAX_TIME};
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

/// The largest A-MSDU a PHY's MPDU carries (802.11-2020 9.4.2.55.2 HT Capabilities:
/// 7935 bytes; 9.4.2.157.2 VHT: an MPDU of at most 11454 bytes, whose A-MSDU is as long).
pub fn max_amsdu_bytes(format: Format) -> u32 {
    match format {
        Format::Ht => 7_935,
        Format::Vht => 11_454,
    }
}

/// The largest A-MSDU an HT PHY's MPDU carries inside an A-MPDU: the delimiter's 12-bit
/// length field holds an MPDU of at most 4095 bytes (10.12.2), 30 of them the QoS data
/// header and FCS.
pub const HT_AMSDU_IN_AMPDU_BYTES: u32 = 4_065;

/// The aggregation of a run: the largest A-MPDU (bytes; 0: MPDUs go alone, each
/// acknowledged by an ACK), the Block Ack window (MPDUs; 1 without A-MPDU) and the
/// largest A-MSDU (bytes; 0: one MSDU per MPDU).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AggregationConfig {
    pub max_bytes: u32,
    pub window: u32,
    pub amsdu_bytes: u32,
}

impl AggregationConfig {
    /// The run sends A-MPDUs (BlockAcks answer them); otherwise A-MSDUs go as single MPDUs.
    #[inline]
    pub fn ampdu(&self) -> bool {
        self.max_bytes > 0
    }

    /// The exchange of the PSDU that carries `a` on `link`.
    #[inline]
    pub fn times(
        &self,
        phy: &Phy,
        link: &LinkTimes,
        rts_threshold: Option<u32>,
        a: Ampdu,
    ) -> ExchangeTimes {
        let ampdu = self.ampdu();
        ampdu_times(phy, link, rts_threshold, a.psdu(phy, ampdu), ampdu)
    }

    /// Whether the A-MPDU `a` may go on `link`: within `max_bytes` (one MPDU without
    /// A-MPDU), aPPDUMaxTime and, when given, the `budget` its whole exchange may take
    /// (the TXOP's time left).
    #[inline]
    fn fits(
        &self,
        phy: &Phy,
        link: &LinkTimes,
        rts_threshold: Option<u32>,
        budget: Option<Time>,
        a: Ampdu,
    ) -> bool {
        let within = if self.ampdu() {
            a.bytes <= self.max_bytes
        } else {
            a.mpdus <= 1
        };
        within
            && link.data(phy, a.psdu(phy, self.ampdu())) <= PPDU_MAX_TIME
            && budget.is_none_or(|b| self.times(phy, link, rts_threshold, a).end <= b)
    }

    /// Whether the A-MSDU `body` may go in an MPDU: one MSDU always does (without
    /// subframe header), more within `amsdu_bytes`.
    #[inline]
    fn amsdu_fits(&self, body: Msdus) -> bool {
        body.amsdu_bytes() <= self.amsdu_bytes
    }

    /// The A-MPDU a saturated sender of packets of `ip_bytes` sends on `link` with nothing
    /// to resend and `queued` packets in its queue, and the MSDUs in each of its MPDUs
    /// (what the analytical models read: `Scenario::timing`).
    pub fn saturated(
        &self,
        phy: &Phy,
        link: &LinkTimes,
        rts_threshold: Option<u32>,
        budget: Option<Time>,
        (ip_bytes, mut queued): (u32, u32),
    ) -> (Ampdu, Msdus) {
        let mut body = Msdus::default().with(ip_bytes);
        while body.count < queued {
            let next = body.with(ip_bytes);
            let one = Ampdu::default().with_mpdu(phy, next);
            if !self.amsdu_fits(next) || !self.fits(phy, link, rts_threshold, budget, one) {
                break;
            }
            body = next;
        }
        let mut a = Ampdu::default();
        while a.mpdus < self.window && queued >= body.count {
            let next = a.with_mpdu(phy, body);
            if a.mpdus > 0 && !self.fits(phy, link, rts_threshold, budget, next) {
                break;
            }
            a = next;
            queued -= body.count;
        }
        (a, body)
    }
}

/// The MSDUs an MPDU carries: one, or an A-MSDU's, in order.
#[derive(Clone, Debug)]
struct Carried {
    first: Packet,
    more: Vec<Packet>,
}

impl Carried {
    fn iter(&self) -> impl Iterator<Item = &Packet> + Clone {
        std::iter::once(&self.first).chain(&self.more)
    }
}

/// An MPDU sent and not yet acknowledged to its sender.
struct Mpdu {
    msdus: Carried,
    /// Its body's bytes.
    body: Msdus,
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
    held: VecDeque<Option<Carried>>,
    /// The sender missed the BlockAck of its last A-MPDU: its next exchange on this
    /// session is a BlockAckReq (and the current one, once formed).
    bar: bool,
}

impl Session {
    fn new(to: NodeId) -> Session {
        Session {
            to,
            next_seq: 0,
            unacked: VecDeque::new(),
            rx_start: 0,
            held: VecDeque::new(),
            bar: false,
        }
    }

    /// The sender's window start: the oldest unacknowledged sequence number.
    fn window_start(&self) -> u32 {
        self.unacked.front().map_or(self.next_seq, |m| m.seq)
    }

    /// The receiver passes up, at `at`, what it holds in order from its window start.
    fn release(&mut self, at: Time, outcomes: &mut Vec<MacOutcome>) {
        while let Some(Some(_)) = self.held.front() {
            let msdus = self.held.pop_front().flatten().expect("held");
            self.rx_start += 1;
            deliver(&msdus, at, outcomes);
        }
    }

    /// The receiver's window moves to the sender's start (past MPDUs the sender
    /// discarded): what it held before it goes up, gaps skipped, then what follows in
    /// order.
    fn catch_up(&mut self, at: Time, outcomes: &mut Vec<MacOutcome>) {
        let start = self.window_start();
        while self.rx_start < start {
            if let Some(Some(msdus)) = self.held.pop_front() {
                deliver(&msdus, at, outcomes);
            }
            self.rx_start += 1;
        }
        self.release(at, outcomes);
    }
}

/// The MSDUs of an MPDU go up, in order, at `at`.
fn deliver(msdus: &Carried, at: Time, outcomes: &mut Vec<MacOutcome>) {
    for &packet in msdus.iter() {
        outcomes.push(MacOutcome::Delivered { packet, at });
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
            let sent = s.unacked.iter().filter(|m| !m.received);
            let sent = sent.flat_map(|m| m.msdus.iter());
            sent.chain(s.held.iter().flatten().flat_map(Carried::iter))
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
        let (to, body) = sessions
            .iter()
            .find_map(|s| s.unacked.front().map(|m| (s.to, m.body)))
            .or_else(|| {
                let p = e.queue.head()?;
                Some((p.hop, Msdus::default().with(p.ip_bytes())))
            })?;
        let link = self.link(e.node, to);
        let one = Ampdu::default().with_mpdu(&self.phy, body);
        Some(HeadFrame {
            rate: super::rate::CONFIGURED,
            to,
            times: agg.config.times(&self.phy, link, self.rts_threshold, one),
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
        if session.bar {
            // A BlockAckReq about every MPDU sent and not acknowledged.
            agg.current[t as usize] = (s as u32, session.unacked.len() as u32);
            e.head = Some(HeadFrame {
                to,
                times: bar_times(phy, &link),
                delivered: false,
                broadcast: false,
                rate: super::rate::CONFIGURED,
            });
            return;
        }
        let config = agg.config;
        let fits = |a| config.fits(phy, &link, *rts_threshold, budget, a);
        let mut a = Ampdu::default();
        for m in &session.unacked {
            let next = a.with_mpdu(phy, m.body);
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
                let mut body = Msdus::default().with(p.ip_bytes());
                if a.mpdus > 0 && !fits(a.with_mpdu(phy, body)) {
                    break;
                }
                let first = e.queue.pop().expect("queued");
                outcomes.push(MacOutcome::Vacated(t));
                // An A-MSDU: the packets behind it to the same receiver while it fits.
                let mut more = Vec::new();
                while let Some(q) = e.queue.head().filter(|q| q.hop == to) {
                    let next = body.with(q.ip_bytes());
                    if !config.amsdu_fits(next) || !fits(a.with_mpdu(phy, next)) {
                        break;
                    }
                    body = next;
                    more.push(e.queue.pop().expect("queued"));
                    outcomes.push(MacOutcome::Vacated(t));
                }
                a = a.with_mpdu(phy, body);
                session.unacked.push_back(Mpdu {
                    msdus: Carried { first, more },
                    body,
                    seq: session.next_seq,
                    retries: 0,
                    received: false,
                });
                session.next_seq += 1;
            }
        }
        agg.current[t as usize] = (s as u32, a.mpdus);
        e.head = Some(HeadFrame {
            rate: super::rate::CONFIGURED,
            to,
            times: config.times(phy, &link, *rts_threshold, a),
            delivered: false,
            broadcast: false,
        });
    }

    /// Tracing only, at the end of entity `t`'s exchange that began at `start` (after
    /// [`Store::aggregate_received`], before the window settles): each subframe of its
    /// A-MPDU as sent (`received`: the subframes its receiver decoded; 0 when it
    /// collided), and the receiver's BlockAck when it sent one (`block_ack`: whether the
    /// channel lost it), with the receiver's scoreboard from the window's start.
    #[inline(never)]
    pub(super) fn trace_ampdu(
        &mut self,
        t: u32,
        start: Time,
        received: u64,
        block_ack: Option<bool>,
    ) {
        let e = &self.entities[t as usize];
        let (node, head) = (e.node, e.head.expect("has frame"));
        let link = *self.link(node, head.to);
        let phy = &self.phy;
        let data_at = start + data_offset(phy, &link, head.times.rts);
        let agg = self.aggregation.as_mut().expect("aggregation");
        let ampdu = agg.config.ampdu();
        let (session, count) = agg.current(t);
        let ssn = session.window_start();
        let rate = link.rates.ack;
        if session.bar {
            self.outcomes.push(MacOutcome::BlockAck {
                node,
                to: head.to,
                at: start,
                rate,
                ssn,
                bitmap: None,
                lost: block_ack.is_none(),
            });
        }
        let count = if session.bar { 0 } else { count };
        let mpdus = session.unacked.iter().take(count);
        let offsets = subframes(phy, &link, ampdu, mpdus.clone().map(|m| m.body));
        for (index, (m, (offset, _))) in mpdus.zip(offsets).enumerate() {
            for &packet in m.msdus.iter() {
                self.outcomes.push(MacOutcome::Subframe {
                    node,
                    packet,
                    at: data_at + offset,
                    retry: m.retries > 0,
                    seq: m.seq,
                    index: index as u32,
                    last: index + 1 == count,
                    decoded: received >> index & 1 == 1,
                });
            }
        }
        // An MPDU sent alone is acknowledged by an ACK (not captured, as elsewhere).
        if let Some(lost) = block_ack.filter(|_| ampdu) {
            let bitmap = session
                .unacked
                .iter()
                .filter(|m| m.received)
                .fold(0u64, |b, m| b | 1 << (m.seq - ssn));
            self.outcomes.push(MacOutcome::BlockAck {
                node: head.to,
                to: node,
                at: start + head.times.data_end + phy.sifs,
                rate,
                ssn,
                bitmap: Some(bitmap),
                lost,
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
            session.held[slot] = Some(m.msdus.clone());
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
        let ampdu = agg.config.ampdu();
        let (session, count) = agg.current(t);
        // A BlockAckReq's BlockAck counts no retry: the A-MPDU whose BlockAck was missed
        // counted them.
        let bar = std::mem::take(&mut session.bar);
        for m in session.unacked.iter_mut().take(count) {
            if !(acked && (m.received || bar)) {
                m.retries += 1;
            }
        }
        let at_limit = |m: &Mpdu| limit.is_some_and(|l| m.retries >= l);
        let discarded_all = session.unacked.iter().take(count).all(at_limit);
        let mut discarded = false;
        let outcomes = &mut self.outcomes;
        session.unacked.retain(|m| {
            if acked && m.received {
                m.msdus.iter().for_each(|p| stats.count_frame(p));
                return false;
            }
            if !at_limit(m) {
                return true;
            }
            stats.retry_drops += m.body.count as u64;
            discarded = true;
            // A frame the receiver holds is not lost.
            if !m.received {
                for &packet in m.msdus.iter() {
                    outcomes.push(MacOutcome::RetryDrop { node, packet });
                }
            }
            false
        });
        if discarded {
            session.catch_up(at, outcomes);
        }
        // A missed BlockAck: a BlockAckReq asks what the receiver holds (an MPDU sent
        // alone is retried on its own).
        session.bar = ampdu && !acked && !session.unacked.is_empty();
        discarded_all
    }
}

/// The exchange of a BlockAckReq on `link`: the request, SIFS, the BlockAck; neither at
/// risk of a collision beyond the request's length.
fn bar_times(phy: &Phy, link: &LinkTimes) -> ExchangeTimes {
    let delta = phy.propagation_delay;
    let data_end = link.block_ack_req + delta;
    ExchangeTimes {
        rts: false,
        first_frame: link.block_ack_req,
        data_end,
        end: data_end + phy.sifs + link.block_ack + delta,
    }
}

/// When the A-MPDU starts in its exchange: at once, or after RTS/CTS (`rts`).
#[inline]
fn data_offset(phy: &Phy, link: &LinkTimes, rts: bool) -> Time {
    let gap = phy.propagation_delay + phy.sifs;
    if rts {
        link.rts + gap + link.cts + gap
    } else {
        0
    }
}

/// Per subframe of an A-MPDU (`ampdu`; else the one MPDU sent alone) of MPDUs with the
/// bodies `bodies` on `link`: when it starts after the PSDU's start (the preamble, then
/// the subframes before it), and its bytes (delimiter and MPDU; the padding goes to the
/// next).
fn subframes<'a>(
    phy: &'a Phy,
    link: &'a LinkTimes,
    ampdu: bool,
    bodies: impl Iterator<Item = Msdus> + 'a,
) -> impl Iterator<Item = (Time, u32)> + 'a {
    let mut a = Ampdu::default();
    bodies.map(move |body| {
        let offset = if a.mpdus == 0 {
            0
        } else {
            link.data(phy, a.bytes)
        };
        let next = a.with_mpdu(phy, body);
        let bytes = next.psdu(phy, ampdu) - a.bytes.next_multiple_of(4);
        a = next;
        (offset, bytes)
    })
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
        use crate::phy::frame::{ACK, BLOCK_ACK, BLOCK_ACK_REQ, CTS, RTS};
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
        let data_at = data_offset(phy, &link, times.rts);
        let agg = store.aggregation.as_ref().expect("aggregation");
        let (s, count) = agg.current[t as usize];
        let session = &agg.sessions[t as usize][s as usize];
        let ampdu = agg.config.ampdu();
        // The receiver's answer (`bytes`) SIFS after the request or the data, which gave
        // it the MPDUs of `received`.
        let answer = |c: &mut Channel, received, bytes| {
            let frame = control(link.rates.ack, bytes);
            let ba_at = times.data_end + sifs;
            let lost = every && lost(c, to, node, ba_at, FrameKind::Control, frame);
            let loss = if lost {
                ChannelLoss::Ack
            } else {
                ChannelLoss::None
            };
            Exchange {
                success: !lost,
                received,
                ..ended(loss, times.end)
            }
        };
        if session.bar {
            let bar = control(link.rates.ack, BLOCK_ACK_REQ);
            if every && lost(channel, node, to, 0, FrameKind::Control, bar) {
                return ended(ChannelLoss::Data, times.data_end);
            }
            return answer(channel, 0, BLOCK_ACK);
        }
        let bodies = session.unacked.iter().take(count as usize).map(|m| m.body);
        let mut received = 0u64;
        for (i, (offset, bytes)) in subframes(phy, &link, ampdu, bodies).enumerate() {
            let frame = Ppdu {
                rate: link.rates.data,
                bytes,
                short_preamble: false,
                ht: link.rates.ht,
            };
            if !lost(channel, node, to, data_at + offset, FrameKind::Data, frame) {
                received |= 1 << i;
            }
        }
        if received == 0 {
            return ended(ChannelLoss::Data, times.data_end);
        }
        answer(channel, received, if ampdu { BLOCK_ACK } else { ACK })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(seq: u32) -> Carried {
        Carried {
            first: packet(seq),
            more: Vec::new(),
        }
    }

    fn packet(seq: u32) -> Packet {
        Packet::udp(0, seq, 1000, 0, 1, 0)
    }

    #[test]
    fn the_receiver_holds_behind_a_gap_until_the_window_moves() {
        let mut s = Session::new(1);
        for seq in 0..3 {
            s.unacked.push_back(Mpdu {
                msdus: one(seq),
                body: Msdus::default().with(1028),
                seq,
                retries: 0,
                received: false,
            });
        }
        s.next_seq = 3;
        // MPDU 0 lost, 1 and 2 held.
        s.held.extend([None, Some(one(1)), Some(one(2))]);
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
