//! Wired links, one per direction: a drop-tail queue, a transmitter that serialises the IP
//! datagram at the link rate (the packet stays counted in the queue while it is sent), then
//! a constant propagation delay. Packets leave in FIFO order and all take the same delay,
//! so the packets on the wire are a FIFO too and an arrival event needs no payload.
//!
//! [`Wires`] is the wired part of the network component: it owns every link and is driven
//! through [`Wires::send`] and its two events; the world hands an arrived packet to the
//! network layer of the link's far end.
use super::{DropTail, NodeId, Packet};
use crate::sim::event::Schedule;
use crate::sim::time::{Time, SECOND};
use std::collections::VecDeque;

/// The wired links' events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireEvent {
    /// Link `l` finished serialising its head packet.
    TxEnd(u32),
    /// The oldest packet on link `l` arrives at its far end.
    Arrival(u32),
}

pub struct Link {
    pub from: NodeId,
    pub to: NodeId,
    rate_bps: u64,
    pub delay: Time,
    pub queue: DropTail,
    busy: bool,
    /// Packets on the wire (sent, not yet arrived), oldest first.
    pub propagating: VecDeque<Packet>,
}

impl Link {
    pub fn new(from: NodeId, to: NodeId, rate_bps: u64, delay: Time, queue: u32) -> Self {
        Link {
            from,
            to,
            // Validation keeps rates ≥ 1 b/s; the guard keeps the division defined.
            rate_bps: rate_bps.max(1),
            delay,
            queue: DropTail::new(queue),
            busy: false,
            propagating: VecDeque::with_capacity(64),
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
    /// Ok(true) when `p` starts on the wire at once.
    pub fn send<S: Schedule<WireEvent>>(
        &mut self,
        now: Time,
        link: u32,
        p: Packet,
        sched: &mut S,
    ) -> Result<bool, Packet> {
        let l = &mut self.links[link as usize];
        l.queue.push(p)?;
        if l.busy {
            return Ok(false);
        }
        self.start(now, link, sched);
        Ok(true)
    }

    fn start<S: Schedule<WireEvent>>(&mut self, now: Time, link: u32, sched: &mut S) {
        let l = &mut self.links[link as usize];
        let head = l.queue.head().expect("a queued packet to send");
        let done = now + l.tx_time(head);
        l.busy = true;
        sched.schedule(done, WireEvent::TxEnd(link));
    }

    /// [`WireEvent::TxEnd`]: the head packet is on the wire; it arrives one propagation
    /// delay later. Returns the next packet, which starts on the wire now, if any.
    pub fn tx_end<S: Schedule<WireEvent>>(
        &mut self,
        now: Time,
        link: u32,
        sched: &mut S,
    ) -> Option<Packet> {
        let l = &mut self.links[link as usize];
        let p = l.queue.pop().expect("the packet being sent");
        l.propagating.push_back(p);
        l.busy = false;
        sched.schedule(now + l.delay, WireEvent::Arrival(link));
        let next = *self.links[link as usize].queue.head()?;
        self.start(now, link, sched);
        Some(next)
    }

    /// [`WireEvent::Arrival`]: the packet and the node it reached.
    pub fn arrival(&mut self, link: u32) -> (NodeId, Packet) {
        let l = &mut self.links[link as usize];
        let p = l.propagating.pop_front().expect("a packet on the wire");
        (l.to, p)
    }

    /// Packets queued or propagating on any link.
    pub fn in_flight(&self) -> impl Iterator<Item = &Packet> {
        self.links
            .iter()
            .flat_map(|l| l.queue.iter().chain(l.propagating.iter()))
    }
}
