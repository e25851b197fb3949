//! The `[[drops]]` list: scripted losses, so that textbook loss patterns can be built
//! (Fall & Floyd 1996: 1 to 4 segments dropped from one window). Each entry drops packets
//! of a flow as they leave a chosen node (`at`: a station or AP for the radio, a router,
//! AP or server for a wired link); the world applies them in its network layer
//! (`world/drops.rs`).
//!
//! ```toml
//! [[drops]]                   # data segments 14, 16 and 18 of flow up-0, first transmissions,
//! flow = "up-0"               # as they leave the router
//! segments = [14, 16, 18]     # the n-th data segment (1-based): payload from byte (n − 1)·MSS
//! transmission = 1            # which transmission of each (1: the first; 2: the first retransmission)
//! at = "router"
//! [[drops]]                   # every packet of every flow of entry `up` (both directions)
//! flow = "up"                 # leaving sta-0 from 2 s to 2.1 s
//! at = "sta-0"
//! from = "2 s"
//! to = "2.1 s"
//! ```
use super::checks::err;
use super::{Duration, Protocol, Scenario, ScenarioError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `[[drops]]` entries of a run at most.
pub const MAX_DROP_ENTRIES: usize = 10_000;
/// Segment numbers of one entry at most.
pub const MAX_DROP_SEGMENTS: usize = 100_000;
/// Segment counters of a run at most (each entry's segments times its flows).
pub const MAX_DROP_COUNTERS: u64 = 10_000_000;

fn first_transmission() -> u32 {
    1
}

/// One scripted loss: given data segments of a TCP flow, or every packet of a flow within
/// a time window, dropped as they leave node `at`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DropConfig {
    /// A flow (`NAME-i`) or a `[[flows]]` entry (`NAME`: each of its flows).
    pub flow: String,
    /// The node whose outgoing packets are dropped (an AP, station `NAME-i`, router or
    /// server `NAME-i` on the flow's path, not its destination).
    pub at: String,
    /// TCP data segments to drop, by number: the n-th data segment of the connection
    /// (1-based, its payload starting at byte (n − 1)·MSS of the stream); 1 to 10⁹.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub segments: Vec<u32>,
    /// Which transmission of each segment through `at` is dropped: 1 = the first, 2 = the
    /// first retransmission, …
    #[serde(default = "first_transmission")]
    #[schemars(range(min = 1))]
    pub transmission: u32,
    /// Start of a time window in which every packet of the flow (data and ACKs) leaving
    /// `at` is dropped (instead of `segments`); with `to`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Duration>,
    /// End of the window (exclusive), after `from`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Duration>,
}

/// The `[[flows]]` entry a drop's `flow` names, and the flow index within it (None: all).
pub fn flow_target(s: &Scenario, name: &str) -> Option<(usize, Option<u32>)> {
    if let Some(k) = s.flows.iter().position(|f| f.name == name) {
        return Some((k, None));
    }
    let (entry, i) = name.rsplit_once('-')?;
    let k = s.flows.iter().position(|f| f.name == entry)?;
    let i: u32 = i.parse().ok()?;
    let count = s
        .stations
        .iter()
        .find(|g| g.name == s.flows[k].stations)?
        .count;
    (i < count && name == format!("{entry}-{i}")).then_some((k, Some(i)))
}

/// Whether `name` is a node of the scenario (AP, router, station or server `NAME-i`).
fn node_exists(s: &Scenario, name: &str) -> bool {
    let member = |group: &str, count: u32| {
        name.strip_prefix(group)
            .and_then(|rest| rest.strip_prefix('-'))
            .and_then(|k| k.parse::<u32>().ok())
            .is_some_and(|k| k < count && name == format!("{group}-{k}"))
    };
    s.aps.iter().any(|a| a.name == name)
        || s.routers.iter().any(|r| r.name == name)
        || s.stations.iter().any(|g| member(&g.name, g.count))
        || s.servers.iter().any(|g| member(&g.name, g.count))
}

/// Each entry names an existing flow and node, and gives either segments (TCP flows only,
/// numbers from 1, a transmission from 1) or a window `from` < `to`, not both.
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    if s.drops.len() > MAX_DROP_ENTRIES {
        return err(
            "drops",
            format!(
                "{} entries: at most {MAX_DROP_ENTRIES} [[drops]] entries",
                s.drops.len()
            ),
        );
    }
    let mut counters: u64 = 0;
    for (i, d) in s.drops.iter().enumerate() {
        let at = |key: &str| format!("drops[{i}].{key}");
        let Some((entry, one)) = flow_target(s, &d.flow) else {
            let names: Vec<String> = s
                .flows
                .iter()
                .map(|f| format!("{0} ({0}-0, …)", f.name))
                .collect();
            return err(
                at("flow"),
                format!(
                    "\"{}\" is not a flow (NAME-i) or a [[flows]] entry (NAME); defined: {}",
                    d.flow,
                    if names.is_empty() {
                        "none".into()
                    } else {
                        names.join(", ")
                    }
                ),
            );
        };
        if !node_exists(s, &d.at) {
            return err(
                at("at"),
                format!(
                    "\"{}\" is not a node; an AP, a router, a station or a server (NAME-i)",
                    d.at
                ),
            );
        }
        let window = d.from.is_some() || d.to.is_some();
        match (d.segments.is_empty(), window) {
            (true, false) => {
                return err(
                    at("segments"),
                    "missing: give `segments = [n, …]` (TCP data segments) or a window `from`, `to`",
                )
            }
            (false, true) => {
                return err(
                    at("segments"),
                    "given with a window (`from`, `to`): an entry drops either segments or a window; use two entries",
                )
            }
            _ => {}
        }
        if window {
            let (Some(from), Some(to)) = (d.from, d.to) else {
                let missing = if d.from.is_none() { "from" } else { "to" };
                return err(at(missing), "missing: a window needs both `from` and `to`");
            };
            if to <= from {
                return err(
                    at("to"),
                    format!("{to}: the window ends after it starts (from = {from})"),
                );
            }
            if d.transmission != 1 {
                return err(
                    at("transmission"),
                    format!(
                        "{}: applies to `segments` only (a window drops every packet in it)",
                        d.transmission
                    ),
                );
            }
            continue;
        }
        if s.flows[entry].protocol != Protocol::Tcp {
            return err(
                at("segments"),
                format!(
                    "flow \"{}\" is UDP: segments are numbered for TCP flows only; use a window (`from`, `to`)",
                    d.flow
                ),
            );
        }
        if d.segments.len() > MAX_DROP_SEGMENTS {
            return err(
                at("segments"),
                format!(
                    "{} numbers: at most {MAX_DROP_SEGMENTS} per entry",
                    d.segments.len()
                ),
            );
        }
        for (k, &n) in d.segments.iter().enumerate() {
            if !(1..=1_000_000_000).contains(&n) {
                return err(
                    format!("drops[{i}].segments[{k}]"),
                    format!("{n}: segments are numbered from 1 (the first data segment) to 10⁹"),
                );
            }
        }
        if d.transmission == 0 {
            return err(
                at("transmission"),
                "0: transmissions are counted from 1 (the first transmission)",
            );
        }
        // One counter per segment and flow, allocated when the run is built.
        let flows = match one {
            Some(_) => 1,
            None => s
                .stations
                .iter()
                .find(|g| g.name == s.flows[entry].stations)
                .map_or(1, |g| g.count as u64),
        };
        counters += d.segments.len() as u64 * flows;
        if counters > MAX_DROP_COUNTERS {
            return err(
                at("segments"),
                format!(
                    "{} numbers for {flows} flow(s): the run would count {counters} segments or more; at most {MAX_DROP_COUNTERS} (segments × flows, all entries)",
                    d.segments.len()
                ),
            );
        }
    }
    Ok(())
}
