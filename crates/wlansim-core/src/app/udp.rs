//! UDP sources: saturated (the source keeps its node's MAC queue full), constant bit rate,
//! Poisson, game (`game.rs`) and trace-driven video (`trace_source.rs`). A source says
//! when its next message comes and how large it is; the world cuts it into packets
//! (`world/traffic.rs` `on_arrival`) and hands them to the network layer of the source
//! node.
use super::{GameSource, TraceSource};
use crate::sim::rng::Rng;
use crate::sim::time::Time;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The largest message of a game or frame of a video trace: 16 MiB (a video frame is at
/// most a few hundred kB, a game message a few hundred bytes). A drawn size above it is
/// cut to it; a trace frame above it is refused.
pub const MAX_MESSAGE_BYTES: u32 = 16 << 20;

/// Packets of one message sent in one event: a larger message goes on in further events
/// at the same time, so that the work of one event stays bounded (and a run checks for
/// Ctrl-C in time however large the messages).
pub const PACKETS_PER_EVENT: u32 = 256;

/// When a UDP source sends (`flows.traffic`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Traffic {
    /// The source keeps its node's queue full.
    Saturated,
    /// Constant bit rate: one packet every packet_size / rate.
    Cbr,
    /// Poisson arrivals of mean rate `rate`.
    Poisson,
    /// One direction of a game: a message of `game.size` every `game.interval`.
    Game,
    /// Frames of a video trace (`trace`), fragmented at `packet_size`.
    Trace,
}

/// What spaces and sizes a source's messages.
pub enum Pattern {
    /// Packets of the flow's `packet_size` whenever its node's queue has room (no timer).
    Saturated,
    /// Packets of the flow's `packet_size` every `interval` ns.
    Cbr {
        interval: f64,
    },
    /// Packets of the flow's `packet_size` with exponential gaps of mean `mean` ns.
    Poisson {
        mean: f64,
    },
    Game(GameSource),
    Trace(TraceSource),
}

/// A UDP source: when its messages come and how large they are. A message larger than
/// the flow's `packet_size` is sent as several packets at once (a video frame's IP
/// fragments; the last one carries the rest).
pub struct UdpSource {
    /// UDP payload of a full packet (the largest fragment of a message).
    pub payload_bytes: u32,
    pattern: Pattern,
    /// No packet is created from this time on.
    pub stop: Time,
    rng: Rng,
    /// Bytes of the current message not yet cut into packets.
    rest: u64,
}

impl UdpSource {
    pub fn new(payload_bytes: u32, pattern: Pattern, stop: Time, rng: Rng) -> Self {
        UdpSource {
            payload_bytes,
            pattern,
            stop,
            rng,
            rest: 0,
        }
    }

    /// When the first message comes after the flow starts at `now` (Poisson: after an
    /// exponential gap; the others at once); None for a saturated source, which fills its
    /// queue instead.
    pub fn first(&mut self, now: Time) -> Option<Time> {
        match &self.pattern {
            Pattern::Saturated => None,
            Pattern::Poisson { mean } => {
                let gap = self.rng.exponential(*mean).round() as Time;
                Some(now.saturating_add(gap))
            }
            _ => Some(now),
        }
    }

    /// A message comes at `now`: its size in bytes and when the next one comes (at
    /// least 1 ns later), or None when the source has stopped (and nothing is sent) or
    /// is saturated (it has no timer).
    pub fn next(&mut self, now: Time) -> Option<(u32, Time)> {
        if now >= self.stop {
            return None;
        }
        let (bytes, gap) = match &mut self.pattern {
            Pattern::Saturated => return None,
            Pattern::Cbr { interval } => (self.payload_bytes, interval.round() as Time),
            Pattern::Poisson { mean } => {
                let gap = self.rng.exponential(*mean);
                (self.payload_bytes, gap.round() as Time)
            }
            Pattern::Game(g) => g.next(&mut self.rng),
            Pattern::Trace(t) => t.next_frame(),
        };
        Some((bytes, now.saturating_add(gap).max(now + 1)))
    }

    /// Cut `bytes` (a message [`next`](Self::next) gave) into packets: see
    /// [`fragment`](Self::fragment).
    pub fn start_message(&mut self, bytes: u32) {
        self.rest = bytes as u64;
    }

    /// The payload of the current message's next packet: `payload_bytes`, the last one
    /// the rest; None when the message is sent.
    pub fn fragment(&mut self) -> Option<u32> {
        let payload = self.rest.min(self.payload_bytes as u64) as u32;
        self.rest -= payload as u64;
        (payload > 0).then_some(payload)
    }

    /// Whether the current message still has bytes to send.
    pub fn in_message(&self) -> bool {
        self.rest > 0
    }
}
