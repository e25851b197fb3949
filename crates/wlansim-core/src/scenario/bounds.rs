//! Size limits, checked before anything is allocated: a scenario that would not fit in
//! memory (or whose run could not be represented) gets an error naming the key, the value
//! and the maximum, instead of an allocation failure that aborts the process.
use super::checks::err;
use super::{Protocol, Scenario, ScenarioError, Traffic};
use crate::net::Packet;
use crate::phy::frame;
use crate::stats::Histogram;

/// Nodes of a run: the APs, routers, every station and every server.
pub const MAX_NODES: u64 = 100_000;
/// Flows of a run: one per `[[flows]]` entry and station of its group.
pub const MAX_FLOWS: u64 = 100_000;
/// Capacity of any one queue, in packets.
pub const MAX_QUEUE: u32 = 1_000_000;
/// Values of all recorded time series together (8 bytes each).
pub const MAX_SERIES_VALUES: u64 = 10_000_000;
/// Memory a run reserves when it is built (queues, TCP reassembly rings, per-flow
/// histograms, series), estimated from the scenario.
pub const MAX_MEMORY: u64 = 4 << 30;
/// Offered load of one UDP flow (every source: CBR, Poisson, game, trace), IP bytes:
/// far above any 802.11 PHY rate, and low enough that packets are at least a few
/// nanoseconds apart.
pub const MAX_FLOW_RATE: u64 = 10_000_000_000;
/// Packets per second of one UDP flow: 10 Gb/s of full-size packets, some 60 times the
/// frames any 802.11 PHY carries; each costs the simulator work even when a full queue
/// drops it at once.
pub const MAX_FLOW_PACKET_RATE: f64 = 1e6;
/// Largest value of the PHY timing keys (slot, SIFS, DIFS, PLCP): 1 ms, five times the
/// longest of any 802.11 PHY (the 192 µs long DSSS PLCP); a slot of seconds would make
/// a single backoff last minutes.
pub const MAX_PHY_TIME: u64 = crate::sim::time::MS;
/// Largest magnitude of a coordinate (x or y of a `position` or a waypoint), metres:
/// 1,000 km, beyond the reach of any 802.11 link; so every area the nodes span is at most
/// 2,000 km across, and the distances, powers and travel times computed from positions
/// stay representable.
pub const MAX_COORDINATE_M: f64 = 1e6;

/// A point `p` ([x, y] in metres, at key `at`) is finite and within
/// ±[`MAX_COORDINATE_M`] on both axes; `what` names it ("a position", "a waypoint").
pub fn point(at: impl Into<String>, p: [f64; 2], what: &str) -> Result<(), ScenarioError> {
    if p.iter().all(|v| v.abs() <= MAX_COORDINATE_M) {
        return Ok(());
    }
    err(
        at,
        format!(
            "{p:?}: {what} is [x, y] in metres, finite numbers from -1000000 to 1000000 (±1000 km)"
        ),
    )
}

/// Every size limit of the scenario.
pub fn check(s: &Scenario) -> Result<(), ScenarioError> {
    queues(s)?;
    let mut nodes: u64 = (s.aps.len() + s.routers.len()) as u64;
    for (i, g) in s.stations.iter().enumerate() {
        nodes += g.count as u64;
        if nodes > MAX_NODES {
            return err(
                format!("stations[{i}].count"),
                format!(
                    "{}: the run would have {nodes} nodes or more; at most {MAX_NODES} nodes (AP, stations and servers together)",
                    g.count
                ),
            );
        }
    }
    for (i, g) in s.servers.iter().enumerate() {
        nodes += g.count as u64;
        if nodes > MAX_NODES {
            return err(
                format!("servers[{i}].count"),
                format!(
                    "{}: the run would have {nodes} nodes or more; at most {MAX_NODES} nodes (AP, stations and servers together)",
                    g.count
                ),
            );
        }
    }
    let mut flows: u64 = 0;
    for (i, f) in s.flows.iter().enumerate() {
        let count = s
            .stations
            .iter()
            .find(|g| g.name == f.stations)
            .map_or(0, |g| g.count as u64);
        flows += count;
        if flows > MAX_FLOWS {
            return err(
                format!("flows[{i}].stations"),
                format!(
                    "\"{}\": the run would have {flows} flows or more (one per station of the group); at most {MAX_FLOWS}",
                    f.stations
                ),
            );
        }
        if let (Traffic::Cbr | Traffic::Poisson, Some(rate)) = (f.traffic, f.rate) {
            let at = format!("flows[{i}].rate");
            if rate.0 > MAX_FLOW_RATE {
                return err(
                    at,
                    format!("{rate}: the offered load of a flow is at most 10 Gb/s"),
                );
            }
            let ip_bytes = f.udp_payload().0 + (frame::IP_HEADER + frame::UDP_HEADER) as u64;
            let gap = 8.0 * ip_bytes as f64 / rate.0 as f64;
            offered_load(&at, &format!("{rate}"), 1.0, ip_bytes as f64, gap)?;
        }
    }
    series(s, flows, nodes)?;
    memory(s, flows, nodes)
}

/// The offered load of a UDP source whose messages of `bytes` (IP bytes, mean) in
/// `packets` (mean) come every `gap_s` seconds (mean) is within [`MAX_FLOW_RATE`] and
/// [`MAX_FLOW_PACKET_RATE`]; `given` describes the source in the error, at key `at`.
pub fn offered_load(
    at: &str,
    given: &str,
    packets: f64,
    bytes: f64,
    gap_s: f64,
) -> Result<(), ScenarioError> {
    let (bps, pps) = (8.0 * bytes / gap_s, packets / gap_s);
    if bps > MAX_FLOW_RATE as f64 || pps > MAX_FLOW_PACKET_RATE {
        return err(
            at,
            format!(
                "{given}: offers {:.4} Gb/s in {pps:.0} packets/s on average; a flow offers at most 10 Gb/s and {MAX_FLOW_PACKET_RATE:.0} packets/s",
                bps / 1e9
            ),
        );
    }
    Ok(())
}

/// The mean offered load of a game or trace source, messages cut into packets of
/// `payload` bytes: (packets, IP bytes) per message, given the mean message size.
pub fn message_load(mean_bytes: f64, payload: u64) -> (f64, f64) {
    // E[⌈X/P⌉] ≤ E[X]/P + 1: an upper bound, exact enough for a limit
    let packets = mean_bytes / payload as f64 + 1.0;
    let header = (frame::IP_HEADER + frame::UDP_HEADER) as f64;
    (packets, mean_bytes + header * packets)
}

fn queues(s: &Scenario) -> Result<(), ScenarioError> {
    let mut keys = vec![("mac.queue".to_string(), Some(s.mac.queue))];
    for (i, ap) in s.aps.iter().enumerate() {
        keys.push((format!("aps[{i}].queue"), Some(ap.queue)));
        keys.push((format!("aps[{i}].ack_queue"), ap.ack_queue));
    }
    for (i, l) in s.links.iter().enumerate() {
        keys.push((format!("links[{i}].queue"), Some(l.queue)));
    }
    for (i, g) in s.stations.iter().enumerate() {
        keys.push((format!("stations[{i}].queue"), g.queue));
    }
    for (i, g) in s.servers.iter().enumerate() {
        keys.push((format!("servers[{i}].queue"), Some(g.queue)));
    }
    for (key, q) in keys {
        if let Some(q) = q.filter(|&q| q > MAX_QUEUE) {
            return err(
                key,
                format!("{q}: a queue holds at most {MAX_QUEUE} packets"),
            );
        }
    }
    Ok(())
}

fn series(s: &Scenario, flows: u64, nodes: u64) -> Result<(), ScenarioError> {
    if s.output.series.is_empty() {
        return Ok(());
    }
    let interval = s.output.series_interval.0.max(1);
    let samples = s.duration.0.saturating_sub(s.warmup.0) / interval;
    let columns: u64 = s
        .output
        .series
        .iter()
        .map(|k| k.columns(flows as usize, nodes as usize) as u64 + 1)
        .sum();
    let values = samples.saturating_mul(columns);
    if values > MAX_SERIES_VALUES {
        return err(
            "output.series_interval",
            format!(
                "{}: {samples} samples of {columns} columns are {values} values; at most {MAX_SERIES_VALUES} (use a longer interval, fewer series or a shorter run)",
                s.output.series_interval
            ),
        );
    }
    Ok(())
}

/// Bytes the run reserves when it is built, estimated from the scenario.
pub fn reserved_bytes(s: &Scenario, flows: u64, nodes: u64) -> u64 {
    let per_entity = |qos: bool| if qos { 4 } else { 1 };
    let mut slots: u64 = 0;
    for ap in &s.aps {
        slots += per_entity(s.qos_node(ap.qos) || s.qos.preset.is_some())
            * (ap.queue as u64 + ap.ack_queue.unwrap_or(0) as u64);
    }
    for l in &s.links {
        slots += 2 * l.queue as u64;
    }
    for g in &s.stations {
        let q = g.queue.unwrap_or(s.mac.queue) as u64;
        slots += g.count as u64 * per_entity(s.qos_node(g.qos) || s.qos.preset.is_some()) * q;
    }
    for g in &s.servers {
        slots += 2 * g.count as u64 * g.queue as u64;
    }
    // TCP receivers reserve one reassembly range (16 B) per segment of their window.
    let mut ranges: u64 = 0;
    for (i, f) in s.flows.iter().enumerate() {
        if f.protocol == Protocol::Tcp {
            let cfg = s.tcp_config(i);
            let per_flow = (cfg.rwnd_bytes() / cfg.mss.max(1) as u64 + 2).min(1 << 16);
            let count = s
                .stations
                .iter()
                .find(|g| g.name == f.stations)
                .map_or(0, |g| g.count as u64);
            ranges += count * per_flow;
        }
    }
    let packet = std::mem::size_of::<Packet>() as u64;
    // A flow keeps two histograms (delay, RTT) and about 1 kB of state; a node 1 kB.
    let per_flow = 2 * Histogram::HEAP_BYTES + 1024;
    slots * packet + ranges * 16 + flows * per_flow + nodes * 1024
}

fn memory(s: &Scenario, flows: u64, nodes: u64) -> Result<(), ScenarioError> {
    let bytes = reserved_bytes(s, flows, nodes);
    if bytes > MAX_MEMORY {
        let mb = |b: u64| b / (1 << 20);
        return err(
            "stations",
            format!(
                "the run would reserve about {} MiB (queues of all nodes and links, TCP reassembly, per-flow statistics); at most {} MiB: use fewer stations or flows, or shorter queues",
                mb(bytes),
                mb(MAX_MEMORY)
            ),
        );
    }
    Ok(())
}
