//! The MAC's events and what it hands back to the world.
use crate::net::{NodeId, Packet};
use crate::sim::time::Time;
use crate::trace::AirRate;

/// The MAC's own events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacEvent {
    /// Shared medium: the earliest backoff expiry; stale unless the generation matches.
    Grant(u64),
    /// Shared medium: the current frame exchange (or collision) is over.
    ExchangeEnd,
    /// Either medium, under rules that pass a decoded data frame up before its ACK
    /// ([`super::MacRules::delivery_delay`]): entity's head-of-line frame reaches the network
    /// layer of its addressee. Shared medium, an aggregating entity's exchange under
    /// [`super::Delivery::PsduEnd`]: its PSDU ends, and what its recipient decoded goes up.
    Received(u32),
    /// Spatial medium (`mac/spatial.rs`): a node's earliest backoff expiry (node,
    /// generation).
    Access(NodeId, u32),
    /// Spatial medium: a node sends what it owes (an answer SIFS after a reception, its
    /// data frame after a CTS, the next exchange of its TXOP).
    Send(NodeId),
    /// Spatial medium: a transmission's signal reaches the nodes that hear it.
    SignalStart(u32),
    /// Spatial medium: a transmission's signal leaves them.
    SignalEnd(u32),
    /// Spatial medium: a sender's CTSTimeout/ACKTimeout (node, generation).
    Timeout(NodeId, u32),
    /// Shared medium with A-MPDU: entity's wait for an ADDBA Response ends
    /// (`mac/aggregate.rs`).
    Wake(u32),
}

/// What the MAC hands back to the world, in the order it happened.
#[derive(Clone, Copy, Debug)]
pub enum MacOutcome {
    /// A frame was received correctly by `packet.hop` at `at`.
    Delivered { packet: Packet, at: Time },
    /// `node` discarded its head-of-line frame after the retry limit.
    RetryDrop { node: NodeId, packet: Packet },
    /// A packet discarded by `node` because its MSDU lifetime passed (`mac/lifetime.rs`).
    LifetimeDrop { node: NodeId, packet: Packet },
    /// Entity `e`'s head-of-line frame left its queue (sent or dropped): a saturated
    /// source may top the queue up.
    Vacated(u32),
    /// Tracing only: `node` starts an attempt to send `packet` (to `packet.hop`) at `at`,
    /// at `rate`.
    Attempt {
        node: NodeId,
        packet: Packet,
        at: Time,
        retry: bool,
        rate: AirRate,
    },
    /// Tracing only: AP `node` sent a Beacon at `at` (`collided`: another frame started
    /// with it).
    Beacon {
        node: NodeId,
        at: Time,
        collided: bool,
    },
    /// Tracing only: the attempt of `node` failed (`lost` on the channel, or collided).
    Failed {
        node: NodeId,
        packet: Packet,
        lost: bool,
    },
    /// Tracing only: `node` sent `packet` (to `packet.hop`) as the `index`-th subframe of
    /// an A-MPDU (`last`: its last one; None: an MPDU sent alone, acknowledged by an ACK,
    /// before its session's Block Ack agreement), starting at `at` (`retry`: a retransmission),
    /// with Block Ack sequence number `seq`, at the A-MPDU's `rate`; `decoded`: its
    /// receiver got it.
    Subframe {
        node: NodeId,
        packet: Packet,
        at: Time,
        retry: bool,
        rate: AirRate,
        seq: u32,
        index: u32,
        last: Option<bool>,
        decoded: bool,
    },
    /// Tracing only: `node` answered an A-MPDU or a BlockAckReq of `to` with a compressed
    /// BlockAck at `at` (at `rate`, b/s): starting sequence number `ssn`, bit i of
    /// `bitmap` for `ssn` + i received; `lost`: the channel lost it. `bitmap` None:
    /// `node` sent `to` a BlockAckReq from `ssn` (`lost`: lost or collided).
    BlockAck {
        node: NodeId,
        to: NodeId,
        at: Time,
        rate: u64,
        ssn: u32,
        bitmap: Option<u64>,
        lost: bool,
    },
    /// Tracing only: `node` answered `to`'s data frame with an ACK at `at`, at `rate`
    /// (b/s); `lost`: the channel lost it.
    Ack {
        node: NodeId,
        to: NodeId,
        at: Time,
        rate: u64,
        lost: bool,
    },
    /// Tracing only: `node` sent `to` an ADDBA Request (`response`: an ADDBA Response) at
    /// `at`, at `rate` (b/s), in the BSS of AP `bssid`; `lost`: lost or collided.
    Addba {
        node: NodeId,
        to: NodeId,
        bssid: NodeId,
        at: Time,
        rate: u64,
        response: bool,
        lost: bool,
    },
    /// Tracing what each node hears (spatial medium, [`super::store::Store::trace_heard`]):
    /// the radio of `node` received a frame of `from` that reached it at `at` (it locked
    /// onto it); `decoded`: without error. `data`: a data frame's packet and retry flag;
    /// None for a Beacon.
    Heard {
        node: NodeId,
        from: NodeId,
        at: Time,
        decoded: bool,
        data: Option<(Packet, bool)>,
    },
}
