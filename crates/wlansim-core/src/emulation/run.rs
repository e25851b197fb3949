//! The emulator: the world, the devices of its emulated nodes, and the real-time loop
//! between them.
use super::flows::{flow_name, Addresses, Conns};
use super::headers::{self, set_tcp_window, tcp_window, Headers};
use super::realtime::{Clock, Waiter};
use super::tun::Tun;
use super::{emulated_nodes, EmulatedNode, EmulationError, Realtime};
use crate::net::{NodeId, Packet};
use crate::results::Results;
use crate::scenario::Scenario;
use crate::sim::time::{to_secs, Time, MS};
use crate::stats::Histogram;
use crate::world::{Egress, ExternalFlow, World};
use std::os::fd::AsFd;
use std::path::Path;

/// The largest packet a device gives (MTU 1500; room for a larger one set by hand).
const BUF: usize = 65536;
/// Packets read from one device before the loop looks at the clock again.
const READ_BURST: usize = 32;
/// How often the progress callback runs (wall clock).
const PROGRESS_EVERY: Time = 20 * MS;

/// One emulated node's device and its read state.
struct Port {
    node: NodeId,
    tun: Tun,
    /// A packet read while its MAC queue was full: the device is not read until it fits.
    held: Option<(Packet, Box<[u8]>)>,
}

pub struct Emulator {
    world: World,
    ports: Vec<Port>,
    /// Port index of each node (usize::MAX: not emulated).
    port_of: Vec<usize>,
    addresses: Addresses,
    conns: Conns,
    end: Time,
    hard_limit: Option<Time>,
    spin: Time,
    nodes: Vec<EmulatedNode>,
}

impl Emulator {
    /// Build the world of `s` (without the flows the applications replace) and create a
    /// TUN device for each emulated node in the namespace `netns_dir/PREFIX` + its name.
    pub fn new(
        s: &Scenario,
        seed: Option<u64>,
        netns_dir: &Path,
        prefix: &str,
    ) -> Result<Emulator, EmulationError> {
        s.validate()?;
        let nodes = emulated_nodes(s)?;
        let e = s.emulation.as_ref().expect("checked by emulated_nodes");
        let sim = s.emulated();
        let mut world = World::new(&sim, seed.unwrap_or(s.seed))?;
        let ids: Vec<NodeId> = nodes.iter().map(|n| n.id).collect();
        world.attach_edge(&ids);
        let mut port_of = vec![usize::MAX; world.nodes.len()];
        let mut ports = Vec::with_capacity(nodes.len());
        for n in &nodes {
            let netns = netns_dir.join(format!("{prefix}{}", n.name));
            let tun = Tun::create_in(&netns, n.device).map_err(EmulationError::Io)?;
            port_of[n.id as usize] = ports.len();
            ports.push(Port {
                node: n.id,
                tun,
                held: None,
            });
        }
        Ok(Emulator {
            world,
            ports,
            port_of,
            addresses: Addresses::new(ids),
            conns: Conns::default(),
            end: s.duration.0,
            hard_limit: e.hard_limit.map(|d| d.0),
            spin: e.spin.0,
            nodes,
        })
    }

    pub fn nodes(&self) -> &[EmulatedNode] {
        &self.nodes
    }

    /// Run in real time until the scenario's duration, or until `progress` (called about
    /// every 20 ms with the simulated time in seconds and `false`) returns false because
    /// the applications are done (`Ok(false)`) or the user interrupted (`Err`). It is
    /// called once more with `true` when the loop has stopped, while the devices still
    /// exist (to read their counters).
    pub fn run(
        mut self,
        progress: &mut dyn FnMut(f64, bool) -> Result<bool, ()>,
    ) -> Result<(Results, Realtime), EmulationError> {
        let io = EmulationError::Io;
        let mut waiter = Waiter::new(self.spin).map_err(io)?;
        for (i, p) in self.ports.iter().enumerate() {
            waiter.watch(p.tun.as_fd(), i as u64).map_err(io)?;
        }
        let mut rt = Realtime {
            mode: if self.hard_limit.is_some() {
                "hard-limit"
            } else {
                "best-effort"
            },
            hard_limit_s: self.hard_limit.map(to_secs),
            ..Realtime::default()
        };
        let mut lateness = Histogram::new();
        let mut max_lateness: Time = 0;
        let mut buf = vec![0u8; BUF];
        let mut ready: Vec<u64> = Vec::new();
        let mut delivered: Vec<Egress> = Vec::new();
        let mut stopped: Vec<usize> = Vec::new();
        let clock = Clock::start();
        let mut next_progress = 0;
        let stop = loop {
            let now = clock.now();
            if now >= self.end {
                break self.end;
            }
            if now >= next_progress {
                next_progress = now + PROGRESS_EVERY;
                match progress(to_secs(now), false) {
                    Ok(true) => {}
                    Ok(false) => break now,
                    Err(()) => return Err(EmulationError::Interrupted),
                }
            }
            let caught_up = self.catch_up(&clock, &mut rt)?;
            // Deliveries: each written as soon as its event ran.
            self.world.take_delivered(&mut delivered);
            for e in delivered.drain(..) {
                self.write_out(e, &clock, &mut rt, &mut lateness, &mut max_lateness);
            }
            // Devices stopped while their queue was full, and now it has room.
            let mut k = 0;
            while k < stopped.len() {
                let i = stopped[k];
                let port = &mut self.ports[i];
                let (p, _) = port.held.as_ref().expect("a stopped port holds a packet");
                if self.world.accepts(port.node, p) {
                    let (p, bytes) = port.held.take().expect("held");
                    self.world.inject(caught_up, p, bytes);
                    rt.packets_in += 1;
                    waiter
                        .set(self.ports[i].tun.as_fd(), i as u64, true)
                        .map_err(io)?;
                    stopped.swap_remove(k);
                } else {
                    k += 1;
                }
            }
            for &i in &ready {
                let i = i as usize;
                if self.ports[i].held.is_some() {
                    continue;
                }
                self.read_port(i, &clock, &mut buf, &mut rt)?;
                if self.ports[i].held.is_some() {
                    rt.flow_control_stops += 1;
                    waiter
                        .set(self.ports[i].tun.as_fd(), i as u64, false)
                        .map_err(io)?;
                    stopped.push(i);
                }
            }
            let deadline = self
                .world
                .next_event()
                .unwrap_or(self.end)
                .min(self.end)
                .min(next_progress);
            waiter.wait(&clock, deadline, &mut ready).map_err(io)?;
        };
        let _ = progress(to_secs(stop), true);
        rt.stopped_at_s = to_secs(stop);
        rt.wall_s = to_secs(clock.now());
        rt.lateness(&lateness, max_lateness);
        let results = self
            .world
            .finish_at(stop, rt.wall_s)
            .map_err(EmulationError::Sim)?;
        Ok((results, rt))
    }

    /// Run every event due by now, recording how late each ran; the simulated time every
    /// event up to which has run. A packet enters the world at that time, not at a later
    /// reading of the clock: an event due in between would otherwise run after the packet
    /// that came after it (and the medium's access grants, computed before the packet
    /// came, would be found without a transmitter).
    fn catch_up(&mut self, clock: &Clock, rt: &mut Realtime) -> Result<Time, EmulationError> {
        let now = clock.now();
        while let Some(t) = self.world.step(now) {
            rt.events += 1;
            let lag = now.saturating_sub(t);
            if lag as f64 / 1e9 > rt.max_lag_s {
                rt.max_lag_s = to_secs(lag);
                rt.max_lag_at_s = to_secs(t);
            }
            if let Some(limit) = self.hard_limit {
                if lag > limit {
                    return Err(EmulationError::HardLimit(format!(
                        "the loop ran the event due at {:.6} s {:.3} ms late, more than hard_limit ({:.3} ms); the machine is too busy for this scenario in real time (use best-effort mode to run it anyway and see its lateness)",
                        to_secs(t),
                        lag as f64 / 1e6,
                        limit as f64 / 1e6
                    )));
                }
            }
        }
        Ok(now.max(self.world.now()))
    }

    /// Read what device `i` holds (at most a burst), injecting each packet at the time it
    /// was read, until it is empty or its node's MAC queue is full.
    fn read_port(
        &mut self,
        i: usize,
        clock: &Clock,
        buf: &mut [u8],
        rt: &mut Realtime,
    ) -> Result<(), EmulationError> {
        for _ in 0..READ_BURST {
            let n = match self.ports[i].tun.read(buf) {
                Ok(Some(n)) => n,
                Ok(None) => return Ok(()),
                Err(e) => return Err(EmulationError::Io(format!("reading a TUN device: {e}"))),
            };
            // Every event due by the read has run: the packet enters the world then.
            let now = self.catch_up(clock, rt)?;
            let node = self.ports[i].node;
            let Some(p) = self.admit(node, &buf[..n], now, rt) else {
                continue;
            };
            let bytes: Box<[u8]> = Box::from(&buf[..n]);
            if self.world.accepts(node, &p) {
                self.world.inject(now, p, bytes);
                rt.packets_in += 1;
            } else {
                self.ports[i].held = Some((p, bytes));
                return Ok(());
            }
        }
        Ok(())
    }

    /// The packet node `node` sent, as the world carries it (its flow opened if new);
    /// None when it cannot enter (counted).
    fn admit(&mut self, node: NodeId, b: &[u8], now: Time, rt: &mut Realtime) -> Option<Packet> {
        let h: Headers = match headers::parse(b) {
            Ok(h) => h,
            Err(_) => {
                rt.dropped_malformed += 1;
                return None;
            }
        };
        if self.addresses.node(h.src) != Some(node) {
            rt.dropped_spoofed += 1;
            return None;
        }
        let Some(dst) = self.addresses.node(h.dst) else {
            rt.dropped_unroutable += 1;
            return None;
        };
        let c = match self.conns.find(&h) {
            Some(c) => c,
            None => {
                let mss = h.tcp.and_then(|t| t.mss).unwrap_or(1460) as u32;
                let flow = self.world.open_flow(
                    now,
                    ExternalFlow {
                        name: flow_name(&h),
                        src: node,
                        dst,
                        protocol: h.protocol_name(),
                        dscp: (h.dscp != 0).then_some(h.dscp),
                        mss,
                    },
                );
                self.conns.open(&h, flow)
            }
        };
        let conn = &mut self.conns.conns[c];
        let (rwnd, ts) = match &h.tcp {
            Some(t) => {
                let side = conn.side(&h);
                conn.learn(side, t, now);
                (conn.window_bytes(side, t), conn.sim_timestamps(side, t))
            }
            None => (0, (0, 0)),
        };
        let mut p = headers::packet(&h, node, dst, rwnd, ts);
        p.flow = conn.flow;
        Some(p)
    }

    /// Write a delivered packet to its node's device: its window rewritten when the
    /// network lowered it (rwnd clamping), its lateness recorded.
    fn write_out(
        &mut self,
        mut e: Egress,
        clock: &Clock,
        rt: &mut Realtime,
        lateness: &mut Histogram,
        max: &mut Time,
    ) {
        self.rewrite_window(&mut e, rt);
        let port = &self.ports[self.port_of[e.packet.dst as usize]];
        if port.tun.write(&e.bytes).is_err() {
            rt.write_errors += 1;
        }
        let late = clock.now().saturating_sub(e.at);
        lateness.record(late);
        *max = (*max).max(late);
    }

    fn rewrite_window(&self, e: &mut Egress, rt: &mut Realtime) {
        let p = &e.packet;
        if p.kind != crate::net::Kind::Tcp {
            return;
        }
        let Ok(h) = headers::parse(&e.bytes) else {
            return;
        };
        let (Some(t), Some(conn)) = (h.tcp, self.conns.of_flow(p.flow)) else {
            return;
        };
        let side = conn.side(&h);
        if p.seg.rwnd >= conn.window_bytes(side, &t) {
            return;
        }
        let shift = if t.flags.syn() {
            Some(0)
        } else {
            conn.shift(side)
        };
        let Some(shift) = shift else {
            rt.windows_unscaled += 1;
            return;
        };
        // The largest field not above the clamped window, at least 1 (a zero window
        // would stall the sender; the clamp never goes below one segment).
        let field = (p.seg.rwnd >> shift).clamp(1, 0xffff) as u16;
        if field < tcp_window(&e.bytes, h.l4_offset) {
            set_tcp_window(&mut e.bytes, h.l4_offset, field);
            rt.windows_rewritten += 1;
        }
    }
}
