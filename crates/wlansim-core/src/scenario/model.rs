//! The scenario resolved, in one pass after validation, into what the components are built
//! from: every node named and numbered once (APs, stations, routers, servers, in this
//! order) with its channel access (queue capacity and the parameters of each entity), its
//! radio link (frame error rates, burst models, rates), the wired links between node ids,
//! and each `[[flows]]` entry expanded per station into flows between two node ids with
//! their TCP configuration. Checks that need the whole topology (a flow to itself, a
//! saturated source on a wired node) are made here, and so is everything else the world
//! is built from: each flow's source (file sizes, game draws, trace frames read once per
//! entry), the scripted drops between flow and node ids, the channel's models, the
//! output's recorders. `world/build.rs` turns a [`Model`] into components; it never sees
//! the [`Scenario`], resolves no name and applies no default of its own.
use super::channel::Medium;
use super::propagation::PropagationConfig;
use super::reception::ReceptionModel;
use super::{qos, Direction, Protocol, Scenario, ScenarioError, Traffic};
use super::{EdcaConfig, MacConfig, PcapPer, SeriesKind, StationGroup, TraceStart};
use super::{FlowConfig, Power};
use crate::ap::delay_injection::Params as DelayParams;
use crate::app::trace_source::Frame;
use crate::app::{Draw, FileSizes, GameSource};
use crate::channel::power::watts;
use crate::channel::receiver::Rule;
use crate::channel::reception::ReceptionParams;
use crate::channel::{BurstSpec, Radio, Trajectory};
use crate::mac::aggregate::AggregationConfig;
use crate::mac::rate::first_reports::FirstReports;
use crate::mac::rate::minstrel_ht::Airtime;
use crate::mac::rate::RateAlgorithm;
use crate::mac::{AccessCategory, AccessParams, Classifier, EifsStart, MacRules};
use crate::net::{Kind, NodeId};
use crate::phy::{cca, channels, frame, LinkRates, Phy};
use crate::sim::time::{Time, SECOND};
use crate::tcp::{header_bytes, TcpConfig};
use std::collections::HashMap;
use std::sync::Arc;

/// Largest number of wired nodes (APs, routers, servers): the route table holds one entry
/// per pair of them.
pub const MAX_WIRED_NODES: usize = 4096;

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    AccessPoint,
    Station,
    Router,
    Server,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::AccessPoint => "ap",
            Role::Station => "station",
            Role::Router => "router",
            Role::Server => "server",
        }
    }
}

/// A node's channel access: its interface queue and one entity (DCF) or four (EDCA, AC_BK
/// … AC_VO) that share it.
#[derive(Clone, Debug)]
pub struct Access {
    /// Capacity of the queue in packets, the frame in service included. ns-2.35's
    /// interface queue of B holds the same: `DropTail::enque` (`queue/drop-tail.cc`)
    /// refuses a packet once B − 1 wait, and the MAC holds one more.
    pub queue: u32,
    /// A separate queue for TCP ACKs at an AP (`ack_queue`), as given.
    pub ack_queue: Option<u32>,
    pub entities: Vec<(Option<AccessCategory>, AccessParams)>,
}

#[derive(Clone, Debug)]
pub struct NodeSpec {
    pub name: String,
    pub role: Role,
    /// The AP of its BSS (an AP's own id); None for a wired node.
    pub bss: Option<NodeId>,
    /// None for a wired node.
    pub access: Option<Access>,
    /// A station's (uplink, downlink) i.i.d. frame error rates; 0 where a burst model
    /// replaces them.
    pub fer: (f64, f64),
    /// A station's (uplink, downlink) burst loss models.
    pub bursts: (Option<BurstSpec>, Option<BurstSpec>),
    /// The rates of a station's link with its AP.
    pub rates: Option<LinkRates>,
    /// Where a wireless node is over time (metres); None when no position is given, and
    /// for wired nodes.
    pub trajectory: Option<Trajectory>,
    /// Antenna gain, dB (`antenna_gain_db` of an AP or a station group; 0 elsewhere).
    pub antenna_gain_db: f64,
    /// Its channel and thresholds (a wired node has no channel).
    pub radio: Radio,
    /// An AP's beacons (`beacon_interval`); None: it sends none.
    pub beacon: Option<crate::mac::beacon::BeaconSpec>,
}

/// A wired link (two directed links, a → b and b → a).
#[derive(Clone, Copy, Debug)]
pub struct LinkSpec {
    pub a: NodeId,
    pub b: NodeId,
    pub rate: u64,
    pub delay: Time,
    pub queue: u32,
}

/// One flow: a `[[flows]]` entry for one station of its group.
#[derive(Clone, Debug)]
pub struct FlowSpec {
    /// `<entry>-<i>` for the entry's i-th station.
    pub name: String,
    /// Index of the `[[flows]]` entry.
    pub spec: u32,
    pub direction: Direction,
    pub dscp: Option<u8>,
    /// When the source starts.
    pub start: Time,
    /// TCP: payload bytes to transfer; None: persistent (bulk), or `files`.
    pub bytes: Option<u64>,
    /// TCP: the files sent one after another.
    pub files: Option<FilesSpec>,
    /// A UDP flow's source.
    pub udp: Option<UdpSpec>,
    /// Its packets are recorded one by one (`output.packets`).
    pub packets: bool,
    /// Source and destination of the data.
    pub src: NodeId,
    pub dst: NodeId,
    /// The connection's configuration (TCP flows).
    pub tcp: Option<TcpConfig>,
    /// IP bytes of a full-sized data packet, as its transport sizes it.
    pub ip_bytes: u32,
    /// Bytes the routing agent adds to the packets each end originates (`net::
    /// routing_agent`): [data at `src`, TCP's reverse packets at `dst`].
    pub origin_header: [u32; 2],
}

/// A TCP flow's files (`flows[i].files`), checked.
#[derive(Clone, Debug)]
pub struct FilesSpec {
    pub sizes: FileSizes,
    /// Time from one file's completion to the next request, ns.
    pub think: Draw,
    pub new_connection: bool,
    pub think_first: bool,
    /// Bytes written per file are rounded up to a multiple of this; 1: no padding.
    pub pad_to: u64,
}

/// A UDP flow's source.
#[derive(Clone, Debug)]
pub struct UdpSpec {
    /// Payload bytes per packet.
    pub payload: u32,
    pub offered: Offered,
    /// No packet is created from this time on.
    pub stop: Time,
}

/// How a UDP source sends (`traffic`), its draws checked and its trace read.
#[derive(Clone, Debug)]
pub enum Offered {
    Saturated,
    /// A packet every `interval` ns.
    Cbr {
        interval: f64,
    },
    /// Exponential gaps of mean `mean` ns.
    Poisson {
        mean: f64,
    },
    Game(GameSource),
    Trace {
        frames: Arc<[Frame]>,
        start: TraceStart,
    },
}

/// An AP's BSS name and the mechanisms it runs.
#[derive(Clone, Debug)]
pub struct ApSpec {
    pub ssid: String,
    /// `rwnd_clamp`: the AP's whole buffer B in packets and `flow_idle_timeout`.
    pub rwnd_clamp: Option<(u32, Time)>,
    pub delay_injection: Option<DelayParams>,
}

/// A `[[drops]]` entry between ids.
#[derive(Clone, Debug)]
pub struct DropSpec {
    /// The flows (indices into [`Model::flows`]) it applies to.
    pub flows: Vec<u32>,
    /// The node whose outgoing packets are dropped.
    pub at: NodeId,
    /// A window [from, to) in which every packet of the flows is dropped (else segments).
    pub window: Option<(Time, Time)>,
    pub transmission: u32,
    pub segments: Vec<u32>,
}

/// What the run records beside its results (`[output]`).
#[derive(Clone, Debug)]
pub struct Output {
    pub series: Vec<SeriesKind>,
    pub series_interval: Time,
    /// Packets are recorded one by one (those of the flows whose `packets` is set).
    pub packets: bool,
    pub pcap: Option<PcapSpec>,
}

/// pcap captures (`output.pcap`, `pcap_per`, `pcap_snaplen`).
#[derive(Clone, Debug)]
pub struct PcapSpec {
    pub dir: String,
    /// One capture of the air per BSS (else per node).
    pub per_bss: bool,
    pub snaplen: u32,
}

/// A validated scenario, resolved.
pub struct Model {
    /// The PHY with the preset, the profile and every override applied.
    pub phy: Phy,
    pub rules: MacRules,
    /// Where the EIFS after a reception in error begins.
    pub eifs: EifsStart,
    /// dot11RTSThreshold in MPDU bytes; None: off.
    pub rts_threshold: Option<u32>,
    /// A-MPDUs (`mac.ampdu_max_bytes` above 0); None: off.
    pub aggregation: Option<AggregationConfig>,
    pub nodes: Vec<NodeSpec>,
    /// Per AP, in node order.
    pub aps: Vec<ApSpec>,
    /// Each server's link to its AP or router, then the `[[links]]`.
    pub links: Vec<LinkSpec>,
    pub flows: Vec<FlowSpec>,
    /// The access category of each packet (`[qos]`).
    pub classifier: Classifier,
    pub drops: Vec<DropSpec>,
    /// The propagation model the run uses ([`Scenario::propagation`]).
    pub propagation: Option<PropagationConfig>,
    /// Received power without a propagation model, dBm.
    pub rx_power_dbm: f64,
    /// SINR reception's parameters (every link's rates have error curves); None: off.
    pub reception: Option<ReceptionParams>,
    /// How receivers decide ([`Scenario::reception_rule`]).
    pub reception_rule: Rule,
    pub medium: Medium,
    /// End of the warm-up and of the run.
    pub warmup: Time,
    pub end: Time,
    pub output: Output,
    /// The station groups whose links adapt their rate; empty: every link keeps its rate.
    pub rate: Vec<RateGroupSpec>,
    by_name: HashMap<String, NodeId>,
}

/// A station group whose links adapt their rate (`mac.rate_control`,
/// `stations[].rate_control`): its algorithm, its ladder of rates and its links' nodes.
#[derive(Clone, Debug)]
pub struct RateGroupSpec {
    /// The key that chose the algorithm (for an error the world raises).
    pub key: &'static str,
    pub algorithm: RateAlgorithm,
    /// The rates the controller may pick, lowest first ([`Scenario::rate_ladder`]).
    pub rungs: Vec<LinkRates>,
    pub ap: NodeId,
    pub stations: Vec<NodeId>,
    /// The stations' links hear ns-3.37's first reports (`mac.rate_first_reports`).
    pub first_reports: bool,
    /// How Minstrel-HT times the ladder's MPDUs (`mac.minstrel_ht_airtime`).
    pub airtime: Airtime,
}

impl Model {
    pub fn resolve(s: &Scenario) -> Result<Model, ScenarioError> {
        let phy = s.phy();
        let rules = s.mac_rules();
        let o = &s.output;
        let mut m = Model {
            phy,
            rules,
            eifs: s.mac_profile().eifs_start(),
            rts_threshold: s.mac.rts_threshold.bytes(),
            aggregation: s.aggregation(),
            nodes: Vec::new(),
            aps: s.aps.iter().map(ApSpec::of).collect(),
            links: Vec::new(),
            flows: Vec::new(),
            classifier: s.qos.classifier(&s.flows),
            drops: Vec::new(),
            propagation: s.propagation(),
            rx_power_dbm: s
                .channel
                .reception
                .as_ref()
                .map_or(super::reception::DEFAULT_RX_POWER_DBM, |r| r.rx_power_dbm),
            reception: None,
            reception_rule: s.reception_rule(),
            medium: s.channel.medium,
            warmup: s.warmup.0,
            end: s.duration.0,
            output: Output {
                series: o.series.clone(),
                series_interval: o.series_interval.0,
                packets: !o.packets.is_off(),
                pcap: o.pcap.as_ref().map(|dir| PcapSpec {
                    dir: dir.clone(),
                    per_bss: o.pcap_per == PcapPer::Bss,
                    snaplen: o.pcap_snaplen,
                }),
            },
            rate: Vec::new(),
            by_name: HashMap::new(),
        };
        let wired = |name: String, role| NodeSpec {
            name,
            role,
            bss: None,
            access: None,
            fer: (0.0, 0.0),
            bursts: (None, None),
            rates: None,
            trajectory: None,
            antenna_gain_db: 0.0,
            radio: Radio {
                channel: None,
                rx_w: f64::INFINITY,
                cs_w: f64::INFINITY,
            },
            beacon: None,
        };
        for ap in &s.aps {
            let id = m.nodes.len() as NodeId;
            let mac = ap.mac(&s.mac);
            let access = m.access(
                ap.queue,
                ap.ack_queue,
                s.qos_node(ap.qos),
                ap.edca.as_ref(),
                &mac,
            );
            let channel = ap.channel.unwrap_or(channels::default_channel(m.phy.band));
            m.add(NodeSpec {
                bss: Some(id),
                access: Some(access),
                trajectory: ap.position.map(Trajectory::fixed),
                antenna_gain_db: ap.antenna_gain_db.unwrap_or(0.0),
                radio: m.radio(s, channel, ap.rx_threshold, ap.cs_threshold),
                beacon: s.beacons(&m.phy, ap),
                ..wired(ap.name.clone(), Role::AccessPoint)
            });
        }
        let mut group_nodes = Vec::new();
        for g in &s.stations {
            let queue = g.queue.unwrap_or(s.mac.queue);
            let access = m.access(queue, None, s.qos_node(g.qos), g.edca.as_ref(), &s.mac);
            let (up, down) = s.channel.group_bursts(g);
            let bursts = (
                up.map(|b| b.spec(&g.name, "uplink")),
                down.map(|b| b.spec(&g.name, "downlink")),
            );
            let mut fer = s.channel.group_fer(g);
            if bursts.0.is_some() {
                fer.0 = 0.0;
            }
            if bursts.1.is_some() {
                fer.1 = 0.0;
            }
            let ap = m.id(s.ap_of(g));
            let channel = m.nodes[ap as usize].radio.channel.expect("an AP's channel");
            let radio = m.radio(s, channel, g.rx_threshold, g.cs_threshold);
            let rates = s.link_rates(&m.phy, g);
            let ids: Vec<NodeId> = (0..g.count)
                .map(|i| {
                    m.add(NodeSpec {
                        bss: Some(ap),
                        access: Some(access.clone()),
                        fer,
                        bursts: bursts.clone(),
                        rates: Some(rates),
                        trajectory: g.position.map(|p| match &g.mobility {
                            Some(m) => m.trajectory(p),
                            None => Trajectory::fixed(p),
                        }),
                        antenna_gain_db: g.antenna_gain_db.unwrap_or(0.0),
                        radio,
                        ..wired(format!("{}-{i}", g.name), Role::Station)
                    })
                })
                .collect();
            group_nodes.push(ids);
        }
        for r in &s.routers {
            m.add(wired(r.name.clone(), Role::Router));
        }
        let mut server_groups = Vec::new();
        for g in &s.servers {
            let ids: Vec<NodeId> = (0..g.count)
                .map(|i| m.add(wired(format!("{}-{i}", g.name), Role::Server)))
                .collect();
            server_groups.push(ids);
        }
        let wired_nodes = m.nodes.iter().filter(|x| x.role != Role::Station).count();
        if wired_nodes > MAX_WIRED_NODES {
            return Err(ScenarioError::new(
                "servers",
                format!(
                    "{wired_nodes} APs, routers and servers: at most {MAX_WIRED_NODES} are allowed"
                ),
            ));
        }
        for (g, ids) in s.servers.iter().zip(&server_groups) {
            let hub = m.id(g.via.as_deref().unwrap_or(&s.aps[0].name));
            for &server in ids {
                m.links.push(LinkSpec {
                    a: server,
                    b: hub,
                    rate: g.rate.0,
                    delay: g.delay.0,
                    queue: g.queue,
                });
            }
        }
        for l in &s.links {
            m.links.push(LinkSpec {
                a: m.id(&l.a),
                b: m.id(&l.b),
                rate: l.rate.0,
                delay: l.delay.0,
                queue: l.queue,
            });
        }
        let routing_agent = s.routing_agent();
        for (fi, f) in s.flows.iter().enumerate() {
            let members = |groups: &[StationGroup], name: &str| {
                let k = groups.iter().position(|g| g.name == name);
                k.expect("validated: the station group exists")
            };
            let stations = &group_nodes[members(&s.stations, &f.stations)];
            let peers: Option<&Vec<NodeId>> = match (&f.server, &f.peer) {
                (Some(server), _) => {
                    let k = s.servers.iter().position(|g| &g.name == server);
                    Some(&server_groups[k.expect("validated: the server group exists")])
                }
                (None, Some(peer)) => Some(&group_nodes[members(&s.stations, peer)]),
                (None, None) => None,
            };
            let tcp = (f.protocol == Protocol::Tcp).then(|| s.tcp_config(fi));
            let ip_bytes = match &tcp {
                Some(cfg) => cfg.mss + header_bytes(cfg),
                None => f.udp_payload().0 as u32 + frame::IP_HEADER + frame::UDP_HEADER,
            };
            let files = match (&f.files, &tcp) {
                (Some(files), Some(cfg)) => Some(files_spec(files, cfg, fi)?),
                _ => None,
            };
            let udp = match tcp {
                Some(_) => None,
                None => Some(udp_spec(f, ip_bytes, fi)?),
            };
            let packets = o.packets.selects(&f.name);
            for (i, &sta) in stations.iter().enumerate() {
                // Station i's peer: member i mod count of the peer group, or its AP.
                let peer = match peers {
                    Some(p) => p[i % p.len()],
                    None => m.nodes[sta as usize].bss.expect("a station's AP"),
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
                            m.nodes[src as usize].name
                        ),
                    ));
                }
                if f.traffic == Traffic::Saturated
                    && tcp.is_none()
                    && m.nodes[src as usize].access.is_none()
                {
                    return Err(ScenarioError::new(
                        format!("flows[{fi}].traffic"),
                        format!(
                            "saturated: a saturated source keeps a MAC queue full, but {} is a wired node; use \"cbr\" or \"poisson\"",
                            m.nodes[src as usize].name
                        ),
                    ));
                }
                let kind = if tcp.is_some() { Kind::Tcp } else { Kind::Udp };
                let agent = |node: NodeId| match m.nodes[node as usize].access {
                    Some(_) => routing_agent.origin_header_bytes(kind),
                    None => 0,
                };
                m.flows.push(FlowSpec {
                    name,
                    spec: fi as u32,
                    direction: f.direction,
                    dscp: f.dscp,
                    start: f.start.0,
                    bytes: f.bytes.map(|b| b.0),
                    files: files.clone(),
                    udp: udp.clone(),
                    packets,
                    src,
                    dst,
                    tcp: tcp.clone(),
                    ip_bytes,
                    origin_header: [agent(src), agent(dst)],
                });
            }
        }
        m.drops = s
            .drops
            .iter()
            .map(|d| {
                let (entry, _) =
                    super::drops::flow_target(s, &d.flow).expect("validated: the flow exists");
                let flows = m.flows.iter().enumerate().filter(|(_, f)| {
                    f.spec as usize == entry && (d.flow == s.flows[entry].name || d.flow == f.name)
                });
                DropSpec {
                    flows: flows.map(|(i, _)| i as u32).collect(),
                    at: m.id(&d.at),
                    window: d.from.zip(d.to).map(|(from, to)| (from.0, to.0)),
                    transmission: d.transmission,
                    segments: d.segments.clone(),
                }
            })
            .collect();
        m.reception = m.sinr_reception(s)?;
        m.rate = s
            .stations
            .iter()
            .filter(|g| s.rate_control(g) != RateAlgorithm::Constant)
            .map(|g| RateGroupSpec {
                key: match g.rate_control {
                    Some(_) => "stations[].rate_control",
                    None => "mac.rate_control",
                },
                algorithm: s.rate_control(g),
                rungs: s.rate_ladder(&m.phy, g),
                ap: m.id(s.ap_of(g)),
                stations: (0..g.count)
                    .map(|i| m.id(&format!("{}-{i}", g.name)))
                    .collect(),
                first_reports: s.rate_first_reports() == FirstReports::Ns3,
                airtime: s.minstrel_ht_airtime(),
            })
            .collect();
        Ok(m)
    }

    /// SINR reception when the scenario asks for it: every link's rates need error curves.
    fn sinr_reception(&self, s: &Scenario) -> Result<Option<ReceptionParams>, ScenarioError> {
        let Some(params) = s.channel.reception.as_ref().and_then(|r| r.params()) else {
            return Ok(None);
        };
        let fixed = LinkRates::fixed(&self.phy);
        super::reception::check_rates(
            self.phy.modulation,
            self.nodes.iter().filter_map(|x| x.rates).chain([fixed]),
        )?;
        Ok(Some(ReceptionParams {
            header_failure: s.mac_profile().header_failure(),
            mpdu_span: s.mac_profile().mpdu_span(),
            tie_break: s.mac_profile().tie_break(),
            ..params
        }))
    }

    /// A wireless node's radio on `channel`: its thresholds (W) as given, else
    /// `[channel.propagation]`'s (ns-2's `RXThresh_`, `CSThresh_`), else (receive) the SINR
    /// model's sensitivity, else the standard's CCA levels (`phy/cca.rs`).
    fn radio(&self, s: &Scenario, channel: u16, rx: Option<Power>, cs: Option<Power>) -> Radio {
        let c = &s.channel;
        let propagation = &self.propagation;
        let tx_power = propagation.as_ref().map_or(0.281_838_15, |p| p.tx_power_w);
        let (rx_dbm, cs_dbm) = cca::thresholds_dbm(self.phy.modulation, tx_power);
        let sinr = c
            .reception
            .as_ref()
            .filter(|r| r.model == ReceptionModel::Sinr)
            .map(|r| watts(r.sensitivity_dbm));
        let propagation = propagation.as_ref();
        Radio {
            channel: Some(channel),
            rx_w: rx.map(|p| p.0).unwrap_or_else(|| {
                propagation
                    .map(|p| p.rx_threshold_w)
                    .or(sinr)
                    .unwrap_or_else(|| watts(rx_dbm))
            }),
            cs_w: cs
                .map(|p| p.0)
                .unwrap_or_else(|| propagation.map_or_else(|| watts(cs_dbm), |p| p.cs_threshold_w)),
        }
    }

    /// The id of the node called `name` (validated scenarios name existing nodes only).
    pub fn id(&self, name: &str) -> NodeId {
        self.by_name[name]
    }

    fn add(&mut self, node: NodeSpec) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.by_name.insert(node.name.clone(), id);
        self.nodes.push(node);
        id
    }

    /// A node's queue and entities: one DCF entity with the PHY's DIFS and CW bounds, or
    /// the four EDCA access categories with the node's parameters; retry limits from the
    /// node's `mac` settings (both: `scenario/qos.rs` `access_params`).
    fn access(
        &self,
        queue: u32,
        ack_queue: Option<u32>,
        qos_node: bool,
        edca: Option<&EdcaConfig>,
        mac: &MacConfig,
    ) -> Access {
        let acs = if qos_node {
            AccessCategory::ALL.map(Some).to_vec()
        } else {
            vec![None]
        };
        let entities = acs
            .into_iter()
            .map(|ac| (ac, qos::access_params(edca, ac, &self.phy, mac)))
            .collect();
        Access {
            queue,
            ack_queue,
            entities,
        }
    }
}

impl ApSpec {
    fn of(ap: &super::ApConfig) -> ApSpec {
        ApSpec {
            ssid: ap.ssid.clone().unwrap_or_else(|| ap.name.clone()),
            rwnd_clamp: ap.rwnd_clamp.then(|| (ap.buffer(), ap.flow_idle_timeout.0)),
            delay_injection: ap.delay_injection.as_ref().map(|c| c.params()),
        }
    }
}

/// The files of TCP flow entry `fi`, checked.
fn files_spec(
    files: &super::FilesConfig,
    cfg: &TcpConfig,
    fi: usize,
) -> Result<FilesSpec, ScenarioError> {
    let (sizes, think) = files.sequence(&format!("flows[{fi}].files"))?;
    Ok(FilesSpec {
        sizes,
        think,
        new_connection: files.new_connection,
        think_first: files.think_first,
        pad_to: if files.pad_last_segment {
            cfg.mss as u64
        } else {
            1
        },
    })
}

/// The source of UDP flow entry `fi` whose packets are `ip_bytes` long; the offered rate
/// counts IP bytes, as a CBR source over UDP/IP would.
fn udp_spec(f: &FlowConfig, ip_bytes: u32, fi: usize) -> Result<UdpSpec, ScenarioError> {
    let interval = f
        .rate
        .map_or(0.0, |r| ip_bytes as f64 * 8.0 / r.0 as f64 * SECOND as f64);
    let offered = match f.traffic {
        Traffic::Saturated => Offered::Saturated,
        Traffic::Cbr => Offered::Cbr { interval },
        Traffic::Poisson => Offered::Poisson { mean: interval },
        Traffic::Game => Offered::Game(
            f.game
                .clone()
                .unwrap_or_default()
                .source(f.direction, &format!("flows[{fi}].game"))?,
        ),
        Traffic::Trace => {
            let t = f.trace.as_ref().expect("validated: a trace flow has one");
            Offered::Trace {
                frames: t.frames(&format!("flows[{fi}].trace"))?,
                start: t.start,
            }
        }
    };
    Ok(UdpSpec {
        payload: f.udp_payload().0 as u32,
        offered,
        stop: f.stop.map_or(u64::MAX, |d| d.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_BSS: &str = r#"
        duration = "1 s"
        [[aps]]
        name = "ap1"
        [[aps]]
        name = "ap2"
        qos = true
        [[routers]]
        name = "r"
        [[links]]
        a = "ap1"
        b = "r"
        [[links]]
        a = "r"
        b = "ap2"
        delay = "5 ms"
        [[servers]]
        name = "srv"
        count = 2
        via = "r"
        [[stations]]
        name = "a"
        count = 3
        ap = "ap1"
        [[stations]]
        name = "b"
        count = 2
        ap = "ap2"
        [[flows]]
        name = "x"
        direction = "uplink"
        stations = "a"
        peer = "b"
        traffic = "cbr"
        rate = "100 kb/s"
        [[flows]]
        name = "dl"
        direction = "downlink"
        stations = "b"
        server = "srv"
        protocol = "tcp"
    "#;

    #[test]
    fn names_are_numbered_once_and_flows_run_between_ids() {
        let s = Scenario::from_toml(TWO_BSS).unwrap();
        let m = Model::resolve(&s).unwrap();
        let names: Vec<&str> = m.nodes.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(
            names,
            ["ap1", "ap2", "a-0", "a-1", "a-2", "b-0", "b-1", "r", "srv-0", "srv-1"]
        );
        assert_eq!(m.id("b-1"), 6);
        // Stations of group a belong to ap1, of group b to ap2; wired nodes to no BSS.
        assert_eq!(m.nodes[3].bss, Some(0));
        assert_eq!(m.nodes[6].bss, Some(1));
        assert_eq!(m.nodes[7].bss, None);
        assert!(m.nodes[7].access.is_none() && m.nodes[8].access.is_none());
        // ap2 is a QoS AP: four EDCAFs; a DCF station has one.
        assert_eq!(m.nodes[1].access.as_ref().unwrap().entities.len(), 4);
        assert_eq!(m.nodes[2].access.as_ref().unwrap().entities.len(), 1);
        // The servers' links come first, then [[links]], between node ids.
        let ends: Vec<(NodeId, NodeId)> = m.links.iter().map(|l| (l.a, l.b)).collect();
        assert_eq!(ends, [(8, 7), (9, 7), (0, 7), (7, 1)]);
        assert_eq!(m.links[3].delay, 5_000_000);
        // a-i's peer is b-(i mod 2); b-i downloads from srv-(i mod 2).
        let flows: Vec<(&str, NodeId, NodeId)> = m
            .flows
            .iter()
            .map(|f| (f.name.as_str(), f.src, f.dst))
            .collect();
        assert_eq!(
            flows,
            [
                ("x-0", 2, 5),
                ("x-1", 3, 6),
                ("x-2", 4, 5),
                ("dl-0", 8, 5),
                ("dl-1", 9, 6)
            ]
        );
        assert!(m.flows[3].tcp.is_some() && m.flows[0].tcp.is_none());
    }

    #[test]
    fn a_saturated_source_on_a_wired_node_is_refused() {
        let text = TWO_BSS.replace(
            "protocol = \"tcp\"",
            "protocol = \"udp\"\n        traffic = \"saturated\"",
        );
        let s = Scenario::from_toml(&text).unwrap();
        let e = Model::resolve(&s).err().expect("refused");
        assert_eq!(e.path, "flows[1].traffic");
        assert!(e.message.contains("srv-0 is a wired node"), "{}", e.message);
    }

    /// fotiadis2005's inf-RL: the stations retry without limit, the AP keeps its own
    /// limit (its DCF entity, and each AC of a QoS AP unless the AC sets its own).
    #[test]
    fn the_ap_keeps_its_own_retry_limits() {
        let text = TWO_BSS.replace(
            "duration = \"1 s\"",
            "duration = \"1 s\"\n        [mac]\n        short_retry_limit = \"unlimited\"",
        );
        let text = text.replacen(
            "name = \"ap1\"",
            "name = \"ap1\"\n        short_retry_limit = 7\n        long_retry_limit = 3",
            1,
        );
        let text = text.replacen(
            "qos = true",
            "qos = true\n        short_retry_limit = 5\n        edca.vo.short_retry_limit = 2",
            1,
        );
        let s = Scenario::from_toml(&text).unwrap();
        let m = Model::resolve(&s).unwrap();
        let limits = |node: usize| -> Vec<(Option<u32>, Option<u32>)> {
            let a = m.nodes[node].access.as_ref().unwrap();
            let p = a.entities.iter().map(|(_, p)| p);
            p.map(|p| (p.short_retry_limit, p.long_retry_limit))
                .collect()
        };
        assert_eq!(limits(0), [(Some(7), Some(3))]);
        // ap2's ACs BK, BE, VI take the AP's short limit, VO its own; the long one is [mac]'s
        let ap2: Vec<_> = limits(1).iter().map(|l| l.0).collect();
        assert_eq!(ap2.iter().filter(|&&l| l == Some(5)).count(), 3, "{ap2:?}");
        assert!(ap2.contains(&Some(2)));
        assert!(limits(1).iter().all(|l| l.1 == Some(4)));
        // a station keeps [mac]'s: unlimited
        assert_eq!(limits(2), [(None, Some(4))]);
    }
}
