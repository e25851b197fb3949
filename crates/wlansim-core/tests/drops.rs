//! Scripted losses (`[[drops]]`): the listed segments are dropped where and when asked,
//! counted with their own cause, and the packet accounting still holds.
use wlansim_core::{simulate, Results, Scenario};

/// Fall & Floyd's path in wlansim terms: sta-0 → ap (radio) → router (8 Mb/s, 0.1 ms) →
/// sink-0 (0.8 Mb/s, 100 ms, 8 packets), one bulk TCP upload; `extra` adds keys.
fn path(variant: &str, extra: &str) -> Scenario {
    Scenario::from_toml(&format!(
        r#"
duration = "6 s"
[phy]
standard = "802.11g"
[[routers]]
name = "router"
[[links]]
a = "ap"
b = "router"
rate = "8 Mb/s"
delay = "0.1 ms"
[[servers]]
name = "sink"
via = "router"
rate = "0.8 Mb/s"
delay = "100 ms"
queue = 8
[[stations]]
name = "sta"
[tcp]
profile = "ns2-compat"
variant = "{variant}"
[[flows]]
name = "up"
protocol = "tcp"
direction = "uplink"
stations = "sta"
server = "sink"
[output]
packets = true
{extra}
"#
    ))
    .expect("valid scenario")
}

fn drops(segments: &str, transmission: u32, at: &str) -> String {
    format!(
        "[[drops]]\nflow = \"up-0\"\nsegments = {segments}\ntransmission = {transmission}\nat = \"{at}\"\n"
    )
}

fn run(s: &Scenario) -> Results {
    simulate(s, None).expect("run succeeds")
}

/// The data segment numbers (1-based, MSS 1000 B) of the packets dropped by a script.
fn scripted(r: &Results) -> Vec<(u64, String)> {
    r.packets
        .iter()
        .filter(|p| p.dropped == Some("scripted"))
        .map(|p| {
            let n = p.tcp_seq.expect("a TCP packet").saturating_sub(1) / 1000 + 1;
            (n, p.dropped_at.clone().expect("where"))
        })
        .collect()
}

#[test]
fn the_listed_segments_are_dropped_once_at_the_router() {
    let r = run(&path("newreno", &drops("[14, 16, 18]", 1, "router")));
    let got = scripted(&r);
    let want: Vec<(u64, String)> = [14, 16, 18].map(|n| (n, "router".into())).into();
    assert_eq!(got, want);
    let f = &r.flows[0];
    assert_eq!(f.counts.dropped_scripted, 3);
    assert_eq!(f.counts.dropped_queue, 0, "no other loss on this path");
    // Each dropped segment was sent again (and only the retransmissions fill the holes).
    let t = f.tcp.as_ref().expect("TCP columns");
    assert!(t.retransmissions >= 3, "{t:?}");
    // The data got through: delivered payload beyond the dropped segments.
    assert!(f.counts.delivered_bytes > 100_000, "{:?}", f.counts);
}

#[test]
fn a_later_transmission_is_dropped_when_asked() {
    // The first retransmission of segment 14 is lost too: NewReno then needs a timeout.
    let once = run(&path("newreno", &drops("[14]", 1, "router")));
    let both = run(&path(
        "newreno",
        &(drops("[14]", 1, "router") + &drops("[14]", 2, "router")),
    ));
    assert_eq!(scripted(&once).len(), 1);
    assert_eq!(
        scripted(&both),
        vec![(14, "router".to_string()), (14, "router".to_string())]
    );
    let timeouts = |r: &Results| r.flows[0].tcp.as_ref().unwrap().timeouts;
    assert_eq!(timeouts(&once), 0);
    assert!(
        timeouts(&both) >= 1,
        "a lost retransmission is found by the RTO"
    );
}

#[test]
fn drops_on_the_radio_at_the_station() {
    let r = run(&path("reno", &drops("[5]", 1, "sta-0")));
    assert_eq!(scripted(&r), vec![(5, "sta-0".to_string())]);
}

#[test]
fn a_window_drops_every_packet_of_the_flow_in_it_both_directions() {
    let w = "[[drops]]\nflow = \"up\"\nat = \"router\"\nfrom = \"3 s\"\nto = \"3.5 s\"\n";
    let r = run(&path("newreno", w));
    let dropped: Vec<_> = r
        .packets
        .iter()
        .filter(|p| p.dropped == Some("scripted"))
        .collect();
    assert!(!dropped.is_empty(), "{:?}", r.flows[0]);
    assert!(dropped.iter().any(|p| p.direction == "forward"));
    assert!(dropped.iter().any(|p| p.direction == "reverse"), "ACKs too");
    // Every packet that left the router in the window was dropped: none of the
    // delivered ones passed it then (its hop record at the router starts in the window).
    let f = &r.flows[0];
    assert_eq!(f.counts.dropped_scripted, dropped.len() as u64);
    for p in &r.packets {
        if p.dropped.is_none() {
            let at_router = r
                .packet_hops
                .iter()
                .find(|h| {
                    h.flow == p.flow
                        && h.direction == p.direction
                        && h.seq == p.seq
                        && h.node == "router"
                })
                .expect("every packet of the flow passes the router");
            assert!(
                !(3.0..3.5).contains(&at_router.enqueued_s),
                "{at_router:?} left the router in the window"
            );
        }
    }
}

#[test]
fn no_drops_changes_nothing() {
    // An entry that never matches (a segment beyond the transfer) leaves the run as it is.
    let plain = run(&path("sack", ""));
    let never = run(&path("sack", &drops("[1000000]", 1, "router")));
    assert_eq!(plain.flows, never.flows);
    assert_eq!(plain.packets, never.packets);
}

fn error_of(extra: &str) -> String {
    let toml = format!(
        r#"
duration = "1 s"
[[routers]]
name = "router"
[[links]]
a = "ap"
b = "router"
[[servers]]
name = "sink"
via = "router"
[[stations]]
name = "sta"
count = 2
[[flows]]
name = "up"
protocol = "tcp"
direction = "uplink"
stations = "sta"
server = "sink"
[[flows]]
name = "u"
direction = "uplink"
stations = "sta"
traffic = "cbr"
rate = "1 Mb/s"
{extra}
"#
    );
    let e = Scenario::from_toml(&toml)
        .and_then(|s| wlansim_core::world::World::new(&s, 1).map(|_| ()))
        .expect_err("invalid");
    e.to_string()
}

#[test]
fn errors_name_the_key_the_value_and_what_is_allowed() {
    let d = |body: &str| format!("[[drops]]\n{body}\n");
    let cases = [
        (
            d("flow = \"up-2\"\nat = \"router\"\nsegments = [1]"),
            "drops[0].flow",
            "\"up-2\" is not a flow",
        ),
        (
            d("flow = \"up\"\nat = \"nowhere\"\nsegments = [1]"),
            "drops[0].at",
            "\"nowhere\" is not a node",
        ),
        (
            d("flow = \"up\"\nat = \"router\""),
            "drops[0].segments",
            "missing",
        ),
        (
            d("flow = \"up\"\nat = \"router\"\nsegments = [0]"),
            "drops[0].segments[0]",
            "0: segments are numbered from 1",
        ),
        (
            d("flow = \"up\"\nat = \"router\"\nsegments = [3]\ntransmission = 0"),
            "drops[0].transmission",
            "0: transmissions are counted from 1",
        ),
        (
            d("flow = \"up\"\nat = \"router\"\nfrom = \"2 s\""),
            "drops[0].to",
            "needs both",
        ),
        (
            d("flow = \"up\"\nat = \"router\"\nfrom = \"2 s\"\nto = \"1 s\""),
            "drops[0].to",
            "1 s: the window ends after it starts",
        ),
        (
            d("flow = \"up\"\nat = \"router\"\nsegments = [1]\nfrom = \"1 s\"\nto = \"2 s\""),
            "drops[0].segments",
            "either segments or a window",
        ),
        (
            d("flow = \"u-0\"\nat = \"router\"\nsegments = [1]"),
            "drops[0].segments",
            "is UDP",
        ),
        (
            // sta-1's packets never leave sta-0.
            d("flow = \"up-1\"\nat = \"sta-0\"\nsegments = [1]"),
            "drops[0].at",
            "\"sta-0\" sends no packet of flow up-1; the nodes that do: ap, sta-1, router",
        ),
        (
            d("flow = \"up\"\nat = \"router\"\nsegments = [1]\nevery = 2"),
            "drops[0]",
            "every",
        ),
    ];
    for (extra, key, text) in cases {
        let e = error_of(&extra);
        assert!(e.contains(key), "{e}");
        assert!(e.contains(text), "{e}");
    }
    // Segment counters are bounded before anything is allocated: 100 000 numbers for
    // each of 200 flows of one entry.
    let many = format!(
        "[[drops]]\nflow = \"big\"\nat = \"ap\"\nsegments = [{}]\n",
        vec!["1"; 100_000].join(", ")
    );
    let toml = format!(
        "duration = \"1 s\"\n[[servers]]\nname = \"srv\"\n[[stations]]\nname = \"s\"\ncount = 200\n[[flows]]\nname = \"big\"\nprotocol = \"tcp\"\ndirection = \"uplink\"\nstations = \"s\"\nserver = \"srv\"\n{many}"
    );
    let e = Scenario::from_toml(&toml)
        .expect_err("too many counters")
        .to_string();
    assert!(
        e.contains("drops[0].segments") && e.contains("at most 10000000"),
        "{e}"
    );
    // A valid window on a UDP flow, at its source.
    let ok = d("flow = \"u-1\"\nat = \"sta-1\"\nfrom = \"0.1 s\"\nto = \"0.2 s\"");
    assert!(
        std::panic::catch_unwind(|| error_of(&ok)).is_err(),
        "no error"
    );
}
