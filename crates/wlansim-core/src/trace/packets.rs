//! Per-packet records (`[output] packets`): one record per packet of the selected flows,
//! from its creation to its delivery or drop, with one hop per node that queued it. From
//! these come delay distributions, jitter and per-hop delays (`r.packets`,
//! `r.packet_hops` in Python).
//!
//! A packet is identified by (flow, direction, sequence number within that direction).
//! Only packets whose fate (delivery or drop) falls in the measurement window are
//! reported, as the flow tables count them; packets still in flight at the end are not.
use super::{DropReason, TraceEvent};
use crate::net::{Kind, NodeId, Packet};
use crate::sim::time::Time;
use std::collections::HashMap;

/// One node on a packet's way: when it was queued there, when the node last started
/// sending it (its last attempt over the air, or its serialisation on a wire), how many
/// attempts that took, and when the next node received it.
#[derive(Clone, Debug, PartialEq)]
pub struct HopRecord {
    pub node: NodeId,
    pub enqueued: Time,
    pub tx_start: Option<Time>,
    pub attempts: u32,
    pub received: Option<Time>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PacketRecord {
    pub flow: u32,
    /// A TCP packet travelling from the data receiver back to the sender (ACKs).
    pub reverse: bool,
    pub seq: u32,
    pub ip_bytes: u32,
    pub payload_bytes: u32,
    /// TCP: the segment's sequence number and, when it carries one, its acknowledgment.
    pub tcp_seq: Option<u64>,
    pub tcp_ack: Option<u64>,
    pub created: Time,
    pub hops: Vec<HopRecord>,
    pub delivered: Option<Time>,
    pub dropped: Option<(DropReason, NodeId)>,
}

/// Records a run reports at most: each costs a few hundred bytes here and about a kilobyte
/// as a row in Python, so a million of them fill a few GB. A run that would report more
/// stops with an error naming `output.packets` (see [`PacketRecorder::full`]).
pub const MAX_RECORDS: usize = 1_000_000;

pub struct PacketRecorder {
    /// Per flow: whether its packets are recorded.
    selected: Vec<bool>,
    open: HashMap<(u32, bool, u32), PacketRecord>,
    /// Records whose fate is known, in the order of their fates.
    pub done: Vec<PacketRecord>,
}

impl PacketRecorder {
    pub fn new(selected: Vec<bool>) -> Self {
        PacketRecorder {
            selected,
            open: HashMap::new(),
            done: Vec::new(),
        }
    }

    /// The measurement window starts: forget the fates seen so far.
    pub fn on_statistics_reset(&mut self) {
        self.done.clear();
    }

    /// Whether [`MAX_RECORDS`] fates are recorded: later ones are not kept.
    pub fn full(&self) -> bool {
        self.done.len() >= MAX_RECORDS
    }

    fn finish(&mut self, rec: PacketRecord) {
        if !self.full() {
            self.done.push(rec);
        }
    }

    pub fn event(&mut self, t: Time, event: TraceEvent, p: &Packet) {
        if !self.selected[p.flow as usize] {
            return;
        }
        let key = (p.flow, p.reverse, p.seq);
        if let TraceEvent::Created { .. } = event {
            self.open.insert(
                key,
                PacketRecord {
                    flow: p.flow,
                    reverse: p.reverse,
                    seq: p.seq,
                    ip_bytes: p.ip_bytes(),
                    payload_bytes: p.payload_bytes,
                    tcp_seq: (p.kind == Kind::Tcp).then_some(p.seg.seq),
                    tcp_ack: (p.kind == Kind::Tcp && p.seg.flags.ack()).then_some(p.seg.ack),
                    created: t,
                    hops: Vec::new(),
                    delivered: None,
                    dropped: None,
                },
            );
            return;
        }
        let Some(rec) = self.open.get_mut(&key) else {
            return;
        };
        match event {
            // What other nodes heard of it is the captures' (spatial medium).
            TraceEvent::Created { .. } | TraceEvent::TxFailed { .. } => {}
            TraceEvent::Heard { .. } => {}
            TraceEvent::Enqueued { node } => rec.hops.push(HopRecord {
                node,
                enqueued: t,
                tx_start: None,
                attempts: 0,
                received: None,
            }),
            TraceEvent::TxStart { .. } | TraceEvent::Subframe { .. } => {
                if let Some(hop) = rec.hops.last_mut() {
                    hop.tx_start = Some(t);
                    hop.attempts += 1;
                }
            }
            TraceEvent::Received { .. } => {
                if let Some(hop) = rec.hops.last_mut() {
                    hop.received = Some(t);
                }
            }
            TraceEvent::Dropped { node, reason } => {
                let mut rec = self.open.remove(&key).expect("an open record");
                rec.dropped = Some((reason, node));
                self.finish(rec);
            }
            TraceEvent::Delivered { .. } => {
                let mut rec = self.open.remove(&key).expect("an open record");
                rec.delivered = Some(t);
                self.finish(rec);
            }
        }
    }
}
