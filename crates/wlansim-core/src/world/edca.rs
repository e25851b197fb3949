//! A node's channel-access entities (one DCF entity, or one EDCAF per AC, 802.11-2012
//! 9.19.2) and the classification of each packet to one of them.
use super::{Node, World};
use crate::mac::{AccessCategory, AccessParams, Classifier, PacketInfo};
use crate::net::Packet;
use crate::phy::Phy;
use crate::scenario::{qos, EdcaConfig, Scenario};

/// The channel-access entities of a node: one DCF entity, or one EDCAF per AC (in
/// increasing priority) when the node is a QoS node.
pub(super) fn access_setup(
    s: &Scenario,
    phy: &Phy,
    qos_node: bool,
    edca: Option<&EdcaConfig>,
) -> Vec<(Option<AccessCategory>, AccessParams)> {
    if !qos_node {
        return vec![(
            None,
            AccessParams {
                aifs: phy.difs,
                cw_min: phy.cw_min,
                cw_max: phy.cw_max,
                short_retry_limit: s.mac.short_retry_limit.0,
                long_retry_limit: s.mac.long_retry_limit.0,
                txop_limit: 0,
            },
        )];
    }
    AccessCategory::ALL
        .iter()
        .map(|&ac| (Some(ac), qos::access_params(edca, ac, phy, &s.mac)))
        .collect()
}

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
