//! Unit tests of the MAC rules on a hand-driven world (no event loop): collisions and the
//! deferral that follows, freezing at a grant, and the packet-accounting check; a
//! saturated queue's first fill as one run.
use super::{SimError, World};
use crate::scenario::Scenario;
use crate::sim::time::US;

/// AP + 3 saturated uplink stations (1000-byte UDP payloads), queues filled; `top` and
/// `mac` are extra lines of the scenario's top level and of its `[mac]` table.
pub(super) fn three_uploads(top: &str, mac: &str) -> World {
    let s = Scenario::from_toml(&format!(
        r#"
duration = "10 s"
{top}
[mac]
{mac}
[[stations]]
name = "sta"
count = 3
[[flows]]
name = "up"
direction = "uplink"
stations = "sta"
packet_size = "1000 B"
"#
    ))
    .unwrap();
    let mut w = World::new(&s, 1).unwrap();
    for f in 0..3 {
        w.on_source_start(0, f);
    }
    w
}

/// Basic access or RTS/CTS (`rts` is the `rts_threshold` value).
fn world(rts: &str) -> World {
    three_uploads("", &format!("rts_threshold = {rts}"))
}

/// Entities 1 and 2 expire at `t0`; entity 3 has `k` slots left.
fn arrange_collision(w: &mut World, t0: u64, k: u32) {
    for e in 1..=2 {
        w.mac.set_backoff(e, 0, t0);
    }
    w.mac.set_backoff(3, k, t0 - 3 * w.mac.store.phy.slot);
}

#[test]
fn collision_then_ack_timeout_for_senders_and_eifs_for_the_others() {
    let mut w = world("\"off\"");
    let t0 = 1000 * US;
    arrange_collision(&mut w, t0, 10);
    w.on_access_grant(t0, w.mac.generation());
    assert_eq!(w.mac.shared.transmitters, vec![1, 2]);
    assert!(!w.mac.shared.exchange.success);
    // Station 3 counted 3 slots before the medium turned busy: 7 remain (freeze).
    assert_eq!(w.mac.backoff_counter(3), 7);
    let data = w.mac.store.phy.data_time(1028);
    let end = t0 + data + w.mac.store.phy.propagation_delay;
    assert_eq!(w.mac.shared.exchange.end, end);
    w.on_exchange_end(end);
    let (difs, eifs) = (w.mac.store.phy.difs, w.mac.store.phy.eifs());
    for e in 1..=2 {
        let b = &w.mac.store.entities[e].backoff;
        // 9.3.2.8: ACKTimeout from the end of the own transmission, then DIFS.
        assert_eq!(
            w.mac.countdown_start(e as u32),
            t0 + data + w.mac.store.phy.response_timeout() + difs
        );
        assert_eq!(b.cw, 63, "CW doubled after the failure");
        assert_eq!(b.short_retries, 1);
        assert_eq!(w.mac.store.entities[e].stats.collisions, 1);
    }
    // 9.3.7: a station that saw the errored frames defers EIFS.
    assert_eq!(w.mac.countdown_start(3), end + eifs);
    assert_eq!(w.mac.countdown_start(0), end + eifs);
    assert!(eifs > w.mac.store.phy.response_timeout() + difs - w.mac.store.phy.propagation_delay);
}

#[test]
fn rts_collision_costs_only_the_rts() {
    let mut w = world("0");
    let t0 = 1000 * US;
    arrange_collision(&mut w, t0, 10);
    w.on_access_grant(t0, w.mac.generation());
    assert_eq!(
        w.mac.shared.exchange.end,
        t0 + w.mac.store.phy.rts_time() + w.mac.store.phy.propagation_delay
    );
}

#[test]
fn success_resets_cw_and_others_defer_difs() {
    let mut w = world("\"off\"");
    let t0 = 1000 * US;
    arrange_collision(&mut w, t0, 10);
    w.mac.set_backoff(2, 4, t0); // only station 1 expires now
    w.mac.store.entities[1].backoff.cw = 255;
    w.on_access_grant(t0, w.mac.generation());
    assert!(w.mac.shared.exchange.success);
    let end = w.mac.shared.exchange.end;
    let expected = t0
        + w.mac.store.phy.data_time(1028)
        + w.mac.store.phy.sifs
        + w.mac.store.phy.ack_time()
        + 2 * w.mac.store.phy.propagation_delay;
    assert_eq!(end, expected);
    w.on_exchange_end(end);
    assert_eq!(w.mac.store.entities[1].backoff.cw, 31);
    assert_eq!(w.mac.store.entities[1].stats.successes, 1);
    for e in 0..4 {
        assert_eq!(w.mac.countdown_start(e), end + w.mac.store.phy.difs);
    }
    assert_eq!(w.flows[0].acct[0].delivered, 1);
}

#[test]
fn accounting_check_catches_a_lost_packet() {
    let mut w = world("\"off\"");
    assert!(w.check_accounting().is_ok());
    w.flows[1].acct[0].generated += 1;
    match w.check_accounting() {
        Err(SimError::Invariant(m)) => assert!(m.contains("up-1"), "{m}"),
        other => panic!("expected an accounting error, got {other:?}"),
    }
}

#[test]
fn a_saturated_queue_filled_as_one_run_gives_what_one_by_one_gives() {
    // With the trace hook on, `World::fill` queues the packets one by one; without it, the
    // 49 after the first as one run. Every result but the packet tables must agree.
    let scenario = |output: &str| {
        Scenario::from_toml(&format!(
            "duration = \"2 s\"\n{output}\n[[stations]]\nname = \"sta\"\ncount = 5\n\
             [[flows]]\nname = \"up\"\ndirection = \"uplink\"\nstations = \"sta\"\n\
             packet_size = \"1000 B\"\n"
        ))
        .unwrap()
    };
    let (plain, traced) = (scenario(""), scenario("[output]\npackets = true"));
    let filled = |s: &Scenario| {
        let mut w = World::new(s, 3).unwrap();
        w.on_source_start(0, 0);
        let q = &w.mac.store.entities[1].queue;
        (q.len(), q.entries().count())
    };
    assert_eq!(filled(&plain), (50, 2), "the first packet, then one run");
    assert_eq!(filled(&traced), (50, 50), "one entry a packet");
    let results = |s: &Scenario| {
        let mut r = World::new(s, 3).unwrap().run().unwrap();
        r.packets.clear();
        r.packet_hops.clear();
        r.meta.wall_s = 0.0;
        r
    };
    let (a, b) = (results(&plain), results(&traced));
    assert!(a.flows[0].counts.delivered_packets > 100);
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
}

/// AP + 3 saturated uplink stations whose payloads are `sizes` bytes, queues filled,
/// under `profile`.
fn uploads_of(profile: &str, sizes: [u32; 3]) -> World {
    let mut toml = format!("duration = \"10 s\"\nprofile = \"{profile}\"\n");
    for (i, size) in sizes.iter().enumerate() {
        toml += &format!(
            "[[stations]]\nname = \"s{i}\"\n[[flows]]\nname = \"f{i}\"\n\
             direction = \"uplink\"\nstations = \"s{i}\"\npacket_size = \"{size} B\"\n"
        );
    }
    let mut w = World::new(&Scenario::from_toml(&toml).unwrap(), 1).unwrap();
    for f in 0..3 {
        w.on_source_start(0, f);
    }
    w
}

/// Stations 1 (1000-byte payloads) and 2 (`short`-byte) collide: where station 3 and the
/// AP count from under each profile (`mac/eifs.rs`). 802.11b at 11 Mb/s: EIFS − DIFS =
/// 314 µs.
#[test]
fn after_a_collision_of_unequal_frames_ns3_counts_eifs_from_the_shorter_frames_end() {
    for (short, profile) in [(100, "standard"), (100, "ns3"), (800, "ns3")] {
        let mut w = uploads_of(profile, [1000, short, 1000]);
        let t0 = 1000 * US;
        arrange_collision(&mut w, t0, 10);
        w.on_access_grant(t0, w.mac.generation());
        assert_eq!(w.mac.shared.transmitters, vec![1, 2]);
        let phy = w.mac.store.phy.clone();
        let delta = phy.propagation_delay;
        let end = t0 + phy.data_time(1028) + delta;
        let short_end = t0 + phy.data_time(short + 28) + delta;
        let hold = phy.eifs() - phy.difs;
        w.on_exchange_end(end);
        let expected = match (profile, short) {
            // 802.11-2020 10.3.2.3.7: EIFS once the medium is idle.
            ("standard", _) => end + hold + phy.difs,
            // ns-3.37: its EIFS began when the 100-byte frame's reception ended in error,
            // 662 µs before the idle: DIFS from the idle.
            (_, 100) => {
                assert!(end - short_end > hold);
                end + phy.difs
            }
            // The 800-byte frame ended 146 µs before the longer: the rest of the EIFS.
            _ => {
                assert!(end - short_end < hold);
                short_end + hold + phy.difs
            }
        };
        for e in [0, 3] {
            assert_eq!(w.mac.countdown_start(e), expected, "{profile} {short} B");
        }
        // The shorter frame's sender: its ACKTimeout, or the longer frame it only sensed,
        // then DIFS, under every profile (`MacRules::tail_is_errored`).
        assert_eq!(
            w.mac.countdown_start(2),
            (short_end - delta + phy.response_timeout()).max(end) + phy.difs
        );
    }
}
