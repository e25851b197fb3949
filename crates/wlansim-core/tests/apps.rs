//! The application layer: a TCP application that sends files one after another, on one
//! connection or on fresh connections, through the socket-like interface of the sender.
mod common;

use common::*;
use wlansim_core::sim::time::{to_secs, MS};
use wlansim_core::Scenario;

const SIZES: [u64; 5] = [1_000, 30_000, 1, 200_000, 4_500];

fn files(new_connection: bool, fer: f64) -> Scenario {
    let sizes: Vec<String> = SIZES.iter().map(|s| s.to_string()).collect();
    Scenario::from_toml(&format!(
        r#"
duration = "60 s"
[[stations]]
name = "sta"
count = 2
fer = {fer}
[[servers]]
name = "web"
delay = "20 ms"
[[flows]]
name = "get"
protocol = "tcp"
direction = "downlink"
stations = "sta"
server = "web"
files = {{ sizes = [{}], gap = "0.5 s", new_connection = {new_connection} }}
[[flows]]
name = "bulk"
protocol = "tcp"
direction = "uplink"
stations = "sta"
server = "web"
"#,
        sizes.join(", ")
    ))
    .unwrap()
}

#[test]
fn each_file_completes_once_with_its_bytes() {
    for new_connection in [false, true] {
        for fer in [0.0, 0.1] {
            let r = run(&files(new_connection, fer), 3);
            for sta in 0..2 {
                let name = format!("get-{sta}");
                let s: Vec<_> = r.sessions.iter().filter(|s| s.flow == name).collect();
                let sizes: Vec<u64> = s.iter().map(|s| s.bytes).collect();
                assert_eq!(sizes, SIZES, "{name}, new connections: {new_connection}");
                assert_eq!(
                    s.iter().map(|s| s.file).collect::<Vec<_>>(),
                    [0, 1, 2, 3, 4]
                );
                for (i, x) in s.iter().enumerate() {
                    assert!(x.end_s > x.start_s);
                    assert_eq!(x.new_connection, new_connection || i == 0);
                    if i > 0 {
                        // The next file is requested 0.5 s after the last one completed.
                        let gap = x.start_s - s[i - 1].end_s;
                        assert!((gap - 0.5).abs() < 1e-9, "{gap}");
                    }
                }
                // A fresh connection costs its handshake: at least one more round trip
                // (2 × 20 ms on the wire) than the same file on an open connection.
                let f = r.flows.iter().find(|f| f.name == name).unwrap();
                let tcp = f.tcp.as_ref().unwrap();
                let delivered = tcp.goodput_bps * r.meta.measured_s / 8.0;
                assert!((delivered - SIZES.iter().sum::<u64>() as f64).abs() < 1e-3);
                assert!(r.unfinished_sessions.contains(&(name, 0)));
            }
        }
    }
    let one_byte = |fresh| {
        let r = run(&files(fresh, 0.0), 3);
        r.sessions.iter().find(|s| s.file == 2).unwrap().delay_s
    };
    assert!(one_byte(true) > one_byte(false) + to_secs(40 * MS));
}

#[test]
fn file_errors_name_the_key() {
    let bad = |files: &str| {
        let s = files_toml(files);
        Scenario::from_toml(&s).unwrap_err().to_string()
    };
    assert!(bad("{ sizes = [] }").contains("flows[0].files.sizes"));
    assert!(bad("{ sizes = [10, 0] }").contains("flows[0].files.sizes[1]"));
    assert!(bad("{ sizes = [10], speed = 1 }").contains("speed"));
}

fn files_toml(files: &str) -> String {
    format!(
        "duration = \"1 s\"\n[[stations]]\nname = \"s\"\n[[servers]]\nname = \"w\"\n[[flows]]\nname = \"f\"\nprotocol = \"tcp\"\ndirection = \"downlink\"\nstations = \"s\"\nserver = \"w\"\nfiles = {files}\n"
    )
}

/// One station downloading files drawn per `files` (an inline table).
fn on_off(files: &str, duration: &str) -> Scenario {
    let s = files_toml(files).replace("duration = \"1 s\"", &format!("duration = \"{duration}\""));
    Scenario::from_toml(&s).unwrap()
}

#[test]
fn fixed_sizes_and_think_times_give_exact_sessions() {
    let r = run(
        &on_off(
            r#"{ size = { distribution = "fixed", value = "3 kB" }, count = 7, think = { distribution = "fixed", value = "0.25 s" }, new_connection = true }"#,
            "30 s",
        ),
        1,
    );
    assert_eq!(r.sessions.len(), 7);
    assert!(r
        .sessions
        .iter()
        .all(|s| s.bytes == 3000 && s.new_connection));
    assert!(r
        .sessions
        .iter()
        .all(|s| s.station == "s-0" && s.setup_s > 0.0));
    assert!(r.sessions.iter().all(|s| s.setup_s < s.delay_s));
    for w in r.sessions.windows(2) {
        assert!((w[1].start_s - w[0].end_s - 0.25).abs() < 1e-9);
    }
    assert_eq!(r.unfinished_sessions, vec![("f-0".to_string(), 0)]);
}

#[test]
fn exponential_think_times_have_their_mean() {
    // 2,000 one-segment files on a persistent connection (each about 0.2 s: the
    // delayed-ACK timer), think times of mean 100 ms.
    let r = run(
        &on_off(
            r#"{ size = { distribution = "fixed", value = 100 }, count = 2000, think = { distribution = "exponential", mean = "100 ms" } }"#,
            "1000 s",
        ),
        5,
    );
    assert_eq!(r.sessions.len(), 2000);
    let thinks: Vec<f64> = r
        .sessions
        .windows(2)
        .map(|w| w[1].start_s - w[0].end_s)
        .collect();
    let mean = thinks.iter().sum::<f64>() / thinks.len() as f64;
    assert!((mean - 0.1).abs() / 0.1 < 0.03, "mean think time {mean}");
}

#[test]
fn pareto_sizes_are_drawn_per_station_and_runs_are_deterministic() {
    let s = on_off(
        r#"{ size = { distribution = "pareto", shape = 1.5, mean = "30 kB" }, count = 50, pad_last_segment = true, new_connection = true }"#,
        "100 s",
    );
    let (a, b) = (run(&s, 9), run(&s, 9));
    assert_eq!(a.sessions, b.sessions);
    assert_eq!(a.sessions.len(), 50);
    assert!(a.sessions.iter().all(|x| x.bytes >= 10_000));
    let distinct: std::collections::HashSet<u64> = a.sessions.iter().map(|x| x.bytes).collect();
    assert!(distinct.len() > 40);
}

#[test]
fn distribution_errors_name_the_key() {
    let bad = |files: &str| {
        let s = files_toml(files);
        Scenario::from_toml(&s).unwrap_err().to_string()
    };
    let e = bad(r#"{ size = { distribution = "pareto", shape = 1.0, mean = "30 kB" } }"#);
    assert!(
        e.contains("flows[0].files.size.shape") && e.contains("scale"),
        "{e}"
    );
    let e = bad(r#"{ size = { distribution = "exponential", mean = -5 } }"#);
    assert!(e.contains("flows[0].files.size"), "{e}");
    let e = bad(r#"{ size = { distribution = "pareto", shape = 1.5 } }"#);
    assert!(e.contains("flows[0].files.size.mean"), "{e}");
    let e = bad(r#"{ size = { distribution = "zipf", mean = 5 } }"#);
    assert!(
        e.contains("flows[0].files.size") && e.contains("zipf"),
        "{e}"
    );
    let e = bad(r#"{ sizes = [1], size = { distribution = "fixed", value = 5 } }"#);
    assert!(e.contains("flows[0].files.size"), "{e}");
    let e = bad(
        r#"{ size = { distribution = "fixed", value = 5 }, gap = "1 s", think = { distribution = "fixed", value = "1 s" } }"#,
    );
    assert!(e.contains("flows[0].files.think"), "{e}");
    let dir = std::env::temp_dir();
    let empty = dir.join("wlansim-empty-sizes.csv");
    std::fs::write(&empty, "bytes\n").unwrap();
    let e = bad(&format!(
        r#"{{ size = {{ distribution = "empirical", csv = "{}" }} }}"#,
        empty.display()
    ));
    assert!(
        e.contains("flows[0].files.size.csv") && e.contains("no values"),
        "{e}"
    );
    let malformed = dir.join("wlansim-malformed-sizes.csv");
    std::fs::write(&malformed, "10\n2x0\n").unwrap();
    let e = bad(&format!(
        r#"{{ size = {{ distribution = "empirical", csv = "{}" }} }}"#,
        malformed.display()
    ));
    assert!(
        e.contains("flows[0].files.size.csv") && e.contains("line 2"),
        "{e}"
    );
    let e = bad(
        r#"{ size = { distribution = "fixed", value = 5 }, think = { distribution = "empirical", csv = "/nonexistent/think.csv" } }"#,
    );
    assert!(e.contains("flows[0].files.think.csv"), "{e}");
}

#[test]
fn think_first_delays_the_first_request() {
    let r = run(
        &on_off(
            r#"{ size = { distribution = "fixed", value = 100 }, count = 2, think = { distribution = "fixed", value = "0.5 s" }, think_first = true }"#,
            "10 s",
        ),
        1,
    );
    assert!((r.sessions[0].start_s - 0.5).abs() < 1e-9);
    assert_eq!(r.sessions.len(), 2);
}

#[test]
fn dynamic_delayed_ack_thresholds_without_the_dynamic_scheme_are_refused() {
    let base = files_toml(r#"{ size = { distribution = "fixed", value = "3 kB" } }"#);
    let global = format!("{base}[tcp]\ndynamic_delayed_ack_thresholds = [3, 6, 12]\n");
    let e = Scenario::from_toml(&global).unwrap_err().to_string();
    assert!(
        e.contains("tcp.dynamic_delayed_ack_thresholds")
            && e.contains("dynamic_delayed_ack = true"),
        "{e}"
    );
    let per_flow = format!("{base}tcp = {{ dynamic_delayed_ack_thresholds = [3, 6, 12] }}\n");
    let e = Scenario::from_toml(&per_flow).unwrap_err().to_string();
    assert!(
        e.contains("flows[0].tcp.dynamic_delayed_ack_thresholds"),
        "{e}"
    );
    // With the scheme on (here in [tcp], thresholds in the flow) they are accepted.
    let on = format!(
        "{base}tcp = {{ dynamic_delayed_ack_thresholds = [3, 6, 12] }}\n[tcp]\ndynamic_delayed_ack = true\n"
    );
    assert!(Scenario::from_toml(&on).is_ok());
}
