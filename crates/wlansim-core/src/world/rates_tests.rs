//! The rates of each frame in a mixed 802.11b cell (802.11-2016 10.6.6.5.2): data at 11,
//! 5.5 and 2 Mb/s, basic rate set {1, 2} Mb/s. Each exchange is timed through the MAC and
//! compared with its airtime worked out by hand from clause 16/17 (long PLCP 192 µs,
//! PSDU time = bits / rate rounded up to the µs, SIFS 10 µs, δ = 1 µs).
use super::World;
use crate::scenario::Scenario;
use crate::sim::time::US;

const BASIC: &str = "basic_rates = [\"1 Mb/s\", \"2 Mb/s\"]";

/// AP + one saturated uplink station per data rate (entities 1, 2, 3), a downlink flow
/// to the 2 Mb/s station (the AP, entity 0), RTS before every data frame.
fn world(extra_phy: &str, ap: &str) -> World {
    let s = Scenario::from_toml(&format!(
        r#"
duration = "10 s"
[phy]
standard = "802.11b"
{extra_phy}
[mac]
rts_threshold = 0
[ap]
{ap}
[[stations]]
name = "fast"
data_rate = "11 Mb/s"
[[stations]]
name = "mid"
data_rate = "5.5 Mb/s"
[[stations]]
name = "slow"
data_rate = "2 Mb/s"
[[flows]]
name = "up-fast"
direction = "uplink"
stations = "fast"
packet_size = "1000 B"
[[flows]]
name = "up-mid"
direction = "uplink"
stations = "mid"
packet_size = "1000 B"
[[flows]]
name = "up-slow"
direction = "uplink"
stations = "slow"
packet_size = "1000 B"
[[flows]]
name = "down-slow"
direction = "downlink"
stations = "slow"
packet_size = "1000 B"
"#
    ))
    .unwrap();
    let mut w = World::new(&s, 1).unwrap();
    for f in 0..4 {
        w.on_source_start(0, f);
    }
    w
}

/// The length of one exchange of entity `e` (alone on the medium), in µs.
fn exchange_us(w: &mut World, e: u32) -> u64 {
    let t0 = 10_000 * US;
    for o in 0..4 {
        w.mac.set_backoff(o, if o == e { 0 } else { 500 }, t0);
    }
    w.on_access_grant(t0, w.mac.generation());
    assert_eq!(w.mac.shared.transmitters, vec![e]);
    assert!(w.mac.shared.exchange.success);
    (w.mac.shared.exchange.end - t0) / US
}

/// RTS + δ + SIFS + CTS + δ + SIFS + data + δ + SIFS + ACK + δ, PPDUs in µs.
fn expected(rts: u64, cts: u64, data: u64, ack: u64) -> u64 {
    rts + cts + data + ack + 4 + 3 * 10
}

// PPDUs with the long PLCP (192 µs): RTS (160 bits) at 1 / 2 Mb/s = 352 / 272 µs; CTS and
// ACK (112 bits) = 304 / 248 µs; data MPDU of 1000 B + UDP/IP + LLC/SNAP + MAC = 1064 B =
// 8512 bits at 11 / 5.5 / 2 Mb/s = 966 / 1740 / 4448 µs.
const RTS: [u64; 2] = [352, 272];
const CTS_ACK: [u64; 2] = [304, 248];
const DATA: [u64; 3] = [966, 1740, 4448];

#[test]
fn control_responses_follow_the_basic_rate_set() {
    // Every data rate is ≥ 2 Mb/s: ACK at 2 Mb/s; the RTS at the highest basic rate not
    // above the data rate (2 Mb/s), its CTS at 2 Mb/s. The AP's frames to the 2 Mb/s
    // station (entity 0) use that link's rates.
    for (e, data) in [(1, DATA[0]), (2, DATA[1]), (3, DATA[2]), (0, DATA[2])] {
        let want = expected(RTS[1], CTS_ACK[1], data, CTS_ACK[1]);
        assert_eq!(exchange_us(&mut world("", BASIC), e), want, "entity {e}");
    }
    // Without a basic rate set, every control frame at the PHY's lowest rate (as before).
    let want = expected(RTS[0], CTS_ACK[0], DATA[0], CTS_ACK[0]);
    assert_eq!(exchange_us(&mut world("", ""), 1), want);
}

#[test]
fn rts_rate_sets_the_rts_and_its_cts_but_not_the_ack() {
    let mut w = world("", &format!("{BASIC}\nrts_rate = \"1 Mb/s\""));
    let want = expected(RTS[0], CTS_ACK[0], DATA[0], CTS_ACK[1]);
    assert_eq!(exchange_us(&mut w, 1), want);
}

#[test]
fn phy_control_rate_overrides_every_control_frame() {
    let mut w = world("control_rate = \"1 Mb/s\"", BASIC);
    let want = expected(RTS[0], CTS_ACK[0], DATA[0], CTS_ACK[0]);
    assert_eq!(exchange_us(&mut w, 1), want);
}

#[test]
fn short_preamble_bss_uses_the_short_plcp() {
    let mut w = world("", "preamble = \"short\"\nbasic_rates = [\"2 Mb/s\"]");
    // The short PLCP is 96 µs: every PPDU is 96 µs shorter (RTS, CTS, ACK at 2 Mb/s).
    let want = expected(RTS[1], CTS_ACK[1], DATA[0], CTS_ACK[1]) - 4 * 96;
    assert_eq!(exchange_us(&mut w, 1), want);
}
