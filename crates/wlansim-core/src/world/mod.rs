//! The simulated world: nodes, their channel-access entities, flows, and the event loop.
//!
//! The world assembles the components and dispatches events to them: the MAC
//! ([`crate::mac::Mac`], channel access on the shared medium) asks the channel
//! ([`crate::channel::Channel`]) for each frame's fate and hands back what it delivered;
//! the UDP sources and delivery bookkeeping are in `traffic`, TCP connections and the
//! AP's forwarding in `tcp_flows`, the wired links in `wired`, the end-of-run report and
//! packet accounting in `report`.
mod build;
mod edca;
mod report;
mod series;
mod tcp_flows;
mod traffic;
mod wired;

use crate::ap::RwndClamp;
use crate::channel::Channel;
use crate::mac::{Classifier, Entity, Mac, MacEvent, MacOutcome};
use crate::net::NodeId;
use crate::results::{FlowCounts, Results};
use crate::scenario::{Direction, Scenario, ScenarioError, Traffic};
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
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SimError::Scenario(e) => e.fmt(f),
            SimError::Invariant(m) => write!(f, "simulation invariant violated: {m}"),
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
    /// Channel access on the wireless medium.
    Mac(MacEvent),
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

impl From<MacEvent> for Event {
    fn from(e: MacEvent) -> Self {
        Event::Mac(e)
    }
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

pub struct World {
    pub nodes: Vec<Node>,
    pub mac: Mac,
    channel: Channel,
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
    events: EventQueue<Event>,
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

impl World {
    /// Simulate to the end and report.
    pub fn run(mut self) -> Result<Results, SimError> {
        let wall = std::time::Instant::now();
        while let Some((now, event)) = self.events.pop_before(self.end) {
            match event {
                Event::Mac(MacEvent::Grant(generation)) => self.on_access_grant(now, generation),
                Event::Mac(MacEvent::ExchangeEnd) => self.on_exchange_end(now),
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

    fn on_access_grant(&mut self, now: Time, generation: u64) {
        self.mac
            .grant(now, generation, &mut self.channel, &mut self.events);
        self.handle_mac_outcomes(now);
    }

    fn on_exchange_end(&mut self, now: Time) {
        self.mac.exchange_end(now);
        self.handle_mac_outcomes(now);
        self.mac
            .exchange_done(now, &mut self.channel, &mut self.events);
    }

    /// What the MAC delivered, dropped or vacated, in order.
    fn handle_mac_outcomes(&mut self, now: Time) {
        let mut outcomes = self.mac.take_outcomes();
        for o in outcomes.drain(..) {
            match o {
                MacOutcome::Delivered { packet, at } => self.deliver(now, at, packet),
                MacOutcome::RetryDrop(p) => self.count_retry_drop(&p),
                MacOutcome::Vacated(e) => {
                    self.refill(now, e);
                }
            }
        }
        self.mac.restore_outcomes(outcomes);
    }
}

/// Build and run a scenario with `seed` (the scenario's own seed when `None`).
pub fn simulate(scenario: &Scenario, seed: Option<u64>) -> Result<Results, SimError> {
    scenario.validate()?;
    World::new(scenario, seed.unwrap_or(scenario.seed)).run()
}

#[cfg(test)]
mod contention_tests;
#[cfg(test)]
mod edca_tests;
#[cfg(test)]
mod tests;
