//! What a run reports: per-flow, per-node and run metadata tables. Serialised to JSON for
//! the Python package, which turns the lists into pandas DataFrames.
use crate::mac::MacStats;
use crate::scenario::Direction;
use serde::Serialize;
use std::collections::BTreeMap;

/// This core's build: 16 hex digits of a digest of its sources (`build.rs`), reported in
/// every run's `meta.build`. Two builds of different sources differ; a campaign reruns a
/// stored run made by another build.
pub const BUILD: &str = env!("WLANSIM_CORE_BUILD");

/// Series as reported: name → column → values, with the sampling times in column `t_s`.
pub type SeriesTable = BTreeMap<String, BTreeMap<String, Vec<f64>>>;

/// A flow's packet counts over the measurement window (drops by cause).
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq)]
pub struct FlowCounts {
    pub offered_packets: u64,
    pub offered_bytes: u64,
    pub delivered_packets: u64,
    pub delivered_bytes: u64,
    /// Of `delivered_packets`, those offered during the warm-up (they waited in a queue
    /// across its end): `delivered_packets − delivered_from_warmup ≤ offered_packets`
    /// for a UDP flow.
    pub delivered_from_warmup: u64,
    pub dropped_queue: u64,
    pub dropped_retry: u64,
    /// Scripted losses (`[[drops]]`).
    pub dropped_scripted: u64,
    /// Discarded by the MAC when their MSDU lifetime passed (`mac.msdu_lifetime`).
    pub dropped_lifetime: u64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FlowResult {
    pub name: String,
    pub protocol: &'static str,
    pub direction: Direction,
    pub src: String,
    pub dst: String,
    #[serde(flatten)]
    pub counts: FlowCounts,
    /// Application payload delivered per second of the measurement window.
    pub throughput_bps: f64,
    /// Generation → reception of the data frame; None when nothing was delivered.
    pub delay_mean_s: Option<f64>,
    pub delay_p95_s: Option<f64>,
    /// Mean absolute difference of consecutive packets' delays (RFC 3393 IPDV); None
    /// before two packets were delivered.
    pub jitter_s: Option<f64>,
    /// TCP flows only (absent for UDP).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub tcp: Option<TcpFlowResult>,
}

/// TCP measurements of a flow over the measurement window. For a TCP flow the generic
/// columns count data segments: offered = sent by the sender (retransmissions included),
/// delivered = arrived at the receiver (duplicates included, so `throughput_bps` is the
/// data throughput), drops = this flow's segments of both directions.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TcpFlowResult {
    /// In-order payload delivered to the receiving application per second.
    pub goodput_bps: f64,
    /// Mean of the sender's RTT samples (after clock quantisation); None without samples.
    pub rtt_mean_s: Option<f64>,
    pub retransmissions: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
    /// Timeouts found spurious (Eifel detection; needs timestamps).
    pub spurious_timeouts: u64,
    /// ACK segments the receiver sent.
    pub acks_sent: u64,
    /// Congestion window at the end of the run, bytes. The sender keeps at most
    /// min(cwnd, rwnd) unacknowledged: a flow limited by the receiver's window can end
    /// with a cwnd far above rwnd, since (as in ns-2) cwnd grows with every ACK whether
    /// or not it limits the flight.
    pub cwnd_bytes: u64,
    /// A transfer of `bytes`: when its last byte was acknowledged (s from the start of the
    /// run); None for a persistent or file flow, or a transfer still running. Its rates
    /// are averaged over the whole measurement window, however early it ended.
    pub completed_s: Option<f64>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct NodeResult {
    pub name: String,
    pub role: &'static str,
    /// The addresses the node has in pcap captures (`[output] pcap`).
    pub mac_address: String,
    pub ip_address: String,
    #[serde(flatten)]
    pub mac: MacStats,
    /// Measured conditional collision probability: collisions / attempts.
    pub collision_probability: Option<f64>,
    /// Its channel.
    pub channel: u16,
    /// Time its physical carrier sense was busy (its own transmissions included), s; on
    /// the shared medium the time every exchange held the medium, the same for every node.
    pub cs_busy_s: f64,
    /// Frames it decoded, addressed to others, whose Duration made it defer beyond what it
    /// sensed (virtual carrier sense; spatial medium only).
    pub nav_deferrals: u64,
    /// With rate adaptation (`mac.rate_control`): the mean data rate (b/s) of the
    /// attempts it sent on its adapted links in the measurement window; None on a node
    /// without one, or without such attempts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_data_rate_bps: Option<f64>,
}

/// MAC counters of one access category of a QoS node.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct AcResult {
    pub node: String,
    /// AC_BK, AC_BE, AC_VI or AC_VO.
    pub ac: &'static str,
    #[serde(flatten)]
    pub mac: MacStats,
    pub collision_probability: Option<f64>,
}

/// One BSS: its AP, its stations' MAC counters summed (the AP's included) and the useful
/// rate (goodput for TCP, throughput for UDP) of the flows that leave or reach its
/// stations.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct BssResult {
    /// The AP's name.
    pub ap: String,
    pub ssid: String,
    pub stations: u32,
    /// Flows whose source is a station of this BSS (b/s, measurement window).
    pub uplink_bps: f64,
    /// Flows whose destination is a station of this BSS.
    pub downlink_bps: f64,
    #[serde(flatten)]
    pub mac: MacStats,
    /// With `delay_injection` at the AP (whole run): TCP ACKs it held, and the delay it
    /// added to them in all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acks_delayed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub injected_delay_s: Option<f64>,
    /// ACKs it found above dthresh (spikes, each setting the delay D).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delay_spikes: Option<u64>,
    /// With `beacon_interval` (measurement window): Beacons sent, those that collided,
    /// and the share of the time the medium carried them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beacons: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beacon_collisions: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beacon_airtime_share: Option<f64>,
}

/// One packet of a flow selected by `[output] packets`, whose fate fell in the
/// measurement window.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PacketRow {
    pub flow: String,
    /// "forward" (data) or "reverse" (a TCP flow's ACKs).
    pub direction: &'static str,
    pub seq: u32,
    pub ip_bytes: u32,
    pub payload_bytes: u32,
    /// TCP: the segment's sequence number (bytes; the SYN is 0, data starts at 1) and its
    /// cumulative acknowledgment (None without the ACK flag); None for UDP.
    pub tcp_seq: Option<u64>,
    pub tcp_ack: Option<u64>,
    pub created_s: f64,
    /// Delivery at the destination (None when dropped).
    pub delivered_s: Option<f64>,
    pub delay_s: Option<f64>,
    /// "queue", "retry_limit" or "scripted" (None when delivered), and the node that dropped it.
    pub dropped: Option<&'static str>,
    pub dropped_at: Option<String>,
    /// Nodes that queued it, and its transmission attempts over all of them.
    pub hops: u32,
    pub attempts: u32,
}

/// One hop of a recorded packet: queued at `node`, sent (last attempt), received by the
/// next node.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PacketHopRow {
    pub flow: String,
    pub direction: &'static str,
    pub seq: u32,
    pub hop: u32,
    pub node: String,
    pub enqueued_s: f64,
    pub tx_start_s: Option<f64>,
    pub attempts: u32,
    pub received_s: Option<f64>,
}

/// Frame attempts and losses of one link direction with a burst model (whole run).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LinkResult {
    pub station: String,
    /// "uplink" (station → AP) or "downlink".
    pub direction: &'static str,
    pub frames: u64,
    pub losses: u64,
}

/// One file of a flow's file sequence, acknowledged completely.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SessionRow {
    /// The flow's station (its wireless end).
    pub station: String,
    pub flow: String,
    /// The file's position in the sequence (from 0).
    pub file: u32,
    pub bytes: u64,
    /// Request (the session starts; a fresh connection's handshake follows).
    pub start_s: f64,
    /// Its last byte acknowledged.
    pub end_s: f64,
    /// Session delay: request to last byte acknowledged, setup included (eq 14's).
    pub delay_s: f64,
    pub new_connection: bool,
    /// Request to connection established (0 on a connection already open).
    pub setup_s: f64,
    /// Retransmission timeouts of the sender during the session.
    pub timeouts: u64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Meta {
    pub events: u64,
    pub sim_time_s: f64,
    pub warmup_s: f64,
    /// Length of the measurement window (simulated time after the warm-up).
    pub measured_s: f64,
    /// Wall-clock time of the event loop (the only field that varies between identical runs).
    pub wall_s: f64,
    pub seed: u64,
    pub version: &'static str,
    /// The core's build ([`crate::BUILD`]): a digest of its sources.
    pub build: &'static str,
    /// The medium the run used: "shared" (one collision domain) or "spatial" (carrier
    /// sense, NAV and reception per node).
    pub medium: &'static str,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Results {
    pub flows: Vec<FlowResult>,
    pub nodes: Vec<NodeResult>,
    /// One row per access category of each QoS node (empty without EDCA).
    pub access_categories: Vec<AcResult>,
    /// One row per BSS (per AP).
    pub bss: Vec<BssResult>,
    /// Sessions of the flows that send files (every finished file of the run), and per
    /// such flow the files not finished when the run ended.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sessions: Vec<SessionRow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unfinished_sessions: Vec<(String, u64)>,
    /// Per-packet records on request (`[output] packets`), and their hops.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub packets: Vec<PacketRow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub packet_hops: Vec<PacketHopRow>,
    /// Per link direction with a burst model (`[channel] bursts`): its loss counters.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkResult>,
    /// Time series recorded on request (`[output] series`): name → column → samples.
    pub series: SeriesTable,
    pub meta: Meta,
}

impl Results {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("results are plain data")
    }
}
