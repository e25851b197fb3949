//! Which of a node's channel-access entities (one DCF entity, or one EDCAF per AC,
//! 802.11-2012 9.19.2; their parameters come from `scenario/model.rs`) queues a packet.
use super::{Node, World};
use crate::mac::{Classifier, PacketInfo};
use crate::net::Packet;

/// The entity of `node` that queues `packet`: the node's only entity under DCF, the
/// classified AC's under EDCA.
pub(super) fn entity_for(node: &Node, classifier: &Classifier, packet: &PacketInfo) -> u32 {
    if node.entities.len() == 1 {
        node.entities.start
    } else {
        node.entities.start + classifier.classify(packet).index() as u32
    }
}

impl World {
    /// The entity of `node` that queues `p` (TCP: data segments and pure ACKs may go to
    /// different ACs, so each packet is classified as it is queued).
    #[inline]
    pub(super) fn packet_entity(&self, node: u32, p: &Packet) -> u32 {
        let n = &self.nodes[node as usize];
        if n.entities.len() == 1 {
            return n.entities.start; // DCF: nothing to classify
        }
        let f = &self.flows[p.flow as usize];
        let info = PacketInfo {
            flow: f.spec,
            ip_bytes: p.ip_bytes(),
            dscp: f.dscp,
            tcp_ack: p.is_tcp_ack(),
        };
        entity_for(n, &self.classifier, &info)
    }
}
