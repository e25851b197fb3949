//! The scenario: what to simulate, as read from TOML (or JSON, from Python), validated.
//!
//! Unknown keys are errors (`deny_unknown_fields`); every error names the key path, the
//! value and what is allowed. [`Scenario::resolved`] fills every default from the PHY
//! preset, so the resolved form is the complete description of a run.
pub mod bounds;
pub mod channel;
mod checks;
pub mod delay_injection;
pub mod drops;
pub mod emulation;
pub mod files;
pub mod game;
mod inputs;
mod limits;
pub mod mobility;
pub mod model;
pub mod presets;
mod profile;
pub mod propagation;
pub mod qos;
mod radio;
mod rates;
pub mod reception;
pub mod schema;
mod tcp;
pub mod trace_source;
pub mod units;
mod validate;

pub use channel::{BurstLoss, BurstModel, ChannelConfig, LinkLoss};
pub use drops::DropConfig;
pub use emulation::{EmulatedGroup, EmulationConfig};
pub use files::{FilesConfig, SizeDistribution, ThinkDistribution};
pub use game::GameConfig;
pub use limits::{Lifetime, RetryLimit, RtsThreshold};
pub use mobility::MobilityConfig;
pub use model::{Model, Role};
pub use profile::Profile;
pub use qos::{AcConfig, EdcaConfig, QosConfig, RuleConfig};
pub use tcp::{InitialWindow, SsthreshSpec, TcpProfile, TcpSettings, TcpVariant, WindowSpec};
pub use trace_source::{TraceConfig, TraceFormat, TraceStart};
pub use units::{Bytes, Duration, Power, Rate, Speed};
// The traffic pattern is the application's own type (`app/udp.rs`).
pub use crate::app::Traffic;

use crate::mac::aggregate::SingleMpduAck;
use crate::mac::rate::first_reports::FirstReports;
use crate::mac::rate::minstrel_ht::Airtime;
use crate::mac::rate::RateAlgorithm;
use crate::net::RoutingAgent;
use crate::phy::channels::Band;
use crate::phy::ht::{GuardInterval, HtMode};
use crate::phy::{Phy, Preamble, Standard};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A scenario that cannot be run: `path` is the key path (e.g. `stations[0].count`).
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioError {
    pub path: String,
    pub message: String,
}

impl ScenarioError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.path.is_empty() || self.path == "." {
            write!(f, "scenario: {}", self.message)
        } else {
            write!(f, "scenario key `{}`: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

fn default_seed() -> u64 {
    1
}
fn default_queue() -> u32 {
    // ns-2's interface queue default (50 packets); 802.11 leaves it to the implementation.
    50
}
fn default_count() -> u32 {
    1
}
fn default_ap_name() -> String {
    "ap".into()
}
/// A 1500-byte IP packet (Ethernet MTU) carries 1472 bytes of UDP payload.
pub const DEFAULT_PACKET_SIZE: Bytes = Bytes(1472);
fn default_server_count() -> u32 {
    1
}
fn default_link_rate() -> Rate {
    // Fast Ethernet: the wired side is not the bottleneck of an 802.11 cell.
    Rate(100_000_000)
}
fn default_link_delay() -> Duration {
    // A server on the local network (pilosof2003 does not state its wired delay).
    Duration(crate::sim::time::MS)
}
fn default_link_queue() -> u32 {
    // Large enough that, at 100 Mb/s, the wired link never drops in the seed studies.
    1000
}
fn default_flow_idle_timeout() -> Duration {
    Duration(crate::sim::time::SECOND)
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Free text naming the scenario (reported with the results).
    #[serde(default)]
    pub name: String,
    /// Seed of every random stream of the run (same seed, same results).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Simulated time, warm-up included.
    pub duration: Duration,
    /// Initial period excluded from every statistic.
    #[serde(default)]
    pub warmup: Duration,
    /// Behaviour of the whole scenario: `standard` (default), `ns2` (ns-2.35's TCP and
    /// 802.11 MAC) or `ns3` (ns-3.37's HT/VHT PPDU timing: no VHT-SIG-B in a VHT SU PPDU,
    /// 400 ns guard-interval symbols not rounded to 4 µs; under SINR reception a node that
    /// loses a collision's PHY header defers AIFS, not EIFS, and an A-MPDU's first MPDU
    /// meets interference from the end of the PHY preamble; with aggregation what a PSDU
    /// carried goes up as it ends, before its BlockAck; the standard's other MAC rules and
    /// TCP); `[tcp] profile` and `[mac] profile` choose each part alone.
    #[serde(default, skip_serializing_if = "Profile::is_standard")]
    pub profile: Profile,
    /// The routing agent of the wireless nodes, for the header it adds to the packets a
    /// node originates (ns-2's `-adhocRouting`): `none` (the standard; ns-2's DumbAgent),
    /// `dsdv` (20 bytes on every packet) or `aodv` (20 bytes on UDP packets, not TCP);
    /// default `dsdv` under `profile = "ns2"`, else `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routing_agent: Option<RoutingAgent>,
    /// The 802.11 PHY: standard, rates and timing (defaults from the standard).
    #[serde(default)]
    pub phy: PhyConfig,
    /// DCF parameters shared by every node.
    #[serde(default)]
    pub mac: MacConfig,
    /// The access point of a one-BSS scenario: sugar for a single `[[aps]]` entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ap: Option<ApConfig>,
    /// The access points, each its own BSS on its `channel`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aps: Vec<ApConfig>,
    /// The scenario was written with the one-AP `[ap]` table (so are its resolved form and
    /// its errors).
    #[serde(skip)]
    one_ap_table: bool,
    /// Groups of identical stations (at least one group).
    #[serde(default)]
    pub stations: Vec<StationGroup>,
    /// Wired hosts, each on its own link to an AP or a router.
    #[serde(default)]
    pub servers: Vec<ServerGroup>,
    /// Wired routers (nodes that only forward).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routers: Vec<RouterConfig>,
    /// Wired links between APs, routers and servers (full duplex).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkConfig>,
    /// Traffic: each entry gives one flow to every station of a group.
    #[serde(default)]
    pub flows: Vec<FlowConfig>,
    /// Optional recordings beyond the result tables.
    #[serde(default)]
    pub output: OutputConfig,
    /// TCP defaults of every TCP flow (a flow's own `tcp` table overrides them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp: Option<TcpSettings>,
    /// The radio links' loss model (see `channel`).
    #[serde(default, skip_serializing_if = "ChannelConfig::is_default")]
    pub channel: ChannelConfig,
    /// Scripted losses: given segments of a flow, or its packets within a time window,
    /// dropped as they leave a node (see `drops`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drops: Vec<DropConfig>,
    /// EDCA classifier and scenario-wide QoS options (see `qos`).
    #[serde(default, skip_serializing_if = "QosConfig::is_default")]
    pub qos: QosConfig,
    /// Real hosts in network namespaces, for `wlansim emulate` (see `emulation`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emulation: Option<EmulationConfig>,
}

/// A time series the run can record, sampled every `output.series_interval` after warm-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeriesKind {
    /// Per flow: application bytes delivered in each interval, as b/s.
    FlowThroughput,
    /// Per node: packets in its transmit queue(s) at each sampling instant (with the
    /// MPDUs in flight that count against them: `mac.queue_counts_in_flight`).
    QueueLength,
    /// Per TCP flow: the sender's congestion window (bytes) at each sampling instant.
    Cwnd,
    /// Per TCP flow: the sender's retransmission timeout (seconds, RFC 6298, with its
    /// backoff) at each sampling instant.
    Rto,
    /// Per TCP flow: the sender's smoothed round-trip time (seconds, RFC 6298 SRTT) at
    /// each sampling instant; NaN (null in JSON, None in Python) before the flow's first
    /// RTT sample.
    Srtt,
    /// How many flows delivered application bytes in each interval: columns `uplink`,
    /// `downlink` and `all` (a flow starved for a whole interval, e.g. by repeated
    /// timeouts, is not counted).
    ActiveFlows,
    /// Per positioned node: its x and y (metres) at each sampling instant, as columns
    /// `NAME.x` and `NAME.y` (see `mobility`).
    Position,
    /// Per node of a BSS: the share of its attempts that failed on the channel (its
    /// `frame_errors` and `control_errors` over its attempts that did not collide) in
    /// each interval; NaN in
    /// an interval without such attempts (null in JSON, None in Python).
    FrameErrorRatio,
    /// Per node of a BSS with rate adaptation (`mac.rate_control`): the mean data rate
    /// (b/s) of the attempts it sent in each interval; NaN in an interval without any.
    DataRate,
}

impl SeriesKind {
    pub fn name(self) -> &'static str {
        match self {
            SeriesKind::FlowThroughput => "flow_throughput",
            SeriesKind::QueueLength => "queue_length",
            SeriesKind::Cwnd => "cwnd",
            SeriesKind::Rto => "rto",
            SeriesKind::Srtt => "srtt",
            SeriesKind::ActiveFlows => "active_flows",
            SeriesKind::Position => "position",
            SeriesKind::FrameErrorRatio => "frame_error_ratio",
            SeriesKind::DataRate => "data_rate",
        }
    }

    /// Columns of the series (besides its time column) in a run of `flows` flows and
    /// `nodes` nodes.
    pub fn columns(self, flows: usize, nodes: usize) -> usize {
        match self {
            SeriesKind::FlowThroughput | SeriesKind::Cwnd | SeriesKind::Rto | SeriesKind::Srtt => {
                flows
            }
            SeriesKind::QueueLength | SeriesKind::FrameErrorRatio | SeriesKind::DataRate => nodes,
            SeriesKind::ActiveFlows => ACTIVE_FLOW_COLUMNS.len(),
            SeriesKind::Position => 2 * nodes,
        }
    }
}

/// The columns of the `active_flows` series.
pub const ACTIVE_FLOW_COLUMNS: [&str; 3] = ["uplink", "downlink", "all"];

fn default_series_interval() -> Duration {
    Duration(crate::sim::time::SECOND)
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutputConfig {
    /// Time series to record after the warm-up.
    #[serde(default)]
    pub series: Vec<SeriesKind>,
    /// Sampling interval of the series; samples × columns of all series are at most
    /// 10 000 000 values.
    #[serde(default = "default_series_interval")]
    pub series_interval: Duration,
    /// Per-packet records: `true` for every flow, or the names of `[[flows]]` entries.
    #[serde(default, skip_serializing_if = "PacketsOutput::is_off")]
    pub packets: PacketsOutput,
    /// Directory of pcap captures (radiotap + 802.11 over the air, Ethernet on wired
    /// links); created if missing. No captures when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pcap: Option<String>,
    /// One capture of the air per node (the frames it transmits) or per BSS (the frames
    /// of its AP and stations).
    #[serde(default)]
    pub pcap_per: PcapPer,
    /// Bytes kept of each captured frame, 64 to 262144. The default, 128, keeps every
    /// header of 802.11a/b/g frames (at most 122 bytes) and cuts the payload, which is all
    /// zeros; raise it to write the zero-filled payloads too, or the longer headers of
    /// 802.11n/ac (a TCP segment's up to 136 bytes, a beacon's up to 169).
    #[serde(default = "default_pcap_snaplen")]
    pub pcap_snaplen: u32,
}

/// How the air is split into capture files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PcapPer {
    #[default]
    Node,
    Bss,
}

fn default_pcap_snaplen() -> u32 {
    128
}

/// Which flows' packets are recorded one by one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum PacketsOutput {
    All(bool),
    Flows(Vec<String>),
}

impl Default for PacketsOutput {
    fn default() -> Self {
        PacketsOutput::All(false)
    }
}

impl PacketsOutput {
    pub fn is_off(&self) -> bool {
        matches!(self, PacketsOutput::All(false))
    }

    /// Whether the packets of the `[[flows]]` entry `name` are recorded.
    pub fn selects(&self, name: &str) -> bool {
        match self {
            PacketsOutput::All(all) => *all,
            PacketsOutput::Flows(names) => names.iter().any(|n| n == name),
        }
    }
}

impl Default for OutputConfig {
    fn default() -> Self {
        OutputConfig {
            series: Vec::new(),
            series_interval: default_series_interval(),
            packets: PacketsOutput::default(),
            pcap: None,
            pcap_per: PcapPer::default(),
            pcap_snaplen: default_pcap_snaplen(),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhyConfig {
    /// The 802.11 amendment whose PHY is simulated (its rates and timing are the defaults):
    /// 802.11b, a, g, n (HT: data frames at an MCS, `mcs`, `streams`, `channel_width`,
    /// `guard_interval`; at 5 or 2.4 GHz, `band`) or ac (VHT, 5 GHz). 802.11n/ac stations
    /// and APs are QoS STAs: they use EDCA (`qos` is implied) and QoS data frames.
    pub standard: Standard,
    /// The band of 802.11n: "5 GHz" (default: 802.11a's slot, SIFS and channels) or
    /// "2.4 GHz" (802.11g's: SIFS 10 µs, the 6 µs signal extension, channels 1-13). The
    /// other PHYs have one band (802.11b/g 2.4 GHz, 802.11a/ac 5 GHz).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub band: Option<Band>,
    /// 802.11n/ac: the modulation and coding scheme of the data frames, per spatial
    /// stream (HT 0-7, VHT 0-9: BPSK 1/2 … 64-QAM 5/6, 256-QAM 3/4 and 5/6); default: the
    /// highest that exists at the width and streams (VHT MCS 9 does not exist at 20 MHz
    /// with 1, 2 or 4 streams, at 80 MHz MCS 6 with 3, at 160 MHz MCS 9 with 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = 9))]
    pub mcs: Option<u8>,
    /// 802.11n/ac: spatial streams of the data frames, 1 to 4 (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 4))]
    pub streams: Option<u8>,
    /// 802.11n/ac: channel width in MHz, 20 or 40 (HT; default 20), 20, 40, 80 or 160
    /// (VHT; default 80). The BSS's `channel` is its primary 20 MHz channel; control
    /// frames are 20 MHz non-HT PPDUs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 20, max = 160))]
    pub channel_width: Option<u16>,
    /// 802.11n/ac: guard interval of the data symbols, "long" (800 ns, 4 µs symbols,
    /// default) or "short" (400 ns, 3.6 µs symbols; the data field is counted in whole
    /// 4 µs, 802.11-2020 19.4.3, 21.4.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard_interval: Option<GuardInterval>,
    /// PLCP preamble (802.11b; the short one needs rates of 2 Mb/s or more).
    #[serde(default)]
    pub preamble: Preamble,
    /// Rate of data frames: one of the standard's rates (default: the highest); 802.11n/ac
    /// data frames go at `mcs`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_rate: Option<Rate>,
    /// Allow data, control and basic rates that are not the standard's (e.g. the
    /// "802.11g at 20 Mb/s" of ns-2 studies), timed by the standard's modulation: with
    /// 802.11b DSSS timing (192 µs PLCP, payload bits over the rate: ns-2's `Mac/802_11`
    /// with `dataRate_ 20Mb`), with 802.11a/g OFDM timing (4 µs symbols of rate × 4 µs
    /// bits; a multiple of 250 kb/s).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nonstandard_rate: bool,
    /// Rate of every ACK, RTS and CTS frame: one of the standard's rates (802.11n/ac: of
    /// the OFDM rates 6-54 Mb/s). Overrides the control-response rule of a BSS that states
    /// `basic_rates` (802.11n/ac: or that takes the default basic rates); when absent
    /// there, the PHY's lowest rate (the rule with the basic rate set {lowest rate}).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control_rate: Option<Rate>,
    /// Slot time (default: the standard's); positive, at most 1 s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<Duration>,
    /// SIFS (default: the standard's); positive, at most 1 s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sifs: Option<Duration>,
    /// DIFS (default: SIFS + 2 slots); longer than SIFS, at most 1 s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difs: Option<Duration>,
    /// PLCP preamble and header time (default: the standard's); at most 1 s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plcp: Option<Duration>,
    /// One-way propagation delay between any two nodes (default: the standard's); at most 1 s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub propagation_delay: Option<Duration>,
    /// CWmin: 2^k − 1, from 1 to 32767, at most cw_max (default: the standard's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 32767))]
    pub cw_min: Option<u32>,
    /// CWmax: 2^k − 1, from 1 to 32767 (default: the standard's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 32767))]
    pub cw_max: Option<u32>,
}

impl Default for PhyConfig {
    fn default() -> Self {
        PhyConfig {
            standard: Standard::Ieee80211b,
            band: None,
            mcs: None,
            streams: None,
            channel_width: None,
            guard_interval: None,
            preamble: Preamble::Long,
            data_rate: None,
            nonstandard_rate: false,
            control_rate: None,
            slot: None,
            sifs: None,
            difs: None,
            plcp: None,
            propagation_delay: None,
            cw_min: None,
            cw_max: None,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MacConfig {
    /// MPDUs longer than this are sent after an RTS/CTS exchange (dot11RTSThreshold).
    #[serde(default)]
    pub rts_threshold: RtsThreshold,
    /// dot11ShortRetryLimit: attempts of a frame sent without RTS (and of an RTS).
    #[serde(default = "RetryLimit::short_default")]
    pub short_retry_limit: RetryLimit,
    /// dot11LongRetryLimit: attempts of a frame sent after RTS/CTS.
    #[serde(default = "RetryLimit::long_default")]
    pub long_retry_limit: RetryLimit,
    /// MSDU lifetime: a packet still queued (or, under a Block Ack agreement, sent and not
    /// acknowledged) this long after its MAC accepted it is discarded, checked when it
    /// would be sent (dot11MaxTransmitMSDULifetime under DCF, dot11EDCATableMSDULifetime
    /// per AC under EDCA: `edca.<ac>.msdu_lifetime` overrides it). The standard's MIB
    /// default is 512 TU (DCF) and 500 TU (EDCA); wlansim's is "unlimited", as in ns-2.35,
    /// the seed studies' simulator.
    #[serde(default, skip_serializing_if = "Lifetime::is_unlimited")]
    pub msdu_lifetime: Lifetime,
    /// Interface queue capacity of each station, in packets (drop-tail).
    #[serde(default = "default_queue")]
    #[schemars(range(min = 1, max = 1000000))]
    pub queue: u32,
    /// The 802.11 part's profile, MAC rules and frame timing: `standard`, `ns2` (ns-2.35's
    /// `Mac/802_11`: backoff in 0..CW−1 with CWmin 31, EIFS then DIFS after a collision for
    /// every station, 34-byte header without LLC/SNAP, unrounded airtime, no immediate
    /// access, a received data frame passed up 25 µs after its reception rather than when
    /// its exchange ends, a packet handed down reaching the interface queue 25 µs later)
    /// or `ns3` (ns-3.37's HT/VHT PPDU timing and, under SINR reception, AIFS rather than
    /// EIFS at a node that loses a collision's PHY header, with the standard's other MAC
    /// rules); default: the top-level `profile`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<Profile>,
    /// Largest A-MPDU in bytes (802.11n/ac only; 802.11-2020 10.12): each channel access
    /// sends up to `ba_window` MPDUs to one receiver in one PPDU, acknowledged by one
    /// compressed BlockAck. At most 65535 (HT) or 1048575 (VHT); 0 (default): no
    /// aggregation, one MPDU per exchange with its ACK.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ampdu_max_bytes: u32,
    /// Block Ack window in MPDUs (1-64): how far an A-MPDU's sequence numbers may run
    /// ahead of the oldest MPDU not yet acknowledged (802.11-2020 10.25.6); with
    /// `ampdu_max_bytes` only.
    #[serde(
        default = "default_ba_window",
        skip_serializing_if = "is_default_ba_window"
    )]
    #[schemars(range(min = 1, max = 64))]
    pub ba_window: u32,
    /// Rate adaptation of every station's link, both directions (each station and the AP
    /// keep their own controller per link; `stations[].rate_control` sets a group's):
    /// `constant` (default: the configured rate), `ideal`, `arf`, `aarf`, `minstrel`
    /// (802.11a/b/g), `minstrel_ht` (802.11n/ac). Needs `[channel.reception] model =
    /// "sinr"`, whose error curves depend on the rate.
    #[serde(default, skip_serializing_if = "is_constant_rate")]
    pub rate_control: RateAlgorithm,
    /// Largest A-MSDU in bytes (802.11n/ac only; 802.11-2020 9.3.2.2.2): an MPDU carries
    /// the next queued packets that go to one receiver, each in a subframe
    /// with a 14-byte header, padded to 4 bytes, within this length (one packet alone
    /// goes without subframe header). At most 7935 (HT: 4065 inside an A-MPDU) or 11454
    /// (VHT); with `ampdu_max_bytes` the A-MSDUs go inside A-MPDUs (two-level
    /// aggregation), else each alone with its ACK. 0 (default): one packet per MPDU.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub amsdu_max_bytes: u32,
    /// What a station's rate controller hears before its first data frame: `ns3`
    /// (ns-3.37's association, ARP and Block Ack set-up, each frame's report credited
    /// where the controller stands: `mac/rate/first_reports.rs`; 802.11n/ac with
    /// `ampdu_max_bytes` and `rate_control` only) or `none`; default `ns3` under `[mac]
    /// profile = "ns3"` where it applies, else `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_first_reports: Option<FirstReports>,
    /// How Minstrel-HT times a rate's MPDUs for its throughput estimate, sampling and
    /// retry counts (`mac/rate/minstrel_ht.rs` `mpdu_airtimes`): `ns3` (ns-3.37's: data
    /// symbols as a fraction, not rounded up, and every MPDU of an A-MPDU with its own
    /// preamble) or `ppdu` (the PPDU's: whole symbols, one preamble); with a `minstrel_ht`
    /// rate control only; default `ns3` under `[mac] profile = "ns3"`, else `ppdu`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minstrel_ht_airtime: Option<Airtime>,
    /// Whether the MPDUs a node sent and has not had acknowledged (its Block Ack
    /// windows) count against its queue (`mac.queue`, `aps[].queue`), as ns-3.37's
    /// `WifiMacQueue` keeps them until acknowledged or discarded: a packet that finds
    /// the queued packets and the MPDUs in flight at the capacity is dropped. With
    /// `ampdu_max_bytes` only, and not with an AP's `ack_queue`; default `true` under
    /// `[mac] profile = "ns3"` where it applies, else `false` (the windows come on top
    /// of the queue, as the frames handed to a Linux driver leave its qdisc).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_counts_in_flight: Option<bool>,
    /// How an MPDU that goes alone under a Block Ack agreement (nothing else to its
    /// receiver is queued or fits) is acknowledged: `block_ack` (an A-MPDU of one, on
    /// 802.11ac an S-MPDU, answered by a BlockAck) or `normal_ack` (ns-3.37's: Normal Ack
    /// policy, not aggregated on 802.11n, answered by an ACK; a missed ACK resends it
    /// without a BlockAckReq); with `ampdu_max_bytes` only; default `normal_ack` under
    /// `[mac] profile = "ns3"` with A-MPDUs, else `block_ack`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub single_mpdu_ack: Option<SingleMpduAck>,
    /// ns-3.37's retry limit on an MPDU sent alone with a Normal Ack in a run with
    /// A-MPDUs (a lone MPDU under `single_mpdu_ack = "normal_ack"`, or one sent before its
    /// agreement): it is discarded when its node's missed responses in a row reach this
    /// count, every exchange of the entity counting (an A-MPDU's or BlockAckReq's missed
    /// BlockAck, an MPDU's missed ACK, an RTS's missed CTS) and only an ACK or a CTS
    /// received, or a discard, starting the count again, not a BlockAck (ns-3.37's
    /// station SSRC, `WifiRemoteStationManager::NeedRetransmission` against `MaxSsrc`).
    /// With `ampdu_max_bytes` only; default 7 (ns-3's `MaxSsrc`) under `[mac] profile =
    /// "ns3"` with A-MPDUs, else "unlimited" (the frame's own retry limits apply alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub single_mpdu_retry_limit: Option<RetryLimit>,
}

fn is_constant_rate(r: &RateAlgorithm) -> bool {
    *r == RateAlgorithm::Constant
}

/// The Block Ack window of a compressed BlockAck's bitmap.
pub const DEFAULT_BA_WINDOW: u32 = 64;

/// ns-3.37's `WifiRemoteStationManager::MaxSsrc` default: `mac.single_mpdu_retry_limit`
/// under the ns3 MAC profile.
pub const NS3_MAX_SSRC: u32 = 7;

fn default_ba_window() -> u32 {
    DEFAULT_BA_WINDOW
}

fn is_default_ba_window(w: &u32) -> bool {
    *w == DEFAULT_BA_WINDOW
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

impl Default for MacConfig {
    fn default() -> Self {
        MacConfig {
            rts_threshold: RtsThreshold::default(),
            short_retry_limit: RetryLimit::short_default(),
            long_retry_limit: RetryLimit::long_default(),
            msdu_lifetime: Lifetime::default(),
            queue: default_queue(),
            profile: None,
            ampdu_max_bytes: 0,
            ba_window: DEFAULT_BA_WINDOW,
            rate_control: RateAlgorithm::Constant,
            amsdu_max_bytes: 0,
            rate_first_reports: None,
            minstrel_ht_airtime: None,
            queue_counts_in_flight: None,
            single_mpdu_ack: None,
            single_mpdu_retry_limit: None,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ApConfig {
    /// The AP's node name (same rules as group names).
    #[serde(default = "default_ap_name")]
    pub name: String,
    /// The BSS's network name (reported beside its figures); the AP's name when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ssid: Option<String>,
    /// Where the AP stands, [x, y] in metres (each within ±1000 km); needed by
    /// `[channel.propagation]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<[f64; 2]>,
    /// The BSS's channel, a number of its standard's band (2.4 GHz: 1-13; 5 GHz: 36, 40,
    /// …, 165); its stations use it too. Default: 1 (802.11b/g, 802.11n at 2.4 GHz), 36
    /// (802.11a/ac, 802.11n at 5 GHz). Wider than 20 MHz (802.11n/ac `channel_width`) it
    /// is the primary channel of an aligned block (5 GHz 80 MHz: 36-48, 52-64, 100-112,
    /// …; 2.4 GHz 40 MHz: the secondary 4 above, primary 1-9). BSSs on channels that do
    /// not overlap never interact; overlapping ones (2.4 GHz channels fewer than 5 apart,
    /// wide channels sharing a block) are refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<u16>,
    /// Antenna gain of the AP, dB (0): frames from and to it arrive this much stronger.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub antenna_gain_db: Option<f64>,
    /// Carrier-sense threshold of the AP (see `stations.cs_threshold`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cs_threshold: Option<Power>,
    /// Receive threshold of the AP (see `stations.rx_threshold`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rx_threshold: Option<Power>,
    /// The AP's transmit buffer B, in packets, shared by every downlink packet (TCP data
    /// and TCP ACKs alike, as in pilosof2003); with `ack_queue`, the data queue T.
    #[serde(default = "default_queue")]
    #[schemars(range(min = 1, max = 1000000))]
    pub queue: u32,
    /// Separate queue of A packets for TCP segments without payload (pure ACKs, SYNs),
    /// served alternately with the data queue: the baseline pilosof2003 §V rejects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000000))]
    pub ack_queue: Option<u32>,
    /// pilosof2003 §V: rewrite the advertised window of forwarded ACKs to
    /// min(rwnd, ⌊B/n⌋ segments), n = TCP flows active within `flow_idle_timeout`.
    #[serde(default)]
    pub rwnd_clamp: bool,
    /// A flow without a packet through the AP for this long is no longer counted.
    #[serde(default = "default_flow_idle_timeout")]
    pub flow_idle_timeout: Duration,
    /// dot11ShortRetryLimit of the AP's own frames (its DCF, and the default of its ACs'
    /// `edca.*.short_retry_limit`); `mac.short_retry_limit` when absent. fotiadis2005
    /// gives the stations unlimited retries and leaves the AP's limit alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short_retry_limit: Option<RetryLimit>,
    /// dot11LongRetryLimit of the AP's own frames; `mac.long_retry_limit` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long_retry_limit: Option<RetryLimit>,
    /// fotiadis2005 Algorithm 1: hold the TCP ACKs this AP forwards to its stations so
    /// the senders' RTO absorbs delay spikes; `{}` for the paper's parameters (needs
    /// `tcp.timestamps`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_injection: Option<delay_injection::DelayInjectionConfig>,
    /// 802.11e EDCA (one queue of `queue` packets per AC) instead of DCF; always under
    /// 802.11n/ac (QoS STAs).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub qos: bool,
    /// Per-AC EDCA parameters of the AP (needs `qos = true`, or 802.11n/ac).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edca: Option<EdcaConfig>,
    /// The BSS basic rate set (BSSBasicRateSet), rates of the standard, e.g. ["1 Mb/s",
    /// "2 Mb/s"] (802.11b) or ["6 Mb/s", "12 Mb/s", "24 Mb/s"] (802.11a/g/n/ac). When given
    /// (and `phy.control_rate` is not), ACK and CTS follow 802.11-2016 10.6.6.5.2: the
    /// highest basic rate not above the eliciting frame's rate (an 802.11n/ac data
    /// frame's: its MCS's non-HT reference rate, e.g. 54 Mb/s for MCS 7). When absent,
    /// control frames go at `phy.control_rate` (default: the PHY's lowest rate), as
    /// before; 802.11n/ac BSSs take ["6 Mb/s", "12 Mb/s", "24 Mb/s"] then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basic_rates: Option<Vec<Rate>>,
    /// Rate of RTS frames in this BSS: one of `basic_rates` (needs `basic_rates`; default:
    /// the highest basic rate not above the data rate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rts_rate: Option<Rate>,
    /// PLCP preamble of this BSS's frames (802.11b long or short); `phy.preamble` when
    /// absent. Ignored for OFDM PHYs, which have one preamble.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preamble: Option<Preamble>,
    /// Beacon interval: the AP sends a Beacon every interval (the standard's 100 TU is
    /// "102.4 ms") at the lowest basic rate, by its DCF (or AC_VO) rules, never
    /// acknowledged; at least 1 TU (1.024 ms). Absent: no beacons (the seed studies
    /// model none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beacon_interval: Option<Duration>,
}

impl Default for ApConfig {
    fn default() -> Self {
        ApConfig {
            name: default_ap_name(),
            ssid: None,
            position: None,
            channel: None,
            antenna_gain_db: None,
            cs_threshold: None,
            rx_threshold: None,
            queue: default_queue(),
            ack_queue: None,
            rwnd_clamp: false,
            flow_idle_timeout: default_flow_idle_timeout(),
            short_retry_limit: None,
            long_retry_limit: None,
            delay_injection: None,
            qos: false,
            edca: None,
            basic_rates: None,
            rts_rate: None,
            preamble: None,
            beacon_interval: None,
        }
    }
}

impl ApConfig {
    /// The AP's whole buffer B in packets (both queues when they are separate).
    pub fn buffer(&self) -> u32 {
        self.queue + self.ack_queue.unwrap_or(0)
    }

    /// The `[mac]` settings of the AP's own frames: `mac` with the AP's retry limits.
    pub fn mac(&self, mac: &MacConfig) -> MacConfig {
        MacConfig {
            short_retry_limit: self.short_retry_limit.unwrap_or(mac.short_retry_limit),
            long_retry_limit: self.long_retry_limit.unwrap_or(mac.long_retry_limit),
            ..mac.clone()
        }
    }
}

/// `count` wired servers named `NAME-0` …, each on its own full-duplex link to `via` (an
/// AP or a router): per direction, a drop-tail queue, serialisation at `rate` (IP bytes)
/// and `delay`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ServerGroup {
    /// Group name: non-empty, without '.', '=', spaces or control characters; unique
    /// among stations, servers and the AP.
    pub name: String,
    /// Number of servers; at most 100 000 nodes in all (AP, stations, servers).
    #[serde(default = "default_server_count")]
    #[schemars(range(min = 1, max = 100000))]
    pub count: u32,
    /// The AP or router the servers' links attach to; the AP when there is only one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// Link rate of each direction (IP bytes are serialised at this rate).
    #[serde(default = "default_link_rate")]
    pub rate: Rate,
    /// One-way propagation delay of the link.
    #[serde(default = "default_link_delay")]
    pub delay: Duration,
    /// Queue of each link direction, in packets.
    #[serde(default = "default_link_queue")]
    #[schemars(range(min = 1, max = 1000000))]
    pub queue: u32,
}

/// A wired node that forwards packets between its links.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RouterConfig {
    /// The router's node name (same rules as group names).
    pub name: String,
}

/// A full-duplex wired link between two named nodes (APs, routers, servers `NAME-i`): per
/// direction a drop-tail queue, serialisation at `rate` (IP bytes) and a propagation
/// `delay`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkConfig {
    /// One end: an AP, a router or a server (`NAME-i`).
    pub a: String,
    /// The other end.
    pub b: String,
    /// Rate of each direction (IP bytes are serialised at this rate).
    #[serde(default = "default_link_rate")]
    pub rate: Rate,
    /// One-way propagation delay.
    #[serde(default = "default_link_delay")]
    pub delay: Duration,
    /// Queue of each direction, in packets.
    #[serde(default = "default_link_queue")]
    #[schemars(range(min = 1, max = 1000000))]
    pub queue: u32,
}

/// `count` identical stations named `NAME-0` … `NAME-(count-1)`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StationGroup {
    /// Group name: non-empty, without '.', '=', spaces or control characters; unique
    /// among stations, servers and the AP.
    pub name: String,
    /// Number of stations; at most 100 000 nodes in all (AP, stations, servers).
    #[serde(default = "default_count")]
    #[schemars(range(min = 1, max = 100000))]
    pub count: u32,
    /// The AP the stations are associated with; the AP when there is only one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ap: Option<String>,
    /// Interface queue capacity; `mac.queue` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000000))]
    pub queue: Option<u32>,
    /// 802.11e EDCA (one queue of `queue` packets per AC) instead of DCF; always under
    /// 802.11n/ac (QoS STAs).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub qos: bool,
    /// Per-AC EDCA parameters of the group's stations (needs `qos = true`, or
    /// 802.11n/ac).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edca: Option<EdcaConfig>,
    /// I.i.d. data frame error rate of each station's link with the AP, both directions;
    /// in [0, 1) (sugar for a `[[channel.links]]` entry naming this group).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fer: Option<f64>,
    /// Frame error rate station → AP; `fer` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fer_uplink: Option<f64>,
    /// Frame error rate AP → station; `fer` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fer_downlink: Option<f64>,
    /// Rate of the data frames between these stations and their AP, both directions:
    /// one of the standard's rates; `phy.data_rate` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_rate: Option<Rate>,
    /// Rate adaptation of these stations' links (see `mac.rate_control`); that when
    /// absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_control: Option<RateAlgorithm>,
    /// Where the group's stations stand, [x, y] in metres (each within ±1000 km; all at
    /// one point); needed by `[channel.propagation]`; where they start from when they
    /// move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<[f64; 2]>,
    /// Motion at a constant speed from `position` through waypoints (see `mobility`);
    /// static when absent. The stations stay with their AP while they move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobility: Option<MobilityConfig>,
    /// Antenna gain of these stations, dB (0): frames from and to them arrive this much
    /// stronger (received powers: carrier sense, reception).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub antenna_gain_db: Option<f64>,
    /// Carrier-sense threshold (energy detection): a signal at least this strong keeps the
    /// medium busy even when the station is not receiving it (ns-2 `CSThresh_`). Default:
    /// `channel.propagation.cs_threshold_w`, else the PHY's CCA level (−62 dBm OFDM; DSSS
    /// −80 dBm above 100 mW of transmit power).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cs_threshold: Option<Power>,
    /// Receive threshold (preamble detection): the weakest frame the station locks onto,
    /// senses busy for its length and may decode (ns-2 `RXThresh_`). Default:
    /// `channel.propagation.rx_threshold_w`, else `channel.reception.sensitivity_dbm` with
    /// `sinr`, else the PHY's minimum sensitivity (−82 dBm OFDM, −80 dBm DSSS).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rx_threshold: Option<Power>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    Udp,
    Tcp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// From the flow's station to its peer (the server, the peer station, or the AP).
    Uplink,
    /// From the peer to the flow's station.
    Downlink,
}

/// One flow per station of the group `stations`, named `NAME-i`. Station i's peer is
/// server i mod count of the group `server`, or station i mod count of the station group
/// `peer`, or else the station's AP (UDP only). `direction` says who sends the data.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowConfig {
    /// Flow name (flows are `NAME-0`, `NAME-1`, …): same rules as group names; unique.
    pub name: String,
    /// Transport protocol.
    #[serde(default = "FlowConfig::default_protocol")]
    pub protocol: Protocol,
    /// Direction of the data.
    pub direction: Direction,
    /// The station group whose every station has one such flow.
    pub stations: String,
    /// How a UDP source generates packets (TCP flows are saturated): "saturated", "cbr",
    /// "poisson", "game" (see `game`) or "trace" (see `trace`).
    #[serde(default = "FlowConfig::default_traffic")]
    pub traffic: Traffic,
    /// Offered load per flow (cbr and poisson), counting IP bytes; at most 10 Gb/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<Rate>,
    /// Application payload per packet (UDP payload, 1 to 2268 B; TCP uses `tcp.mss`);
    /// game and trace messages are cut into packets of at most this size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packet_size: Option<Bytes>,
    /// Game traffic (`traffic = "game"`): message sizes and intervals of this direction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<GameConfig>,
    /// Trace-driven video (`traffic = "trace"`): the frame-size trace to play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<TraceConfig>,
    /// When the source starts (before the end of the run).
    #[serde(default)]
    pub start: Duration,
    /// When a UDP source stops (after `start`); never when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<Duration>,
    /// The server group at the wired end (required for TCP unless `peer` is given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// A station group at the other end (station ↔ station through the APs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peer: Option<String>,
    /// TCP: payload bytes to transfer; persistent (bulk) when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<Bytes>,
    /// TCP: files sent one after another (each a session), instead of `bytes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<FilesConfig>,
    /// TCP settings of this flow (over the scenario's `[tcp]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp: Option<TcpSettings>,
    /// DSCP of the flow's packets (for `[qos] classifier` rules), 0 to 63.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = 63))]
    pub dscp: Option<u8>,
}

impl FlowConfig {
    fn default_protocol() -> Protocol {
        Protocol::Udp
    }
    fn default_traffic() -> Traffic {
        Traffic::Saturated
    }

    /// UDP payload per packet.
    pub fn udp_payload(&self) -> Bytes {
        self.packet_size.unwrap_or(DEFAULT_PACKET_SIZE)
    }
}

impl Scenario {
    /// Parse and validate a TOML scenario.
    pub fn from_toml(text: &str) -> Result<Scenario, ScenarioError> {
        let de = toml::Deserializer::new(text);
        let scenario: Scenario = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            // The document as data, to quote the value given (when the text parses).
            let doc = toml::from_str::<toml::Value>(text)
                .ok()
                .and_then(|v| serde_json::to_value(v).ok());
            // and what is written where the error is (for a scalar, or when the text does not
            // parse as a whole): an array, a table, or a short scalar as written (`traffic = 0`)
            let token = inner.span().and_then(|span| {
                let written = text.get(span)?.trim();
                match written.chars().next()? {
                    '[' => Some("an array".to_string()),
                    '{' => Some("a table".to_string()),
                    // NaN and infinities by the names `explain` gives them ("NaN is not
                    // allowed (not a finite number)")
                    _ if written.parse::<f64>().is_ok_and(f64::is_nan) => Some("NaN".into()),
                    _ if written.parse::<f64>().is_ok_and(f64::is_infinite) => {
                        let sign = if written.starts_with('-') { "-" } else { "" };
                        Some(format!("{sign}Infinity"))
                    }
                    _ if written.len() <= 40 && !written.contains('\n') => {
                        Some(written.to_string())
                    }
                    _ => None,
                }
            });
            let (path, message) =
                schema::parse_error(&path, inner.message(), doc.as_ref(), token.as_deref());
            // Where in the text: the line and column (not the line itself, which may be
            // megabytes long).
            let message = match inner.span() {
                Some(span) => {
                    let before = &text[..span.start.min(text.len())];
                    let line = before.matches('\n').count() + 1;
                    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
                    if path.is_empty() || path == "." {
                        format!("TOML parse error at line {line}, column {column}: {message}")
                    } else {
                        format!("{message} (line {line}, column {column})")
                    }
                }
                None => message,
            };
            ScenarioError::new(path, message)
        })?;
        scenario.checked()
    }

    /// Parse and validate a JSON scenario (what the Python package sends).
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let mut de = serde_json::Deserializer::from_str(text);
        let scenario: Scenario = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            // serde_json appends the position in the generated JSON text, which means
            // nothing to the author of the scenario: the key path says where, and the
            // value found there is quoted instead.
            let path = e.path().to_string();
            let inner = e.into_inner();
            let token = schema::json_token_at(text, inner.line(), inner.column());
            let mut message = inner.to_string();
            if let Some(at) = message.rfind(" at line ") {
                message.truncate(at);
            }
            // The document, to name the value found at `path`; NaN and the infinities
            // (JSON's extensions, which the Python package sends) read as null, so that a
            // table or an array elsewhere is still named as such.
            let doc = serde_json::from_str::<serde_json::Value>(text)
                .ok()
                .or_else(|| {
                    let finite = text.replace("-Infinity", "null");
                    let finite = finite.replace("Infinity", "null").replace("NaN", "null");
                    serde_json::from_str(&finite).ok()
                });
            let (path, message) =
                schema::parse_error(&path, &message, doc.as_ref(), token.as_deref());
            ScenarioError::new(path, message)
        })?;
        scenario.checked()
    }

    /// Turn the one-AP sugar into `[[aps]]`, validate, apply the `[qos]` preset, validate
    /// what it wrote.
    fn checked(mut self) -> Result<Scenario, ScenarioError> {
        let sugar = self.aps.is_empty();
        self.one_ap_table = sugar;
        match self.ap.take() {
            Some(_) if !sugar => {
                return Err(ScenarioError::new(
                    "ap",
                    "both [ap] and [[aps]] are given: use [[aps]] (one table per AP) only",
                ))
            }
            ap => {
                if sugar {
                    self.aps.push(ap.unwrap_or_default());
                }
            }
        }
        // Errors about the one AP name the key its author wrote.
        let in_authors_terms = |mut e: ScenarioError| {
            if sugar && e.path.starts_with("aps[0]") {
                e.path = e.path.replacen("aps[0]", "ap", 1);
            }
            e
        };
        self.checked_aps().map_err(in_authors_terms)
    }

    fn checked_aps(mut self) -> Result<Scenario, ScenarioError> {
        self.validate()?;
        if self.qos.preset.is_some() {
            presets::apply(&mut self);
            self.validate()?;
        }
        Ok(self)
    }

    pub fn validate(&self) -> Result<(), ScenarioError> {
        validate::scenario(self)
    }

    /// The name of the AP a station group is associated with (validated scenarios only).
    pub fn ap_of<'a>(&'a self, g: &'a StationGroup) -> &'a str {
        g.ap.as_deref().unwrap_or(&self.aps[0].name)
    }

    /// The TCP profile the top-level `profile` implies.
    fn tcp_profile(&self) -> TcpProfile {
        match self.profile {
            Profile::Standard | Profile::Ns3 => TcpProfile::Standard,
            Profile::Ns2 => TcpProfile::Ns2,
        }
    }

    /// The TCP configuration of flow `i` (scenario `[tcp]`, then the flow's `tcp`).
    pub fn tcp_config(&self, i: usize) -> crate::tcp::TcpConfig {
        TcpSettings::config(
            self.tcp.as_ref(),
            self.flows[i].tcp.as_ref(),
            self.tcp_profile(),
        )
    }

    /// The routing agent of the wireless nodes: `routing_agent`, else the profile's. ns-2's
    /// wired-cum-wireless scenarios, as the seed studies built theirs, need a routing
    /// agent at the base stations and the mobiles, and ns-2's example of them
    /// (`tcl/ex/wired-cum-wireless-sim.tcl`) runs DSDV: so does the ns2 profile.
    pub fn routing_agent(&self) -> RoutingAgent {
        self.routing_agent.unwrap_or(match self.profile {
            Profile::Standard | Profile::Ns3 => RoutingAgent::None,
            Profile::Ns2 => RoutingAgent::Dsdv,
        })
    }

    /// Whether a node whose `qos` key is `flag` is a QoS STA (EDCA): as it says, and
    /// always under 802.11n/ac (the standard makes every HT and VHT STA a QoS STA; a
    /// `[qos]` preset sets the flags itself).
    pub fn qos_node(&self, flag: bool) -> bool {
        flag || self.phy.standard.ht_format().is_some()
    }

    /// The profile of the 802.11 part (MAC rules and frame timing): `[mac] profile`, else
    /// the top-level `profile`.
    pub fn mac_profile(&self) -> Profile {
        self.mac.profile.unwrap_or(self.profile)
    }

    /// How a lone MPDU under a Block Ack agreement is acknowledged (`mac.single_mpdu_ack`,
    /// else ns-3.37's Normal Ack under the ns3 MAC profile with A-MPDUs).
    pub fn single_mpdu_ack(&self) -> SingleMpduAck {
        self.mac.single_mpdu_ack.unwrap_or(
            if self.mac.ampdu_max_bytes > 0 && self.mac_profile() == Profile::Ns3 {
                SingleMpduAck::NormalAck
            } else {
                SingleMpduAck::BlockAck
            },
        )
    }

    /// The count of an entity's missed responses in a row at which an MPDU sent alone
    /// with a Normal Ack is discarded (`mac.single_mpdu_retry_limit`, else ns-3.37's
    /// `MaxSsrc`, 7, under the ns3 MAC profile with A-MPDUs); None: no such limit.
    pub fn single_mpdu_retry_limit(&self) -> Option<u32> {
        match self.mac.single_mpdu_retry_limit {
            Some(limit) => limit.0,
            None => (self.mac.ampdu_max_bytes > 0 && self.mac_profile() == Profile::Ns3)
                .then_some(NS3_MAX_SSRC),
        }
    }

    /// Whether the stations' rate controllers hear ns-3.37's first reports
    /// (`mac.rate_first_reports`, else `ns3` under the ns3 MAC profile where they apply:
    /// 802.11n/ac with A-MPDUs).
    pub fn rate_first_reports(&self) -> FirstReports {
        self.mac.rate_first_reports.unwrap_or(
            if self.first_reports_apply() && self.mac_profile() == Profile::Ns3 {
                FirstReports::Ns3
            } else {
                FirstReports::None
            },
        )
    }

    /// How Minstrel-HT times a rate's MPDUs (`mac.minstrel_ht_airtime`, else `ns3` under
    /// the ns3 MAC profile).
    pub fn minstrel_ht_airtime(&self) -> Airtime {
        self.mac
            .minstrel_ht_airtime
            .unwrap_or(if self.mac_profile() == Profile::Ns3 {
                Airtime::Ns3
            } else {
                Airtime::Ppdu
            })
    }

    /// Whether ns-3.37's first reports are modelled for this scenario's links: 802.11n/ac
    /// with A-MPDUs, where ns-3's start was traced (`mac/rate/first_reports.rs`).
    pub fn first_reports_apply(&self) -> bool {
        self.phy.standard.ht_format().is_some() && self.mac.ampdu_max_bytes > 0
    }

    /// Whether the MPDUs in flight count against their node's queue
    /// (`mac.queue_counts_in_flight`, else `true` under the ns3 MAC profile where it
    /// applies: [`Scenario::in_flight_count_applies`]).
    pub fn queue_counts_in_flight(&self) -> bool {
        self.mac
            .queue_counts_in_flight
            .unwrap_or(self.in_flight_count_applies() && self.mac_profile() == Profile::Ns3)
    }

    /// Whether the MPDUs in flight can count against the queues: with A-MPDUs (a Block
    /// Ack window beside the queue) and every queue one FIFO (no AP's `ack_queue`).
    pub fn in_flight_count_applies(&self) -> bool {
        let mut aps = self.aps.iter().chain(&self.ap);
        self.mac.ampdu_max_bytes > 0 && aps.all(|ap| ap.ack_queue.is_none())
    }

    /// The MAC rules: `[mac] profile`, else the top-level `profile`.
    pub fn mac_rules(&self) -> crate::mac::MacRules {
        self.mac_profile().mac_rules()
    }

    /// The HT/VHT mode of the data frames (802.11n/ac): `mcs`, `streams`, `channel_width`
    /// and `guard_interval` over their defaults; None for 802.11a/b/g.
    pub fn ht_mode(&self) -> Option<HtMode> {
        let c = &self.phy;
        let format = c.standard.ht_format()?;
        let width = c.channel_width.unwrap_or(match format {
            crate::phy::ht::Format::Ht => 20,
            crate::phy::ht::Format::Vht => 80,
        });
        let gi = c.guard_interval.unwrap_or_default();
        let mut mode = HtMode::highest(format, c.streams.unwrap_or(1), width, gi);
        if let Some(mcs) = c.mcs {
            mode.mcs = mcs;
        }
        Some(mode)
    }

    /// The PHY's band: `phy.band`, else the standard's.
    pub fn band(&self) -> Band {
        self.phy.band.unwrap_or(self.phy.standard.bands()[0])
    }

    /// The PHY this scenario runs: the preset with every override applied.
    pub fn phy(&self) -> Phy {
        let c = &self.phy;
        let mut phy = c.standard.preset_in(c.preamble, self.band());
        if let Some(mode) = self.ht_mode() {
            phy.ht = Some(mode);
            phy.data_rate = mode.rate_bps().round() as u64;
        }
        let rules = self.mac_rules();
        phy.psdu_time = self.mac_profile().psdu_time();
        if rules == crate::mac::MacRules::Ns2 {
            // (802.11n/ac are refused under ns-2's rules.)
            phy.data_framing = rules.data_framing();
            // ns-2's EIFS: its PLCP and the ACK at its own lowest rate (`getEIFS`).
            phy.eifs_ack = None;
            phy.cw_min = crate::mac::ns2::NS2_CW_MIN;
            phy.cw_max = crate::mac::ns2::NS2_CW_MAX;
        }
        if let Some(v) = c.slot {
            phy.slot = v.0;
        }
        if let Some(v) = c.sifs {
            phy.sifs = v.0;
        }
        // DIFS = SIFS + 2·slot (9.3.7) unless given.
        phy.difs = c.difs.map_or(phy.sifs + 2 * phy.slot, |d| d.0);
        if let Some(v) = c.plcp {
            phy.plcp = v.0;
        }
        if let Some(v) = c.propagation_delay {
            phy.propagation_delay = v.0;
        }
        if let Some(v) = c.cw_min {
            phy.cw_min = v;
        }
        if let Some(v) = c.cw_max {
            phy.cw_max = v;
        }
        if let Some(v) = c.data_rate {
            phy.data_rate = v.0;
        }
        if let Some(v) = c.control_rate {
            phy.control_rate = v.0;
        }
        phy
    }

    /// This scenario with every PHY default written out (but `phy.mcs` where a rate
    /// controller chooses the MCS, which refuses it: `scenario/rates.rs`), so that it
    /// parses back to itself.
    pub fn resolved(&self) -> Scenario {
        let phy = self.phy();
        let mut out = self.clone();
        let d = |t| Some(Duration(t));
        let ht = phy.ht;
        let controlled = self
            .stations
            .iter()
            .any(|g| self.rate_control(g) != RateAlgorithm::Constant);
        out.phy = PhyConfig {
            standard: phy.standard,
            band: self.phy.band.or(ht.map(|_| phy.band)),
            mcs: ht.filter(|_| !controlled).map(|m| m.mcs),
            streams: ht.map(|m| m.streams),
            channel_width: ht.map(|m| m.width_mhz),
            guard_interval: ht.map(|m| m.guard_interval),
            preamble: self.phy.preamble,
            data_rate: ht.is_none().then_some(Rate(phy.data_rate)),
            nonstandard_rate: self.phy.nonstandard_rate,
            control_rate: Some(Rate(phy.control_rate)),
            slot: d(phy.slot),
            sifs: d(phy.sifs),
            difs: d(phy.difs),
            plcp: d(phy.plcp),
            propagation_delay: d(phy.propagation_delay),
            cw_min: Some(phy.cw_min),
            cw_max: Some(phy.cw_max),
        };
        for g in &mut out.stations {
            g.queue = Some(g.queue.unwrap_or(self.mac.queue));
        }
        if self.one_ap_table {
            out.ap = out.aps.pop();
        }
        for f in &mut out.flows {
            if f.protocol == Protocol::Udp {
                f.packet_size = Some(f.udp_payload());
            }
        }
        // TCP: the scenario's table and each flow's own, every setting written out (a
        // flow's own table is written whole, so the scenario's written one cannot
        // override it: each flow keeps its configuration)
        if self.flows.iter().any(|f| f.protocol == Protocol::Tcp) {
            let default = self.tcp_profile();
            let global = TcpSettings::config(self.tcp.as_ref(), None, default);
            let profile = self.tcp.as_ref().and_then(|t| t.profile).unwrap_or(default);
            out.tcp = Some(TcpSettings::written(profile, &global));
            for (i, f) in out.flows.iter_mut().enumerate() {
                if let Some(own) = &f.tcp {
                    let profile = own.profile.unwrap_or(profile);
                    f.tcp = Some(TcpSettings::written(profile, &self.tcp_config(i)));
                }
            }
        }
        out
    }
}
