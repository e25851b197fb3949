//! Unit tests of the EDCA rules and of frame errors on a hand-driven world: internal
//! collisions, per-AC retry limits, TXOP burst termination, FER retries and EIFS, and the
//! checks of EDCA scenario values.
use super::World;
use crate::scenario::Scenario;
use crate::sim::time::US;

/// AP + one QoS station with a saturated flow in AC_BE ("data") and one in AC_VO
/// ("voice"), plus `extra` TOML; queues filled. Entities: AP 0–3, station 4 (BK) … 7 (VO).
fn world(extra: &str) -> World {
    let s = Scenario::from_toml(&format!(
        r#"
duration = "10 s"
[qos]
classifier = [{{ ac = "vo", flow = "voice" }}]
[ap]
qos = true
[[stations]]
name = "sta"
qos = true
{extra}
[[flows]]
name = "data"
direction = "uplink"
stations = "sta"
packet_size = "1000 B"
[[flows]]
name = "voice"
direction = "uplink"
stations = "sta"
packet_size = "100 B"
"#
    ))
    .unwrap();
    let mut w = World::new(&s, 1).unwrap();
    for f in 0..2 {
        w.on_source_start(0, f);
    }
    w
}

const BE: usize = 5;
const VO: usize = 7;

/// Entities `es` reach a zero counter at `t0`.
fn expire_at(w: &mut World, t0: u64, es: &[usize]) {
    for &e in es {
        w.mac.set_backoff(e as u32, 0, t0);
    }
}

#[test]
fn flows_are_classified_to_their_access_category() {
    let w = world("");
    assert_eq!(w.flows[0].entity as usize, BE);
    assert_eq!(w.flows[1].entity as usize, VO);
    assert!(
        !w.mac.store.entities[BE].queue.is_empty() && !w.mac.store.entities[VO].queue.is_empty()
    );
}

#[test]
fn internal_collision_higher_ac_transmits_lower_backs_off() {
    let mut w = world("");
    let t0 = 1000 * US;
    expire_at(&mut w, t0, &[BE, VO]);
    w.on_access_grant(t0, w.mac.generation());
    assert_eq!(w.mac.shared.transmitters, vec![VO as u32]);
    assert!(w.mac.shared.exchange.success, "no collision on the medium");
    let be = &w.mac.store.entities[BE];
    assert_eq!(be.stats.internal_collisions, 1);
    assert_eq!(be.stats.attempts, 0, "nothing put on the air");
    assert_eq!(be.backoff.cw, 63, "CW doubled as after a collision");
    assert_eq!(be.backoff.short_retries, 1);
    assert!(be.backoff.pending);
    assert_eq!(w.mac.store.entities[VO].stats.attempts, 1);
}

#[test]
fn retry_limits_are_per_access_category() {
    let mut w = world("[stations.edca.be]\nshort_retry_limit = 1");
    assert_eq!(w.mac.store.entities[BE].params.short_retry_limit, Some(1));
    assert_eq!(w.mac.store.entities[VO].params.short_retry_limit, Some(7));
    let t0 = 1000 * US;
    expire_at(&mut w, t0, &[BE, VO]);
    w.on_access_grant(t0, w.mac.generation());
    // One attempt allowed: the internal collision discards AC_BE's frame.
    let be = &w.mac.store.entities[BE];
    assert_eq!(be.stats.retry_drops, 1);
    assert_eq!(be.backoff.cw, 31, "CW resets after a drop");
    assert_eq!(w.flows[0].acct[0].dropped_retry, 1);
    assert!(w.check_accounting().is_ok());
}

#[test]
fn txop_burst_goes_on_while_the_next_exchange_fits_then_ends() {
    // Room for two 1000-byte exchanges but not three.
    let mut w = world("");
    let phy = w.mac.store.phy.clone();
    let (_, span) = phy.exchange_offsets(&phy.fixed_link(), false, 1028);
    let limit = 2 * span + phy.sifs + span / 2;
    w.mac.store.entities[BE].params.txop_limit = limit;
    let t0 = 1000 * US;
    expire_at(&mut w, t0, &[BE]);
    w.on_access_grant(t0, w.mac.generation());
    let first_end = w.mac.shared.exchange.end;
    assert_eq!(first_end, t0 + span);
    w.on_exchange_end(first_end);
    assert!(w.mac.is_busy(), "the TXOP continues: medium stays busy");
    assert_eq!(w.mac.shared.exchange.start, first_end + phy.sifs);
    assert_eq!(w.mac.store.entities[BE].stats.burst_exchanges, 1);
    let second_end = w.mac.shared.exchange.end;
    w.on_exchange_end(second_end);
    assert!(
        !w.mac.is_busy(),
        "a third exchange would exceed the TXOP limit"
    );
    let be = &w.mac.store.entities[BE];
    assert_eq!(be.stats.successes, 2);
    assert_eq!(
        be.stats.attempts, 1,
        "one channel access for the whole TXOP"
    );
    assert_eq!(be.stats.burst_exchanges, 1);
    assert!(be.backoff.pending, "backoff invoked once the TXOP ends");
    assert_eq!(
        w.mac.countdown_start(BE as u32),
        second_end + be.params.aifs
    );
    assert_eq!(w.flows[0].acct[0].delivered, 2);
}

#[test]
fn zero_txop_limit_is_one_exchange() {
    let mut w = world("");
    assert_eq!(w.mac.store.entities[BE].params.txop_limit, 0);
    let t0 = 1000 * US;
    expire_at(&mut w, t0, &[BE]);
    w.on_access_grant(t0, w.mac.generation());
    let end = w.mac.shared.exchange.end;
    w.on_exchange_end(end);
    assert!(!w.mac.is_busy());
    assert_eq!(w.mac.store.entities[BE].stats.burst_exchanges, 0);
}

#[test]
fn lost_frame_is_retried_after_ack_timeout_and_others_defer_eifs() {
    let mut w = world("fer_uplink = 0.999999");
    let phy = w.mac.store.phy.clone();
    let t0 = 1000 * US;
    expire_at(&mut w, t0, &[BE]);
    w.on_access_grant(t0, w.mac.generation());
    assert!(!w.mac.shared.exchange.success);
    assert_eq!(
        w.mac.shared.exchange.loss,
        crate::mac::store::ChannelLoss::Data
    );
    let data = phy.data_time(1028);
    let end = t0 + data + phy.propagation_delay;
    assert_eq!(
        w.mac.shared.exchange.end, end,
        "no ACK: the medium is idle after the data frame"
    );
    w.on_exchange_end(end);
    let be = &w.mac.store.entities[BE];
    assert_eq!(be.stats.frame_errors, 1);
    assert_eq!(be.stats.collisions, 0);
    assert_eq!(be.backoff.short_retries, 1);
    assert_eq!(be.backoff.cw, 63);
    // 9.3.2.8: ACKTimeout after the own frame, then AIFS[AC_BE].
    assert_eq!(
        w.mac.countdown_start(BE as u32),
        t0 + data + phy.response_timeout() + be.params.aifs
    );
    // 9.3.7 / 9.19.2.3: the others received an errored frame: EIFS − DIFS + AIFS[AC].
    for e in [0, 1, VO] {
        let x = &w.mac.store.entities[e];
        assert_eq!(
            w.mac.countdown_start(e as u32),
            end + phy.eifs() - phy.difs + x.params.aifs
        );
    }
    assert_eq!(w.flows[0].acct[0].delivered, 0);
}

#[test]
fn downlink_fer_does_not_touch_the_uplink() {
    let mut w = world("fer_downlink = 0.999999");
    let t0 = 1000 * US;
    expire_at(&mut w, t0, &[BE]);
    w.on_access_grant(t0, w.mac.generation());
    assert!(w.mac.shared.exchange.success);
}

fn check(extra_station: &str, extra_top: &str) -> Result<(), String> {
    Scenario::from_toml(&format!(
        r#"
duration = "1 s"
{extra_top}
[[stations]]
name = "sta"
qos = true
{extra_station}
"#
    ))
    .map(|_| ())
    .map_err(|e| e.to_string())
}

#[test]
fn bad_edca_values_are_named_with_key_value_and_rule() {
    let e = check("[stations.edca.be]\ntxop = \"-1 ms\"", "").unwrap_err();
    assert!(
        e.contains("stations[0].edca.be.txop") && e.contains("negative"),
        "{e}"
    );
    let e = check("[stations.edca.vi]\ncw_min = 63", "").unwrap_err();
    assert!(
        e.contains("stations[0].edca.vi.cw_min") && e.contains("CWmin ≤ CWmax"),
        "{e}"
    );
    let e = check("[stations.edca.be]\ncw_min = 30", "").unwrap_err();
    assert!(
        e.contains("stations[0].edca.be.cw_min") && e.contains("2^k − 1"),
        "{e}"
    );
    let e = check("[stations.edca.be]\naifsn = 1", "").unwrap_err();
    assert!(
        e.contains("stations[0].edca.be.aifsn") && e.contains("1:"),
        "{e}"
    );
    assert!(e.contains("nonstandard_edca"), "{e}");
    assert!(check(
        "[stations.edca.be]\naifsn = 1",
        "[qos]\nnonstandard_edca = true"
    )
    .is_ok());
    let e = check("[stations.edca.be]\naifsn = 16", "").unwrap_err();
    assert!(e.contains("AIFSN 2 to 15"), "{e}");
    let e = check("fer = 1.5", "").unwrap_err();
    assert!(e.contains("stations[0].fer") && e.contains("[0, 1)"), "{e}");
    let e = check("", "[qos]\nclassifier = [{ ac = \"vo\" }]").unwrap_err();
    assert!(e.contains("qos.classifier[0]"), "{e}");
}

#[test]
fn the_ap_may_use_aifsn_1_and_dcf_nodes_take_no_edca() {
    let ap = |edca: &str, qos: bool| {
        Scenario::from_toml(&format!(
            "duration = \"1 s\"\n[ap]\nqos = {qos}\n[ap.edca.vo]\n{edca}\n[[stations]]\nname = \"sta\"\n"
        ))
        .map_err(|e| e.to_string())
    };
    assert!(ap("aifsn = 1", true).is_ok());
    let e = ap("aifsn = 1", false).unwrap_err();
    assert!(e.contains("ap.edca") && e.contains("qos = true"), "{e}");
}

/// One TCP upload and one TCP download under `[qos] preset = "ng2005-table2"`.
fn tcp_preset_results() -> crate::results::Results {
    let s = Scenario::from_toml(
        r#"
duration = "5 s"
[qos]
preset = "ng2005-table2"
[[stations]]
name = "sta"
count = 2
[[servers]]
name = "srv"
[[flows]]
name = "up"
protocol = "tcp"
direction = "uplink"
stations = "sta"
server = "srv"
"#,
    )
    .unwrap();
    super::simulate(&s, Some(3)).unwrap()
}

#[test]
fn tcp_pure_acks_and_data_of_one_flow_go_to_different_acs() {
    let r = tcp_preset_results();
    let ac = |node: &str, name: &str| {
        r.access_categories
            .iter()
            .find(|a| a.node == node && a.ac == name)
            .unwrap_or_else(|| panic!("{node} {name}"))
            .mac
    };
    // Uploads: the AP sends only ACKs (AC_VO), the stations only data (AC_BE) after their
    // SYN (AC_VO).
    let (ap_vo, ap_be) = (ac("ap", "AC_VO"), ac("ap", "AC_BE"));
    assert!(ap_vo.frames_ack > 100, "{ap_vo:?}");
    assert_eq!(
        (ap_vo.frames_data, ap_be.frames_data + ap_be.frames_ack),
        (0, 0)
    );
    let (sta_vo, sta_be) = (ac("sta-0", "AC_VO"), ac("sta-0", "AC_BE"));
    assert!(
        sta_be.frames_data > 100 && sta_be.frames_ack == 0,
        "{sta_be:?}"
    );
    assert_eq!(sta_vo.frames_data, 0);
}
