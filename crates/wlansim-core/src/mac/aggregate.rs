//! A-MPDU with immediate compressed Block Ack, and A-MSDU, on the shared medium
//! (802.11-2020 9.3.2.2.2, 10.12, 10.25; `mac.ampdu_max_bytes`, `mac.ba_window`,
//! `mac.amsdu_max_bytes`).
//!
//! An MPDU carries one packet or, with `amsdu_max_bytes`, an A-MSDU: the next queued
//! packets to its receiver that fit ([`Msdus`]); it has one error draw, one
//! retry count and one place in the window, and its packets go up together. Without
//! `ampdu_max_bytes` the same sessions carry one MPDU per exchange, acknowledged by an
//! ACK (a window of 1).
//!
//! Each entity (one TID: its access category) keeps a Block Ack session per receiver:
//! the MPDUs it sent that the receiver has not acknowledged, each with its sequence
//! number and retry count, and on the receiver's side the reordering buffer that passes
//! MSDUs up in sequence order. One channel access sends one A-MPDU:
//! - it is formed when the entity wins the medium (`Store::form_aggregate`, `mac/store/aggregate.rs`): the
//!   session with MPDUs to resend first, their retransmissions first, then the queued
//!   packets to the same receiver in queue order, wherever they stand (packets to other
//!   receivers stay where they are: an AP's download segments and upload TCP ACKs
//!   interleave in its queue; ns-3 and Linux mac80211 take every queued MPDU of the
//!   receiver and TID alike), up to the Block Ack
//!   window (sequence numbers below the oldest unacknowledged one + `ba_window`),
//!   `ampdu_max_bytes`, aPPDUMaxTime and the TXOP limit; its airtime counts each
//!   subframe's delimiter and padding (`mac/exchange.rs` [`Ampdu`]);
//! - the channel decides each MPDU by its own draw, in order
//!   (`Shared::aggregate_exchange`, `mac/shared/aggregate.rs`); the receiver answers SIFS after the A-MPDU with a
//!   compressed BlockAck when it decoded at least one MPDU; the exchange's received
//!   MPDUs travel as a bitmap (a window is at most 64 MPDUs);
//! - at the exchange's end the receiver keeps what it decoded (`Store::aggregate_received`)
//!   and passes up what is in order; then the sender learns the BlockAck
//!   (`Store::aggregate_acked`: every MPDU the receiver holds leaves the window, each
//!   missing one of the A-MPDU counts a retry, CW resets) or missed it
//!   (`Store::aggregate_failed`: every MPDU of the A-MPDU counts a retry, CW doubles);
//!   an MPDU at its retry limit (short or long by the A-MPDU's RTS use) is discarded.
//! - after a missed BlockAck (lost, collided, or nothing decoded) the sender's next
//!   channel access, after its backoff, is a BlockAckReq (10.25.6; as ns-3's
//!   `UseExplicitBarAfterMissedBlockAck`): 24 bytes at the control-response rate, the
//!   receiver's compressed BlockAck SIFS later with what it holds; the MPDUs it reports
//!   leave the window and CW resets (no retry counted: the A-MPDU counted them); only
//!   the others are sent again, in the access after. A BlockAckReq without its BlockAck
//!   (lost, collided) counts a retry on every MPDU of the window and doubles CW, and the
//!   next access asks again, until those MPDUs are acknowledged or discarded.
//! - an MPDU that goes alone under its agreement (nothing else to its receiver queued,
//!   in the window or fitting) is an A-MPDU of one answered by a BlockAck, or under
//!   `mac.single_mpdu_ack = "normal_ack"` ([`SingleMpduAck::NormalAck`], the ns3
//!   profile's default: ns-3.37's `WifiDefaultAckManager::TryAddMpdu`) an MPDU not
//!   aggregated (802.11n: no delimiter; 802.11ac: an S-MPDU) with the Normal Ack policy,
//!   answered by an ACK; without its ACK it counts a retry, CW doubles and it goes again,
//!   with no BlockAckReq (ns-3.37's `FrameExchangeManager::NormalAckTimeout`,
//!   `HtFrameExchangeManager::RetransmitMpduAfterMissedAck`); its recipient keeps it in
//!   its reordering buffer as any MPDU of the agreement
//!   ([`AggregationConfig::block_acked`], applied in `Store::form_aggregate`). Under
//!   `mac.single_mpdu_retry_limit` (the ns3 profile's default: 7) an MPDU sent alone with
//!   a Normal Ack is discarded when its ACK is missed and the entity's missed responses
//!   in a row, which every exchange's missed BlockAck, ACK or CTS counts and no BlockAck
//!   clears, reach the limit (ns-3.37's station SSRC: [`Aggregation::missed_in_a_row`]).
//!
//! - each session's Block Ack agreement is set up by ADDBA first (`mac/agreement.rs`,
//!   which also says what of it is not modelled).
//!
//! What is not modelled, and what stands in for it:
//! - When the sender discards an MPDU at its retry limit, the receiver's window moves past
//!   it at once (the effect of the BlockAckReq the sender would send, without its
//!   airtime), releasing what it held behind the gap. One discarded for its lifetime
//!   (`mac/lifetime.rs`) is told by a BlockAckReq that goes on the air.
//! - Sequence numbers are not taken modulo 4096 (the window arithmetic is the same).
//! - MPDUs leave the interface queue when they first go out: the window (at most
//!   `ba_window` MPDUs per receiver) comes on top of `mac.queue`, unless
//!   `mac.queue_counts_in_flight` (the ns3 profile's default) counts them against it
//!   until they leave the window, acknowledged or discarded, as ns-3.37's queue keeps
//!   them (the MPDU keeps its place, `TxQueue::hold_place`, when the store forms the
//!   A-MPDU; a saturated source's queue is refilled as they leave).
//! - The spatial medium has no A-MPDU yet (refused when a run would use it).
use super::agreement::{self, Action, Agreement, Response, ADDBA_FRAME};
use super::event::MacOutcome;
use super::exchange::{ampdu_times, ppdu, Ampdu, ExchangeTimes, Msdus, PPDU_MAX_TIME};
use crate::channel::Ppdu;
use crate::net::{NodeId, Packet};
use crate::phy::frame::{ACK, BLOCK_ACK, BLOCK_ACK_REQ};
use crate::phy::ht::Format;
use crate::phy::{LinkTimes, Phy};
use crate::sim::time::Time;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
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

/// How an MPDU that goes alone under a Block Ack agreement (nothing else to its receiver
/// fits or is queued) is sent and acknowledged (`mac.single_mpdu_ack`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SingleMpduAck {
    /// As an A-MPDU of one (802.11ac: an S-MPDU), Implicit Block Ack Request policy,
    /// answered by a compressed BlockAck.
    #[default]
    BlockAck,
    /// ns-3.37's: not aggregated (802.11n: a plain MPDU, no delimiter; 802.11ac: an
    /// S-MPDU), Normal Ack policy, answered by an ACK; a missed ACK resends the MPDU
    /// (no BlockAckReq). ns-3.37's `WifiDefaultAckManager::TryAddMpdu` picks it for an
    /// MPDU that starts the Block Ack window, which in wlansim a lone MPDU always does
    /// (the oldest MPDU not acknowledged goes first).
    NormalAck,
}

/// The aggregation of a run: the largest A-MPDU (bytes; 0: MPDUs go alone, each
/// acknowledged by an ACK), the Block Ack window (MPDUs; 1 without A-MPDU), the
/// largest A-MSDU (bytes; 0: one MSDU per MPDU), when a recipient passes up what it
/// decoded (`mac/delivery.rs`), how a lone MPDU under an agreement is acknowledged,
/// whether the MPDUs in flight count against their entity's queue
/// (`mac.queue_counts_in_flight`), and the retry limit of an MPDU sent alone with a
/// Normal Ack ([`Aggregation::missed_in_a_row`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AggregationConfig {
    pub max_bytes: u32,
    pub window: u32,
    pub amsdu_bytes: u32,
    pub delivery: super::Delivery,
    pub queue_counts_in_flight: bool,
    pub single_ack: SingleMpduAck,
    /// `mac.single_mpdu_retry_limit`: the entity's missed responses in a row at which an
    /// MPDU sent alone with a Normal Ack is discarded ([`Aggregation::missed_in_a_row`]).
    pub single_retry_limit: Option<u32>,
}

impl AggregationConfig {
    /// The run sends A-MPDUs (BlockAcks answer them); otherwise A-MSDUs go as single MPDUs.
    #[inline]
    pub fn ampdu(&self) -> bool {
        self.max_bytes > 0
    }

    /// Whether a PSDU of `mpdus` MPDUs to a receiver with which the sender has its Block
    /// Ack agreement (`agreement`) is an A-MPDU answered by a BlockAck; else it is sent
    /// as one MPDU answered by an ACK (without the agreement, or under
    /// [`SingleMpduAck::NormalAck`] when it carries one MPDU).
    #[inline]
    pub fn block_acked(&self, agreement: bool, mpdus: u32) -> bool {
        agreement && !(mpdus == 1 && self.single_ack == SingleMpduAck::NormalAck)
    }

    /// The exchange of the PSDU that carries `a` on `link`: an A-MPDU answered by a
    /// BlockAck (`ampdu`: the run sends A-MPDUs and the session has its agreement), else
    /// one MPDU answered by an ACK.
    #[inline]
    pub fn times(
        phy: &Phy,
        link: &LinkTimes,
        rts_threshold: Option<u32>,
        a: Ampdu,
        ampdu: bool,
    ) -> ExchangeTimes {
        ampdu_times(phy, link, rts_threshold, a.psdu(phy, ampdu), ampdu)
    }

    /// Whether the A-MPDU `a` may go on `link`: within `max_bytes` (one MPDU without
    /// A-MPDU, or without its agreement: `ampdu` false), aPPDUMaxTime and, when given,
    /// the `budget` its whole exchange may take (the TXOP's time left).
    #[inline]
    pub(super) fn fits(
        &self,
        phy: &Phy,
        link: &LinkTimes,
        rts_threshold: Option<u32>,
        budget: Option<Time>,
        (a, ampdu): (Ampdu, bool),
    ) -> bool {
        let within = if ampdu {
            a.bytes <= self.max_bytes
        } else {
            a.mpdus <= 1
        };
        within
            && link.data(phy, a.psdu(phy, ampdu)) <= PPDU_MAX_TIME
            && budget.is_none_or(|b| Self::times(phy, link, rts_threshold, a, ampdu).end <= b)
    }

    /// Whether the A-MSDU `body` may go in an MPDU: one MSDU always does (without
    /// subframe header), more within `amsdu_bytes`.
    #[inline]
    pub(super) fn amsdu_fits(&self, body: Msdus) -> bool {
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
            let ampdu = self.ampdu();
            if !self.amsdu_fits(next) || !self.fits(phy, link, rts_threshold, budget, (one, ampdu))
            {
                break;
            }
            body = next;
        }
        let mut a = Ampdu::default();
        while a.mpdus < self.window && queued >= body.count {
            let next = a.with_mpdu(phy, body);
            if a.mpdus > 0 && !self.fits(phy, link, rts_threshold, budget, (next, self.ampdu())) {
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
pub(super) struct Carried {
    pub(super) first: Packet,
    pub(super) more: Vec<Packet>,
}

impl Carried {
    pub(super) fn iter(&self) -> impl Iterator<Item = &Packet> + Clone {
        std::iter::once(&self.first).chain(&self.more)
    }
}

/// An MPDU sent and not yet acknowledged to its sender.
pub(super) struct Mpdu {
    pub(super) msdus: Carried,
    /// Its body's bytes.
    pub(super) body: Msdus,
    pub(super) seq: u32,
    /// Failed attempts so far.
    pub(super) retries: u32,
    /// When its (first) MSDU was queued: its lifetime counts from then.
    pub(super) queued: Time,
    /// The receiver holds it (it may not know it yet: its BlockAck was lost).
    pub(super) received: bool,
}

/// A Block Ack session of one entity (one TID) with one receiver: the sender's window and
/// the receiver's reordering buffer.
pub(super) struct Session {
    pub(super) to: NodeId,
    pub(super) next_seq: u32,
    /// Sent and not acknowledged, in sequence order; the current A-MPDU is its first
    /// MPDUs.
    pub(super) unacked: VecDeque<Mpdu>,
    /// The receiver: the next sequence number it passes up, and the MPDUs it holds from
    /// there on (index: sequence number − `rx_start`; None: not received).
    pub(super) rx_start: u32,
    pub(super) held: VecDeque<Option<Carried>>,
    /// The sender missed the BlockAck of its last A-MPDU, or discarded MPDUs it sent: its
    /// next exchange on this session is a BlockAckReq (and the current one, once formed).
    pub(super) bar: bool,
    /// The sender discarded MPDUs it had sent when their lifetime passed and the
    /// recipient has not been told: BlockAckReqs go until one's BlockAck comes back.
    pub(super) discarded: bool,
    pub(super) agreement: Agreement,
}

impl Session {
    pub(super) fn new(to: NodeId) -> Session {
        Session {
            to,
            next_seq: 0,
            unacked: VecDeque::new(),
            rx_start: 0,
            held: VecDeque::new(),
            bar: false,
            discarded: false,
            agreement: Agreement::None,
        }
    }

    /// Its MPDUs go in A-MPDUs answered by BlockAcks: the agreement exists.
    #[inline]
    pub(super) fn block_ack(&self) -> bool {
        self.agreement == Agreement::Established
    }

    /// Its MPDUs wait: an ADDBA Request is on its way, or its Response is awaited.
    #[inline]
    pub(super) fn waits(&self) -> bool {
        matches!(
            self.agreement,
            Agreement::Requesting { .. } | Agreement::Awaiting { .. }
        )
    }

    /// The index of the session with `to` in `sessions`, a new one if there is none.
    pub(super) fn of(sessions: &mut Vec<Session>, to: NodeId) -> usize {
        sessions.iter().position(|s| s.to == to).unwrap_or_else(|| {
            sessions.push(Session::new(to));
            sessions.len() - 1
        })
    }

    /// The sender's window start: the oldest unacknowledged sequence number.
    pub(super) fn window_start(&self) -> u32 {
        self.unacked.front().map_or(self.next_seq, |m| m.seq)
    }

    /// The receiver passes up, at `at`, what it holds in order from its window start.
    pub(super) fn release(&mut self, at: Time, outcomes: &mut Vec<MacOutcome>) {
        while let Some(Some(_)) = self.held.front() {
            let msdus = self.held.pop_front().flatten().expect("held");
            self.rx_start += 1;
            deliver(&msdus, at, outcomes);
        }
    }

    /// The receiver's window moves to the sender's start (past MPDUs the sender
    /// discarded): what it held before it goes up, gaps skipped, then what follows in
    /// order.
    pub(super) fn catch_up(&mut self, at: Time, outcomes: &mut Vec<MacOutcome>) {
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
pub(super) fn deliver(msdus: &Carried, at: Time, outcomes: &mut Vec<MacOutcome>) {
    for &packet in msdus.iter() {
        outcomes.push(MacOutcome::Delivered { packet, at });
    }
}

/// Every entity's Block Ack sessions.
pub(crate) struct Aggregation {
    pub(super) config: AggregationConfig,
    /// Per entity: a session per receiver.
    pub(super) sessions: Vec<Vec<Session>>,
    /// Per entity: the session of its current A-MPDU, how many MPDUs it holds, and
    /// whether a BlockAck answers it (else an ACK: one MPDU without A-MPDU or without
    /// its agreement, or alone under [`SingleMpduAck::NormalAck`]).
    pub(super) current: Vec<(u32, u32, bool)>,
    /// Per entity: the ADDBA frame its current exchange sends, if it sends one.
    pub(super) action: Vec<Option<Action>>,
    /// Per entity: the ADDBA Responses it owes, oldest first.
    pub(super) responses: Vec<Vec<Response>>,
    /// Entities whose sessions may send again from a time on (a Response arrived or is
    /// owed, or a Response's wait ended): the medium works their head out again then
    /// (`Shared::exchange_done`, [`crate::mac::Mac::wake`]).
    pub(super) wakes: Vec<(Time, u32)>,
    /// Per entity: its missed responses in a row under `mac.single_mpdu_retry_limit`
    /// ([`Aggregation::missed_in_a_row`]).
    missed: Vec<u32>,
}

/// How an entity's exchange ended, for ns-3.37's station retry count
/// ([`Aggregation::missed_in_a_row`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Answer {
    /// An ACK (to an MPDU sent alone or an ADDBA frame) or a CTS came back.
    AckOrCts,
    /// A BlockAck came back.
    BlockAck,
    /// Nothing came back (a missed ACK, BlockAck or CTS).
    Missed,
}

impl Aggregation {
    pub fn new(config: AggregationConfig, entities: usize) -> Aggregation {
        Aggregation {
            config,
            sessions: (0..entities).map(|_| Vec::new()).collect(),
            current: vec![(0, 0, false); entities],
            action: vec![None; entities],
            responses: (0..entities).map(|_| Vec::new()).collect(),
            wakes: Vec::new(),
            missed: vec![0; entities],
        }
    }

    /// ns-3.37's retry limit on an MPDU sent alone with a Normal Ack
    /// (`mac.single_mpdu_retry_limit`): entity `t`'s exchange on the air ended with
    /// `answer` (an RTS answered by its CTS first counts as [`Answer::AckOrCts`]).
    /// Whether an MPDU it sent alone with a Normal Ack and whose ACK it missed is now
    /// discarded: its count of missed responses in a row reached the limit. ns-3.37 keeps
    /// one count per station manager and AC (its SSRC: `ReportDataFailed`, `ReportRtsFailed`
    /// add one, `ReportDataOk`, `ReportRtsOk`, `ReportFinalDataFailed` clear it;
    /// src/wifi/model/wifi-remote-station-manager.cc:914-1025), and a missed BlockAck
    /// counts too (`HtFrameExchangeManager::BlockAckTimeout`,
    /// ht/ht-frame-exchange-manager.cc:1193) while a BlockAck received clears nothing
    /// (`ReportAmpduTxStatus`, :1041-1065); it compares the count with `MaxSsrc` for an
    /// MPDU whose ACK was missed (`NeedRetransmission`, :1182-1205, from
    /// `FrameExchangeManager::NormalAckTimeout`, frame-exchange-manager.cc:862-887), and
    /// never for an A-MPDU's MPDUs (a BlockAckReq follows a missed BlockAck). Without the
    /// key the count is not kept.
    pub(super) fn missed_in_a_row(&mut self, t: u32, answer: Answer, alone: bool) -> bool {
        let Some(limit) = self.config.single_retry_limit else {
            return false;
        };
        let count = &mut self.missed[t as usize];
        match answer {
            Answer::AckOrCts => *count = 0,
            Answer::BlockAck => {}
            Answer::Missed => *count += 1,
        }
        let discarded = alone && answer == Answer::Missed && *count >= limit;
        if discarded {
            *count = 0;
        }
        discarded
    }

    /// The current A-MPDU of entity `t`: its session and its MPDUs.
    pub(super) fn current(&mut self, t: u32) -> (&mut Session, usize) {
        let (s, count, _) = self.current[t as usize];
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

/// What an aggregating entity's exchange sends first (after its RTS/CTS, if any) when
/// it is not its data frame: an ADDBA Request or Response, or a BlockAckReq. One place
/// decides it ([`Aggregation::first_frame`]), its frame, its answer and their airtime: the
/// exchange (`Shared::aggregate_exchange`), its head's times (`Store::form_aggregate`) and
/// the bystanders of a collision that lock onto it (`mac/shared/header_abort.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FirstFrame {
    /// An ADDBA Request or Response at the BSS's lowest basic rate (management frames go
    /// at a basic rate, 10.6.6.2; ns-3.37 sends them at the lowest), acknowledged by an
    /// ACK at the same rate (the control-response rate of the lowest basic rate is
    /// itself).
    Addba,
    /// A compressed BlockAckReq (10.25.6) at the control-response rate of the A-MPDU it
    /// follows, answered by a compressed BlockAck at the same rate.
    BlockAckReq,
}

impl FirstFrame {
    /// The frame on `link`.
    pub(super) fn ppdu(self, phy: &Phy, link: &LinkTimes) -> Ppdu {
        match self {
            FirstFrame::Addba => ppdu(phy, link, link.rates.mgmt, ADDBA_FRAME),
            FirstFrame::BlockAckReq => ppdu(phy, link, link.rates.ack, BLOCK_ACK_REQ),
        }
    }

    /// The receiver's answer on `link`, SIFS after it.
    pub(super) fn answer(self, phy: &Phy, link: &LinkTimes) -> Ppdu {
        match self {
            FirstFrame::Addba => ppdu(phy, link, link.rates.mgmt, ACK),
            FirstFrame::BlockAckReq => ppdu(phy, link, link.rates.ack, BLOCK_ACK),
        }
    }

    /// The exchange on `link`: the frame, SIFS, the answer (a BlockAckReq's and its
    /// BlockAck's airtimes as the link keeps them).
    pub(super) fn times(self, phy: &Phy, link: &LinkTimes) -> ExchangeTimes {
        let (frame, answer) = match self {
            FirstFrame::BlockAckReq => (link.block_ack_req, link.block_ack),
            FirstFrame::Addba => {
                let airtime = |p: Ppdu| phy.ppdu_time_with(link.rates.plcp, p.bytes, p.rate);
                (
                    airtime(self.ppdu(phy, link)),
                    airtime(self.answer(phy, link)),
                )
            }
        };
        short_exchange(phy, frame, answer)
    }
}

impl Aggregation {
    /// What entity `t`'s exchange, once formed (`Store::form_aggregate`), sends first: its
    /// ADDBA frame, a BlockAckReq, or (None) its data frame.
    pub(super) fn first_frame(&self, t: u32) -> Option<FirstFrame> {
        if self.action[t as usize].is_some() {
            return Some(FirstFrame::Addba);
        }
        let (s, _, _) = self.current[t as usize];
        let session = self.sessions[t as usize].get(s as usize);
        session
            .is_some_and(|s| s.bar)
            .then_some(FirstFrame::BlockAckReq)
    }
}

/// A frame of `frame` and its answer of `answer` SIFS later; neither at risk of a
/// collision beyond the first frame's length.
fn short_exchange(phy: &Phy, frame: Time, answer: Time) -> ExchangeTimes {
    let delta = phy.propagation_delay;
    let data_end = frame + delta;
    ExchangeTimes {
        rts: false,
        first_frame: frame,
        data_end,
        end: data_end + phy.sifs + answer + delta,
    }
}

/// When the A-MPDU starts in its exchange: at once, or after RTS/CTS (`rts`).
#[inline]
pub(super) fn data_offset(phy: &Phy, link: &LinkTimes, rts: bool) -> Time {
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
pub(super) fn subframes<'a>(
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

impl Aggregation {
    /// The ADDBA frame entity `t` sends before any other frame, if any
    /// ([`agreement::pending`] over its owed Responses and its sessions). What its head is
    /// before it wins the medium; [`Aggregation::addba`] decides once it has won.
    pub(super) fn pending_addba(&self, t: u32) -> Option<Action> {
        let agreements = self.sessions[t as usize].iter().map(|s| s.agreement);
        agreement::pending(&self.responses[t as usize], agreements)
    }

    /// The ADDBA frame entity `t` sends, if any, having won the medium at `now` for a
    /// frame to `to`: [`Aggregation::pending_addba`]'s; else, when the run sends A-MPDUs,
    /// the Request of its session with `to` if [`agreement::needs_setup`] (`queued()`: the
    /// entity's queued packets to `to`, counted up to 2).
    pub(super) fn addba(
        &mut self,
        t: u32,
        (to, now): (NodeId, Time),
        phy: &Phy,
        queued: impl FnOnce() -> usize,
    ) -> Option<Action> {
        if let Some(action) = self.pending_addba(t) {
            return Some(action);
        }
        if !self.config.ampdu() {
            return None;
        }
        let sessions = &mut self.sessions[t as usize];
        let s = Session::of(sessions, to);
        let session = &mut sessions[s];
        let vht = phy.ht.is_some_and(|m| m.format == Format::Vht);
        let unacked = session.unacked.len();
        agreement::needs_setup(&mut session.agreement, now, vht, || unacked + queued())
            .then_some(Action::Request(s as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn one(seq: u32) -> Carried {
        Carried {
            first: packet(seq),
            more: Vec::new(),
        }
    }

    pub(super) fn packet(seq: u32) -> Packet {
        Packet::udp(0, seq, 1000, 0, 1, 0)
    }

    /// One function decides an aggregating entity's first frame, its answer and their
    /// airtime: an ADDBA frame at the BSS's lowest basic rate (6 Mb/s here), acknowledged
    /// at it; a BlockAckReq at the control-response rate (24 Mb/s), answered by a BlockAck
    /// at it; else the data frame. The exchange, the head's times and a collision's
    /// bystanders all take it from here.
    #[test]
    fn the_first_frame_is_an_addba_at_the_lowest_basic_rate_or_a_bar_at_the_ack_rate() {
        use crate::phy::{LinkRates, Preamble, Standard};
        use crate::sim::time::US;
        let phy = Standard::Ieee80211n.preset(Preamble::Long);
        let rates = LinkRates {
            ack: 24_000_000,
            mgmt: 6_000_000,
            ..LinkRates::fixed(&phy)
        };
        let link = LinkTimes::new(&phy, rates);
        let config = AggregationConfig {
            max_bytes: 65_535,
            window: 64,
            amsdu_bytes: 0,
            delivery: crate::mac::Delivery::default(),
            queue_counts_in_flight: false,
            single_ack: SingleMpduAck::default(),
            single_retry_limit: None,
        };
        let mut agg = Aggregation::new(config, 1);
        agg.sessions[0].push(Session::new(1));
        assert_eq!(agg.first_frame(0), None, "its data frame");
        agg.sessions[0][0].bar = true;
        assert_eq!(agg.first_frame(0), Some(FirstFrame::BlockAckReq));
        agg.action[0] = Some(Action::Request(0));
        assert_eq!(agg.first_frame(0), Some(FirstFrame::Addba));
        let rate_bytes = |p: Ppdu| (p.rate, p.bytes);
        let (addba, bar) = (FirstFrame::Addba, FirstFrame::BlockAckReq);
        assert_eq!(
            rate_bytes(addba.ppdu(&phy, &link)),
            (6_000_000, ADDBA_FRAME)
        );
        assert_eq!(rate_bytes(addba.answer(&phy, &link)), (6_000_000, ACK));
        assert_eq!(
            rate_bytes(bar.ppdu(&phy, &link)),
            (24_000_000, BLOCK_ACK_REQ)
        );
        assert_eq!(rate_bytes(bar.answer(&phy, &link)), (24_000_000, BLOCK_ACK));
        // ADDBA: 37 bytes, 16 + 296 + 6 bits in 24-bit symbols: 14 after 20 µs; its ACK
        // (14 bytes) 6 symbols. BlockAckReq: 24 bytes in 96-bit symbols, 3; BlockAck 32
        // bytes, 3.
        let delta = phy.propagation_delay;
        let t = addba.times(&phy, &link);
        assert_eq!(t.first_frame, 76 * US);
        assert_eq!(t.end, 76 * US + delta + phy.sifs + 44 * US + delta);
        let t = bar.times(&phy, &link);
        assert_eq!((t.first_frame, link.block_ack_req), (32 * US, 32 * US));
        assert_eq!(t.end, 32 * US + delta + phy.sifs + link.block_ack + delta);
    }

    #[test]
    pub(super) fn the_receiver_holds_behind_a_gap_until_the_window_moves() {
        let mut s = Session::new(1);
        for seq in 0..3 {
            s.unacked.push_back(Mpdu {
                msdus: one(seq),
                body: Msdus::default().with(1028),
                seq,
                retries: 0,
                queued: 0,
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
