//! Building a [`World`] from a validated scenario.
use super::series::Recorder;
use super::{Event, Exchange, Flow, FlowStats, Node, Role, World};
use crate::mac::{AccessParams, Backoff, Entity, MacStats};
use crate::net::DropTail;
use crate::phy::frame;
use crate::scenario::{Direction, Scenario};
use crate::sim::event::EventQueue;
use crate::sim::rng::{Rng, StreamKind};
use crate::sim::time::SECOND;

impl World {
    pub fn new(s: &Scenario, seed: u64) -> World {
        let phy = s.phy();
        let dcf = AccessParams {
            aifs: phy.difs,
            cw_min: phy.cw_min,
            cw_max: phy.cw_max,
            short_retry_limit: s.mac.short_retry_limit.0,
            long_retry_limit: s.mac.long_retry_limit.0,
        };
        let mut nodes = Vec::new();
        let mut entities = Vec::new();
        let mut add_node = |name: String, role: Role, queue: u32| {
            let id = nodes.len() as u32;
            nodes.push(Node {
                name,
                role,
                entity: entities.len() as u32,
            });
            entities.push(Entity {
                node: id,
                queue: DropTail::new(queue),
                backoff: Backoff::new(
                    dcf.cw_min,
                    Rng::stream(seed, StreamKind::Backoff, entities.len() as u64),
                ),
                params: dcf,
                stats: MacStats::default(),
            });
            id
        };
        let ap = add_node(s.ap.name.clone(), Role::AccessPoint, s.ap.queue);
        let mut group_nodes = Vec::new();
        for g in &s.stations {
            let queue = g.queue.unwrap_or(s.mac.queue);
            let ids: Vec<u32> = (0..g.count)
                .map(|i| add_node(format!("{}-{i}", g.name), Role::Station, queue))
                .collect();
            group_nodes.push(ids);
        }

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
                    entity: nodes[src as usize].entity,
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
