//! Real IPv4 packets as the simulator needs them: the header fields a [`Packet`] carries
//! (sizes, ports, TCP flags, window, timestamps), read from the bytes a TUN device gives,
//! and the one field the simulated network may change, the TCP window (rwnd clamping at
//! the AP), written back with the checksum patched incrementally (RFC 1624 eq. 3).
//!
//! Parsing is `etherparse`'s. Airtime follows from the packet's real IP length: the MAC
//! adds its header and LLC/SNAP (`phy::frame`) to `header_bytes + payload_bytes`, which
//! here are the real IP header (options included) plus the transport header (TCP
//! options included), and the real payload.
use crate::net::{Kind, NodeId, Packet};
use crate::tcp::{Flags, SackOption, Segment};
use etherparse::{IpNumber, Ipv4HeaderSlice, TcpHeaderSlice, TcpOptionElement, UdpHeaderSlice};

/// Why a packet read from a TUN device cannot enter the simulated network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unusable {
    /// Not IPv4 (IPv6 is off in the namespaces), or a malformed header.
    Malformed,
    /// A fragment: the namespaces' MTU is the simulated one, so none should come.
    Fragment,
}

/// The TCP fields read from a real segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tcp {
    pub seq: u32,
    pub ack: u32,
    pub flags: Flags,
    /// The window field as sent (scaled unless on a SYN).
    pub window: u16,
    /// SYN options: MSS, window scale, SACK-permitted.
    pub mss: Option<u16>,
    pub wscale: Option<u8>,
    pub sack_permitted: bool,
    /// RFC 7323 timestamps (value, echo reply), in the sender's clock.
    pub timestamps: Option<(u32, u32)>,
}

/// The fields of a real IPv4 packet the simulation uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Headers {
    pub src: [u8; 4],
    pub dst: [u8; 4],
    /// IP protocol number (6 TCP, 17 UDP, 1 ICMP, …).
    pub protocol: u8,
    pub dscp: u8,
    /// IP header + transport header bytes, and the payload after them.
    pub header_bytes: u32,
    pub payload_bytes: u32,
    /// Ports (TCP, UDP); an ICMP echo's identifier in both; 0 otherwise.
    pub sport: u16,
    pub dport: u16,
    /// Offset of the transport header in the packet.
    pub l4_offset: usize,
    pub tcp: Option<Tcp>,
}

impl Headers {
    pub fn protocol_name(&self) -> &'static str {
        match self.protocol {
            6 => "tcp",
            17 => "udp",
            1 => "icmp",
            _ => "ip",
        }
    }
}

/// Read the headers of the IPv4 packet `b`.
pub fn parse(b: &[u8]) -> Result<Headers, Unusable> {
    let ip = Ipv4HeaderSlice::from_slice(b).map_err(|_| Unusable::Malformed)?;
    if ip.is_fragmenting_payload() {
        return Err(Unusable::Fragment);
    }
    let total = (ip.total_len() as usize).min(b.len());
    let ihl = ip.slice().len();
    if total < ihl {
        return Err(Unusable::Malformed);
    }
    let l4 = &b[ihl..total];
    let mut h = Headers {
        src: ip.source(),
        dst: ip.destination(),
        protocol: ip.protocol().0,
        dscp: ip.dcp().value(),
        header_bytes: ihl as u32,
        payload_bytes: (total - ihl) as u32,
        sport: 0,
        dport: 0,
        l4_offset: ihl,
        tcp: None,
    };
    match ip.protocol() {
        IpNumber::TCP => {
            let t = TcpHeaderSlice::from_slice(l4).map_err(|_| Unusable::Malformed)?;
            let len = t.slice().len();
            h.header_bytes += len as u32;
            h.payload_bytes -= len as u32;
            h.sport = t.source_port();
            h.dport = t.destination_port();
            let mut flags = Flags::NONE;
            for (on, f) in [
                (t.syn(), Flags::SYN),
                (t.ack(), Flags::ACK),
                (t.fin(), Flags::FIN),
            ] {
                if on {
                    flags = flags | f;
                }
            }
            let mut tcp = Tcp {
                seq: t.sequence_number(),
                ack: t.acknowledgment_number(),
                flags,
                window: t.window_size(),
                mss: None,
                wscale: None,
                sack_permitted: false,
                timestamps: None,
            };
            for o in t.options_iterator() {
                match o {
                    Ok(TcpOptionElement::MaximumSegmentSize(m)) => tcp.mss = Some(m),
                    Ok(TcpOptionElement::WindowScale(s)) => tcp.wscale = Some(s.min(14)),
                    Ok(TcpOptionElement::SelectiveAcknowledgementPermitted) => {
                        tcp.sack_permitted = true
                    }
                    Ok(TcpOptionElement::Timestamp(v, e)) => tcp.timestamps = Some((v, e)),
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
            h.tcp = Some(tcp);
        }
        IpNumber::UDP => {
            let u = UdpHeaderSlice::from_slice(l4).map_err(|_| Unusable::Malformed)?;
            h.header_bytes += 8;
            h.payload_bytes -= 8;
            h.sport = u.source_port();
            h.dport = u.destination_port();
        }
        IpNumber::ICMP if l4.len() >= 8 => {
            h.header_bytes += 8;
            h.payload_bytes -= 8;
            // Echo request (8) and reply (0): the identifier keys the exchange.
            if l4[0] == 8 || l4[0] == 0 {
                let id = u16::from_be_bytes([l4[4], l4[5]]);
                (h.sport, h.dport) = (id, id);
            }
        }
        _ => {}
    }
    Ok(h)
}

/// The simulator's packet for `h` between nodes `src` and `dst` (its flow, sequence
/// number and times are the world's to set). `rwnd` is the advertised window in bytes
/// and `ts` the timestamps in the simulation's clock (ms ticks), both worked out by the
/// caller (window scale and clock offsets are per connection). A TCP segment without
/// payload (pure ACK, SYN, FIN) travels as reverse.
pub fn packet(h: &Headers, src: NodeId, dst: NodeId, rwnd: u32, ts: (u32, u32)) -> Packet {
    let seg = match h.tcp {
        Some(t) => Segment {
            seq: t.seq as u64,
            ack: t.ack as u64,
            len: h.payload_bytes,
            flags: t.flags,
            rwnd,
            ts_val: ts.0,
            ts_ecr: ts.1,
            sack: if t.sack_permitted {
                SackOption::PERMITTED
            } else {
                SackOption::default()
            },
        },
        None => Segment::default(),
    };
    let kind = if h.tcp.is_some() {
        Kind::Tcp
    } else {
        Kind::Udp
    };
    Packet {
        flow: 0,
        seq: 0,
        payload_bytes: h.payload_bytes,
        header_bytes: h.header_bytes,
        kind,
        reverse: kind == Kind::Tcp && h.payload_bytes == 0,
        src,
        dst,
        sport: h.sport,
        dport: h.dport,
        hop: 0,
        created: 0,
        seg,
    }
}

/// Offsets of the window and checksum fields in a TCP header.
const WINDOW: usize = 14;
const CHECKSUM: usize = 16;

/// The window field of the TCP segment at `l4` in `b`.
pub fn tcp_window(b: &[u8], l4: usize) -> u16 {
    u16::from_be_bytes([b[l4 + WINDOW], b[l4 + WINDOW + 1]])
}

/// Set the window field of the TCP segment at `l4` in `b` to `window` and patch its
/// checksum incrementally: RFC 1624 eq. 3, HC' = ~(~HC + ~m + m'), in one's complement
/// arithmetic (eq. 3 rather than eq. 2 of RFC 1141, which can yield the wrong zero).
pub fn set_tcp_window(b: &mut [u8], l4: usize, window: u16) {
    let old = tcp_window(b, l4);
    let hc = u16::from_be_bytes([b[l4 + CHECKSUM], b[l4 + CHECKSUM + 1]]);
    let mut sum = (!hc) as u32 + (!old) as u32 + window as u32;
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    let patched = !(sum as u16);
    b[l4 + WINDOW..l4 + WINDOW + 2].copy_from_slice(&window.to_be_bytes());
    b[l4 + CHECKSUM..l4 + CHECKSUM + 2].copy_from_slice(&patched.to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use etherparse::PacketBuilder;

    /// A TCP segment from 10.0.0.3:40000 to 10.0.0.2:5201 with `payload`, built and
    /// checksummed by etherparse.
    fn segment(syn: bool, window: u16, payload: &[u8]) -> Vec<u8> {
        let b =
            PacketBuilder::ipv4([10, 0, 0, 3], [10, 0, 0, 2], 64).tcp(40000, 5201, 1000, window);
        let b = if syn { b.syn() } else { b.ack(77) };
        let b = b
            .options(&[
                TcpOptionElement::MaximumSegmentSize(1460),
                TcpOptionElement::WindowScale(7),
                TcpOptionElement::Timestamp(123, 456),
            ])
            .unwrap();
        let mut out = Vec::new();
        b.write(&mut out, payload).unwrap();
        out
    }

    fn checksum_ok(b: &[u8]) -> bool {
        let ip = Ipv4HeaderSlice::from_slice(b).unwrap();
        let l4 = &b[ip.slice().len()..];
        let t = TcpHeaderSlice::from_slice(l4).unwrap();
        let payload = &l4[t.slice().len()..];
        let want = t
            .to_header()
            .calc_checksum_ipv4(&ip.to_header(), payload)
            .unwrap();
        want == t.checksum()
    }

    #[test]
    fn reads_sizes_ports_flags_and_options() {
        let b = segment(true, 64240, &[]);
        let h = parse(&b).unwrap();
        assert_eq!((h.src, h.dst), ([10, 0, 0, 3], [10, 0, 0, 2]));
        assert_eq!((h.sport, h.dport, h.protocol_name()), (40000, 5201, "tcp"));
        // 20 IP + 20 TCP + MSS 4 + WS 3 + TS 10, padded to 40 option bytes… to 4-byte words.
        assert_eq!(h.header_bytes as usize, b.len());
        assert_eq!(h.payload_bytes, 0);
        let t = h.tcp.unwrap();
        assert!(t.flags.syn() && !t.flags.ack());
        assert_eq!(
            (t.mss, t.wscale, t.timestamps),
            (Some(1460), Some(7), Some((123, 456)))
        );
        let p = packet(&h, 1, 2, 64240, (5, 6));
        assert!(p.reverse && p.is_tcp_ack());
        assert_eq!(p.ip_bytes() as usize, b.len());

        let d = segment(false, 500, &[7; 1000]);
        let h = parse(&d).unwrap();
        assert_eq!(h.payload_bytes, 1000);
        assert_eq!((h.header_bytes + h.payload_bytes) as usize, d.len());
        assert!(!packet(&h, 1, 2, 500 << 7, (0, 0)).reverse);
    }

    #[test]
    fn window_rewrite_keeps_the_checksum_valid() {
        for (window, new, payload) in [
            (501u16, 8u16, &[0u8; 0][..]),
            (0xffff, 0, &[1, 2, 3][..]),
            (0, 0xffff, &[0xff; 11][..]),
            (12345, 12345, &[][..]),
        ] {
            let mut b = segment(false, window, payload);
            assert!(checksum_ok(&b));
            let l4 = parse(&b).unwrap().l4_offset;
            set_tcp_window(&mut b, l4, new);
            assert_eq!(tcp_window(&b, l4), new);
            assert!(checksum_ok(&b), "{window} → {new}");
        }
    }

    #[test]
    fn icmp_echo_and_udp() {
        let mut e = Vec::new();
        PacketBuilder::ipv4([10, 0, 0, 3], [10, 0, 0, 2], 64)
            .icmpv4_echo_request(0x1234, 1)
            .write(&mut e, &[0; 56])
            .unwrap();
        let h = parse(&e).unwrap();
        assert_eq!(
            (h.protocol_name(), h.sport, h.dport),
            ("icmp", 0x1234, 0x1234)
        );
        assert_eq!((h.header_bytes, h.payload_bytes), (28, 56));
        let mut u = Vec::new();
        PacketBuilder::ipv4([10, 0, 0, 3], [10, 0, 0, 2], 64)
            .udp(5000, 5001)
            .write(&mut u, &[0; 1472])
            .unwrap();
        let h = parse(&u).unwrap();
        assert_eq!((h.header_bytes, h.payload_bytes), (28, 1472));
        assert_eq!(parse(&[0x60, 0, 0, 0]), Err(Unusable::Malformed));
    }
}
