//! The world's edge towards external endpoints (`crate::emulation`): nodes whose packets
//! come from outside the simulation (a real host's TUN device) and leave it at their
//! destination. The components never know: an external packet is an ordinary [`Packet`]
//! whose fields the emulation read from its real headers (sizes, ports, TCP flags, window,
//! timestamps), so the MAC times it, the classifier classifies it and the AP mechanisms
//! act on it as on any other. Its bytes wait here ([`Edge`]) while it crosses the
//! simulated network: they go out with it when it reaches its destination
//! ([`World::take_delivered`]), to the captures with each of its frames, and are forgotten
//! when it is dropped.
//!
//! Flows of external endpoints are opened as their first packet comes
//! ([`World::open_flow`]), keyed by the emulation (a 5-tuple). Their packets count as
//! forward when they carry payload and as reverse when they do not (pure ACKs, SYNs):
//! the AP mechanisms act on a TCP flow's reverse packets (rwnd clamping rewrites their
//! window; delay injection holds those bound for a station), whichever end sends data.
use super::{Flow, FlowStats, Role, SimError, World};
use crate::net::{Hop, NodeId, Packet};
use crate::results::Results;
use crate::scenario::Direction;
use crate::sim::time::Time;
use crate::trace::TraceEvent;
use std::collections::HashMap;

/// What the world keeps of a flow of external endpoints.
#[derive(Clone, Debug)]
pub struct ExternalInfo {
    /// "tcp", "udp" or "icmp" (what the report says).
    pub protocol: &'static str,
    /// The segment size the AP's rwnd clamping counts in (the SYN's MSS option).
    pub mss: u32,
    /// Payload bytes delivered from `src` to `dst` and from `dst` to `src` (whole run).
    pub bytes: [u64; 2],
}

/// A flow the emulation opens between two external endpoints.
#[derive(Clone, Debug)]
pub struct ExternalFlow {
    pub name: String,
    /// The ends as its first packet goes.
    pub src: NodeId,
    pub dst: NodeId,
    pub protocol: &'static str,
    /// DSCP of its first packet (the classifier's).
    pub dscp: Option<u8>,
    pub mss: u32,
}

/// A packet that reached an external destination, and its bytes.
pub struct Egress {
    /// When it was delivered (simulated time).
    pub at: Time,
    pub packet: Packet,
    pub bytes: Box<[u8]>,
}

type PacketKey = (u32, bool, u32);

fn key(p: &Packet) -> PacketKey {
    (p.flow, p.reverse, p.seq)
}

pub(super) struct Edge {
    /// Per node: whether it is an external endpoint.
    external: Vec<bool>,
    /// The bytes of every external packet in the network.
    bytes: HashMap<PacketKey, Box<[u8]>>,
    delivered: Vec<Egress>,
}

impl Edge {
    /// The real bytes of `p`, if it is an external packet still in the network.
    #[inline]
    pub fn bytes(&self, p: &Packet) -> Option<&[u8]> {
        self.bytes.get(&key(p)).map(|b| &b[..])
    }
}

impl World {
    /// Make `nodes` external endpoints: their packets come from [`World::inject`] and
    /// those for them go to [`World::take_delivered`].
    pub fn attach_edge(&mut self, nodes: &[NodeId]) {
        let mut external = vec![false; self.nodes.len()];
        for &n in nodes {
            external[n as usize] = true;
        }
        self.edge = Some(Box::new(Edge {
            external,
            bytes: HashMap::new(),
            delivered: Vec::new(),
        }));
    }

    /// Open a flow of external endpoints; its id.
    pub fn open_flow(&mut self, now: Time, f: ExternalFlow) -> u32 {
        let id = self.flows.len() as u32;
        let direction = self.direction_of(f.src, f.dst);
        let entity = self.nodes[f.src as usize].entities.start;
        self.flows.push(Flow {
            name: f.name,
            direction,
            src: f.src,
            dst: f.dst,
            spec: u32::MAX,
            dscp: f.dscp,
            entity,
            // real packets carry their own headers: no simulated routing agent's
            origin_header: [0; 2],
            tcp: None,
            udp: None,
            start: now,
            acct: Default::default(),
            stats: FlowStats::default(),
            external: Some(ExternalInfo {
                protocol: f.protocol,
                mss: f.mss,
                bytes: [0; 2],
            }),
        });
        let n = self.flows.len();
        for c in self.rwnd_clamp.iter_mut().flatten() {
            c.grow(n);
        }
        for d in self.delay_injection.iter_mut().flatten() {
            d.grow(n);
        }
        id
    }

    /// An external endpoint hands `p` (its flow, ends and header fields set) with its
    /// `bytes` to the network at `now`: every event due before `now` has run, and none
    /// due after it (checked: two comparisons per packet).
    pub fn inject(&mut self, now: Time, mut p: Packet, bytes: Box<[u8]>) {
        assert!(
            self.now() <= now && self.next_event().is_none_or(|t| t >= now),
            "a packet injected at {now} with an event due before it"
        );
        p.seq = self.flows[p.flow as usize].on_generated(p.reverse, p.payload_bytes);
        p.created = now;
        p.hop = p.src;
        if let Some(e) = &mut self.edge {
            e.bytes.insert(key(&p), bytes);
        }
        self.trace(now, TraceEvent::Created { node: p.src }, &p);
        self.forward(now, p.src, p);
    }

    /// Whether `node` can queue `p` now: false while the MAC queue it would enter is
    /// full (a driver's stopped queue); a wired first hop always takes it (and drops it
    /// when its queue is full).
    pub fn accepts(&self, node: NodeId, p: &Packet) -> bool {
        match self.routes.next_hop(node, p.dst) {
            Hop::Air(_) => {
                let e = self.packet_entity(node, p);
                !self.mac.store.entities[e as usize].queue.is_full()
            }
            _ => true,
        }
    }

    /// `p` reached external endpoint `node` at `now`: counted, and handed out.
    /// Returns false when `node` is not an external endpoint.
    pub(super) fn deliver_external(&mut self, now: Time, p: &Packet) -> bool {
        let Some(edge) = &mut self.edge else {
            return false;
        };
        if !edge.external[p.dst as usize] {
            return false;
        }
        let bytes = edge.bytes.remove(&key(p)).unwrap_or_default();
        edge.delivered.push(Egress {
            at: now,
            packet: *p,
            bytes,
        });
        self.trace(now, TraceEvent::Delivered { node: p.dst }, p);
        let warmup = self.warmup;
        let f = &mut self.flows[p.flow as usize];
        f.on_delivered(p, now - p.created, warmup);
        if let Some(x) = &mut f.external {
            x.bytes[(p.src != f.src) as usize] += p.payload_bytes as u64;
        }
        true
    }

    /// A packet left the network without reaching its destination: its bytes go.
    pub(super) fn forget(&mut self, p: &Packet) {
        if let Some(e) = &mut self.edge {
            e.bytes.remove(&key(p));
        }
    }

    /// Move the packets delivered to external endpoints since the last call, in order,
    /// to `out`.
    pub fn take_delivered(&mut self, out: &mut Vec<Egress>) {
        if let Some(e) = &mut self.edge {
            out.append(&mut e.delivered);
        }
    }

    /// The time of the last event run.
    pub fn now(&self) -> Time {
        self.events.now()
    }

    /// When the next event is due, if any.
    pub fn next_event(&self) -> Option<Time> {
        self.events.next_time()
    }

    /// Run the next event if it is due at or before `until`; its time.
    pub fn step(&mut self, until: Time) -> Option<Time> {
        let (now, event) = self.events.pop_before(until.saturating_add(1))?;
        self.dispatch(now, event);
        Some(now)
    }

    /// Stop at `end` (≤ the scenario's duration; the measurement window ends there) and
    /// report. An external flow's ends are turned to the direction most of its payload
    /// went.
    pub fn finish_at(mut self, end: Time, wall_s: f64) -> Result<Results, SimError> {
        self.end = end.clamp(self.warmup + 1, self.end);
        for i in 0..self.flows.len() {
            let f = &mut self.flows[i];
            if let Some(x) = &mut f.external {
                if x.bytes[1] > x.bytes[0] {
                    std::mem::swap(&mut f.src, &mut f.dst);
                    x.bytes.swap(0, 1);
                    let (src, dst) = (f.src, f.dst);
                    self.flows[i].direction = self.direction_of(src, dst);
                }
            }
        }
        self.finish(wall_s)
    }

    /// The segment size of TCP flow `flow` (its connection's MSS).
    pub(super) fn segment_size(&self, flow: u32) -> u32 {
        let f = &self.flows[flow as usize];
        match (&f.external, f.tcp) {
            (Some(x), _) => x.mss,
            (None, Some(c)) => self.conns[c as usize].mss,
            (None, None) => unreachable!("a TCP flow"),
        }
    }

    /// Downlink from a wired node to a station, uplink otherwise (as `[[flows]]`).
    fn direction_of(&self, src: NodeId, dst: NodeId) -> Direction {
        let station = |n: NodeId| self.nodes[n as usize].role == Role::Station;
        if station(dst) && !station(src) {
            Direction::Downlink
        } else {
            Direction::Uplink
        }
    }

    /// The protocol a flow's report names.
    pub(super) fn protocol(f: &Flow) -> &'static str {
        match (&f.external, f.tcp) {
            (Some(x), _) => x.protocol,
            (None, Some(_)) => "tcp",
            (None, None) => "udp",
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::net::{Kind, Packet};
    use crate::scenario::Scenario;
    use crate::tcp::Segment;
    use crate::world::{Egress, ExternalFlow, World};

    const CELL: &str = r#"
        duration = "1 s"
        [ap]
        [[stations]]
        name = "sta"
        [[servers]]
        name = "srv"
        [emulation]
        [[emulation.groups]]
        name = "sta"
        [[emulation.groups]]
        name = "srv"
    "#;

    fn datagram(src: u32, dst: u32, payload: u32) -> Packet {
        Packet {
            flow: 0,
            seq: 0,
            payload_bytes: payload,
            header_bytes: 28,
            kind: Kind::Udp,
            reverse: false,
            src,
            dst,
            sport: 40000,
            dport: 5201,
            hop: 0,
            created: 0,
            seg: Segment::default(),
        }
    }

    /// A packet injected at the station crosses the air and the wire and comes out at
    /// the server with its own bytes, once, at a time the MAC and the link explain.
    #[test]
    fn an_injected_packet_comes_out_with_its_bytes() {
        let s = Scenario::from_toml(CELL).unwrap();
        let mut w = World::new(&s.emulated(), 1).unwrap();
        let (sta, srv) = (1, 2);
        w.attach_edge(&[sta, srv]);
        let flow = w.open_flow(
            0,
            ExternalFlow {
                name: "udp".into(),
                src: sta,
                dst: srv,
                protocol: "udp",
                dscp: None,
                mss: 1460,
            },
        );
        let mut p = datagram(sta, srv, 100);
        p.flow = flow;
        assert!(w.accepts(sta, &p));
        let bytes: Box<[u8]> = (0..128u8).collect();
        w.inject(1_000, p, bytes.clone());
        let mut out: Vec<Egress> = Vec::new();
        while out.is_empty() {
            assert!(w.step(u64::MAX).is_some(), "the packet never came out");
            w.take_delivered(&mut out);
        }
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].bytes, bytes);
        assert_eq!(out[0].packet.dst, srv);
        // At least DIFS + the frame + SIFS + ACK (802.11b) and the wire's 1 ms.
        assert!(out[0].at > 1_000 + 1_000_000 + 50_000, "{}", out[0].at);
        let r = w.finish_at(1_000_000_000, 0.0).unwrap();
        assert_eq!(r.flows.len(), 1);
        assert_eq!(r.flows[0].protocol, "udp");
        assert_eq!(r.flows[0].counts.delivered_packets, 1);
    }

    /// A station's full MAC queue stops it accepting (the adapter then stops reading its
    /// device) and a dropped packet's bytes are forgotten.
    #[test]
    fn a_full_queue_refuses() {
        let cell = CELL.replacen("name = \"sta\"\n", "name = \"sta\"\n        queue = 2\n", 1);
        let s = Scenario::from_toml(&cell).unwrap();
        let mut w = World::new(&s.emulated(), 1).unwrap();
        w.attach_edge(&[1, 2]);
        let flow = w.open_flow(
            0,
            ExternalFlow {
                name: "udp".into(),
                src: 1,
                dst: 2,
                protocol: "udp",
                dscp: None,
                mss: 1460,
            },
        );
        let mut p = datagram(1, 2, 1000);
        p.flow = flow;
        let mut accepted = 0;
        while w.accepts(1, &p) {
            w.inject(0, p, Box::from(&[0u8; 4][..]));
            accepted += 1;
        }
        assert_eq!(accepted, 2);
    }
}
