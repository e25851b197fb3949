//! The contention structure (`mac::contention`) against the linear reference scan it
//! replaced (`mac/shared/reference.rs`): randomized scenarios — station counts from 1 to
//! 150, DCF, EDCA and mixed cells, saturated, CBR, Poisson and TCP loads, small queues
//! (post-backoffs), frame errors, RTS/CTS, TXOP bursts, custom AIFSN, the standard's,
//! ns-2's and ns-3's MAC rules — run through both
//! with the same seed must give identical results (every flow, node and AC counter, the
//! number of events). The corpus must also exercise what differs between the two:
//! collisions, internal collisions, TXOP bursts and frame errors.
use super::World;
use crate::results::Results;
use crate::scenario::Scenario;
use crate::sim::rng::{Rng, StreamKind};

fn run(s: &Scenario, seed: u64, reference: bool) -> Results {
    let mut w = World::new(s, seed).expect("a valid scenario");
    if reference {
        w.mac.use_reference();
    }
    let mut r = w.run().expect("the run completes");
    r.meta.wall_s = 0.0;
    r
}

fn pick<'a>(rng: &mut Rng, from: &[&'a str]) -> &'a str {
    from[rng.uniform_inclusive(from.len() as u32 - 1) as usize]
}

fn chance(rng: &mut Rng, percent: u32) -> bool {
    rng.uniform_inclusive(99) < percent
}

/// A random scenario of about `stations` stations.
fn scenario(rng: &mut Rng, stations: u32) -> String {
    let standard = pick(rng, &["802.11b", "802.11g", "802.11a"]);
    let rts = pick(rng, &["\"off\"", "\"off\"", "\"always\"", "500"]);
    let queue = pick(rng, &["1", "3", "10", "50"]);
    let ap_qos = chance(rng, 40);
    let retries = pick(rng, &["2", "7", "\"unlimited\""]);
    // Unlimited: both limits, so that no entity has one and, in a cell of one entity per
    // node, a grant's transmitters stay unsorted (`Shared::order_matters`).
    let long = if retries == "2" || retries == "7" {
        String::new()
    } else {
        format!("long_retry_limit = {retries}\n")
    };
    let mut s = format!(
        "duration = \"3 s\"\nwarmup = \"0.5 s\"\n[phy]\nstandard = \"{standard}\"\n\
         [mac]\nrts_threshold = {rts}\nqueue = {queue}\nshort_retry_limit = {retries}\n{long}\
         profile = \"{}\"\n[ap]\nqueue = {}\nqos = {ap_qos}\n",
        pick(rng, &["standard", "standard", "ns2", "ns3"]),
        pick(rng, &["5", "30"]),
    );
    if ap_qos && chance(rng, 50) {
        s += "[ap.edca.vi]\ntxop = \"3 ms\"\n";
    }
    let mut any_qos = ap_qos;
    let groups = 1 + rng.uniform_inclusive(2);
    let mut flows = String::new();
    for g in 0..groups {
        let count = (stations / groups).max(1);
        let qos = chance(rng, 50);
        any_qos |= qos;
        s += &format!("[[stations]]\nname = \"g{g}\"\ncount = {count}\nqos = {qos}\n");
        if chance(rng, 40) {
            s += &format!("fer = {}\n", pick(rng, &["0.01", "0.1", "0.3"]));
        }
        if qos && chance(rng, 60) {
            // TXOP bursts for AC_BE and an AIFSN of AC_BE equal to AC_VO's or its own.
            s += &format!(
                "[stations.edca.be]\ntxop = \"{}\"\naifsn = {}\n",
                pick(rng, &["2 ms", "6 ms"]),
                pick(rng, &["2", "3", "5"]),
            );
        }
        let traffic = pick(rng, &["saturated", "cbr", "poisson", "tcp"]);
        let direction = pick(rng, &["uplink", "uplink", "downlink"]);
        flows += &match traffic {
            "tcp" => format!(
                "[[flows]]\nname = \"f{g}\"\nprotocol = \"tcp\"\ndirection = \"{direction}\"\n\
                 stations = \"g{g}\"\nserver = \"srv\"\n"
            ),
            "saturated" => format!(
                "[[flows]]\nname = \"f{g}\"\ndirection = \"{direction}\"\nstations = \"g{g}\"\n\
                 packet_size = \"{}\"\n",
                pick(rng, &["200 B", "1000 B", "1500 B"]),
            ),
            _ => format!(
                "[[flows]]\nname = \"f{g}\"\ndirection = \"{direction}\"\nstations = \"g{g}\"\n\
                 traffic = \"{traffic}\"\nrate = \"{}\"\npacket_size = \"{}\"\nstart = \"{}\"\n",
                pick(rng, &["64 kb/s", "300 kb/s", "2 Mb/s"]),
                pick(rng, &["160 B", "1000 B"]),
                pick(rng, &["0 s", "0.1 s"]),
            ),
        };
        if qos || ap_qos {
            // A voice flow beside it, classified to AC_VO by size.
            flows += &format!(
                "[[flows]]\nname = \"v{g}\"\ndirection = \"{direction}\"\nstations = \"g{g}\"\n\
                 traffic = \"cbr\"\nrate = \"64 kb/s\"\npacket_size = \"160 B\"\n"
            );
        }
    }
    s += "[[servers]]\nname = \"srv\"\n";
    if any_qos {
        s += "[qos]\nclassifier = [{ ac = \"vo\", max_size = \"200 B\" }]\n";
    }
    s + &flows
}

#[test]
fn randomized_scenarios_match_the_linear_reference() {
    let mut rng = Rng::named(2024, StreamKind::Traffic, "corpus");
    let mut seen = [0u64; 4];
    for (i, &stations) in [1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 150]
        .iter()
        .cycle()
        .take(44)
        .enumerate()
    {
        let text = scenario(&mut rng, stations);
        let s = Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let seed = 1 + i as u64;
        let new = run(&s, seed, false);
        let reference = run(&s, seed, true);
        assert!(
            new.to_json() == reference.to_json(),
            "scenario {i} (seed {seed}) differs from the reference:\n{text}"
        );
        for n in &new.nodes {
            seen[0] += n.mac.collisions;
            seen[1] += n.mac.internal_collisions;
            seen[2] += n.mac.burst_exchanges;
            seen[3] += n.mac.frame_errors;
        }
    }
    let [collisions, internal, bursts, errors] = seen;
    assert!(
        collisions > 0 && internal > 0 && bursts > 0 && errors > 0,
        "{seen:?}"
    );
}

/// ns-3.37's bystanders (`mac/shared/header_abort.rs`): a node that loses the PHY header
/// of a collision counts AIFS after it, aside from its class, which counts from EIFS.
/// Saturated cells under `profile = "ns3"` with SINR reception, DCF (802.11a) and EDCA
/// (802.11n, two ACs per station), basic access and RTS/CTS, against the reference; and
/// the rule moves the results (the standard's profile gives others).
#[test]
fn header_aborts_match_the_linear_reference() {
    for (i, (standard, qos, rts)) in [
        ("802.11a", false, "\"off\""),
        ("802.11n", true, "\"off\""),
        ("802.11n", true, "\"always\""),
    ]
    .into_iter()
    .enumerate()
    {
        let cell = |profile: &str| {
            let mut s = format!(
                "duration = \"2 s\"\nwarmup = \"0.5 s\"\nprofile = \"{profile}\"\n\
                 [phy]\nstandard = \"{standard}\"\n[mac]\nrts_threshold = {rts}\n\
                 [channel.reception]\nmodel = \"sinr\"\nrx_power_dbm = -30.66\n\
                 error_model = \"table\"\n\
                 [[stations]]\nname = \"s\"\ncount = 20\nqos = {qos}\n\
                 [[flows]]\nname = \"up\"\ndirection = \"uplink\"\nstations = \"s\"\n\
                 traffic = \"saturated\"\n"
            );
            if qos {
                s += "[[flows]]\nname = \"vo\"\ndirection = \"uplink\"\nstations = \"s\"\n\
                      traffic = \"saturated\"\n[qos]\nclassifier = [{ ac = \"vo\", flow = \"vo\" }]\n";
            }
            Scenario::from_toml(&s).unwrap_or_else(|e| panic!("{e}\n{s}"))
        };
        let seed = 11 + i as u64;
        let ns3 = cell("ns3");
        let new = run(&ns3, seed, false);
        assert!(
            new.to_json() == run(&ns3, seed, true).to_json(),
            "{standard} {rts}: the contention structure differs from the reference"
        );
        let standard_rules = run(&cell("standard"), seed, false);
        assert!(new.nodes.iter().map(|n| n.mac.collisions).sum::<u64>() > 0);
        assert!(
            new.to_json() != standard_rules.to_json(),
            "{standard} {rts}: the rule changed nothing"
        );
    }
}

/// ns-3.37's aborted PHY header on the spatial medium (`mac/shared/header_abort.rs`,
/// `channel/receiver.rs`), per node. 802.11a at 54 Mb/s, path-loss exponent 2 (−47 dBm
/// at 100 m), thresholds −52.2 dBm: two stations 200 m apart, hidden from each other,
/// start a 1000-byte upload `gap` apart (saturated sources, each one's first frame
/// goes at once); bystander `a` 150 m from the first and 50 m from the second, `b` the
/// reverse. Each locks onto the first frame (at or above its threshold); the second
/// arrives `gap` later 9.5 dB stronger at `a`, 9.5 dB weaker at `b`. Within the first
/// frame's PHY header (20 µs) the header at `a` meets −9.5 dB and is lost: `a` counts
/// AIFS (DIFS) after its medium's idle, the second frame's end. `b` decodes it at
/// +9.5 dB and loses the 54 Mb/s PSDU: a reception in error, EIFS from its end (ns-3.37's
/// start). After the header (`gap` 40 µs) `a` decodes it too and loses the PSDU: EIFS.
/// Under the standard's profile every one of them counts EIFS from the idle.
#[test]
fn spatial_bystanders_that_lose_the_header_count_aifs_the_others_eifs() {
    use crate::sim::time::{Time, SECOND, US};
    let world = |profile: &str, gap: Time| {
        let station =
            |name: &str, x: i32| format!("[[stations]]\nname = \"{name}\"\nposition = [{x}, 0]\n");
        let upload = |name: &str, start: Time| {
            format!(
                "[[flows]]\nname = \"{name}\"\ndirection = \"uplink\"\nstations = \"{name}\"\n\
                 packet_size = \"1000 B\"\nstart = \"{start} ns\"\n"
            )
        };
        let s = format!(
            "duration = \"2 s\"\nprofile = \"{profile}\"\n\
             [phy]\nstandard = \"802.11a\"\ndata_rate = \"54 Mb/s\"\n\
             [mac]\nrts_threshold = \"off\"\n\
             [ap]\nposition = [100, 0]\n{}{}{}{}{}{}\
             [channel.propagation]\nmodel = \"shadowing\"\nsigma_db = 0\n\
             path_loss_exponent = 2\nrx_threshold_w = 6e-9\ncs_threshold_w = 6e-9\n\
             [channel.reception]\nmodel = \"sinr\"\nsensitivity_dbm = -101\n\
             error_model = \"table\"\n",
            station("t1", 0),
            station("t2", 200),
            station("a", 150),
            station("b", 50),
            upload("t1", SECOND),
            upload("t2", SECOND + gap),
        );
        let s = Scenario::from_toml(&s).unwrap_or_else(|e| panic!("{e}\n{s}"));
        World::new(&s, 1).expect("a valid scenario")
    };
    // (A group of one station names its node `<group>-0`.)
    let entity = |w: &World, name: &str| {
        let node = w.nodes.iter().find(|n| n.name == format!("{name}-0"));
        node.expect("the station").entities.start as usize
    };
    for (profile, gap, a_aborts) in [
        ("ns3", 5 * US, true),
        ("ns3", 40 * US, false),
        ("standard", 5 * US, false),
    ] {
        let mut w = world(profile, gap);
        assert_eq!(w.mac.medium_name(), "spatial");
        let phy = &w.mac.store.phy;
        let (delta, difs, eifs) = (phy.propagation_delay, phy.difs, phy.eifs());
        let data = phy.data_time(1028);
        let first_end = SECOND + delta + data;
        let idle = first_end + gap;
        // Until both frames ended everywhere, before any node sends again.
        while let Some((now, event)) = w.events.pop_before(idle + difs / 2) {
            w.dispatch(now, event);
        }
        let countdown = |name| {
            w.mac.store.entities[entity(&w, name)]
                .backoff
                .countdown_start
        };
        let errored = |end: Time| match profile {
            "ns3" => end + eifs,
            _ => idle + eifs,
        };
        let a = if a_aborts {
            idle + difs
        } else {
            errored(first_end)
        };
        assert_eq!(countdown("a"), a, "{profile}, gap {gap}: a");
        assert_eq!(
            countdown("b"),
            errored(first_end),
            "{profile}, gap {gap}: b"
        );
    }
}
