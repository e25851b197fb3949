//! Regression tests of issue 12's findings: inputs that aborted the process, looped
//! without end, were accepted although meaningless, or gave errors that did not say what
//! was wrong. Each test is named after its finding.
use wlansim_core::world::World;
use wlansim_core::{simulate, simulate_with, Scenario, SimError};

const CELL: &str = r#"
duration = "2 s"
[[stations]]
name = "sta"
count = 2
"#;

const TCP_CELL: &str = r#"
duration = "3 s"
[[stations]]
name = "sta"
[[servers]]
name = "srv"
SERVER
[[flows]]
name = "down"
protocol = "tcp"
direction = "downlink"
stations = "sta"
server = "srv"
"#;

fn error_of(toml: &str) -> (String, String) {
    let e = Scenario::from_toml(toml).expect_err("the scenario must be refused");
    (e.path.clone(), e.to_string())
}

fn json_error(json: &str) -> String {
    Scenario::from_json(json)
        .expect_err("the scenario must be refused")
        .to_string()
}

fn with_flow(flow: &str) -> String {
    format!("{CELL}[[flows]]\nname = \"f\"\ndirection = \"uplink\"\nstations = \"sta\"\n{flow}\n")
}

fn assert_refused(toml: &str, key: &str, words: &[&str]) {
    let (path, message) = error_of(toml);
    assert_eq!(path, key, "{message}");
    for w in words {
        assert!(message.contains(w), "`{w}` missing from: {message}");
    }
}

#[test]
fn abort_duration_1e12_s_is_refused_with_the_maximum() {
    for d in ["1e12 s", "100000000 min", "18446744073 s", "1e30 s"] {
        let toml = CELL.replace("\"2 s\"", &format!("\"{d}\""));
        assert_refused(&toml, "duration", &[d, "at most 1e9 s"]);
    }
}

#[test]
fn abort_long_run_without_series_reserves_no_samples() {
    // The longest duration allowed: building the world reserves nothing per sample.
    let s = Scenario::from_toml(&CELL.replace("\"2 s\"", "\"1e9 s\"")).unwrap();
    let _world = World::new(&s, 1);
}

#[test]
fn abort_series_too_many_samples_is_refused() {
    let toml = format!(
        "{}[output]\nseries = [\"flow_throughput\"]\nseries_interval = \"100 ns\"\n",
        with_flow("")
    );
    assert_refused(
        &toml,
        "output.series_interval",
        &["100 ns", "at most 10000000"],
    );
}

#[test]
fn abort_station_counts_of_millions_are_refused_before_building() {
    for n in [10_000_000u64, 1_000_000_000] {
        let toml = CELL.replace("count = 2", &format!("count = {n}"));
        assert_refused(
            &toml,
            "stations[0].count",
            &[&n.to_string(), "at most 100000 nodes"],
        );
    }
    let servers = format!("{CELL}[[servers]]\nname = \"srv\"\ncount = 4000000000\n");
    assert_refused(&servers, "servers[0].count", &["at most 100000 nodes"]);
}

#[test]
fn abort_huge_queues_are_refused() {
    let toml = CELL.replace("count = 2", "count = 2\nqueue = 4000000000");
    assert_refused(
        &toml,
        "stations[0].queue",
        &["4000000000", "at most 1000000 packets"],
    );
    // Each queue within its limit, but all of them together too large to reserve.
    let toml = CELL.replace("count = 2", "count = 90000\nqueue = 1000000");
    let (path, message) = error_of(&toml);
    assert_eq!(path, "stations", "{message}");
    assert!(message.contains("MiB"), "{message}");
}

#[test]
fn endless_cbr_rate_1e30_gbps_is_refused() {
    let toml = with_flow("traffic = \"cbr\"\nrate = \"1e30 Gb/s\"");
    assert_refused(&toml, "flows[0].rate", &["1e30 Gb/s", "1 Tb/s"]);
    let toml = with_flow("traffic = \"cbr\"\nrate = \"20 Gb/s\"");
    assert_refused(&toml, "flows[0].rate", &["20 Gb/s", "at most 10 Gb/s"]);
}

#[test]
fn endless_poisson_rate_zero_is_refused() {
    let toml = with_flow("traffic = \"poisson\"\nrate = 0\nstart = \"1 s\"");
    assert_refused(&toml, "flows[0].rate", &["0", "b/s"]);
}

#[test]
fn endless_series_interval_1e30_s_is_refused_and_the_longest_ends() {
    let base = with_flow("").replace("\"2 s\"", "\"3 s\"\nwarmup = \"2 s\"");
    let series = |interval: &str| {
        format!(
            "{base}[output]\nseries = [\"flow_throughput\"]\nseries_interval = \"{interval}\"\n"
        )
    };
    assert_refused(
        &series("1e30 s"),
        "output.series_interval",
        &["at most 1e9 s"],
    );
    // An interval longer than the run records nothing and the run ends.
    let s = Scenario::from_toml(&series("1e9 s")).unwrap();
    let r = simulate(&s, None).unwrap();
    assert!(r.series["flow_throughput"]["t_s"].is_empty());
}

#[test]
fn nonsense_bare_zero_rate_is_refused_like_0_mbps() {
    for rate in ["0", "\"0 Mb/s\""] {
        let toml = with_flow(&format!("traffic = \"cbr\"\nrate = {rate}"));
        let (path, _) = error_of(&toml);
        assert_eq!(path, "flows[0].rate");
    }
}

#[test]
fn nonsense_rate_below_1_bps_is_refused() {
    let toml = with_flow("traffic = \"cbr\"\nrate = \"0.1 b/s\"");
    assert_refused(&toml, "flows[0].rate", &["0.1 b/s", "below 1 b/s"]);
}

#[test]
fn nonsense_sub_nanosecond_duration_is_refused() {
    let toml = with_flow("start = \"0.1 ns\"");
    assert_refused(&toml, "flows[0].start", &["0.1 ns", "1 ns"]);
}

#[test]
fn panic_server_link_rate_0_1_bps_is_refused_and_1_bps_runs() {
    let toml = TCP_CELL.replace("SERVER", "rate = \"0.1 b/s\"");
    assert_refused(&toml, "servers[0].rate", &["0.1 b/s", "below 1 b/s"]);
    // The slowest link allowed: no segment gets through in 3 s, and nothing panics.
    let s = Scenario::from_toml(&TCP_CELL.replace("SERVER", "rate = \"1 b/s\"")).unwrap();
    let r = simulate(&s, None).unwrap();
    assert_eq!(r.flows[0].counts.delivered_packets, 0);
}

#[test]
fn nonsense_server_delay_1e30_s_is_refused_and_the_longest_gives_nothing() {
    let toml = TCP_CELL.replace("SERVER", "delay = \"1e30 s\"");
    assert_refused(&toml, "servers[0].delay", &["1e30 s", "at most 1e9 s"]);
    let s = Scenario::from_toml(&TCP_CELL.replace("SERVER", "delay = \"1e9 s\"")).unwrap();
    let r = simulate(&s, None).unwrap();
    assert_eq!(r.flows[0].counts.delivered_packets, 0);
}

#[test]
fn nonsense_flow_idle_timeout_1e30_s_is_refused() {
    let toml = format!("{CELL}[ap]\nflow_idle_timeout = \"1e30 s\"\n");
    assert_refused(&toml, "ap.flow_idle_timeout", &["at most 1e9 s"]);
}

#[test]
fn nonsense_classifier_sizes_beyond_an_ip_datagram_are_refused() {
    let toml = format!("{CELL}[qos]\nclassifier = [{{ ac = \"vo\", max_size = \"5 GB\" }}]\n");
    assert_refused(&toml, "qos.classifier[0].max_size", &["at most 65535 B"]);
}

#[test]
fn nonsense_nonstandard_aifsn_is_bounded() {
    let toml = CELL.replace(
        "count = 2",
        "count = 2\nqos = true\n[stations.edca.be]\naifsn = 4000000000",
    ) + "[qos]\nnonstandard_edca = true\n";
    assert_refused(&toml, "stations[0].edca.be.aifsn", &["1023"]);
}

#[test]
fn unclear_nan_and_infinity_name_the_value_and_what_is_allowed() {
    let e = json_error(r#"{"duration":"1 s","stations":[{"name":"s","count":NaN}]}"#);
    assert!(
        e.contains("stations[0].count")
            && e.contains("NaN")
            && e.contains("whole number from 1 to 100000"),
        "{e}"
    );
    let e = json_error(r#"{"duration":"1 s","stations":[{"name":"s","fer":-Infinity}]}"#);
    assert!(
        e.contains("-Infinity") && e.contains("finite number"),
        "{e}"
    );
    let e = error_of("duration = \"1 s\"\n[[stations]]\nname = \"s\"\ncount = nan").1;
    assert!(
        e.contains("NaN is not allowed") && !e.contains("u32"),
        "{e}"
    );
}

#[test]
fn unclear_integer_where_a_choice_is_expected_lists_the_choices() {
    let e = json_error(r#"{"duration":"1 s","phy":{"standard":3},"stations":[{"name":"s"}]}"#);
    assert!(
        e.contains("phy.standard") && e.contains("3 is not allowed") && e.contains("\"802.11g\""),
        "{e}"
    );
    let e = error_of("duration = \"1 s\"\n[phy]\nstandard = 3\n[[stations]]\nname = \"s\"").1;
    assert!(e.contains("\"802.11b\"") && !e.contains("wanted"), "{e}");
}

#[test]
fn unclear_expected_u32_u64_become_ranges() {
    let e = json_error(r#"{"duration":"1 s","stations":[{"name":"s","count":5000000000}]}"#);
    assert!(
        e.contains("5000000000") && e.contains("from 1 to 100000") && !e.contains("u32"),
        "{e}"
    );
    let e =
        json_error(r#"{"duration":"1 s","seed":18446744073709551616,"stations":[{"name":"s"}]}"#);
    assert!(
        e.contains("18446744073709551616 is not allowed")
            && e.contains("18446744073709551615")
            && !e.contains("floating point"),
        "{e}"
    );
    let e = json_error(
        r#"{"duration":"1 s","stations":[{"name":"s"}],"flows":[{"name":"f","direction":"uplink","stations":"s","dscp":300}]}"#,
    );
    assert!(e.contains("300") && e.contains("0 to 63"), "{e}");
}

#[test]
fn unclear_flow_names_follow_the_group_name_rules() {
    for bad in ["a b", "a.b", "x=1", "tab\tname", ""] {
        let toml = format!(
            "{CELL}[[flows]]\nname = \"{}\"\ndirection = \"uplink\"\nstations = \"sta\"\n",
            bad.replace('\t', "\\t")
        );
        let (path, message) = error_of(&toml);
        assert_eq!(path, "flows[0].name", "{message}");
        assert!(message.contains("without '.'"), "{message}");
    }
}

#[test]
fn sigint_progress_callback_sees_time_advance_and_can_stop_the_run() {
    let s = Scenario::from_toml(&with_flow("").replace("\"2 s\"", "\"200 s\"")).unwrap();
    let mut seen = Vec::new();
    let r = simulate_with(&s, None, &mut |f| {
        seen.push(f);
        true
    });
    assert!(r.is_ok());
    assert!(seen.len() >= 2, "{}", seen.len());
    assert!(seen.windows(2).all(|w| w[0] <= w[1]) && seen.iter().all(|f| (0.0..1.0).contains(f)));
    let mut calls = 0;
    let stopped = simulate_with(&s, None, &mut |_| {
        calls += 1;
        calls < 2
    });
    assert_eq!(stopped.unwrap_err(), SimError::Interrupted);
    assert_eq!(calls, 2);
}

#[test]
fn a_group_written_as_an_array_gets_an_error_in_words() {
    // Found by the fuzz test: `stations[0]` as a sequence has no schema entry per element;
    // the error names the expected type in words, not serde's `u32`.
    let e = Scenario::from_toml(
        "duration = \"1 s\"\nstations = [[\"sta\", \"x\"]]\n[[flows]]\nname = \"up\"\ndirection = \"uplink\"\nstations = \"sta\"\n",
    )
    .expect_err("invalid")
    .to_string();
    assert!(e.contains("stations[0][1]"), "{e}");
    assert!(!e.contains("expected u32"), "{e}");
    assert!(e.contains("an integer from 0 to 4294967295"), "{e}");
}
