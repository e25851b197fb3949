//! What EDCA adds to channel access on the shared medium (802.11-2012 9.19.2): a node's
//! entities (one per AC), the classification of each packet to one of them, internal
//! collisions between a node's ACs, and TXOP bursts.
use super::{Event, Node, World};
use crate::mac::entity::AfterFailure;
use crate::mac::{AccessCategory, AccessParams, Classifier, PacketInfo};
use crate::net::Packet;
use crate::phy::Phy;
use crate::scenario::{qos, EdcaConfig, Scenario};
use crate::sim::time::Time;

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
    pub(super) fn packet_entity(&self, node: u32, p: &Packet) -> u32 {
        let f = &self.flows[p.flow as usize];
        let info = PacketInfo {
            flow: f.spec,
            ip_bytes: p.ip_bytes(),
            dscp: f.dscp,
            tcp_ack: p.is_tcp_ack(),
        };
        entity_for(&self.nodes[node as usize], &self.classifier, &info)
    }

    /// 9.19.2.3: when EDCAFs of one node reach the same slot boundary, the highest AC
    /// transmits; each lower one behaves as after a collision on the medium (CW doubles,
    /// its short retry count grows, a frame at the retry limit is discarded). Transmitters
    /// are in entity order, so a node's ACs are adjacent, highest last.
    pub(super) fn resolve_internal_collisions(&mut self, now: Time) {
        let mut kept = 0;
        for i in 0..self.transmitters.len() {
            let t = self.transmitters[i];
            let node = self.entities[t as usize].node;
            let outranked = self
                .transmitters
                .get(i + 1)
                .is_some_and(|&n| self.entities[n as usize].node == node);
            if outranked {
                self.internal_collision(now, t);
            } else {
                self.transmitters[kept] = t;
                kept += 1;
            }
        }
        self.transmitters.truncate(kept);
    }

    fn internal_collision(&mut self, now: Time, t: u32) {
        let e = &mut self.entities[t as usize];
        e.stats.internal_collisions += 1;
        if e.on_failure(false) == AfterFailure::Drop {
            let p = e.queue.pop().expect("a dropped frame was queued");
            self.count_retry_drop(&p);
            self.refill(now, t);
        }
    }

    /// A successful exchange of an entity with a TXOP limit ended at `now`. Its frame is
    /// delivered; the next frame follows SIFS later if the whole next exchange (with its
    /// ACK) still fits in the TXOP limit counted from the TXOP's first frame (9.19.2.4).
    /// Returns whether the burst goes on; otherwise the entity backs off (once per TXOP).
    pub(super) fn end_txop_exchange(&mut self, now: Time) -> bool {
        let t = self.transmitters[0];
        let ex = self.exchange;
        let e = &mut self.entities[t as usize];
        e.stats.successes += 1;
        e.backoff.reset(e.params.cw_min);
        let p = e.queue.pop().expect("a delivered frame was queued");
        e.stats.count_frame(&p);
        self.deliver(now, ex.data_end, p);
        self.refill(now, t);
        let e = &self.entities[t as usize];
        if let Some(head) = e.queue.head() {
            let uses_rts = self
                .rts_threshold
                .uses_rts(Phy::data_mpdu_bytes(head.ip_bytes()));
            let (_, span) = self.phy.exchange_offsets(uses_rts, head.ip_bytes());
            let start = now + self.phy.sifs;
            if start + span - ex.txop_start <= e.params.txop_limit {
                self.exchange = self.exchange_of(t, start, ex.txop_start);
                self.entities[t as usize].stats.burst_exchanges += 1;
                self.events.schedule(self.exchange.end, Event::ExchangeEnd);
                return true;
            }
        }
        let b = &mut self.entities[t as usize].backoff;
        if !b.pending {
            b.draw();
        }
        false
    }
}
