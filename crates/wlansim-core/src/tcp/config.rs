//! TCP endpoint configuration: the standards profile (`Default`) and ns-2's defaults
//! (`TcpConfig::ns2_compat`), with validation whose messages name field, value and what is
//! allowed (DESIGN.md, engine rules).

use super::cubic::CubicParams;
use super::variant::Variant;
use super::vegas::VegasParams;
use crate::sim::time::{Time, MS, SECOND};

/// A window size given either in bytes or in segments of `mss` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    Bytes(u64),
    Segments(u64),
}

impl Window {
    /// The window in bytes for segments of `mss` payload bytes (saturating).
    pub fn bytes(self, mss: u32) -> u64 {
        match self {
            Window::Bytes(b) => b,
            Window::Segments(n) => n.saturating_mul(mss as u64),
        }
    }
}

/// The initial slow-start threshold (`tcp.initial_ssthresh`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InitialSsthresh {
    /// Arbitrarily high (RFC 5681 §3.1: "may be arbitrarily high").
    Unlimited,
    /// The advertised window `rwnd`, as ns-2.35 starts it: `TcpAgent::reset` (`tcp/tcp.cc`)
    /// sets `ssthresh_ = int(wnd_)`, the agent's `window_`.
    Rwnd,
    /// A fixed value.
    Window(Window),
}

/// When the receiver sends ACKs for in-order data. Out-of-order segments, duplicates and
/// segments filling a hole are always ACKed at once (RFC 5681 §4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DelayedAckPolicy {
    /// Generalized delayed ACK (miorandi2004 §2): ACK every `delayed_ack_count` in-order
    /// segments, or when the delayed-ACK timer (`delayed_ack_timeout`, started by the first
    /// unacknowledged segment) fires. `delayed_ack_count = 1` ACKs every segment.
    Fixed,
    /// Dynamic delayed ACK (Altman & Jiménez, "Novel delayed ACK techniques for improving
    /// TCP performance in multihop wireless networks", PWC 2003): d grows with the
    /// number N of in-order data segments received on the connection: d = 1 for
    /// N < l1, 2 for N < l2, 3 for N < l3, then 4 (thresholds `[l1, l2, l3]`); the timer
    /// works as for `Fixed`.
    Dynamic { thresholds: [u64; 3] },
}

impl DelayedAckPolicy {
    /// Default thresholds of the dynamic scheme, l1 = 2, l2 = 5, l3 = 9 segments: the
    /// values Altman & Jiménez (PWC 2003) simulate, as summarised by later work (Chen
    /// et al., Ad Hoc Networks 6 (2008)); not checked against the PWC text itself.
    pub const DYNAMIC_THRESHOLDS: [u64; 3] = [2, 5, 9];

    /// Segments per ACK when the `n`-th in-order data segment (from 1) arrives;
    /// `fixed`: the count of the fixed rule.
    #[inline]
    pub fn segments_per_ack(&self, n: u64, fixed: u32) -> u32 {
        match *self {
            DelayedAckPolicy::Fixed => fixed,
            DelayedAckPolicy::Dynamic { thresholds } => {
                1 + thresholds.iter().filter(|&&l| n >= l).count() as u32
            }
        }
    }
}

/// Which retransmission-timer and loss-recovery rules the sender follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SenderRules {
    /// The RFCs: RFC 6298's estimator (`tcp/rto.rs`), a fast retransmit leaves the running
    /// timer alone, RFC 5681/6582 recovery from the flight size.
    #[default]
    Rfc6298,
    /// ns-2.35's: its tick arithmetic, minrto_ before the backoff, the backoff cap
    /// (`tcp/ns2_rto.rs`, from `tcp/tcp.cc`), a fast retransmit restarts the timer
    /// (`tcp/sender.rs` `on_dupack`, from `tcp/tcp-newreno.cc` `dupack_action`), and
    /// ssthresh and cwnd after a loss from the window, with ns-2's window deflation and
    /// recovery exit (`tcp/ns2_window.rs`).
    Ns2,
}

/// Largest window the model accepts: 2^30 bytes, the RFC 7323 §2.3 window-scale limit.
pub const MAX_WINDOW_BYTES: u64 = 1 << 30;

/// Configuration shared by a sender and its receiver.
#[derive(Debug, Clone, PartialEq)]
pub struct TcpConfig {
    /// Congestion-control variant.
    pub variant: Variant,
    /// Maximum segment size: payload bytes per full segment (SMSS = RMSS).
    pub mss: u32,
    /// Receive window the receiver advertises (its buffer; data is consumed at once, so
    /// the advertised window is constant). The sender uses the latest value it received.
    pub rwnd: Window,
    /// Initial congestion window in segments; `None` = RFC 3390 / RFC 5681 §3.1:
    /// min(4·MSS, max(2·MSS, 4380 bytes)).
    pub initial_window: Option<u32>,
    /// Initial slow-start threshold.
    pub initial_ssthresh: InitialSsthresh,
    /// Duplicate ACKs that trigger fast retransmit (RFC 5681 §3.2: 3).
    pub dupack_threshold: u32,
    /// RFC 3042 limited transmit: one new segment for each of the first two duplicate ACKs
    /// (RFC 5681 §3.2 says SHOULD).
    pub limited_transmit: bool,
    /// Appropriate byte counting (RFC 3465, L = 2 SMSS) instead of the RFC 5681 per-ACK
    /// increments (slow start: +min(acked, SMSS) per ACK; congestion avoidance:
    /// +SMSS·SMSS/cwnd per ACK, eq. 3).
    pub byte_counting: bool,
    /// RTO before any RTT sample (RFC 6298 §2.1: 1 s).
    pub initial_rto: Time,
    /// Lower bound of the RTO (RFC 6298 §2.4: 1 s; many stacks and ns-2 use 200 ms).
    pub min_rto: Time,
    /// Upper bound of the RTO (RFC 6298 §2.5: at least 60 s).
    pub max_rto: Time,
    /// Clock granularity G (RFC 6298 §2): RTO = SRTT + max(G, 4·RTTVAR); RTT samples are
    /// rounded to the nearest multiple of G (at least one tick), as a tick-based clock
    /// measures them. 0 = exact clock.
    pub clock_granularity: Time,
    /// RFC 7323 timestamps option (both ends; RTTM and Eifel detection).
    pub timestamps: bool,
    /// Eifel response (RFC 3522 §2 / RFC 4015 simplified): when a timeout is detected as
    /// spurious, restore cwnd and ssthresh and resume with new data. Needs timestamps.
    /// Detection and counting happen whenever timestamps are on.
    pub eifel_response: bool,
    /// Receiver ACK policy.
    pub delayed_ack_policy: DelayedAckPolicy,
    /// d: ACK every d in-order segments (1 = every segment, RFC 1122/5681: 2).
    pub delayed_ack_count: u32,
    /// Delayed-ACK timeout τ (RFC 1122 §4.2.3.2 / RFC 5681 §4.2: must be < 500 ms; 200 ms
    /// is the classic BSD value).
    pub delayed_ack_timeout: Time,
    /// Vegas thresholds α, β, γ (used by the Vegas variants).
    pub vegas: VegasParams,
    /// CUBIC's C, β_cubic, fast convergence (used by the CUBIC variants).
    pub cubic: CubicParams,
    /// HyStart++ (RFC 9406) in the initial slow start of the AIMD and CUBIC variants.
    /// Needs timestamps (an RTT sample per ACK).
    pub hystart: bool,
    /// Retransmission-timer rules (RFC 6298, or ns-2's).
    pub sender_rules: SenderRules,
}

impl Default for TcpConfig {
    /// Standards profile: NewReno (RFC 6582), MSS 1460 (Ethernet path), rwnd 65535 bytes (no
    /// window scaling), IW per RFC 3390, dupthresh 3, limited transmit, RFC 6298 timers
    /// (initial 1 s, min 1 s, max 60 s, G = 1 ms), no timestamps, delayed ACK d = 2 with a
    /// 200 ms timer.
    fn default() -> Self {
        TcpConfig {
            variant: Variant::NewReno,
            mss: 1460,
            rwnd: Window::Bytes(65_535),
            initial_window: None,
            initial_ssthresh: InitialSsthresh::Unlimited,
            dupack_threshold: 3,
            limited_transmit: true,
            byte_counting: false,
            initial_rto: SECOND,
            min_rto: SECOND,
            max_rto: 60 * SECOND,
            clock_granularity: MS,
            timestamps: false,
            eifel_response: false,
            delayed_ack_policy: DelayedAckPolicy::Fixed,
            delayed_ack_count: 2,
            delayed_ack_timeout: 200 * MS,
            vegas: VegasParams::default(),
            cubic: CubicParams::default(),
            hystart: false,
            sender_rules: SenderRules::Rfc6298,
        }
    }
}

impl TcpConfig {
    /// ns-2 (2.35) defaults, as used by the seed studies' simulations. Values from
    /// `tcl/lib/ns-default.tcl` of ns-2.35:
    /// `Agent/TCP set packetSize_ 1000` (payload bytes → mss),
    /// `window_ 20` (packets → rwnd), `windowInit_ 2`, `numdupacks_ 3`,
    /// `singledup_ 1` (limited transmit), `tcpTick_ 0.01` (G = 10 ms),
    /// `rtxcur_init_ 3.0` (initial RTO 3 s), `minrto_ 0.2`, `maxrto_ 60`,
    /// `timestamps_ false`; `Agent/TCPSink` ACKs every packet (d = 1);
    /// `Agent/TCPSink/DelAck set interval_ 100ms` (τ; used when d > 1 is chosen).
    /// The variant is left at the default (NewReno): ns-2 selects it by agent class
    /// (Agent/TCP = Tahoe, /Reno, /Newreno), so scenarios set it explicitly.
    ///
    /// The initial ssthresh is the window ([`InitialSsthresh::Rwnd`]): `TcpAgent::reset`
    /// (`tcp/tcp.cc`) sets `ssthresh_ = int(wnd_)`. It runs when the agent is created
    /// (tclcl's `TclClass::create_shadow` → `TcpAgent::delay_bind_init_all` → `reset()`,
    /// with `window_` as the class default of the moment, `Agent/TCP set window_ W`), and
    /// again at `$ns run` for agents on wired nodes (`Node instproc reset` in
    /// `tcl/lib/ns-node.tcl`); `Node/MobileNode instproc reset` (`ns-mobilenode.tcl`)
    /// does not reset its agents. So a window set per agent (`$tcp set window_ W`) after
    /// `new` on a wireless node leaves ssthresh_ at the class default (20): measured with
    /// ns-2.35, window 42 set so gives ssthresh_ 20, `Agent/TCP set window_ 64` before
    /// `new` gives 64. Such a script is matched with `initial_ssthresh = 20`.
    pub fn ns2_compat() -> Self {
        TcpConfig {
            mss: 1000,
            rwnd: Window::Segments(20),
            initial_window: Some(2),
            initial_ssthresh: InitialSsthresh::Rwnd,
            dupack_threshold: 3,
            limited_transmit: true,
            byte_counting: false,
            initial_rto: 3 * SECOND,
            min_rto: 200 * MS,
            max_rto: 60 * SECOND,
            clock_granularity: 10 * MS,
            timestamps: false,
            eifel_response: false,
            delayed_ack_count: 1,
            delayed_ack_timeout: 100 * MS,
            ..TcpConfig::default()
        }
    }

    /// ns-2.35 as the seed studies ran it: its defaults ([`TcpConfig::ns2_compat`]) and its
    /// retransmission-timer behaviour ([`SenderRules::Ns2`]). ns-2's one-way agents put a
    /// 40-byte TCP/IP header on every packet and send 40-byte ACKs
    /// (`Agent/TCP set tcpip_base_hdr_size_ 40`), as [`super::header_bytes`] does without
    /// timestamps.
    pub fn ns2() -> Self {
        TcpConfig {
            sender_rules: SenderRules::Ns2,
            ..TcpConfig::ns2_compat()
        }
    }

    /// Builder helper: the advertised window in segments of `mss`.
    pub fn with_rwnd_segments(mut self, segments: u64) -> Self {
        self.rwnd = Window::Segments(segments);
        self
    }

    /// Builder helper: the advertised window in bytes.
    pub fn with_rwnd_bytes(mut self, bytes: u64) -> Self {
        self.rwnd = Window::Bytes(bytes);
        self
    }

    /// Advertised receive window in bytes.
    pub fn rwnd_bytes(&self) -> u64 {
        self.rwnd.bytes(self.mss)
    }

    /// Initial congestion window in bytes (RFC 5681 §3.1 / RFC 3390 when not configured).
    pub fn initial_window_bytes(&self) -> u64 {
        let mss = self.mss as u64;
        match self.initial_window {
            Some(n) => n as u64 * mss,
            None => (4 * mss).min((2 * mss).max(4380)),
        }
    }

    /// Initial ssthresh in bytes (`u64::MAX` = unlimited).
    pub fn initial_ssthresh_bytes(&self) -> u64 {
        match self.initial_ssthresh {
            InitialSsthresh::Window(w) => w.bytes(self.mss),
            InitialSsthresh::Rwnd => self.rwnd_bytes(),
            InitialSsthresh::Unlimited => u64::MAX,
        }
    }

    /// Check every field; the message names the field, its value and what is allowed.
    pub fn validate(&self) -> Result<(), String> {
        if self.mss == 0 || self.mss > 65_495 {
            return Err(format!(
                "tcp.mss = {}: must be between 1 and 65495 bytes (65535 - 40 header bytes)",
                self.mss
            ));
        }
        let rwnd = self.rwnd_bytes();
        if rwnd == 0 || rwnd > MAX_WINDOW_BYTES {
            return Err(format!(
                "tcp.rwnd = {:?} ({} bytes with mss {}): must be between 1 byte and {} bytes",
                self.rwnd, rwnd, self.mss, MAX_WINDOW_BYTES
            ));
        }
        if let Some(iw) = self.initial_window {
            if iw == 0 || iw as u64 * self.mss as u64 > MAX_WINDOW_BYTES {
                return Err(format!(
                    "tcp.initial_window = {iw} segments: must be at least 1 segment and at most {} bytes",
                    MAX_WINDOW_BYTES
                ));
            }
        }
        if let InitialSsthresh::Window(w) = self.initial_ssthresh {
            let bytes = w.bytes(self.mss);
            if bytes < 2 * self.mss as u64 || bytes > MAX_WINDOW_BYTES {
                return Err(format!(
                    "tcp.initial_ssthresh = {w:?} ({bytes} bytes with mss {}): must be at least \
                     2 segments ({} bytes) and at most {MAX_WINDOW_BYTES} bytes; or \"rwnd\" \
                     or \"unlimited\"",
                    self.mss,
                    2 * self.mss
                ));
            }
        }
        if let DelayedAckPolicy::Dynamic {
            thresholds: [l1, l2, l3],
        } = self.delayed_ack_policy
        {
            if !(1 <= l1 && l1 <= l2 && l2 <= l3) {
                return Err(format!(
                    "tcp.dynamic_delayed_ack_thresholds = [{l1}, {l2}, {l3}]: must be non-decreasing segment counts ≥ 1 (Altman & Jiménez: [2, 5, 9])"
                ));
            }
        }
        if self.dupack_threshold == 0 {
            return Err("tcp.dupack_threshold = 0: must be at least 1 (standard: 3)".into());
        }
        if self.max_rto == 0 {
            return Err("tcp.max_rto = 0 ns: must be positive (RFC 6298: at least 60 s)".into());
        }
        if self.min_rto > self.max_rto {
            return Err(format!(
                "tcp.min_rto = {} ns: must not exceed tcp.max_rto = {} ns",
                self.min_rto, self.max_rto
            ));
        }
        if self.initial_rto == 0 || self.initial_rto > self.max_rto {
            return Err(format!(
                "tcp.initial_rto = {} ns: must be positive and at most tcp.max_rto = {} ns",
                self.initial_rto, self.max_rto
            ));
        }
        if self.eifel_response && !self.timestamps {
            return Err(
                "tcp.eifel_response = true: requires tcp.timestamps = true (Eifel detects \
                 spurious timeouts with the timestamps option)"
                    .into(),
            );
        }
        if self.delayed_ack_count == 0 {
            return Err(
                "tcp.delayed_ack_count = 0: must be at least 1 (1 = ACK every segment)".into(),
            );
        }
        if self.delayed_ack_timeout == 0 {
            return Err(
                "tcp.delayed_ack_timeout = 0 ns: must be positive (RFC 5681: below 500 ms)".into(),
            );
        }
        if self.hystart && !self.timestamps {
            return Err(
                "tcp.hystart = true: requires tcp.timestamps = true (HyStart++ needs \
                 an RTT sample per ACK, RFC 9406 §4.2)"
                    .into(),
            );
        }
        if self.hystart && self.variant.growth() == super::variant::Growth::Vegas {
            return Err(format!(
                "tcp.hystart = true: not with tcp.variant = {:?} (Vegas has its own \
                 slow-start exit); allowed with the AIMD and CUBIC variants",
                self.variant
            ));
        }
        self.vegas.validate()?;
        self.cubic.validate()
    }
}
