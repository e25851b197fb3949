//! Run one JSON scenario and print the event loop's rate: a Rust-only driver for
//! profilers (callgrind, perf) that keeps the Python interpreter out of the measurement.
//!
//!     python -c "import json; from wlansim.bench import cases; \
//!         print(json.dumps(cases()['dcf-saturated-20sta-100s']))" > s.json
//!     cargo run --release -p wlansim-core --example simulate -- s.json [seed]
use wlansim_core::{simulate, Scenario};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: simulate SCENARIO.json [SEED]")?;
    let seed = args.next().map(|s| s.parse()).transpose()?.unwrap_or(1);
    let scenario = Scenario::from_json(&std::fs::read_to_string(path)?)?;
    let r = simulate(&scenario, Some(seed))?;
    let m = &r.meta;
    println!(
        "events {}  wall {:.4} s  events/s {:.3e}  sim s/wall s {:.0}",
        m.events,
        m.wall_s,
        m.events as f64 / m.wall_s,
        m.sim_time_s / m.wall_s
    );
    Ok(())
}
