//! Shared helpers of the integration tests.
#![allow(dead_code)]
use wlansim_core::{simulate, Results, Scenario};

/// A one-group scenario: `n` stations, one flow `f` given as TOML lines, extra MAC lines.
pub fn scenario(n: u32, mac: &str, flow: &str, duration: &str) -> Scenario {
    Scenario::from_toml(&format!(
        r#"
duration = "{duration}"
warmup = "1 s"
[mac]
{mac}
[[stations]]
name = "sta"
count = {n}
[[flows]]
name = "f"
stations = "sta"
{flow}
"#
    ))
    .expect("valid scenario")
}

pub const SATURATED_UP: &str = "direction = \"uplink\"\npacket_size = \"1000 B\"";

pub fn run(s: &Scenario, seed: u64) -> Results {
    simulate(s, Some(seed)).expect("run succeeds")
}

pub fn total_throughput(r: &Results) -> f64 {
    r.flows.iter().map(|f| f.throughput_bps).sum()
}

pub fn sum<F: Fn(&wlansim_core::results::NodeResult) -> u64>(r: &Results, f: F) -> u64 {
    r.nodes.iter().map(f).sum()
}
