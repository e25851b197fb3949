//! UDP sources: saturated (the source keeps its node's MAC queue full), constant bit rate
//! and Poisson. A source says when its next packet comes; the world creates the packet
//! and hands it to the network layer of the source node.
use crate::sim::rng::Rng;
use crate::sim::time::Time;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
}

pub struct UdpSource {
    pub traffic: Traffic,
    /// UDP payload of every packet.
    pub payload_bytes: u32,
    /// Mean time between packets (CBR: exact), ns.
    interval: f64,
    /// No packet is created from this time on.
    pub stop: Time,
    rng: Rng,
}

impl UdpSource {
    pub fn new(traffic: Traffic, payload_bytes: u32, interval: f64, stop: Time, rng: Rng) -> Self {
        UdpSource {
            traffic,
            payload_bytes,
            interval,
            stop,
            rng,
        }
    }

    /// When the first packet comes after the flow starts at `now` (CBR: at once; Poisson:
    /// an exponential gap); None for a saturated source, which fills its queue instead.
    pub fn first(&mut self, now: Time) -> Option<Time> {
        match self.traffic {
            Traffic::Saturated => None,
            Traffic::Cbr => Some(now),
            Traffic::Poisson => {
                let gap = self.rng.exponential(self.interval).round() as Time;
                Some(now.saturating_add(gap))
            }
        }
    }

    /// A packet comes at `now`: when the next one comes (at least 1 ns later), or None
    /// when the source has stopped (and this packet is not sent).
    pub fn next(&mut self, now: Time) -> Option<Time> {
        if now >= self.stop {
            return None;
        }
        let gap = match self.traffic {
            Traffic::Poisson => self.rng.exponential(self.interval),
            _ => self.interval,
        };
        Some(now.saturating_add(gap.round() as Time).max(now + 1))
    }
}
