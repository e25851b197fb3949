//! DCF behaviour checked against closed forms and invariants on whole runs.
mod common;
use common::*;
use wlansim_core::phy::{Preamble, Standard};
use wlansim_core::sim::time::{to_secs, US};
use wlansim_core::Scenario;

/// One saturated station: every packet takes DIFS + E[backoff]·slot + the exchange, with
/// E[backoff] = CWmin/2 slots (uniform on [0, CWmin]).
fn single_station_period(data_bytes_ip: u32, rts: bool) -> f64 {
    let phy = Standard::Ieee80211b.preset(Preamble::Long);
    let d = phy.propagation_delay;
    let mut exchange = phy.data_time(data_bytes_ip) + d + phy.sifs + phy.ack_time() + d;
    if rts {
        exchange += phy.rts_time() + d + phy.sifs + phy.cts_time() + d + phy.sifs;
    }
    to_secs(exchange + phy.difs) + to_secs(phy.slot) * phy.cw_min as f64 / 2.0
}

#[test]
fn single_station_throughput_matches_closed_form() {
    for (mac, rts) in [("", false), ("rts_threshold = 0", true)] {
        let r = run(&scenario(1, mac, SATURATED_UP, "200 s"), 1);
        let expected = 8000.0 / single_station_period(1028, rts);
        let got = total_throughput(&r);
        assert!(
            (got / expected - 1.0).abs() < 0.003,
            "rts={rts}: {got} vs {expected}"
        );
        assert_eq!(sum(&r, |n| n.mac.collisions), 0);
    }
}

#[test]
fn rts_threshold_applies_to_frames_longer_than_it() {
    // MPDU of a 1000-byte UDP payload: 28 + 8 + 1028 = 1064 B.
    let above = run(
        &scenario(1, "rts_threshold = 1063", SATURATED_UP, "100 s"),
        1,
    );
    let at = run(
        &scenario(1, "rts_threshold = 1064", SATURATED_UP, "100 s"),
        1,
    );
    let basic = 8000.0 / single_station_period(1028, false);
    let rts = 8000.0 / single_station_period(1028, true);
    assert!((total_throughput(&above) / rts - 1.0).abs() < 0.005);
    assert!((total_throughput(&at) / basic - 1.0).abs() < 0.005);
}

#[test]
fn same_seed_same_results_different_seed_different_results() {
    let s = scenario(10, "", SATURATED_UP, "10 s");
    let mut a = run(&s, 7);
    let mut b = run(&s, 7);
    let c = run(&s, 8);
    a.meta.wall_s = 0.0;
    b.meta.wall_s = 0.0;
    assert_eq!(a, b);
    assert_ne!(a.flows, c.flows);
}

#[test]
fn retry_limit_drops_frames_and_unlimited_never_does() {
    let limited = run(
        &scenario(30, "short_retry_limit = 2", SATURATED_UP, "20 s"),
        1,
    );
    let drops: u64 = limited.flows.iter().map(|f| f.counts.dropped_retry).sum();
    assert!(
        drops > 100,
        "with 2 attempts per frame many frames are dropped: {drops}"
    );
    assert_eq!(drops, sum(&limited, |n| n.mac.retry_drops));
    let unlimited = run(
        &scenario(
            30,
            "short_retry_limit = \"unlimited\"",
            SATURATED_UP,
            "20 s",
        ),
        1,
    );
    assert_eq!(sum(&unlimited, |n| n.mac.retry_drops), 0);
}

#[test]
fn overloaded_queue_drops_at_the_tail() {
    let flow =
        "direction = \"uplink\"\ntraffic = \"cbr\"\nrate = \"8 Mb/s\"\npacket_size = \"1000 B\"";
    let r = run(&scenario(1, "queue = 10", flow, "10 s"), 1);
    let f = &r.flows[0];
    assert!(f.counts.dropped_queue > 0);
    assert_eq!(f.counts.dropped_queue, r.nodes[1].mac.queue_drops);
    // Offered = delivered + dropped + at most the 10 queued packets (accounting).
    let queued = f.counts.offered_packets - f.counts.delivered_packets - f.counts.dropped_queue;
    assert!(queued <= 11, "{queued}");
}

#[test]
fn light_cbr_load_is_sent_at_once_after_an_idle_difs() {
    // One packet every 10 ms on an idle medium: the backoff after the previous frame has
    // long run out, so each packet is sent immediately (9.3.4.2) and its delay is exactly
    // the data frame's airtime plus propagation.
    let flow =
        "direction = \"uplink\"\ntraffic = \"cbr\"\nrate = \"800 kb/s\"\npacket_size = \"972 B\"";
    let r = run(&scenario(1, "", flow, "11 s"), 1);
    let f = &r.flows[0];
    assert_eq!(f.counts.offered_packets, 1000);
    assert_eq!(f.counts.delivered_packets, 1000);
    let phy = Standard::Ieee80211b.preset(Preamble::Long);
    let airtime = to_secs(phy.data_time(1000) + phy.propagation_delay);
    assert!((f.delay_mean_s.unwrap() - airtime).abs() < 1e-9);
    assert!((f.throughput_bps - 972.0 * 8.0 * 100.0).abs() < 1e-6);
    assert!(airtime > 900.0 * to_secs(US));
}

#[test]
fn poisson_source_offers_its_mean_rate() {
    let flow =
        "direction = \"uplink\"\ntraffic = \"poisson\"\nrate = \"1 Mb/s\"\npacket_size = \"972 B\"";
    let r = run(&scenario(2, "", flow, "101 s"), 3);
    for f in &r.flows {
        // 125 packets/s for 100 s: 12500 ± 3σ (σ ≈ 112).
        assert!(
            (f.counts.offered_packets as f64 - 12_500.0).abs() < 340.0,
            "{}",
            f.counts.offered_packets
        );
        // 2 Mb/s offered on an 11 Mb/s cell: nothing is lost. Offered and delivered differ
        // only by the packets in flight at the two ends of the measurement window: Poisson
        // arrivals bunch, so a few may be queued there (2 with seed 3 at the end).
        assert_eq!(f.counts.dropped_queue + f.counts.dropped_retry, 0);
        assert!(
            f.counts
                .delivered_packets
                .abs_diff(f.counts.offered_packets)
                <= 4,
            "{} offered, {} delivered",
            f.counts.offered_packets,
            f.counts.delivered_packets
        );
    }
}

#[test]
fn saturated_downlink_shares_the_ap_queue_round_robin() {
    let flow = "direction = \"downlink\"\npacket_size = \"1000 B\"";
    let r = run(&scenario(3, "", flow, "20 s"), 1);
    let counts: Vec<u64> = r.flows.iter().map(|f| f.counts.delivered_packets).collect();
    let (lo, hi) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
    assert!(hi - lo <= 1, "round robin: {counts:?}");
    // Only the AP contends: no collisions, and the single-sender closed form holds.
    assert_eq!(sum(&r, |n| n.mac.collisions), 0);
    let expected = 8000.0 / single_station_period(1028, false);
    assert!((total_throughput(&r) / expected - 1.0).abs() < 0.005);
}

#[test]
fn warmup_is_excluded_from_statistics() {
    let flow =
        "direction = \"uplink\"\ntraffic = \"cbr\"\nrate = \"800 kb/s\"\npacket_size = \"972 B\"";
    let r = run(&scenario(1, "", flow, "5 s"), 1);
    assert_eq!(
        r.flows[0].counts.offered_packets, 400,
        "4 s measured at 100 packets/s"
    );
    assert_eq!(r.meta.measured_s, 4.0);
}

#[test]
fn series_sample_throughput_and_queue_length_after_warmup() {
    let flow =
        "direction = \"uplink\"\ntraffic = \"cbr\"\nrate = \"800 kb/s\"\npacket_size = \"972 B\"";
    let mut s = scenario(2, "", flow, "6 s");
    s.output.series = vec![
        wlansim_core::scenario::SeriesKind::FlowThroughput,
        wlansim_core::scenario::SeriesKind::QueueLength,
    ];
    s.output.series_interval = wlansim_core::scenario::Duration(500 * wlansim_core::sim::time::MS);
    let r = run(&s, 1);
    let thr = &r.series["flow_throughput"];
    assert_eq!(
        thr["t_s"].len(),
        9,
        "samples at 1.5, 2.0, …, 5.5 s (the end is excluded)"
    );
    assert_eq!(thr["t_s"][0], 1.5);
    for name in ["f-0", "f-1"] {
        // 50 packets of 972 B every 0.5 s = 777.6 kb/s, ± one packet at a boundary.
        for v in &thr[name] {
            assert!((v - 777_600.0).abs() <= 972.0 * 8.0 * 2.0 + 1e-6, "{v}");
        }
    }
    let q = &r.series["queue_length"];
    assert!(
        q["sta-0"].iter().all(|&v| v <= 1.0),
        "a light load never queues more than one"
    );
    assert!(run(&scenario(2, "", flow, "6 s"), 1).series.is_empty());
}

/// Random streams are keyed by stable names (node, AC, flow), not by position: adding a
/// station to group `b` leaves group `a`'s draws (Poisson arrivals, frame errors, backoff)
/// unchanged. Group `b` is listed first, so its size shifts every index of group `a`, and
/// the two groups never interact: `a` sends during the first 10 s at a light load (its
/// queues are empty long before 10 s), `b` only after 10 s. With frame errors on `a`'s
/// links, `a`'s attempt and retry counts depend on all three of its streams.
#[test]
fn adding_a_station_leaves_other_groups_draws_unchanged() {
    let with_b = |n: u32| {
        let s = Scenario::from_toml(&format!(
            r#"
duration = "20 s"
[[stations]]
name = "b"
count = {n}
[[stations]]
name = "a"
count = 3
fer = 0.2
[[flows]]
name = "late"
direction = "uplink"
stations = "b"
traffic = "cbr"
rate = "1 Mb/s"
start = "10.5 s"
[[flows]]
name = "early"
direction = "uplink"
stations = "a"
traffic = "poisson"
rate = "200 kb/s"
stop = "9 s"
"#
        ))
        .unwrap();
        let r = run(&s, 5);
        let a: Vec<(u64, u64, u64)> = r
            .nodes
            .iter()
            .filter(|n| n.name.starts_with("a-"))
            .map(|n| (n.mac.attempts, n.mac.retries, n.mac.successes))
            .collect();
        assert_eq!(a.len(), 3);
        assert!(a.iter().all(|&(att, retries, _)| att > 100 && retries > 10));
        a
    };
    assert_eq!(with_b(2), with_b(3));
    assert_eq!(with_b(2), with_b(7));
}
