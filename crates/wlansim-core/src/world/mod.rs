//! The simulated world: nodes, their channel-access entities, flows, and the event loop.
//!
//! The world assembles the components and dispatches events to them: the MAC
//! ([`crate::mac::Mac`], channel access on the shared medium) asks the channel
//! ([`crate::channel::Channel`]) for each frame's fate and hands back what it delivered;
//! the network layer (`forward`: routes, the wired links of [`crate::net::Wires`], the AP
//! mechanisms on forwarded packets) takes packets from node to node; the UDP sources and
//! delivery bookkeeping are in `traffic`, TCP connections in `tcp_flows`, the end-of-run
//! report and packet accounting in `report`.
mod build;
mod drops;
mod edca;
mod external;
mod forward;
mod rate;
mod report;
mod series;
mod tcp_flows;
mod traffic;

use crate::ap::{ApEvent, DelayInjection, RwndClamp};
use crate::app::UdpSource;
use crate::channel::Channel;
use crate::mac::{Classifier, Entity, Mac, MacEvent, MacOutcome};
use crate::net::{NodeId, Packet, Routes, WireEvent, Wires};
use crate::results::{FlowCounts, Results};
use crate::scenario::{Direction, Model, Scenario, ScenarioError};
use crate::sim::event::{EventQueue, Slot, Slotted};
use crate::sim::time::Time;
use crate::stats::{Histogram, Jitter};
use crate::tcp::TimerKind;
use crate::trace::{AirRate, AmpduSubframe, DropReason, Trace, TraceEvent};
use std::fmt;
use tcp_flows::{Outbox, TcpConn};

pub use external::{Egress, ExternalFlow};

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
    /// Channel access on the wireless medium.
    Mac(MacEvent),
    /// A UDP source's next message comes (or the current one goes on: at most
    /// `app::udp::PACKETS_PER_EVENT` packets per event).
    Arrival(u32),
    /// A flow starts.
    SourceStart(u32),
    /// A TCP endpoint's timer (flow, kind, generation, connection epoch); stale ones are
    /// ignored.
    TcpTimer(u32, TimerKind, u32, u16),
    /// A file sequence requests its next file.
    NextFile(u32),
    /// The wired links.
    Wire(WireEvent),
    /// Statistics start counting.
    WarmupEnd,
    /// Record one sample of every requested time series.
    Sample,
    /// An AP mechanism's timer (delay injection releases held ACKs).
    Ap(ApEvent),
    /// A target beacon transmission time of the i-th AP that sends beacons.
    Beacon(u32),
    /// The oldest packet handed down to a MAC reaches its interface queue (ns2 profile:
    /// `World::hand_down`).
    HandedDown,
}

impl From<ApEvent> for Event {
    fn from(e: ApEvent) -> Self {
        Event::Ap(e)
    }
}

impl Slotted for Event {
    /// The medium's next access grant (a newer one makes the older stale) and the end of
    /// the current exchange (one at a time) live beside the heap, and so does a frame
    /// passed up before its exchange ends when no other waits (the shared medium's one
    /// exchange: always; the spatial medium's exchanges in parallel: the first).
    #[inline]
    fn slot(&self) -> Option<Slot> {
        match self {
            Event::Mac(MacEvent::Grant(_)) => Some(Slot::Newest(0)),
            Event::Mac(MacEvent::ExchangeEnd) => Some(Slot::Newest(1)),
            Event::Mac(MacEvent::Received(_)) => Some(Slot::Free(2)),
            _ => None,
        }
    }
}

impl From<MacEvent> for Event {
    fn from(e: MacEvent) -> Self {
        Event::Mac(e)
    }
}

impl From<WireEvent> for Event {
    fn from(e: WireEvent) -> Self {
        Event::Wire(e)
    }
}

pub use crate::scenario::Role;

/// A node: APs first, then stations, routers and servers.
pub struct Node {
    pub name: String,
    pub role: Role,
    /// Indices of the node's channel-access entities: one under DCF, one per access
    /// category (AC_BK … AC_VO, in this order) under EDCA; none for a wired node.
    pub entities: std::ops::Range<u32>,
    /// The AP of its BSS (an AP's own id); None for a wired node.
    pub bss: Option<NodeId>,
}

/// Whole-run packet counts of one direction of a flow, never reset: the accounting check
/// uses them. Drops at any queue (station, AP, wired link) count as `dropped_queue`,
/// scripted losses (`[[drops]]`) as `dropped_scripted`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Accounting {
    pub generated: u64,
    pub delivered: u64,
    pub dropped_queue: u64,
    pub dropped_retry: u64,
    pub dropped_scripted: u64,
    pub dropped_lifetime: u64,
}

/// Per-flow statistics over the measurement window (after warm-up).
#[derive(Clone, Default)]
pub struct FlowStats {
    pub counts: FlowCounts,
    pub delay: Histogram,
    pub jitter: Jitter,
}

impl FlowStats {
    /// Start counting afresh (the end of the warm-up), reusing the histogram's memory.
    fn clear(&mut self) {
        self.counts = FlowCounts::default();
        self.delay.clear();
        self.jitter = Jitter::default();
    }
}

pub struct Flow {
    pub name: String,
    pub direction: Direction,
    /// Source and destination nodes of the data (a TCP flow's ACKs go the other way).
    pub src: NodeId,
    pub dst: NodeId,
    /// Index of the `[[flows]]` entry this flow comes from (what classifier rules name).
    pub spec: u32,
    /// DSCP of the flow's packets.
    pub dscp: Option<u8>,
    /// The entity at the source that queues this flow's UDP packets (saturated sources
    /// keep it full).
    pub entity: u32,
    /// Index into `World::conns` of a TCP flow.
    pub tcp: Option<u32>,
    /// The source of a UDP flow.
    pub udp: Option<UdpSource>,
    pub start: Time,
    /// Bytes the routing agent of the originating node adds to the flow's packets
    /// ([forward, reverse], as `acct`; `net::routing_agent`).
    pub origin_header: [u32; 2],
    /// [forward, reverse]: UDP and TCP sender → receiver; TCP receiver → sender.
    pub acct: [Accounting; 2],
    pub stats: FlowStats,
    /// A flow of an external endpoint (`external.rs`), opened when its first packet came.
    pub external: Option<external::ExternalInfo>,
}

impl Flow {
    /// A packet of the flow's data (`reverse` false) or of its reverse direction (TCP
    /// ACKs) is created: its sequence number. Data with payload counts as offered.
    fn on_generated(&mut self, reverse: bool, payload_bytes: u32) -> u32 {
        let a = &mut self.acct[reverse as usize];
        let seq = a.generated as u32;
        a.generated += 1;
        if !reverse && payload_bytes > 0 {
            self.stats.counts.offered_packets += 1;
            self.stats.counts.offered_bytes += payload_bytes as u64;
        }
        seq
    }

    /// `p` reached its destination `delay` after it was created. Data with payload counts
    /// as delivered, with its delay (and apart when it was created before `warmup`).
    fn on_delivered(&mut self, p: &Packet, delay: Time, warmup: Time) {
        self.acct[p.reverse as usize].delivered += 1;
        if !p.reverse && p.payload_bytes > 0 {
            self.stats.counts.delivered_packets += 1;
            self.stats.counts.delivered_from_warmup += u64::from(p.created < warmup);
            self.stats.counts.delivered_bytes += p.payload_bytes as u64;
            self.stats.delay.record(delay);
            self.stats.jitter.record(delay);
        }
    }
}

pub struct World {
    pub nodes: Vec<Node>,
    pub mac: Mac,
    channel: Channel,
    pub flows: Vec<Flow>,
    /// Per AP (the APs are nodes 0..): its BSS's SSID.
    ssids: Vec<String>,
    /// Per node: its channel (0 for a wired node).
    channels: Vec<u16>,
    wires: Wires,
    routes: Routes,
    /// TCP connections (see `Flow::tcp`).
    conns: Vec<TcpConn>,
    outbox: Outbox,
    /// Per AP (the APs are nodes 0..): rwnd clamping of the TCP flows it forwards.
    rwnd_clamp: Vec<Option<RwndClamp>>,
    /// Per AP: delay injection (fotiadis2005) on the TCP ACKs it forwards to stations.
    delay_injection: Vec<Option<DelayInjection>>,
    /// Per AP that sends beacons (`mac/beacon.rs`): (node, its beacon entity, interval).
    beacons: Vec<(NodeId, u32, Time)>,
    /// Maps packets to ACs at QoS nodes.
    classifier: Classifier,
    /// Per entity: the saturated flows that keep its queue full, and a round-robin cursor.
    saturated: Vec<(Vec<u32>, usize)>,
    /// Packets handed down to a MAC on their way to its interface queue (ns2 profile).
    hand_down: forward::HandDown,
    events: EventQueue<Event>,
    /// The trace hook's consumers; None when nothing listens.
    trace: Option<Trace>,
    /// Scripted losses (`[[drops]]`); None when the scenario has none.
    drops: Option<drops::ScriptedDrops>,
    series: series::Recorder,
    warmup: Time,
    end: Time,
    seed: u64,
    /// The edge towards external endpoints (emulation); None in a simulation.
    edge: Option<Box<external::Edge>>,
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
            if self.events.processed().is_multiple_of(PROGRESS_EVERY) {
                if !progress(now as f64 / self.end as f64) {
                    return Err(SimError::Interrupted);
                }
                self.check_records(now)?;
            }
            self.dispatch(now, event);
        }
        self.finish(wall.elapsed().as_secs_f64())
    }

    /// Hand `event`, due at `now`, to the component that owns it. (Inlined, with the
    /// handlers of the shared medium's three events: one call site each, which the
    /// extension's build otherwise kept as four calls per event.)
    #[inline(always)]
    fn dispatch(&mut self, now: Time, event: Event) {
        match event {
            Event::Mac(MacEvent::Grant(generation)) => self.on_access_grant(now, generation),
            Event::Mac(MacEvent::ExchangeEnd) => self.on_exchange_end(now),
            Event::Mac(MacEvent::Received(entity)) => self.on_received(now, entity),
            Event::Mac(MacEvent::Wake(entity)) => self.on_wake(now, entity),
            Event::Mac(event) => self.on_spatial(now, event),
            Event::Arrival(flow) => self.on_arrival(now, flow),
            Event::SourceStart(flow) => self.on_source_start(now, flow),
            Event::TcpTimer(flow, kind, generation, epoch) => {
                self.on_tcp_timer(now, flow, kind, generation, epoch)
            }
            Event::NextFile(flow) => self.request_file(now, flow),
            Event::Wire(WireEvent::TraceStart(link)) => {
                let p = *self.wires.starting_at(link, now);
                self.trace_wire_start(now, link, &p);
            }
            Event::Wire(WireEvent::Arrival(link)) => {
                let (node, p) = self.wires.arrival(link);
                self.trace(now, TraceEvent::Received { node }, &p);
                self.receive(now, now, node, p);
            }
            Event::WarmupEnd => self.reset_statistics(now),
            Event::Sample => self.on_sample(now),
            Event::Ap(ApEvent::Release(ap)) => self.release_held(now, ap),
            Event::Beacon(i) => self.on_beacon(now, i),
            Event::HandedDown => self.on_handed_down(now),
        }
    }

    /// The run's pcap capture, when one is written.
    fn capture(&mut self) -> Option<&mut crate::trace::pcap::PcapRecorder> {
        self.trace.as_mut().and_then(|t| t.pcap.as_mut())
    }

    /// The end of the run: the accounting check, the captures closed, the report.
    fn finish(mut self, wall_s: f64) -> Result<Results, SimError> {
        self.check_accounting()?;
        self.check_records(self.end)?;
        if let Some(cap) = self.capture() {
            cap.finish()
                .map_err(|e| SimError::Scenario(ScenarioError::new("output.pcap", e)))?;
        }
        Ok(self.report(wall_s))
    }

    /// A TBTT: the AP queues its Beacon (skipped while the last one still waits) and the
    /// next TBTT is one interval later.
    fn on_beacon(&mut self, now: Time, i: u32) {
        let (ap, entity, interval) = self.beacons[i as usize];
        let beacon = Packet::udp(u32::MAX, 0, 0, ap, ap, now);
        let _skipped = self.mac.enqueue(now, entity, beacon, &mut self.events);
        self.events.schedule(now + interval, Event::Beacon(i));
    }

    #[inline(always)]
    fn on_access_grant(&mut self, now: Time, generation: u64) {
        self.mac
            .grant(now, generation, &mut self.channel, &mut self.events);
        self.handle_mac_outcomes(now);
    }

    #[inline(always)]
    fn on_exchange_end(&mut self, now: Time) {
        self.mac.exchange_end(now);
        self.handle_mac_outcomes(now);
        self.mac
            .exchange_done(now, &mut self.channel, &mut self.events);
        // A TXOP holder's next exchange may discard expired frames, or take MPDUs from
        // its queue, as it is formed: their drops and refills happen now too.
        self.handle_mac_outcomes(now);
    }

    /// [`MacEvent::Received`]: entity's head-of-line frame, decoded by its addressee at
    /// `now` less the rules' delivery delay, goes up now (ns-2's profile).
    #[inline(always)]
    fn on_received(&mut self, now: Time, entity: u32) {
        if let Some((packet, at)) = self.mac.received(now, entity) {
            self.delivered(now, at, packet);
        }
        self.handle_mac_outcomes(now);
    }

    /// `packet` was received correctly by its next hop at `at` (the MAC hands it up at
    /// `now`).
    #[inline(always)]
    fn delivered(&mut self, now: Time, at: Time, packet: Packet) {
        self.trace(at, TraceEvent::Received { node: packet.hop }, &packet);
        self.receive(now, at, packet.hop, packet)
    }

    /// [`MacEvent::Wake`]: entity's wait for an ADDBA Response ends (A-MPDU runs).
    #[inline(never)]
    fn on_wake(&mut self, now: Time, entity: u32) {
        self.mac.wake(now, entity, &mut self.events);
        self.handle_mac_outcomes(now);
    }

    /// An event of the spatial medium; then its outcomes, then what waits for them. Out
    /// of line, so that the dispatch of the shared medium's events stays as small as it
    /// was without it (and inlined into the event loop).
    #[inline(never)]
    fn on_spatial(&mut self, now: Time, event: MacEvent) {
        self.mac
            .spatial_event(now, event, &mut self.channel, &mut self.events);
        self.handle_mac_outcomes(now);
        self.mac.spatial_settle(now, &mut self.events);
    }

    /// What the MAC delivered, dropped or vacated, in order (most events leave none).
    #[inline(always)]
    fn handle_mac_outcomes(&mut self, now: Time) {
        if self.mac.has_outcomes() {
            self.take_mac_outcomes(now);
        }
    }

    /// [`World::handle_mac_outcomes`] when there are some.
    fn take_mac_outcomes(&mut self, now: Time) {
        let outcomes = self.mac.take_outcomes();
        for o in &outcomes {
            match *o {
                MacOutcome::Delivered { packet, at } => self.delivered(now, at, packet),
                MacOutcome::RetryDrop { node, packet } => {
                    let reason = DropReason::RetryLimit;
                    self.trace(now, TraceEvent::Dropped { node, reason }, &packet);
                    self.count_retry_drop(&packet);
                }
                MacOutcome::LifetimeDrop { node, packet } => {
                    let reason = DropReason::Lifetime;
                    self.trace(now, TraceEvent::Dropped { node, reason }, &packet);
                    self.count_lifetime_drop(&packet);
                }
                MacOutcome::Vacated(e) => {
                    self.refill(now, e);
                }
                MacOutcome::Attempt {
                    node,
                    packet,
                    at,
                    retry,
                    rate,
                } => {
                    let to = packet.hop;
                    let event = TraceEvent::TxStart {
                        node,
                        to,
                        air: Some(rate),
                        retry,
                    };
                    self.trace(at, event, &packet);
                }
                MacOutcome::Subframe {
                    node,
                    packet,
                    at,
                    retry,
                    rate,
                    seq,
                    index,
                    last,
                    decoded,
                } => {
                    let subframe = AmpduSubframe {
                        seq,
                        index,
                        last,
                        decoded,
                    };
                    let to = packet.hop;
                    let event = TraceEvent::Subframe {
                        node,
                        to,
                        retry,
                        rate,
                        subframe,
                    };
                    self.trace(at, event, &packet);
                }
                MacOutcome::BlockAck {
                    node,
                    to,
                    at,
                    rate,
                    ssn,
                    bitmap,
                    lost,
                } => {
                    if let Some(cap) = self.capture() {
                        cap.block_ack(at, node, to, rate, (ssn, bitmap), lost);
                    }
                }
                MacOutcome::Ack {
                    node,
                    to,
                    at,
                    rate,
                    lost,
                } => {
                    if let Some(cap) = self.capture() {
                        cap.ack(at, node, to, rate, lost);
                    }
                }
                MacOutcome::Addba {
                    node,
                    to,
                    bssid,
                    at,
                    rate,
                    response,
                    lost,
                } => {
                    if let Some(cap) = self.capture() {
                        cap.addba(at, (node, to, bssid), rate, response, lost);
                    }
                }
                MacOutcome::Beacon { node, at, collided } => {
                    if let Some(cap) = self.capture() {
                        cap.beacon(at, node, node, collided);
                    }
                }
                MacOutcome::Heard {
                    node,
                    from,
                    at,
                    decoded,
                    data: Some((packet, retry)),
                } => {
                    // The spatial medium's frames go at their link's configured rate.
                    let rate = AirRate::of(&self.mac.store.link(from, packet.hop).rates);
                    let event = TraceEvent::Heard {
                        node,
                        from,
                        retry,
                        decoded,
                        rate,
                    };
                    self.trace(at, event, &packet);
                }
                MacOutcome::Heard {
                    node,
                    from,
                    at,
                    decoded,
                    data: None,
                } => {
                    if let Some(cap) = self.capture() {
                        cap.beacon(at, from, node, !decoded);
                    }
                }
                MacOutcome::Failed { node, packet, lost } => {
                    self.trace(now, TraceEvent::TxFailed { node, lost }, &packet);
                }
            }
        }
        self.mac.restore_outcomes(outcomes);
    }

    /// Stop a run whose per-packet records of the measurement window (at `now`) passed
    /// their limit, rather than fill the memory.
    fn check_records(&self, now: Time) -> Result<(), SimError> {
        let full = self
            .trace
            .as_ref()
            .and_then(|t| t.packets.as_ref())
            .is_some_and(|r| r.full());
        if full && now >= self.warmup {
            return Err(SimError::Scenario(ScenarioError::new(
                "output.packets",
                format!(
                    "more than {} packets to record: record fewer flows (a list of their names), or run a shorter time",
                    crate::trace::packets::MAX_RECORDS
                ),
            )));
        }
        Ok(())
    }

    /// Report `event` to the trace hook's consumers, if any.
    #[inline]
    fn trace(&mut self, t: Time, event: TraceEvent, p: &Packet) {
        if self.trace.is_some() {
            self.emit_trace(t, event, p);
        }
    }

    /// [`World::trace`] when the hook listens (out of line: most runs trace nothing, and
    /// every packet passes here more than once).
    #[inline(never)]
    fn emit_trace(&mut self, t: Time, event: TraceEvent, p: &Packet) {
        if let Some(trace) = &mut self.trace {
            let real = self.edge.as_ref().and_then(|e| e.bytes(p));
            trace.emit(t, event, p, real);
        }
    }

    /// `p` starts on wired link `link` at `now`.
    fn trace_wire_start(&mut self, now: Time, link: u32, p: &Packet) {
        let l = &self.wires.links[link as usize];
        let (node, to) = (l.from, l.to);
        let event = TraceEvent::TxStart {
            node,
            to,
            air: None,
            retry: false,
        };
        self.trace(now, event, p);
    }
}

impl World {
    /// The world of scenario `s` ([`Model::resolve`], then [`World::from_model`]).
    pub fn new(s: &Scenario, seed: u64) -> Result<World, ScenarioError> {
        World::from_model(&Model::resolve(s)?, seed)
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
    World::new(scenario, seed.unwrap_or(scenario.seed))?.run_with(progress)
}

#[cfg(test)]
mod contention_tests;
#[cfg(test)]
mod edca_tests;
#[cfg(test)]
mod ns2_tests;
#[cfg(test)]
mod rate_tests;
#[cfg(test)]
mod rates_tests;
#[cfg(test)]
mod tests;
