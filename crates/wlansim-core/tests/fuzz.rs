//! Property-based fuzzing (proptest), bounded to run in seconds:
//! - the scenario parser and validator on the example scenarios with random mutations
//!   (values replaced by odd ones, keys removed or added, text edited): never a panic, and
//!   every error names a key path (or, for broken TOML, a line) and no raw type name;
//!   every accepted scenario resolves to a scenario that parses back to the same one;
//! - the event loop on small random valid scenarios: no panic, the packet accounting
//!   invariant holds (checked by every run), and the same seed gives the same results;
//! - the same on random geometries (positions, moving stations, thresholds, antenna
//!   gains, channels, reception models, the ns-2 profile; the spatial medium forced or
//!   chosen);
//! - the operators that found issue 28's bugs: values nested deeply, sizes and rates near
//!   the caps, special files as inputs, every size and time distribution at extreme
//!   parameters, per-AP options on some APs only, warm-ups that end mid-exchange: no
//!   panic, every error names a key and says what is allowed, and accepted scenarios give
//!   results that make sense (no more collisions than attempts, no more UDP packets
//!   delivered than offered unless offered in the warm-up, no file moved faster than
//!   any link).
//!
//! Case counts and the random seed are fixed (no time-based stopping), so a run is
//! reproducible.
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use std::panic::{catch_unwind, AssertUnwindSafe};
use toml::Value;
use wlansim_core::{simulate, Scenario};

const EXAMPLES: [&str; 11] = [
    include_str!("../../../scenarios/saturated-11b.toml"),
    include_str!("../../../scenarios/saturated-11g.toml"),
    include_str!("../../../scenarios/mixed-udp-11b.toml"),
    include_str!("../../../scenarios/pilosof-1up-1down.toml"),
    include_str!("../../../scenarios/pilosof-4up-4down-clamp.toml"),
    include_str!("../../../scenarios/http-onoff.toml"),
    include_str!("../../../scenarios/two-bss.toml"),
    include_str!("../../../scenarios/bursty-upload-delay-injection.toml"),
    include_str!("../../../scenarios/saturated-11ac.toml"),
    include_str!("../../../scenarios/saturated-11ac-ampdu.toml"),
    include_str!("../../../scenarios/rate-adaptation-11g.toml"),
];

/// Cases of each property (reported in the README's Reliability section).
const MUTATED_CASES: u32 = 20_000;
const TEXT_CASES: u32 = 10_000;
const RUN_CASES: u32 = 500;
const GEOMETRY_CASES: u32 = 1000;

/// A fixed seed, so `make test` tries the same cases every time (set PROPTEST_RNG_SEED to
/// explore others); WLANSIM_FUZZ_CASES sets the cases of every property (the README's long
/// run).
fn config(cases: u32) -> Config {
    let cases = std::env::var("WLANSIM_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    let rng_seed = if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
        Config::default().rng_seed
    } else {
        RngSeed::Fixed(12)
    };
    Config {
        cases,
        rng_seed,
        failure_persistence: None,
        ..Config::default()
    }
}

/// Odd and ordinary values a mutation writes into a key.
fn pool() -> Vec<Value> {
    let mut v: Vec<Value> = [
        "",
        "0",
        "0 s",
        "1e30 s",
        "1e12 s",
        "-1 s",
        "0.1 ns",
        "0.1 b/s",
        "1e30 Gb/s",
        "NaN s",
        "inf",
        "1 Mb/s",
        "11 Mb/s",
        "10 ms",
        "1500 B",
        "5 GB",
        "1e300 B",
        "unlimited",
        "off",
        "always",
        "tcp",
        "udp",
        "cbr",
        "poisson",
        "saturated",
        "uplink",
        "downlink",
        "802.11a",
        "802.11g",
        "802.11n",
        "802.11ac",
        "2.4 GHz",
        "short",
        "long",
        "minstrel",
        "minstrel_ht",
        "ideal",
        "aarf",
        "ns3",
        "sinr",
        "6 Mb/s",
        "a b",
        "sta",
        "srv",
        "up",
        "x.y",
        "ng2005-table2",
        "flow_throughput",
        "cwnd",
        "newreno",
        "ns2-compat",
        "vo",
        "µs",
        "1 µs",
        "100000 min",
        "18446744073 s",
        // near the caps: a message (16 MiB), an input file (64 MiB), a flow's load
        "16 MiB",
        "16777217 B",
        "64 MiB",
        "10 Gb/s",
        "10000000001 b/s",
        "1 ms",
        "1.000001 ms",
        "10 us",
        // special files
        "/dev/zero",
        "/",
        "/proc/self/status",
    ]
    .iter()
    .map(|s| Value::String(s.to_string()))
    .collect();
    v.extend(
        [
            0i64,
            1,
            2,
            -1,
            7,
            63,
            64,
            255,
            256,
            1000,
            65535,
            65536,
            1_048_575,
            1_048_576,
            3839,
            7935,
            11454,
            11455,
            100_000,
            100_001,
            4_294_967_295,
            4_294_967_296,
            i64::MAX,
            i64::MIN,
        ]
        .map(Value::Integer),
    );
    v.extend(
        [
            0.0,
            0.5,
            1.0,
            -0.5,
            1.5,
            f64::NAN,
            f64::INFINITY,
            -f64::INFINITY,
            1e30,
        ]
        .map(Value::Float),
    );
    v.extend([Value::Boolean(true), Value::Boolean(false)]);
    v.push(Value::Array(vec![]));
    v.push(Value::Array(vec![Value::String("flow_throughput".into())]));
    v.push(Value::Table(Default::default()));
    // deeply nested values (the TOML writer and parser stop at some depth: an error)
    for depth in [3, 40] {
        let mut deep = Value::Integer(1);
        for k in 0..depth {
            deep = if k % 2 == 0 {
                Value::Array(vec![deep])
            } else {
                Value::Table([("a".to_string(), deep)].into_iter().collect())
            };
        }
        v.push(deep);
    }
    v
}

/// Keys a mutation may add (known ones in odd places, and unknown ones).
const KEYS: [&str; 24] = [
    "count",
    "queue",
    "rate",
    "delay",
    "duration",
    "warmup",
    "qos",
    "edca",
    "fer",
    "tcp",
    "server",
    "bytes",
    "stop",
    "series",
    "colour",
    "name",
    "mcs",
    "streams",
    "channel_width",
    "ampdu_max_bytes",
    "amsdu_max_bytes",
    "ba_window",
    "rate_control",
    "msdu_lifetime",
];

/// Every path to a value, as a list of steps (table key or array index).
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn paths(v: &Value, prefix: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    match v {
        Value::Table(t) => {
            for (k, child) in t {
                prefix.push(Step::Key(k.clone()));
                out.push(prefix.clone());
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                prefix.push(Step::Index(i));
                out.push(prefix.clone());
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn parent_mut<'a>(root: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    let mut node = root;
    for step in &path[..path.len().saturating_sub(1)] {
        node = match (step, node) {
            (Step::Key(k), Value::Table(t)) => t.get_mut(k)?,
            (Step::Index(i), Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(node)
}

/// Apply mutation `(what, at, value)` to the scenario document.
fn mutate(doc: &mut Value, what: u8, at: usize, value: usize) {
    let mut all = Vec::new();
    paths(doc, &mut Vec::new(), &mut all);
    if all.is_empty() {
        return;
    }
    let path = &all[at % all.len()];
    let pool = pool();
    let new = pool[value % pool.len()].clone();
    let Some(parent) = parent_mut(doc, path) else {
        return;
    };
    match (path.last().unwrap(), parent, what % 4) {
        // Replace the value.
        (Step::Key(k), Value::Table(t), 0 | 1) => {
            t.insert(k.clone(), new);
        }
        (Step::Index(i), Value::Array(a), 0 | 1) => a[*i] = new,
        // Remove the key or element.
        (Step::Key(k), Value::Table(t), 2) => {
            t.remove(k);
        }
        (Step::Index(i), Value::Array(a), 2) => {
            a.remove(*i);
        }
        // Add a key beside it, or duplicate the element.
        (Step::Key(_), Value::Table(t), _) => {
            t.insert(KEYS[value % KEYS.len()].to_string(), new);
        }
        (Step::Index(i), Value::Array(a), _) => {
            let copy = a[*i].clone();
            a.push(copy);
        }
        _ => {}
    }
}

/// The properties every parse result has: no panic (checked by the caller), errors that
/// name a key path (or a TOML line) and no serde type name, accepted scenarios that
/// resolve to themselves.
fn check_parse(text: &str) -> Result<(), TestCaseError> {
    let parsed = catch_unwind(AssertUnwindSafe(|| Scenario::from_toml(text)));
    let parsed = parsed.map_err(|_| TestCaseError::fail(format!("panic on:\n{text}")))?;
    match parsed {
        Err(e) => {
            let m = e.to_string();
            prop_assert!(
                !e.path.is_empty() || m.contains('`') || m.contains("TOML parse error at line"),
                "error without a key path: {m}\n{text}"
            );
            for raw in [
                "expected u8",
                "expected u32",
                "expected u64",
                "expected f64",
                "expected value",
                "wanted string or table",
                "another value",
                "this value is not allowed",
            ] {
                prop_assert!(!m.contains(raw), "raw message `{raw}`: {m}\n{text}");
            }
        }
        Ok(s) => {
            let resolved = serde_json::to_string(&s.resolved()).unwrap();
            let again = Scenario::from_json(&resolved);
            prop_assert!(
                again.is_ok(),
                "resolved form refused: {again:?}\n{resolved}"
            );
            let again = serde_json::to_string(&again.unwrap().resolved()).unwrap();
            prop_assert_eq!(resolved, again);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(MUTATED_CASES))]
    #[test]
    fn mutated_examples_never_panic_and_errors_name_a_key(
        example in 0..EXAMPLES.len(),
        mutations in prop::collection::vec((any::<u8>(), any::<usize>(), any::<usize>()), 1..4),
    ) {
        let mut doc: Value = toml::from_str(EXAMPLES[example]).unwrap();
        for (what, at, value) in mutations {
            mutate(&mut doc, what, at, value);
        }
        let text = toml::to_string(&doc).unwrap_or_default();
        check_parse(&text)?;
        // The same document as JSON (what the Python package sends), when it has one.
        if let Ok(json) = serde_json::to_string(&doc) {
            let r = catch_unwind(AssertUnwindSafe(|| Scenario::from_json(&json)));
            prop_assert!(r.is_ok(), "panic on JSON:\n{json}");
        }
    }
}

proptest! {
    #![proptest_config(config(TEXT_CASES))]
    #[test]
    fn edited_example_text_never_panics(
        example in 0..EXAMPLES.len(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..6),
    ) {
        let mut text: Vec<char> = EXAMPLES[example].chars().collect();
        let alphabet: Vec<char> = "0123456789.-+e sMbkBn\"=[]\n#ué".chars().collect();
        for (at, c, op) in edits {
            let at = at % (text.len() + 1);
            let c = alphabet[c as usize % alphabet.len()];
            match op {
                0 => text.insert(at, c),
                1 if at < text.len() => { text.remove(at); }
                _ if at < text.len() => text[at] = c,
                _ => {}
            }
        }
        check_parse(&text.into_iter().collect::<String>())?;
    }
}

/// The keys of 802.11n/ac and aggregation (issue 40), drawn so that the scenario stays
/// valid: an MCS, streams, width, guard interval and band; A-MPDU and A-MSDU limits, the
/// Block Ack window, MSDU lifetimes (tiny and huge), a TXOP limit of the AP's AC_BE, a
/// rate controller (under SINR reception), the ns-3 profile.
#[derive(Clone, Debug)]
struct Ht {
    vht: bool,
    band_24: bool,
    width: u32,
    streams: u32,
    mcs: Option<u32>,
    short_gi: bool,
    ampdu: Option<(u32, Option<u32>)>,
    amsdu: Option<u32>,
    lifetime: Option<&'static str>,
    txop: Option<&'static str>,
    rate_control: Option<&'static str>,
    ns3: bool,
}

fn ht() -> impl Strategy<Value = Ht> {
    (
        (
            any::<bool>(),
            any::<bool>(),
            0usize..4,
            1u32..3,
            prop::option::of(0u32..6),
            any::<bool>(),
        ),
        (
            prop::option::of((
                prop::sample::select(vec![1u32, 1600, 8000, 65535]),
                prop::option::of(1u32..65),
            )),
            prop::option::of(prop::sample::select(vec![1600u32, 3839])),
            prop::option::of(prop::sample::select(vec![
                "10 us", "1 ms", "50 ms", "1e9 s",
            ])),
            prop::option::of(prop::sample::select(vec![
                "0 s", "32 us", "1.504 ms", "5 ms",
            ])),
            prop::option::of(prop::sample::select(vec![
                "ideal",
                "minstrel_ht",
                "arf",
                "aarf",
            ])),
            any::<bool>(),
        ),
    )
        .prop_map(
            |(
                (vht, band_24, width, streams, mcs, short_gi),
                (ampdu, amsdu, lifetime, txop, rc, ns3),
            )| {
                let widths: &[u32] = if vht {
                    &[20, 40, 80, 160]
                } else {
                    &[20, 40, 20, 40]
                };
                // ARF and AARF are refused with A-MPDUs (an A-MPDU is partly acknowledged);
                // a controller chooses the MCS
                let rate_control = rc.filter(|r| ampdu.is_none() || !r.contains("arf"));
                Ht {
                    vht,
                    band_24: band_24 && !vht,
                    width: widths[width],
                    streams,
                    mcs: mcs.filter(|_| rate_control.is_none()),
                    short_gi,
                    ampdu,
                    amsdu,
                    lifetime,
                    txop,
                    rate_control,
                    ns3,
                }
            },
        )
}

impl Ht {
    fn standard(&self) -> &'static str {
        if self.vht {
            "802.11ac"
        } else {
            "802.11n"
        }
    }

    /// Lines of `[phy]` after `standard`.
    fn phy(&self) -> String {
        let mut t = format!(
            "channel_width = {}\nstreams = {}\n",
            self.width, self.streams
        );
        if self.band_24 {
            t += "band = \"2.4 GHz\"\n";
        }
        if let Some(m) = self.mcs {
            t += &format!("mcs = {m}\n");
        }
        if self.short_gi {
            t += "guard_interval = \"short\"\n";
        }
        t
    }

    /// Lines of `[mac]`.
    fn mac(&self) -> String {
        let mut t = String::new();
        if let Some((bytes, window)) = self.ampdu {
            t += &format!("ampdu_max_bytes = {bytes}\n");
            if let Some(w) = window {
                t += &format!("ba_window = {w}\n");
            }
        }
        if let Some(b) = self.amsdu {
            t += &format!("amsdu_max_bytes = {b}\n");
        }
        if let Some(l) = self.lifetime {
            t += &format!("msdu_lifetime = \"{l}\"\n");
        }
        if let Some(r) = self.rate_control {
            t += &format!("rate_control = \"{r}\"\n");
        }
        t
    }

    /// Lines of `[ap]`.
    fn ap(&self) -> String {
        self.txop
            .map(|txop| {
                format!("edca = {{ be = {{ txop = \"{txop}\" }}, vo = {{ txop = \"{txop}\" }} }}\n")
            })
            .unwrap_or_default()
    }
}

/// A small random valid scenario (TOML text): one or two station groups, UDP and TCP
/// flows of every kind, optional EDCA, frame errors, RTS/CTS, AP options and series; on
/// 802.11n/ac (2 times in 5) with the keys of [`Ht`] (A-MPDUs with RTS/CTS, frame
/// errors, TXOP limits, TCP, warm-ups ending inside an exchange).
fn small_scenario() -> impl Strategy<Value = String> {
    let group = (
        1u32..4,
        any::<bool>(),
        prop::option::of(0.0f64..0.3),
        1u32..30,
    );
    let flow = (
        any::<bool>(),                     // tcp
        any::<bool>(),                     // uplink
        0u8..3,                            // traffic
        1u32..3000,                        // rate, kb/s
        1u32..2269,                        // packet size
        0u32..200,                         // start, ms
        prop::option::of(1u32..2_000_000), // tcp bytes
        any::<bool>(),                     // ns2-compat profile
        0usize..2,                         // group
    );
    (
        (0u8..5, ht()),                            // standard, its HT/VHT keys
        prop::collection::vec(group, 1..3),
        prop::collection::vec(flow, 1..4),
        (300u32..1000, 0u32..200),                 // duration, warmup (ms)
        (1u32..60, prop::option::of(1u32..20), any::<bool>()), // AP queue, ACK queue, clamp
        (prop::option::of(0u32..2000), any::<bool>(), any::<bool>()), // RTS, preset, series
        (1u32..100, 0u32..30),                     // server link Mb/s, delay ms
    )
        .prop_map(|((std, ht), groups, flows, (dur, warm), (apq, ackq, clamp), (rts, preset, series), (link, delay))| {
            let ht = (std >= 3).then_some(ht);
            let standard = ht.as_ref().map_or(["802.11b", "802.11a", "802.11g"][std as usize % 3], Ht::standard);
            let mut t = format!("duration = \"{dur} ms\"\nwarmup = \"{warm} ms\"\n");
            if ht.as_ref().is_some_and(|h| h.ns3) {
                t += "profile = \"ns3\"\n";
            }
            t += &format!("[phy]\nstandard = \"{standard}\"\n{}", ht.as_ref().map(Ht::phy).unwrap_or_default());
            t += "[mac]\n";
            if let Some(r) = rts {
                t += &format!("rts_threshold = {r}\n");
            }
            t += &ht.as_ref().map(Ht::mac).unwrap_or_default();
            if ht.as_ref().is_some_and(|h| h.rate_control.is_some()) {
                t += "[channel.reception]\nmodel = \"sinr\"\nrx_power_dbm = -75\n";
            }
            t += &format!("[ap]\nqueue = {apq}\nrwnd_clamp = {clamp}\n{}", ht.as_ref().map(Ht::ap).unwrap_or_default());
            if let Some(a) = ackq {
                t += &format!("ack_queue = {a}\n");
            }
            if preset {
                t += "[qos]\npreset = \"ng2005-table2\"\n";
            }
            if series {
                t += "[output]\nseries = [\"flow_throughput\", \"queue_length\", \"cwnd\"]\nseries_interval = \"50 ms\"\n";
            }
            for (i, (count, qos, fer, queue)) in groups.iter().enumerate() {
                t += &format!("[[stations]]\nname = \"g{i}\"\ncount = {count}\nqueue = {queue}\nqos = {qos}\n");
                if let Some(f) = fer {
                    t += &format!("fer = {f}\n");
                }
            }
            t += &format!("[[servers]]\nname = \"srv\"\ncount = 2\nrate = \"{link} Mb/s\"\ndelay = \"{delay} ms\"\n");
            for (i, (tcp, up, traffic, rate, size, start, bytes, ns2, g)) in flows.into_iter().enumerate() {
                let g = g % groups.len();
                let dir = if up { "uplink" } else { "downlink" };
                t += &format!("[[flows]]\nname = \"f{i}\"\ndirection = \"{dir}\"\nstations = \"g{g}\"\nstart = \"{start} ms\"\n");
                if tcp {
                    t += "protocol = \"tcp\"\nserver = \"srv\"\n";
                    if let Some(b) = bytes {
                        t += &format!("bytes = {b}\n");
                    }
                    if ns2 {
                        t += "tcp = { profile = \"ns2-compat\" }\n";
                    }
                } else {
                    t += &format!("packet_size = {size}\n");
                    match traffic {
                        0 => {}
                        1 => t += &format!("traffic = \"cbr\"\nrate = \"{rate} kb/s\"\n"),
                        _ => t += &format!("traffic = \"poisson\"\nrate = \"{rate} kb/s\"\n"),
                    }
                }
            }
            t
        })
}

/// Results as JSON without the wall-clock time (the only field allowed to differ).
fn comparable(r: &wlansim_core::Results) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    v["meta"].as_object_mut().unwrap().remove("wall_s");
    v
}

/// `text` is accepted, runs without a panic or an accounting failure (an
/// `Err(Invariant)`), and runs again with the same seed to the same results.
fn accepted_runs_twice_alike(text: &str, seed: u64) -> Result<(), TestCaseError> {
    let s = Scenario::from_toml(text);
    prop_assert!(
        s.is_ok(),
        "generated scenario refused: {:?}\n{text}",
        s.err()
    );
    let s = s.unwrap();
    let run = || catch_unwind(AssertUnwindSafe(|| simulate(&s, Some(seed))));
    let first = run().map_err(|_| TestCaseError::fail(format!("panic:\n{text}")))?;
    prop_assert!(first.is_ok(), "{:?}\n{text}", first.err());
    sane(first.as_ref().unwrap(), text)?;
    let second = run().map_err(|_| TestCaseError::fail(format!("panic:\n{text}")))?;
    prop_assert_eq!(
        comparable(&first.unwrap()),
        comparable(&second.unwrap()),
        "{}",
        text
    );
    Ok(())
}

proptest! {
    #![proptest_config(config(RUN_CASES))]
    #[test]
    fn small_random_runs_keep_accounting_and_are_deterministic(
        text in small_scenario(),
        seed in any::<u64>(),
    ) {
        accepted_runs_twice_alike(&text, seed)?;
    }
}

/// A random geometry on the spatial medium: APs and station groups at random positions
/// (some moving), random thresholds, channels, reception models, profiles, RTS/CTS, EDCA
/// and beacons; half of them on 802.11n at 2.4 GHz (HT data frames, legacy control
/// frames; the spatial medium has no A-MPDUs: refused by name, which the Python fuzz
/// tries).
fn random_geometry() -> impl Strategy<Value = String> {
    let ap = (
        (0.0f64..300.0, 0.0f64..300.0),
        0usize..3,                     // channel
        prop::option::of(-95i32..-40), // rx threshold, dBm
        prop::option::of(-95i32..-40), // cs threshold, dBm
        any::<bool>(),                 // beacons
        any::<bool>(),                 // qos
    );
    let group = (
        (0.0f64..300.0, 0.0f64..300.0),
        1u32..4,                                                      // count
        prop::option::of(((0.0f64..300.0, 0.0f64..300.0), 1u32..40)), // waypoint, speed
        prop::option::of(-95i32..-40),                                // rx threshold
        prop::option::of(-95i32..-40),                                // cs threshold
        -10i32..10,                                                   // antenna gain
        any::<bool>(),                                                // qos
    );
    let flow = (any::<bool>(), any::<bool>(), 0u8..3, 1u32..3000); // tcp, up, traffic, kb/s
    (
        prop::collection::vec(ap, 1..4),
        prop::collection::vec(group, 1..5),
        prop::collection::vec(flow, 1..5),
        (2.0f64..4.5, 0.0f64..6.0),   // path-loss exponent, sigma
        0u8..3,                       // reception
        (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()), // rts, ns2 profile, force spatial, 802.11n
        300u32..1500,                 // duration, ms
    )
        .prop_map(|(aps, groups, flows, (beta, sigma), reception, (rts, ns2, spatial, ht), dur)| {
            let channel = |c: usize| [1, 6, 11][c];
            let mut t = format!("duration = \"{dur} ms\"\nwarmup = \"100 ms\"\n");
            if ns2 {
                t += "profile = \"ns2\"\n";
            }
            t += "[mac]\n";
            if rts {
                t += "rts_threshold = 0\n";
            }
            // ns-2's profile has no HT PHY
            if ht && !ns2 {
                t += "[phy]\nstandard = \"802.11n\"\nband = \"2.4 GHz\"\n";
            }
            for (i, ((x, y), c, rx, cs, beacons, qos)) in aps.iter().enumerate() {
                t += &format!(
                    "[[aps]]\nname = \"ap{i}\"\nposition = [{x}, {y}]\nchannel = {}\nqos = {qos}\n",
                    channel(*c)
                );
                if let Some(rx) = rx {
                    t += &format!("rx_threshold = \"{rx} dBm\"\n");
                }
                if let Some(cs) = cs {
                    t += &format!("cs_threshold = \"{cs} dBm\"\n");
                }
                if *beacons {
                    t += "beacon_interval = \"102.4 ms\"\n";
                }
            }
            for (i, ((x, y), count, moves, rx, cs, gain, qos)) in groups.iter().enumerate() {
                t += &format!(
                    "[[stations]]\nname = \"g{i}\"\nap = \"ap{}\"\ncount = {count}\nposition = [{x}, {y}]\nantenna_gain_db = {gain}\nqos = {qos}\n",
                    i % aps.len()
                );
                if let Some(rx) = rx {
                    t += &format!("rx_threshold = \"{rx} dBm\"\n");
                }
                if let Some(cs) = cs {
                    t += &format!("cs_threshold = \"{cs} dBm\"\n");
                }
                if let Some(((wx, wy), speed)) = moves {
                    t += &format!("mobility = {{ speed = \"{speed} m/s\", waypoints = [[{wx}, {wy}]] }}\n");
                }
            }
            t += "[[servers]]\nname = \"srv\"\nvia = \"ap0\"\n";
            for (i, (tcp, up, traffic, rate)) in flows.into_iter().enumerate() {
                let dir = if up { "uplink" } else { "downlink" };
                t += &format!(
                    "[[flows]]\nname = \"f{i}\"\ndirection = \"{dir}\"\nstations = \"g{}\"\n",
                    i % groups.len()
                );
                if tcp {
                    t += "protocol = \"tcp\"\nserver = \"srv\"\n";
                } else {
                    match traffic {
                        0 => {}
                        1 => t += &format!("traffic = \"cbr\"\nrate = \"{rate} kb/s\"\nserver = \"srv\"\n"),
                        _ => t += &format!("traffic = \"poisson\"\nrate = \"{rate} kb/s\"\nserver = \"srv\"\n"),
                    }
                }
            }
            // Servers hang off ap0: the other APs reach them through a router.
            t += "[[routers]]\nname = \"r\"\n";
            for i in 0..aps.len() {
                t += &format!("[[links]]\na = \"r\"\nb = \"ap{i}\"\n");
            }
            let model = ["none", "threshold", "sinr"][reception as usize];
            t += &format!(
                "[channel]\nmedium = \"{}\"\n[channel.propagation]\nmodel = \"shadowing\"\npath_loss_exponent = {beta}\nsigma_db = {sigma}\n[channel.reception]\nmodel = \"{model}\"\n",
                if spatial { "spatial" } else { "auto" }
            );
            t
        })
}

proptest! {
    #![proptest_config(config(GEOMETRY_CASES))]
    #[test]
    fn random_geometries_never_panic_and_keep_accounting(
        text in random_geometry(),
        seed in any::<u64>(),
    ) {
        accepted_runs_twice_alike(&text, seed)?;
    }
}

/// A size distribution at extreme parameters (bytes).
fn size_distribution() -> impl Strategy<Value = String> {
    let number = prop::sample::select(vec![
        "0", "1e-300", "1e-9", "0.5", "1", "1.5", "10", "1e9", "1e300", "nan", "inf", "-1",
    ]);
    let size = prop::sample::select(vec![
        "\"1 B\"",
        "\"42 B\"",
        "\"30 kB\"",
        "\"16 MiB\"",
        "\"16777217 B\"",
        "\"1 GB\"",
        "9007199254740992",
        "\"0 B\"",
    ]);
    (0u8..5, number.clone(), number, size.clone(), size).prop_map(|(kind, a, b, s1, s2)| match kind
    {
        0 => format!("{{ distribution = \"fixed\", value = {s1} }}"),
        1 => format!("{{ distribution = \"exponential\", mean = {s1} }}"),
        2 => format!("{{ distribution = \"pareto\", shape = {a}, scale = {s2} }}"),
        3 => format!("{{ distribution = \"pareto\", shape = {a}, mean = {s1} }}"),
        _ => format!("{{ distribution = \"log-normal\", mean = {s1}, sigma = {b} }}"),
    })
}

/// A time distribution at extreme parameters.
fn time_distribution() -> impl Strategy<Value = String> {
    let time = prop::sample::select(vec![
        "\"0 s\"",
        "\"1 ns\"",
        "\"100 ns\"",
        "\"1 ms\"",
        "\"60 ms\"",
        "\"1 s\"",
        "\"1e9 s\"",
    ]);
    (any::<bool>(), time).prop_map(|(fixed, t)| {
        if fixed {
            format!("{{ distribution = \"fixed\", value = {t} }}")
        } else {
            format!("{{ distribution = \"exponential\", mean = {t} }}")
        }
    })
}

/// Two BSSs with a game, files over TCP and CBR, each AP option on some APs only, a
/// warm-up that may end mid-exchange; half of them on 802.11n/ac with the keys of [`Ht`]
/// (A-MPDUs of a game's messages, of files over TCP, of CBR at up to 10 Gb/s).
fn extreme_scenario() -> impl Strategy<Value = String> {
    let ap_options = prop::collection::vec(
        prop::sample::select(vec![
            "delay_injection = {}",
            "rwnd_clamp = true",
            "ack_queue = 5",
            "qos = true",
            "queue = 1",
            "beacon_interval = \"1 ms\"",
        ]),
        0..3,
    );
    (
        (size_distribution(), time_distribution(), prop::sample::select(vec![1u32, 40, 1472, 2260])),
        (size_distribution(), any::<bool>(), any::<bool>()),
        (ap_options.clone(), ap_options),
        (0u32..900, 1u32..40),
        prop::sample::select(vec!["10 Gb/s", "1 Gb/s", "2 Mb/s", "1 b/s"]),
        prop::option::of(ht()),
    )
        .prop_map(
            |((gsize, ginterval, packet), (fsize, pad, records), (ap1, ap2), (warm, count), rate, ht)| {
                let mut t = format!("duration = \"1 s\"\nwarmup = \"{warm} ms\"\n");
                if let Some(ht) = &ht {
                    if ht.ns3 {
                        t += "profile = \"ns3\"\n";
                    }
                    t += &format!("[phy]\nstandard = \"{}\"\n{}[mac]\n{}", ht.standard(), ht.phy(), ht.mac());
                    if ht.rate_control.is_some() {
                        t += "[channel.reception]\nmodel = \"sinr\"\n";
                    }
                }
                for (name, options) in [("ap1", ap1), ("ap2", ap2)] {
                    t += &format!("[[aps]]\nname = \"{name}\"\n");
                    for o in options {
                        t += &format!("{o}\n");
                    }
                    if name == "ap1" {
                        t += &ht.as_ref().map(Ht::ap).unwrap_or_default();
                    }
                }
                t += "[[routers]]\nname = \"r\"\n[[links]]\na = \"ap1\"\nb = \"r\"\n[[links]]\na = \"r\"\nb = \"ap2\"\n";
                t += "[[servers]]\nname = \"srv\"\nvia = \"r\"\n";
                t += &format!("[[stations]]\nname = \"a\"\ncount = {count}\nap = \"ap1\"\n");
                t += "[[stations]]\nname = \"b\"\nap = \"ap2\"\n";
                t += &format!("[[flows]]\nname = \"g\"\ndirection = \"uplink\"\nstations = \"b\"\nserver = \"srv\"\ntraffic = \"game\"\npacket_size = {packet}\ngame = {{ size = {gsize}, interval = {ginterval} }}\n");
                t += &format!("[[flows]]\nname = \"get\"\nprotocol = \"tcp\"\ndirection = \"downlink\"\nstations = \"b\"\nserver = \"srv\"\nfiles = {{ size = {fsize}, pad_last_segment = {pad} }}\n");
                t += &format!("[[flows]]\nname = \"up\"\ndirection = \"uplink\"\nstations = \"a\"\ntraffic = \"cbr\"\nrate = \"{rate}\"\n");
                if records {
                    t += "[output]\npackets = [\"g\"]\n";
                }
                t
            },
        )
}

/// The most MPDUs one A-MPDU carries: the largest Block Ack window (802.11-2020 10.25.6).
const MAX_MPDUS_PER_AMPDU: u64 = 64;
/// The fastest data rate of any PHY here: VHT MCS 9, 160 MHz, 4 streams, short GI (b/s).
const MAX_DATA_RATE_BPS: f64 = 3466.7e6;

/// What a table of MAC counters (a node's, an AC's, a BSS's) must satisfy: every exchange
/// (a medium access, or one sent inside a TXOP without contending) ends once, ADDBA and
/// BlockAckReq frames go in exchanges, an A-MPDU carries at most 64 MPDUs.
fn sane_mac(who: &str, m: &wlansim_core::mac::MacStats, text: &str) -> Result<(), TestCaseError> {
    let exchanges = m.attempts + m.burst_exchanges;
    prop_assert!(m.collisions <= m.attempts, "{who}: {m:?}\n{text}");
    prop_assert!(
        m.successes + m.collisions <= exchanges,
        "{who}: {m:?}\n{text}"
    );
    prop_assert!(
        m.addba_sent + m.bars_sent <= exchanges,
        "{who}: {m:?}\n{text}"
    );
    prop_assert!(
        m.mpdus_sent <= MAX_MPDUS_PER_AMPDU * exchanges,
        "{who}: {m:?}\n{text}"
    );
    Ok(())
}

/// What accepted results must satisfy.
fn sane(r: &wlansim_core::Results, text: &str) -> Result<(), TestCaseError> {
    for n in &r.nodes {
        sane_mac(&n.name, &n.mac, text)?;
        if let Some(rate) = n.mean_data_rate_bps {
            prop_assert!(
                rate > 0.0 && rate <= MAX_DATA_RATE_BPS,
                "{}: {rate} b/s\n{text}",
                n.name
            );
        }
    }
    for a in &r.access_categories {
        sane_mac(&format!("{} {}", a.node, a.ac), &a.mac, text)?;
    }
    for b in &r.bss {
        sane_mac(&b.ap, &b.mac, text)?;
    }
    for f in &r.flows {
        let c = &f.counts;
        if f.tcp.is_none() {
            prop_assert!(
                c.delivered_packets - c.delivered_from_warmup <= c.offered_packets,
                "{}: {c:?}\n{text}",
                f.name
            );
        }
        prop_assert!(
            f.throughput_bps <= 2e10,
            "{}: {}\n{text}",
            f.name,
            f.throughput_bps
        );
    }
    for s in &r.sessions {
        prop_assert!(
            s.delay_s > 0.0 && s.bytes as f64 * 8.0 / s.delay_s < 2e10,
            "{s:?}\n{text}"
        );
    }
    Ok(())
}

const EXTREME_CASES: u32 = 300;

proptest! {
    #![proptest_config(config(EXTREME_CASES))]
    #[test]
    fn extreme_sources_and_per_ap_options_give_sane_results_or_a_named_error(
        text in extreme_scenario(),
        seed in any::<u64>(),
    ) {
        check_parse(&text)?;
        let Ok(s) = Scenario::from_toml(&text) else {
            return Ok(());
        };
        let run = catch_unwind(AssertUnwindSafe(|| simulate(&s, Some(seed))));
        let run = run.map_err(|_| TestCaseError::fail(format!("panic:\n{text}")))?;
        match run {
            Ok(r) => sane(&r, &text)?,
            Err(wlansim_core::SimError::Scenario(e)) => {
                prop_assert!(!e.path.is_empty(), "{e}\n{text}");
            }
            Err(e) => prop_assert!(false, "{e}\n{text}"),
        }
    }
}
