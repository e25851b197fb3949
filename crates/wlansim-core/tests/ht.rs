//! 802.11n (HT) and 802.11ac (VHT): the keys' defaults and resolution, the airtime of
//! their exchanges, and the errors of combinations that do not exist.
use wlansim_core::phy::ht::{Format, GuardInterval};
use wlansim_core::sim::time::US;
use wlansim_core::Scenario;

fn scenario(phy: &str, ap: &str) -> Result<Scenario, String> {
    Scenario::from_toml(&format!(
        "duration = \"1 s\"\n[phy]\n{phy}\n[ap]\n{ap}\n[[stations]]\nname = \"sta\"\n"
    ))
    .map_err(|e| e.to_string())
}

fn refused(phy: &str, ap: &str) -> String {
    scenario(phy, ap).expect_err("refused")
}

#[test]
fn defaults_resolve_to_the_highest_mcs_of_one_stream() {
    let s = scenario("standard = \"802.11n\"", "").unwrap();
    let phy = s.phy();
    let ht = phy.ht.expect("an HT mode");
    assert_eq!(
        (ht.format, ht.mcs, ht.streams, ht.width_mhz),
        (Format::Ht, 7, 1, 20)
    );
    assert_eq!(ht.guard_interval, GuardInterval::Long);
    assert_eq!(phy.data_rate, 65_000_000);
    // 5 GHz: 802.11a's slot and SIFS, no signal extension.
    assert_eq!(
        (phy.slot, phy.sifs, phy.signal_extension),
        (9 * US, 16 * US, 0)
    );
    // A QoS data frame: 26-byte header + FCS + LLC/SNAP; 1500 IP bytes at MCS 7:
    // (16 + 8 · 1538 + 6) / 260 → 48 symbols, after 36 µs of HT-mixed preamble.
    assert_eq!(phy.data_mpdu_bytes(1500), 1538);
    assert_eq!(phy.data_time(1500), (36 + 192) * US);
    let resolved = serde_json::to_value(s.resolved()).unwrap();
    assert_eq!(resolved["phy"]["mcs"], 7);
    assert_eq!(resolved["phy"]["channel_width"], 20);
    assert_eq!(resolved["phy"]["band"], "5 GHz");
    assert!(resolved["phy"].get("data_rate").is_none());
    let again = Scenario::from_json(&resolved.to_string()).unwrap();
    assert_eq!(again.phy(), phy);

    let ac = scenario("standard = \"802.11ac\"", "").unwrap().phy();
    let vht = ac.ht.unwrap();
    assert_eq!((vht.mcs, vht.width_mhz), (9, 80));
    // The A-MPDU delimiter of a VHT single MPDU; 40 µs of VHT preamble + 8 symbols.
    assert_eq!(ac.data_mpdu_bytes(1500), 1542);
    assert_eq!(ac.data_time(1500), (40 + 32) * US);
    // 20 MHz with one stream: MCS 9 does not exist, the default is MCS 8.
    let narrow = scenario("standard = \"802.11ac\"\nchannel_width = 20", "").unwrap();
    assert_eq!(narrow.phy().ht.unwrap().mcs, 8);
}

#[test]
fn legacy_resolved_forms_gain_no_key() {
    let s = scenario("standard = \"802.11g\"", "").unwrap();
    let resolved = serde_json::to_value(s.resolved()).unwrap();
    for key in ["band", "mcs", "streams", "channel_width", "guard_interval"] {
        assert!(resolved["phy"].get(key).is_none(), "{key}");
    }
}

#[test]
fn the_2_4_ghz_band_and_the_short_guard_interval() {
    let s = scenario(
        "standard = \"802.11n\"\nband = \"2.4 GHz\"\nguard_interval = \"short\"",
        "",
    )
    .unwrap();
    let phy = s.phy();
    assert_eq!((phy.sifs, phy.signal_extension), (10 * US, 6 * US));
    // 48 symbols of 3.6 µs = 172.8 µs, counted as 176; then the signal extension.
    assert_eq!(phy.data_time(1500), (36 + 176 + 6) * US);
    assert_eq!(phy.data_rate, 72_222_222);
}

#[test]
fn control_frames_follow_the_non_ht_reference_rate() {
    // Default basic rates 6, 12, 24: MCS 7 refers to 54 Mb/s, its ACK goes at 24 Mb/s.
    let s = scenario("standard = \"802.11ac\"", "").unwrap();
    let t = s.timing(1472);
    assert_eq!(t.ack_s, 28e-6);
    assert_eq!(t.control_rate_bps, 24e6);
    // MCS 1 (QPSK 1/2) refers to 12 Mb/s.
    let s = scenario("standard = \"802.11n\"\nmcs = 1", "").unwrap();
    assert_eq!(s.timing(1472).ack_s, 32e-6);
    // phy.control_rate overrides every control frame.
    let s = scenario("standard = \"802.11n\"\ncontrol_rate = \"6 Mb/s\"", "").unwrap();
    assert_eq!(s.timing(1472).ack_s, 44e-6);
}

#[test]
fn every_station_is_a_qos_station() {
    let s = scenario("standard = \"802.11n\"", "").unwrap();
    let m = wlansim_core::scenario::Model::resolve(&s).unwrap();
    for node in &m.nodes {
        if let Some(access) = &node.access {
            assert_eq!(access.entities.len(), 4, "{}: one EDCAF per AC", node.name);
        }
    }
}

#[test]
fn combinations_that_do_not_exist_are_refused_by_key() {
    let cases = [
        (
            "standard = \"802.11ac\"\nchannel_width = 20\nmcs = 9",
            "`phy.mcs`: 9: VHT MCS 9 does not exist at 20 MHz",
        ),
        (
            "standard = \"802.11ac\"\nchannel_width = 80\nstreams = 3\nmcs = 6",
            "`phy.mcs`",
        ),
        (
            "standard = \"802.11n\"\nmcs = 8",
            "HT's MCS 8-31 are these with 2-4 streams",
        ),
        (
            "standard = \"802.11n\"\nchannel_width = 80",
            "`phy.channel_width`: 80 MHz: HT (802.11n) channels are 20, 40 MHz wide",
        ),
        (
            "standard = \"802.11ac\"\nstreams = 5",
            "`phy.streams`: 5: 1 to 4",
        ),
        (
            "standard = \"802.11n\"\ndata_rate = \"54 Mb/s\"",
            "`phy.data_rate`",
        ),
        (
            "standard = \"802.11n\"\nnonstandard_rate = true",
            "`phy.nonstandard_rate`",
        ),
        (
            "standard = \"802.11b\"\nmcs = 3",
            "`phy.mcs`: 802.11b has no HT/VHT data frames",
        ),
        ("standard = \"802.11ac\"\nband = \"2.4 GHz\"", "`phy.band`"),
        (
            "standard = \"802.11a\"\nguard_interval = \"short\"",
            "`phy.guard_interval`",
        ),
    ];
    for (phy, words) in cases {
        let e = refused(phy, "");
        assert!(e.contains(words), "{phy}: {e}");
    }
    let e = Scenario::from_toml(
        "duration = \"1 s\"\nprofile = \"ns2\"\n[phy]\nstandard = \"802.11n\"\n[[stations]]\nname = \"s\"",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("`profile`: \"ns2\" with 802.11n"), "{e}");
    let e = refused(
        "standard = \"802.11n\"\nchannel_width = 40",
        "channel = 165",
    );
    assert!(e.contains("`ap.channel`: 165: no 40 MHz channel"), "{e}");
    let e = Scenario::from_toml(
        "duration = \"1 s\"\n[phy]\nstandard = \"802.11n\"\n[[stations]]\nname = \"s\"\ndata_rate = \"6 Mb/s\"",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("`stations[0].data_rate`"), "{e}");
}

#[test]
fn wide_bsss_on_one_block_overlap() {
    let two = |width: u16, a: u16, b: u16| {
        Scenario::from_toml(&format!(
            "duration = \"1 s\"\n[phy]\nstandard = \"802.11ac\"\nchannel_width = {width}\n\
             [[aps]]\nname = \"a\"\nchannel = {a}\n[[aps]]\nname = \"b\"\nchannel = {b}\n\
             [[stations]]\nname = \"s\"\nap = \"a\"\n"
        ))
    };
    assert!(two(40, 36, 44).is_ok());
    let e = two(80, 36, 44).unwrap_err().to_string();
    assert!(
        e.contains("`aps[1].channel`") && e.contains("overlap"),
        "{e}"
    );
    assert!(two(80, 36, 52).is_ok());
}
