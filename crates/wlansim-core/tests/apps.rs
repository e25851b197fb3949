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
