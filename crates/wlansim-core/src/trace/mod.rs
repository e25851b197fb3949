//! The trace hook: what happens to every packet and every frame, as it happens.
//!
//! The world reports each event to [`Trace::emit`]; components report theirs through
//! their outputs (the MAC's attempts and failures come back as `MacOutcome`s when tracing
//! is on, the wired links say when a packet starts on the wire). When no consumer listens
//! the world holds no `Trace` and every hook is a branch on `None`: tracing costs nothing.
//!
//! Consumers: [`packets::PacketRecorder`] (one record per packet, with its hops) and
//! [`pcap::PcapRecorder`] (pcap captures: every frame attempt over the air with its retry
//! flag and fate, each A-MPDU subframe and BlockAck, on the spatial medium also every frame each node received, every packet
//! on a wired link).
pub mod packets;
pub mod pcap;

use crate::net::{NodeId, Packet};
use crate::phy::ht::HtMode;
use crate::sim::time::Time;
pub use packets::{HopRecord, PacketRecord, PacketRecorder};

/// Why a packet was discarded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// A full transmit queue (MAC or wired link) refused it.
    Queue,
    /// The MAC gave up after the retry limit.
    RetryLimit,
    /// A scripted loss (`[[drops]]`) as it left the node.
    Scripted,
    /// The MAC discarded it when its MSDU lifetime had passed (`mac.msdu_lifetime`).
    Lifetime,
}

impl DropReason {
    pub fn name(self) -> &'static str {
        match self {
            DropReason::Queue => "queue",
            DropReason::RetryLimit => "retry_limit",
            DropReason::Scripted => "scripted",
            DropReason::Lifetime => "lifetime",
        }
    }
}

/// A packet or frame event at time `t` (the packet is passed beside it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TraceEvent {
    /// An application or TCP endpoint at `node` created the packet.
    Created { node: NodeId },
    /// Queued for transmission at `node` (a MAC entity's queue, or a wired link's).
    Enqueued { node: NodeId },
    /// `node` starts sending it: a frame attempt over the air to `to` at rate `air`
    /// (`retry` when it is a retransmission), or serialisation on a wired link (`air`
    /// None).
    TxStart {
        node: NodeId,
        to: NodeId,
        air: Option<AirRate>,
        retry: bool,
    },
    /// `node` sends it over the air to `to` as a subframe of an A-MPDU whose fate is
    /// known (an attempt, as `TxStart`), at the A-MPDU's `rate`.
    Subframe {
        node: NodeId,
        to: NodeId,
        retry: bool,
        rate: AirRate,
        subframe: AmpduSubframe,
    },
    /// A frame attempt by `node` failed: lost on the channel, or collided.
    TxFailed { node: NodeId, lost: bool },
    /// `node` received it (the end of the data frame, or the arrival off the wire).
    Received { node: NodeId },
    /// The radio of `node` received a data frame of `from` carrying it, arriving now
    /// (`retry`: a retransmission), addressed to it or not; `decoded`: without error
    /// (spatial medium, when what each node hears is traced: `Mac::trace_heard`).
    Heard {
        node: NodeId,
        from: NodeId,
        retry: bool,
        decoded: bool,
        rate: AirRate,
    },
    /// Discarded at `node`.
    Dropped { node: NodeId, reason: DropReason },
    /// Handed to the application (or TCP endpoint) at its destination `node`.
    Delivered { node: NodeId },
}

/// The rate a data frame went over the air at: the rate its controller chose
/// (`mac/rate/`), or its link's configured one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AirRate {
    /// Bits/s (of an HT/VHT mode: its rate to the nearest bit/s).
    pub data: u64,
    /// The HT/VHT mode of the PPDU (802.11n/ac); None: a non-HT PPDU at `data`.
    pub ht: Option<HtMode>,
}

impl AirRate {
    pub fn of(rates: &crate::phy::LinkRates) -> AirRate {
        AirRate {
            data: rates.data,
            ht: rates.ht,
        }
    }
}

/// Where an MPDU went in its A-MPDU, and its fate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AmpduSubframe {
    /// Its Block Ack sequence number.
    pub seq: u32,
    /// Its place in the A-MPDU (0: the first) and whether it is the last (None: an MPDU
    /// sent alone, not in an A-MPDU, before its session's Block Ack agreement).
    pub index: u32,
    pub last: Option<bool>,
    /// Its receiver decoded it.
    pub decoded: bool,
}

/// The consumers listening to the run.
pub struct Trace {
    pub packets: Option<PacketRecorder>,
    pub pcap: Option<pcap::PcapRecorder>,
}

impl Trace {
    /// The measurement window starts: consumers that report over it forget what came
    /// before (captures keep every frame).
    pub fn on_statistics_reset(&mut self) {
        if let Some(rec) = &mut self.packets {
            rec.on_statistics_reset();
        }
    }

    /// `real`: the packet's bytes when it is a real one (emulation), which the captures
    /// write instead of headers made from its fields.
    #[inline]
    pub fn emit(&mut self, t: Time, event: TraceEvent, p: &Packet, real: Option<&[u8]>) {
        if let Some(rec) = &mut self.packets {
            rec.event(t, event, p);
        }
        if let Some(cap) = &mut self.pcap {
            cap.event(t, event, p, real);
        }
    }
}
