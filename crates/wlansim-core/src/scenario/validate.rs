//! Checks that need more than one value, or a range: each failure names its key path, the
//! value and what is allowed.
use super::bounds;
use super::checks::{
    contention_window, err, needs_ampdus, reference, short_preamble_rate, standard_rate,
};
use super::{FlowConfig, Protocol, Scenario, ScenarioError, Traffic};
use crate::net::Kind;
use crate::phy::{frame, Preamble, Standard};
use std::collections::HashSet;

/// Largest MSDU (802.11-2012 8.3.2.1): LLC/SNAP + IP + UDP + payload must fit.
const MAX_MSDU: u64 = 2304;

pub fn scenario(s: &Scenario) -> Result<(), ScenarioError> {
    if s.duration.0 == 0 {
        return err("duration", "0 s: the duration must be positive");
    }
    if s.warmup >= s.duration {
        return err(
            "warmup",
            format!(
                "{}: must be shorter than duration ({})",
                s.warmup, s.duration
            ),
        );
    }
    phy(s)?;
    if s.mac.queue == 0 {
        return err("mac.queue", "0: a queue holds at least 1 packet");
    }
    aggregation(s)?;
    amsdu(s)?;
    let mut names = HashSet::new();
    aps(s, &mut names)?;
    stations(s, &mut names)?;
    super::rates::check(s)?;
    servers(s, &mut names)?;
    links(s)?;
    flows(s)?;
    super::qos::validate(s)?;
    super::channel::validate(s)?;
    super::propagation::validate(s)?;
    super::reception::validate(s)?;
    super::mobility::validate(s)?;
    super::radio::validate(s)?;
    super::delay_injection::validate(s)?;
    super::drops::validate(s)?;
    super::emulation::validate(s)?;
    if let super::PacketsOutput::Flows(names) = &s.output.packets {
        let flows: Vec<&str> = s.flows.iter().map(|f| f.name.as_str()).collect();
        for (i, name) in names.iter().enumerate() {
            reference(format!("output.packets[{i}]"), name, "a flow", &flows)?;
        }
    }
    if s.output.series_interval.0 == 0 {
        return err(
            "output.series_interval",
            "0 s: the sampling interval must be positive",
        );
    }
    if !(64..=262_144).contains(&s.output.pcap_snaplen) {
        return err(
            "output.pcap_snaplen",
            format!(
                "{}: a capture keeps 64 to 262144 bytes of each frame",
                s.output.pcap_snaplen
            ),
        );
    }
    if s.output.pcap.as_deref() == Some("") {
        return err("output.pcap", "\"\": name the directory of the captures");
    }
    super::bounds::check(s)
}

/// The access points; also fixes which node names are taken (APs and routers are single
/// nodes, station and server groups name their members `NAME-i`).
fn aps(s: &Scenario, names: &mut HashSet<String>) -> Result<(), ScenarioError> {
    if s.aps.is_empty() {
        return err("aps", "no access point; add an [ap] or [[aps]] table");
    }
    for (i, ap) in s.aps.iter().enumerate() {
        let at = |key: &str| format!("aps[{i}].{key}");
        node_name(at("name"), &ap.name, names)?;
        if ap.queue == 0 {
            return err(at("queue"), "0: the AP buffer B holds at least 1 packet");
        }
        if ap.ack_queue == Some(0) {
            return err(
                at("ack_queue"),
                "0: the ACK queue A holds at least 1 packet (remove it for one shared queue)",
            );
        }
        if ap.flow_idle_timeout.0 == 0 {
            return err(
                at("flow_idle_timeout"),
                "0 s: must be positive (a flow idle this long stops counting)",
            );
        }
    }
    for (i, r) in s.routers.iter().enumerate() {
        node_name(format!("routers[{i}].name"), &r.name, names)?;
    }
    Ok(())
}

/// What a group or flow name may be (it becomes part of `--set` key paths and of node
/// and flow names).
const NAME_RULE: &str = "a name is non-empty, without '.', '=', spaces or control characters";

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && !name
            .chars()
            .any(|c| c == '.' || c == '=' || c.is_whitespace() || c.is_control())
}

/// The AP (or router) a station group or server group attaches to: the given name, or the
/// only AP. Validation has checked the name.
fn attachment<'a>(
    at: String,
    given: Option<&'a str>,
    allowed: &[&'a str],
    s: &'a Scenario,
    what: &str,
) -> Result<&'a str, ScenarioError> {
    match given {
        Some(name) => {
            reference(at, name, what, allowed)?;
            Ok(name)
        }
        None if s.aps.len() == 1 => Ok(&s.aps[0].name),
        None => err(
            at,
            format!(
                "missing: with several APs, name {what}; one of: {}",
                allowed.join(", ")
            ),
        ),
    }
}

/// The wired links: endpoints are APs, routers or servers (`NAME-i`), never the same node
/// twice, and every link carries traffic at a positive rate.
fn links(s: &Scenario) -> Result<(), ScenarioError> {
    // The names a link may join (servers by group: `NAME-i` for i < count).
    let mut wired: Vec<String> = s.aps.iter().map(|a| a.name.clone()).collect();
    wired.extend(s.routers.iter().map(|r| r.name.clone()));
    wired.extend(s.servers.iter().map(|g| match g.count {
        1 => format!("{}-0", g.name),
        n => format!("{}-0 … {}-{}", g.name, g.name, n - 1),
    }));
    let wired: Vec<&str> = wired.iter().map(String::as_str).collect();
    let exists = |name: &str| {
        s.aps.iter().any(|a| a.name == name)
            || s.routers.iter().any(|r| r.name == name)
            || s.servers.iter().any(|g| {
                name.strip_prefix(g.name.as_str())
                    .and_then(|rest| rest.strip_prefix('-'))
                    .and_then(|k| k.parse::<u32>().ok())
                    .is_some_and(|k| k < g.count && name == format!("{}-{k}", g.name))
            })
    };
    let mut pairs = HashSet::new();
    for (i, l) in s.links.iter().enumerate() {
        let at = |key: &str| format!("links[{i}].{key}");
        for (key, end) in [("a", &l.a), ("b", &l.b)] {
            if !exists(end) {
                reference(at(key), end, "an AP, router or server", &wired)?;
            }
        }
        if l.a == l.b {
            return err(
                at("b"),
                format!("\"{}\": a link joins two different nodes", l.b),
            );
        }
        let key = if l.a < l.b {
            (&l.a, &l.b)
        } else {
            (&l.b, &l.a)
        };
        if !pairs.insert(key) {
            return err(
                at("b"),
                format!("a second link between \"{}\" and \"{}\"", l.a, l.b),
            );
        }
        if l.queue == 0 {
            return err(at("queue"), "0: a link queue holds at least 1 packet");
        }
    }
    Ok(())
}

/// A node or node group name: non-empty, no '.', '=' or spaces, unique among APs,
/// routers, station groups and server groups.
fn node_name(at: String, name: &str, names: &mut HashSet<String>) -> Result<(), ScenarioError> {
    if !valid_name(name) {
        return err(at, format!("\"{name}\": {NAME_RULE}"));
    }
    if !names.insert(name.to_string()) {
        return err(
            at,
            format!("\"{name}\" is used twice; node and node group names are unique"),
        );
    }
    Ok(())
}

fn servers(s: &Scenario, names: &mut HashSet<String>) -> Result<(), ScenarioError> {
    let mut hubs: Vec<&str> = s.aps.iter().map(|a| a.name.as_str()).collect();
    hubs.extend(s.routers.iter().map(|r| r.name.as_str()));
    for (i, g) in s.servers.iter().enumerate() {
        let at = |key: &str| format!("servers[{i}].{key}");
        node_name(at("name"), &g.name, names)?;
        attachment(at("via"), g.via.as_deref(), &hubs, s, "an AP or router")?;
        if g.count == 0 {
            return err(at("count"), "0: a group has at least 1 server");
        }
        if g.queue == 0 {
            return err(at("queue"), "0: a link queue holds at least 1 packet");
        }
    }
    Ok(())
}

/// The HT/VHT keys (`band`, `mcs`, `streams`, `channel_width`, `guard_interval`) and the
/// keys 802.11n/ac do not have.
fn ht(s: &Scenario) -> Result<(), ScenarioError> {
    let c = &s.phy;
    let standard = c.standard;
    if let Some(band) = c.band {
        if !standard.bands().contains(&band) {
            return err(
                "phy.band",
                format!(
                    "\"{}\": {} works in {} only (802.11n: \"2.4 GHz\" or \"5 GHz\")",
                    band.name(),
                    standard.name(),
                    standard.bands()[0].name()
                ),
            );
        }
    }
    let Some(mode) = s.ht_mode() else {
        let given = [
            ("mcs", c.mcs.is_some()),
            ("streams", c.streams.is_some()),
            ("channel_width", c.channel_width.is_some()),
            ("guard_interval", c.guard_interval.is_some()),
        ];
        if let Some((key, _)) = given.iter().find(|(_, g)| *g) {
            return err(
                format!("phy.{key}"),
                format!(
                    "{} has no HT/VHT data frames: {key} is a key of 802.11n and 802.11ac (data_rate sets the rate of {})",
                    standard.name(),
                    standard.name()
                ),
            );
        }
        return Ok(());
    };
    if let Err((key, message)) = mode.check() {
        return err(format!("phy.{key}"), message);
    }
    if let Some(r) = c.data_rate {
        return err(
            "phy.data_rate",
            format!(
                "{r}: {} data frames go at an MCS: set phy.mcs (with streams, channel_width, guard_interval)",
                standard.name()
            ),
        );
    }
    if c.nonstandard_rate {
        return err(
            "phy.nonstandard_rate",
            format!(
                "true: {} data frames go at an MCS; nonstandard rates are for 802.11a/b/g",
                standard.name()
            ),
        );
    }
    if s.mac_rules() == crate::mac::MacRules::Ns2 {
        let key = if s.mac.profile.is_some() {
            "mac.profile"
        } else {
            "profile"
        };
        return err(
            key,
            format!(
                "\"ns2\" with {}: ns-2.35 has no HT/VHT PHY; use the standard MAC rules",
                standard.name()
            ),
        );
    }
    Ok(())
}

/// `mac.ampdu_max_bytes` and `mac.ba_window`: A-MPDU on HT/VHT PHYs, within the PHY's
/// limit (802.11-2020 Table 9-163 / 9-272: 65535 B HT, 1048575 B VHT).
fn aggregation(s: &Scenario) -> Result<(), ScenarioError> {
    let (bytes, window) = (s.mac.ampdu_max_bytes, s.mac.ba_window);
    if !(1..=64).contains(&window) {
        return err(
            "mac.ba_window",
            format!("{window}: a compressed BlockAck's bitmap holds 1 to 64 MPDUs"),
        );
    }
    if bytes == 0 {
        if window != super::DEFAULT_BA_WINDOW {
            return err(
                "mac.ba_window",
                format!("{window}: a Block Ack window needs A-MPDUs: set mac.ampdu_max_bytes"),
            );
        }
        if let Some(ack) = s.mac.single_mpdu_ack {
            return needs_ampdus(
                "mac.single_mpdu_ack",
                serde_json::to_value(ack).expect("an enum"),
                "the acknowledgment of a lone MPDU under a Block Ack agreement",
                "unset, or with mac.ampdu_max_bytes > 0 \"block_ack\", \"normal_ack\"",
            );
        }
        if let Some(limit) = s.mac.single_mpdu_retry_limit {
            return needs_ampdus(
                "mac.single_mpdu_retry_limit",
                serde_json::to_value(limit).expect("a limit"),
                "the retry limit of an MPDU sent alone with a Normal Ack",
                "unset, or with mac.ampdu_max_bytes > 0 a number of missed responses in a row ≥ 1, or \"unlimited\"",
            );
        }
        return Ok(());
    }
    let standard = s.phy.standard;
    let Some(format) = standard.ht_format() else {
        return err(
            "mac.ampdu_max_bytes",
            format!(
                "{bytes}: {} has no A-MPDU; aggregation needs phy.standard \"802.11n\" or \"802.11ac\"",
                standard.name()
            ),
        );
    };
    let limit = crate::mac::aggregate::max_ampdu_bytes(format);
    if bytes > limit {
        return err(
            "mac.ampdu_max_bytes",
            format!(
                "{bytes}: an {} A-MPDU holds at most {limit} bytes",
                standard.name()
            ),
        );
    }
    Ok(())
}

/// `mac.amsdu_max_bytes`: A-MSDU on HT/VHT PHYs, within the PHY's limit (HT 7935 bytes,
/// 4065 inside an A-MPDU; VHT 11454), on the shared medium, without captures.
fn amsdu(s: &Scenario) -> Result<(), ScenarioError> {
    use crate::mac::aggregate::{max_amsdu_bytes, HT_AMSDU_IN_AMPDU_BYTES};
    use crate::phy::ht::Format;
    let bytes = s.mac.amsdu_max_bytes;
    if bytes == 0 {
        return Ok(());
    }
    let key = "mac.amsdu_max_bytes";
    let standard = s.phy.standard;
    let Some(format) = standard.ht_format() else {
        return err(
            key,
            format!(
                "{bytes}: {} has no A-MSDU here; A-MSDUs need phy.standard \"802.11n\" or \"802.11ac\"",
                standard.name()
            ),
        );
    };
    let limit = max_amsdu_bytes(format);
    if bytes > limit {
        return err(
            key,
            format!(
                "{bytes}: an {} A-MSDU holds at most {limit} bytes",
                standard.name()
            ),
        );
    }
    if format == Format::Ht && s.mac.ampdu_max_bytes > 0 && bytes > HT_AMSDU_IN_AMPDU_BYTES {
        return err(
            key,
            format!(
                "{bytes}: inside an 802.11n A-MPDU (mac.ampdu_max_bytes = {}) an MPDU is at most 4095 bytes (the delimiter's length field), so an A-MSDU at most {HT_AMSDU_IN_AMPDU_BYTES}",
                s.mac.ampdu_max_bytes
            ),
        );
    }
    if s.output.pcap.is_some() {
        return err(
            "output.pcap",
            format!(
                "a capture with mac.amsdu_max_bytes = {bytes}: captures of A-MSDUs are not written; set mac.amsdu_max_bytes = 0 or drop output.pcap"
            ),
        );
    }
    Ok(())
}

fn phy(s: &Scenario) -> Result<(), ScenarioError> {
    ht(s)?;
    let standard = s.phy.standard;
    let resolved = s.phy();
    for (key, rate) in [
        ("data_rate", s.phy.data_rate),
        ("control_rate", s.phy.control_rate),
    ] {
        if let Some(rate) = rate {
            standard_rate(&s.phy, &format!("phy.{key}"), rate)?;
        }
    }
    if standard == Standard::Ieee80211b && s.phy.preamble == Preamble::Short {
        for (key, rate) in [
            ("data_rate", resolved.data_rate),
            ("control_rate", resolved.control_rate),
        ] {
            short_preamble_rate(&format!("phy.{key}"), rate)?;
        }
    }
    for (key, given) in [
        ("slot", s.phy.slot),
        ("sifs", s.phy.sifs),
        ("difs", s.phy.difs),
        ("plcp", s.phy.plcp),
    ] {
        if let Some(d) = given.filter(|d| d.0 > bounds::MAX_PHY_TIME) {
            return err(
                format!("phy.{key}"),
                format!(
                    "{d}: a PHY timing value is at most 1 ms (every 802.11 PHY's is below 200 us)"
                ),
            );
        }
    }
    if resolved.slot == 0 {
        return err("phy.slot", "0 s: the slot time must be positive");
    }
    // 802.11-2012 9.3.2.8: ACKTimeout = SIFS + slot + PHY-RX-START delay, so the ACK's
    // round trip (twice the propagation delay) fits in a slot (aSlotTime includes
    // aAirPropagationTime, 9.3.7); beyond it every exchange would time out.
    if 2 * resolved.propagation_delay > resolved.slot {
        let key = if s.phy.propagation_delay.is_some() || s.phy.slot.is_none() {
            "phy.propagation_delay"
        } else {
            "phy.slot"
        };
        return err(
            key,
            format!(
                "propagation delay {} with a slot of {}: the round trip (twice the delay) must fit in a slot, or the ACK would come after the ACK timeout (SIFS + slot + PLCP, 802.11-2012 9.3.2.8); at most half the slot",
                super::units::Duration(resolved.propagation_delay),
                super::units::Duration(resolved.slot)
            ),
        );
    }
    if resolved.sifs == 0 {
        return err("phy.sifs", "0 s: SIFS must be positive");
    }
    if resolved.difs <= resolved.sifs {
        return err("phy.difs", "DIFS must be longer than SIFS");
    }
    for (key, cw) in [("cw_min", resolved.cw_min), ("cw_max", resolved.cw_max)] {
        contention_window(format!("phy.{key}"), cw)?;
    }
    if resolved.cw_min > resolved.cw_max {
        return err(
            "phy.cw_min",
            format!(
                "{} is larger than cw_max ({}); CWmin ≤ CWmax",
                resolved.cw_min, resolved.cw_max
            ),
        );
    }
    Ok(())
}

fn stations(s: &Scenario, names: &mut HashSet<String>) -> Result<(), ScenarioError> {
    if s.stations.is_empty() {
        return err(
            "stations",
            "no station group; add at least one [[stations]] table with a name and a count",
        );
    }
    let aps: Vec<&str> = s.aps.iter().map(|a| a.name.as_str()).collect();
    for (i, g) in s.stations.iter().enumerate() {
        let at = |key: &str| format!("stations[{i}].{key}");
        node_name(at("name"), &g.name, names)?;
        attachment(at("ap"), g.ap.as_deref(), &aps, s, "an AP")?;
        if g.count == 0 {
            return err(at("count"), "0: a group has at least 1 station");
        }
        if g.queue == Some(0) {
            return err(at("queue"), "0: a queue holds at least 1 packet");
        }
    }
    Ok(())
}

fn flows(s: &Scenario) -> Result<(), ScenarioError> {
    let mut names = HashSet::new();
    for (i, f) in s.flows.iter().enumerate() {
        let at = |key: &str| format!("flows[{i}].{key}");
        if !valid_name(&f.name) {
            return err(at("name"), format!("\"{}\": {NAME_RULE}", f.name));
        }
        if !names.insert(f.name.as_str()) {
            return err(
                at("name"),
                format!("\"{}\" is used twice; flow names are unique", f.name),
            );
        }
        if !s.stations.iter().any(|g| g.name == f.stations) {
            let groups: Vec<&str> = s.stations.iter().map(|g| g.name.as_str()).collect();
            return err(
                at("stations"),
                format!(
                    "\"{}\" is not a station group; defined groups: {}",
                    f.stations,
                    groups.join(", ")
                ),
            );
        }
        if f.start >= s.duration {
            return err(
                at("start"),
                format!(
                    "{}: must be before the end of the run ({})",
                    f.start, s.duration
                ),
            );
        }
        peer(s, f, &at)?;
        match f.protocol {
            Protocol::Udp => udp_flow(s, f, &at)?,
            Protocol::Tcp => tcp_flow(s, i, f, &at)?,
        }
    }
    if let Some(t) = &s.tcp {
        // Scenario-wide defaults must be valid on their own, even without TCP flows.
        let cfg = super::TcpSettings::config(Some(t), None, super::TcpProfile::Standard);
        tcp_config(
            &cfg,
            "tcp",
            s.routing_agent().origin_header_bytes(Kind::Tcp),
        )?;
        thresholds_need_dynamic(&cfg, &[(Some(t), "tcp".into())])?;
    }
    Ok(())
}

/// A flow's peer: a server group or a station group (not both); a TCP flow needs one.
fn peer(s: &Scenario, f: &FlowConfig, at: &dyn Fn(&str) -> String) -> Result<(), ScenarioError> {
    if let Some(server) = &f.server {
        let groups: Vec<&str> = s.servers.iter().map(|g| g.name.as_str()).collect();
        if !groups.contains(&server.as_str()) {
            return err(
                at("server"),
                format!(
                    "\"{server}\" is not a server group; defined groups: {}",
                    if groups.is_empty() {
                        "none (add a [[servers]] table)".to_string()
                    } else {
                        groups.join(", ")
                    }
                ),
            );
        }
        if f.peer.is_some() {
            return err(
                at("peer"),
                "a flow has one peer: a server group or a station group, not both",
            );
        }
    }
    if let Some(peer) = &f.peer {
        let groups: Vec<&str> = s.stations.iter().map(|g| g.name.as_str()).collect();
        reference(at("peer"), peer, "a station group", &groups)?;
    }
    if f.protocol == Protocol::Tcp && f.server.is_none() && f.peer.is_none() {
        return err(
            at("server"),
            "missing: a tcp flow names the [[servers]] group (or the station group `peer`) at its other end",
        );
    }
    Ok(())
}

fn udp_flow(
    s: &Scenario,
    f: &FlowConfig,
    at: &dyn Fn(&str) -> String,
) -> Result<(), ScenarioError> {
    for (key, set) in [
        ("bytes", f.bytes.is_some()),
        ("files", f.files.is_some()),
        ("tcp", f.tcp.is_some()),
    ] {
        if set {
            return err(at(key), "only for protocol = \"tcp\" flows");
        }
    }
    match (f.traffic, f.rate) {
        (Traffic::Cbr | Traffic::Poisson, None) => {
            return err(
                at("rate"),
                "missing: cbr and poisson traffic need a rate, e.g. \"1 Mb/s\"",
            )
        }
        (Traffic::Saturated, Some(r)) => {
            return err(
                at("rate"),
                format!("{r}: saturated traffic has no rate; remove it or use traffic = \"cbr\""),
            )
        }
        (Traffic::Game | Traffic::Trace, Some(r)) => {
            return err(
                at("rate"),
                format!(
                    "{r}: {} traffic sets its own pace (its messages' sizes and times); remove it",
                    if f.traffic == Traffic::Game {
                        "game"
                    } else {
                        "trace"
                    }
                ),
            )
        }
        _ => {}
    }
    match (f.traffic, &f.game, &f.trace) {
        (Traffic::Game, _, Some(_)) | (Traffic::Trace, Some(_), _) => {
            return err(
                at(if f.traffic == Traffic::Game {
                    "trace"
                } else {
                    "game"
                }),
                "a flow plays a game or a trace, not both",
            )
        }
        (Traffic::Trace, _, None) => {
            return err(
                at("trace"),
                "missing: traffic = \"trace\" needs `trace = { file = \"...\" }`",
            )
        }
        (_, Some(_), _) if f.traffic != Traffic::Game => {
            return err(at("game"), "only with traffic = \"game\"")
        }
        (_, _, Some(_)) if f.traffic != Traffic::Trace => {
            return err(at("trace"), "only with traffic = \"trace\"")
        }
        _ => {}
    }
    let agent = s.routing_agent().origin_header_bytes(Kind::Udp);
    let max_payload =
        MAX_MSDU - (frame::LLC_SNAP + frame::IP_HEADER + frame::UDP_HEADER + agent) as u64;
    let size = f.udp_payload();
    if size.0 == 0 || size.0 > max_payload {
        return err(
            at("packet_size"),
            format!(
                "{size}: a UDP payload is 1 to {max_payload} B (an MSDU is at most {MAX_MSDU} B)"
            ),
        );
    }
    // The sources that set their own pace: their mean offered load.
    match (f.traffic, &f.game, &f.trace) {
        (Traffic::Game, Some(g), _) => {
            let (bytes, gap) = g.source(f.direction, &at("game"))?.means();
            let (packets, ip_bytes) = bounds::message_load(bytes, size.0);
            let given = format!("messages of {bytes:.0} B every {} s", gap / 1e9);
            bounds::offered_load(&at("game"), &given, packets, ip_bytes, gap / 1e9)?;
        }
        (Traffic::Trace, _, Some(t)) => {
            let frames = t.frames(&at("trace"))?;
            let span: u64 = frames.iter().map(|x| x.gap).sum();
            let bytes = frames.iter().map(|x| x.bytes as f64).sum::<f64>() / frames.len() as f64;
            let packets = frames
                .iter()
                .map(|x| (x.bytes as u64).div_ceil(size.0) as f64)
                .sum::<f64>()
                / frames.len() as f64;
            let header = (frame::IP_HEADER + frame::UDP_HEADER) as f64;
            let gap = span as f64 / 1e9 / frames.len() as f64;
            let given = format!("{} frames of {bytes:.0} B every {gap} s", frames.len());
            bounds::offered_load(
                &at("trace.file"),
                &given,
                packets,
                bytes + header * packets,
                gap,
            )?;
        }
        _ => {}
    }
    if let Some(stop) = f.stop {
        if stop <= f.start {
            return err(
                at("stop"),
                format!("{stop}: must be after start ({})", f.start),
            );
        }
    }
    Ok(())
}

fn tcp_flow(
    s: &Scenario,
    i: usize,
    f: &FlowConfig,
    at: &dyn Fn(&str) -> String,
) -> Result<(), ScenarioError> {
    for (key, set, hint) in [
        (
            "rate",
            f.rate.is_some(),
            "TCP sends as fast as its windows allow",
        ),
        (
            "packet_size",
            f.packet_size.is_some(),
            "set tcp.mss instead",
        ),
        ("stop", f.stop.is_some(), "set bytes for a finite transfer"),
        (
            "traffic",
            f.traffic != Traffic::Saturated,
            "TCP flows are bulk transfers",
        ),
    ] {
        if set {
            return err(at(key), format!("not used by tcp flows: {hint}"));
        }
    }
    if let Some(files) = &f.files {
        if f.bytes.is_some() {
            return err(
                at("files"),
                "a flow sends `bytes` once or `files` one after another, not both",
            );
        }
        files.sequence(&at("files"))?;
    }
    if f.bytes == Some(super::Bytes(0)) {
        return err(
            at("bytes"),
            "0 B: a transfer has at least 1 byte (remove it for a persistent flow)",
        );
    }
    let cfg = s.tcp_config(i);
    tcp_config(
        &cfg,
        &at("tcp"),
        s.routing_agent().origin_header_bytes(Kind::Tcp),
    )?;
    thresholds_need_dynamic(
        &cfg,
        &[(f.tcp.as_ref(), at("tcp")), (s.tcp.as_ref(), "tcp".into())],
    )
}

/// Dynamic delayed-ACK thresholds given where the dynamic scheme is off would be ignored
/// silently: refused instead, at the table that gives them.
fn thresholds_need_dynamic(
    cfg: &crate::tcp::TcpConfig,
    tables: &[(Option<&super::TcpSettings>, String)],
) -> Result<(), ScenarioError> {
    if matches!(
        cfg.delayed_ack_policy,
        crate::tcp::DelayedAckPolicy::Dynamic { .. }
    ) {
        return Ok(());
    }
    for (t, path) in tables {
        if let Some(th) = t.and_then(|t| t.dynamic_delayed_ack_thresholds) {
            return err(
                format!("{path}.dynamic_delayed_ack_thresholds"),
                format!(
                    "{th:?}: used only by the dynamic delayed ACK, which is off here; add dynamic_delayed_ack = true or remove the thresholds"
                ),
            );
        }
    }
    Ok(())
}

/// [`TcpConfig::validate`](crate::tcp::TcpConfig::validate) plus the frame-size limit.
/// `agent`: the bytes the scenario's routing agent adds to a TCP packet a wireless node
/// originates.
fn tcp_config(cfg: &crate::tcp::TcpConfig, path: &str, agent: u32) -> Result<(), ScenarioError> {
    cfg.validate()
        .or_else(|m| err(path, m.trim_start_matches("tcp.").to_string()))?;
    let max_mss = MAX_MSDU - (frame::LLC_SNAP + crate::tcp::header_bytes(cfg) + agent) as u64;
    if cfg.mss as u64 > max_mss {
        return err(
            format!("{path}.mss"),
            format!(
                "{} B: a segment of IP/TCP headers + mss must fit an MSDU ({MAX_MSDU} B): at most {max_mss} B",
                cfg.mss
            ),
        );
    }
    Ok(())
}
