//! Wired links, one per direction: a drop-tail queue, a transmitter that serialises the IP
//! datagram at the link rate (the packet stays counted in the queue while it is sent), then
//! a constant propagation delay.
//!
//! Packets leave in FIFO order and all take the same delay, so each packet's whole journey
//! is known when it is handed to the link: it starts when the transmitter is free, ends
//! its serialisation one transmission time later and arrives one propagation delay after
//! that. The link keeps its packets in one FIFO with those times, and the simulation needs
//! one event per packet, its arrival. The queue's occupancy at any time is the number of
//! packets whose serialisation has not ended.
//!
//! [`Wires`] is the wired part of the network component: it owns every link and is driven
//! through [`Wires::send`] and its events; the world hands an arrived packet to the
//! network layer of the link's far end.
use super::{NodeId, Packet};
use crate::sim::event::Schedule;
use crate::sim::time::{Time, SECOND};
use std::collections::VecDeque;

/// The wired links' events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireEvent {
    /// The oldest packet on link `l` arrives at its far end.
    Arrival(u32),
    /// Link `l` starts serialising a packet that waited in its queue. The simulation needs
    /// no event for it: it is scheduled only when the trace hook listens, so that
    /// consumers see the start at its time.
    TraceStart(u32),
}

/// A packet handed to a link, with the times of its journey.
struct OnLink {
    start: Time,
    tx_end: Time,
    packet: Packet,
}

pub struct Link {
    pub from: NodeId,
    pub to: NodeId,
    rate_bps: u64,
    pub delay: Time,
    /// Drop-tail capacity in packets, the one being serialised included.
    capacity: usize,
    /// Every packet handed to the link that has not arrived, oldest first: the first
    /// `sent` have been serialised (they propagate), the others are queued.
    packets: VecDeque<OnLink>,
    sent: usize,
    /// When the transmitter finishes the last packet it accepted.
    free_at: Time,
}

impl Link {
    pub fn new(from: NodeId, to: NodeId, rate_bps: u64, delay: Time, queue: u32) -> Self {
        Link {
            from,
            to,
            // Validation keeps rates ≥ 1 b/s; the guard keeps the division defined.
            rate_bps: rate_bps.max(1),
            delay,
            capacity: queue as usize,
            packets: VecDeque::with_capacity(64),
            sent: 0,
            free_at: 0,
        }
    }

    /// Serialisation time of `p` (IP bytes at the link rate, rounded up to a ns).
    fn tx_time(&self, p: &Packet) -> Time {
        (p.ip_bytes() as u64 * 8 * SECOND).div_ceil(self.rate_bps)
    }
}

/// Every wired link of the world.
#[derive(Default)]
pub struct Wires {
    pub links: Vec<Link>,
}

impl Wires {
    /// Hand `p` to `link` at `now`; a full queue gives it back (the caller counts the drop).
    /// Ok(start): when its serialisation starts (`now` if the link was idle).
    pub fn send<S: Schedule<WireEvent>>(
        &mut self,
        now: Time,
        link: u32,
        p: Packet,
        sched: &mut S,
    ) -> Result<Time, Packet> {
        let l = &mut self.links[link as usize];
        while l.sent < l.packets.len() && l.packets[l.sent].tx_end <= now {
            l.sent += 1;
        }
        if l.packets.len() - l.sent >= l.capacity {
            return Err(p);
        }
        let start = now.max(l.free_at);
        let tx_end = start + l.tx_time(&p);
        l.free_at = tx_end;
        l.packets.push_back(OnLink {
            start,
            tx_end,
            packet: p,
        });
        sched.schedule(tx_end + l.delay, WireEvent::Arrival(link));
        Ok(start)
    }

    /// The packet whose serialisation on `link` starts at `t` (for the trace hook).
    pub fn starting_at(&self, link: u32, t: Time) -> &Packet {
        let l = &self.links[link as usize];
        let on = l.packets.iter().rev().find(|o| o.start == t);
        &on.expect("a packet starting then").packet
    }

    /// [`WireEvent::Arrival`]: the packet and the node it reached.
    pub fn arrival(&mut self, link: u32) -> (NodeId, Packet) {
        let l = &mut self.links[link as usize];
        let on = l.packets.pop_front().expect("a packet on the wire");
        l.sent = l.sent.saturating_sub(1);
        (l.to, on.packet)
    }

    /// Packets queued or propagating on any link.
    pub fn in_flight(&self) -> impl Iterator<Item = &Packet> {
        self.links
            .iter()
            .flat_map(|l| l.packets.iter().map(|o| &o.packet))
    }
}
