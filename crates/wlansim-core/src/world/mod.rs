//! The simulated world: nodes, their channel-access entities, flows, and the event loop.
//!
//! One collision domain: every node hears every other, so the medium is a single shared
//! state. Wired servers sit behind the AP on their own links. The loop dispatches
//! [`Event`]s; the MAC logic is in `contention`, the UDP sources and delivery bookkeeping
//! in `traffic`, TCP connections and the AP's forwarding in `tcp_flows`, the wired links
//! in `wired`, the end-of-run report and packet accounting in `report`.
mod build;
mod channel;
mod contention;
mod edca;
mod report;
mod series;
mod tcp_flows;
mod traffic;
mod wired;

use crate::ap::RwndClamp;
use crate::mac::{Classifier, Entity};
use crate::net::NodeId;
use crate::phy::Phy;
use crate::results::{FlowCounts, Results};
use crate::scenario::{Direction, RtsThreshold, Scenario, ScenarioError, Traffic};
use crate::sim::event::EventQueue;
use crate::sim::rng::Rng;
use crate::sim::time::Time;
use crate::stats::Histogram;
use crate::tcp::TimerKind;
use std::fmt;
use tcp_flows::{Outbox, TcpConn};
use wired::WiredLink;

pub use series::SeriesTable;

/// Why a run could not produce results.
#[derive(Debug, Clone, PartialEq)]
pub enum SimError {
    Scenario(ScenarioError),
    /// An internal invariant failed (e.g. packet accounting); a bug, reported loudly.
    Invariant(String),
    /// The progress callback asked the run to stop (e.g. on Ctrl-C).
    Interrupted,
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SimError::Scenario(e) => e.fmt(f),
            SimError::Invariant(m) => write!(f, "simulation invariant violated: {m}"),
            SimError::Interrupted => write!(f, "the run was interrupted"),
        }
    }
}

impl std::error::Error for SimError {}

impl From<ScenarioError> for SimError {
    fn from(e: ScenarioError) -> Self {
        SimError::Scenario(e)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The earliest backoff expiry; stale unless the generation matches.
    AccessGrant(u64),
    /// The current frame exchange (or collision) is over: the medium turns idle.
    ExchangeEnd,
    /// A CBR or Poisson source generates its next packet.
    Arrival(u32),
    /// A flow starts.
    SourceStart(u32),
    /// A TCP endpoint's timer (flow, kind, generation); stale ones are ignored by it.
    TcpTimer(u32, TimerKind, u32),
    /// A wired link finished serialising its head packet.
    WireTxEnd(u32),
    /// The oldest packet on a wired link arrives at its far end.
    WireArrival(u32),
    /// Statistics start counting.
    WarmupEnd,
    /// Record one sample of every requested time series.
    Sample,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    AccessPoint,
    Station,
}

pub struct Node {
    pub name: String,
    pub role: Role,
    /// Indices of the node's channel-access entities: one under DCF, one per access
    /// category (AC_BK … AC_VO, in this order) under EDCA.
    pub entities: std::ops::Range<u32>,
}

/// Whole-run packet counts of one direction of a flow, never reset: the accounting check
/// uses them. Drops at any queue (station, AP, wired link) count as `dropped_queue`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Accounting {
    pub generated: u64,
    pub delivered: u64,
    pub dropped_queue: u64,
    pub dropped_retry: u64,
}

/// Per-flow statistics over the measurement window (after warm-up).
#[derive(Clone, Default)]
pub struct FlowStats {
    pub counts: FlowCounts,
    pub delay: Histogram,
}

pub struct Flow {
    pub name: String,
    pub direction: Direction,
    /// Names of the source and destination nodes (the TCP data's direction).
    pub src: String,
    pub dst: String,
    /// Index of the `[[flows]]` entry this flow comes from (what classifier rules name).
    pub spec: u32,
    /// DSCP of the flow's packets.
    pub dscp: Option<u8>,
    /// The entity that queues this flow's UDP packets.
    pub entity: u32,
    /// The flow's WLAN station (the AP's frames of this flow go to it).
    pub station: NodeId,
    /// Index into `World::conns` of a TCP flow.
    pub tcp: Option<u32>,
    pub traffic: Traffic,
    pub payload_bytes: u32,
    /// Mean time between packets (CBR: exact), ns.
    pub interval: f64,
    pub start: Time,
    pub stop: Time,
    pub rng: Rng,
    /// [forward, reverse]: UDP and TCP sender → receiver; TCP receiver → sender.
    pub acct: [Accounting; 2],
    pub stats: FlowStats,
}

/// The frame exchange in progress on the medium.
#[derive(Clone, Copy, Debug, Default)]
struct Exchange {
    start: Time,
    end: Time,
    /// End of the data frame's reception (exchanges of a single transmitter).
    data_end: Time,
    success: bool,
    /// The data frame was lost to the link's frame error rate (no ACK).
    lost: bool,
    /// Start of the TXOP this exchange belongs to.
    txop_start: Time,
}

pub struct World {
    pub phy: Phy,
    rts_threshold: RtsThreshold,
    pub nodes: Vec<Node>,
    pub entities: Vec<Entity>,
    pub flows: Vec<Flow>,
    /// The AP's node.
    ap: NodeId,
    /// Wired links (two per server).
    links: Vec<WiredLink>,
    /// TCP connections (see `Flow::tcp`).
    conns: Vec<TcpConn>,
    outbox: Outbox,
    rwnd_clamp: Option<RwndClamp>,
    /// Maps packets to ACs at QoS nodes.
    classifier: Classifier,
    /// Per entity: the saturated flows that keep its queue full, and a round-robin cursor.
    saturated: Vec<(Vec<u32>, usize)>,
    /// Per entity: EIFS − DIFS + AIFS (9.3.7, 9.19.2.3).
    eifs: Vec<Time>,
    link_errors: channel::LinkErrors,
    events: EventQueue<Event>,
    medium_busy: bool,
    grant_generation: u64,
    exchange: Exchange,
    /// Entities transmitting in the current exchange (reused buffer).
    transmitters: Vec<u32>,
    series: series::Recorder,
    warmup: Time,
    end: Time,
    seed: u64,
}

impl Node {
    /// This node's channel-access entities among `all`.
    fn entities_in<'a>(&self, all: &'a [Entity]) -> &'a [Entity] {
        &all[self.entities.start as usize..self.entities.end as usize]
    }
}

/// Events between two calls of the progress callback of [`World::run_with`]: rare
/// enough to cost nothing measurable, frequent enough (milliseconds) for Ctrl-C.
pub const PROGRESS_EVERY: u64 = 1 << 16;

impl World {
    /// Simulate to the end and report.
    pub fn run(self) -> Result<Results, SimError> {
        self.run_with(&mut |_| true)
    }

    /// Simulate to the end and report; every [`PROGRESS_EVERY`] events, `progress` gets
    /// the fraction of simulated time done and returns whether to go on.
    pub fn run_with(mut self, progress: &mut dyn FnMut(f64) -> bool) -> Result<Results, SimError> {
        let wall = std::time::Instant::now();
        while let Some((now, event)) = self.events.pop_before(self.end) {
            if self.events.processed().is_multiple_of(PROGRESS_EVERY)
                && !progress(now as f64 / self.end as f64)
            {
                return Err(SimError::Interrupted);
            }
            match event {
                Event::AccessGrant(generation) => {
                    if generation == self.grant_generation && !self.medium_busy {
                        self.on_access_grant(now);
                    }
                }
                Event::ExchangeEnd => self.on_exchange_end(now),
                Event::Arrival(flow) => self.on_arrival(now, flow),
                Event::SourceStart(flow) => self.on_source_start(now, flow),
                Event::TcpTimer(flow, kind, generation) => {
                    self.on_tcp_timer(now, flow, kind, generation)
                }
                Event::WireTxEnd(link) => self.on_wire_tx_end(now, link),
                Event::WireArrival(link) => self.on_wire_arrival(now, link),
                Event::WarmupEnd => self.reset_statistics(),
                Event::Sample => self.on_sample(now),
            }
        }
        self.check_accounting()?;
        Ok(self.report(wall.elapsed().as_secs_f64()))
    }
}

/// Build and run a scenario with `seed` (the scenario's own seed when `None`).
pub fn simulate(scenario: &Scenario, seed: Option<u64>) -> Result<Results, SimError> {
    simulate_with(scenario, seed, &mut |_| true)
}

/// [`simulate`] with a progress callback (see [`World::run_with`]).
pub fn simulate_with(
    scenario: &Scenario,
    seed: Option<u64>,
    progress: &mut dyn FnMut(f64) -> bool,
) -> Result<Results, SimError> {
    scenario.validate()?;
    World::new(scenario, seed.unwrap_or(scenario.seed)).run_with(progress)
}

#[cfg(test)]
mod edca_tests;
#[cfg(test)]
mod tests;
