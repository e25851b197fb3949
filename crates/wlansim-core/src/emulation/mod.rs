//! Emulation: real Linux hosts (network namespaces, each with a TUN device) as the
//! stations and servers of a simulated cell, in real time (`wlansim emulate`).
//!
//! The simulated world is unchanged: the emulated nodes are external endpoints at its
//! edge (`world/external.rs`). This module is the I/O adapter between that edge and the
//! devices:
//! - a packet read from a node's TUN device is parsed (`headers.rs`), given its flow by
//!   5-tuple (`flows.rs`, opened on the first packet) and injected at the node at the
//!   simulated time it was read; while the MAC queue it would enter is full the device is
//!   not read (a driver's stopped queue: the packets wait in the device's ring, which the
//!   kernel drops from when it is full, counted as the device's `tx_dropped`);
//! - a packet the world delivers to an emulated node is written to its device at its
//!   delivery time, its TCP window rewritten when the AP clamped it;
//! - the loop (`realtime.rs`) runs each event when the wall clock reaches its time,
//!   sleeping until shortly before and spinning the rest. `best-effort` catches up when
//!   late; `hard_limit` stops the run when the loop lags by more.
//!
//! Setting up the namespaces (addresses, routes, sysctls) and running the applications
//! is the Python side's (`python/wlansim/emulation.py`); this side creates the devices
//! in the namespaces it is given.
pub mod flows;
pub mod headers;
#[cfg(target_os = "linux")]
pub mod realtime;
#[cfg(target_os = "linux")]
pub mod tun;

use crate::net::NodeId;
use crate::scenario::{Model, Role, Scenario, ScenarioError};
use crate::sim::time::Time;
use crate::stats::Histogram;
use crate::world::SimError;
use serde::Serialize;
use std::fmt;

/// An emulated node: its name, address and the device it has in its namespace.
#[derive(Clone, Debug, Serialize)]
pub struct EmulatedNode {
    pub id: NodeId,
    pub name: String,
    /// The station or server group.
    pub group: String,
    /// Its index in the group.
    pub index: u32,
    pub role: &'static str,
    pub ip: String,
    pub device: &'static str,
}

/// The nodes `wlansim emulate` makes real hosts, in id order.
pub fn emulated_nodes(s: &Scenario) -> Result<Vec<EmulatedNode>, ScenarioError> {
    crate::scenario::emulation::check_emulable(s)?;
    let e = s.emulation.as_ref().expect("checked");
    let sim = s.emulated();
    let m = Model::resolve(&sim)?;
    let mut out = Vec::new();
    for (id, x) in m.nodes.iter().enumerate() {
        let Some((group, index)) = x.name.rsplit_once('-') else {
            continue;
        };
        let in_group = matches!(x.role, Role::Station | Role::Server)
            && e.groups.iter().any(|g| g.name == group);
        if in_group {
            out.push(EmulatedNode {
                id: id as NodeId,
                name: x.name.clone(),
                group: group.to_string(),
                index: index.parse().expect("members are named GROUP-i"),
                role: x.role.name(),
                ip: crate::trace::pcap::ip_string(id as NodeId),
                device: if x.role == Role::Station {
                    "wlan0"
                } else {
                    "eth0"
                },
            });
        }
    }
    Ok(out)
}

/// Why an emulation stopped without results.
#[derive(Debug)]
pub enum EmulationError {
    Scenario(ScenarioError),
    /// A device, namespace or system call failed.
    Io(String),
    /// `hard_limit`: the loop fell behind the clock by more than the limit.
    HardLimit(String),
    Sim(SimError),
    /// The progress callback asked to stop (Ctrl-C).
    Interrupted,
}

impl fmt::Display for EmulationError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            EmulationError::Scenario(e) => e.fmt(f),
            EmulationError::Io(m) => write!(f, "emulation: {m}"),
            EmulationError::HardLimit(m) => write!(f, "emulation stopped: {m}"),
            EmulationError::Sim(e) => e.fmt(f),
            EmulationError::Interrupted => write!(f, "the emulation was interrupted"),
        }
    }
}

impl From<ScenarioError> for EmulationError {
    fn from(e: ScenarioError) -> Self {
        EmulationError::Scenario(e)
    }
}

/// How well the loop kept to the clock, and what it could not carry.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Realtime {
    /// "best-effort" or "hard-limit".
    pub mode: &'static str,
    pub hard_limit_s: Option<f64>,
    /// Packets written to the devices, and how late (wall clock at the write minus the
    /// simulated delivery time): median, 99th percentile, largest, mean.
    pub packets_out: u64,
    pub lateness_p50_s: Option<f64>,
    pub lateness_p99_s: Option<f64>,
    pub lateness_max_s: Option<f64>,
    pub lateness_mean_s: Option<f64>,
    /// The largest lag of an event (wall clock when it ran minus its time), and when.
    pub max_lag_s: f64,
    pub max_lag_at_s: f64,
    pub events: u64,
    /// Packets read from the devices and injected.
    pub packets_in: u64,
    /// Packets read but not injected: not IPv4 or malformed, to an address no emulated
    /// node has (nothing leaves the emulated network), from an address that is not the
    /// device's node.
    pub dropped_malformed: u64,
    pub dropped_unroutable: u64,
    pub dropped_spoofed: u64,
    /// Writes to a device that failed (the packet is lost).
    pub write_errors: u64,
    /// Times a device stopped being read because its node's MAC queue was full.
    pub flow_control_stops: u64,
    /// TCP windows the AP clamped and the adapter rewrote, and those it could not
    /// (window scale unknown: the handshake was not seen).
    pub windows_rewritten: u64,
    pub windows_unscaled: u64,
    /// Simulated time at which the run ended, and the wall time it took.
    pub stopped_at_s: f64,
    pub wall_s: f64,
}

impl Realtime {
    fn lateness(&mut self, h: &Histogram, max: Time) {
        // A quantile is its bucket's (within 1.6 %): never above the largest value.
        let s = |ns: f64| ns.min(max as f64) / 1e9;
        self.packets_out = h.count();
        self.lateness_p50_s = h.quantile(0.5).map(s);
        self.lateness_p99_s = h.quantile(0.99).map(s);
        self.lateness_mean_s = h.mean().map(s);
        self.lateness_max_s = (h.count() > 0).then(|| max as f64 / 1e9);
    }
}

#[cfg(target_os = "linux")]
mod run;
#[cfg(target_os = "linux")]
pub use run::Emulator;
