//! Unit tests of the TCP endpoints, with a miniature deterministic event loop (test-only):
//! a sender and a receiver joined by a fixed-delay pipe (optional per-segment serialization
//! time on the forward path), and a scripted fate per segment (deliver, drop, delay, hold).

use super::rto::RtoEstimator;
use super::sender::SenderState;
use super::*;
use crate::sim::time::{Time, MS, SECOND};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

mod variants;

// ----- recording output -------------------------------------------------------------------

#[derive(Default, Debug)]
struct Rec {
    sent: Vec<Segment>,
    timers: Vec<(TimerKind, Time, u32)>,
}

impl TcpOutput for Rec {
    fn send(&mut self, seg: Segment) {
        self.sent.push(seg);
    }
    fn arm_timer(&mut self, kind: TimerKind, at: Time, generation: u32) {
        self.timers.push((kind, at, generation));
    }
}

impl Rec {
    fn data(&self) -> Vec<Segment> {
        self.sent.iter().copied().filter(|s| s.len > 0).collect()
    }
}

// ----- miniature event loop ---------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dir {
    /// sender → receiver
    Fwd,
    /// receiver → sender
    Rev,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    Deliver,
    Drop,
    /// Arrive no earlier than this time (FIFO behind earlier held segments): a link stall.
    HoldUntil(Time),
    /// Deliver with the advertised window rewritten (as an AP may do, pilosof2003).
    Rwnd(u32),
}

#[derive(Clone, Copy, Debug)]
enum Ev {
    ToReceiver(Segment),
    ToSender(Segment),
    SenderTimer(TimerKind, u32),
    ReceiverTimer(TimerKind, u32),
}

#[derive(Clone, Copy, Debug)]
struct LogEntry {
    t: Time,
    dir: Dir,
    seg: Segment,
    dropped: bool,
}

/// Sender state after each sender event.
#[derive(Clone, Copy, Debug)]
struct Snap {
    t: Time,
    cwnd: u64,
    ssthresh: u64,
    flight: u64,
    snd_una: Seq,
    snd_nxt: Seq,
    in_recovery: bool,
    fast_retransmits: u64,
    timeouts: u64,
    spurious: u64,
    /// The ACK number of the segment that caused this event (None for timers).
    ack_in: Option<Seq>,
}

type FateFn = Box<dyn FnMut(Dir, &Segment, Time) -> Fate>;

struct Net {
    now: Time,
    delay: Time,
    /// Serialization time of a data segment on the forward path (0 = infinitely fast).
    fwd_ser: Time,
    fwd_busy_until: Time,
    heap: BinaryHeap<Reverse<(Time, u64)>>,
    evs: Vec<Option<Ev>>,
    tx: TcpSender,
    rx: TcpReceiver,
    fate: FateFn,
    log: Vec<LogEntry>,
    snaps: Vec<Snap>,
    /// Forward queue at the serializer seen by each data segment sent (time, segments
    /// ahead of it, the one in service included).
    fwd_queue: Vec<(Time, u64)>,
    /// Ranges the sender has been told are SACKed since its last timeout (RFC 6675 §5.1
    /// clears them then), and the data segments it sent that lay inside one.
    known_sacked: Vec<(Seq, Seq)>,
    sacked_resent: u64,
}

impl Net {
    fn new(cfg: &TcpConfig, bytes: Option<u64>, one_way: Time) -> Net {
        cfg.validate().expect("valid test config");
        Net {
            now: 0,
            delay: one_way,
            fwd_ser: 0,
            fwd_busy_until: 0,
            heap: BinaryHeap::new(),
            evs: Vec::new(),
            tx: TcpSender::new(cfg, bytes),
            rx: TcpReceiver::new(cfg),
            fate: Box::new(|_, _, _| Fate::Deliver),
            log: Vec::new(),
            snaps: Vec::new(),
            fwd_queue: Vec::new(),
            known_sacked: Vec::new(),
            sacked_resent: 0,
        }
    }

    fn with_fate(mut self, f: impl FnMut(Dir, &Segment, Time) -> Fate + 'static) -> Net {
        self.fate = Box::new(f);
        self
    }

    fn with_fwd_ser(mut self, ser: Time) -> Net {
        self.fwd_ser = ser;
        self
    }

    fn schedule(&mut self, at: Time, ev: Ev) {
        let id = self.evs.len() as u64;
        self.evs.push(Some(ev));
        self.heap.push(Reverse((at, id)));
    }

    fn start(&mut self) {
        let mut rec = Rec::default();
        self.tx.open(self.now, &mut rec);
        self.dispatch(Dir::Fwd, rec, None);
    }

    fn dispatch(&mut self, dir: Dir, rec: Rec, ack_in: Option<Seq>) {
        for seg in rec.sent {
            let fate = (self.fate)(dir, &seg, self.now);
            self.log.push(LogEntry {
                t: self.now,
                dir,
                seg,
                dropped: fate == Fate::Drop,
            });
            let mut depart = self.now;
            if dir == Dir::Fwd && seg.len > 0 {
                let end = seg.seq + seg.len as Seq;
                if self
                    .known_sacked
                    .iter()
                    .any(|&(s, e)| s <= seg.seq && end <= e)
                {
                    self.sacked_resent += 1;
                }
            }
            if dir == Dir::Fwd && seg.len > 0 && self.fwd_ser > 0 {
                let ahead = self
                    .fwd_busy_until
                    .saturating_sub(self.now)
                    .div_ceil(self.fwd_ser);
                self.fwd_queue.push((self.now, ahead));
                depart = depart.max(self.fwd_busy_until) + self.fwd_ser;
                self.fwd_busy_until = depart;
            }
            let arrive = depart + self.delay;
            let ev = match dir {
                Dir::Fwd => Ev::ToReceiver(seg),
                Dir::Rev => Ev::ToSender(seg),
            };
            match fate {
                Fate::Drop => {}
                Fate::Deliver => self.schedule(arrive, ev),
                Fate::HoldUntil(t) => self.schedule(arrive.max(t), ev),
                Fate::Rwnd(w) => {
                    let mut seg = seg;
                    seg.rwnd = w;
                    let ev = match dir {
                        Dir::Fwd => Ev::ToReceiver(seg),
                        Dir::Rev => Ev::ToSender(seg),
                    };
                    self.schedule(arrive, ev)
                }
            }
        }
        for (kind, at, gen) in rec.timers {
            let ev = match dir {
                Dir::Fwd => Ev::SenderTimer(kind, gen),
                Dir::Rev => Ev::ReceiverTimer(kind, gen),
            };
            assert!(at >= self.now, "timer armed in the past");
            self.schedule(at, ev);
        }
        if dir == Dir::Fwd {
            let st = self.tx.stats();
            self.snaps.push(Snap {
                t: self.now,
                cwnd: self.tx.cwnd_bytes(),
                ssthresh: self.tx.ssthresh_bytes(),
                flight: self.tx.flight_bytes(),
                snd_una: self.tx.snd_una(),
                snd_nxt: self.tx.snd_nxt(),
                in_recovery: self.tx.in_recovery(),
                fast_retransmits: st.fast_retransmits,
                timeouts: st.timeouts,
                spurious: st.spurious_timeouts,
                ack_in,
            });
        }
    }

    fn run_until(&mut self, t_end: Time) {
        while let Some(&Reverse((t, id))) = self.heap.peek() {
            if t > t_end {
                break;
            }
            self.heap.pop();
            self.now = t;
            let ev = self.evs[id as usize].take().expect("event once");
            let mut rec = Rec::default();
            match ev {
                Ev::ToReceiver(seg) => {
                    self.rx.on_segment(t, &seg, &mut rec);
                    self.dispatch(Dir::Rev, rec, None);
                }
                Ev::ToSender(seg) => {
                    self.known_sacked.extend(seg.sack.blocks(seg.ack));
                    self.tx.on_segment(t, &seg, &mut rec);
                    self.dispatch(Dir::Fwd, rec, Some(seg.ack));
                }
                Ev::SenderTimer(kind, gen) => {
                    let timeouts = self.tx.stats().timeouts;
                    self.tx.on_timer(t, kind, gen, &mut rec);
                    if self.tx.stats().timeouts > timeouts {
                        self.known_sacked.clear();
                    }
                    self.dispatch(Dir::Fwd, rec, None);
                }
                Ev::ReceiverTimer(kind, gen) => {
                    self.rx.on_timer(t, kind, gen, &mut rec);
                    self.dispatch(Dir::Rev, rec, None);
                }
            }
        }
    }

    fn run(&mut self) {
        self.start();
        self.run_until(1000 * SECOND);
    }

    /// Data segments the sender put on the wire: (time, seq, len, dropped).
    fn data_sent(&self) -> Vec<(Time, Seq, u32, bool)> {
        self.log
            .iter()
            .filter(|e| e.dir == Dir::Fwd && e.seg.len > 0)
            .map(|e| (e.t, e.seg.seq, e.seg.len, e.dropped))
            .collect()
    }

    /// Times at which data segment `seq` was sent.
    fn sends_of(&self, seq: Seq) -> Vec<Time> {
        self.data_sent()
            .into_iter()
            .filter(|d| d.1 == seq)
            .map(|d| d.0)
            .collect()
    }
}

/// Drop the first transmission of the data segments starting at these sequence numbers.
fn drop_first(seqs: &[Seq]) -> impl FnMut(Dir, &Segment, Time) -> Fate + 'static {
    let mut pending: Vec<Seq> = seqs.to_vec();
    move |dir, seg, _| {
        if dir == Dir::Fwd && seg.len > 0 {
            if let Some(i) = pending.iter().position(|&s| s == seg.seq) {
                pending.remove(i);
                return Fate::Drop;
            }
        }
        Fate::Deliver
    }
}

/// Sequence number of data segment `i` (0-based) for full segments of `mss`.
fn seg_seq(i: u64, mss: u32) -> Seq {
    1 + i * mss as u64
}

const ALL_VARIANTS: [Variant; 8] = [
    Variant::Tahoe,
    Variant::Reno,
    Variant::NewReno,
    Variant::Sack,
    Variant::Vegas,
    Variant::VegasSack,
    Variant::Cubic,
    Variant::CubicSack,
];

fn cfg_ack_every() -> TcpConfig {
    TcpConfig {
        delayed_ack_count: 1,
        rwnd: Window::Bytes(1 << 30),
        ..TcpConfig::default()
    }
}

// ----- manual drivers ---------------------------------------------------------------------

fn ack_seg(ack: Seq, rwnd: u32) -> Segment {
    Segment {
        seq: 1,
        ack,
        len: 0,
        flags: Flags::ACK,
        rwnd,
        ts_val: 0,
        ts_ecr: 0,
        sack: SackOption::default(),
    }
}

/// A sender that has completed the handshake at `t` = 10 ms (SYN-ACK with `rwnd`);
/// returns it with all the output it produced (SYN, pure ACK, initial window, timers).
fn established_sender(cfg: &TcpConfig, bytes: Option<u64>, rwnd: u32) -> (TcpSender, Rec) {
    let mut tx = TcpSender::new(cfg, bytes);
    let mut rec = Rec::default();
    tx.open(0, &mut rec);
    let syn_ack = Segment {
        seq: 0,
        ack: 1,
        flags: Flags::SYN_ACK,
        rwnd,
        ..Segment::default()
    };
    tx.on_segment(10 * MS, &syn_ack, &mut rec);
    assert_eq!(tx.state(), SenderState::Established);
    (tx, rec)
}

fn data_seg(seq: Seq, len: u32) -> Segment {
    Segment {
        seq,
        ack: 1,
        len,
        flags: Flags::ACK,
        rwnd: 65_535,
        ts_val: 0,
        ts_ecr: 0,
        sack: SackOption::default(),
    }
}

/// A receiver that has completed the handshake at t = 0.
fn established_receiver(cfg: &TcpConfig) -> TcpReceiver {
    let mut rx = TcpReceiver::new(cfg);
    let mut rec = Rec::default();
    let syn = Segment {
        seq: 0,
        flags: Flags::SYN,
        rwnd: 65_535,
        ..Segment::default()
    };
    rx.on_segment(0, &syn, &mut rec);
    assert_eq!(rec.sent.len(), 1);
    assert_eq!(rec.sent[0].flags, Flags::SYN_ACK);
    assert_eq!(rec.sent[0].ack, 1);
    rx.on_segment(0, &ack_seg(1, 65_535), &mut rec);
    assert_eq!(rx.state(), receiver::ReceiverState::Established);
    rx
}

// ----- handshake ----------------------------------------------------------------------------

#[test]
fn handshake_then_data() {
    let cfg = TcpConfig::default();
    let mut net = Net::new(&cfg, Some(10 * 1460), 10 * MS);
    net.run();
    let first: Vec<_> = net.log.iter().take(4).collect();
    assert_eq!(
        (first[0].dir, first[0].seg.flags, first[0].seg.seq),
        (Dir::Fwd, Flags::SYN, 0)
    );
    assert_eq!(first[0].t, 0);
    assert_eq!(
        (first[1].dir, first[1].seg.flags, first[1].seg.ack),
        (Dir::Rev, Flags::SYN_ACK, 1)
    );
    assert_eq!(first[1].t, 10 * MS);
    assert_eq!(
        (
            first[2].dir,
            first[2].seg.flags,
            first[2].seg.seq,
            first[2].seg.ack,
            first[2].seg.len
        ),
        (Dir::Fwd, Flags::ACK, 1, 1, 0)
    );
    assert_eq!(first[2].t, 20 * MS);
    assert_eq!(
        (first[3].dir, first[3].seg.seq, first[3].seg.len),
        (Dir::Fwd, 1, 1460)
    );
    assert_eq!(net.tx.stats().established_at, Some(20 * MS));
    // The SYN/SYN-ACK exchange gives the first RTT sample.
    assert_eq!(
        net.tx.stats().rtt_samples,
        net.tx.stats().rtt_samples.max(1)
    );
    assert_eq!(net.tx.srtt().map(|s| s >= 20 * MS), Some(true));
    // RFC 3390 IW for MSS 1460: 3 segments sent at once.
    assert_eq!(net.data_sent().iter().filter(|d| d.0 == 20 * MS).count(), 3);
    assert!(net.tx.is_done());
    assert_eq!(net.rx.delivered_bytes(), 10 * 1460);
}

#[test]
fn syn_retransmitted_with_backoff() {
    let cfg = TcpConfig::default(); // initial RTO 1 s
    let mut syns = 0;
    let mut net = Net::new(&cfg, Some(5 * 1460), 10 * MS).with_fate(move |dir, seg, _| {
        if dir == Dir::Fwd && seg.flags.syn() {
            syns += 1;
            if syns <= 2 {
                return Fate::Drop;
            }
        }
        Fate::Deliver
    });
    net.start();
    net.run_until(3 * SECOND + 20 * MS);
    let syn_times: Vec<Time> = net
        .log
        .iter()
        .filter(|e| e.seg.flags == Flags::SYN)
        .map(|e| e.t)
        .collect();
    assert_eq!(syn_times, vec![0, SECOND, 3 * SECOND]); // 1 s, then 2 s (backoff)
    let st = net.tx.stats();
    assert_eq!((st.syn_retransmissions, st.timeouts), (2, 2));
    assert_eq!(net.tx.stats().established_at, Some(3 * SECOND + 20 * MS));
    // Karn: no sample from the retransmitted SYN; RFC 6298 §5.7: RTO = 3 s for data.
    assert_eq!(st.rtt_samples, 0);
    assert_eq!(net.tx.rto(), 3 * SECOND);
    // RFC 5681 §3.1: initial window of one segment after a lost SYN.
    assert_eq!(net.tx.cwnd_bytes(), 1460);
    assert_eq!(net.data_sent().len(), 1);
    net.run_until(100 * SECOND);
    assert!(net.tx.is_done());
}

#[test]
fn lost_syn_ack_is_answered_again() {
    let cfg = TcpConfig::default();
    let mut dropped = false;
    let mut net = Net::new(&cfg, Some(1460), 10 * MS).with_fate(move |dir, seg, _| {
        if dir == Dir::Rev && seg.flags.syn() && !dropped {
            dropped = true;
            return Fate::Drop;
        }
        Fate::Deliver
    });
    net.run();
    assert_eq!(net.rx.stats().syn_acks_sent, 2);
    assert_eq!(net.tx.stats().syn_retransmissions, 1);
    assert_eq!(net.tx.stats().established_at, Some(SECOND + 20 * MS));
    assert!(net.tx.is_done());
}

// ----- windows ------------------------------------------------------------------------------

#[test]
fn flight_never_exceeds_rwnd() {
    let cfg = TcpConfig {
        initial_window: Some(10),
        ..cfg_ack_every().with_rwnd_segments(4)
    };
    let mut net = Net::new(&cfg, Some(100 * 1460), 10 * MS).with_fwd_ser(MS);
    net.run();
    assert!(net.tx.is_done());
    let max_flight = net.snaps.iter().map(|s| s.flight).max().unwrap();
    assert_eq!(
        max_flight,
        4 * 1460,
        "window-limited flow fills exactly rwnd"
    );
    assert!(net.snaps.iter().all(|s| s.flight <= 4 * 1460));
    // cwnd kept growing (not the limit), so rwnd was the binding constraint.
    assert!(net.tx.cwnd_bytes() > 10 * 1460);
}

#[test]
fn window_below_one_mss_still_progresses() {
    let cfg = cfg_ack_every().with_rwnd_bytes(1000);
    let mut net = Net::new(&cfg, Some(5000), 5 * MS);
    net.run();
    assert!(net.tx.is_done());
    assert!(net.data_sent().iter().all(|d| d.2 == 1000));
    assert_eq!(net.rx.delivered_bytes(), 5000);
}

/// An AP that rewrites the advertised window to 0 for a while (pilosof2003's ⌊B/n⌋ can
/// be 0): the sender probes and resumes when the window reopens.
#[test]
fn zero_window_is_probed_and_transfer_resumes() {
    let cfg = TcpConfig {
        min_rto: 200 * MS,
        ..cfg_ack_every()
    };
    let mut net = Net::new(&cfg, Some(50 * 1460), 10 * MS).with_fate(|dir, seg, t| {
        if dir == Dir::Rev && !seg.flags.syn() && (25 * MS..3 * SECOND).contains(&t) {
            Fate::Rwnd(0)
        } else {
            Fate::Deliver
        }
    });
    net.run();
    assert!(net.tx.is_done(), "stalled at snd_una {}", net.tx.snd_una());
    assert_eq!(net.rx.delivered_bytes(), 50 * 1460);
    // While the window is closed (zero-window ACKs arrive from 35 ms to 3.01 s), only
    // one-segment probes go out, one per RTO (this receiver accepts and ACKs each probe,
    // so the RTO gets fresh samples and does not back off).
    let closed: Vec<_> = net
        .data_sent()
        .into_iter()
        .filter(|d| (36 * MS..3010 * MS).contains(&d.0))
        .collect();
    assert!(closed.len() >= 5, "probes: {closed:?}");
    assert!(
        closed.windows(2).all(|w| w[1].0 - w[0].0 >= 200 * MS),
        "{closed:?}"
    );
    assert!(
        closed.windows(2).all(|w| w[1].1 == w[0].1 + 1460),
        "{closed:?}"
    );
}

#[test]
fn timeout_with_closed_window_still_retransmits() {
    let cfg = TcpConfig {
        initial_window: Some(4),
        ..TcpConfig::default()
    };
    let (mut tx, _) = established_sender(&cfg, None, 65_535);
    let mut rec = Rec::default();
    tx.on_segment(30 * MS, &ack_seg(1461, 0), &mut rec); // new ACK closing the window
    assert!(rec.data().is_empty());
    let deadline = tx.rtx_deadline().unwrap();
    tx.on_timer(SECOND, TimerKind::Retransmit, 1, &mut rec); // early callback: re-arm
    let gen = rec.timers.last().unwrap().2;
    tx.on_timer(deadline, TimerKind::Retransmit, gen, &mut rec);
    assert_eq!(tx.stats().timeouts, 1);
    assert_eq!(
        rec.data().iter().map(|s| s.seq).collect::<Vec<_>>(),
        vec![1461]
    );
}

#[test]
fn slow_start_doubles_every_rtt() {
    let cfg = TcpConfig {
        initial_window: Some(1),
        ..cfg_ack_every()
    };
    let mut net = Net::new(&cfg, None, 50 * MS);
    net.start();
    net.run_until(550 * MS);
    let mut per_rtt = Vec::new();
    for k in 1..=5u64 {
        let t = k * 100 * MS;
        per_rtt.push(net.data_sent().iter().filter(|d| d.0 == t).count());
    }
    assert_eq!(per_rtt, vec![1, 2, 4, 8, 16]);
    assert_eq!(net.tx.cwnd_bytes(), 16 * 1460); // ACKs of the 16-segment round not back yet
}

#[test]
fn congestion_avoidance_adds_about_one_mss_per_rtt() {
    let mss = 1460u64;
    let cfg = TcpConfig {
        initial_window: Some(4),
        initial_ssthresh: InitialSsthresh::Window(Window::Segments(4)),
        ..cfg_ack_every()
    };
    let mut net = Net::new(&cfg, None, 50 * MS);
    net.start();
    net.run_until(1150 * MS);
    // cwnd at the end of each round (rounds start at 100 ms, 200 ms, ...).
    let cwnd_at = |t: Time| net.snaps.iter().rfind(|s| s.t <= t).unwrap().cwnd;
    let rounds: Vec<u64> = (1..=11).map(|k| cwnd_at(k * 100 * MS)).collect();
    assert_eq!(rounds[0], 4 * mss);
    for w in rounds.windows(2) {
        let delta = w[1] - w[0];
        assert!(
            delta >= mss * 7 / 10 && delta <= mss,
            "CA growth per RTT {delta} bytes, rounds {rounds:?}"
        );
    }
    let total = rounds[10] - rounds[0];
    assert!(
        total >= 8 * mss && total <= 10 * mss,
        "10 RTTs of CA: {total} bytes"
    );
}

/// Congestion-avoidance growth per RTT with delayed ACKs (d = 2): RFC 5681 per-ACK
/// counting gives ~0.5 SMSS per RTT, RFC 3465 byte counting ~1 SMSS per RTT.
#[test]
fn byte_counting_versus_per_ack_growth_with_delayed_acks() {
    let mss = 1000u64;
    let mut growth = Vec::new();
    for abc in [false, true] {
        let cfg = TcpConfig {
            mss: mss as u32,
            initial_window: Some(10),
            initial_ssthresh: InitialSsthresh::Window(Window::Segments(10)),
            byte_counting: abc,
            delayed_ack_count: 2,
            rwnd: Window::Bytes(1 << 30),
            ..TcpConfig::default()
        };
        let mut net = Net::new(&cfg, None, 50 * MS);
        net.start();
        net.run_until(2050 * MS); // 20 RTTs of congestion avoidance
        growth.push(net.tx.cwnd_bytes() - 10 * mss);
    }
    let (per_ack, abc) = (growth[0], growth[1]);
    assert!(
        (8 * mss..=11 * mss).contains(&per_ack),
        "per-ACK: {per_ack}"
    );
    assert!((17 * mss..=21 * mss).contains(&abc), "ABC: {abc}");
}

// ----- loss recovery ------------------------------------------------------------------------

fn two_losses_net(variant: Variant) -> Net {
    let mss = 1000;
    let cfg = TcpConfig {
        variant,
        mss,
        initial_window: Some(10),
        limited_transmit: false,
        ..cfg_ack_every()
    };
    let mut net = Net::new(&cfg, Some(40 * mss as u64), 10 * MS)
        .with_fwd_ser(MS)
        .with_fate(drop_first(&[seg_seq(2, mss), seg_seq(5, mss)]));
    net.run();
    net
}

#[test]
fn newreno_partial_ack_retransmits_next_hole_without_timeout() {
    let net = two_losses_net(Variant::NewReno);
    let st = net.tx.stats();
    assert!(net.tx.is_done());
    assert_eq!(st.fast_retransmits, 1);
    assert_eq!(st.timeouts, 0);
    assert_eq!(st.retransmissions, 2);
    // The second hole is retransmitted at the moment the partial ACK (ack = hole 2) arrives.
    let hole2 = seg_seq(5, 1000);
    let resend = net.sends_of(hole2)[1];
    let partial = net
        .snaps
        .iter()
        .find(|s| s.ack_in == Some(hole2))
        .expect("partial ACK");
    assert_eq!(resend, partial.t);
    assert!(
        partial.in_recovery,
        "NewReno stays in recovery on a partial ACK"
    );
    // One window reduction only: ssthresh set once, never halved again.
    let mut ss: Vec<u64> = net.snaps.iter().map(|s| s.ssthresh).collect();
    ss.dedup();
    assert_eq!(ss.len(), 2, "ssthresh history {ss:?}");
    // Flight at the third dupack: the 2 ACKs before hole 1 each released 2 segments
    // (slow start), so snd_max = segment 14 and snd_una = segment 2: 12 segments
    // → ssthresh = 6 segments.
    assert_eq!(ss[1], 6000);
    // Recovery ends with the full ACK: cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS).
    let exit = net
        .snaps
        .windows(2)
        .find(|w| w[0].in_recovery && !w[1].in_recovery)
        .map(|w| w[1])
        .expect("recovery exit");
    assert!(
        exit.ack_in.unwrap() >= seg_seq(14, 1000),
        "full ACK covers recover"
    );
    assert!(exit.cwnd <= exit.ssthresh);
    assert!(!net.snaps.last().unwrap().in_recovery);
}

#[test]
fn reno_leaves_recovery_on_partial_ack() {
    let net = two_losses_net(Variant::Reno);
    let st = net.tx.stats();
    assert!(net.tx.is_done());
    let hole2 = seg_seq(5, 1000);
    let partial = net
        .snaps
        .iter()
        .find(|s| s.ack_in == Some(hole2))
        .expect("partial ACK");
    // RFC 5681 §3.2 step 6: the first new ACK deflates cwnd to ssthresh and ends recovery.
    assert!(!partial.in_recovery);
    assert_eq!(partial.cwnd, partial.ssthresh);
    // ... and the second hole is not retransmitted at the partial ACK.
    let sends = net.sends_of(hole2);
    assert!(sends.len() >= 2);
    assert!(sends[1] > partial.t);
    // It is repaired by a second fast retransmit (another halving) or by a timeout.
    assert_eq!(st.fast_retransmits + st.timeouts, 2, "{st:?}");
    let mut ss: Vec<u64> = net.snaps.iter().map(|s| s.ssthresh).collect();
    ss.dedup();
    assert_eq!(ss.len(), 3, "two reductions: {ss:?}");
}

#[test]
fn tahoe_slow_starts_after_fast_retransmit() {
    let mss = 1000u32;
    let cfg = TcpConfig {
        variant: Variant::Tahoe,
        mss,
        initial_window: Some(10),
        limited_transmit: false,
        ..cfg_ack_every()
    };
    let lost = seg_seq(4, mss);
    let mut net = Net::new(&cfg, Some(40 * mss as u64), 10 * MS)
        .with_fwd_ser(MS)
        .with_fate(drop_first(&[lost]));
    net.run();
    let st = net.tx.stats();
    assert!(net.tx.is_done());
    assert_eq!((st.fast_retransmits, st.timeouts), (1, 0));
    let i = net
        .snaps
        .iter()
        .position(|s| s.fast_retransmits == 1)
        .unwrap();
    let fr = net.snaps[i];
    assert_eq!(
        fr.cwnd, mss as u64,
        "cwnd = 1 segment after fast retransmit"
    );
    assert!(fr.ssthresh < u64::MAX && fr.ssthresh >= 2 * mss as u64);
    assert_eq!(
        net.sends_of(lost)[1],
        fr.t,
        "lost segment retransmitted at once"
    );
    assert!(
        net.snaps.iter().all(|s| !s.in_recovery),
        "Tahoe has no fast recovery"
    );
    // Slow start afterwards: +1 MSS per new ACK.
    let after: Vec<u64> = net.snaps[i + 1..]
        .iter()
        .filter(|s| s.ack_in.is_some_and(|a| a > lost))
        .map(|s| s.cwnd)
        .take(3)
        .collect();
    assert_eq!(after, vec![2000, 3000, 4000]);
}

#[test]
fn dupack_threshold_is_honoured() {
    for threshold in [3u32, 4] {
        let cfg = TcpConfig {
            initial_window: Some(10),
            dupack_threshold: threshold,
            limited_transmit: false,
            ..TcpConfig::default()
        };
        let (mut tx, rec) = established_sender(&cfg, None, 65_535);
        assert_eq!(rec.data().len(), 10);
        let mut rec = Rec::default();
        tx.on_segment(30 * MS, &ack_seg(1461, 65_535), &mut rec); // new ACK, segment 0
        for _ in 0..threshold - 1 {
            tx.on_segment(31 * MS, &ack_seg(1461, 65_535), &mut rec);
        }
        assert_eq!(tx.stats().dupacks_received, (threshold - 1) as u64);
        assert_eq!(tx.stats().fast_retransmits, 0, "threshold {threshold}");
        assert!(
            rec.data().iter().all(|s| s.seq > 1461),
            "no retransmission yet"
        );
        tx.on_segment(32 * MS, &ack_seg(1461, 65_535), &mut rec);
        assert_eq!(tx.stats().fast_retransmits, 1, "threshold {threshold}");
        let retx: Vec<_> = rec.data().into_iter().filter(|s| s.seq == 1461).collect();
        assert_eq!(retx.len(), 1);
        assert!(tx.in_recovery());
    }
}

#[test]
fn newreno_no_fast_retransmit_below_recover_after_timeout() {
    let cfg = TcpConfig {
        initial_window: Some(10),
        limited_transmit: false,
        ..TcpConfig::default()
    };
    let (mut tx, _) = established_sender(&cfg, None, 65_535);
    let deadline = tx.rtx_deadline().unwrap();
    let mut rec = Rec::default();
    // Fire the (lazily armed) timer chain until it expires.
    let gen_of = |r: &Rec| r.timers.last().map(|t| t.2);
    tx.on_timer(SECOND, TimerKind::Retransmit, 1, &mut rec);
    let gen = gen_of(&rec).unwrap();
    tx.on_timer(deadline, TimerKind::Retransmit, gen, &mut rec);
    assert_eq!(tx.stats().timeouts, 1);
    assert_eq!(tx.cwnd_bytes(), 1460);
    // Duplicate ACKs caused by go-back-N duplicates (ack below recover): no new fast
    // retransmit and no second reduction (RFC 6582 §3.2 steps 1 and 4).
    let ss = tx.ssthresh_bytes();
    for _ in 0..5 {
        tx.on_segment(deadline + MS, &ack_seg(1, 65_535), &mut rec);
    }
    assert_eq!(tx.stats().fast_retransmits, 0);
    assert_eq!(tx.ssthresh_bytes(), ss);
    // Reno has no such guard (RFC 5681): the same duplicates trigger fast retransmit.
    let cfg = TcpConfig {
        variant: Variant::Reno,
        ..cfg
    };
    let (mut tx, _) = established_sender(&cfg, None, 65_535);
    let deadline = tx.rtx_deadline().unwrap();
    let mut rec = Rec::default();
    tx.on_timer(SECOND, TimerKind::Retransmit, 1, &mut rec);
    let gen = gen_of(&rec).unwrap();
    tx.on_timer(deadline, TimerKind::Retransmit, gen, &mut rec);
    for _ in 0..3 {
        tx.on_segment(deadline + MS, &ack_seg(1, 65_535), &mut rec);
    }
    assert_eq!(tx.stats().fast_retransmits, 1);
}

#[test]
fn limited_transmit_sends_new_data_on_first_two_dupacks() {
    let cfg = TcpConfig {
        initial_window: Some(4),
        ..TcpConfig::default()
    };
    let (mut tx, _) = established_sender(&cfg, None, 65_535);
    let mut rec = Rec::default();
    tx.on_segment(30 * MS, &ack_seg(1461, 65_535), &mut rec); // +1 seg (slow start) → 2 new
    let before = tx.snd_max();
    rec = Rec::default();
    tx.on_segment(31 * MS, &ack_seg(1461, 65_535), &mut rec);
    tx.on_segment(31 * MS, &ack_seg(1461, 65_535), &mut rec);
    assert_eq!(rec.data().len(), 2, "one new segment per dupack (RFC 3042)");
    assert!(rec.data().iter().all(|s| s.seq >= before));
    rec = Rec::default();
    tx.on_segment(32 * MS, &ack_seg(1461, 65_535), &mut rec);
    assert_eq!(tx.stats().fast_retransmits, 1);
    // ssthresh excludes the limited-transmit segments: flight was 5 segments → 2.5 segs.
    assert_eq!(tx.ssthresh_bytes(), 5 * 1460 / 2);
}

// ----- retransmission timer -----------------------------------------------------------------

#[test]
fn rto_backs_off_to_max_and_karn_skips_retransmitted_samples() {
    for timestamps in [false, true] {
        let cfg = TcpConfig {
            max_rto: 8 * SECOND,
            timestamps,
            ..TcpConfig::default()
        };
        // Black hole for data until t = 30 s.
        let mut net = Net::new(&cfg, Some(1460), 10 * MS).with_fate(|dir, seg, t| {
            if dir == Dir::Fwd && seg.len > 0 && t < 30 * SECOND {
                Fate::Drop
            } else {
                Fate::Deliver
            }
        });
        net.run();
        let sends = net.sends_of(1);
        let gaps: Vec<Time> = sends.windows(2).map(|w| (w[1] - w[0]) / SECOND).collect();
        assert_eq!(gaps, vec![1, 2, 4, 8, 8, 8], "timestamps {timestamps}");
        let st = net.tx.stats();
        assert_eq!(st.timeouts, 6);
        assert!(net.tx.is_done());
        if timestamps {
            // RTTM: the ACK of the retransmission is a valid sample; RTO recomputed.
            assert_eq!(st.rtt_samples, 2);
            assert_eq!(net.tx.rto(), SECOND);
        } else {
            // Karn: only the SYN sample; the backed-off RTO is kept.
            assert_eq!(st.rtt_samples, 1);
            assert_eq!(net.tx.rto(), 8 * SECOND);
        }
    }
}

#[test]
fn rto_timeout_goes_back_n_with_one_segment() {
    let mss = 1000u32;
    let cfg = TcpConfig {
        mss,
        initial_window: Some(8),
        ..cfg_ack_every()
    };
    // Lose the whole initial window once: only the timer can recover.
    let lost: Vec<Seq> = (0..8).map(|i| seg_seq(i, mss)).collect();
    let mut net = Net::new(&cfg, Some(20 * mss as u64), 10 * MS).with_fate(drop_first(&lost));
    net.run();
    assert!(net.tx.is_done());
    let st = net.tx.stats();
    assert_eq!((st.timeouts, st.fast_retransmits), (1, 0));
    let i = net.snaps.iter().position(|s| s.timeouts == 1).unwrap();
    let s = net.snaps[i];
    assert_eq!(s.cwnd, mss as u64);
    assert_eq!(s.ssthresh, 4 * mss as u64); // max(8 segs / 2, 2 segs)
    assert_eq!(
        s.snd_nxt,
        s.snd_una + mss as u64,
        "one segment resent from snd_una"
    );
}

#[test]
fn rto_estimator_follows_rfc6298() {
    let cfg = TcpConfig {
        min_rto: 0,
        clock_granularity: 0,
        ..TcpConfig::default()
    };
    let mut e = RtoEstimator::new(&cfg);
    assert_eq!(e.rto(), SECOND);
    // R1 = 100 ms: SRTT = 100, RTTVAR = 50, RTO = 100 + 4*50 = 300 ms.
    e.sample(100 * MS, 0);
    assert_eq!(
        (e.srtt(), e.rttvar(), e.rto()),
        (Some(100 * MS), 50 * MS, 300 * MS)
    );
    // R2 = 200 ms: RTTVAR = 3/4*50 + 1/4*100 = 62.5; SRTT = 7/8*100 + 1/8*200 = 112.5;
    // RTO = 112.5 + 250 = 362.5 ms.
    e.sample(200 * MS, 0);
    assert_eq!(
        (e.srtt(), e.rttvar(), e.rto()),
        (Some(112_500_000), 62_500_000, 362_500_000)
    );
    // R3 = 100 ms: RTTVAR = 46.875 + 3.125 = 50; SRTT = 98.4375 + 12.5 = 110.9375;
    // RTO = 310.9375 ms.
    e.sample(100 * MS, 0);
    assert_eq!(
        (e.srtt(), e.rttvar(), e.rto()),
        (Some(110_937_500), 50 * MS, 310_937_500)
    );
    // Backoff doubles up to the maximum (60 s).
    for _ in 0..10 {
        e.backoff();
    }
    assert_eq!(e.rto(), 60 * SECOND);
    e.sample(100 * MS, 0);
    assert!(e.rto() < SECOND, "a new sample clears the backoff");
}

#[test]
fn rto_granularity_and_minimum() {
    let cfg = TcpConfig {
        min_rto: 0,
        clock_granularity: 10 * MS,
        ..TcpConfig::default()
    };
    let mut e = RtoEstimator::new(&cfg);
    // 3 ms reads as one 10 ms tick: SRTT 10, RTTVAR 5, RTO = 10 + max(10, 20) = 30 ms.
    assert_eq!(e.sample(3 * MS, 0), 10 * MS);
    assert_eq!(e.rto(), 30 * MS);
    e.sample(10 * MS, 0); // RTTVAR 3.75 → 10 + 15
    assert_eq!(e.rto(), 25 * MS);
    e.sample(10 * MS, 0); // RTTVAR 2.8125 → 10 + 11.25
    assert_eq!(e.rto(), 21_250_000);
    e.sample(10 * MS, 0); // RTTVAR 2.109375 → 4·RTTVAR < G → 10 + G
    assert_eq!(e.rto(), 20 * MS);
    // With the RFC 6298 minimum of 1 s.
    let mut e = RtoEstimator::new(&TcpConfig::default());
    e.sample(10 * MS, 0);
    assert_eq!(e.rto(), SECOND);
}

#[test]
fn stale_and_early_timer_callbacks() {
    let cfg = TcpConfig {
        initial_window: Some(4),
        ..TcpConfig::default()
    };
    let (mut tx, rec) = established_sender(&cfg, None, 65_535);
    // One callback requested, by the SYN (initial RTO 1 s); the data sent at 10 ms reuses
    // it, since its deadline (10 ms + 1 s) is later.
    assert_eq!(rec.timers.len(), 1);
    let (kind, at, gen) = rec.timers[0];
    assert_eq!((kind, at), (TimerKind::Retransmit, SECOND));
    assert_eq!(tx.rtx_deadline(), Some(10 * MS + tx.rto()));
    // A new ACK restarts the timer later: no new callback is requested (lazy re-arm).
    let mut rec = Rec::default();
    tx.on_segment(500 * MS, &ack_seg(1461, 65_535), &mut rec);
    assert!(rec.timers.is_empty());
    assert_eq!(tx.rtx_deadline(), Some(500 * MS + tx.rto()));
    // A stale generation is ignored.
    rec = Rec::default();
    tx.on_timer(at, TimerKind::Retransmit, gen.wrapping_sub(1), &mut rec);
    assert!(rec.sent.is_empty() && rec.timers.is_empty());
    // The early callback re-arms for the real deadline instead of retransmitting.
    tx.on_timer(at, TimerKind::Retransmit, gen, &mut rec);
    assert!(rec.sent.is_empty());
    assert_eq!(
        rec.timers,
        vec![(TimerKind::Retransmit, 500 * MS + tx.rto(), gen + 1)]
    );
    assert_eq!(tx.stats().timeouts, 0);
    // The real deadline expires.
    rec = Rec::default();
    tx.on_timer(
        500 * MS + tx.rto(),
        TimerKind::Retransmit,
        gen + 1,
        &mut rec,
    );
    assert_eq!(tx.stats().timeouts, 1);
    assert_eq!(rec.data()[0].seq, 1461);
}

// ----- timestamps and spurious timeouts -----------------------------------------------------

/// One-segment transfers whose data path stalls (FIFO) until t = 1.5 s, longer than the
/// 1 s RTO: the original segment and its retransmission arrive together, in order.
fn stalled_net(cfg: &TcpConfig, bytes: u64) -> Net {
    let mut net = Net::new(cfg, Some(bytes), 10 * MS).with_fate(|dir, seg, t| {
        if dir == Dir::Fwd && seg.len > 0 && t < 1500 * MS {
            Fate::HoldUntil(1500 * MS)
        } else {
            Fate::Deliver
        }
    });
    net.run();
    net
}

#[test]
fn spurious_timeout_detected_with_timestamps() {
    let cfg = TcpConfig {
        timestamps: true,
        ..cfg_ack_every()
    };
    let net = stalled_net(&cfg, 1460);
    let st = net.tx.stats();
    assert!(net.tx.is_done());
    assert_eq!(st.timeouts, 1);
    assert_eq!(st.spurious_timeouts, 1);
    assert_eq!(net.rx.stats().duplicate_segments, 1);
    // Timestamps are carried: the data segments' TSval is the sender's ms clock.
    let first = net.log.iter().find(|e| e.seg.len > 0).unwrap();
    assert_eq!(first.seg.ts_val, 20);

    // Without timestamps the same timeout cannot be recognised.
    let net = stalled_net(&cfg_ack_every(), 1460);
    assert_eq!(net.tx.stats().timeouts, 1);
    assert_eq!(net.tx.stats().spurious_timeouts, 0);
}

#[test]
fn genuine_timeout_is_not_spurious() {
    let cfg = TcpConfig {
        timestamps: true,
        ..cfg_ack_every()
    };
    let mut net = Net::new(&cfg, Some(1460), 10 * MS).with_fate(drop_first(&[1]));
    net.run();
    assert_eq!(net.tx.stats().timeouts, 1);
    assert_eq!(net.tx.stats().spurious_timeouts, 0);
}

#[test]
fn eifel_response_restores_window() {
    let mss = 1460;
    for response in [false, true] {
        let cfg = TcpConfig {
            timestamps: true,
            eifel_response: response,
            initial_window: Some(4),
            ..cfg_ack_every()
        };
        let net = stalled_net(&cfg, 40 * mss);
        assert!(net.tx.is_done());
        assert_eq!(net.tx.stats().spurious_timeouts, 1);
        let before = net.snaps.iter().rfind(|s| s.timeouts == 0).unwrap();
        let detect = net.snaps.iter().find(|s| s.spurious == 1).unwrap();
        if response {
            assert!(
                detect.cwnd >= before.cwnd,
                "cwnd restored: {detect:?} vs {before:?}"
            );
            assert_eq!(detect.snd_nxt, before.snd_nxt.max(detect.snd_nxt));
            assert_eq!(detect.ssthresh, before.ssthresh);
        } else {
            assert!(
                detect.cwnd <= 2 * mss,
                "slow start from one segment: {detect:?}"
            );
        }
    }
}

#[test]
fn receiver_echoes_earliest_unacked_timestamp() {
    let cfg = TcpConfig {
        timestamps: true,
        delayed_ack_count: 2,
        ..TcpConfig::default()
    };
    let mut rx = established_receiver(&cfg);
    let mut rec = Rec::default();
    let mut s1 = data_seg(1, 1460);
    s1.ts_val = 100;
    let mut s2 = data_seg(1461, 1460);
    s2.ts_val = 150;
    rx.on_segment(MS, &s1, &mut rec);
    rx.on_segment(2 * MS, &s2, &mut rec);
    assert_eq!(rec.sent.len(), 1);
    assert_eq!(
        rec.sent[0].ts_ecr, 100,
        "RFC 7323 §4.3: echo the earlier segment"
    );
    assert_eq!(rec.sent[0].ts_val, 2, "receiver's ms clock");
}

// ----- receiver -----------------------------------------------------------------------------

#[test]
fn delayed_ack_timer_fires_when_fewer_than_d_segments() {
    let cfg = TcpConfig {
        delayed_ack_count: 2,
        delayed_ack_timeout: 200 * MS,
        ..TcpConfig::default()
    };
    let mut rx = established_receiver(&cfg);
    let mut rec = Rec::default();
    rx.on_segment(10 * MS, &data_seg(1, 1460), &mut rec);
    assert!(
        rec.sent.is_empty(),
        "first in-order segment is not ACKed at once"
    );
    assert_eq!(rec.timers.len(), 1);
    let (kind, at, gen) = rec.timers[0];
    assert_eq!((kind, at), (TimerKind::DelayedAck, 210 * MS));
    let mut rec = Rec::default();
    rx.on_timer(at, kind, gen.wrapping_add(7), &mut rec); // stale: ignored
    assert!(rec.sent.is_empty());
    rx.on_timer(at, kind, gen, &mut rec);
    assert_eq!(rec.sent.len(), 1);
    assert_eq!(rec.sent[0].ack, 1461);
    assert_eq!(rx.stats().delayed_ack_timeouts, 1);
    // The end of a fixed-size transfer with d = 2 and an odd number of segments waits
    // for the timer (miorandi2004 §2).
    let mut net = Net::new(&cfg, Some(3 * 1460), 10 * MS);
    net.run();
    assert!(net.tx.is_done());
    assert_eq!(net.rx.stats().delayed_ack_timeouts, 1);
}

#[test]
fn ack_every_d_segments() {
    for d in [1u32, 2, 3] {
        let cfg = TcpConfig {
            delayed_ack_count: d,
            ..TcpConfig::default()
        };
        let mut rx = established_receiver(&cfg);
        let mut rec = Rec::default();
        for i in 0..6u64 {
            rx.on_segment(i * MS, &data_seg(seg_seq(i, 1460), 1460), &mut rec);
        }
        let acks: Vec<Seq> = rec.sent.iter().map(|s| s.ack).collect();
        let expect: Vec<Seq> = (1..=6u64)
            .filter(|k| k % d as u64 == 0)
            .map(|k| seg_seq(k, 1460))
            .collect();
        assert_eq!(acks, expect, "d = {d}");
        assert_eq!(rx.delivered_bytes(), 6 * 1460);
    }
}

#[test]
fn dynamic_delayed_ack_grows_d_at_the_thresholds() {
    // Altman & Jiménez: d = 1 below l1 = 2, 2 below l2 = 5, 3 below l3 = 9, then 4; the
    // n-th in-order segment uses d(n): ACKs after segments 1, 3, 6, 10, 14.
    let cfg = TcpConfig {
        delayed_ack_policy: DelayedAckPolicy::Dynamic {
            thresholds: DelayedAckPolicy::DYNAMIC_THRESHOLDS,
        },
        ..TcpConfig::default()
    };
    let mut rx = established_receiver(&cfg);
    let mut rec = Rec::default();
    for i in 0..15u64 {
        rx.on_segment(i * MS, &data_seg(seg_seq(i, 1460), 1460), &mut rec);
    }
    let acks: Vec<Seq> = rec.sent.iter().map(|s| s.ack).collect();
    let expect: Vec<Seq> = [1u64, 3, 6, 10, 14]
        .iter()
        .map(|&k| seg_seq(k, 1460))
        .collect();
    assert_eq!(acks, expect);
    // The 15th segment waits for the timer, and an out-of-order one is ACKed at once.
    assert!(rec.timers.iter().any(|t| t.0 == TimerKind::DelayedAck));
    rx.on_segment(20 * MS, &data_seg(seg_seq(17, 1460), 1460), &mut rec);
    assert_eq!(rec.sent.last().unwrap().ack, seg_seq(15, 1460));
    let bad = TcpConfig {
        delayed_ack_policy: DelayedAckPolicy::Dynamic {
            thresholds: [5, 2, 9],
        },
        ..TcpConfig::default()
    };
    assert!(bad
        .validate()
        .unwrap_err()
        .contains("dynamic_delayed_ack_thresholds"));
}

#[test]
fn immediate_ack_for_out_of_order_duplicate_and_hole_fill() {
    let cfg = TcpConfig {
        delayed_ack_count: 2,
        ..TcpConfig::default()
    };
    let mut rx = established_receiver(&cfg);
    let mss = 1460;
    let mut rec = Rec::default();
    rx.on_segment(MS, &data_seg(seg_seq(0, mss), mss), &mut rec);
    assert!(rec.sent.is_empty());
    rx.on_segment(2 * MS, &data_seg(seg_seq(2, mss), mss), &mut rec); // hole at segment 1
    assert_eq!(
        rec.sent.len(),
        1,
        "out-of-order → immediate (duplicate) ACK"
    );
    assert_eq!(rec.sent[0].ack, seg_seq(1, mss));
    assert_eq!(rx.stats().out_of_order_segments, 1);
    rx.on_segment(3 * MS, &data_seg(seg_seq(1, mss), mss), &mut rec); // fills the hole
    assert_eq!(rec.sent.len(), 2, "hole filled → immediate ACK");
    assert_eq!(rec.sent[1].ack, seg_seq(3, mss));
    assert_eq!(rx.delivered_bytes(), 3 * mss as u64);
    rx.on_segment(4 * MS, &data_seg(seg_seq(1, mss), mss), &mut rec); // duplicate
    assert_eq!(rec.sent.len(), 3, "duplicate → immediate ACK");
    assert_eq!(rec.sent[2].ack, seg_seq(3, mss));
    assert_eq!(rx.stats().duplicate_segments, 1);
    assert_eq!(rx.stats().acks_sent, 3);
}

#[test]
fn out_of_order_ranges_merge_and_window_is_enforced() {
    let cfg = TcpConfig {
        mss: 100,
        rwnd: Window::Segments(10),
        delayed_ack_count: 1,
        ..TcpConfig::default()
    };
    let mut rx = established_receiver(&cfg);
    let mut rec = Rec::default();
    for i in [5u64, 3, 7, 4, 8] {
        rx.on_segment(0, &data_seg(seg_seq(i, 100), 100), &mut rec);
    }
    let ranges: Vec<_> = rx.out_of_order_ranges().collect();
    assert_eq!(ranges, vec![(301, 601), (701, 901)]);
    assert_eq!(rx.buffered_out_of_order_bytes(), 500);
    // Beyond rcv_nxt + rwnd (1 + 1000): discarded, ACKed.
    rx.on_segment(0, &data_seg(seg_seq(10, 100), 100), &mut rec);
    assert_eq!(rx.stats().out_of_window_segments, 1);
    // Overlapping segment merges both neighbours.
    rx.on_segment(0, &data_seg(551, 200), &mut rec);
    assert_eq!(
        rx.out_of_order_ranges().collect::<Vec<_>>(),
        vec![(301, 901)]
    );
    for i in 0..3u64 {
        rx.on_segment(0, &data_seg(seg_seq(i, 100), 100), &mut rec);
    }
    assert_eq!(rx.rcv_nxt(), 901);
    assert_eq!(rx.delivered_bytes(), 900);
    assert_eq!(rx.out_of_order_ranges().count(), 0);
    assert_eq!(rec.sent.last().unwrap().ack, 901);
}

// ----- whole transfers ----------------------------------------------------------------------

#[test]
fn fixed_size_transfer_completes_and_stops() {
    let n = 100_000u64;
    let cfg = TcpConfig::default();
    let mut net = Net::new(&cfg, Some(n), 5 * MS).with_fwd_ser(MS);
    net.run();
    assert!(net.tx.is_done());
    assert_eq!(net.rx.delivered_bytes(), n);
    assert_eq!(net.tx.stats().bytes_acked, n);
    assert_eq!(net.tx.stats().bytes_sent, n, "no loss, no retransmission");
    assert_eq!(net.tx.rtx_deadline(), None, "timer stopped");
    let done = net.tx.stats().completed_at.unwrap();
    assert!(net.data_sent().iter().all(|d| d.0 < done));
    // Zero-byte transfer: done right after the handshake.
    let mut net = Net::new(&cfg, Some(0), 5 * MS);
    net.run();
    assert!(net.tx.is_done());
    assert!(net.data_sent().is_empty());
}

/// Deterministic pseudo-random losses on both paths, every variant and ACK policy: the
/// transfer completes, every byte is delivered once, the flight respects rwnd.
#[test]
fn random_losses_all_variants_complete() {
    let n = 300_000u64;
    for variant in ALL_VARIANTS {
        for (d, ts) in [(1u32, false), (2, true), (3, false)] {
            for seed in 1..=3u64 {
                let cfg = TcpConfig {
                    variant,
                    delayed_ack_count: d,
                    timestamps: ts,
                    min_rto: 200 * MS,
                    ..TcpConfig::default().with_rwnd_segments(20)
                };
                let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let mut net = Net::new(&cfg, Some(n), 5 * MS).with_fwd_ser(MS).with_fate(
                    move |dir, seg, _| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let p = if dir == Dir::Fwd && seg.len > 0 { 5 } else { 2 };
                        if seg.flags.syn() || x % 100 >= p {
                            Fate::Deliver
                        } else {
                            Fate::Drop
                        }
                    },
                );
                net.run();
                let tag = format!("{variant:?} d={d} ts={ts} seed={seed}");
                assert!(net.tx.is_done(), "{tag}");
                assert_eq!(net.rx.delivered_bytes(), n, "{tag}");
                assert!(net.snaps.iter().all(|s| s.flight <= 20 * 1460), "{tag}");
                let st = net.tx.stats();
                assert!(st.retransmissions > 0, "{tag}");
                assert_eq!(st.bytes_acked, n, "{tag}");
                assert_eq!(net.sacked_resent, 0, "{tag}: resent SACKed data");
            }
        }
    }
}

#[test]
fn ns2_profile_transfer_acks_every_segment() {
    let cfg = TcpConfig::ns2_compat();
    let mut net = Net::new(&cfg, Some(50_000), 10 * MS).with_fwd_ser(MS);
    net.run();
    assert!(net.tx.is_done());
    assert_eq!(
        net.rx.stats().acks_sent,
        50,
        "TCPSink: one ACK per 1000-byte packet"
    );
    assert!(net.snaps.iter().all(|s| s.flight <= 20_000));
    // IW 2 packets (windowInit_).
    assert_eq!(net.data_sent().iter().filter(|d| d.0 == 20 * MS).count(), 2);
}

/// ns-2 starts ssthresh_ at the window (`TcpAgent::reset`: `ssthresh_ = int(wnd_)`), so the
/// ns2 profiles slow-start up to rwnd, whatever rwnd is: with a 64-packet window over a
/// lossless path whose ACK clock allows it, cwnd doubles each RTT past ns-2's default
/// window of 20 and reaches 64 before congestion avoidance. A fixed initial ssthresh
/// (here 20) stops the doubling at 20.
#[test]
fn ns2_profile_initial_ssthresh_follows_rwnd() {
    for cfg in [TcpConfig::ns2_compat(), TcpConfig::ns2()] {
        assert_eq!(cfg.initial_ssthresh, InitialSsthresh::Rwnd);
        for w in [5u64, 20, 42, 128] {
            let c = cfg.clone().with_rwnd_segments(w);
            assert_eq!(c.initial_ssthresh_bytes(), w * 1000, "rwnd {w}");
            assert_eq!(
                super::cc::CongestionControl::new(&c).ssthresh,
                w * 1000,
                "rwnd {w}"
            );
        }
    }
    // cwnd at the end of each 20 ms round of a bulk transfer (one-way 10 ms, no queue).
    let rounds = |ssthresh: InitialSsthresh| {
        let cfg = TcpConfig {
            initial_ssthresh: ssthresh,
            ..TcpConfig::ns2().with_rwnd_segments(64)
        };
        let mut net = Net::new(&cfg, None, 10 * MS);
        net.start();
        net.run_until(200 * MS);
        let cwnd_at = |t: Time| net.snaps.iter().rfind(|s| s.t <= t).unwrap().cwnd / 1000;
        (1..=8)
            .map(|k| cwnd_at(k * 20 * MS + 5 * MS))
            .collect::<Vec<_>>()
    };
    let follows = rounds(InitialSsthresh::Rwnd);
    assert_eq!(&follows[..5], &[2, 4, 8, 16, 32], "{follows:?}");
    assert_eq!(follows[5], 64, "{follows:?}");
    let fixed = rounds(InitialSsthresh::Window(Window::Segments(20)));
    assert!(fixed[4] < 24 && fixed[7] < 26, "{fixed:?}");
}

// ----- configuration ------------------------------------------------------------------------

#[test]
fn config_defaults_and_ns2_profile() {
    let d = TcpConfig::default();
    d.validate().unwrap();
    assert_eq!(d.initial_window_bytes(), 3 * 1460); // RFC 3390 for 1460
    assert_eq!(
        (d.initial_rto, d.min_rto, d.max_rto),
        (SECOND, SECOND, 60 * SECOND)
    );
    let ns2 = TcpConfig::ns2_compat();
    ns2.validate().unwrap();
    assert_eq!(ns2.mss, 1000);
    assert_eq!(ns2.rwnd_bytes(), 20_000);
    assert_eq!(ns2.initial_window_bytes(), 2000);
    assert_eq!(ns2.initial_ssthresh_bytes(), 20_000);
    assert_eq!(
        (ns2.initial_rto, ns2.min_rto, ns2.max_rto),
        (3 * SECOND, 200 * MS, 60 * SECOND)
    );
    assert_eq!(ns2.clock_granularity, 10 * MS);
    assert_eq!(
        (ns2.delayed_ack_count, ns2.delayed_ack_timeout),
        (1, 100 * MS)
    );
    assert!(!ns2.timestamps);
    // RFC 3390: min(4·MSS, max(2·MSS, 4380)).
    for (mss, iw) in [(536u32, 2144u64), (1000, 4000), (1460, 4380), (2500, 5000)] {
        let c = TcpConfig {
            mss,
            ..TcpConfig::default()
        };
        assert_eq!(c.initial_window_bytes(), iw, "mss {mss}");
    }
    assert_eq!(d.clone().with_rwnd_segments(42).rwnd_bytes(), 42 * 1460);
    assert_eq!(header_bytes(&d), 40);
    assert_eq!(
        header_bytes(&TcpConfig {
            timestamps: true,
            ..d
        }),
        52
    );
}

#[test]
fn config_validation_names_field_value_and_rule() {
    let base = TcpConfig::default();
    let cases: Vec<(TcpConfig, &[&str])> = vec![
        (
            TcpConfig {
                mss: 0,
                ..base.clone()
            },
            &["tcp.mss", "0", "between 1"],
        ),
        (
            base.clone().with_rwnd_bytes(0),
            &["tcp.rwnd", "Bytes(0)", "between 1 byte"],
        ),
        (
            base.clone().with_rwnd_segments(0),
            &["tcp.rwnd", "Segments(0)"],
        ),
        (
            base.clone().with_rwnd_bytes(1 << 31),
            &["tcp.rwnd", "1073741824"],
        ),
        (
            TcpConfig {
                min_rto: 2 * SECOND,
                max_rto: SECOND,
                ..base.clone()
            },
            &["tcp.min_rto", "2000000000", "tcp.max_rto"],
        ),
        (
            TcpConfig {
                initial_rto: 0,
                ..base.clone()
            },
            &["tcp.initial_rto", "0"],
        ),
        (
            TcpConfig {
                delayed_ack_count: 0,
                ..base.clone()
            },
            &["tcp.delayed_ack_count", "0"],
        ),
        (
            TcpConfig {
                delayed_ack_timeout: 0,
                ..base.clone()
            },
            &["tcp.delayed_ack_timeout"],
        ),
        (
            TcpConfig {
                dupack_threshold: 0,
                ..base.clone()
            },
            &["tcp.dupack_threshold", "0"],
        ),
        (
            TcpConfig {
                initial_window: Some(0),
                ..base.clone()
            },
            &["tcp.initial_window", "0"],
        ),
        (
            TcpConfig {
                initial_ssthresh: InitialSsthresh::Window(Window::Segments(1)),
                ..base.clone()
            },
            &["tcp.initial_ssthresh", "2 segments"],
        ),
        (
            TcpConfig {
                eifel_response: true,
                ..base.clone()
            },
            &["tcp.eifel_response", "tcp.timestamps"],
        ),
        (
            TcpConfig {
                vegas: VegasParams {
                    alpha: 4.0,
                    ..VegasParams::default()
                },
                ..base.clone()
            },
            &["tcp.vegas_alpha = 4", "tcp.vegas_beta = 3"],
        ),
        (
            TcpConfig {
                vegas: VegasParams {
                    gamma: -1.0,
                    ..VegasParams::default()
                },
                ..base.clone()
            },
            &["tcp.vegas_gamma = -1", "≥ 0"],
        ),
        (
            TcpConfig {
                cubic: CubicParams {
                    c: 0.0,
                    ..CubicParams::default()
                },
                ..base.clone()
            },
            &["tcp.cubic_c = 0", "> 0"],
        ),
        (
            TcpConfig {
                cubic: CubicParams {
                    beta: 1.0,
                    ..CubicParams::default()
                },
                ..base.clone()
            },
            &["tcp.cubic_beta = 1", "between 0 and 1"],
        ),
        (
            TcpConfig {
                hystart: true,
                ..base.clone()
            },
            &["tcp.hystart = true", "tcp.timestamps = true"],
        ),
        (
            TcpConfig {
                hystart: true,
                timestamps: true,
                variant: Variant::Vegas,
                ..base.clone()
            },
            &["tcp.hystart = true", "Vegas", "CUBIC"],
        ),
    ];
    for (cfg, needles) in cases {
        let err = cfg.validate().expect_err("invalid config accepted");
        for n in needles {
            assert!(err.contains(n), "message {err:?} lacks {n:?}");
        }
    }
}

/// ns-2 restarts the retransmission timer on a fast retransmit
/// (`NewRenoTcpAgent::dupack_action` → `reset_rtx_timer`); RFC 6298 leaves it running.
#[test]
fn ns2_timer_restarts_on_fast_retransmit() {
    for (rules, restarted) in [(SenderRules::Ns2, true), (SenderRules::Rfc6298, false)] {
        let cfg = TcpConfig {
            initial_window: Some(10),
            limited_transmit: false,
            sender_rules: rules,
            ..TcpConfig::ns2_compat()
        };
        let (mut tx, _) = established_sender(&cfg, None, 65_535);
        let mut rec = Rec::default();
        let mss = cfg.mss as u64;
        tx.on_segment(30 * MS, &ack_seg(1 + mss, 65_535), &mut rec); // new ACK
        let before = tx.rtx_deadline().unwrap();
        assert_eq!(before, 30 * MS + tx.rto());
        for i in 0..3 {
            tx.on_segment((40 + i) * MS, &ack_seg(1 + mss, 65_535), &mut rec);
        }
        assert_eq!(tx.stats().fast_retransmits, 1);
        let after = tx.rtx_deadline().unwrap();
        let expected = if restarted {
            42 * MS + tx.rto()
        } else {
            before
        };
        assert_eq!(after, expected, "{rules:?}");
    }
}

/// Run the retransmission timer's callbacks until it expires (it is armed lazily).
fn fire_rto(tx: &mut TcpSender, rec: &mut Rec) {
    let before = tx.stats().timeouts;
    while tx.stats().timeouts == before {
        let (_, at, gen) = *rec
            .timers
            .iter()
            .rev()
            .find(|t| t.0 == TimerKind::Retransmit)
            .unwrap();
        tx.on_timer(at, TimerKind::Retransmit, gen, rec);
    }
}

/// An established sender with ns-2's parameters, an initial window of 10 segments, no
/// limited transmit, and `rules`; its MSS.
fn ns2_params_sender(rules: SenderRules) -> (u64, TcpSender, Rec) {
    let cfg = TcpConfig {
        initial_window: Some(10),
        limited_transmit: false,
        sender_rules: rules,
        ..TcpConfig::ns2_compat()
    };
    let (tx, rec) = established_sender(&cfg, None, 65_535);
    (cfg.mss as u64, tx, rec)
}

/// ns-2's NewReno leaves fast recovery with cwnd as it stood (half the window, without the
/// duplicate-ACK inflation: `exit_recovery_fix_ 0`) and needs the cumulative ACK *past*
/// `recover_` before another fast retransmit (`dupack_action`, `bugFix_`); RFC 6582 sets
/// cwnd = min(ssthresh, FlightSize + SMSS) and lets an ACK at recover start one
/// (`tcp/ns2_window.rs`).
#[test]
fn ns2_recovery_exit_keeps_cwnd_and_needs_an_ack_past_recover() {
    for rules in [SenderRules::Ns2, SenderRules::Rfc6298] {
        let (mss, mut tx, mut rec) = ns2_params_sender(rules);
        tx.on_segment(30 * MS, &ack_seg(1 + mss, 65_535), &mut rec); // cwnd 11 segments
        for i in 0..3 {
            tx.on_segment((40 + i) * MS, &ack_seg(1 + mss, 65_535), &mut rec);
        }
        assert_eq!(tx.stats().fast_retransmits, 1);
        let recover = tx.snd_max();
        // ssthresh: half of 11 segments, in whole packets (ns-2) or in bytes (RFC 5681).
        let ssthresh = if rules == SenderRules::Ns2 {
            5000
        } else {
            5500
        };
        assert_eq!(tx.ssthresh_bytes(), ssthresh, "{rules:?}");
        tx.on_segment(50 * MS, &ack_seg(recover, 65_535), &mut rec); // full ACK
        assert!(!tx.in_recovery());
        if rules == SenderRules::Ns2 {
            // 5.5 segments kept, then opened by the ACK (congestion avoidance).
            assert_eq!(tx.cwnd_bytes(), 5500 + mss * mss / 5500, "{rules:?}");
        } else {
            assert_eq!(tx.cwnd_bytes(), 2 * mss, "{rules:?}"); // nothing in flight: 0 + 2
        }
        // New data went out; three duplicates of the ACK at recover.
        assert!(tx.snd_max() > recover);
        for i in 0..3 {
            tx.on_segment((60 + i) * MS, &ack_seg(recover, 65_535), &mut rec);
        }
        let second = if rules == SenderRules::Ns2 { 1 } else { 2 };
        assert_eq!(tx.stats().fast_retransmits, second, "{rules:?}");
    }
}

#[test]
fn ns2_rto_arithmetic_differs_from_rfc6298() {
    // ns-2 (tcp.cc rtt_update): 95 ms sent at a tick boundary counts 9 ticks of 10 ms;
    // RTO = SRTT + 4·RTTVAR = 9 + 18 ticks.
    let mut ns2 = RtoEstimator::new(&TcpConfig::ns2());
    ns2.sample(95 * MS, 0);
    assert_eq!(ns2.rto(), 270 * MS);
    // RFC 6298 with the same G: 95 ms rounds to 100 ms; 100 + 4·50 = 300 ms.
    let mut rfc = RtoEstimator::new(&TcpConfig::ns2_compat());
    rfc.sample(95 * MS, 0);
    assert_eq!(rfc.rto(), 300 * MS);
    // minrto_ applies before the backoff (rtt_timeout): 200 ms · 2 from a 30 ms rtxcur_.
    let mut ns2 = RtoEstimator::new(&TcpConfig::ns2());
    ns2.sample(10 * MS, 0);
    ns2.backoff();
    assert_eq!(ns2.rto(), 400 * MS);
}

/// ns-2 halves ssthresh from the window at every timeout (`TcpAgent::timeout` →
/// `slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_RESTART)`), so a second timeout in a row leaves
/// it at 2 packets; RFC 5681 sets it at the first timeout only.
#[test]
fn ns2_every_timeout_halves_ssthresh_from_the_window() {
    for (rules, second) in [(SenderRules::Ns2, 2), (SenderRules::Rfc6298, 5)] {
        let (mss, mut tx, mut rec) = ns2_params_sender(rules);
        fire_rto(&mut tx, &mut rec);
        assert_eq!(tx.stats().timeouts, 1, "{rules:?}");
        // Ten segments outstanding, cwnd 10: both give 5 packets at the first timeout.
        assert_eq!(tx.ssthresh_bytes(), 5 * mss, "{rules:?}");
        fire_rto(&mut tx, &mut rec);
        assert_eq!(tx.stats().timeouts, 2, "{rules:?}");
        assert_eq!(tx.ssthresh_bytes(), second * mss, "{rules:?}");
    }
}

/// A timeout during ns-2's fast recovery halves the window without the duplicate-ACK
/// inflation (`RenoTcpAgent::timeout` clears dupwnd_ before `TcpAgent::timeout` →
/// `slowdown`): from cwnd 11 the fast retransmit leaves 5.5 packets plus an inflation
/// of 3 + 6 duplicates; the timeout then sets ssthresh = ⌊5.5⌋ / 2 = 2 packets, not
/// ⌊14.5⌋ / 2 = 7.
#[test]
fn ns2_timeout_in_recovery_halves_the_window_without_inflation() {
    let (mss, mut tx, mut rec) = ns2_params_sender(SenderRules::Ns2);
    tx.on_segment(30 * MS, &ack_seg(1 + mss, 65_535), &mut rec); // cwnd 11 segments
    for i in 0..9 {
        tx.on_segment((40 + i) * MS, &ack_seg(1 + mss, 65_535), &mut rec);
    }
    assert!(tx.in_recovery());
    assert_eq!(tx.cwnd_bytes(), 5500 + 9 * mss);
    fire_rto(&mut tx, &mut rec);
    assert_eq!(tx.stats().timeouts, 1);
    assert_eq!(tx.ssthresh_bytes(), 2 * mss);
    assert_eq!(tx.cwnd_bytes(), mss);
}

/// ns-2 stops timing a segment only at a timeout or a fast retransmit
/// (`TcpAgent::reset_rtx_timer`): the segment timed during a recovery, sent after the
/// recovery point, still gives its RTT sample when the recovery ends though a partial
/// ACK retransmitted an earlier one. RFC 6298 §3 (Karn) stops timing at any
/// retransmission.
#[test]
fn ns2_partial_ack_retransmission_keeps_the_timed_segment() {
    for (rules, sampled) in [(SenderRules::Ns2, true), (SenderRules::Rfc6298, false)] {
        let (mss, mut tx, mut rec) = ns2_params_sender(rules);
        tx.on_segment(30 * MS, &ack_seg(1 + mss, 65_535), &mut rec); // cwnd 11 segments
        let samples = tx.stats().rtt_samples;
        // Fast retransmit, then enough duplicates to send new data beyond `recover`.
        for i in 0..12 {
            tx.on_segment((40 + i) * MS, &ack_seg(1 + mss, 65_535), &mut rec);
        }
        let recover = 1 + 12 * mss;
        assert!(
            tx.snd_max() > recover,
            "{rules:?}: new data sent in recovery"
        );
        // A partial ACK: one more segment, and the next hole is retransmitted (then one
        // new segment goes out, which RFC 6298's sender times instead).
        let sent = tx.snd_max();
        tx.on_segment(60 * MS, &ack_seg(1 + 2 * mss, 65_535), &mut rec);
        assert!(tx.in_recovery());
        // The full ACK covers the segments sent in recovery before the partial ACK.
        tx.on_segment(80 * MS, &ack_seg(sent, 65_535), &mut rec);
        assert!(!tx.in_recovery());
        assert_eq!(tx.stats().rtt_samples > samples, sampled, "{rules:?}");
    }
}
