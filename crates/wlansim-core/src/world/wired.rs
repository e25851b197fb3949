//! Wired links between the AP and the servers, one per direction: a drop-tail queue, a
//! transmitter that serialises the IP datagram at the link rate (the packet stays counted in
//! the queue while it is sent), then a constant propagation delay. Packets leave in FIFO
//! order and all take the same delay, so the packets on the wire are a FIFO too and an
//! arrival event needs no payload.
use super::{Event, World};
use crate::net::{DropTail, Packet};
use crate::sim::time::{Time, SECOND};
use std::collections::VecDeque;

pub struct WiredLink {
    rate_bps: u64,
    delay: Time,
    pub queue: DropTail,
    busy: bool,
    /// Packets on the wire (sent, not yet arrived), oldest first.
    pub propagating: VecDeque<Packet>,
    /// Delivers to the AP (else to a server).
    pub to_ap: bool,
}

impl WiredLink {
    pub fn new(rate_bps: u64, delay: Time, queue: u32, to_ap: bool) -> Self {
        WiredLink {
            // Validation keeps rates ≥ 1 b/s; the guard keeps the division defined.
            rate_bps: rate_bps.max(1),
            delay,
            queue: DropTail::new(queue),
            busy: false,
            propagating: VecDeque::with_capacity(64),
            to_ap,
        }
    }

    /// Serialisation time of `p` (IP bytes at the link rate, rounded up to a ns).
    fn tx_time(&self, p: &Packet) -> Time {
        (p.ip_bytes() as u64 * 8 * SECOND).div_ceil(self.rate_bps)
    }
}

impl World {
    /// Hand `p` to `link` at `now`; a full queue drops it.
    pub(super) fn wire_send(&mut self, now: Time, link: u32, p: Packet) {
        let l = &mut self.links[link as usize];
        if let Err(p) = l.queue.push(p) {
            self.count_queue_drop(&p);
            return;
        }
        if !l.busy {
            self.wire_start(now, link);
        }
    }

    fn wire_start(&mut self, now: Time, link: u32) {
        let l = &mut self.links[link as usize];
        let head = l.queue.head().expect("a queued packet to send");
        let done = now + l.tx_time(head);
        l.busy = true;
        self.events.schedule(done, Event::WireTxEnd(link));
    }

    /// The head packet is on the wire: it arrives one propagation delay later.
    pub(super) fn on_wire_tx_end(&mut self, now: Time, link: u32) {
        let l = &mut self.links[link as usize];
        let p = l.queue.pop().expect("the packet being sent");
        l.propagating.push_back(p);
        l.busy = false;
        let at = now + l.delay;
        self.events.schedule(at, Event::WireArrival(link));
        if !self.links[link as usize].queue.is_empty() {
            self.wire_start(now, link);
        }
    }

    pub(super) fn on_wire_arrival(&mut self, now: Time, link: u32) {
        let l = &mut self.links[link as usize];
        let p = l.propagating.pop_front().expect("a packet on the wire");
        if l.to_ap {
            self.ap_from_wire(now, p);
        } else {
            self.tcp_arrive(now, p);
        }
    }
}
