//! The flows of the real hosts, one per 5-tuple (both directions of a connection), and
//! what the simulation needs to know of each TCP connection to read and write its real
//! headers: each side's window scale (RFC 7323 2.2–2.3: a side's windows are shifted by
//! the count it announced on its SYN, when both SYNs announced one; SYN windows never
//! are) and each side's timestamp clock, mapped onto the simulation's.
//!
//! Timestamp clocks: Linux stamps in ms with a random offset per connection and side.
//! The first timestamp a side sends gives its offset against the simulated clock (the
//! segment left the host at the time it was read, within the loop's lateness), so the
//! AP's delay injection reads pdelay (now − echoed timestamp) in its own clock, as in a
//! simulation.
use super::headers::{Headers, Tcp};
use crate::net::NodeId;
use crate::sim::time::Time;
use crate::tcp::TS_TICK;
use std::collections::HashMap;

/// (protocol, lower (address, port), higher (address, port)).
type Key = (u8, ([u8; 4], u16), ([u8; 4], u16));

/// One real flow.
pub struct Conn {
    /// Its id in the world.
    pub flow: u32,
    /// Side 0 is the end that sent its first packet.
    pub first: ([u8; 4], u16),
    /// Per side: the window scale it announced on its SYN (None: no SYN seen, or no
    /// option).
    wscale: [Option<u8>; 2],
    /// Per side: whether its SYN was seen.
    syn: [bool; 2],
    /// Per side: its timestamp clock minus the simulated clock, in ms ticks.
    ts_offset: [Option<u32>; 2],
}

impl Conn {
    fn new(flow: u32, first: ([u8; 4], u16)) -> Conn {
        Conn {
            flow,
            first,
            wscale: [None; 2],
            syn: [false; 2],
            ts_offset: [None; 2],
        }
    }

    /// The side that sends `h`.
    pub fn side(&self, h: &Headers) -> usize {
        ((h.src, h.sport) != self.first) as usize
    }

    /// The shift of the windows `side` sends: its announced count when both SYNs were
    /// seen and both announced one, 0 when both SYNs were seen without it; None when the
    /// handshake was missed (the window's scale is unknown).
    pub fn shift(&self, side: usize) -> Option<u8> {
        if !(self.syn[0] && self.syn[1]) {
            return None;
        }
        match self.wscale {
            [Some(a), Some(b)] => Some([a, b][side]),
            _ => Some(0),
        }
    }

    /// Note what a segment of `side` teaches (SYN options, the side's clock at `now`).
    pub fn learn(&mut self, side: usize, t: &Tcp, now: Time) {
        if t.flags.syn() {
            self.syn[side] = true;
            self.wscale[side] = t.wscale;
        }
        if let (Some((val, _)), None) = (t.timestamps, self.ts_offset[side]) {
            self.ts_offset[side] = Some(val.wrapping_sub((now / TS_TICK) as u32));
        }
    }

    /// The window `side` advertises on `t`, in bytes (unscaled on a SYN; as if unscaled
    /// when the scale is unknown).
    pub fn window_bytes(&self, side: usize, t: &Tcp) -> u32 {
        let shift = if t.flags.syn() {
            0
        } else {
            self.shift(side).unwrap_or(0)
        };
        (t.window as u32) << shift
    }

    /// The timestamps of `t` from `side` in the simulated clock (0 where unknown).
    pub fn sim_timestamps(&self, side: usize, t: &Tcp) -> (u32, u32) {
        let Some((val, ecr)) = t.timestamps else {
            return (0, 0);
        };
        let map = |v: u32, s: usize| self.ts_offset[s].map_or(0, |o| v.wrapping_sub(o));
        (
            map(val, side),
            if ecr == 0 { 0 } else { map(ecr, 1 - side) },
        )
    }
}

/// The real flows by 5-tuple.
#[derive(Default)]
pub struct Conns {
    by_key: HashMap<Key, usize>,
    pub conns: Vec<Conn>,
    /// World flow id → index in `conns`.
    by_flow: HashMap<u32, usize>,
}

fn key(h: &Headers) -> Key {
    let (a, b) = ((h.src, h.sport), (h.dst, h.dport));
    if a <= b {
        (h.protocol, a, b)
    } else {
        (h.protocol, b, a)
    }
}

impl Conns {
    /// The flow of `h`, if it was opened.
    pub fn find(&self, h: &Headers) -> Option<usize> {
        self.by_key.get(&key(h)).copied()
    }

    /// Record a new flow whose first packet is `h`, with world id `flow`.
    pub fn open(&mut self, h: &Headers, flow: u32) -> usize {
        let i = self.conns.len();
        self.conns.push(Conn::new(flow, (h.src, h.sport)));
        self.by_key.insert(key(h), i);
        self.by_flow.insert(flow, i);
        i
    }

    pub fn of_flow(&self, flow: u32) -> Option<&Conn> {
        self.by_flow.get(&flow).map(|&i| &self.conns[i])
    }
}

/// The name of a flow in the results: protocol, then its first packet's ends.
pub fn flow_name(h: &Headers) -> String {
    let ip = |a: [u8; 4]| format!("{}.{}.{}.{}", a[0], a[1], a[2], a[3]);
    match h.protocol {
        6 | 17 => format!(
            "{} {}:{} > {}:{}",
            h.protocol_name(),
            ip(h.src),
            h.sport,
            ip(h.dst),
            h.dport
        ),
        _ => format!(
            "{} {} > {} id {}",
            h.protocol_name(),
            ip(h.src),
            ip(h.dst),
            h.sport
        ),
    }
}

/// Which emulated node has each address.
pub struct Addresses {
    by_ip: HashMap<[u8; 4], NodeId>,
}

impl Addresses {
    pub fn new(nodes: impl IntoIterator<Item = NodeId>) -> Addresses {
        Addresses {
            by_ip: nodes
                .into_iter()
                .map(|n| (crate::trace::pcap::ip_address(n), n))
                .collect(),
        }
    }

    pub fn node(&self, ip: [u8; 4]) -> Option<NodeId> {
        self.by_ip.get(&ip).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::Flags;

    fn tcp(flags: Flags, window: u16, wscale: Option<u8>, ts: Option<(u32, u32)>) -> Tcp {
        Tcp {
            seq: 0,
            ack: 0,
            flags,
            window,
            mss: Some(1460),
            wscale,
            sack_permitted: true,
            timestamps: ts,
        }
    }

    #[test]
    fn window_scale_needs_both_syns() {
        let mut c = Conn::new(0, ([10, 0, 0, 3], 40000));
        c.learn(0, &tcp(Flags::SYN, 64240, Some(7), None), 0);
        assert_eq!(c.shift(0), None, "the SYN-ACK is not seen yet");
        c.learn(1, &tcp(Flags::SYN_ACK, 65160, Some(9), None), 0);
        assert_eq!((c.shift(0), c.shift(1)), (Some(7), Some(9)));
        let ack = tcp(Flags::ACK, 502, None, None);
        assert_eq!(c.window_bytes(0, &ack), 502 << 7);
        assert_eq!(
            c.window_bytes(1, &tcp(Flags::SYN_ACK, 65160, Some(9), None)),
            65160
        );
        // One side without the option: no scaling either way.
        let mut d = Conn::new(0, ([10, 0, 0, 3], 40000));
        d.learn(0, &tcp(Flags::SYN, 64240, Some(7), None), 0);
        d.learn(1, &tcp(Flags::SYN_ACK, 65160, None, None), 0);
        assert_eq!(d.window_bytes(0, &ack), 502);
    }

    #[test]
    fn timestamps_map_onto_the_simulated_clock() {
        let mut c = Conn::new(0, ([10, 0, 0, 3], 40000));
        // Side 0's clock reads 1_000_000 ms at simulated 2 s; side 1's 7 at 2.010 s.
        let data = tcp(Flags::ACK, 500, None, Some((1_000_000, 0)));
        c.learn(0, &data, 2_000 * TS_TICK);
        let ack = tcp(Flags::ACK, 500, None, Some((7, 1_000_000)));
        c.learn(1, &ack, 2_010 * TS_TICK);
        assert_eq!(c.sim_timestamps(0, &data), (2_000, 0));
        // The ACK echoes side 0's stamp: 2 000 ms in the simulated clock.
        assert_eq!(c.sim_timestamps(1, &ack), (2_010, 2_000));
        // Clocks wrap.
        let mut w = Conn::new(0, ([10, 0, 0, 3], 40000));
        w.learn(
            0,
            &tcp(Flags::ACK, 1, None, Some((u32::MAX, 0))),
            5 * TS_TICK,
        );
        let later = tcp(Flags::ACK, 1, None, Some((3, 0)));
        assert_eq!(w.sim_timestamps(0, &later).0, 9);
    }
}
