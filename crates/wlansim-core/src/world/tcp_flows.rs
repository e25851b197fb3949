//! TCP connections in the world: each TCP flow is a sender and a receiver endpoint
//! ([`crate::tcp`]), one at the station and one at a wired server. Segments the endpoints
//! emit become [`Packet`]s injected at their end (the station's MAC queue, or the server's
//! link to the AP); the AP forwards between the wireless and wired sides, rewriting the
//! advertised window when rwnd clamping is on (pilosof2003 §V).
use super::{Event, World};
use crate::net::{Kind, Packet};
use crate::scenario::Direction;
use crate::sim::time::Time;
use crate::tcp::{
    ReceiverStats, Segment, SenderStats, TcpOutput, TcpReceiver, TcpSender, TimerKind,
};

pub struct TcpConn {
    pub sender: TcpSender,
    pub receiver: TcpReceiver,
    pub mss: u32,
    /// IP + TCP header bytes of every segment.
    pub header_bytes: u32,
    /// The server's links: server → AP and AP → server.
    pub link_to_ap: u32,
    pub link_to_server: u32,
    /// Endpoint counters at the end of the warm-up (statistics are their increase).
    pub base_sender: SenderStats,
    pub base_receiver: ReceiverStats,
}

/// Collects what an endpoint emits during one call (reused: no allocation once grown).
#[derive(Default)]
pub struct Outbox {
    segments: Vec<Segment>,
    timers: Vec<(TimerKind, Time, u32)>,
}

impl TcpOutput for Outbox {
    fn send(&mut self, seg: Segment) {
        self.segments.push(seg);
    }
    fn arm_timer(&mut self, kind: TimerKind, at: Time, generation: u32) {
        self.timers.push((kind, at, generation));
    }
}

impl World {
    fn conn(&mut self, flow: u32) -> &mut TcpConn {
        let i = self.flows[flow as usize].tcp.expect("a TCP flow");
        &mut self.conns[i as usize]
    }

    /// The flow starts: the sender sends its SYN.
    pub(super) fn tcp_open(&mut self, now: Time, flow: u32) {
        let mut out = std::mem::take(&mut self.outbox);
        self.conn(flow).sender.open(now, &mut out);
        self.tcp_emit(now, flow, false, out);
    }

    pub(super) fn on_tcp_timer(&mut self, now: Time, flow: u32, kind: TimerKind, gen: u32) {
        let mut out = std::mem::take(&mut self.outbox);
        let c = self.conn(flow);
        let at_receiver = kind == TimerKind::DelayedAck;
        if at_receiver {
            c.receiver.on_timer(now, kind, gen, &mut out);
        } else {
            c.sender.on_timer(now, kind, gen, &mut out);
        }
        self.tcp_emit(now, flow, at_receiver, out);
    }

    /// `p` reached its endpoint (a station's MAC, or a server's link).
    pub(super) fn tcp_arrive(&mut self, now: Time, p: Packet) {
        let f = &mut self.flows[p.flow as usize];
        f.acct[p.reverse as usize].delivered += 1;
        if !p.reverse && p.payload_bytes > 0 {
            f.stats.counts.delivered_packets += 1;
            f.stats.counts.delivered_bytes += p.payload_bytes as u64;
            f.stats.delay.record(now - p.created);
        }
        let mut out = std::mem::take(&mut self.outbox);
        let c = self.conn(p.flow);
        if p.reverse {
            c.sender.on_segment(now, &p.seg, &mut out);
        } else {
            c.receiver.on_segment(now, &p.seg, &mut out);
        }
        self.tcp_emit(now, p.flow, !p.reverse, out);
    }

    /// Turn what an endpoint of `flow` emitted into packets and timer events.
    fn tcp_emit(&mut self, now: Time, flow: u32, from_receiver: bool, mut out: Outbox) {
        let f = &self.flows[flow as usize];
        let c = &self.conns[f.tcp.expect("a TCP flow") as usize];
        // The sender is at the station for uploads; its segments then travel uplink.
        let uplink = (f.direction == Direction::Uplink) != from_receiver;
        let (header_bytes, station, link) = (c.header_bytes, f.station, c.link_to_ap);
        for seg in out.segments.drain(..) {
            let p = Packet {
                flow,
                payload_bytes: seg.len,
                header_bytes: header_bytes + seg.sack.wire_bytes(),
                kind: Kind::Tcp,
                reverse: from_receiver,
                uplink,
                created: now,
                seg,
            };
            let f = &mut self.flows[flow as usize];
            f.acct[from_receiver as usize].generated += 1;
            if !from_receiver && seg.len > 0 {
                f.stats.counts.offered_packets += 1;
                f.stats.counts.offered_bytes += seg.len as u64;
            }
            if uplink {
                let entity = self.packet_entity(station, &p);
                self.enqueue(now, entity, p);
            } else {
                self.wire_send(now, link, p);
            }
        }
        for (kind, at, gen) in out.timers.drain(..) {
            self.events.schedule(at, Event::TcpTimer(flow, kind, gen));
        }
        self.outbox = out;
    }

    /// The AP forwards `p` (received from either side): flow counting and rwnd clamping.
    fn ap_relay(&mut self, now: Time, p: &mut Packet) {
        if let Some(clamp) = &mut self.rwnd_clamp {
            clamp.observe(p.flow, now);
            if p.reverse {
                let mss = self.conns[self.flows[p.flow as usize].tcp.expect("TCP") as usize].mss;
                p.seg.rwnd = clamp.clamp(now, p.seg.rwnd, mss);
            }
        }
    }

    /// A TCP packet from a station reached the AP: on to the server's link.
    pub(super) fn ap_from_wireless(&mut self, now: Time, mut p: Packet) {
        self.ap_relay(now, &mut p);
        let link = self.conn(p.flow).link_to_server;
        self.wire_send(now, link, p);
    }

    /// A TCP packet from a server reached the AP: into the AP's transmit buffer.
    pub(super) fn ap_from_wire(&mut self, now: Time, mut p: Packet) {
        self.ap_relay(now, &mut p);
        let entity = self.packet_entity(self.ap, &p);
        self.enqueue(now, entity, p);
    }

    /// End of the warm-up: remember the endpoint counters.
    pub(super) fn tcp_reset_statistics(&mut self) {
        for c in &mut self.conns {
            c.base_sender = c.sender.stats().clone();
            c.base_receiver = c.receiver.stats().clone();
        }
    }
}
