//! Rate adaptation in a running cell (`mac/rate/`): one saturated 802.11g (or 802.11n)
//! station uploading to its AP at a fixed received power, noise floor −94 dBm.
use crate::results::Results;
use crate::scenario::Scenario;
use crate::world::simulate;

fn cell(standard: &str, rx_dbm: f64, mac: &str) -> Scenario {
    cell_with(standard, "", rx_dbm, mac)
}

/// [`cell`] with more `[phy]` keys.
fn cell_with(standard: &str, phy: &str, rx_dbm: f64, mac: &str) -> Scenario {
    Scenario::from_toml(&format!(
        r#"
duration = "5 s"
warmup = "0.5 s"
[phy]
standard = "{standard}"
{phy}
[mac]
{mac}
[channel.reception]
model = "sinr"
noise_floor_dbm = -94
sensitivity_dbm = -95
rx_power_dbm = {rx_dbm}
[[stations]]
name = "sta"
[[flows]]
name = "up"
direction = "uplink"
stations = "sta"
traffic = "saturated"
packet_size = "1472 B"
"#
    ))
    .unwrap()
}

fn run(s: &Scenario) -> Results {
    simulate(s, Some(1)).unwrap()
}

fn station_rate(r: &Results) -> f64 {
    r.nodes[1].mean_data_rate_bps.expect("adapted attempts")
}

#[test]
fn ideal_picks_the_highest_rate_whose_threshold_the_snr_reaches() {
    // Thresholds at BER 1e-6 (dB, from python/wlansim/models/error_rate.py's curves):
    // 6: 4.54, 9: 7.47, 12: 7.55, 18: 10.48, 24: 14.14, 36: 17.26, 48: 22.01, 54: 23.30.
    for (snr_db, mbps) in [
        (3.0, 6.0), // below every threshold: the lowest rate
        (5.0, 6.0),
        (8.0, 12.0),
        (12.0, 18.0),
        (15.0, 24.0),
        (19.0, 36.0),
        (22.5, 48.0),
        (24.0, 54.0),
    ] {
        let mut s = cell("802.11g", -94.0 + snr_db, "rate_control = \"ideal\"");
        s.duration = crate::scenario::units::Duration(crate::sim::time::SECOND);
        assert_eq!(station_rate(&run(&s)), mbps * 1e6, "SNR {snr_db} dB");
    }
}

/// Throughput of the run's flow, b/s.
fn throughput(r: &Results) -> f64 {
    r.flows[0].throughput_bps
}

/// The best constant rate's throughput and its rate, trying each of `rates` (`mac`: more
/// `[mac]` keys).
fn best_constant(
    standard: &str,
    rx_dbm: f64,
    mac: &str,
    key: &str,
    rates: &[&str],
) -> (f64, String) {
    rates
        .iter()
        .map(|r| {
            let s = cell_with(standard, &format!("{key} = {r}"), rx_dbm, mac);
            (throughput(&run(&s)), r.to_string())
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap()
}

#[test]
fn minstrel_and_arf_come_close_to_the_best_constant_rate_at_a_fixed_snr() {
    let rates = ["6", "12", "18", "24", "36", "48", "54"].map(|r| format!("\"{r} Mb/s\""));
    let rates: Vec<&str> = rates.iter().map(|r| r.as_str()).collect();
    let (best, rate) = best_constant("802.11g", -75.0, "", "data_rate", &rates);
    assert_eq!(rate, "\"36 Mb/s\"");
    for (algorithm, share) in [
        ("minstrel", 0.9),
        ("arf", 0.85),
        ("aarf", 0.9),
        ("ideal", 1.0),
    ] {
        let s = cell("802.11g", -75.0, &format!("rate_control = \"{algorithm}\""));
        let got = throughput(&run(&s));
        assert!(
            got >= share * best && got <= best * 1.001,
            "{algorithm}: {got} vs {best}"
        );
    }
}

#[test]
fn minstrel_ht_comes_close_to_the_best_constant_mcs_at_a_fixed_snr() {
    let mcs: Vec<String> = (0..8).map(|m| m.to_string()).collect();
    let mcs: Vec<&str> = mcs.iter().map(|m| m.as_str()).collect();
    let (best, at) = best_constant("802.11n", -70.0, "", "mcs", &mcs);
    let s = cell("802.11n", -70.0, "rate_control = \"minstrel_ht\"");
    let got = throughput(&run(&s));
    assert!(
        got >= 0.9 * best && got <= best * 1.001,
        "MCS {at}: {best}, minstrel_ht {got}"
    );
}

#[test]
fn with_a_mpdus_minstrel_ht_and_ideal_come_close_to_the_best_constant_mcs() {
    let mcs: Vec<String> = (0..8).map(|m| m.to_string()).collect();
    let mcs: Vec<&str> = mcs.iter().map(|m| m.as_str()).collect();
    let ampdu = "ampdu_max_bytes = 65535";
    // SNR 15 and 24 dB: MPDUs lost at the faster MCS, whose Block Acks feed the controller.
    for rx_dbm in [-79.0, -70.0] {
        let (best, at) = best_constant("802.11n", rx_dbm, ampdu, "mcs", &mcs);
        for algorithm in ["minstrel_ht", "ideal"] {
            let mac = format!("{ampdu}\nrate_control = \"{algorithm}\"");
            let got = throughput(&run(&cell("802.11n", rx_dbm, &mac)));
            assert!(
                got >= 0.9 * best && got <= best * 1.001,
                "{rx_dbm} dBm: MCS {at}: {best}, {algorithm} {got}"
            );
        }
    }
}

#[test]
fn adapted_runs_are_deterministic() {
    let s = cell("802.11g", -75.0, "rate_control = \"minstrel\"");
    let json = || {
        let mut r = run(&s);
        r.meta.wall_s = 0.0;
        r.to_json()
    };
    assert_eq!(json(), json());
}

#[test]
fn rate_control_is_refused_where_it_cannot_work() {
    let error = |text: &str| {
        Scenario::from_toml(&format!("duration = \"1 s\"\n{text}")).expect_err("refused")
    };
    let base = "[[stations]]\nname = \"s\"\n[[flows]]\nname = \"f\"\ndirection = \"uplink\"\nstations = \"s\"\n";
    let e = error(&format!("[mac]\nrate_control = \"arf\"\n{base}"));
    assert_eq!(e.path, "mac.rate_control");
    assert!(e.message.contains("model = \"sinr\""), "{}", e.message);
    let sinr = "[channel.reception]\nmodel = \"sinr\"\n";
    let e = error(&format!(
        "[mac]\nrate_control = \"minstrel_ht\"\n{sinr}{base}"
    ));
    assert!(e.message.contains("use \"minstrel\""), "{}", e.message);
    let e = error(&format!(
        "[phy]\nstandard = \"802.11n\"\n[mac]\nrate_control = \"minstrel\"\n{sinr}{base}"
    ));
    assert!(e.message.contains("use \"minstrel_ht\""), "{}", e.message);
    let e = error(&format!(
        "[phy]\nstandard = \"802.11n\"\n[mac]\nrate_control = \"aarf\"\nampdu_max_bytes = 8000\n{sinr}{base}"
    ));
    assert!(e.message.contains("partly acknowledged"), "{}", e.message);
    // Minstrel-HT's groups at 160 MHz, 4 streams and 400 ns: 310 rates, past a ladder's 255.
    let e = error(&format!(
        "[phy]\nstandard = \"802.11ac\"\nchannel_width = 160\nstreams = 4\nguard_interval = \"short\"\n[mac]\nrate_control = \"minstrel_ht\"\n{sinr}{base}"
    ));
    assert!(e.message.contains("hold 310 rates"), "{}", e.message);
    let e = error(&format!("[mac]\nrate_control = \"fast\"\n{sinr}{base}"));
    assert!(e.message.contains("minstrel_ht"), "{}", e.message);
}
