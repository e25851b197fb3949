//! A-MPDU with Block Ack (`mac.ampdu_max_bytes`, `mac.ba_window`): the keys' errors, and
//! whole runs whose packet accounting (checked at every run's end) covers the Block Ack
//! windows and the reordering buffers.
use wlansim_core::results::Results;
use wlansim_core::{simulate, Scenario};

/// `n` saturated uplink stations on `phy` with `mac` lines and extra top-level TOML.
fn cell(n: u32, phy: &str, mac: &str, top: &str) -> Result<Scenario, String> {
    cell_with(n, phy, mac, top, "")
}

/// [`cell`] with extra lines `sta` in the station group's table.
fn cell_with(n: u32, phy: &str, mac: &str, top: &str, sta: &str) -> Result<Scenario, String> {
    Scenario::from_toml(&format!(
        r#"
duration = "3 s"
warmup = "0.5 s"
{top}
[phy]
{phy}
[mac]
{mac}
[[stations]]
name = "sta"
count = {n}
{sta}
[[flows]]
name = "up"
direction = "uplink"
stations = "sta"
traffic = "saturated"
packet_size = "1472 B"
"#
    ))
    .map_err(|e| e.to_string())
}

const AC: &str = "standard = \"802.11ac\"\nmcs = 9";

fn run(s: &Scenario, seed: u64) -> Results {
    simulate(s, Some(seed)).expect("run succeeds (packet accounting included)")
}

#[test]
fn keys_outside_their_range_or_phy_are_refused_by_name() {
    let refused = |phy: &str, mac: &str, top: &str| cell(1, phy, mac, top).expect_err("refused");
    let e = refused("standard = \"802.11g\"", "ampdu_max_bytes = 8000", "");
    assert!(
        e.contains("mac.ampdu_max_bytes") && e.contains("802.11n"),
        "{e}"
    );
    let e = refused("standard = \"802.11n\"", "ampdu_max_bytes = 65536", "");
    assert!(
        e.contains("mac.ampdu_max_bytes") && e.contains("65535"),
        "{e}"
    );
    assert!(cell(1, AC, "ampdu_max_bytes = 1048575", "").is_ok());
    let e = refused(AC, "ampdu_max_bytes = 1048576", "");
    assert!(e.contains("1048575"), "{e}");
    for w in [0, 65] {
        let e = refused(AC, &format!("ampdu_max_bytes = 8000\nba_window = {w}"), "");
        assert!(e.contains("mac.ba_window") && e.contains("1 to 64"), "{e}");
    }
    let e = refused(AC, "ba_window = 32", "");
    assert!(
        e.contains("mac.ba_window") && e.contains("ampdu_max_bytes"),
        "{e}"
    );
    // A-MPDUs are captured; A-MSDUs are not (their subframes are not written).
    assert!(cell(
        1,
        AC,
        "ampdu_max_bytes = 8000",
        "[output]\npcap = \"/tmp/wlansim-ampdu-pcap\""
    )
    .is_ok());
    let e = refused(AC, "amsdu_max_bytes = 3839", "[output]\npcap = \"/tmp\"");
    assert!(e.contains("output.pcap"), "{e}");
}

#[test]
fn amsdu_lengths_outside_the_phys_limits_are_refused_by_name() {
    let refused = |phy: &str, mac: &str, top: &str| cell(1, phy, mac, top).expect_err("refused");
    let e = refused("standard = \"802.11g\"", "amsdu_max_bytes = 3839", "");
    assert!(
        e.contains("mac.amsdu_max_bytes") && e.contains("802.11n"),
        "{e}"
    );
    let n = "standard = \"802.11n\"";
    assert!(cell(1, n, "amsdu_max_bytes = 7935", "").is_ok());
    let e = refused(n, "amsdu_max_bytes = 7936", "");
    assert!(
        e.contains("mac.amsdu_max_bytes") && e.contains("7935"),
        "{e}"
    );
    // Inside an HT A-MPDU an MPDU is at most 4095 bytes.
    assert!(cell(1, n, "amsdu_max_bytes = 4065\nampdu_max_bytes = 65535", "").is_ok());
    let e = refused(n, "amsdu_max_bytes = 4066\nampdu_max_bytes = 65535", "");
    assert!(
        e.contains("mac.amsdu_max_bytes") && e.contains("4065"),
        "{e}"
    );
    assert!(cell(
        1,
        AC,
        "amsdu_max_bytes = 11454\nampdu_max_bytes = 65535",
        ""
    )
    .is_ok());
    let e = refused(AC, "amsdu_max_bytes = 11455", "");
    assert!(e.contains("11454"), "{e}");
    let e = refused(AC, "amsdu_max_bytes = 7935", "[output]\npcap = \"/tmp\"");
    assert!(e.contains("output.pcap") && e.contains("A-MSDU"), "{e}");
}

#[test]
fn amsdus_alone_and_inside_ampdus_carry_more_and_account_for_every_packet() {
    let single = run(&cell(5, AC, "", "").unwrap(), 3);
    let thr = |r: &Results| r.flows[0].throughput_bps;
    let amsdu = cell(5, AC, "amsdu_max_bytes = 7935", "").unwrap();
    let (a, b) = (run(&amsdu, 3), run(&amsdu, 3));
    assert_eq!(
        serde_json::to_value(&a.flows).unwrap(),
        serde_json::to_value(&b.flows).unwrap()
    );
    // Five 1500-byte packets per MPDU instead of one.
    assert!(
        thr(&a) > 2.5 * thr(&single),
        "{} vs {}",
        thr(&a),
        thr(&single)
    );
    let mac = "ampdu_max_bytes = 65535\namsdu_max_bytes = 7935\nshort_retry_limit = 2";
    let lossy = run(&cell_with(3, AC, mac, "", "fer = 0.5").unwrap(), 2);
    let drops: u64 = lossy.nodes.iter().map(|n| n.mac.retry_drops).sum();
    assert!(drops > 100, "{drops} drops");
}

#[test]
fn the_spatial_medium_is_refused_with_aggregation() {
    let s = cell(
        2,
        AC,
        "ampdu_max_bytes = 8000",
        "[channel]\nmedium = \"spatial\"",
    )
    .expect("valid keys");
    let e = simulate(&s, Some(1)).expect_err("refused").to_string();
    assert!(
        e.contains("mac.ampdu_max_bytes") && e.contains("spatial"),
        "{e}"
    );
}

#[test]
fn aggregation_carries_more_and_is_deterministic() {
    let single = cell(5, AC, "", "").unwrap();
    let agg = cell(5, AC, "ampdu_max_bytes = 65535", "").unwrap();
    let (a, b) = (run(&agg, 3), run(&agg, 3));
    assert_eq!(
        serde_json::to_value(&a.flows).unwrap(),
        serde_json::to_value(&b.flows).unwrap()
    );
    let s = run(&single, 3);
    let thr = |r: &Results| r.flows[0].throughput_bps;
    // 42 MPDUs per access instead of one: several times the throughput.
    assert!(thr(&a) > 3.0 * thr(&s), "{} vs {}", thr(&a), thr(&s));
}

#[test]
fn mpdus_lost_at_the_retry_limit_leave_the_window_and_accounting_holds() {
    // Each MPDU is lost with probability 0.5: a quarter reach the 2-attempt limit.
    let mac = "ampdu_max_bytes = 65535\nshort_retry_limit = 2";
    let s = cell_with(3, AC, mac, "", "fer = 0.5").unwrap();
    let r = run(&s, 2);
    let drops: u64 = r.nodes.iter().map(|n| n.mac.retry_drops).sum();
    let retries: u64 = r.nodes.iter().map(|n| n.mac.retries).sum();
    assert!(
        drops > 100 && retries > 100,
        "{drops} drops, {retries} retries"
    );
    assert!(r.flows[0].throughput_bps > 0.0);
}

#[test]
fn a_block_ack_req_whose_block_ack_is_lost_delivers_nothing() {
    // SINR reception, a station heard 15 dB above two others: colliding frames that
    // outlast a captured exchange can cost the BlockAck that answers it, a BlockAckReq's
    // among them. A BlockAckReq carries no data: nothing goes up when its BlockAck is
    // lost (each of these seeds once delivered the queue's head then, and again when it
    // was sent: the run's packet accounting failed).
    let s = Scenario::from_toml(
        r#"
duration = "2 s"
warmup = "0 s"
[channel.reception]
model = "sinr"
noise_floor_dbm = -94
rx_power_dbm = -60
[phy]
standard = "802.11n"
[mac]
ampdu_max_bytes = 65535
[[stations]]
name = "near"
antenna_gain_db = 15
[[stations]]
name = "far"
count = 2
[[flows]]
name = "up"
direction = "uplink"
stations = "near"
traffic = "saturated"
packet_size = "1472 B"
[[flows]]
name = "up-far"
direction = "uplink"
stations = "far"
traffic = "saturated"
packet_size = "1472 B"
"#,
    )
    .unwrap();
    for seed in 1..=3 {
        let r = run(&s, seed);
        let near = r.nodes.iter().find(|n| n.name == "near-0").unwrap();
        assert!(near.mac.control_errors > 0, "seed {seed}: no BlockAck lost");
    }
}

/// [`cell`] measured from the start (the ADDBA exchanges counted).
fn from_start(n: u32, phy: &str, mac: &str) -> Scenario {
    let mut s = cell(n, phy, mac, "").unwrap();
    s.warmup = Default::default();
    s
}

#[test]
fn every_station_sets_its_block_ack_agreement_up_with_addba() {
    // Each station's first access sends an ADDBA Request, and the AP answers each with an
    // ADDBA Response in an access of its own: the Requests that collide go again, so at
    // least one of each per station (a late Response lets MPDUs go alone meanwhile, and a
    // new Request follows 200 ms later only if none came).
    for seed in 1..=3 {
        let r = run(&from_start(5, AC, "ampdu_max_bytes = 65535"), seed);
        let (ap, stations) = r.nodes.split_first().unwrap();
        assert!(
            stations.iter().all(|n| n.mac.addba_sent >= 1),
            "seed {seed}"
        );
        let sent: u64 = stations.iter().map(|n| n.mac.addba_sent).sum();
        assert!(sent < 50, "seed {seed}: {sent} Requests");
        assert!(ap.mac.addba_sent >= 5, "seed {seed}: {}", ap.mac.addba_sent);
    }
    // No A-MPDU, no agreement (A-MSDUs alone go with ACKs).
    for mac in ["", "amsdu_max_bytes = 3839"] {
        let r = run(&from_start(5, AC, mac), 1);
        assert!(r.nodes.iter().all(|n| n.mac.addba_sent == 0), "{mac:?}");
    }
}

#[test]
fn a_lone_packet_on_802_11n_goes_without_an_agreement() {
    // ns-3.37's NeedSetupBlockAck: on an HT PHY, one MPDU waiting for its receiver goes
    // alone with an ACK; on a VHT PHY any starts the setup. One 1472-byte packet a second.
    let one = |phy: &str| {
        let s = Scenario::from_toml(&format!(
            r#"
duration = "3 s"
warmup = "0 s"
[phy]
{phy}
[mac]
ampdu_max_bytes = 65535
[[stations]]
name = "sta"
[[flows]]
name = "up"
direction = "uplink"
stations = "sta"
traffic = "cbr"
rate = "11776 b/s"
packet_size = "1472 B"
"#
        ))
        .unwrap();
        let r = run(&s, 1);
        let c = &r.flows[0].counts;
        assert_eq!(c.delivered_packets, c.offered_packets);
        r.nodes[1].mac.addba_sent
    };
    assert_eq!(one("standard = \"802.11n\""), 0);
    assert_eq!(one(AC), 1);
}

/// Mean MPDUs per A-MPDU sent by the stations of `r`.
fn mpdus_per_ampdu(r: &Results) -> f64 {
    let m =
        |f: fn(&wlansim_core::results::NodeResult) -> u64| -> u64 { r.nodes.iter().map(f).sum() };
    let ampdus = m(|n| n.mac.attempts) - m(|n| n.mac.bars_sent) - m(|n| n.mac.addba_sent);
    m(|n| n.mac.mpdus_sent) as f64 / ampdus as f64
}

#[test]
fn under_ns3_a_blockackreq_that_ended_in_the_preamble_costs_no_mpdu() {
    // 802.11n MCS 7 40 MHz, every frame at one power: a BlockAckReq (32 µs at 24 Mb/s)
    // that collides with an A-MPDU ends before its Data field (36 µs in). An AP locked onto
    // the A-MPDU decodes its header (0 dB, as the BlockAckReq overlaps it) and then, under
    // ns-3.37's rule (`profile = "ns3"`, `MpduSpan::Payload`), every MPDU: the next A-MPDU
    // holds 42 MPDUs (65,535 B). Under the standard's, interference on the training fields
    // costs the first MPDU, and the window of 64 from it leaves the next A-MPDU 23.
    let sinr = "[channel.reception]\nmodel = \"sinr\"\nrx_power_dbm = -30.66\n\
                error_model = \"table\"";
    let phy = "standard = \"802.11n\"\nchannel_width = 40\nmcs = 7";
    let mac = |profile| format!("ampdu_max_bytes = 65535\nqueue = 100\nprofile = \"{profile}\"");
    for seed in 1..=2 {
        let mean =
            |profile| mpdus_per_ampdu(&run(&cell(10, phy, &mac(profile), sinr).unwrap(), seed));
        let (ns3, standard) = (mean("ns3"), mean("standard"));
        assert!(ns3 > 41.8, "seed {seed}: ns3 {ns3:.2}");
        assert!(
            standard < ns3 - 0.3,
            "seed {seed}: standard {standard:.2}, ns3 {ns3:.2}"
        );
    }
}

#[test]
fn under_the_ns3_profile_what_a_psdu_carried_goes_up_as_it_ends() {
    // One 802.11n station's lone packets (one a second: each goes alone under aggregation,
    // answered by an ACK) to a host behind its AP. Under `profile = "ns3"` the AP passes
    // each up as its PSDU ends, before the ACK, as ns-3.37 does (`mac/delivery.rs`), and
    // forwards it on at once; under the standard's profile when the exchange ends, SIFS +
    // the ACK + its propagation later. Nothing else differs between the two here (HT at
    // 800 ns, no collision), so neither does anything but the host's arrival times.
    let run_with = |top: &str| {
        let s = Scenario::from_toml(&format!(
            r#"
duration = "5 s"
warmup = "0 s"
{top}
[phy]
standard = "802.11n"
[mac]
ampdu_max_bytes = 65535
[[stations]]
name = "sta"
[[servers]]
name = "h"
[[flows]]
name = "up"
direction = "uplink"
stations = "sta"
server = "h"
traffic = "cbr"
rate = "11776 b/s"
packet_size = "1472 B"
"#
        ))
        .unwrap();
        (run(&s, 1), s.phy())
    };
    let (standard, phy) = run_with("");
    let (ns3, _) = run_with("profile = \"ns3\"");
    let (a, b) = (&standard.flows[0], &ns3.flows[0]);
    assert_eq!(a.counts.delivered_packets, 5);
    assert_eq!(b.counts.delivered_packets, 5);
    let earlier = a.delay_mean_s.unwrap() - b.delay_mean_s.unwrap();
    // The ACK at 24 Mb/s, the control-response rate of MCS 7: 20 µs + 2 symbols.
    let ack = 28e-6;
    let answer = (phy.sifs + phy.propagation_delay) as f64 * 1e-9 + ack;
    assert!(
        (earlier - answer).abs() < 1e-12,
        "{earlier} s earlier, not {answer}"
    );
}
