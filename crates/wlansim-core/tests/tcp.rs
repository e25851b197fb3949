//! TCP across the AP: handshake, rwnd limit, accounting, AP mechanisms, and the
//! upload/download (un)fairness of pilosof2003 on short runs.
mod common;
use wlansim_core::results::{FlowResult, Results};
use wlansim_core::scenario::Direction;
use wlansim_core::{simulate, Scenario};

/// `up` uploading and `down` downloading stations, one server, pilosof2003's TCP settings
/// (ns-2 profile, 1024-byte segments, rwnd 42, an ACK per segment), AP buffer `b`.
fn pilosof(up: u32, down: u32, b: u32, ap_extra: &str, duration: &str) -> Scenario {
    Scenario::from_toml(&format!(
        r#"
duration = "{duration}"
warmup = "2 s"
[ap]
queue = {b}
{ap_extra}
[tcp]
profile = "ns2-compat"
mss = 1024
rwnd = 42
delayed_ack = 1
[[stations]]
name = "up"
count = {up}
[[stations]]
name = "down"
count = {down}
[[servers]]
name = "srv"
[[flows]]
name = "upload"
protocol = "tcp"
direction = "uplink"
stations = "up"
server = "srv"
[[flows]]
name = "download"
protocol = "tcp"
direction = "downlink"
stations = "down"
server = "srv"
"#
    ))
    .expect("valid scenario")
}

fn goodput(f: &FlowResult) -> f64 {
    f.tcp.as_ref().expect("a TCP flow").goodput_bps
}

fn mean_goodput(r: &Results, d: Direction) -> f64 {
    let v: Vec<f64> = r
        .flows
        .iter()
        .filter(|f| f.direction == d)
        .map(goodput)
        .collect();
    v.iter().sum::<f64>() / v.len() as f64
}

fn ratio(r: &Results) -> f64 {
    mean_goodput(r, Direction::Uplink) / mean_goodput(r, Direction::Downlink)
}

fn total(r: &Results) -> f64 {
    r.flows.iter().map(goodput).sum()
}

fn run(s: &Scenario) -> Results {
    simulate(s, Some(1)).expect("run succeeds (packet accounting included)")
}

/// One station group `sta` and one server `srv` with `flow` lines and extra top-level TOML.
fn one_flow(top: &str, server: &str, flow: &str) -> Scenario {
    Scenario::from_toml(&format!(
        r#"
duration = "20 s"
{top}
[[stations]]
name = "sta"
[[servers]]
name = "srv"
{server}
[[flows]]
name = "f"
protocol = "tcp"
stations = "sta"
server = "srv"
{flow}
"#
    ))
    .expect("valid scenario")
}

#[test]
fn fixed_size_transfers_complete_both_ways_across_the_ap() {
    for direction in ["uplink", "downlink"] {
        let s = one_flow(
            "",
            "",
            &format!("direction = \"{direction}\"\nbytes = \"200 kB\""),
        );
        let r = run(&s);
        let f = &r.flows[0];
        let tcp = f.tcp.as_ref().unwrap();
        // Every byte delivered in order: goodput × duration = the transfer.
        let delivered = tcp.goodput_bps * r.meta.measured_s / 8.0;
        assert!(
            (delivered - 200_000.0).abs() < 1.0,
            "{direction}: {delivered}"
        );
        assert_eq!(tcp.retransmissions, 0);
        assert!(tcp.rtt_mean_s.unwrap() > 0.002, "two 1 ms wired hops");
        // The data went through the AP: station and AP sent frames of both kinds.
        let (sta, ap) = (&r.nodes[1].mac, &r.nodes[0].mac);
        let (sender, receiver) = if direction == "uplink" {
            (sta, ap)
        } else {
            (ap, sta)
        };
        // 200 kB in 1460-byte segments, an ACK every 2 (standard profile).
        assert!(sender.frames_data >= 137, "{direction}: {sender:?}");
        assert!(receiver.frames_ack >= 69, "{direction}: {receiver:?}");
        assert_eq!(receiver.frames_data, 0);
    }
}

#[test]
fn advertised_window_limits_throughput_to_rwnd_per_rtt() {
    // rwnd 4 segments, 100 ms each way on the wire: at most 4 × 1000 B per ~200 ms.
    let s = one_flow(
        "[tcp]\nmss = 1000\nrwnd = 4\ntimestamps = false",
        "delay = \"100 ms\"",
        "direction = \"downlink\"",
    );
    let r = run(&s);
    let tcp = r.flows[0].tcp.as_ref().unwrap();
    let rtt = tcp.rtt_mean_s.unwrap();
    let bound = 4.0 * 1000.0 * 8.0 / rtt;
    assert!(rtt > 0.2 && rtt < 0.21, "rtt {rtt}");
    assert!(
        tcp.goodput_bps <= bound * 1.01 && tcp.goodput_bps > 0.9 * bound,
        "{} vs rwnd/RTT {bound}",
        tcp.goodput_bps
    );
}

#[test]
fn segment_airtime_counts_ip_and_tcp_headers() {
    // Timestamps add 12 header bytes to every segment: the same transfer takes more
    // airtime, visible as a lower saturated goodput of one upload.
    let goodput = |ts: bool| {
        let s = one_flow(
            &format!("[tcp]\nmss = 1460\nrwnd = 100\ntimestamps = {ts}"),
            "",
            "direction = \"uplink\"",
        );
        run(&s).flows[0].tcp.as_ref().unwrap().goodput_bps
    };
    let (plain, ts) = (goodput(false), goodput(true));
    assert!(ts < plain && ts > 0.97 * plain, "{ts} vs {plain}");
}

#[test]
fn pilosof_1up_1down_ratio_is_one_when_the_buffer_holds_both_windows() {
    for b in [84, 100] {
        let r = run(&pilosof(1, 1, b, "", "20 s"));
        let x = ratio(&r);
        assert!((0.8..=1.25).contains(&x), "B={b}: ratio {x}");
        assert_eq!(r.nodes[0].mac.queue_drops, 0);
    }
}

#[test]
fn pilosof_1up_1down_ratio_is_large_when_acks_fill_the_buffer() {
    for b in [10, 20, 30, 40] {
        let r = run(&pilosof(1, 1, b, "", "30 s"));
        let x = ratio(&r);
        assert!(x >= 5.0, "B={b}: ratio {x}");
        let ap = &r.nodes[0].mac;
        assert!(ap.queue_drops_data > 0 && ap.queue_drops_ack > 0, "{ap:?}");
        // The upload never loses data: ACK losses do not shrink its window.
        let up = r.flows[0].tcp.as_ref().unwrap();
        assert_eq!(up.retransmissions, 0, "B={b}");
    }
}

#[test]
fn rwnd_clamping_restores_fairness() {
    let plain = run(&pilosof(4, 4, 100, "", "20 s"));
    let clamped = run(&pilosof(4, 4, 100, "rwnd_clamp = true", "20 s"));
    let (x0, x1) = (ratio(&plain), ratio(&clamped));
    assert!(x0 >= 5.0, "without clamping: ratio {x0}");
    assert!((0.8..=1.25).contains(&x1), "with clamping: ratio {x1}");
    // pilosof2003 reports the total unchanged; here clamping costs 10-20 % of it, because
    // without clamping the AP drops a third of the uploads' (redundant) TCP ACKs and the
    // airtime they would take carries data instead: shown and asserted, cause included, by
    // tests/test_tcp.py::test_clamping_total_throughput_cost_is_the_thinned_ack_airtime.
    let (t0, t1) = (total(&plain), total(&clamped));
    assert!((0.8..=1.05).contains(&(t1 / t0)), "total {t1} vs {t0}");
    assert_eq!(clamped.nodes[0].mac.queue_drops, 0, "⌊100/8⌋ × 8 fits B");
}

#[test]
fn separate_ack_queue_drops_acks_and_data_apart() {
    let r = run(&pilosof(1, 1, 20, "ack_queue = 5", "20 s"));
    let ap = &r.nodes[0].mac;
    // A = 5 cannot hold the upload's 42-segment window of ACKs.
    assert!(ap.queue_drops_ack > 0, "{ap:?}");
    assert_eq!(ap.queue_drops, ap.queue_drops_ack + ap.queue_drops_data);
}

fn error_of(toml: &str) -> String {
    Scenario::from_toml(toml).unwrap_err().to_string()
}

#[test]
fn bad_tcp_and_ap_options_name_the_key() {
    let base = |tcp: &str, ap: &str| {
        format!(
            "duration = \"1 s\"\n[ap]\n{ap}\n[[stations]]\nname = \"sta\"\n[[servers]]\nname = \"srv\"\n\
             [[flows]]\nname = \"f\"\nprotocol = \"tcp\"\ndirection = \"uplink\"\nstations = \"sta\"\n\
             server = \"srv\"\n{tcp}"
        )
    };
    let e = error_of(&base("[flows.tcp]\nrwnd = 0", ""));
    assert!(e.contains("flows[0].tcp") && e.contains("rwnd"), "{e}");
    let e = error_of(&base("[flows.tcp]\nvariant = \"cubicle\"", ""));
    assert!(e.contains("variant") && e.contains("newreno"), "{e}");
    let e = error_of(&base("[flows.tcp]\nprofile = \"ns3\"", ""));
    assert!(e.contains("ns2-compat"), "{e}");
    let e = error_of(&base("[flows.tcp]\nwindow = 4", ""));
    assert!(e.contains("window"), "{e}");
    let e = error_of(&base("", "queue = 0"));
    assert!(e.contains("ap.queue"), "{e}");
    let e = error_of(&base("", "ack_queue = 0"));
    assert!(e.contains("ap.ack_queue"), "{e}");
    let e = error_of(&base("[flows.tcp]\nmss = 4000", ""));
    assert!(e.contains("flows[0].tcp.mss"), "{e}");
    let e = error_of(&base("packet_size = 1000", ""));
    assert!(
        e.contains("flows[0].packet_size") && e.contains("mss"),
        "{e}"
    );
    let e = error_of(&base("", "").replace("server = \"srv\"", "server = \"web\""));
    assert!(e.contains("flows[0].server") && e.contains("srv"), "{e}");
}

const VARIANTS: [&str; 8] = [
    "tahoe",
    "reno",
    "newreno",
    "sack",
    "vegas",
    "vegas-sack",
    "cubic",
    "cubic-sack",
];

/// Every variant across the WLAN with TCP losses (frame errors past a small retry limit,
/// and a small AP buffer): the run's packet accounting holds (`simulate` fails otherwise),
/// every byte of a fixed-size download arrives once, and bulk uploads make progress.
#[test]
fn every_variant_runs_across_the_wlan_with_losses() {
    for variant in VARIANTS {
        let s = Scenario::from_toml(&format!(
            r#"
duration = "30 s"
[mac]
short_retry_limit = 2
[ap]
queue = 15
[tcp]
variant = "{variant}"
min_rto = "200 ms"
[[stations]]
name = "sta"
count = 3
fer = 0.2
[[servers]]
name = "srv"
[[flows]]
name = "down"
protocol = "tcp"
direction = "downlink"
stations = "sta"
server = "srv"
bytes = "300 kB"
[[flows]]
name = "up"
protocol = "tcp"
direction = "uplink"
stations = "sta"
server = "srv"
"#
        ))
        .expect("valid scenario");
        let r = run(&s);
        let mut retransmissions = 0;
        for f in &r.flows {
            let tcp = f.tcp.as_ref().unwrap();
            retransmissions += tcp.retransmissions;
            if f.direction == Direction::Downlink {
                let delivered = tcp.goodput_bps * r.meta.measured_s / 8.0;
                assert!(
                    (delivered - 300_000.0).abs() < 1.0,
                    "{variant}: {delivered}"
                );
            } else {
                assert!(tcp.goodput_bps > 100_000.0, "{variant}: {tcp:?}");
            }
        }
        assert!(retransmissions > 0, "{variant}: losses occurred");
    }
}
