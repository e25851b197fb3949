//! pcap captures (`[output] pcap = "DIR"`): the trace hook's second consumer.
//!
//! Over the air, every frame attempt (`TxStart { air: true }`) is one frame in the capture
//! of its transmitter (`pcap_per = "node"`, file `NODE.pcap`) or of its BSS
//! (`pcap_per = "bss"`, file `bss-AP.pcap`), link type 802.11 with radiotap. On the
//! spatial medium a node's capture also holds what its radio received (`Heard`: the data
//! frames and Beacons of other nodes it locked onto, addressed to it or not, at their
//! arrival, with the bad-FCS flag when not decoded), so that it shows what that node
//! heard; on the shared medium every node hears every frame, and the transmitters' (or
//! the BSS's) captures hold them. An attempt
//! is held until its fate is known (at most one per transmitter: the MAC settles every
//! exchange before the next grant) and written then, with its start time: a failed
//! attempt (lost on the channel, or collided: neither is received) carries the radiotap
//! bad-FCS flag, a retransmission the 802.11 retry bit and the MSDU's sequence number.
//! Attempts still in the air when the run ends are written without the flag. On wired
//! links every packet is one Ethernet frame when its serialisation starts, in one capture
//! per link (both directions, file `link-A-B.pcap`).
//!
//! Headers: radiotap (flags, and the rate, or for 802.11n/ac data frames the MCS field
//! or the VHT field: MCS, streams, bandwidth, guard interval) and the 802.11 data header
//! (frame control with To/From DS, duration = SIFS + ACK in µs, three addresses,
//! sequence control; a QoS Data frame with its QoS Control, TID 0, under 802.11n/ac)
//! followed by LLC/SNAP are written by hand: they are a few fixed fields, and no maintained crate
//! builds them (radiotap crates parse only). The file format is `pcap-file`'s (nanosecond
//! timestamps); the IPv4, TCP and UDP headers and the IPv4 header checksum are
//! `etherparse`'s. The TCP and UDP checksums are summed here over the pseudo-header and
//! the header only: the zero-filled payload adds nothing to them but its length, so no
//! frame's payload is ever summed or, beyond `pcap_snaplen`, written.
//!
//! TCP: 32-bit sequence and acknowledgment numbers (wlansim's are 64-bit; the
//! connection starts at 0), flags, options as the flow uses them (MSS, SACK-permitted and
//! window scale on SYN and SYN-ACK; timestamps; SACK blocks), and the window: the
//! advertised bytes shifted right by the flow's window scale (the smallest shift that
//! fits the configured receive window in 16 bits, rounded up), unscaled on SYNs.
use super::{AirRate, TraceEvent};
use crate::net::{Kind, NodeId, Packet};
use crate::phy::ht::{Format, GuardInterval};
use crate::sim::time::Time;
use etherparse::{IpNumber, Ipv4Header, Ipv4Options, TcpHeader, TcpOptionElement, UdpHeader};
use pcap_file::pcap::{PcapHeader, PcapPacket, PcapWriter};
use pcap_file::{DataLink, Endianness, TsResolution};
use std::collections::HashMap;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::time::Duration;

/// The MAC address of node `id`: locally administered, 02:00:00 then `id + 1` in 24 bits.
pub fn mac_address(id: NodeId) -> [u8; 6] {
    let n = id + 1;
    [2, 0, 0, (n >> 16) as u8, (n >> 8) as u8, n as u8]
}

/// The IPv4 address of node `id`: 10.0.0.0/8 with `id + 1` in the low 24 bits.
pub fn ip_address(id: NodeId) -> [u8; 4] {
    let n = id + 1;
    [10, (n >> 16) as u8, (n >> 8) as u8, n as u8]
}

/// Node `id`'s MAC address as text (`02:00:00:00:00:01`). Written digit by digit rather
/// than through `format!`: a run's results hold one per wireless node, and at 10,000
/// stations the formatter's cost showed in the run's instruction count.
pub fn mac_string(id: NodeId) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(17);
    for (i, b) in mac_address(id).into_iter().enumerate() {
        if i > 0 {
            s.push(':');
        }
        s.push(HEX[(b >> 4) as usize] as char);
        s.push(HEX[(b & 15) as usize] as char);
    }
    s
}

/// Node `id`'s IPv4 address as text (`10.0.0.1`), written as [`mac_string`] is.
pub fn ip_string(id: NodeId) -> String {
    let mut s = String::with_capacity(15);
    for (i, a) in ip_address(id).into_iter().enumerate() {
        if i > 0 {
            s.push('.');
        }
        if a >= 100 {
            s.push((b'0' + a / 100) as char);
        }
        if a >= 10 {
            s.push((b'0' + a / 10 % 10) as char);
        }
        s.push((b'0' + a % 10) as char);
    }
    s
}

/// What the capture needs to know of a node.
#[derive(Clone, Debug)]
pub struct CaptureNode {
    pub name: String,
    /// The AP of its BSS (an AP's own id); None for a wired node.
    pub bss: Option<NodeId>,
    pub is_ap: bool,
    /// An AP's Beacons (`mac/beacon.rs`); None: it sends none.
    pub beacon: Option<CaptureBeacon>,
}

/// What a Beacon frame of an AP holds.
#[derive(Clone, Debug)]
pub struct CaptureBeacon {
    pub interval: Time,
    pub rate: u64,
    pub short_preamble: bool,
    /// Its information elements (`mac::beacon::beacon_elements`).
    pub elements: Vec<u8>,
}

/// What the capture needs to know of a TCP flow (None for UDP flows).
#[derive(Clone, Copy, Debug)]
pub struct CaptureTcp {
    pub timestamps: bool,
    pub mss: u16,
    /// Window scale shift (RFC 7323) written on SYNs and applied to every other window.
    pub wscale: u8,
}

/// The smallest window scale shift that fits `rwnd_bytes` in 16 bits (at most 14).
pub fn window_scale(rwnd_bytes: u64) -> u8 {
    let mut s = 0;
    while s < 14 && (rwnd_bytes >> s) > 65535 {
        s += 1;
    }
    s
}

pub struct CaptureConfig<'a> {
    pub dir: &'a Path,
    pub per_bss: bool,
    pub snaplen: u32,
    pub nodes: Vec<CaptureNode>,
    /// Wired links as (from, to) node pairs (each direction of a full-duplex link).
    pub links: Vec<(NodeId, NodeId)>,
    pub flows: Vec<Option<CaptureTcp>>,
    /// Per flow: its source node and the bytes the routing agent of each end adds to the
    /// packets it originates ([forward, reverse]: `net::routing_agent`).
    pub origin_headers: Vec<(NodeId, [u32; 2])>,
    /// 802.11n/ac: the data frames are QoS Data frames.
    pub qos_data: bool,
    /// 802.11 Duration/ID of a data frame: SIFS + ACK, ns.
    pub nav: Time,
}

/// A frame attempt whose fate is not known yet.
struct Pending {
    node: NodeId,
    t: Time,
    packet: Packet,
    retry: bool,
    seqnum: u16,
    rate: AirRate,
    /// The packet's real bytes (emulation).
    real: Option<Box<[u8]>>,
    /// An A-MPDU subframe: its A-MPDU's reference number, and whether it is the last.
    ampdu: Option<(u32, bool)>,
    /// The ACK that answered it (time, rate in b/s, lost), told before the frame is
    /// written and written after it.
    ack: Option<(Time, u64, bool)>,
}

type Writer = PcapWriter<BufWriter<File>>;
/// A packet's identity: flow, direction, sequence number.
type PacketKey = (u32, bool, u32);

pub struct PcapRecorder {
    files: Vec<Writer>,
    /// Per-node captures: a node's file holds what it heard too (`TraceEvent::Heard`).
    heard: bool,
    /// Per node: the capture of the frames it sends over the air.
    air_file: Vec<Option<u32>>,
    /// Per (from, to) of a wired link: its capture.
    link_file: HashMap<(NodeId, NodeId), u32>,
    nodes: Vec<CaptureNode>,
    flows: Vec<Option<CaptureTcp>>,
    origin_headers: Vec<(NodeId, [u32; 2])>,
    snaplen: u32,
    /// The reference number of the last A-MPDU (its subframes' radiotap A-MPDU status
    /// field; a data frame sent alone has none).
    ampdu_reference: u32,
    /// The subframes told (bad FCS or not) and not yet written: written in the order of
    /// their times, as records of later times come, since the A-MPDUs of a collision
    /// are told one after the other, at the exchange's end.
    subframes: Vec<(Pending, bool)>,
    /// 802.11n/ac: QoS Data frames.
    qos_data: bool,
    nav_us: u16,
    pending: Vec<Pending>,
    /// Per node: its 802.11 sequence counter and the numbers of its recent MSDUs
    /// (a retransmission reuses its MSDU's number).
    seq: Vec<(u16, Vec<(PacketKey, u16)>)>,
    buf: Vec<u8>,
    zeros: Vec<u8>,
    /// The first write error (reported at the end of the run).
    error: Option<String>,
}

/// Radiotap: version, pad, length, present (flags, rate), flags, rate.
const RADIOTAP_LEN: usize = 10;
const RT_FLAGS_BAD_FCS: u8 = 0x40;
/// Where the flags byte is in every radiotap header written here.
const RT_FLAGS_AT: usize = 8;
const WLAN_HEADER_LEN: usize = 24;
/// Radiotap A-MPDU status flags: the last subframe is known; this is the last.
const RT_AMPDU_LAST_KNOWN: u16 = 0x0004;
const RT_AMPDU_IS_LAST: u16 = 0x0008;

/// Append a radiotap header with flags (bad FCS or not) and `rate` (b/s, in 500 kb/s
/// units): the Beacons' and BlockAcks' (non-HT frames).
fn legacy_radiotap(b: &mut Vec<u8>, rate: u64, bad_fcs: bool) {
    b.extend_from_slice(&[0, 0, RADIOTAP_LEN as u8, 0, 0b110, 0, 0, 0]);
    b.push(if bad_fcs { RT_FLAGS_BAD_FCS } else { 0 });
    b.push((rate / 500_000).min(255) as u8);
}

/// Write into the empty `b` the radiotap header of a data frame sent at `rate` (the flags
/// byte 0, at [`RT_FLAGS_AT`]) and return
/// the place of its A-MPDU status field when `ampdu` gives it one (an HT/VHT frame): flags
/// and rate (500 kb/s units); for an HT mode
/// flags and the MCS field (known: bandwidth, MCS, guard interval; HT's MCS index
/// 8·(streams − 1) + MCS); for a VHT mode flags and the 12-byte VHT field (aligned to 2;
/// known: guard interval, bandwidth; bandwidth 0, 1, 4, 11 for 20, 40, 80, 160 MHz; MCS
/// and streams of user 0). The A-MPDU status field (bit 20: reference number, flags,
/// delimiter CRC, reserved; aligned to 4) goes between the MCS and VHT fields, in the
/// order of their bits.
fn data_radiotap(b: &mut Vec<u8>, rate: AirRate, ampdu: bool) -> Option<usize> {
    debug_assert!(b.is_empty());
    let Some(m) = rate.ht else {
        legacy_radiotap(b, rate.data, false);
        return None;
    };
    let short = u8::from(m.guard_interval == GuardInterval::Short);
    // present: flags (bit 1), then MCS (bit 19) or VHT (bit 21)
    b.extend_from_slice(&[0, 0, 0, 0, 0x02, 0, 0, 0, 0]);
    if m.format == Format::Ht {
        let bw = u8::from(m.width_mhz == 40);
        let index = 8 * (m.streams - 1) + m.mcs;
        b[6] |= 0x08;
        b.extend_from_slice(&[0x07, bw | short << 2, index]);
    }
    let ampdu_at = ampdu.then(|| {
        b[6] |= 0x10;
        b.resize(b.len().next_multiple_of(4), 0);
        let at = b.len();
        b.extend_from_slice(&[0; 8]);
        at
    });
    if m.format == Format::Vht {
        let bw = match m.width_mhz {
            20 => 0,
            40 => 1,
            80 => 4,
            _ => 11,
        };
        b[6] |= 0x20;
        b.resize(b.len().next_multiple_of(2), 0);
        b.extend_from_slice(&[0x44, 0, short << 2, bw, m.mcs << 4 | m.streams]);
        b.extend_from_slice(&[0; 7]);
    }
    b[2] = b.len() as u8;
    ampdu_at
}

const LLC_SNAP_IPV4: [u8; 8] = [0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x00];
/// The largest IP datagram a frame can carry here (the IPv4 total length field).
const MAX_IP: usize = 65535;

impl PcapRecorder {
    /// Create the directory and one capture file per node or BSS and per wired link.
    pub fn create(cfg: CaptureConfig) -> Result<PcapRecorder, String> {
        let dir = cfg.dir;
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create directory {}: {e}", dir.display()))?;
        let open = |name: &str, datalink: DataLink| -> Result<Writer, String> {
            let path = dir.join(name);
            let file = File::create(&path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
            let header = PcapHeader {
                snaplen: cfg.snaplen,
                datalink,
                ts_resolution: TsResolution::NanoSecond,
                endianness: Endianness::Little,
                ..PcapHeader::default()
            };
            PcapWriter::with_header(BufWriter::with_capacity(1 << 16, file), header)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        };
        let mut files = Vec::new();
        let mut air_file = vec![None; cfg.nodes.len()];
        let mut by_name: HashMap<String, u32> = HashMap::new();
        for (id, n) in cfg.nodes.iter().enumerate() {
            let Some(ap) = n.bss else { continue };
            let name = if cfg.per_bss {
                format!("bss-{}.pcap", cfg.nodes[ap as usize].name)
            } else {
                format!("{}.pcap", n.name)
            };
            let k = match by_name.get(&name) {
                Some(&k) => k,
                None => {
                    files.push(open(&name, DataLink::IEEE802_11_RADIOTAP)?);
                    by_name.insert(name, files.len() as u32 - 1);
                    files.len() as u32 - 1
                }
            };
            air_file[id] = Some(k);
        }
        let mut link_file = HashMap::new();
        for &(a, b) in &cfg.links {
            if link_file.contains_key(&(a, b)) {
                continue;
            }
            let (x, y) = if a < b { (a, b) } else { (b, a) };
            let name = format!(
                "link-{}-{}.pcap",
                cfg.nodes[x as usize].name, cfg.nodes[y as usize].name
            );
            files.push(open(&name, DataLink::ETHERNET)?);
            let k = files.len() as u32 - 1;
            link_file.insert((a, b), k);
            link_file.insert((b, a), k);
        }
        let n = cfg.nodes.len();
        Ok(PcapRecorder {
            files,
            heard: !cfg.per_bss,
            air_file,
            link_file,
            nodes: cfg.nodes,
            flows: cfg.flows,
            origin_headers: cfg.origin_headers,
            snaplen: cfg.snaplen,
            ampdu_reference: 0,
            subframes: Vec::new(),
            qos_data: cfg.qos_data,
            nav_us: cfg.nav.div_ceil(1000).min(32767) as u16,
            pending: Vec::new(),
            seq: vec![(0, Vec::new()); n],
            buf: Vec::with_capacity(MAX_IP + 64),
            zeros: vec![0; MAX_IP],
            error: None,
        })
    }

    /// `real`: the packet's own bytes (emulation), written instead of headers made from
    /// its fields.
    pub fn event(&mut self, t: Time, event: TraceEvent, p: &Packet, real: Option<&[u8]>) {
        if !matches!(event, TraceEvent::Subframe { .. }) {
            self.write_subframes(t);
        }
        match event {
            TraceEvent::TxStart {
                node,
                air: Some(rate),
                retry,
                ..
            } => {
                let seqnum = self.seqnum(node, p, retry);
                self.pending.push(Pending {
                    node,
                    t,
                    packet: *p,
                    retry,
                    seqnum,
                    rate,
                    real: real.map(Box::from),
                    ampdu: None,
                    ack: None,
                });
            }
            TraceEvent::Subframe {
                node,
                retry,
                rate,
                subframe,
                ..
            } => {
                // Its fate is known: written with the exchange's others, in the
                // A-MPDU's reference.
                if subframe.index == 0 {
                    self.ampdu_reference = self.ampdu_reference.wrapping_add(1);
                }
                let x = Pending {
                    node,
                    t,
                    packet: *p,
                    retry,
                    seqnum: (subframe.seq & 0x0fff) as u16,
                    rate,
                    real: real.map(Box::from),
                    ampdu: subframe.last.map(|last| (self.ampdu_reference, last)),
                    ack: None,
                };
                self.subframes.push((x, !subframe.decoded));
            }
            TraceEvent::TxStart {
                node,
                to,
                air: None,
                ..
            } => self.write_wired(t, node, to, p, real),
            TraceEvent::TxFailed { node, .. } => {
                if let Some(i) = self.pending.iter().position(|x| x.node == node) {
                    let x = self.pending.swap_remove(i);
                    self.write_air(x.node, &x, true);
                }
            }
            TraceEvent::Heard {
                node,
                from,
                retry,
                decoded,
                rate,
            } if self.heard => {
                let x = Pending {
                    node: from,
                    t,
                    packet: *p,
                    retry,
                    seqnum: self.sent_seqnum(from, p),
                    rate,
                    real: real.map(Box::from),
                    ampdu: None,
                    ack: None,
                };
                self.write_air(node, &x, !decoded);
            }
            TraceEvent::Received { node } => {
                let same = |x: &Pending| {
                    x.packet.hop == node
                        && x.packet.flow == p.flow
                        && x.packet.reverse == p.reverse
                        && x.packet.seq == p.seq
                };
                if let Some(i) = self.pending.iter().position(same) {
                    let x = self.pending.swap_remove(i);
                    self.write_air(x.node, &x, false);
                    self.write_answer(&x);
                }
            }
            _ => {}
        }
    }

    /// The 802.11 sequence number of an attempt: a new MSDU takes the node's next one.
    fn seqnum(&mut self, node: NodeId, p: &Packet, retry: bool) -> u16 {
        let key = (p.flow, p.reverse, p.seq);
        let (counter, recent) = &mut self.seq[node as usize];
        if retry {
            if let Some(&(_, s)) = recent.iter().find(|(k, _)| *k == key) {
                return s;
            }
        }
        let s = *counter;
        *counter = (*counter + 1) & 0x0fff;
        if recent.len() == 8 {
            recent.remove(0);
        }
        recent.push((key, s));
        s
    }

    /// The sequence number `node` gave its MSDU `p` when it sent it (0 if it is not one of
    /// its recent ones).
    fn sent_seqnum(&self, node: NodeId, p: &Packet) -> u16 {
        let key = (p.flow, p.reverse, p.seq);
        let recent = &self.seq[node as usize].1;
        recent
            .iter()
            .rfind(|(k, _)| *k == key)
            .map_or(0, |&(_, s)| s)
    }

    /// Write what is still pending and flush every file; the first error, if any.
    pub fn finish(&mut self) -> Result<(), String> {
        self.write_subframes(Time::MAX);
        let mut pending = std::mem::take(&mut self.pending);
        pending.sort_by_key(|x| (x.t, x.node));
        for x in &pending {
            self.write_air(x.node, x, false);
            self.write_answer(x);
        }
        for f in std::mem::take(&mut self.files) {
            if let Err(e) = f.into_writer().into_inner() {
                self.error.get_or_insert(e.error().to_string());
            }
        }
        match self.error.take() {
            Some(e) => Err(format!("writing the captures failed: {e}")),
            None => Ok(()),
        }
    }

    /// The subframes told so far that began by `until`, in the order of their times (a
    /// stable sort: one A-MPDU's keep their order); the later ones wait for the next
    /// record (a collided A-MPDU may outlast the BlockAck to another one captured).
    fn write_subframes(&mut self, until: Time) {
        if self.subframes.is_empty() {
            return;
        }
        let mut subframes = std::mem::take(&mut self.subframes);
        subframes.sort_by_key(|(x, _)| x.t);
        let n = subframes.partition_point(|(x, _)| x.t <= until);
        for (x, bad) in subframes.drain(..n) {
            self.write_air(x.node, &x, bad);
        }
        self.subframes = subframes; // the later ones, and the storage
    }

    /// Frame `x` (sent by `x.node`) into the capture of `into`.
    fn write_air(&mut self, into: NodeId, x: &Pending, bad_fcs: bool) {
        let Some(file) = self.air_file[into as usize] else {
            return;
        };
        let p = &x.packet;
        let b = &mut self.buf;
        b.clear();
        let ampdu_at = data_radiotap(b, x.rate, x.ampdu.is_some());
        if bad_fcs {
            b[RT_FLAGS_AT] = RT_FLAGS_BAD_FCS;
        }
        if let (Some(at), Some((reference, last))) = (ampdu_at, x.ampdu) {
            let flags = RT_AMPDU_LAST_KNOWN | if last { RT_AMPDU_IS_LAST } else { 0 };
            b[at..at + 4].copy_from_slice(&reference.to_le_bytes());
            b[at + 4..at + 6].copy_from_slice(&flags.to_le_bytes());
        }
        let radiotap = b.len();
        // 802.11 data frame: type data (0x08, QoS Data 0x88); To DS from a station, From
        // DS from an AP.
        let from_ap = self.nodes[x.node as usize].is_ap;
        let ds = if from_ap { 0x02 } else { 0x01 };
        b.push(if self.qos_data { 0x88 } else { 0x08 });
        b.push(ds | if x.retry { 0x08 } else { 0 });
        b.extend_from_slice(&self.nav_us.to_le_bytes());
        let (tx, rx) = (mac_address(x.node), mac_address(p.hop));
        // To DS: BSSID (the AP, the receiver), SA, DA; From DS: DA, BSSID (the AP), SA.
        let (sa, da) = (mac_address(p.src), mac_address(p.dst));
        if from_ap {
            b.extend_from_slice(&rx);
            b.extend_from_slice(&tx);
            b.extend_from_slice(&sa);
        } else {
            b.extend_from_slice(&rx);
            b.extend_from_slice(&tx);
            b.extend_from_slice(&da);
        }
        b.extend_from_slice(&(x.seqnum << 4).to_le_bytes());
        if self.qos_data {
            b.extend_from_slice(&[0, 0]); // QoS Control: TID 0, normal ACK
        }
        b.extend_from_slice(&LLC_SNAP_IPV4);
        let header = WLAN_HEADER_LEN + if self.qos_data { 2 } else { 0 };
        debug_assert_eq!(b.len(), radiotap + header + 8);
        let orig_len = self.write_ip(p, x.real.as_deref());
        self.write(file, x.t, orig_len);
    }

    /// A Beacon of AP `node` at `t` (802.11-2016 9.3.3.3) in the capture of `into`: the
    /// AP's own (sent at `t`), or one another node heard (arriving at `t`). Broadcast,
    /// its fixed fields (Timestamp: `t` in µs; Beacon Interval in TU; Capability: ESS,
    /// and the short preamble when the BSS uses it) and elements; bad FCS when it
    /// collided or was not decoded.
    pub fn beacon(&mut self, t: Time, node: NodeId, into: NodeId, bad_fcs: bool) {
        self.write_subframes(t);
        let own = into == node;
        let (Some(file), Some(b)) = (
            self.air_file[into as usize],
            &self.nodes[node as usize].beacon,
        ) else {
            return;
        };
        if !own && !self.heard {
            return;
        }
        let seq = {
            // The nodes that heard a Beacon are told before its sender is done with it,
            // so its number is the sender's next one.
            let (counter, _) = &mut self.seq[node as usize];
            let s = *counter;
            if own {
                *counter = (*counter + 1) & 0x0fff;
            }
            s
        };
        let buf = &mut self.buf;
        buf.clear();
        legacy_radiotap(buf, b.rate, bad_fcs);
        buf.extend_from_slice(&[0x80, 0, 0, 0]);
        buf.extend_from_slice(&[0xff; 6]);
        buf.extend_from_slice(&mac_address(node));
        buf.extend_from_slice(&mac_address(node));
        buf.extend_from_slice(&(seq << 4).to_le_bytes());
        buf.extend_from_slice(&(t / 1000).to_le_bytes());
        buf.extend_from_slice(&((b.interval / 1_024_000).min(65535) as u16).to_le_bytes());
        let capability: u16 = 0x0001 | if b.short_preamble { 0x0020 } else { 0 };
        buf.extend_from_slice(&capability.to_le_bytes());
        buf.extend_from_slice(&b.elements);
        let len = buf.len();
        self.write(file, t, len);
    }

    /// A compressed BlockAck (802.11-2020 9.3.1.8) that `node` sent to `to` at `t` at
    /// `rate` (b/s), into the capture of `node`: BA control with the compressed bitmap
    /// and TID 0, the starting sequence control (`ssn`) and the 64-bit `bitmap`; 28
    /// bytes written, 32 on the air with its FCS. `bitmap` None: a compressed BlockAckReq
    /// (9.3.1.7, subtype 8; 20 bytes written, 24 on the air). Bad FCS when the channel
    /// lost it (or it collided).
    pub fn block_ack(
        &mut self,
        t: Time,
        node: NodeId,
        to: NodeId,
        rate: u64,
        (ssn, bitmap): (u32, Option<u64>),
        lost: bool,
    ) {
        self.write_subframes(t);
        let Some(file) = self.air_file[node as usize] else {
            return;
        };
        let b = &mut self.buf;
        b.clear();
        legacy_radiotap(b, rate, lost);
        // Frame control: control frame (type 1), subtype BlockAck (9) or BlockAckReq (8);
        // duration 0.
        let subtype = if bitmap.is_some() { 0x94 } else { 0x84 };
        b.extend_from_slice(&[subtype, 0, 0, 0]);
        b.extend_from_slice(&mac_address(to));
        b.extend_from_slice(&mac_address(node));
        // BA (BAR) control: compressed bitmap (bit 2), TID 0.
        b.extend_from_slice(&0x0004u16.to_le_bytes());
        b.extend_from_slice(&(((ssn & 0x0fff) as u16) << 4).to_le_bytes());
        if let Some(bitmap) = bitmap {
            b.extend_from_slice(&bitmap.to_le_bytes());
        }
        let len = b.len();
        self.write(file, t, len);
    }

    /// An ACK (802.11-2020 9.3.1.3) that `node` sent to `to` at `t` at `rate` (b/s), into
    /// the capture of `node`: frame control, duration 0, the receiver address; 10 bytes
    /// written, 14 on the air with its FCS. Bad FCS when the channel lost it. When the
    /// frame it answers waits to be written (its fate is told after the ACK), it goes
    /// after that frame, so that a capture's times do not go back.
    pub fn ack(&mut self, t: Time, node: NodeId, to: NodeId, rate: u64, lost: bool) {
        self.write_subframes(t);
        let answered = |x: &&mut Pending| x.node == to && x.packet.hop == node && x.ampdu.is_none();
        match self.pending.iter_mut().find(answered) {
            Some(x) => x.ack = Some((t, rate, lost)),
            None => self.write_ack(t, node, to, rate, lost),
        }
    }

    /// The ACK that answered `x`, if one did ([`PcapRecorder::ack`]).
    fn write_answer(&mut self, x: &Pending) {
        if let Some((t, rate, lost)) = x.ack {
            self.write_ack(t, x.packet.hop, x.node, rate, lost);
        }
    }

    fn write_ack(&mut self, t: Time, node: NodeId, to: NodeId, rate: u64, lost: bool) {
        let Some(file) = self.air_file[node as usize] else {
            return;
        };
        let b = &mut self.buf;
        b.clear();
        legacy_radiotap(b, rate, lost);
        // Frame control: control frame (type 1), subtype Ack (13); duration 0.
        b.extend_from_slice(&[0xd4, 0, 0, 0]);
        b.extend_from_slice(&mac_address(to));
        let len = b.len();
        self.write(file, t, len);
    }

    /// An ADDBA Request (802.11-2020 9.6.4.2; `response`: an ADDBA Response, 9.6.4.3)
    /// that `node` sent to `to` in the BSS of AP `bssid` at `t` at `rate` (b/s), into the
    /// capture of `node`: an Action frame of the Block Ack category, dialog token 1, the
    /// Block Ack Parameter Set (A-MSDU supported, immediate Block Ack, TID 0, buffer size
    /// 0 in a Request as ns-3.37 sends it, 64 in a Response), no timeout, and the
    /// starting sequence number 0 (Request) or the status code 0 (success, Response); 33
    /// bytes written, 37 on the air with its FCS. Bad FCS when the channel lost it (or it
    /// collided).
    pub fn addba(
        &mut self,
        t: Time,
        (node, to, bssid): (NodeId, NodeId, NodeId),
        rate: u64,
        response: bool,
        lost: bool,
    ) {
        self.write_subframes(t);
        let Some(file) = self.air_file[node as usize] else {
            return;
        };
        let seq = {
            let (counter, _) = &mut self.seq[node as usize];
            let s = *counter;
            *counter = (*counter + 1) & 0x0fff;
            s
        };
        let b = &mut self.buf;
        b.clear();
        legacy_radiotap(b, rate, lost);
        // Frame control: management frame, subtype Action (13); duration 0.
        b.extend_from_slice(&[0xd0, 0, 0, 0]);
        b.extend_from_slice(&mac_address(to));
        b.extend_from_slice(&mac_address(node));
        b.extend_from_slice(&mac_address(bssid));
        b.extend_from_slice(&(seq << 4).to_le_bytes());
        // Category Block Ack (3), Action ADDBA Request (0) or Response (1), dialog token.
        b.extend_from_slice(&[3, u8::from(response), 1]);
        let buffer: u16 = if response { 64 } else { 0 };
        let parameters: u16 = 0x0001 | 0x0002 | buffer << 6;
        if response {
            b.extend_from_slice(&0u16.to_le_bytes()); // Status Code: success
        }
        b.extend_from_slice(&parameters.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes()); // Block Ack Timeout Value: none
        if !response {
            b.extend_from_slice(&0u16.to_le_bytes()); // Starting Sequence Control
        }
        let len = b.len();
        self.write(file, t, len);
    }

    fn write_wired(&mut self, t: Time, from: NodeId, to: NodeId, p: &Packet, real: Option<&[u8]>) {
        let Some(&file) = self.link_file.get(&(from, to)) else {
            return;
        };
        let b = &mut self.buf;
        b.clear();
        b.extend_from_slice(&mac_address(to));
        b.extend_from_slice(&mac_address(from));
        b.extend_from_slice(&[0x08, 0x00]);
        let orig_len = self.write_ip(p, real);
        self.write(file, t, orig_len);
    }

    /// Append the IPv4 datagram of `p` (headers, then its zero-filled payload up to the
    /// snaplen; or its `real` bytes) to the buffer; its whole length (uncut).
    fn write_ip(&mut self, p: &Packet, real: Option<&[u8]>) -> usize {
        if let Some(real) = real {
            let room = (self.snaplen as usize).saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&real[..real.len().min(room)]);
            return self.buf.len() - real.len().min(room) + real.len();
        }
        let payload = (p.payload_bytes as usize).min(MAX_IP - 60);
        let (src, dst) = (ip_address(p.src), ip_address(p.dst));
        let tcp = match (p.kind, self.flows[p.flow as usize]) {
            (Kind::Tcp, Some(tcp)) => Some(tcp_header(p, tcp)),
            _ => None,
        };
        let (protocol, l4_header) = match &tcp {
            Some(h) => (IpNumber::TCP, h.header_len()),
            None => (IpNumber::UDP, UdpHeader::LEN),
        };
        let l4_len = l4_header + payload;
        // The header ns-2's routing agent added where the packet was made
        // (`net::routing_agent`), written as IPv4 NOP options so that the captured frame
        // is as long as the one on the air.
        let extra = match self.origin_headers.get(p.flow as usize) {
            Some(&(src, bytes)) => bytes[(p.src != src) as usize] as usize,
            None => 0,
        };
        let ip = match ip_header(l4_len as u16, protocol, src, dst, extra) {
            Ok(ip) => ip,
            Err(e) => {
                self.error.get_or_insert(e);
                return self.buf.len();
            }
        };
        let written = ip.write(&mut self.buf).and_then(|()| {
            let at = self.buf.len();
            match &tcp {
                Some(h) => h.write(&mut self.buf)?,
                None => UdpHeader {
                    source_port: p.sport,
                    destination_port: p.dport,
                    length: l4_len as u16,
                    checksum: 0,
                }
                .write(&mut self.buf)?,
            }
            // The transport checksum (RFC 9293 3.1, RFC 768): the pseudo-header and the
            // header; the zero-filled payload adds nothing but its length.
            let sum =
                ones_complement_sum(&self.buf[at..], src, dst, protocol.0 as u32 + l4_len as u32);
            let mut checksum = !sum;
            let offset = if tcp.is_some() { 16 } else { 6 };
            if tcp.is_none() && checksum == 0 {
                checksum = 0xffff;
            }
            self.buf[at + offset..at + offset + 2].copy_from_slice(&checksum.to_be_bytes());
            Ok(())
        });
        if let Err(e) = written {
            self.error.get_or_insert(e.to_string());
        }
        let whole = self.buf.len() + payload;
        let room = (self.snaplen as usize).saturating_sub(self.buf.len());
        self.buf.extend_from_slice(&self.zeros[..payload.min(room)]);
        whole
    }

    fn write(&mut self, file: u32, t: Time, orig_len: usize) {
        let kept = &self.buf[..self.buf.len().min(self.snaplen as usize)];
        let packet = PcapPacket::new(Duration::from_nanos(t), orig_len as u32, kept);
        if let Err(e) = self.files[file as usize].write_packet(&packet) {
            self.error.get_or_insert(e.to_string());
        }
    }
}

/// The 16-bit one's complement sum of `bytes` (a header whose checksum field is zero) and
/// of the IPv4 pseudo-header (`src`, `dst`, and `extra` = protocol + transport length).
fn ones_complement_sum(bytes: &[u8], src: [u8; 4], dst: [u8; 4], extra: u32) -> u16 {
    let mut sum = extra;
    for a in [src, dst] {
        sum += u16::from_be_bytes([a[0], a[1]]) as u32 + u16::from_be_bytes([a[2], a[3]]) as u32;
    }
    let mut words = bytes.chunks_exact(2);
    for w in &mut words {
        sum += u16::from_be_bytes([w[0], w[1]]) as u32;
    }
    if let [last] = words.remainder() {
        sum += (*last as u32) << 8;
    }
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    sum as u16
}

/// An IPv4 header with `options` bytes of NOP options (a multiple of 4, at most 40).
fn ip_header(
    payload_len: u16,
    protocol: IpNumber,
    src: [u8; 4],
    dst: [u8; 4],
    options: usize,
) -> Result<Ipv4Header, String> {
    let mut ip = Ipv4Header::new(payload_len, 64, protocol, src, dst).map_err(|e| e.to_string())?;
    if options > 0 {
        // RFC 791: option type 1, No Operation.
        ip.options = Ipv4Options::try_from(&[1u8; 40][..options]).map_err(|e| e.to_string())?;
        ip.set_payload_len(payload_len as usize)
            .map_err(|e| e.to_string())?;
    }
    ip.dont_fragment = true;
    ip.header_checksum = ip.calc_header_checksum();
    Ok(ip)
}

fn tcp_header(p: &Packet, tcp: CaptureTcp) -> TcpHeader {
    let s = &p.seg;
    let syn = s.flags.syn();
    let window = if syn {
        s.rwnd.min(65535)
    } else {
        (s.rwnd.div_ceil(1 << tcp.wscale)).min(65535)
    };
    let mut h = TcpHeader::new(p.sport, p.dport, s.seq as u32, window as u16);
    h.syn = syn;
    h.fin = s.flags.fin();
    h.ack = s.flags.ack();
    h.psh = s.len > 0;
    if h.ack {
        h.acknowledgment_number = s.ack as u32;
    }
    let mut opts = [const { TcpOptionElement::Noop }; 6];
    let mut n = 0;
    let mut push = |o: TcpOptionElement| {
        opts[n] = o;
        n += 1;
    };
    if syn {
        push(TcpOptionElement::MaximumSegmentSize(tcp.mss));
        if s.sack.permitted() {
            push(TcpOptionElement::SelectiveAcknowledgementPermitted);
        }
        if tcp.wscale > 0 {
            push(TcpOptionElement::WindowScale(tcp.wscale));
        }
    }
    if tcp.timestamps {
        push(TcpOptionElement::Timestamp(s.ts_val, s.ts_ecr));
    }
    if !s.sack.is_empty() {
        let mut blocks = s.sack.blocks(s.ack).map(|(a, b)| (a as u32, b as u32));
        let first = blocks.next().expect("not empty");
        // Three blocks at most fit beside the timestamps in 40 option bytes.
        let limit = if tcp.timestamps { 2 } else { 3 };
        let mut rest = [None; 3];
        for (slot, blk) in rest.iter_mut().take(limit).zip(blocks) {
            *slot = Some(blk);
        }
        push(TcpOptionElement::SelectiveAcknowledgement(first, rest));
    }
    // Padding to 32 bits is etherparse's (end-of-list and zeros).
    if h.set_options(&opts[..n]).is_err() {
        h.set_options(&opts[..n - 1]).ok();
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_as_text_match_the_formatter() {
        for id in [
            0,
            8,
            9,
            98,
            99,
            254,
            255,
            256,
            9_999,
            65_535,
            70_000,
            (1 << 24) - 2,
        ] {
            let m = mac_address(id);
            let mac = format!(
                "{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
                m[0], m[1], m[2], m[3], m[4], m[5]
            );
            assert_eq!(mac_string(id), mac);
            let a = ip_address(id);
            assert_eq!(
                ip_string(id),
                format!("{}.{}.{}.{}", a[0], a[1], a[2], a[3])
            );
        }
        assert_eq!(mac_string(0), "02:00:00:00:00:01");
        assert_eq!(ip_string(99), "10.0.0.100");
    }
}
