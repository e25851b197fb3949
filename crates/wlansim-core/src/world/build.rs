//! Building a [`World`] from a validated scenario.
use super::edca::{access_setup, entity_for};
use super::series::Recorder;
use super::tcp_flows::TcpConn;
use super::wired::WiredLink;
use super::{Event, Flow, FlowStats, Node, Role, World};
use crate::ap::RwndClamp;
use crate::channel::{Channel, IidLoss};
use crate::mac::{
    AccessCategory, AccessParams, Backoff, Entity, Mac, MacStats, PacketInfo, SlotRule,
};
use crate::net::TxQueue;
use crate::phy::frame;
use crate::scenario::{Direction, Protocol, Scenario};
use crate::sim::event::EventQueue;
use crate::sim::rng::{Rng, StreamKind};
use crate::sim::time::SECOND;
use crate::tcp::{header_bytes, TcpReceiver, TcpSender};

impl World {
    pub fn new(s: &Scenario, seed: u64) -> World {
        let phy = s.phy();
        let mut nodes = Vec::new();
        let mut entities = Vec::new();
        // (tx, rx) frame error rates per node.
        let mut fer = Vec::new();
        let mut add_node = |name: String,
                            role: Role,
                            queue: TxQueue,
                            access: &[(Option<AccessCategory>, AccessParams)],
                            link: (f64, f64)| {
            let id = nodes.len() as u32;
            let first = entities.len() as u32;
            for &(ac, params) in access {
                let stream = match ac {
                    Some(ac) => format!("{name}/{}", ac.name()),
                    None => name.clone(),
                };
                let mut backoff = Backoff::new(
                    params.cw_min,
                    Rng::named(seed, StreamKind::Backoff, &stream),
                );
                if ac.is_some() {
                    backoff.rule = SlotRule::Edca;
                }
                entities.push(Entity {
                    node: id,
                    ac,
                    queue: queue.clone(),
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
        let ap_queue = match s.ap.ack_queue {
            Some(a) => TxQueue::split(s.ap.queue, a),
            None => TxQueue::shared(s.ap.queue),
        };
        let ap_access = access_setup(s, &phy, s.ap.qos, s.ap.edca.as_ref());
        let ap = add_node(
            s.ap.name.clone(),
            Role::AccessPoint,
            ap_queue,
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
                        TxQueue::shared(queue),
                        &access,
                        link,
                    )
                })
                .collect();
            group_nodes.push(ids);
        }
        let classifier = s.qos.classifier(&s.flows);

        // Each server has a link per direction: 2k toward the AP, 2k + 1 toward the server.
        let mut servers = Vec::new();
        let mut links = Vec::new();
        let mut server_groups = Vec::new();
        for g in &s.servers {
            let first = servers.len() as u32;
            for i in 0..g.count {
                servers.push(format!("{}-{i}", g.name));
                for to_ap in [true, false] {
                    links.push(WiredLink::new(g.rate.0, g.delay.0, g.queue, to_ap));
                }
            }
            server_groups.push((g.name.as_str(), first, g.count));
        }

        let mut flows = Vec::new();
        let mut conns = Vec::new();
        for (fi, f) in s.flows.iter().enumerate() {
            let group = s.stations.iter().position(|g| g.name == f.stations);
            let stations = &group_nodes[group.expect("validated: the group exists")];
            let tcp_cfg = (f.protocol == Protocol::Tcp).then(|| s.tcp_config(fi));
            for (i, &sta) in stations.iter().enumerate() {
                let sta_name = nodes[sta as usize].name.clone();
                let (mut src, mut dst, sender) = match f.direction {
                    Direction::Uplink => (sta_name, s.ap.name.clone(), sta),
                    Direction::Downlink => (s.ap.name.clone(), sta_name, ap),
                };
                let ip_bytes = match &tcp_cfg {
                    Some(cfg) => cfg.mss + header_bytes(cfg),
                    None => f.udp_payload().0 as u32 + frame::IP_HEADER + frame::UDP_HEADER,
                };
                // UDP packets of a flow all look alike: classified once, here. TCP
                // segments are classified one by one as they are queued.
                let packet = PacketInfo {
                    flow: fi as u32,
                    ip_bytes,
                    dscp: f.dscp,
                    tcp_ack: false,
                };
                let entity = entity_for(&nodes[sender as usize], &classifier, &packet);
                let tcp = tcp_cfg.as_ref().map(|cfg| {
                    let name = f
                        .server
                        .as_deref()
                        .expect("validated: tcp flows name a server");
                    let &(_, first, count) = server_groups
                        .iter()
                        .find(|g| g.0 == name)
                        .expect("validated: the server group exists");
                    let server = first + i as u32 % count;
                    // Data runs station → server (uplink) or server → station.
                    let peer = servers[server as usize].clone();
                    match f.direction {
                        Direction::Uplink => dst = peer,
                        Direction::Downlink => src = peer,
                    }
                    conns.push(TcpConn {
                        sender: TcpSender::new(cfg, f.bytes.map(|b| b.0)),
                        receiver: TcpReceiver::new(cfg),
                        mss: cfg.mss,
                        header_bytes: header_bytes(cfg),
                        link_to_ap: 2 * server,
                        link_to_server: 2 * server + 1,
                        base_sender: Default::default(),
                        base_receiver: Default::default(),
                    });
                    conns.len() as u32 - 1
                });
                // The offered rate counts IP bytes, as a CBR source over UDP/IP would.
                let interval = f
                    .rate
                    .map_or(0.0, |r| ip_bytes as f64 * 8.0 / r.0 as f64 * SECOND as f64);
                let name = format!("{}-{i}", f.name);
                flows.push(Flow {
                    rng: Rng::named(seed, StreamKind::Traffic, &name),
                    name,
                    direction: f.direction,
                    src,
                    dst,
                    spec: fi as u32,
                    dscp: f.dscp,
                    entity,
                    station: sta,
                    tcp,
                    traffic: f.traffic,
                    payload_bytes: f.udp_payload().0 as u32,
                    interval,
                    start: f.start.0,
                    stop: f.stop.map_or(u64::MAX, |d| d.0),
                    acct: Default::default(),
                    stats: FlowStats::default(),
                });
            }
        }

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
        let mac = Mac::new(phy, s.mac.rts_threshold, entities);
        let channel = Channel::new(IidLoss::new(
            seed,
            nodes.iter().map(|n| n.name.as_str()).zip(fer),
        ));
        let rwnd_clamp =
            s.ap.rwnd_clamp
                .then(|| RwndClamp::new(s.ap.buffer(), s.ap.flow_idle_timeout.0, flows.len()));
        World {
            ap,
            links,
            conns,
            outbox: Default::default(),
            rwnd_clamp,
            classifier,
            nodes,
            mac,
            channel,
            flows,
            saturated: vec![(Vec::new(), 0); n_entities],
            events,
            series,
            warmup: s.warmup.0,
            end: s.duration.0,
            seed,
        }
    }
}
