//! TCP endpoint state machines (DESIGN.md, "TCP"): a bulk-data sender (active opener) and a
//! receiver/sink (passive opener), driven entirely by the caller.
//!
//! The endpoints own no clock and no event queue. The simulator calls
//! [`TcpSender::on_segment`] / [`TcpReceiver::on_segment`] when a segment arrives,
//! `on_timer` when a timer it was asked to arm expires, and implements [`TcpOutput`] to take
//! the segments and timer requests the endpoints produce. All state is preallocated at
//! construction; no per-segment allocation happens on the hot paths.
//!
//! Sequence space: 64-bit byte sequence numbers without wrap-around. Both sides use an
//! initial sequence number (ISS) of 0; the SYN consumes sequence number 0, so the first data
//! byte is sequence number 1 and `delivered_bytes = rcv_nxt - 1`.
//!
//! Wiring (for the event loop): create a [`TcpSender`] and a [`TcpReceiver`] from the
//! same validated [`TcpConfig`]; call `open(now)` on the sender; deliver each segment the
//! other side sent to `on_segment(now, &seg)`; for every `arm_timer(kind, at, generation)`
//! schedule an event at `at` that calls `on_timer(now, kind, generation)` on the endpoint
//! that asked (the sender only uses `Retransmit`, the receiver only `DelayedAck`). Timers
//! are never cancelled: superseded callbacks are recognised and ignored. On the wire a
//! segment takes `seg.len + header_bytes(cfg) + seg.sack.wire_bytes()` bytes (the SACK
//! options vary from segment to segment).
//!
//! Layout:
//! - [`config`]: [`TcpConfig`] (standards profile by `Default`, `ns2_compat()`), validation.
//! - [`rto`]: RFC 6298 retransmission-timeout estimator; `ns2_rto`: ns-2.35's arithmetic.
//! - `ns2_window`: ns-2.35's window arithmetic on loss (the `ns2` profile's recovery).
//! - [`cc`]: congestion control: a [`Variant`] is a window-growth rule (AIMD, [`vegas`],
//!   [`cubic`]) and a loss-recovery rule (Tahoe, Reno, NewReno, [`sack`]).
//! - `hystart`: HyStart++ (RFC 9406), optional slow-start exit for AIMD and CUBIC.
//! - [`sack`]: SACK options, the receiver's blocks, the sender's RFC 6675 scoreboard.
//! - [`sender`], [`receiver`]: the endpoints.
//! - `timer`: lazily re-armed one-shot timers (keeps the simulator's event queue small).

mod ack_info;
pub mod cc;
pub mod config;
pub mod cubic;
mod hystart;
mod ns2_rto;
mod ns2_window;
pub mod receiver;
pub mod rto;
pub mod sack;
pub mod sender;
mod timer;
pub mod variant;
pub mod vegas;

#[cfg(test)]
mod tests;

pub use config::{DelayedAckPolicy, InitialSsthresh, SenderRules, TcpConfig, Window};
pub use cubic::CubicParams;
pub use receiver::{ReceiverStats, TcpReceiver};
pub use sack::SackOption;
pub use sender::{SenderState, SenderStats, TcpSender};
pub use variant::Variant;
pub use vegas::VegasParams;

use crate::sim::time::Time;

/// Byte sequence number (64 bits, no wrap-around).
pub type Seq = u64;

/// TCP header flags that the model uses (a bit set: SYN, ACK, FIN).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Flags(pub u8);

impl Flags {
    pub const NONE: Flags = Flags(0);
    pub const FIN: Flags = Flags(0x01);
    pub const SYN: Flags = Flags(0x02);
    pub const ACK: Flags = Flags(0x10);
    pub const SYN_ACK: Flags = Flags(0x12);

    pub fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }
    pub fn syn(self) -> bool {
        self.contains(Flags::SYN)
    }
    pub fn ack(self) -> bool {
        self.contains(Flags::ACK)
    }
    pub fn fin(self) -> bool {
        self.contains(Flags::FIN)
    }
}

impl std::ops::BitOr for Flags {
    type Output = Flags;
    fn bitor(self, rhs: Flags) -> Flags {
        Flags(self.0 | rhs.0)
    }
}

/// A TCP segment as the endpoints see it. Sizes on the wire are the integrator's business:
/// `len` payload bytes plus [`header_bytes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Segment {
    /// Sequence number of the first byte (or of the SYN).
    pub seq: Seq,
    /// Cumulative acknowledgment: next byte expected (valid when `flags` has ACK).
    pub ack: Seq,
    /// Payload bytes.
    pub len: u32,
    pub flags: Flags,
    /// Advertised receive window in bytes (the AP may rewrite it, pilosof2003).
    pub rwnd: u32,
    /// RFC 7323 timestamp value (sender's clock, in ms ticks); meaningful only if enabled.
    pub ts_val: u32,
    /// RFC 7323 timestamp echo reply.
    pub ts_ecr: u32,
    /// SACK-permitted and SACK blocks (RFC 2018); empty unless the variant uses SACK.
    pub sack: SackOption,
}

impl Segment {
    /// One past the last sequence number this segment occupies (SYN and FIN count as one).
    pub fn end(&self) -> Seq {
        self.seq + self.len as Seq + self.flags.syn() as Seq + self.flags.fin() as Seq
    }
}

/// The timers an endpoint may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimerKind {
    /// Retransmission timer (RFC 6298), sender only.
    Retransmit,
    /// Delayed-ACK timer (RFC 1122 §4.2.3.2, RFC 5681 §4.2), receiver only.
    DelayedAck,
}

/// Implemented by the simulator: where endpoints put their output.
pub trait TcpOutput {
    /// Hand a segment to IP now.
    fn send(&mut self, seg: Segment);
    /// (Re)arm timer `kind` to fire at `at`; the simulator then calls
    /// `on_timer(kind, generation)`. A later `arm_timer` of the same kind supersedes earlier
    /// ones (their callbacks carry stale generations and are ignored by the endpoint, so the
    /// simulator does not need to cancel them). Endpoints never ask to cancel a timer.
    fn arm_timer(&mut self, kind: TimerKind, at: Time, generation: u32);
}

/// IP (20) + TCP (20) header bytes per segment, plus the 12-byte timestamps option
/// (10 bytes + 2 NOP padding, RFC 7323 Appendix A) when enabled.
pub fn header_bytes(cfg: &TcpConfig) -> u32 {
    40 + if cfg.timestamps { 12 } else { 0 }
}

/// RFC 7323 timestamp clock: 1 ms ticks of simulated time (§5.4 allows 1 ms..1 s).
pub(crate) const TS_TICK: Time = crate::sim::time::MS;

pub(crate) fn ts_clock(now: Time) -> u32 {
    (now / TS_TICK) as u32
}

/// `a` is earlier than `b` in timestamp space (RFC 7323 §5.2 modular comparison).
pub(crate) fn ts_before(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) < 0
}
