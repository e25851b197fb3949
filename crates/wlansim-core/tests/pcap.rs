//! The trace hook's second consumer: pcap captures (`[output] pcap`). The captures are
//! read back with `pcap-file` and compared with the run's own MAC counters (the
//! `tshark` checks are in the Python tests).
mod common;

use common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use wlansim_core::{simulate, Scenario};

fn scenario(dir: &Path, extra: &str) -> Scenario {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/capture-mixed.toml"),
    )
    .unwrap();
    let text = format!("{text}\n[output]\npcap = {:?}\n{extra}\n", dir.display());
    Scenario::from_toml(&text).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wlansim-pcap-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

const RADIOTAP: u32 = 127;
const ETHERNET: u32 = 1;

struct Frame {
    ns: u64,
    orig_len: u32,
    data: Vec<u8>,
}

/// A little-endian, nanosecond pcap file read by hand (pcap-file's reader refuses
/// frames longer than the snaplen, which the format allows): link type, frames.
fn read_pcap(path: &Path) -> (u32, Vec<Frame>) {
    let b = std::fs::read(path).unwrap();
    let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
    assert_eq!(u32_at(0), 0xa1b2_3c4d, "nanosecond magic");
    let (snaplen, link) = (u32_at(16), u32_at(20));
    let mut frames = Vec::new();
    let mut i = 24;
    while i < b.len() {
        let ns = u32_at(i) as u64 * 1_000_000_000 + u32_at(i + 4) as u64;
        let (incl, orig_len) = (u32_at(i + 8) as usize, u32_at(i + 12));
        assert!(incl as u32 <= snaplen && incl as u32 <= orig_len);
        frames.push(Frame {
            ns,
            orig_len,
            data: b[i + 16..i + 16 + incl].to_vec(),
        });
        i += 16 + incl;
    }
    (link, frames)
}

/// Per capture: (link type, frames but ACKs, their 802.11 retry bits, their radiotap
/// bad-FCS flags, ACKs).
fn read(dir: &Path) -> BTreeMap<String, (u32, u64, u64, u64, u64)> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let (link, frames) = read_pcap(&path);
        let (mut n, mut retry, mut bad, mut acks) = (0, 0, 0, 0);
        let mut last = 0;
        for p in frames {
            assert!(p.ns >= last, "{}: time goes back", path.display());
            last = p.ns;
            if link == RADIOTAP {
                let rt = p.data[2] as usize;
                if p.data[rt] == 0xd4 {
                    acks += 1; // an ACK (control, subtype 13)
                    continue;
                }
                bad += (p.data[8] & 0x40 != 0) as u64;
                retry += (p.data[rt + 1] & 0x08 != 0) as u64;
            }
            n += 1;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        out.insert(name, (link, n, retry, bad, acks));
    }
    out
}

#[test]
fn one_capture_per_node_holds_its_attempts_retries_and_failures() {
    let dir = temp_dir("node");
    let r = simulate(&scenario(&dir, ""), None).unwrap();
    let caps = read(&dir);
    for n in &r.nodes {
        let name = format!("{}.pcap", n.name);
        let (link, frames, retry, bad, _) = *caps
            .get(&name)
            .unwrap_or_else(|| panic!("{name} in {caps:?}"));
        assert_eq!(link, RADIOTAP);
        assert_eq!(frames, n.mac.attempts, "{}", n.name);
        assert_eq!(retry, n.mac.retries, "{}", n.name);
        assert_eq!(bad, n.mac.frame_errors + n.mac.collisions, "{}", n.name);
    }
    assert!(r.nodes.iter().any(|n| n.mac.frame_errors > 0));
    assert!(r.nodes.iter().any(|n| n.mac.retries > 0));
    // every success was answered by an ACK, in its receiver's capture
    let acks: u64 = caps.values().map(|c| c.4).sum();
    assert_eq!(acks, r.nodes.iter().map(|n| n.mac.successes).sum::<u64>());
    for link in [
        "link-ap1-router.pcap",
        "link-ap2-router.pcap",
        "link-router-srv-0.pcap",
    ] {
        let (dl, frames, _, _, _) = *caps
            .get(link)
            .unwrap_or_else(|| panic!("{link} in {caps:?}"));
        assert_eq!(dl, ETHERNET);
        assert!(frames > 0, "{link}");
    }
    assert_eq!(caps.len(), r.nodes.len() + 3);
    // the addresses of the nodes table
    assert_eq!(r.nodes[0].mac_address, "02:00:00:00:00:01");
    assert_eq!(r.nodes[0].ip_address, "10.0.0.1");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn one_capture_per_bss_and_byte_identical_for_a_seed() {
    let (d1, d2) = (temp_dir("bss1"), temp_dir("bss2"));
    let r = simulate(
        &scenario(&d1, "pcap_per = \"bss\"\npcap_snaplen = 100"),
        None,
    )
    .unwrap();
    simulate(
        &scenario(&d2, "pcap_per = \"bss\"\npcap_snaplen = 100"),
        None,
    )
    .unwrap();
    let caps = read(&d1);
    assert_eq!(caps.len(), 2 + 3);
    let attempts: u64 = r.bss.iter().map(|b| b.mac.attempts).sum();
    let frames = caps["bss-ap1.pcap"].1 + caps["bss-ap2.pcap"].1;
    assert_eq!(frames, attempts);
    let acks = caps["bss-ap1.pcap"].4 + caps["bss-ap2.pcap"].4;
    let successes: u64 = r.bss.iter().map(|b| b.mac.successes).sum();
    assert_eq!(acks, successes);
    for name in caps.keys() {
        let a = std::fs::read(d1.join(name)).unwrap();
        assert_eq!(a, std::fs::read(d2.join(name)).unwrap(), "{name} differs");
    }
    // every frame cut at the snaplen
    let (_, frames) = read_pcap(&d1.join("bss-ap1.pcap"));
    assert!(frames.iter().any(|p| p.orig_len > 100));
    for p in frames {
        assert!(p.data.len() <= 100 && p.orig_len as usize >= p.data.len());
    }
    std::fs::remove_dir_all(&d1).unwrap();
    std::fs::remove_dir_all(&d2).unwrap();
}

#[test]
fn an_unwritable_directory_is_a_clear_error() {
    let file = temp_dir("file");
    std::fs::write(&file, b"not a directory").unwrap();
    let e = simulate(&scenario(&file.join("sub"), ""), None).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("output.pcap"), "{msg}");
    assert!(msg.contains("cannot create directory"), "{msg}");
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn no_capture_changes_no_result() {
    let dir = temp_dir("same");
    let with = simulate(&scenario(&dir, ""), None).unwrap();
    let mut s = scenario(&dir, "");
    s.output.pcap = None;
    let without = run(&s, s.seed);
    assert_eq!(with.flows, without.flows);
    assert_eq!(with.nodes, without.nodes);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// ns-2's DSDV puts 20 bytes on every packet a wireless node originates
/// (`routing_agent = "dsdv"`): the captures carry them as IPv4 NOP options, so that a
/// station's frames (to the DS) have a 40-byte IPv4 header and the frames the APs forward
/// from the server (from the DS) a 20-byte one, while the CBR one station sends to
/// another keeps its 40 on the way from the DS; tshark reads them as options.
#[test]
fn dsdv_bytes_appear_as_ipv4_options_on_what_stations_send() {
    let dir = temp_dir("dsdv");
    let mut s = scenario(&dir, "");
    s.routing_agent = Some(wlansim_core::net::RoutingAgent::Dsdv);
    simulate(&s, None).unwrap();
    let (mut to_ds, mut from_ds) = (0, 0);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let (link, frames) = read_pcap(&entry.unwrap().path());
        if link != RADIOTAP {
            continue; // a wired link's capture
        }
        for p in frames {
            let rt = u16::from_le_bytes([p.data[2], p.data[3]]) as usize;
            let (fc0, fc1) = (p.data[rt], p.data[rt + 1]);
            if fc0 & 0x0c != 0x08 {
                continue; // not a data frame (a Beacon)
            }
            let ip = rt + 24 + 8; // 802.11 data header, LLC/SNAP
            let ihl = (p.data[ip] & 0x0f) as usize * 4;
            match fc1 & 0x03 {
                0x01 => {
                    assert_eq!(ihl, 40, "a station's frame");
                    assert!(p.data[ip + 20..ip + 40].iter().all(|&b| b == 1), "NOP");
                    to_ds += 1;
                }
                0x02 => {
                    // From the server: as it sent it; the CBR between the BSSs keeps the
                    // bytes its station added.
                    let udp = p.data[ip + 9] == 17;
                    assert_eq!(ihl, if udp { 40 } else { 20 }, "a frame the AP forwards");
                    from_ds += 1;
                }
                _ => panic!("a data frame neither to nor from the DS"),
            }
        }
    }
    assert!(to_ds > 100 && from_ds > 100, "{to_ds} {from_ds}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An aggregating cell's capture: the A-MPDUs of a collision are written in the order of
/// their subframes' times (each exchange's subframes are told at its end, one A-MPDU
/// after the other), so a file's times never go back; collided subframes carry bad FCS.
/// (A BlockAck to an A-MPDU captured out of a collision: tests/test_ampdu.py.)
#[test]
fn collided_ampdus_are_written_in_time_order() {
    let dir = temp_dir("ampdu");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/saturated-11ac-ampdu.toml"),
    )
    .unwrap();
    let text = format!(
        "{}\n[output]\npcap = {:?}\npcap_per = \"bss\"\npcap_snaplen = 64\n",
        text.replace("duration = \"20 s\"", "duration = \"1 s\"")
            .replace("warmup = \"1 s\"", "warmup = \"0 s\""),
        dir.display()
    );
    let r = simulate(&Scenario::from_toml(&text).unwrap(), None).unwrap();
    let caps = read(&dir); // asserts that no file's time goes back
    let (_, frames, _, bad, _) = caps["bss-ap.pcap"];
    assert!(
        r.bss[0].mac.collisions > 0 && bad > 0,
        "collisions in the capture"
    );
    assert!(frames > 1000, "{frames} subframes");
    std::fs::remove_dir_all(&dir).unwrap();
}
