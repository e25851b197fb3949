//! Building a [`World`] from a scenario resolved into a [`Model`] (`scenario/model.rs`):
//! the nodes' channel-access entities, the wired links and the routes over them, the
//! flows' sources and connections, the channel, the AP mechanisms, the trace consumers
//! and the first events.
use super::drops::ScriptedDrops;
use super::edca::entity_for;
use super::series::Recorder;
use super::tcp_flows::TcpConn;
use super::{Event, Flow, FlowStats, Node, Role, World};
use crate::ap::{DelayInjection, RwndClamp};
use crate::app::{FileSequence, Pattern, TraceSource, UdpSource};
use crate::channel::receiver::Rule;
use crate::channel::{BurstLinks, Channel, Hearing, IidLoss, LinkBudget, Positions};
use crate::channel::{Ppdu, Radio, Reception, Shadowing};
use crate::mac::beacon::beacon_times;
use crate::mac::{AccessParams, Backoff, Entity, Mac, MacRules, MacStats, PacketInfo, SlotRule};
use crate::net::{Edge, Link, NodeId, Routes, TxQueue, Wires};
use crate::phy::Phy;
use crate::scenario::channel::Medium;
use crate::scenario::model::{NodeSpec, Offered};
use crate::scenario::{Model, ScenarioError, TraceStart};
use crate::sim::event::EventQueue;
use crate::sim::rng::{Rng, StreamKind};
use crate::sim::time::Time;
use crate::tcp::{header_bytes, TcpReceiver, TcpSender};
use crate::trace::pcap::{
    window_scale, CaptureBeacon, CaptureConfig, CaptureNode, CaptureTcp, PcapRecorder,
};
use crate::trace::{PacketRecorder, Trace};

/// Nodes and their channel-access entities as they are built from the model.
struct Nodes {
    nodes: Vec<Node>,
    entities: Vec<Entity>,
    /// Per AP that sends beacons: (node, its beacon entity, the interval).
    beacons: Vec<(NodeId, u32, Time)>,
}

impl Nodes {
    /// Node `x` with its entities, each drawing its backoff from a stream named after the
    /// node (and its AC).
    fn add(&mut self, x: &NodeSpec, phy: &Phy, rules: MacRules, seed: u64) {
        let id = self.nodes.len() as NodeId;
        let first = self.entities.len() as u32;
        if let Some(access) = &x.access {
            let queue = match access.ack_queue {
                Some(a) => TxQueue::split(access.queue, a),
                None => TxQueue::shared(access.queue),
            };
            for &(ac, params) in &access.entities {
                let stream = match ac {
                    Some(ac) => format!("{}/{}", x.name, ac.name()),
                    None => x.name.clone(),
                };
                let mut backoff = Backoff::new(
                    params.cw_min,
                    Rng::named(seed, StreamKind::Backoff, &stream),
                );
                if ac.is_some() {
                    backoff.rule = SlotRule::Edca;
                }
                backoff.rules = rules;
                self.entities.push(Entity {
                    node: id,
                    ac,
                    queue: queue.clone(),
                    head: None,
                    backoff,
                    params,
                    stats: MacStats::default(),
                    beacon: None,
                });
            }
        }
        self.nodes.push(Node {
            name: x.name.clone(),
            role: x.role,
            entities: first..self.entities.len() as u32,
            bss: x.bss,
        });
        // An AP's beacons: an entity of their own right after the AP's (so that they win
        // its internal collisions, 9.19.2.3), outside the node's range (no packet of the
        // network layer goes there); DCF, or the AP's AC_VO parameters, one exchange per
        // access.
        if let Some(spec) = &x.beacon {
            let like = self.entities.last().expect("an AP has an entity");
            let (ac, rule) = (like.ac, like.backoff.rule);
            let params = AccessParams {
                txop_limit: 0,
                msdu_lifetime: None,
                ..like.params
            };
            let stream = format!("{}/beacon", x.name);
            let mut backoff = Backoff::new(
                params.cw_min,
                Rng::named(seed, StreamKind::Backoff, &stream),
            );
            backoff.rule = rule;
            backoff.rules = rules;
            self.beacons
                .push((id, self.entities.len() as u32, spec.interval));
            self.entities.push(Entity {
                node: id,
                ac,
                queue: TxQueue::shared(1),
                head: None,
                backoff,
                params,
                stats: MacStats::default(),
                beacon: Some(beacon_times(phy, spec)),
            });
        }
    }
}

impl World {
    /// The world of a resolved scenario, its random streams under `seed`.
    pub fn from_model(m: &Model, seed: u64) -> Result<World, ScenarioError> {
        let (phy, rules) = (m.phy.clone(), m.rules);
        let mut n = Nodes {
            nodes: Vec::with_capacity(m.nodes.len()),
            entities: Vec::new(),
            beacons: Vec::new(),
        };
        for x in &m.nodes {
            n.add(x, &phy, rules, seed);
        }

        // Every wired link is two directed links, 2k (a → b) and 2k + 1 (b → a).
        let mut wires = Wires::default();
        for l in &m.links {
            wires
                .links
                .push(Link::new(l.a, l.b, l.rate, l.delay, l.queue));
            wires
                .links
                .push(Link::new(l.b, l.a, l.rate, l.delay, l.queue));
        }
        let ap_of: Vec<Option<NodeId>> = m
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

        let classifier = m.classifier.clone();
        let mut flows = Vec::with_capacity(m.flows.len());
        let mut conns = Vec::new();
        for x in &m.flows {
            let (fi, name) = (x.spec as usize, &x.name);
            for (a, b) in [(x.src, x.dst), (x.dst, x.src)] {
                if routes.path(a, b, &link_to).is_none() {
                    return Err(ScenarioError::new(
                        format!("flows[{fi}]"),
                        format!(
                            "flow {name}: no route from {} to {}; connect them with [[links]] (or a server's `via`)",
                            m.nodes[a as usize].name, m.nodes[b as usize].name
                        ),
                    ));
                }
            }
            // The entity a saturated source keeps full: its packets' class at the
            // source (the network layer classifies every packet the same way).
            let packet = PacketInfo {
                flow: x.spec,
                ip_bytes: x.ip_bytes,
                dscp: x.dscp,
                tcp_ack: false,
            };
            let entity = entity_for(&n.nodes[x.src as usize], &classifier, &packet);
            let files = x.files.clone().map(|f| {
                let fresh = f.new_connection;
                let mut seq = FileSequence::new(f.sizes, f.think, fresh, f.pad_to, seed, name);
                seq.think_first = f.think_first;
                seq
            });
            let tcp = x.tcp.as_ref().map(|cfg| {
                conns.push(TcpConn {
                    sender: TcpSender::new(cfg, x.bytes),
                    receiver: TcpReceiver::new(cfg),
                    cfg: cfg.clone(),
                    mss: cfg.mss,
                    header_bytes: header_bytes(cfg),
                    epoch: 0,
                    files,
                    completed: None,
                    past: Default::default(),
                    base_sender: Default::default(),
                    base_receiver: Default::default(),
                });
                conns.len() as u32 - 1
            });
            let udp = x.udp.as_ref().map(|u| {
                let mut rng = Rng::named(seed, StreamKind::Traffic, name);
                let pattern = match &u.offered {
                    Offered::Saturated => Pattern::Saturated,
                    &Offered::Cbr { interval } => Pattern::Cbr { interval },
                    &Offered::Poisson { mean } => Pattern::Poisson { mean },
                    Offered::Game(game) => Pattern::Game(game.clone()),
                    Offered::Trace { frames, start } => {
                        let first = match start {
                            TraceStart::First => 0,
                            TraceStart::Random => {
                                rng.uniform_inclusive(frames.len() as u32 - 1) as usize
                            }
                        };
                        Pattern::Trace(TraceSource::new(frames.clone(), first))
                    }
                };
                UdpSource::new(u.payload, pattern, u.stop, rng)
            });
            flows.push(Flow {
                name: name.clone(),
                direction: x.direction,
                src: x.src,
                dst: x.dst,
                spec: x.spec,
                dscp: x.dscp,
                entity,
                tcp,
                udp,
                start: x.start,
                origin_header: x.origin_header,
                acct: Default::default(),
                stats: FlowStats::default(),
                external: None,
            });
        }

        let drops = scripted_drops(m, &n.nodes, &flows, &conns, &routes, &link_to)?;
        let mut events = EventQueue::new();
        for (i, f) in flows.iter().enumerate() {
            events.schedule(f.start, Event::SourceStart(i as u32));
        }
        if m.warmup > 0 {
            events.schedule(m.warmup, Event::WarmupEnd);
        }
        // The first TBTT of every AP at 0.
        for i in 0..n.beacons.len() {
            events.schedule(0, Event::Beacon(i as u32));
        }
        let interval = m.output.series_interval;
        let samples = ((m.end - m.warmup) / interval) as usize;
        let series = Recorder::new(
            &m.output.series,
            interval,
            samples,
            flows.len(),
            n.nodes.len(),
        );
        if !series.is_empty() {
            events.schedule(m.warmup + interval, Event::Sample);
        }
        let rwnd_clamp = m
            .aps
            .iter()
            .map(|ap| {
                ap.rwnd_clamp
                    .map(|(buffer, idle)| RwndClamp::new(buffer, idle, flows.len()))
            })
            .collect();
        let delay_injection = m
            .aps
            .iter()
            .map(|ap| {
                ap.delay_injection
                    .map(|p| DelayInjection::new(p, flows.len()))
            })
            .collect();
        let recorder = m
            .output
            .packets
            .then(|| PacketRecorder::new(m.flows.iter().map(|f| f.packets).collect()));
        let capture = match &m.output.pcap {
            None => None,
            Some(pcap) => Some(
                PcapRecorder::create(CaptureConfig {
                    dir: std::path::Path::new(&pcap.dir),
                    per_bss: pcap.per_bss,
                    snaplen: pcap.snaplen,
                    nodes: n
                        .nodes
                        .iter()
                        .zip(&m.nodes)
                        .map(|(x, spec)| CaptureNode {
                            name: x.name.clone(),
                            bss: x.bss,
                            is_ap: x.role == Role::AccessPoint,
                            beacon: spec.beacon.as_ref().map(|b| CaptureBeacon {
                                interval: b.interval,
                                rate: b.rate,
                                short_preamble: phy.short_preamble(b.plcp),
                                elements: b.elements.clone(),
                            }),
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
                    origin_headers: flows.iter().map(|f| (f.src, f.origin_header)).collect(),
                    qos_data: phy.ht.is_some(),
                    nav: phy.sifs + phy.ack_time(),
                })
                .map_err(|e| ScenarioError::new("output.pcap", e))?,
            ),
        };
        // Per-node captures on the spatial medium hold what each node heard.
        let trace_heard = m.output.pcap.as_ref().is_some_and(|p| !p.per_bss);
        let trace = (recorder.is_some() || capture.is_some()).then_some(Trace {
            packets: recorder,
            pcap: capture,
        });
        let links = m.nodes.iter().map(|x| x.rates).collect();
        let mut mac = Mac::new(phy, m.rts_threshold, n.entities, links, rules, m.eifs);
        mac.store.trace = trace.is_some();
        mac.store.trace_heard = trace_heard;
        if let Some(config) = m.aggregation {
            mac.aggregate(config);
        }
        let n_entities = mac.store.entities.len();
        let bursty = m.nodes.iter().any(|x| x.bursts != (None, None));
        let bursts = bursty.then(|| {
            let nodes = m.nodes.iter();
            BurstLinks::new(
                seed,
                nodes.map(|x| (x.name.as_str(), x.bursts.0.as_ref(), x.bursts.1.as_ref())),
            )
        });
        let propagation = &m.propagation;
        let budget = LinkBudget::new(
            propagation.as_ref().map(|p| p.path_loss()),
            m.rx_power_dbm,
            m.nodes.iter().map(|x| x.antenna_gain_db),
        );
        if let Some(params) = m.reception {
            mac.break_ties(params.tie_break);
        }
        let mut channel = Channel::new(
            IidLoss::new(seed, m.nodes.iter().map(|x| (x.name.as_str(), x.fer))),
            bursts,
            propagation.as_ref().and_then(|p| {
                let nodes = m.nodes.iter().map(|x| (x.name.as_str(), x.radio.rx_w));
                let params = p.shadowing()?;
                Some((Shadowing::new(seed, params, nodes), p.control_frames))
            }),
            Positions::new(m.nodes.iter().map(|x| x.trajectory.clone()).collect()),
            m.reception.map(|params| {
                let nodes = m.nodes.iter().map(|x| x.name.as_str());
                Reception::new(seed, params, m.phy.modulation, nodes)
            }),
            budget,
        );
        // The medium (ARCHITECTURE.md): shared where every node hears every other on one
        // channel (decodes it, when no shadowing draw decides) and no receiver can
        // capture a frame by the capture threshold, spatial otherwise.
        let radios: Vec<Radio> = m.nodes.iter().map(|x| x.radio).collect();
        let reach = channel.reach_factor();
        let hearing = Hearing::new(radios, &channel.budget, &channel.positions, reach);
        let rule = m.reception_rule;
        let spatial = match m.medium {
            Medium::Spatial => true,
            Medium::Auto => {
                let (budget, positions) = (&channel.budget, &channel.positions);
                // Two-ray ground draws nothing: a frame below the receive threshold is
                // lost where the shared medium would deliver it.
                let decodes = budget.has_path() && !channel.draws_reception();
                // Shadowing draws each frame's power at each node: two frames can then
                // be the capture threshold apart anywhere.
                !hearing.everyone_hears(budget, positions, decodes)
                    || match rule {
                        Rule::Threshold { ratio } => {
                            reach < 1.0 || hearing.capture_possible(budget, positions, ratio)
                        }
                        Rule::Overlap | Rule::Sinr { .. } => false,
                    }
            }
        };
        let (ampdu, amsdu) = m
            .aggregation
            .map_or((0, 0), |a| (a.max_bytes, a.amsdu_bytes));
        let aggregated = [
            ("mac.ampdu_max_bytes", ampdu, "A-MPDU"),
            ("mac.amsdu_max_bytes", amsdu, "A-MSDU"),
        ];
        if let Some((key, bytes, what)) = aggregated.into_iter().find(|a| spatial && a.1 > 0) {
            return Err(ScenarioError::new(
                key,
                format!(
                    "{bytes}: this scenario runs on the spatial medium (channel.medium = \"spatial\", or positions where not every node hears every other or a frame can be captured), which has no {what} yet; {what}s need the shared medium"
                ),
            ));
        }
        if spatial {
            let beacon_ppdu = mac
                .store
                .entities
                .iter()
                .map(|e| {
                    let spec = m.nodes[e.node as usize].beacon.as_ref();
                    spec.filter(|_| e.beacon.is_some()).map(|b| Ppdu {
                        rate: b.rate,
                        bytes: b.mpdu_bytes(),
                        short_preamble: mac.store.phy.short_preamble(b.plcp),
                        ht: None,
                    })
                })
                .collect();
            mac.use_spatial(m.nodes.len(), rule, beacon_ppdu);
            channel.hearing = Some(hearing.with_lists(&channel.budget, &channel.positions));
        }
        mac.store.rate = super::rate::rate_control(m, &channel, spatial, seed)?.map(Box::new);
        Ok(World {
            mac,
            nodes: n.nodes,
            beacons: n.beacons,
            channel,
            flows,
            channels: m
                .nodes
                .iter()
                .map(|x| x.radio.channel.unwrap_or(0))
                .collect(),
            ssids: m.aps.iter().map(|ap| ap.ssid.clone()).collect(),
            wires,
            routes,
            conns,
            outbox: Default::default(),
            rwnd_clamp,
            delay_injection,
            classifier,
            saturated: vec![(Vec::new(), 0); n_entities],
            hand_down: super::forward::HandDown::new(m.rules),
            events,
            trace,
            drops,
            series,
            warmup: m.warmup,
            end: m.end,
            seed,
            edge: None,
        })
    }
}

/// The `[[drops]]` rules per flow (None without any: the network layer then skips them in
/// one branch). Each entry's node must send packets of each of its flows: the data's
/// source or a node on the data's path for segments; for a window also the ACKs' path.
fn scripted_drops(
    m: &Model,
    nodes: &[Node],
    flows: &[Flow],
    conns: &[TcpConn],
    routes: &Routes,
    link_to: &[NodeId],
) -> Result<Option<ScriptedDrops>, ScenarioError> {
    if m.drops.is_empty() {
        return Ok(None);
    }
    let mut drops = ScriptedDrops::new(flows.len());
    for (i, d) in m.drops.iter().enumerate() {
        let node = d.at;
        for &fi in &d.flows {
            let f = &flows[fi as usize];
            // The nodes that send this flow's packets: the data's source and the nodes
            // before its destination; with a window also the ACKs' (TCP).
            let mut senders = vec![f.src];
            let path = routes.path(f.src, f.dst, link_to).expect("routes checked");
            senders.extend(&path[..path.len() - 1]);
            if d.window.is_some() && f.tcp.is_some() {
                senders.push(f.dst);
                let back = routes.path(f.dst, f.src, link_to).expect("routes checked");
                senders.extend(&back[..back.len() - 1]);
            }
            if !senders.contains(&node) {
                senders.sort_unstable();
                senders.dedup();
                let names: Vec<&str> = senders
                    .iter()
                    .map(|&x| nodes[x as usize].name.as_str())
                    .collect();
                return Err(ScenarioError::new(
                    format!("drops[{i}].at"),
                    format!(
                        "\"{}\" sends no packet of flow {}; the nodes that do: {}",
                        nodes[node as usize].name,
                        f.name,
                        names.join(", ")
                    ),
                ));
            }
            match (d.window, f.tcp) {
                (Some((from, to)), _) => drops.add_window(fi, node, from, to),
                (None, Some(c)) => {
                    drops.add_segments(fi, node, conns[c as usize].mss, d.transmission, &d.segments)
                }
                (None, None) => unreachable!("validated: segments need a TCP flow"),
            }
        }
    }
    Ok(Some(drops))
}
