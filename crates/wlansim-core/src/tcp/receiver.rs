//! TCP receiver (passive opener, data sink).
//!
//! - Handshake: answers a SYN with a SYN-ACK, and a retransmitted SYN with the SYN-ACK
//!   again (the SYN-ACK is not retransmitted on a timer of its own: the sender's SYN
//!   retransmissions drive it, which keeps the receiver timer-free except for delayed ACK).
//! - Cumulative ACKs; out-of-order data kept as byte ranges in a sorted ring preallocated
//!   for the window (data beyond rcv_nxt + rwnd is discarded, RFC 9293 §3.10.7.4).
//! - Immediate ACK for out-of-order segments, duplicates and segments that fill all or
//!   part of a gap (RFC 5681 §4.2); otherwise generalized delayed ACK (miorandi2004 §2):
//!   every d in-order segments, or when the delayed-ACK timer started by the first
//!   unacknowledged segment fires (RFC 1122 §4.2.3.2); d is `delayed_ack_count`, or grows
//!   with the segments received under the dynamic scheme ([`DelayedAckPolicy`]).
//! - In-order data is consumed by the application at once, so the advertised window is
//!   constant (the configured receive buffer).
//! - SACK (RFC 2018): the receiver always supports it; it answers a SYN offering
//!   SACK-permitted with SACK-permitted, and then puts SACK blocks in every ACK sent while
//!   out-of-order data is held ([`super::sack::SackReporter`]: the block with the segment
//!   that triggered the ACK first, then the most recently reported ones; at most 4 blocks,
//!   3 with timestamps). D-SACK (RFC 2883) is not implemented.
//! - Timestamps: TS.Recent is updated per RFC 7323 §4.3 (only from segments with
//!   SEG.SEQ ≤ Last.ACK.sent), so a delayed ACK echoes the earliest unacknowledged
//!   segment and an ACK for a retransmission that fills a hole echoes the retransmission.

use std::collections::VecDeque;

use super::config::{DelayedAckPolicy, TcpConfig};
use super::sack::{SackOption, SackReporter, MAX_SACK_BLOCKS};
use super::timer::LazyTimer;
use super::{ts_before, ts_clock, Flags, Segment, Seq, TcpOutput, TimerKind};
use crate::sim::time::Time;

/// Receiver counters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReceiverStats {
    /// Segments received (all kinds).
    pub segments_received: u64,
    /// ACKs sent (SYN-ACKs not included).
    pub acks_sent: u64,
    pub syn_acks_sent: u64,
    /// In-order payload bytes delivered to the application.
    pub delivered_bytes: u64,
    /// Data segments that arrived above rcv_nxt (buffered).
    pub out_of_order_segments: u64,
    /// Data segments entirely below rcv_nxt (already received).
    pub duplicate_segments: u64,
    /// Data segments entirely beyond the advertised window (discarded).
    pub out_of_window_segments: u64,
    /// ACKs sent because the delayed-ACK timer expired.
    pub delayed_ack_timeouts: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReceiverState {
    Listen,
    SynReceived,
    Established,
}

/// TCP receiver endpoint. See the module documentation.
#[derive(Debug, Clone)]
pub struct TcpReceiver {
    rwnd: u64,
    policy: DelayedAckPolicy,
    delack_count: u32,
    delack_timeout: Time,
    timestamps: bool,
    state: ReceiverState,
    irs: Seq,
    rcv_nxt: Seq,
    /// Out-of-order byte ranges [start, end), sorted, disjoint and non-adjacent.
    ooo: VecDeque<(Seq, Seq)>,
    /// In-order segments received since the last ACK, and on the connection.
    unacked_segments: u32,
    in_order_segments: u64,
    delack_timer: LazyTimer,
    ts_recent: u32,
    last_ack_sent: Seq,
    /// SACK negotiated, and the blocks reported so far.
    sack: bool,
    sack_reporter: SackReporter,
    stats: ReceiverStats,
}

impl TcpReceiver {
    /// A listening receiver. The config is assumed valid ([`TcpConfig::validate`]).
    pub fn new(cfg: &TcpConfig) -> Self {
        debug_assert!(cfg.validate().is_ok(), "{:?}", cfg.validate());
        let rwnd = cfg.rwnd_bytes();
        // Holes alternate with ranges inside the window: at most one range per two
        // segments in practice; allow one per segment (+2) before the ring ever grows.
        let ranges = (rwnd / cfg.mss.max(1) as u64 + 2).min(1 << 16) as usize;
        TcpReceiver {
            rwnd,
            policy: cfg.delayed_ack_policy,
            delack_count: cfg.delayed_ack_count.max(1),
            delack_timeout: cfg.delayed_ack_timeout,
            timestamps: cfg.timestamps,
            state: ReceiverState::Listen,
            irs: 0,
            rcv_nxt: 0,
            ooo: VecDeque::with_capacity(ranges),
            unacked_segments: 0,
            in_order_segments: 0,
            delack_timer: LazyTimer::new(TimerKind::DelayedAck),
            ts_recent: 0,
            last_ack_sent: 0,
            sack: false,
            sack_reporter: SackReporter::default(),
            stats: ReceiverStats::default(),
        }
    }

    pub fn stats(&self) -> &ReceiverStats {
        &self.stats
    }
    pub fn delivered_bytes(&self) -> u64 {
        self.stats.delivered_bytes
    }
    pub fn state(&self) -> ReceiverState {
        self.state
    }
    /// Next byte expected.
    pub fn rcv_nxt(&self) -> Seq {
        self.rcv_nxt
    }
    /// Bytes held out of order.
    pub fn buffered_out_of_order_bytes(&self) -> u64 {
        self.ooo.iter().map(|&(s, e)| e - s).sum()
    }
    /// Out-of-order ranges currently buffered, [start, end).
    pub fn out_of_order_ranges(&self) -> impl Iterator<Item = (Seq, Seq)> + '_ {
        self.ooo.iter().copied()
    }

    /// A segment from the sender arrives.
    pub fn on_segment(&mut self, now: Time, seg: &Segment, out: &mut impl TcpOutput) {
        self.stats.segments_received += 1;
        if seg.flags.syn() {
            match self.state {
                ReceiverState::Listen => {
                    self.irs = seg.seq;
                    self.rcv_nxt = seg.seq + 1;
                    self.ts_recent = seg.ts_val;
                    self.sack = seg.sack.permitted();
                    self.state = ReceiverState::SynReceived;
                    self.send_syn_ack(now, out);
                }
                _ if seg.seq == self.irs => {
                    // Retransmitted SYN: our SYN-ACK was lost (or is late).
                    self.ts_recent = seg.ts_val;
                    self.send_syn_ack(now, out);
                }
                _ => {}
            }
            return;
        }
        match self.state {
            ReceiverState::Listen => return, // no connection (a real stack would RST)
            ReceiverState::SynReceived => {
                if seg.flags.ack() && seg.ack == 1 {
                    self.state = ReceiverState::Established; // ACK of our SYN (ISS 0)
                } else {
                    return;
                }
            }
            ReceiverState::Established => {}
        }
        if seg.len > 0 {
            self.on_data(now, seg, out);
        }
    }

    /// A timer armed through [`TcpOutput::arm_timer`] fires.
    pub fn on_timer(
        &mut self,
        now: Time,
        kind: TimerKind,
        generation: u32,
        out: &mut impl TcpOutput,
    ) {
        if kind != TimerKind::DelayedAck || !self.delack_timer.fire(now, generation, out) {
            return;
        }
        if self.unacked_segments > 0 {
            self.stats.delayed_ack_timeouts += 1;
            self.send_ack(now, None, out);
        }
    }

    fn on_data(&mut self, now: Time, seg: &Segment, out: &mut impl TcpOutput) {
        let start = seg.seq;
        let end = seg.seq + seg.len as Seq;
        // RFC 7323 §4.3 (1): update TS.Recent from segments that start at or before the
        // last ACK sent (and are not older than it).
        if self.timestamps && start <= self.last_ack_sent && !ts_before(seg.ts_val, self.ts_recent)
        {
            self.ts_recent = seg.ts_val;
        }
        if end <= self.rcv_nxt {
            self.stats.duplicate_segments += 1;
            self.send_ack(now, None, out);
            return;
        }
        let wnd_end = self.rcv_nxt + self.rwnd;
        if start >= wnd_end {
            self.stats.out_of_window_segments += 1;
            self.send_ack(now, None, out);
            return;
        }
        let end = end.min(wnd_end);
        if start > self.rcv_nxt {
            self.stats.out_of_order_segments += 1;
            self.insert_range(start, end);
            self.send_ack(now, Some(start), out); // RFC 5681 §4.2: immediate duplicate ACK
            return;
        }
        // In order (possibly overlapping already received data).
        let filled_gap = !self.ooo.is_empty();
        let old = self.rcv_nxt;
        self.rcv_nxt = end;
        while let Some(&(s, e)) = self.ooo.front() {
            if s > self.rcv_nxt {
                break;
            }
            self.rcv_nxt = self.rcv_nxt.max(e);
            self.ooo.pop_front();
        }
        self.stats.delivered_bytes += self.rcv_nxt - old;
        if filled_gap {
            self.send_ack(now, None, out); // RFC 5681 §4.2: segment fills (part of) a gap
            return;
        }
        self.unacked_segments += 1;
        self.in_order_segments += 1;
        let d = self
            .policy
            .segments_per_ack(self.in_order_segments, self.delack_count);
        if self.unacked_segments >= d {
            self.send_ack(now, None, out);
        } else if !self.delack_timer.is_running() {
            self.delack_timer.set(now + self.delack_timeout, out);
        }
    }

    /// Insert [s, e) into the sorted out-of-order ranges, merging overlaps and neighbours.
    fn insert_range(&mut self, s: Seq, e: Seq) {
        let i = self.ooo.partition_point(|&(_, re)| re < s);
        let (mut ns, mut ne) = (s, e);
        while i < self.ooo.len() && self.ooo[i].0 <= ne {
            let (rs, re) = self.ooo[i];
            ns = ns.min(rs);
            ne = ne.max(re);
            self.ooo.remove(i);
        }
        self.ooo.insert(i, (ns, ne));
    }

    /// An ACK; `trigger`: start of the out-of-order segment that caused it (the first SACK
    /// block's).
    fn send_ack(&mut self, now: Time, trigger: Option<Seq>, out: &mut impl TcpOutput) {
        let sack = if self.sack && !self.ooo.is_empty() {
            let max = MAX_SACK_BLOCKS - self.timestamps as usize;
            self.sack_reporter
                .build(self.rcv_nxt, &self.ooo, trigger, max)
        } else {
            SackOption::default()
        };
        let seg = Segment {
            seq: 1,
            ack: self.rcv_nxt,
            len: 0,
            flags: Flags::ACK,
            rwnd: self.advertised_window(),
            ts_val: if self.timestamps { ts_clock(now) } else { 0 },
            ts_ecr: if self.timestamps { self.ts_recent } else { 0 },
            sack,
        };
        out.send(seg);
        self.last_ack_sent = self.rcv_nxt;
        self.stats.acks_sent += 1;
        self.unacked_segments = 0;
        self.delack_timer.cancel();
    }

    fn send_syn_ack(&mut self, now: Time, out: &mut impl TcpOutput) {
        let seg = Segment {
            seq: 0,
            ack: self.rcv_nxt,
            len: 0,
            flags: Flags::SYN_ACK,
            rwnd: self.advertised_window(),
            ts_val: if self.timestamps { ts_clock(now) } else { 0 },
            ts_ecr: if self.timestamps { self.ts_recent } else { 0 },
            sack: if self.sack {
                SackOption::PERMITTED
            } else {
                SackOption::default()
            },
        };
        out.send(seg);
        self.last_ack_sent = self.rcv_nxt;
        self.stats.syn_acks_sent += 1;
    }

    fn advertised_window(&self) -> u32 {
        self.rwnd.min(u32::MAX as u64) as u32
    }
}
