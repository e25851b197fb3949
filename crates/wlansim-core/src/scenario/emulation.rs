//! `[emulation]`: which station and server groups are real hosts when the scenario runs
//! under `wlansim emulate` (each node a Linux network namespace with a TUN device,
//! `crate::emulation`), what runs in them, and the real-time loop's limits. `wlansim run`
//! ignores the table. Under emulation, the `[[flows]]` entries that touch an emulated
//! group are left out: the groups' commands make that traffic (`Scenario::emulated`).
use super::{Duration, Scenario, ScenarioError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

fn default_spin() -> Duration {
    // The loop sleeps until this long before its next deadline, then spins: measured on a
    // 2-core VM, a timerfd wake-up is late by 50-250 µs.
    Duration(300 * crate::sim::time::US)
}

fn default_true() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EmulationConfig {
    /// Stop the run with an error as soon as the loop lags the clock by more than this
    /// (`hard-limit` mode); absent: `best-effort` (the loop catches up and reports its
    /// lateness). At least 100 µs, at most 10 s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hard_limit: Option<Duration>,
    /// The loop sleeps until this long before its next deadline and spins the rest;
    /// 0 to 10 ms.
    #[serde(default = "default_spin")]
    pub spin: Duration,
    /// The emulated groups (at least one): each node of each becomes a namespace.
    pub groups: Vec<EmulatedGroup>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EmulatedGroup {
    /// A station or server group of the scenario.
    pub name: String,
    /// Shell command run in each node's namespace (`sh -c`); placeholders: `{ip}`,
    /// `{node}`, `{i}` (the node's index in its group), `{GROUP.ip}` and `{GROUP.node}`
    /// (member i mod count of another emulated group), `{port}` (5201 + i), `{out}` (the
    /// node's output file prefix), `{cc}` (`congestion_control`), `{python}` (the Python
    /// running wlansim, for `{python} -m wlansim.bulk`). None: the node only answers
    /// (e.g. to ping).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Start the command this long after the run starts.
    #[serde(default)]
    pub start: Duration,
    /// The run ends when every command of the groups with `wait` has exited (or at
    /// `duration`); other commands are stopped then.
    #[serde(default)]
    pub wait: bool,
    /// `net.ipv4.tcp_congestion_control` in the namespaces (e.g. "cubic", "reno", "bbr");
    /// Linux allows a namespace only the algorithms of the host's
    /// `tcp_allowed_congestion_control`: for the others pass `{cc}` to the application
    /// (`iperf3 -C {cc}`, `wlansim.bulk --cc {cc}`), which sets it per socket.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub congestion_control: Option<String>,
    /// Linux's delayed ACKs; false sets `quickack` on the default route (the only switch
    /// Linux has; it acknowledges every segment at once).
    #[serde(default = "default_true")]
    pub delayed_ack: bool,
    /// Further sysctls set in the namespaces (`net.*` keys only).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sysctl: BTreeMap<String, String>,
}

const MAX_HARD_LIMIT: Duration = Duration(10 * crate::sim::time::SECOND);

impl Scenario {
    /// The scenario as `wlansim emulate` simulates it: without the `[[flows]]` entries of
    /// which an end is an emulated group.
    pub fn emulated(&self) -> Scenario {
        let mut s = self.clone();
        if let Some(e) = &self.emulation {
            let real =
                |g: Option<&String>| g.is_some_and(|g| e.groups.iter().any(|x| &x.name == g));
            s.flows.retain(|f| {
                !real(Some(&f.stations)) && !real(f.server.as_ref()) && !real(f.peer.as_ref())
            });
        }
        s
    }
}

pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    let Some(e) = &s.emulation else {
        return Ok(());
    };
    if let Some(h) = e.hard_limit {
        if h.0 < 100 * crate::sim::time::US || h > MAX_HARD_LIMIT {
            return Err(ScenarioError::new(
                "emulation.hard_limit",
                format!("{h}: from 100 us to 10 s"),
            ));
        }
    }
    if e.spin.0 > 10 * crate::sim::time::MS {
        return Err(ScenarioError::new(
            "emulation.spin",
            format!("{}: from 0 to 10 ms", e.spin),
        ));
    }
    if e.groups.is_empty() {
        return Err(ScenarioError::new(
            "emulation.groups",
            "empty: name at least one station or server group to emulate",
        ));
    }
    let groups: Vec<&str> = s
        .stations
        .iter()
        .map(|g| g.name.as_str())
        .chain(s.servers.iter().map(|g| g.name.as_str()))
        .collect();
    for (i, g) in e.groups.iter().enumerate() {
        super::checks::reference(
            format!("emulation.groups[{i}].name"),
            &g.name,
            "a station or server group",
            &groups,
        )?;
        if e.groups[..i].iter().any(|x| x.name == g.name) {
            return Err(ScenarioError::new(
                format!("emulation.groups[{i}].name"),
                format!("\"{}\": each group is listed once", g.name),
            ));
        }
        if let Some(cc) = &g.congestion_control {
            if cc.is_empty() || !cc.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(ScenarioError::new(
                    format!("emulation.groups[{i}].congestion_control"),
                    format!("\"{cc}\": a congestion control module name (e.g. cubic, reno, bbr)"),
                ));
            }
        }
        for key in g.sysctl.keys() {
            let ok = key.starts_with("net.")
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
            if !ok {
                return Err(ScenarioError::new(
                    format!("emulation.groups[{i}].sysctl"),
                    format!("\"{key}\": only net.* sysctls are per namespace"),
                ));
            }
        }
    }
    Ok(())
}

/// What a run under emulation cannot do: the tables keyed by the scenario's flows, as
/// the emulated flows appear when the applications open them.
pub fn check_emulable(s: &Scenario) -> Result<(), ScenarioError> {
    if s.emulation.is_none() {
        return Err(ScenarioError::new(
            "emulation",
            "absent: `wlansim emulate` needs an [emulation] table naming the groups to emulate",
        ));
    }
    let per_flow = [
        (!s.drops.is_empty(), "drops", "[[drops]]"),
        (
            !s.output.packets.is_off(),
            "output.packets",
            "per-packet records",
        ),
        (!s.output.series.is_empty(), "output.series", "time series"),
    ];
    for (present, key, what) in per_flow {
        if present {
            return Err(ScenarioError::new(
                key,
                format!("{what} are not available under [emulation] (its flows appear as the applications open them)"),
            ));
        }
    }
    Ok(())
}
