//! The ns-2 MAC rules (`mac/ns2.rs`) on a hand-driven world, each against the standard's
//! behaviour in the same situation (every test fails if the profile is ignored).
use super::tests::three_uploads;
use super::World;
use crate::mac::MacRules;
use crate::scenario::Scenario;
use crate::sim::time::{Time, US};

/// AP + 3 saturated uplink stations (1000-byte UDP payloads), basic access, queue `b`.
fn world(profile: &str, b: u32) -> World {
    three_uploads(
        &format!("profile = \"{profile}\""),
        &format!("rts_threshold = \"off\"\nqueue = {b}"),
    )
}

#[test]
fn ns2_senders_of_a_collision_defer_eifs_then_difs() {
    for (profile, extra_difs) in [("ns2", true), ("standard", false)] {
        let mut w = world(profile, 50);
        let t0 = 1000 * US;
        for e in 1..=2 {
            w.mac.set_backoff(e, 0, t0);
        }
        w.mac.set_backoff(3, 10, t0 - 3 * w.mac.store.phy.slot);
        w.on_access_grant(t0, w.mac.generation());
        assert_eq!(w.mac.shared.transmitters, vec![1, 2]);
        let end = w.mac.shared.exchange.end;
        w.on_exchange_end(end);
        let (difs, eifs) = (w.mac.store.phy.difs, w.mac.store.phy.eifs());
        let data = w.mac.store.phy.data_time(1028);
        let ack_timeout = t0 + data + w.mac.store.phy.response_timeout() + difs;
        for e in 1..=2 {
            // Standard: ACKTimeout then DIFS (9.3.2.8); ns-2: the NAV of EIFS set by the
            // other sender's errored frame, then DIFS.
            let expected = if extra_difs {
                end + eifs + difs
            } else {
                ack_timeout
            };
            assert_eq!(w.mac.countdown_start(e), expected, "{profile}");
        }
        let bystander = if extra_difs {
            end + eifs + difs
        } else {
            end + eifs
        };
        assert_eq!(w.mac.countdown_start(3), bystander, "{profile}");
    }
}

#[test]
fn ns2_draws_the_backoff_below_cw() {
    for (profile, rules) in [("ns2", MacRules::Ns2), ("standard", MacRules::Standard)] {
        let mut w = world(profile, 50);
        let b = &mut w.mac.store.entities[1].backoff;
        assert_eq!(b.cw, 31, "CWmin 31 in both (802.11b; ns-2's CWMin_)");
        let mut max = 0;
        for _ in 0..2000 {
            b.draw();
            max = max.max(b.counter);
        }
        assert_eq!(max, rules.max_counter(31), "{profile}");
        assert_eq!(max, if profile == "ns2" { 30 } else { 31 });
    }
    // ns-2's CWMin_ is 31 on every PHY (802.11a's is 15).
    let s = Scenario::from_toml(
        "duration = \"1 s\"\nprofile = \"ns2\"\n[phy]\nstandard = \"802.11a\"\n\
         [[stations]]\nname = \"s\"\n[[flows]]\nname = \"f\"\ndirection = \"uplink\"\n\
         stations = \"s\"\n",
    )
    .unwrap();
    assert_eq!(s.phy().cw_min, 31);
}

#[test]
fn ns2_data_frames_carry_34_header_bytes_and_no_llc_snap() {
    let ns2 = world("ns2", 50);
    let std = world("standard", 50);
    assert_eq!(ns2.mac.store.phy.data_mpdu_bytes(1040), 1040 + 34);
    assert_eq!(std.mac.store.phy.data_mpdu_bytes(1040), 1040 + 28 + 8);
    // The standard counts 8608 bits at 11 Mb/s as 783 µs (whole µs, 17.2.3.5); ns-2's
    // `txtime` counts its 8592 bits as 781.0909… µs, here 781.091 µs.
    assert_eq!(std.mac.store.phy.data_time(1040), 192 * US + 783 * US);
    assert_eq!(ns2.mac.store.phy.data_time(1040), 192 * US + 781_091);
    // The ACK: 112 bits at 1 Mb/s, whole µs in both.
    assert_eq!(ns2.mac.store.phy.ack_time(), std.mac.store.phy.ack_time());
}

/// ns-2's `txtime` rounds nothing on any PHY: 802.11a's 54 Mb/s frame is its PLCP and
/// bits / rate, without the standard's 4 µs symbols, SERVICE and tail bits (18.4.3).
#[test]
fn ns2_counts_airtime_without_rounding_on_every_phy() {
    let phy = |profile: &str| {
        Scenario::from_toml(&format!(
            "duration = \"1 s\"\nprofile = \"{profile}\"\n[phy]\nstandard = \"802.11a\"\n\
             [[stations]]\nname = \"s\"\n[[flows]]\nname = \"f\"\ndirection = \"uplink\"\n\
             stations = \"s\"\n"
        ))
        .unwrap()
        .phy()
    };
    // 1074 bytes = 8592 bits at 54 Mb/s: 159.111 µs in ns-2; 16 + 8592 + 6 bits in
    // 216-bit symbols = 40 symbols = 160 µs in the standard; both after the 20 µs PLCP.
    assert_eq!(phy("ns2").ppdu_time(1074, 54_000_000), 20 * US + 159_111);
    assert_eq!(
        phy("standard").ppdu_time(1074, 54_000_000),
        20 * US + 160 * US
    );
}

/// ns-2.35's interface queue of B holds B packets in all, the one in the MAC included
/// (`DropTail::enque` refuses a packet once B − 1 wait), as the standard profile's queue
/// does; `wlansim validate ns2` checks it against ns-2 itself with a burst.
#[test]
fn ns2_buffer_of_b_holds_b() {
    for profile in ["ns2", "standard"] {
        let w = world(profile, 3);
        // Saturated sources keep their queue full.
        assert_eq!(w.mac.store.entities[1].queue.len(), 3, "{profile}");
    }
}

/// The IP sizes of the packets of a TCP upload and a TCP download between stations and a
/// wired server, and of a UDP upload, with `routing_agent` (None: the profile's default):
/// (upload data, upload ACKs, download data, download ACKs, UDP upload).
fn origin_sizes(profile: &str, agent: Option<&str>) -> (u32, u32, u32, u32, u32) {
    let agent = agent.map_or(String::new(), |a| format!("routing_agent = \"{a}\""));
    let s = Scenario::from_toml(&format!(
        r#"
duration = "1 s"
profile = "{profile}"
{agent}
[output]
packets = true
[[stations]]
name = "sta"
[[servers]]
name = "srv"
[[flows]]
name = "up"
protocol = "tcp"
direction = "uplink"
stations = "sta"
server = "srv"
[[flows]]
name = "down"
protocol = "tcp"
direction = "downlink"
stations = "sta"
server = "srv"
[[flows]]
name = "udp"
direction = "uplink"
stations = "sta"
server = "srv"
traffic = "cbr"
rate = "100 kb/s"
packet_size = "500 B"
"#
    ))
    .unwrap();
    let r = World::new(&s, 1).unwrap().run().unwrap();
    let size = |flow: &str, direction: &str| {
        r.packets
            .iter()
            .find(|p| p.flow == flow && p.direction == direction && p.payload_bytes > 0)
            .or_else(|| {
                r.packets
                    .iter()
                    .find(|p| p.flow == flow && p.direction == direction && p.tcp_seq > Some(0))
            })
            .map(|p| p.ip_bytes - p.payload_bytes)
            .unwrap()
    };
    (
        size("up-0", "forward"),
        size("up-0", "reverse"),
        size("down-0", "forward"),
        size("down-0", "reverse"),
        size("udp-0", "forward"),
    )
}

/// ns-2's routing agents put `IP_HDR_LEN` (20 bytes) on the packets a wireless node
/// originates (DSDV: all; AODV: not TCP's), not on those a wired server sends; the ns2
/// profile runs DSDV unless told otherwise, the standard none.
#[test]
fn routing_agents_add_twenty_bytes_where_a_station_originates() {
    // Header bytes: (upload data, upload ACKs, download data, download ACKs, UDP upload).
    assert_eq!(origin_sizes("ns2", None), (60, 40, 40, 60, 48));
    assert_eq!(origin_sizes("standard", Some("dsdv")), (60, 40, 40, 60, 48));
    assert_eq!(origin_sizes("ns2", Some("aodv")), (40, 40, 40, 40, 48));
    assert_eq!(origin_sizes("ns2", Some("none")), (40, 40, 40, 40, 28));
    assert_eq!(origin_sizes("standard", None), (40, 40, 40, 40, 28));
}

/// AP + 3 saturated uplink stations and a saturated downlink to a fourth, basic access.
fn up_and_down(profile: &str) -> World {
    let s = Scenario::from_toml(&format!(
        r#"
duration = "30 s"
profile = "{profile}"
routing_agent = "none"
[mac]
rts_threshold = "off"
[[stations]]
name = "sta"
count = 3
[[stations]]
name = "d"
[[flows]]
name = "up"
direction = "uplink"
stations = "sta"
packet_size = "1000 B"
[[flows]]
name = "down"
direction = "downlink"
stations = "d"
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

/// When the sender of the last frame (the AP, after ACKing an upload) transmits first,
/// the others count the idle slots as ns-2's floating-point clock does
/// (`MacRules::slots_counted_after_own_frame`): at 20 s often one short. The standard
/// counts every one.
#[test]
fn ns2_counts_slots_as_its_clock_after_the_last_senders_access() {
    let mut shorts = 0;
    for k in 1..=12 {
        for (profile, rules) in [("ns2", MacRules::Ns2), ("standard", MacRules::Standard)] {
            let mut w = up_and_down(profile);
            let (ap, sta) = (0, 1);
            let t0 = 20 * crate::sim::time::SECOND;
            w.mac.set_backoff(sta, 0, t0);
            for e in [ap, 2, 3] {
                w.mac.set_backoff(e, 40, t0);
            }
            w.on_access_grant(t0, w.mac.generation());
            assert_eq!(w.mac.shared.transmitters, vec![sta]);
            let ex = w.mac.shared.exchange;
            w.on_exchange_end(ex.end);
            // The AP's ACK: SIFS after the data frame, until the medium idles less δ.
            let (sifs, delta) = (w.mac.store.phy.sifs, w.mac.store.phy.propagation_delay);
            let ack_start = ex.data_end + sifs;
            let ack_len = ex.end - delta - ack_start;
            let start = ex.end + w.mac.store.phy.difs;
            let slot = w.mac.store.phy.slot;
            w.mac.set_backoff(ap, k as u32, start);
            w.mac.set_backoff(2, k as u32 + 5, start);
            let drawn = w.mac.store.entities[ap as usize].backoff.drawn;
            let n =
                rules.slots_counted_after_own_frame(k, drawn, ack_start, ack_len, &w.mac.store.phy);
            let now = start + k * slot;
            w.on_access_grant(now, w.mac.generation());
            assert_eq!(w.mac.shared.transmitters, vec![ap], "{profile}, k = {k}");
            // Entity 2 had k + 5 slots: 5 left, or 5 + the slot ns-2 did not count.
            assert_eq!(
                w.mac.backoff_counter(2) as Time,
                5 + k - n,
                "{profile}, k = {k}"
            );
            if profile == "standard" {
                assert_eq!(n, k);
            } else {
                shorts += usize::from(n < k);
            }
        }
    }
    assert!(
        shorts >= 6,
        "ns-2's arithmetic lost the slot at {shorts} of 12 boundaries"
    );
}

/// EIFS on 802.11g: the standard's ACK at the ERP PHY's lowest mandatory rate, 1 Mb/s DSSS
/// (304 µs); ns-2's `getEIFS` the PLCP and the ACK at its own lowest rate (here the OFDM
/// preamble and 112 bits at 6 Mb/s, not rounded).
#[test]
fn eifs_on_802_11g_under_each_profile() {
    let phy = |profile: &str| {
        Scenario::from_toml(&format!(
            "duration = \"1 s\"\nprofile = \"{profile}\"\n[phy]\nstandard = \"802.11g\"\n\
             [[stations]]\nname = \"s\"\n[[flows]]\nname = \"f\"\ndirection = \"uplink\"\n\
             stations = \"s\"\n"
        ))
        .unwrap()
        .phy()
    };
    assert_eq!(phy("standard").eifs(), (10 + 304 + 28) * US);
    assert_eq!(phy("ns2").eifs(), (10 + 28 + 20) * US + 18_667);
}

/// Per packet hop of a CBR upload from a station to a wired server, a CBR download back to
/// it and a saturated upload from a second station: (flow, hop, time from the packet's
/// handing down to its entering the hop's queue, in ns), the handing down taken as the
/// packet's creation at hop 0 and its arrival at the end of the previous hop otherwise
/// (the AP's hop of the download: the wire's).
fn hand_down_delays(profile: &str) -> Vec<(String, u32, i64)> {
    let s = Scenario::from_toml(&format!(
        r#"
duration = "1 s"
profile = "{profile}"
[output]
packets = true
[[stations]]
name = "a"
[[stations]]
name = "b"
[[servers]]
name = "srv"
[[flows]]
name = "up"
direction = "uplink"
stations = "a"
server = "srv"
traffic = "cbr"
rate = "100 kb/s"
packet_size = "500 B"
[[flows]]
name = "down"
direction = "downlink"
stations = "a"
server = "srv"
traffic = "cbr"
rate = "100 kb/s"
packet_size = "500 B"
[[flows]]
name = "sat"
direction = "uplink"
stations = "b"
server = "srv"
packet_size = "500 B"
"#
    ))
    .unwrap();
    let r = World::new(&s, 1).unwrap().run().unwrap();
    let ns = |s: f64| (s * 1e9).round() as i64;
    let created = |flow: &str, seq: u32| {
        let p = r.packets.iter().find(|p| p.flow == flow && p.seq == seq);
        p.expect("the packet's row").created_s
    };
    r.packet_hops
        .iter()
        .filter(|h| h.node != "srv")
        .map(|h| {
            let handed = match h.hop {
                0 => created(&h.flow, h.seq),
                _ => {
                    let wire = r
                        .packet_hops
                        .iter()
                        .find(|w| w.flow == h.flow && w.seq == h.seq && w.hop == h.hop - 1);
                    wire.and_then(|w| w.received_s)
                        .expect("the wired hop's arrival")
                }
            };
            (h.flow.clone(), h.hop, ns(h.enqueued_s) - ns(handed))
        })
        .collect()
}

/// ns-2's link layer hands every packet a node sends to its interface queue 25 µs later
/// (`MacRules::hand_down_delay`, `LL::sendDown`), at the source and where the AP forwards
/// it; the standard queues it at once. A saturated source's packets go straight in under
/// both (its queue never empties).
#[test]
fn ns2_packets_reach_the_queue_25_us_after_they_are_handed_down() {
    for (profile, delay) in [("ns2", 25_000), ("standard", 0)] {
        let hops = hand_down_delays(profile);
        for (flow, hop) in [("up-0", 0), ("down-0", 1)] {
            let seen: Vec<_> = hops
                .iter()
                .filter(|(f, h, _)| f == flow && *h == hop)
                .collect();
            assert!(seen.len() > 20, "{profile} {flow}: {} packets", seen.len());
            assert!(
                seen.iter().all(|(_, _, d)| *d == delay),
                "{profile} {flow}: {seen:?}"
            );
        }
        let sat: Vec<_> = hops
            .iter()
            .filter(|(f, h, _)| f == "sat-0" && *h == 0)
            .collect();
        assert!(
            sat.len() > 20 && sat.iter().all(|(_, _, d)| *d == 0),
            "{profile}"
        );
    }
}
