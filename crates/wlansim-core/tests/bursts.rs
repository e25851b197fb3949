//! Bursty channel models (`[channel] bursts`, issue 14): scenario keys and their errors,
//! per-link counters, and what bursts do to TCP with a finite and an unlimited retry
//! limit in fotiadis2005's 1-flow setup (802.11b 11 Mb/s, 100 Mb/s 15 ms wired link).
use wlansim_core::{simulate, Scenario};

/// One mobile uploading over TCP NewReno (ns-2's defaults, as the paper ran ns-2, with
/// timestamps for Eifel detection) to a wired host 15 ms behind the AP.
fn upload(retry: &str, bursts: &str, extra: &str) -> Scenario {
    Scenario::from_toml(&format!(
        r#"
duration = "30 s"
[phy]
standard = "802.11b"
data_rate = "11 Mb/s"
[mac]
short_retry_limit = {retry}
long_retry_limit = {retry}
queue = 50
[[servers]]
name = "host"
rate = "100 Mb/s"
delay = "15 ms"
[[stations]]
name = "mob"
[tcp]
profile = "ns2-compat"
variant = "newreno"
timestamps = true
[channel]
bursts = {bursts}
[[flows]]
name = "up"
protocol = "tcp"
direction = "uplink"
stations = "mob"
server = "host"
{extra}
"#
    ))
    .unwrap()
}

fn error_of(bursts: &str) -> String {
    Scenario::from_toml(&format!(
        "duration = \"5 s\"\n[[stations]]\nname = \"far\"\n[[channel.links]]\nstations = \"far\"\nbursts_uplink = {bursts}\n"
    ))
    .unwrap_err()
    .to_string()
}

#[test]
fn bad_burst_parameters_name_the_key_the_value_and_the_rule() {
    for (bursts, key, says) in [
        (
            r#"{ model = "gilbert-elliott", per = 1.0, burst_length = 5 }"#,
            "channel.links[0].bursts_uplink.per",
            "[0, 1)",
        ),
        (
            r#"{ model = "gilbert-elliott", per = -0.1, burst_length = 5 }"#,
            "bursts_uplink.per",
            "[0, 1)",
        ),
        (
            r#"{ model = "gilbert-elliott", per = 0.2, burst_length = 0.5 }"#,
            "bursts_uplink.burst_length",
            "at least 1",
        ),
        (
            r#"{ model = "gilbert-elliott", good_frames = 50, bad_frames = 5, bad_fer = 1.5 }"#,
            "bursts_uplink.bad_fer",
            "[0, 1]",
        ),
        (
            r#"{ model = "gilbert-elliott", good_frames = 50, bad_frames = 5, good_fer = 1, bad_fer = 1 }"#,
            "bursts_uplink.good_fer",
            "every frame would be lost",
        ),
        (
            r#"{ model = "gilbert-elliott", good_frames = 50 }"#,
            "bursts_uplink.bad_frames",
            "missing",
        ),
        (
            r#"{ model = "gilbert-elliott", per = 0.1, burst_length = 4, bad_frames = 3 }"#,
            "bursts_uplink.bad_frames",
            "not a key",
        ),
        (
            r#"{ model = "periodic", per = 0.15, burst_length = 10 }"#,
            "bursts_uplink.per",
            "whole number",
        ),
        (
            r#"{ model = "periodic", per = 0.1, burst_length = 2.5 }"#,
            "bursts_uplink.burst_length",
            "whole number",
        ),
        (
            r#"{ model = "bernoulli", per = 0.6, burst_length = 1 }"#,
            "bursts_uplink.per",
            "L/(L + 1)",
        ),
        (
            r#"{ model = "bernoulli", burst_length = 3 }"#,
            "bursts_uplink.per",
            "missing",
        ),
        (
            r#"{ model = "bernoulli", per = 0.1, burst_length = 10, phase = "ns2" }"#,
            "bursts_uplink.phase",
            "only the periodic model",
        ),
    ] {
        let e = error_of(bursts);
        assert!(e.contains(key) && e.contains(says), "{bursts}: {e}");
    }
    let e = error_of(r#"{ model = "markov", per = 0.1, burst_length = 3 }"#);
    assert!(e.contains("gilbert-elliott"), "{e}");
}

/// Per-link defaults and overrides: the table's model on every link, a link entry's own
/// per direction; a burst model replaces the i.i.d. rate of its direction.
#[test]
fn burst_models_are_chosen_per_link_and_direction() {
    let s = Scenario::from_toml(
        r#"
duration = "1 s"
[channel]
fer = 0.1
bursts = { model = "periodic", per = 0.1, burst_length = 10 }
[[stations]]
name = "a"
[[stations]]
name = "b"
[[channel.links]]
stations = "b"
bursts_downlink = { model = "gilbert-elliott", per = 0.2, burst_length = 4 }
"#,
    )
    .unwrap();
    let (a, b) = (&s.stations[0], &s.stations[1]);
    let (up, down) = s.channel.group_bursts(a);
    assert_eq!(up, down);
    assert_eq!(up.unwrap().per, Some(0.1));
    let (up, down) = s.channel.group_bursts(b);
    assert_eq!(up.unwrap().burst_length, Some(10.0));
    assert_eq!(down.unwrap().burst_length, Some(4.0));
}

/// Acceptance: at PER 20 % in bursts of 20 with retry limit 4, bursts longer than the
/// limit become TCP losses (retry drops, fast retransmits or timeouts); with unlimited
/// retries nothing is lost on the radio, the head-of-line frame blocks its queue until it
/// gets through (packets leave the station one at a time, in order, some after more
/// attempts than any finite limit would allow), and delay spikes cause spurious timeouts.
/// Both the paper's periodic bursts and Gilbert–Elliott, two seeds each.
#[test]
fn bursts_become_tcp_losses_with_retry_limit_4_and_delay_spikes_without_limit() {
    for model in ["periodic", "gilbert-elliott"] {
        let bursts = format!(r#"{{ model = "{model}", per = 0.2, burst_length = 20 }}"#);
        for seed in [1, 2] {
            let finite = simulate(&upload("4", &bursts, ""), Some(seed)).unwrap();
            let tcp = finite.flows[0].tcp.as_ref().unwrap();
            assert!(finite.nodes[1].mac.retry_drops > 0, "{model} {seed}");
            assert!(
                tcp.fast_retransmits + tcp.timeouts > 0,
                "{model} {seed}: {tcp:?}"
            );
            let up = finite
                .links
                .iter()
                .find(|l| l.station == "mob-0" && l.direction == "uplink");
            let up = up.expect("uplink counters");
            // (Periodic, seed 1: the SYN's 4 tries of 4 attempts all fall in one burst of
            // 20 attempts, spread over 3 + 6 + 12 s of backoff: attempts, not time, drive
            // the pattern, so the link loses 16 of 16 frames in 30 s.)
            assert!(up.losses > 0 && up.losses <= up.frames, "{up:?}");
            if model == "periodic" {
                // Whole periods of 100 attempts lose 20; the last, partial one at most 20.
                let whole = (up.frames / 100 * 20) as f64;
                assert!(
                    (whole..=whole + 20.0).contains(&(up.losses as f64)),
                    "{up:?}"
                );
            }

            let out = "[output]\npackets = true\nseries = [\"rto\"]\nseries_interval = \"100 ms\"";
            let unlimited = simulate(&upload("\"unlimited\"", &bursts, out), Some(seed)).unwrap();
            let tcp = unlimited.flows[0].tcp.as_ref().unwrap();
            assert!(unlimited.nodes.iter().all(|n| n.mac.retry_drops == 0));
            assert_eq!(unlimited.flows[0].counts.dropped_retry, 0);
            assert!(unlimited.flows[0].throughput_bps > 0.0);
            assert!(tcp.spurious_timeouts > 0, "{model} {seed}: {tcp:?}");
            // The RTO series: never below ns-2's 200 ms floor, and moving with the spikes.
            let rto = &unlimited.series["rto"]["up-0"];
            assert_eq!(rto.len(), 299); // every 100 ms from 0.1 s, before the 30 s end
            assert!(rto.iter().all(|&r| r >= 0.2));
            let max = rto.iter().cloned().fold(0.0, f64::max);
            assert!(
                max > rto.iter().cloned().fold(f64::MAX, f64::min),
                "{rto:?}"
            );
            // The station's hops, in the order they entered its queue.
            let mut hops: Vec<_> = unlimited
                .packet_hops
                .iter()
                .filter(|h| h.node == "mob-0" && h.received_s.is_some())
                .collect();
            hops.sort_by(|a, b| a.enqueued_s.total_cmp(&b.enqueued_s));
            assert!(
                hops.iter().any(|h| h.attempts > 20),
                "a burst outlasts 20 attempts"
            );
            for w in hops.windows(2) {
                // The next frame goes out (its last attempt) after the previous one got
                // through.
                assert!(
                    w[1].tx_start_s.unwrap() >= w[0].received_s.unwrap(),
                    "{w:?}"
                );
            }
        }
    }
}

/// Acceptance: delay injection at the AP (Algorithm 1, the paper's parameters) in the
/// 1-flow 20 ms case at PER 20 % with unlimited retries clearly reduces spurious timeouts
/// (summed over 3 seeds), holds ACKs (counted, with the delay added), and never reorders
/// or loses one: the ACKs reach the mobile in the order the receiver sent them, and the
/// world's packet accounting (held ACKs count in flight) passes.
#[test]
fn delay_injection_cuts_spurious_timeouts_and_keeps_acks_in_order() {
    let bursts = r#"{ model = "periodic", per = 0.2, burst_length = 20 }"#;
    let scenario = |di: bool| {
        let mut s = upload("\"unlimited\"", bursts, "[output]\npackets = true");
        s.servers[0].delay.0 = 20 * wlansim_core::sim::time::MS;
        if di {
            s.aps[0].delay_injection = Some(Default::default());
        }
        s
    };
    let (mut off, mut on) = (0, 0);
    for seed in [1, 2, 3] {
        let a = simulate(&scenario(false), Some(seed)).unwrap();
        let b = simulate(&scenario(true), Some(seed)).unwrap();
        off += a.flows[0].tcp.as_ref().unwrap().spurious_timeouts;
        on += b.flows[0].tcp.as_ref().unwrap().spurious_timeouts;
        assert!(a.bss[0].acks_delayed.is_none());
        let held = b.bss[0].acks_delayed.unwrap();
        assert!(held > 0 && b.bss[0].injected_delay_s.unwrap() > 0.0);
        let acks: Vec<_> = b
            .packets
            .iter()
            .filter(|p| p.direction == "reverse")
            .collect();
        assert!(!acks.is_empty() && acks.iter().all(|p| p.dropped.is_none()));
        let mut delivered: Vec<_> = acks
            .iter()
            .filter_map(|p| Some((p.seq, p.delivered_s?)))
            .collect();
        delivered.sort_by_key(|&(seq, _)| seq);
        assert!(
            delivered.windows(2).all(|w| w[0].1 <= w[1].1),
            "ACKs reordered"
        );
    }
    eprintln!("spurious timeouts over 3 seeds: {off} without, {on} with delay injection");
    assert!(off >= 10 && (on as f64) < 0.5 * off as f64, "{off} → {on}");
}

/// `shared = true`: the group's uplinks draw from one periodic pattern, so over the run
/// their attempts together lose the PER in whole periods (each link alone need not);
/// without it each link does.
#[test]
fn a_shared_burst_process_spans_the_group_s_links() {
    for shared in [false, true] {
        let mut s = upload(
            "\"unlimited\"",
            r#"{ model = "periodic", per = 0.1, burst_length = 10 }"#,
            "",
        );
        s.stations[0].count = 3;
        s.channel.bursts.as_mut().unwrap().shared = shared;
        let r = simulate(&s, Some(3)).unwrap();
        let up: Vec<_> = r.links.iter().filter(|l| l.direction == "uplink").collect();
        assert_eq!(up.len(), 3);
        let frames: u64 = up.iter().map(|l| l.frames).sum();
        let losses: u64 = up.iter().map(|l| l.losses).sum();
        if shared {
            let whole = frames / 100 * 10;
            assert!((whole..=whole + 10).contains(&losses), "{up:?}");
        } else {
            for l in &up {
                let whole = l.frames / 100 * 10;
                assert!((whole..=whole + 10).contains(&l.losses), "{l:?}");
            }
        }
    }
}

/// Every data-frame attempt moves its link's pattern, collided ones too (the mobile's
/// frames colliding with the AP's TCP ACKs on the shared medium), as on the spatial medium
/// and as ns-2.35's `ErrorModel/Periodic` on the sender's outgoing path counts every frame
/// the MAC sends: the link's attempts are the station's, and a burst of 15 attempts with
/// retry limit 4 costs 3 frames (4 + 4 + 4 lost, the fourth frame through on its fourth
/// attempt) unless a collision precedes it in the same frame. Counting only the attempts
/// that reached the AP, a collision inside a burst stretched it over 16 attempts: 4 frames.
#[test]
fn collided_attempts_move_the_burst_pattern() {
    let bursts = r#"{ model = "periodic", per = 0.15, burst_length = 15 }"#;
    for seed in [1, 2] {
        let r = simulate(&upload("4", bursts, ""), Some(seed)).unwrap();
        let mob = &r.nodes[1];
        assert_eq!(mob.name, "mob-0");
        assert!(mob.mac.collisions > 0, "{:?}", mob.mac);
        let up = r.links.iter().find(|l| l.direction == "uplink").unwrap();
        assert_eq!(up.frames, mob.mac.attempts, "seed {seed}");
    }
}
