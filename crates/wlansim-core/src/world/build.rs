//! Building a [`World`] from a validated scenario: the nodes (APs, stations, routers,
//! servers, in this order), their channel-access entities, the wired links and the routes
//! over them, the flows with their endpoints, and the first events.
use super::drops::ScriptedDrops;
use super::edca::{access_setup, entity_for};
use super::series::Recorder;
use super::tcp_flows::TcpConn;
use super::{Event, Flow, FlowStats, Node, Role, World};
use crate::ap::{DelayInjection, RwndClamp};
use crate::app::{FileSequence, UdpSource};
use crate::channel::{BurstLink, BurstLinks, Channel, IidLoss};
use crate::mac::{
    AccessCategory, AccessParams, Backoff, Entity, Mac, MacRules, MacStats, PacketInfo, SlotRule,
};
use crate::net::{Edge, Link, NodeId, Routes, TxQueue, Wires};
use crate::phy::frame;
use crate::scenario::{Direction, PcapPer, Protocol, Scenario, ScenarioError, Traffic};
use crate::sim::event::EventQueue;
use crate::sim::rng::{Rng, StreamKind};
use crate::sim::time::SECOND;
use crate::tcp::{header_bytes, TcpReceiver, TcpSender};
use crate::trace::pcap::{window_scale, CaptureConfig, CaptureNode, CaptureTcp, PcapRecorder};
use crate::trace::{PacketRecorder, Trace};
use std::collections::HashMap;

/// Largest number of wired nodes (APs, routers, servers): the route table holds one entry
/// per pair of them.
pub const MAX_WIRED_NODES: usize = 4096;

/// Nodes and their channel-access entities as they are added.
struct Nodes {
    /// The run's seed (the entities' backoff streams derive from it).
    seed: u64,
    /// Standard or ns-2 MAC rules (backoff range, buffer B + 1).
    rules: MacRules,
    nodes: Vec<Node>,
    entities: Vec<Entity>,
    /// Per node: (tx, rx) frame error rates of its link with its AP.
    fer: Vec<(f64, f64)>,
    by_name: HashMap<String, NodeId>,
}

impl Nodes {
    fn add(
        &mut self,
        name: String,
        role: Role,
        bss: Option<NodeId>,
        queue: Option<TxQueue>,
        access: &[(Option<AccessCategory>, AccessParams)],
        fer: (f64, f64),
    ) -> NodeId {
        let id = self.nodes.len() as NodeId;
        let first = self.entities.len() as u32;
        if let Some(queue) = queue {
            for &(ac, params) in access {
                let stream = match ac {
                    Some(ac) => format!("{name}/{}", ac.name()),
                    None => name.clone(),
                };
                let mut backoff = Backoff::new(
                    params.cw_min,
                    Rng::named(self.seed, StreamKind::Backoff, &stream),
                );
                if ac.is_some() {
                    backoff.rule = SlotRule::Edca;
                }
                backoff.rules = self.rules;
                self.entities.push(Entity {
                    node: id,
                    ac,
                    queue: queue.clone(),
                    head: None,
                    backoff,
                    params,
                    stats: MacStats::default(),
                });
            }
        }
        self.by_name.insert(name.clone(), id);
        self.nodes.push(Node {
            name,
            role,
            entities: first..self.entities.len() as u32,
            bss: bss.or((role == Role::AccessPoint).then_some(id)),
        });
        self.fer.push(fer);
        id
    }

    fn id(&self, name: &str) -> NodeId {
        self.by_name[name]
    }
}

impl World {
    pub fn new(s: &Scenario, seed: u64) -> Result<World, ScenarioError> {
        let phy = s.phy();
        let rules = s.mac_rules();
        let buffer = |b: u32| rules.buffer_capacity(b);
        let mut n = Nodes {
            seed,
            rules,
            nodes: Vec::new(),
            entities: Vec::new(),
            fer: Vec::new(),
            by_name: HashMap::new(),
        };
        for ap in &s.aps {
            let queue = match ap.ack_queue {
                Some(a) => TxQueue::split(buffer(ap.queue), a),
                None => TxQueue::shared(buffer(ap.queue)),
            };
            let access = access_setup(s, &phy, ap.qos, ap.edca.as_ref());
            let name = ap.name.clone();
            n.add(
                name,
                Role::AccessPoint,
                None,
                Some(queue),
                &access,
                (0.0, 0.0),
            );
        }
        let mut group_nodes = Vec::new();
        // Stations with a burst model on a link direction (it replaces the i.i.d. rate).
        let mut bursty = Vec::new();
        for g in &s.stations {
            let queue = buffer(g.queue.unwrap_or(s.mac.queue));
            let access = access_setup(s, &phy, g.qos, g.edca.as_ref());
            let bursts = s.channel.group_bursts(g);
            let mut fer = s.channel.group_fer(g);
            if bursts.0.is_some() {
                fer.0 = 0.0;
            }
            if bursts.1.is_some() {
                fer.1 = 0.0;
            }
            let ap = n.id(s.ap_of(g));
            let ids: Vec<NodeId> = (0..g.count)
                .map(|i| {
                    let name = format!("{}-{i}", g.name);
                    let queue = Some(TxQueue::shared(queue));
                    n.add(name, Role::Station, Some(ap), queue, &access, fer)
                })
                .collect();
            if bursts.0.is_some() || bursts.1.is_some() {
                bursty.extend(ids.iter().map(|&id| (id, bursts)));
            }
            group_nodes.push(ids);
        }
        for r in &s.routers {
            n.add(r.name.clone(), Role::Router, None, None, &[], (0.0, 0.0));
        }
        let mut server_groups = Vec::new();
        for g in &s.servers {
            let ids: Vec<NodeId> = (0..g.count)
                .map(|i| {
                    let name = format!("{}-{i}", g.name);
                    n.add(name, Role::Server, None, None, &[], (0.0, 0.0))
                })
                .collect();
            server_groups.push(ids);
        }
        let wired_nodes = n.nodes.iter().filter(|x| x.role != Role::Station).count();
        if wired_nodes > MAX_WIRED_NODES {
            return Err(ScenarioError::new(
                "servers",
                format!(
                    "{wired_nodes} APs, routers and servers: at most {MAX_WIRED_NODES} are allowed"
                ),
            ));
        }

        // Links: each server's own link to its AP or router, then the `[[links]]`; every
        // link is two directed links, 2k (a → b) and 2k + 1 (b → a).
        let mut wires = Wires::default();
        let mut add_link = |a: NodeId, b: NodeId, rate: u64, delay, queue| {
            wires.links.push(Link::new(a, b, rate, delay, queue));
            wires.links.push(Link::new(b, a, rate, delay, queue));
        };
        for (g, ids) in s.servers.iter().zip(&server_groups) {
            let hub = n.id(g.via.as_deref().unwrap_or(&s.aps[0].name));
            for &server in ids {
                add_link(server, hub, g.rate.0, g.delay.0, g.queue);
            }
        }
        for l in &s.links {
            add_link(n.id(&l.a), n.id(&l.b), l.rate.0, l.delay.0, l.queue);
        }
        let ap_of: Vec<Option<NodeId>> = n
            .nodes
            .iter()
            .map(|x| (x.role == Role::Station).then(|| x.bss.expect("a station's AP")))
            .collect();
        let edges: Vec<Edge> = wires
            .links
            .iter()
            .map(|l| Edge {
                from: l.from,
                to: l.to,
                delay: l.delay,
            })
            .collect();
        let routes = Routes::compute(&ap_of, &edges);
        let link_to: Vec<NodeId> = edges.iter().map(|e| e.to).collect();

        let classifier = s.qos.classifier(&s.flows);
        let mut flows = Vec::new();
        let mut conns = Vec::new();
        for (fi, f) in s.flows.iter().enumerate() {
            let group = s.stations.iter().position(|g| g.name == f.stations);
            let stations = &group_nodes[group.expect("validated: the group exists")];
            let tcp_cfg = (f.protocol == Protocol::Tcp).then(|| s.tcp_config(fi));
            let peers: Option<&Vec<NodeId>> = if let Some(server) = &f.server {
                let k = s.servers.iter().position(|g| &g.name == server);
                Some(&server_groups[k.expect("validated: the server group exists")])
            } else {
                f.peer.as_ref().map(|peer| {
                    let k = s.stations.iter().position(|g| &g.name == peer);
                    &group_nodes[k.expect("validated: the station group exists")]
                })
            };
            for (i, &sta) in stations.iter().enumerate() {
                // Station i's peer: member i mod count of the peer group, or its AP.
                let peer = match peers {
                    Some(p) => p[i % p.len()],
                    None => n.nodes[sta as usize].bss.expect("a station's AP"),
                };
                let (src, dst) = match f.direction {
                    Direction::Uplink => (sta, peer),
                    Direction::Downlink => (peer, sta),
                };
                let name = format!("{}-{i}", f.name);
                if src == dst {
                    return Err(ScenarioError::new(
                        format!("flows[{fi}].peer"),
                        format!(
                            "\"{}\": flow {name} would go from {} to itself; the peer is another group's station i mod its count",
                            f.peer.as_deref().unwrap_or_default(),
                            n.nodes[src as usize].name
                        ),
                    ));
                }
                for (a, b) in [(src, dst), (dst, src)] {
                    if routes.path(a, b, &link_to).is_none() {
                        return Err(ScenarioError::new(
                            format!("flows[{fi}]"),
                            format!(
                                "flow {name}: no route from {} to {}; connect them with [[links]] (or a server's `via`)",
                                n.nodes[a as usize].name, n.nodes[b as usize].name
                            ),
                        ));
                    }
                }
                if f.traffic == Traffic::Saturated
                    && tcp_cfg.is_none()
                    && n.nodes[src as usize].entities.is_empty()
                {
                    return Err(ScenarioError::new(
                        format!("flows[{fi}].traffic"),
                        format!(
                            "saturated: a saturated source keeps a MAC queue full, but {} is a wired node; use \"cbr\" or \"poisson\"",
                            n.nodes[src as usize].name
                        ),
                    ));
                }
                let ip_bytes = match &tcp_cfg {
                    Some(cfg) => cfg.mss + header_bytes(cfg),
                    None => f.udp_payload().0 as u32 + frame::IP_HEADER + frame::UDP_HEADER,
                };
                // The entity a saturated source keeps full: its packets' class at the
                // source (the network layer classifies every packet the same way).
                let packet = PacketInfo {
                    flow: fi as u32,
                    ip_bytes,
                    dscp: f.dscp,
                    tcp_ack: false,
                };
                let entity = entity_for(&n.nodes[src as usize], &classifier, &packet);
                let files = match (&f.files, &tcp_cfg) {
                    (Some(files), Some(cfg)) => {
                        let (sizes, think) = files.sequence(&format!("flows[{fi}].files"))?;
                        let pad = if files.pad_last_segment {
                            cfg.mss as u64
                        } else {
                            1
                        };
                        let fresh = files.new_connection;
                        let mut seq = FileSequence::new(sizes, think, fresh, pad, seed, &name);
                        seq.think_first = files.think_first;
                        Some(seq)
                    }
                    _ => None,
                };
                let tcp = tcp_cfg.as_ref().map(|cfg| {
                    conns.push(TcpConn {
                        sender: TcpSender::new(cfg, f.bytes.map(|b| b.0)),
                        receiver: TcpReceiver::new(cfg),
                        cfg: cfg.clone(),
                        mss: cfg.mss,
                        header_bytes: header_bytes(cfg),
                        epoch: 0,
                        files,
                        past: Default::default(),
                        base_sender: Default::default(),
                        base_receiver: Default::default(),
                    });
                    conns.len() as u32 - 1
                });
                // The offered rate counts IP bytes, as a CBR source over UDP/IP would.
                let interval = f
                    .rate
                    .map_or(0.0, |r| ip_bytes as f64 * 8.0 / r.0 as f64 * SECOND as f64);
                let udp = tcp_cfg.is_none().then(|| {
                    UdpSource::new(
                        f.traffic,
                        f.udp_payload().0 as u32,
                        interval,
                        f.stop.map_or(u64::MAX, |d| d.0),
                        Rng::named(seed, StreamKind::Traffic, &name),
                    )
                });
                flows.push(Flow {
                    name,
                    direction: f.direction,
                    src,
                    dst,
                    spec: fi as u32,
                    dscp: f.dscp,
                    entity,
                    tcp,
                    udp,
                    start: f.start.0,
                    acct: Default::default(),
                    stats: FlowStats::default(),
                });
            }
        }

        let drops = scripted_drops(s, &n, &flows, &conns, &routes, &link_to)?;
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
            n.nodes.len(),
        );
        if !series.is_empty() {
            events.schedule(s.warmup.0 + interval, Event::Sample);
        }
        let rwnd_clamp = s
            .aps
            .iter()
            .map(|ap| {
                ap.rwnd_clamp
                    .then(|| RwndClamp::new(ap.buffer(), ap.flow_idle_timeout.0, flows.len()))
            })
            .collect();
        let delay_injection = s
            .aps
            .iter()
            .map(|ap| {
                let c = ap.delay_injection.as_ref();
                c.map(|c| DelayInjection::new(c.params(), flows.len()))
            })
            .collect();
        let packets = &s.output.packets;
        let recorder = (!packets.is_off()).then(|| {
            PacketRecorder::new(
                flows
                    .iter()
                    .map(|f| packets.selects(&s.flows[f.spec as usize].name))
                    .collect(),
            )
        });
        let capture = match &s.output.pcap {
            None => None,
            Some(dir) => Some(
                PcapRecorder::create(CaptureConfig {
                    dir: std::path::Path::new(dir),
                    per_bss: s.output.pcap_per == PcapPer::Bss,
                    snaplen: s.output.pcap_snaplen,
                    nodes: n
                        .nodes
                        .iter()
                        .map(|x| CaptureNode {
                            name: x.name.clone(),
                            bss: x.bss,
                            is_ap: x.role == Role::AccessPoint,
                        })
                        .collect(),
                    links: wires.links.iter().map(|l| (l.from, l.to)).collect(),
                    flows: flows
                        .iter()
                        .map(|f| {
                            f.tcp.map(|c| {
                                let cfg = &conns[c as usize].cfg;
                                CaptureTcp {
                                    timestamps: cfg.timestamps,
                                    mss: cfg.mss.min(65535) as u16,
                                    wscale: window_scale(cfg.rwnd_bytes()),
                                }
                            })
                        })
                        .collect(),
                    data_rate: phy.data_rate,
                    nav: phy.sifs + phy.ack_time(),
                })
                .map_err(|e| ScenarioError::new("output.pcap", e))?,
            ),
        };
        let trace = (recorder.is_some() || capture.is_some()).then_some(Trace {
            packets: recorder,
            pcap: capture,
        });
        // The rates of each station's link with its AP (both directions).
        let mut links = vec![None; n.nodes.len()];
        for (g, ids) in s.stations.iter().zip(&group_nodes) {
            let link = s.link_rates(&phy, g);
            for &id in ids {
                links[id as usize] = Some(link);
            }
        }
        let mut mac = Mac::with_rules(phy, s.mac.rts_threshold, n.entities, links, rules);
        mac.trace = trace.is_some();
        let n_entities = mac.entities.len();
        let bursts = (!bursty.is_empty()).then(|| {
            let mut links = BurstLinks {
                up: vec![None; n.nodes.len()],
                down: vec![None; n.nodes.len()],
            };
            for (id, (up, down)) in bursty {
                let name = &n.nodes[id as usize].name;
                let link = |dir: &str, b| BurstLink::new(seed, &format!("{name}/{dir}"), b);
                links.up[id as usize] = up.map(|b| link("uplink", b));
                links.down[id as usize] = down.map(|b| link("downlink", b));
            }
            links
        });
        let channel = Channel::new(
            IidLoss::new(seed, n.nodes.iter().map(|x| x.name.as_str()).zip(n.fer)),
            bursts,
        );
        Ok(World {
            mac,
            nodes: n.nodes,
            channel,
            flows,
            ssids: s
                .aps
                .iter()
                .map(|ap| ap.ssid.clone().unwrap_or_else(|| ap.name.clone()))
                .collect(),
            wires,
            routes,
            conns,
            outbox: Default::default(),
            rwnd_clamp,
            delay_injection,
            classifier,
            saturated: vec![(Vec::new(), 0); n_entities],
            events,
            trace,
            drops,
            series,
            warmup: s.warmup.0,
            end: s.duration.0,
            seed,
        })
    }
}

/// The `[[drops]]` rules per flow (None without any: the network layer then skips them in
/// one branch). Each entry's node must send packets of each of its flows: the data's
/// source or a node on the data's path for segments; for a window also the ACKs' path.
fn scripted_drops(
    s: &Scenario,
    n: &Nodes,
    flows: &[Flow],
    conns: &[TcpConn],
    routes: &Routes,
    link_to: &[NodeId],
) -> Result<Option<ScriptedDrops>, ScenarioError> {
    if s.drops.is_empty() {
        return Ok(None);
    }
    let mut drops = ScriptedDrops::new(flows.len());
    for (i, d) in s.drops.iter().enumerate() {
        let (entry, _) =
            crate::scenario::drops::flow_target(s, &d.flow).expect("validated: the flow exists");
        let node = n.id(&d.at);
        let window = d.from.zip(d.to);
        for (fi, f) in flows.iter().enumerate() {
            if f.spec as usize != entry || (d.flow != s.flows[entry].name && d.flow != f.name) {
                continue;
            }
            // The nodes that send this flow's packets: the data's source and the nodes
            // before its destination; with a window also the ACKs' (TCP).
            let mut senders = vec![f.src];
            let path = routes.path(f.src, f.dst, link_to).expect("routes checked");
            senders.extend(&path[..path.len() - 1]);
            if window.is_some() && f.tcp.is_some() {
                senders.push(f.dst);
                let back = routes.path(f.dst, f.src, link_to).expect("routes checked");
                senders.extend(&back[..back.len() - 1]);
            }
            if !senders.contains(&node) {
                senders.sort_unstable();
                senders.dedup();
                let names: Vec<&str> = senders
                    .iter()
                    .map(|&x| n.nodes[x as usize].name.as_str())
                    .collect();
                return Err(ScenarioError::new(
                    format!("drops[{i}].at"),
                    format!(
                        "\"{}\" sends no packet of flow {}; the nodes that do: {}",
                        d.at,
                        f.name,
                        names.join(", ")
                    ),
                ));
            }
            match (window, f.tcp) {
                (Some((from, to)), _) => drops.add_window(fi as u32, node, from.0, to.0),
                (None, Some(c)) => drops.add_segments(
                    fi as u32,
                    node,
                    conns[c as usize].mss,
                    d.transmission,
                    &d.segments,
                ),
                (None, None) => unreachable!("validated: segments need a TCP flow"),
            }
        }
    }
    Ok(Some(drops))
}
