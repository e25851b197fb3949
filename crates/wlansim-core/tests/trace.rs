//! The trace hook's first consumer: per-packet records (`[output] packets`).
mod common;

use common::*;
use wlansim_core::phy::{Preamble, Standard};
use wlansim_core::sim::time::{to_secs, MS};
use wlansim_core::Scenario;

/// Three stations send CBR to a server behind a 10 ms link, with frame errors so that
/// some frames are retried and a few dropped, and one station floods a small queue so
/// that some packets are dropped at the queue.
fn cbr_to_server(packets: &str) -> Scenario {
    cbr_to_server_under("", packets, "")
}

/// [`cbr_to_server`] with `head` (top-level keys) first and `tail` (tables) last.
fn cbr_to_server_under(head: &str, packets: &str, tail: &str) -> Scenario {
    Scenario::from_toml(&format!(
        r#"{head}
duration = "20 s"
warmup = "1 s"
[mac]
short_retry_limit = 2
[[stations]]
name = "sta"
count = 3
fer = 0.2
[[stations]]
name = "busy"
queue = 2
[[servers]]
name = "srv"
delay = "10 ms"
[[flows]]
name = "cbr"
direction = "uplink"
stations = "sta"
server = "srv"
traffic = "cbr"
rate = "500 kb/s"
packet_size = "1000 B"
[[flows]]
name = "flood"
direction = "uplink"
stations = "busy"
traffic = "poisson"
rate = "5 Mb/s"
[output]
packets = {packets}
{tail}
"#
    ))
    .unwrap()
}

#[test]
fn records_add_up_to_the_flow_table_and_each_delay_to_its_hops() {
    let r = run(&cbr_to_server("[\"cbr\"]"), 1);
    let phy = Standard::Ieee80211b.preset(Preamble::Long);
    let ip = 1000 + 28;
    let wire = to_secs((ip as u64 * 8 * 1_000_000_000).div_ceil(100_000_000) + 10 * MS);
    // The AP forwards a packet when its exchange ends: SIFS + ACK after the data frame.
    let relay = to_secs(phy.sifs + phy.ack_time() + phy.propagation_delay);
    for f in r.flows.iter().filter(|f| f.name.starts_with("cbr")) {
        let recs: Vec<_> = r.packets.iter().filter(|p| p.flow == f.name).collect();
        let delivered = recs.iter().filter(|p| p.delivered_s.is_some()).count() as u64;
        let dropped = recs.iter().filter(|p| p.dropped.is_some()).count() as u64;
        assert_eq!(delivered, f.counts.delivered_packets, "{}", f.name);
        assert_eq!(dropped, f.counts.dropped_queue + f.counts.dropped_retry);
        assert!(f.counts.dropped_retry > 0, "frame errors drop some packets");
        let mean = recs.iter().filter_map(|p| p.delay_s).sum::<f64>() / delivered as f64;
        assert!((mean - f.delay_mean_s.unwrap()).abs() < 1e-9);
        for p in recs.iter().filter(|p| p.delivered_s.is_some()) {
            let hops: Vec<_> = r
                .packet_hops
                .iter()
                .filter(|h| h.flow == p.flow && h.seq == p.seq)
                .collect();
            assert_eq!(hops.len(), 2, "station, then AP");
            assert_eq!(hops[0].node, f.src);
            assert_eq!(hops[1].node, "ap");
            assert_eq!(hops[0].enqueued_s, p.created_s);
            assert!(hops[0].attempts >= 1 && hops[1].attempts == 1);
            // Over the air: queued, sent (last attempt), received; relayed; on the wire.
            let air = hops[0].received_s.unwrap() - hops[0].enqueued_s;
            let gap = hops[1].enqueued_s - hops[0].received_s.unwrap();
            let wired = hops[1].received_s.unwrap() - hops[1].enqueued_s;
            assert!((gap - relay).abs() < 1e-9, "{gap} vs {relay}");
            assert!(
                (wired - wire).abs() < 1e-9,
                "an idle 100 Mb/s link: {wired}"
            );
            assert!((air + gap + wired - p.delay_s.unwrap()).abs() < 1e-9);
            assert_eq!(hops[1].received_s, p.delivered_s);
        }
    }
    // Only the selected flow is recorded; queue drops are recorded with their node.
    assert!(r.packets.iter().all(|p| p.flow.starts_with("cbr")));
    let all = run(&cbr_to_server("true"), 1);
    let flood = all.packets.iter().filter(|p| p.flow == "flood-0");
    assert!(flood
        .filter(|p| p.dropped == Some("queue"))
        .all(|p| p.dropped_at.as_deref() == Some("busy-0") && p.hops == 0));
    assert_eq!(r.flows, all.flows, "recording changes no result");
}

#[test]
fn the_ns2_profile_relays_a_frame_ns2s_ll_delay_after_its_reception() {
    // ns-2 passes a decoded data frame up before its ACK (`Mac802_11::recvDATA`), and its
    // link layer hands it on `LL set delay_` (25 µs) later: the AP relays it then, not
    // when the exchange ends (SIFS + ACK later, as the standard profile does above).
    for (medium, tail) in [
        ("shared", ""),
        ("spatial", "[channel]\nmedium = \"spatial\""),
    ] {
        let r = run(
            &cbr_to_server_under("profile = \"ns2\"", "[\"cbr\"]", tail),
            1,
        );
        assert_eq!(r.meta.medium, medium);
        let mut relayed = 0;
        for p in r.packets.iter().filter(|p| p.delivered_s.is_some()) {
            let hops: Vec<_> = r
                .packet_hops
                .iter()
                .filter(|h| h.flow == p.flow && h.seq == p.seq)
                .collect();
            let gap = hops[1].enqueued_s - hops[0].received_s.unwrap();
            assert!((gap - 25e-6).abs() < 1e-9, "{medium}: {gap}");
            relayed += 1;
        }
        assert!(relayed > 1000, "{medium}: {relayed}");
    }
}

#[test]
fn no_records_unless_asked() {
    let r = run(&cbr_to_server("false"), 1);
    assert!(r.packets.is_empty() && r.packet_hops.is_empty());
    let e = Scenario::from_toml(&toml_with_packets("[\"nope\"]"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("output.packets[0]") && e.contains("cbr"), "{e}");
}

fn toml_with_packets(packets: &str) -> String {
    format!(
        "duration = \"1 s\"\n[[stations]]\nname = \"s\"\n[[flows]]\nname = \"cbr\"\ndirection = \"uplink\"\nstations = \"s\"\n[output]\npackets = {packets}\n"
    )
}
