//! Topology as data: several APs on one channel, a wired graph with routes, flows between
//! any two hosts (the acceptance tests of the platform issue).
mod common;

use common::*;
use wlansim_core::phy::{Preamble, Standard};
use wlansim_core::results::BssResult;
use wlansim_core::sim::time::{to_secs, MS, US};
use wlansim_core::Scenario;

fn example(name: &str) -> String {
    let path = format!("{}/../../scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("example scenario")
}

fn bss<'a>(r: &'a wlansim_core::Results, ap: &str) -> &'a BssResult {
    r.bss.iter().find(|b| b.ap == ap).expect("a BSS row")
}

/// Two APs, three saturated uploads each, on one channel: the medium is shared fairly
/// between the BSSs, and the total is what one AP with six stations gets (an AP without
/// downlink traffic only answers with MAC ACKs, which belong to its stations' exchanges).
#[test]
fn two_bss_share_one_channel_like_one_cell() {
    let two =
        Scenario::from_toml(&example("two-bss.toml").replace("\"64 kb/s\"", "\"1 kb/s\"")).unwrap();
    let one = scenario(
        6,
        "",
        "direction = \"uplink\"\npacket_size = \"1472 B\"",
        "30 s",
    );
    let (mut per_bss, mut total2, mut total1) = (vec![], 0.0, 0.0);
    for seed in 1..=3 {
        let r = run(&two, seed);
        let (a, b) = (bss(&r, "ap1"), bss(&r, "ap2"));
        assert_eq!((a.ssid.as_str(), a.stations), ("upstairs", 4));
        assert_eq!((b.ssid.as_str(), b.stations), ("downstairs", 4));
        per_bss.push((a.uplink_bps, b.uplink_bps));
        total2 += r.flows.iter().map(|f| f.throughput_bps).sum::<f64>();
        total1 += total_throughput(&run(&one, seed));
    }
    let (a, b) = per_bss
        .iter()
        .fold((0.0, 0.0), |s, x| (s.0 + x.0, s.1 + x.1));
    assert!((a / b - 1.0).abs() < 0.05, "per-BSS {a} vs {b}");
    assert!((total2 / total1 - 1.0).abs() < 0.03, "{total2} vs {total1}");
}

/// A station of BSS 1 and one of BSS 2 exchange UDP through AP → router → AP. Alone on the
/// network (the uploads stop at once; the reverse stream is offset by 5 ms so that no two
/// of the four frames of a round ever meet on the air), every packet takes the same time,
/// and it is the sum of the hops: the frame to the first AP (immediate access on an idle
/// medium, data + SIFS + ACK), the two wired links (serialisation + propagation), then
/// the frame from the second AP (immediate access again, the data frame's reception).
#[test]
fn cross_bss_delay_is_the_sum_of_the_hops() {
    let s = Scenario::from_toml(
        &example("two-bss.toml")
            .replace("stations = \"a\"", "stations = \"a\"\nstop = \"0.001 s\"")
            .replace("stations = \"b\"", "stations = \"b\"\nstop = \"0.001 s\"")
            .replace("name = \"back\"", "name = \"back\"\nstart = \"5 ms\""),
    )
    .unwrap();
    let r = run(&s, 1);
    let phy = Standard::Ieee80211b.preset(Preamble::Long);
    let ip = 160 + 28;
    let (_, exchange) = phy.exchange_offsets(&phy.fixed_link(), false, ip);
    let data = phy.data_time(ip) + phy.propagation_delay;
    let wire = |delay| (ip as u64 * 8 * 1_000_000_000).div_ceil(100_000_000) + delay;
    let expected = to_secs(exchange + wire(10 * MS) + wire(5 * MS) + data);
    for name in ["cross-0", "back-0"] {
        let f = r.flows.iter().find(|f| f.name == name).unwrap();
        assert!(f.counts.delivered_packets > 1000, "{name}");
        assert_eq!(f.counts.dropped_queue + f.counts.dropped_retry, 0);
        let (mean, p95) = (f.delay_mean_s.unwrap(), f.delay_p95_s.unwrap());
        assert!(
            (mean - expected).abs() < 1e-9,
            "{name}: {mean} vs {expected}"
        );
        assert!(p95 <= expected + to_secs(US), "{name}: p95 {p95}");
    }
    let cross = r.flows.iter().find(|f| f.name == "cross-0").unwrap();
    assert_eq!((cross.src.as_str(), cross.dst.as_str()), ("x-0", "y-0"));
}

/// Three servers behind a router on 10, 20 and 30 ms links: each station's downloads see
/// RTTs that differ by twice the difference of the link delays. The wireless and AP-queue
/// part of the RTT is shared by the three downloads of one station (same windows, same
/// queue) and cancels in the differences up to the queueing noise, hence 2 ms.
#[test]
fn wired_tree_rtts_differ_by_the_link_delays() {
    let r = run(
        &Scenario::from_toml(&example("wired-tree.toml")).unwrap(),
        1,
    );
    let rtt = |flow: &str| {
        let f = r.flows.iter().find(|f| f.name == flow).unwrap();
        assert!(f.tcp.as_ref().unwrap().goodput_bps > 100_000.0, "{flow}");
        f.tcp.as_ref().unwrap().rtt_mean_s.unwrap()
    };
    for i in 0..3 {
        let (near, mid, far) = (
            rtt(&format!("from-near-{i}")),
            rtt(&format!("from-mid-{i}")),
            rtt(&format!("from-far-{i}")),
        );
        assert!(
            (mid - near - 0.020).abs() < 0.002,
            "sta {i}: {near} {mid} {far}"
        );
        assert!(
            (far - mid - 0.020).abs() < 0.002,
            "sta {i}: {near} {mid} {far}"
        );
    }
}

fn error_of(toml: &str) -> String {
    Scenario::from_toml(toml).unwrap_err().to_string()
}

#[test]
fn topology_errors_name_the_key() {
    let base = "duration = \"1 s\"\n[[aps]]\nname = \"ap1\"\n[[aps]]\nname = \"ap2\"\n";
    let sta = "[[stations]]\nname = \"s\"\n";
    let e = error_of(&format!("{base}{sta}"));
    assert!(
        e.contains("stations[0].ap") && e.contains("ap1, ap2"),
        "{e}"
    );
    let e = error_of(&format!("{base}{sta}ap = \"ap3\"\n"));
    assert!(
        e.contains("stations[0].ap") && e.contains("\"ap3\" is not an AP"),
        "{e}"
    );
    let e = error_of(&format!(
        "{base}{sta}ap = \"ap1\"\n[[links]]\na = \"ap1\"\nb = \"nowhere\"\n"
    ));
    assert!(e.contains("links[0].b") && e.contains("nowhere"), "{e}");
    let e = error_of(&format!(
        "{base}{sta}ap = \"ap1\"\n[[links]]\na = \"ap1\"\nb = \"ap1\"\n"
    ));
    assert!(
        e.contains("links[0].b") && e.contains("two different nodes"),
        "{e}"
    );
    let e = error_of(&format!(
        "duration = \"1 s\"\n[ap]\nname = \"ap\"\n[[aps]]\nname = \"x\"\n{sta}"
    ));
    assert!(e.contains("`ap`") && e.contains("both"), "{e}");
    // Errors about the one `[ap]` name the key as written.
    let e = error_of(&format!("duration = \"1 s\"\n[ap]\nqueue = 0\n{sta}"));
    assert!(e.contains("`ap.queue`"), "{e}");
    // Two APs without a wired path between them: valid, but the cross flow has no route.
    let s = Scenario::from_toml(&format!(
        "{base}{sta}ap = \"ap1\"\n[[stations]]\nname = \"t\"\nap = \"ap2\"\n[[flows]]\nname = \"f\"\ndirection = \"uplink\"\nstations = \"s\"\npeer = \"t\"\ntraffic = \"cbr\"\nrate = \"1 Mb/s\"\n"
    ))
    .unwrap();
    let e = wlansim_core::simulate(&s, None).unwrap_err().to_string();
    assert!(
        e.contains("flows[0]") && e.contains("no route from s-0 to t-0"),
        "{e}"
    );
}

/// A flow whose peer group is its own group would send each station's packets to itself.
#[test]
fn a_flow_to_itself_is_refused() {
    let s = Scenario::from_toml(
        "duration = \"1 s\"\n[[stations]]\nname = \"s\"\ncount = 2\n[[flows]]\nname = \"f\"\ndirection = \"uplink\"\nstations = \"s\"\npeer = \"s\"\ntraffic = \"cbr\"\nrate = \"1 Mb/s\"\n",
    )
    .unwrap();
    let e = wlansim_core::simulate(&s, None).unwrap_err().to_string();
    assert!(
        e.contains("flows[0].peer") && e.contains("to itself"),
        "{e}"
    );
}
