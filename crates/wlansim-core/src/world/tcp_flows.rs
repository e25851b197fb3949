//! TCP connections in the world: each TCP flow is a sender and a receiver endpoint
//! ([`crate::tcp`]) at the flow's two nodes (a station and a server, or two stations).
//! Segments the endpoints emit become [`Packet`]s handed to the network layer of their
//! node (`forward`). The flow's application (`crate::app`) drives the sender: bulk
//! writes once; a file sequence writes file after file, on one connection or on fresh
//! ones. A fresh connection is a new pair of endpoints with the next ephemeral port:
//! packets and timers of an earlier connection are recognised by their port or epoch and
//! ignored.
use super::{Event, World};
use crate::app::FileSequence;
use crate::net::{Kind, Packet};
use crate::sim::time::Time;
use crate::tcp::{
    ReceiverStats, Segment, SenderState, SenderStats, TcpConfig, TcpOutput, TcpReceiver, TcpSender,
    TimerKind,
};
use crate::trace::TraceEvent;

/// The receiver's (server) port, and the first ephemeral port of the sender (RFC 6335).
pub const SERVER_PORT: u16 = 5001;
const EPHEMERAL: u16 = 49152;

pub struct TcpConn {
    pub sender: TcpSender,
    pub receiver: TcpReceiver,
    pub cfg: TcpConfig,
    pub mss: u32,
    /// IP + TCP header bytes of every segment.
    pub header_bytes: u32,
    /// Connections opened so far (the current one's number); its port derives from it.
    pub epoch: u16,
    /// The file sequence that drives the sender (None: bulk, one write).
    pub files: Option<FileSequence>,
    /// A bulk transfer of `bytes`: when its last byte was acknowledged.
    pub completed: Option<Time>,
    /// Counters of earlier connections, over the measurement window.
    pub past: TcpTotals,
    /// The current endpoints' counters at the end of the warm-up (or at their creation).
    pub base_sender: SenderStats,
    pub base_receiver: ReceiverStats,
}

/// The counters a flow reports, summed over its connections.
#[derive(Clone, Copy, Debug, Default)]
pub struct TcpTotals {
    pub delivered_bytes: u64,
    pub rtt_samples: u64,
    pub rtt_sum: u64,
    pub retransmissions: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
    pub spurious_timeouts: u64,
    pub acks_sent: u64,
}

impl TcpConn {
    /// This flow's counters over the measurement window, every connection included.
    pub fn totals(&self) -> TcpTotals {
        let (s, b) = (self.sender.stats(), &self.base_sender);
        let (r, rb) = (self.receiver.stats(), &self.base_receiver);
        let p = &self.past;
        TcpTotals {
            delivered_bytes: p.delivered_bytes + r.delivered_bytes - rb.delivered_bytes,
            rtt_samples: p.rtt_samples + s.rtt_samples - b.rtt_samples,
            rtt_sum: p.rtt_sum + s.rtt_sum - b.rtt_sum,
            retransmissions: p.retransmissions + s.retransmissions - b.retransmissions,
            fast_retransmits: p.fast_retransmits + s.fast_retransmits - b.fast_retransmits,
            timeouts: p.timeouts + s.timeouts - b.timeouts,
            spurious_timeouts: p.spurious_timeouts + s.spurious_timeouts - b.spurious_timeouts,
            acks_sent: p.acks_sent + r.acks_sent - rb.acks_sent,
        }
    }

    /// Replace the endpoints by a fresh connection (the next port).
    fn reopen(&mut self, bytes: u64) {
        self.past = self.totals();
        self.sender = TcpSender::new(&self.cfg, Some(bytes));
        self.receiver = TcpReceiver::new(&self.cfg);
        self.base_sender = SenderStats::default();
        self.base_receiver = ReceiverStats::default();
        self.epoch = self.epoch.wrapping_add(1);
    }

    /// The sender's port of the current connection.
    pub fn port(&self) -> u16 {
        EPHEMERAL + self.epoch % (u16::MAX - EPHEMERAL)
    }
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

    /// The flow starts: bulk TCP opens its connection (its one write was given to the
    /// sender when it was made); a file sequence requests its first file (after a think
    /// time with `think_first`).
    pub(super) fn tcp_start(&mut self, now: Time, flow: u32) {
        if let Some(files) = &mut self.conn(flow).files {
            if files.think_first {
                let at = now + files.think();
                self.events.schedule(at, Event::NextFile(flow));
                return;
            }
            return self.request_file(now, flow);
        }
        let mut out = std::mem::take(&mut self.outbox);
        self.conn(flow).sender.open(now, &mut out);
        self.tcp_emit(now, flow, false, out);
    }

    /// The file sequence of `flow` requests its next file (if any is left).
    pub(super) fn request_file(&mut self, now: Time, flow: u32) {
        let mut out = std::mem::take(&mut self.outbox);
        let c = self.conn(flow);
        let files = c.files.as_mut().expect("a file sequence");
        let Some((bytes, fresh)) = files.request(now, c.sender.stats().timeouts) else {
            self.outbox = out;
            return;
        };
        if fresh {
            c.reopen(bytes);
            c.sender.open(now, &mut out);
        } else {
            c.sender.write(now, bytes, &mut out);
        }
        self.tcp_emit(now, flow, false, out);
    }

    /// After the sender processed a segment: its file's connection may be established
    /// now; a file whose last byte is acknowledged ends its session, and the next file is
    /// requested a think time later. A bulk transfer of `bytes` records when it ended.
    fn check_file_done(&mut self, now: Time, flow: u32) {
        let c = self.conn(flow);
        let Some(files) = &mut c.files else {
            if c.completed.is_none() && c.sender.is_done() {
                c.completed = Some(now);
            }
            return;
        };
        if !files.busy() {
            return;
        }
        if c.sender.state() != SenderState::SynSent {
            files.connected(now);
        }
        if c.sender.is_done() {
            files.complete(now, c.sender.stats().timeouts);
            let at = now + files.think();
            self.events.schedule(at, Event::NextFile(flow));
        }
    }

    pub(super) fn on_tcp_timer(
        &mut self,
        now: Time,
        flow: u32,
        kind: TimerKind,
        gen: u32,
        epoch: u16,
    ) {
        if self.conn(flow).epoch != epoch {
            return; // a timer of an earlier connection
        }
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

    /// `p` reached its endpoint.
    pub(super) fn tcp_arrive(&mut self, now: Time, p: Packet) {
        self.flows[p.flow as usize].on_delivered(&p, now - p.created, self.warmup);
        let port = if p.reverse { p.dport } else { p.sport };
        if port != self.conn(p.flow).port() {
            return; // a packet of an earlier connection: no socket takes it
        }
        let mut out = std::mem::take(&mut self.outbox);
        let c = self.conn(p.flow);
        if p.reverse {
            c.sender.on_segment(now, &p.seg, &mut out);
        } else {
            c.receiver.on_segment(now, &p.seg, &mut out);
        }
        self.tcp_emit(now, p.flow, !p.reverse, out);
        if p.reverse {
            self.check_file_done(now, p.flow);
        }
    }

    /// Turn what an endpoint of `flow` emitted into packets and timer events.
    fn tcp_emit(&mut self, now: Time, flow: u32, from_receiver: bool, mut out: Outbox) {
        let f = &self.flows[flow as usize];
        let c = &self.conns[f.tcp.expect("a TCP flow") as usize];
        let (src, dst) = if from_receiver {
            (f.dst, f.src)
        } else {
            (f.src, f.dst)
        };
        let header_bytes = c.header_bytes + f.origin_header[from_receiver as usize];
        let (sport, dport) = if from_receiver {
            (SERVER_PORT, c.port())
        } else {
            (c.port(), SERVER_PORT)
        };
        let epoch = c.epoch;
        for seg in out.segments.drain(..) {
            let seq = self.flows[flow as usize].on_generated(from_receiver, seg.len);
            let p = Packet {
                flow,
                seq,
                payload_bytes: seg.len,
                header_bytes: header_bytes + seg.sack.wire_bytes(),
                kind: Kind::Tcp,
                reverse: from_receiver,
                src,
                dst,
                sport,
                dport,
                hop: src,
                created: now,
                seg,
            };
            self.trace(now, TraceEvent::Created { node: src }, &p);
            self.forward(now, src, p);
        }
        for (kind, at, gen) in out.timers.drain(..) {
            self.events
                .schedule(at, Event::TcpTimer(flow, kind, gen, epoch));
        }
        self.outbox = out;
    }

    /// End of the warm-up: remember the endpoint counters.
    pub(super) fn tcp_reset_statistics(&mut self) {
        for c in &mut self.conns {
            c.past = TcpTotals::default();
            c.base_sender = c.sender.stats().clone();
            c.base_receiver = c.receiver.stats().clone();
        }
    }
}
