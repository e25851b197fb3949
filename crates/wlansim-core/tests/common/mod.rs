//! Shared helpers of the integration tests.
#![allow(dead_code)]
use wlansim_core::{simulate, Results, Scenario};

/// A saturated 802.11b uplink cell of `n` stations.
pub fn saturated_cell(n: u32, extra_mac: &str, duration: &str) -> Scenario {
    Scenario::from_toml(&format!(
        r#"
duration = "{duration}"
warmup = "1 s"
[phy]
standard = "802.11b"
[mac]
{extra_mac}
[[stations]]
name = "sta"
count = {n}
[[flows]]
name = "up"
direction = "uplink"
stations = "sta"
traffic = "saturated"
packet_size = "1000 B"
"#
    ))
    .expect("valid scenario")
}

pub fn run(s: &Scenario, seed: u64) -> Results {
    simulate(s, Some(seed)).expect("run succeeds")
}

pub fn total_throughput(r: &Results) -> f64 {
    r.flows.iter().map(|f| f.throughput_bps).sum()
}
