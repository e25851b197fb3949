//! Building a [`World`] from a validated scenario.
use super::edca::{access_setup, flow_entity};
use super::series::Recorder;
use super::{channel, Event, Exchange, Flow, FlowStats, Node, Role, World};
use crate::mac::{AccessCategory, AccessParams, Backoff, Entity, MacStats, PacketInfo, SlotRule};
use crate::net::DropTail;
use crate::phy::frame;
use crate::scenario::{Direction, Scenario};
use crate::sim::event::EventQueue;
use crate::sim::rng::{Rng, StreamKind};
use crate::sim::time::SECOND;

impl World {
    pub fn new(s: &Scenario, seed: u64) -> World {
        let phy = s.phy();
        let mut nodes = Vec::new();
        let mut entities = Vec::new();
        // (tx, rx) frame error rates per node.
        let mut fer = Vec::new();
        let mut add_node = |name: String,
                            role: Role,
                            queue: u32,
                            access: &[(Option<AccessCategory>, AccessParams)],
                            link: (f64, f64)| {
            let id = nodes.len() as u32;
            let first = entities.len() as u32;
            for &(ac, params) in access {
                let mut backoff = Backoff::new(
                    params.cw_min,
                    Rng::stream(seed, StreamKind::Backoff, entities.len() as u64),
                );
                if ac.is_some() {
                    backoff.rule = SlotRule::Edca;
                }
                entities.push(Entity {
                    node: id,
                    ac,
                    queue: DropTail::new(queue),
                    backoff,
                    params,
                    stats: MacStats::default(),
                });
            }
            nodes.push(Node {
                name,
                role,
                entities: first..entities.len() as u32,
            });
            fer.push(link);
            id
        };
        let ap_access = access_setup(s, &phy, s.ap.qos, s.ap.edca.as_ref());
        let ap = add_node(
            s.ap.name.clone(),
            Role::AccessPoint,
            s.ap.queue,
            &ap_access,
            (0.0, 0.0),
        );
        let mut group_nodes = Vec::new();
        for g in &s.stations {
            let queue = g.queue.unwrap_or(s.mac.queue);
            let access = access_setup(s, &phy, g.qos, g.edca.as_ref());
            let base = g.fer.unwrap_or(0.0);
            let link = (g.fer_uplink.unwrap_or(base), g.fer_downlink.unwrap_or(base));
            let ids: Vec<u32> = (0..g.count)
                .map(|i| {
                    add_node(
                        format!("{}-{i}", g.name),
                        Role::Station,
                        queue,
                        &access,
                        link,
                    )
                })
                .collect();
            group_nodes.push(ids);
        }
        let classifier = s.qos.classifier();

        let mut flows = Vec::new();
        for f in &s.flows {
            let group = s.stations.iter().position(|g| g.name == f.stations);
            let stations = &group_nodes[group.expect("validated: the group exists")];
            for (i, &sta) in stations.iter().enumerate() {
                let (src, dst) = match f.direction {
                    Direction::Uplink => (sta, ap),
                    Direction::Downlink => (ap, sta),
                };
                let ip_bytes =
                    f.packet_size.0 as f64 + (frame::IP_HEADER + frame::UDP_HEADER) as f64;
                let packet = PacketInfo {
                    flow: &f.name,
                    ip_bytes: ip_bytes as u32,
                    dscp: f.dscp,
                };
                // The offered rate counts IP bytes, as a CBR source over UDP/IP would.
                let interval = f
                    .rate
                    .map_or(0.0, |r| ip_bytes * 8.0 / r.0 as f64 * SECOND as f64);
                let index = flows.len() as u64;
                flows.push(Flow {
                    name: format!("{}-{i}", f.name),
                    direction: f.direction,
                    src,
                    dst,
                    entity: flow_entity(&nodes[src as usize], &classifier, &packet),
                    traffic: f.traffic,
                    payload_bytes: f.packet_size.0 as u32,
                    interval,
                    start: f.start.0,
                    stop: f.stop.map_or(u64::MAX, |d| d.0),
                    rng: Rng::stream(seed, StreamKind::Traffic, index),
                    acct: Default::default(),
                    stats: FlowStats::default(),
                });
            }
        }

        let eifs = entities
            .iter()
            .map(|e| phy.eifs() - phy.difs + e.params.aifs)
            .collect();
        let mut events = EventQueue::new();
        for (i, f) in flows.iter().enumerate() {
            events.schedule(f.start, Event::SourceStart(i as u32));
        }
        if s.warmup.0 > 0 {
            events.schedule(s.warmup.0, Event::WarmupEnd);
        }
        let interval = s.output.series_interval.0;
        let samples = ((s.duration.0 - s.warmup.0) / interval) as usize;
        let series = Recorder::new(
            &s.output.series,
            interval,
            samples,
            flows.len(),
            nodes.len(),
        );
        if !series.is_empty() {
            events.schedule(s.warmup.0 + interval, Event::Sample);
        }
        let n_entities = entities.len();
        World {
            rts_threshold: s.mac.rts_threshold,
            nodes,
            entities,
            flows,
            saturated: vec![(Vec::new(), 0); n_entities],
            eifs,
            link_errors: channel::LinkErrors::new(seed, &fer),
            events,
            medium_busy: false,
            grant_generation: 0,
            exchange: Exchange::default(),
            transmitters: Vec::with_capacity(n_entities),
            series,
            warmup: s.warmup.0,
            end: s.duration.0,
            seed,
            phy,
        }
    }
}
