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
use crate::app::trace_source::Frame;
use crate::app::{FileSequence, Pattern, TraceSource, Traffic, UdpSource};
use crate::channel::receiver::Rule;
use crate::channel::{BurstLinks, Channel, Hearing, IidLoss, LinkBudget, Positions};
use crate::channel::{Ppdu, Radio, Reception, Shadowing};
use crate::mac::beacon::beacon_times;
use crate::mac::{AccessParams, Backoff, Entity, Mac, MacRules, MacStats, PacketInfo, SlotRule};
use crate::net::{Edge, Link, NodeId, Routes, TxQueue, Wires};
use crate::phy::Phy;
use crate::scenario::channel::Medium;
use crate::scenario::model::NodeSpec;
use crate::scenario::{Model, PcapPer, Scenario, ScenarioError, TraceStart};
use crate::sim::event::EventQueue;
use crate::sim::rng::{Rng, StreamKind};
use crate::sim::time::Time;
use crate::sim::time::SECOND;
use crate::tcp::{header_bytes, TcpReceiver, TcpSender};
use crate::trace::pcap::{
    window_scale, CaptureBeacon, CaptureConfig, CaptureNode, CaptureTcp, PcapRecorder,
};
use crate::trace::{PacketRecorder, Trace};
use std::sync::Arc;

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
    pub fn new(s: &Scenario, seed: u64) -> Result<World, ScenarioError> {
        let m = Model::resolve(s)?;
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

        let classifier = s.qos.classifier(&s.flows);
        let mut flows = Vec::with_capacity(m.flows.len());
        let mut conns = Vec::new();
        // Per `[[flows]]` entry: its trace's frames, read once for all its flows.
        let mut traces: Vec<Option<Arc<[Frame]>>> = vec![None; s.flows.len()];
        for x in &m.flows {
            let (fi, f, name) = (x.spec as usize, x.config, &x.name);
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
                dscp: f.dscp,
                tcp_ack: false,
            };
            let entity = entity_for(&n.nodes[x.src as usize], &classifier, &packet);
            let files = match (&f.files, &x.tcp) {
                (Some(files), Some(cfg)) => {
                    let (sizes, think) = files.sequence(&format!("flows[{fi}].files"))?;
                    let pad = if files.pad_last_segment {
                        cfg.mss as u64
                    } else {
                        1
                    };
                    let fresh = files.new_connection;
                    let mut seq = FileSequence::new(sizes, think, fresh, pad, seed, name);
                    seq.think_first = files.think_first;
                    Some(seq)
                }
                _ => None,
            };
            let tcp = x.tcp.as_ref().map(|cfg| {
                conns.push(TcpConn {
                    sender: TcpSender::new(cfg, f.bytes.map(|b| b.0)),
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
            // The offered rate counts IP bytes, as a CBR source over UDP/IP would.
            let interval = f.rate.map_or(0.0, |r| {
                x.ip_bytes as f64 * 8.0 / r.0 as f64 * SECOND as f64
            });
            let udp = match x.tcp {
                Some(_) => None,
                None => {
                    let mut rng = Rng::named(seed, StreamKind::Traffic, name);
                    let pattern = match f.traffic {
                        Traffic::Saturated => Pattern::Saturated,
                        Traffic::Cbr => Pattern::Cbr { interval },
                        Traffic::Poisson => Pattern::Poisson { mean: interval },
                        Traffic::Game => Pattern::Game(
                            f.game
                                .clone()
                                .unwrap_or_default()
                                .source(f.direction, &format!("flows[{fi}].game"))?,
                        ),
                        Traffic::Trace => {
                            let t = f.trace.as_ref().expect("validated: a trace flow has one");
                            let frames = match &traces[fi] {
                                Some(frames) => Arc::clone(frames),
                                None => {
                                    let frames = t.frames(&format!("flows[{fi}].trace"))?;
                                    traces[fi] = Some(Arc::clone(&frames));
                                    frames
                                }
                            };
                            let first = match t.start {
                                TraceStart::First => 0,
                                TraceStart::Random => {
                                    rng.uniform_inclusive(frames.len() as u32 - 1) as usize
                                }
                            };
                            Pattern::Trace(TraceSource::new(frames, first))
                        }
                    };
                    Some(UdpSource::new(
                        f.udp_payload().0 as u32,
                        pattern,
                        f.stop.map_or(u64::MAX, |d| d.0),
                        rng,
                    ))
                }
            };
            flows.push(Flow {
                name: name.clone(),
                direction: f.direction,
                src: x.src,
                dst: x.dst,
                spec: x.spec,
                dscp: f.dscp,
                entity,
                tcp,
                udp,
                start: f.start.0,
                origin_header: x.origin_header,
                acct: Default::default(),
                stats: FlowStats::default(),
                external: None,
            });
        }

        let drops = scripted_drops(&m, &n.nodes, &flows, &conns, &routes, &link_to)?;
        let mut events = EventQueue::new();
        for (i, f) in flows.iter().enumerate() {
            events.schedule(f.start, Event::SourceStart(i as u32));
        }
        if s.warmup.0 > 0 {
            events.schedule(s.warmup.0, Event::WarmupEnd);
        }
        // The first TBTT of every AP at 0.
        for i in 0..n.beacons.len() {
            events.schedule(0, Event::Beacon(i as u32));
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
                    data_rate: phy.data_rate,
                    ht: phy.ht,
                    nav: phy.sifs + phy.ack_time(),
                    ampdu: s.mac.ampdu_max_bytes > 0,
                })
                .map_err(|e| ScenarioError::new("output.pcap", e))?,
            ),
        };
        // Per-node captures on the spatial medium hold what each node heard.
        let trace_heard = capture.is_some() && s.output.pcap_per != PcapPer::Bss;
        let trace = (recorder.is_some() || capture.is_some()).then_some(Trace {
            packets: recorder,
            pcap: capture,
        });
        let links = m.nodes.iter().map(|x| x.rates).collect();
        let mut mac = Mac::new(phy, m.rts_threshold, n.entities, links, rules);
        mac.store.trace = trace.is_some();
        mac.store.trace_heard = trace_heard;
        if let Some(config) = s.aggregation() {
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
        let propagation = s.propagation();
        let budget = LinkBudget::new(
            propagation.as_ref().map(|p| p.path_loss()),
            s.channel
                .reception
                .as_ref()
                .map_or(crate::scenario::reception::DEFAULT_RX_POWER_DBM, |r| {
                    r.rx_power_dbm
                }),
            m.nodes.iter().map(|x| x.antenna_gain_db),
        );
        let mut channel = Channel::new(
            IidLoss::new(seed, m.nodes.iter().map(|x| (x.name.as_str(), x.fer))),
            bursts,
            propagation.as_ref().and_then(|p| {
                let nodes = m.nodes.iter().map(|x| (x.name.as_str(), x.radio.rx_w));
                let params = p.shadowing()?;
                Some((Shadowing::new(seed, params, nodes), p.control_frames))
            }),
            Positions::new(m.nodes.iter().map(|x| x.trajectory.clone()).collect()),
            reception(seed, s, &m)?,
            budget,
        );
        // The medium (ARCHITECTURE.md): shared where every node hears every other on one
        // channel (decodes it, when no shadowing draw decides) and no receiver can
        // capture a frame by the capture threshold, spatial otherwise.
        let radios: Vec<Radio> = m.nodes.iter().map(|x| x.radio).collect();
        let reach = channel.reach_factor();
        let hearing = Hearing::new(radios, &channel.budget, &channel.positions, reach);
        let rule = s.reception_rule();
        let spatial = match s.channel.medium {
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
        let aggregated = [
            ("mac.ampdu_max_bytes", s.mac.ampdu_max_bytes, "A-MPDU"),
            ("mac.amsdu_max_bytes", s.mac.amsdu_max_bytes, "A-MSDU"),
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
    let s = m.scenario;
    if s.drops.is_empty() {
        return Ok(None);
    }
    let mut drops = ScriptedDrops::new(flows.len());
    for (i, d) in s.drops.iter().enumerate() {
        let (entry, _) =
            crate::scenario::drops::flow_target(s, &d.flow).expect("validated: the flow exists");
        let node = m.id(&d.at);
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
                    .map(|&x| nodes[x as usize].name.as_str())
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

/// SINR reception when the scenario asks for it: every link's rates need error curves.
fn reception(seed: u64, s: &Scenario, m: &Model) -> Result<Option<Reception>, ScenarioError> {
    let Some(params) = s.channel.reception.as_ref().and_then(|r| r.params()) else {
        return Ok(None);
    };
    let modulation = m.phy.modulation;
    let fixed = crate::phy::LinkRates::fixed(&m.phy);
    crate::scenario::reception::check_rates(
        modulation,
        m.nodes.iter().filter_map(|x| x.rates).chain([fixed]),
    )?;
    Ok(Some(Reception::new(
        seed,
        params,
        modulation,
        m.nodes.iter().map(|x| x.name.as_str()),
    )))
}
