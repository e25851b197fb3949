//! Drop-tail FIFOs of bounded capacity (in packets). Storage grows with what a queue holds,
//! up to its capacity (a few reallocations in a run, none once grown), so that a run of
//! many stations whose queues stay short uses little memory.
//!
//! Packets that differ only in their sequence numbers (consecutive) can be queued as one
//! entry, a *run* ([`DropTail::push_run`]): a saturated source's first fill, 50 packets
//! created at once, costs one entry, and each packet of it is built when it comes out.
//!
//! Each entry keeps the time it was queued (what the MSDU lifetime counts from,
//! `mac/lifetime.rs`); a FIFO's times never decrease from its front to its back.
use super::Packet;
use crate::sim::time::Time;
use std::collections::VecDeque;

/// A queued packet, how many more follow it that differ only in their sequence numbers
/// (`packet.seq + 1`, `+ 2`, …), and when they were queued.
#[derive(Clone, Copy)]
struct Entry {
    packet: Packet,
    more: u32,
    queued: Time,
}

#[derive(Clone)]
pub struct DropTail {
    buf: VecDeque<Entry>,
    /// Packets queued (the entries and the packets their runs stand for).
    len: usize,
    /// Packets it takes: its capacity less the places held ([`DropTail::hold`]), so that
    /// a push asks one comparison whether or not anything holds a place.
    capacity: usize,
}

impl DropTail {
    pub fn new(capacity: u32) -> Self {
        DropTail {
            buf: VecDeque::new(),
            len: 0,
            capacity: capacity as usize,
        }
    }

    /// The packet just taken out keeps its place until [`DropTail::release`]: the queue
    /// takes one packet fewer meanwhile.
    #[inline]
    pub fn hold(&mut self) {
        self.capacity -= 1;
    }

    /// `n` places held ([`DropTail::hold`]) are free again.
    #[inline]
    pub fn release(&mut self, n: usize) {
        self.capacity += n;
    }

    /// Append `p` at `now`, or give it back if the queue is full (the caller counts the
    /// drop).
    #[inline]
    pub fn push(&mut self, p: Packet, now: Time) -> Result<(), Packet> {
        if self.len >= self.capacity {
            return Err(p);
        }
        self.buf.push_back(Entry {
            packet: p,
            more: 0,
            queued: now,
        });
        self.len += 1;
        Ok(())
    }

    /// Append `n` packets at `now`, `first` and copies of it with the next `n − 1`
    /// sequence numbers, as one entry. They must fit.
    pub fn push_run(&mut self, first: Packet, n: u32, now: Time) {
        assert!(
            n >= 1 && self.len + n as usize <= self.capacity,
            "a run fits in the queue"
        );
        self.buf.push_back(Entry {
            packet: first,
            more: n - 1,
            queued: now,
        });
        self.len += n as usize;
    }

    #[inline]
    pub fn head(&self) -> Option<&Packet> {
        self.buf.front().map(|e| &e.packet)
    }

    /// When the packet at `place` (an entry's index) was queued.
    #[inline]
    pub fn queued_at(&self, place: usize) -> Time {
        self.buf[place].queued
    }

    #[inline]
    pub fn pop(&mut self) -> Option<Packet> {
        let p = *self.head()?;
        self.remove_head();
        Some(p)
    }

    /// Remove the head, if any, without copying it out (what [`DropTail::pop`] does after
    /// reading it): a run's next packet becomes the head.
    #[inline]
    pub fn remove_head(&mut self) {
        let Some(front) = self.buf.front_mut() else {
            return;
        };
        self.len -= 1;
        if front.more == 0 {
            self.buf.pop_front();
        } else {
            front.packet.seq += 1;
            front.more -= 1;
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn is_full(&self) -> bool {
        self.len >= self.capacity
    }

    /// Packets that still fit.
    #[inline]
    pub fn room(&self) -> usize {
        self.capacity - self.len
    }

    /// The first queued packet that satisfies `pred`, and its place (the entry's index).
    /// The packets of a run differ only in their sequence numbers, so `pred` is asked
    /// once per entry.
    #[inline]
    pub fn find(&self, mut pred: impl FnMut(&Packet) -> bool) -> Option<(usize, &Packet)> {
        self.buf
            .iter()
            .enumerate()
            .find_map(|(i, e)| pred(&e.packet).then_some((i, &e.packet)))
    }

    /// Take the packet at `place` (from [`DropTail::find`]: the first packet of that
    /// entry) out of the queue; the packets around it keep their order.
    #[inline]
    pub fn take(&mut self, place: usize) -> Packet {
        if place == 0 {
            return self.pop().expect("a queued packet");
        }
        let entry = &mut self.buf[place];
        self.len -= 1;
        if entry.more == 0 {
            return self.buf.remove(place).expect("a queued packet").packet;
        }
        let p = entry.packet;
        entry.packet.seq += 1;
        entry.more -= 1;
        p
    }

    /// The last packet queued.
    pub fn back(&self) -> Option<Packet> {
        self.buf.back().map(|e| Packet {
            seq: e.packet.seq + e.more,
            ..e.packet
        })
    }

    /// The queued packets, head first, by entry: the first packet of each and how many
    /// packets it stands for (1, or a run's length).
    pub fn entries(&self) -> impl Iterator<Item = (&Packet, u32)> {
        self.buf.iter().map(|e| (&e.packet, e.more + 1))
    }
}

/// Where a packet stands in a [`TxQueue`] ([`TxQueue::find`]): the head, or an entry of
/// the data or the ACK FIFO.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Head,
    Data(usize),
    Acks(usize),
}

/// The transmit buffer of a channel-access entity: one drop-tail FIFO shared by every
/// packet, or (pilosof2003 §V's rejected baseline) a data FIFO of T packets and a FIFO of
/// A packets for TCP segments without payload, served alternately when both hold packets.
/// The head-of-line packet stays the head until popped, whatever arrives meanwhile (the MAC
/// may be retrying it).
#[derive(Clone)]
pub struct TxQueue {
    data: DropTail,
    acks: Option<DropTail>,
    /// The head-of-line packet is in `acks`.
    serving_acks: bool,
}

impl TxQueue {
    pub fn shared(capacity: u32) -> Self {
        TxQueue {
            data: DropTail::new(capacity),
            acks: None,
            serving_acks: false,
        }
    }

    pub fn split(data: u32, acks: u32) -> Self {
        TxQueue {
            acks: Some(DropTail::new(acks)),
            ..TxQueue::shared(data)
        }
    }

    #[inline]
    pub fn push(&mut self, p: Packet, now: Time) -> Result<(), Packet> {
        let was_empty = self.is_empty();
        let to_acks = match &mut self.acks {
            Some(a) if p.is_tcp_ack() => {
                a.push(p, now)?;
                true
            }
            _ => {
                self.data.push(p, now)?;
                false
            }
        };
        if was_empty {
            self.serving_acks = to_acks;
        }
        Ok(())
    }

    #[inline]
    fn serving(&self) -> &DropTail {
        match &self.acks {
            Some(a) if self.serving_acks => a,
            _ => &self.data,
        }
    }

    #[inline]
    pub fn head(&self) -> Option<&Packet> {
        self.serving().head()
    }

    /// When the packet at `place` (from [`TxQueue::find`]) was queued.
    #[inline]
    pub fn queued_at(&self, place: Place) -> Time {
        match (place, &self.acks) {
            (Place::Head, _) => self.serving().queued_at(0),
            (Place::Data(i), _) => self.data.queued_at(i),
            (Place::Acks(i), Some(acks)) => acks.queued_at(i),
            (Place::Acks(_), None) => unreachable!("no ACK FIFO"),
        }
    }

    #[inline]
    pub fn pop(&mut self) -> Option<Packet> {
        let p = *self.head()?;
        self.remove_head();
        Some(p)
    }

    /// Remove the head-of-line packet, if any, without copying it out (what
    /// [`TxQueue::pop`] does after reading it).
    pub fn remove_head(&mut self) {
        let Some(acks) = &mut self.acks else {
            return self.data.remove_head();
        };
        if self.serving_acks {
            acks.remove_head();
        } else {
            self.data.remove_head();
        }
        // Alternate between the classes when both are backlogged.
        self.serving_acks = if self.serving_acks {
            self.data.is_empty()
        } else {
            !acks.is_empty()
        };
    }

    /// The first queued packet that satisfies `pred`, and its place: the head, else the
    /// data FIFO's packets in order, then the ACK FIFO's (what an A-MPDU to one receiver
    /// takes wherever it stands: `mac/store/aggregate.rs`).
    #[inline]
    pub fn find(&self, mut pred: impl FnMut(&Packet) -> bool) -> Option<(Place, &Packet)> {
        if let Some(head) = self.head().filter(|p| pred(p)) {
            return Some((Place::Head, head));
        }
        let data = self.data.find(&mut pred).map(|(i, p)| (Place::Data(i), p));
        data.or_else(|| {
            let (i, p) = self.acks.as_ref()?.find(pred)?;
            Some((Place::Acks(i), p))
        })
    }

    /// Take the packet at `place` (from [`TxQueue::find`]) out of the queue: the head as
    /// [`TxQueue::pop`] does; any other leaves the head where it is.
    #[inline]
    pub fn take(&mut self, place: Place) -> Packet {
        match (place, &mut self.acks) {
            (Place::Head, _) => self.pop().expect("a queued packet"),
            (Place::Data(i), _) => self.data.take(i),
            (Place::Acks(i), Some(acks)) => acks.take(i),
            (Place::Acks(_), None) => unreachable!("no ACK FIFO"),
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.data.len() + self.acks.as_ref().map_or(0, DropTail::len)
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.data.is_empty() && self.acks.as_ref().is_none_or(DropTail::is_empty)
    }

    /// The queued packets by entry ([`DropTail::entries`]): the data FIFO's, head first,
    /// then the ACK FIFO's.
    pub fn entries(&self) -> impl Iterator<Item = (&Packet, u32)> {
        self.data
            .entries()
            .chain(self.acks.iter().flat_map(DropTail::entries))
    }

    /// The data FIFO: packets that still fit, and the last one queued.
    pub fn data_room(&self) -> usize {
        self.data.room()
    }

    /// The data FIFO is full (what a saturated source sees).
    #[inline]
    pub fn is_full(&self) -> bool {
        self.data.is_full()
    }

    /// The packet just taken from the data FIFO keeps its place there
    /// ([`DropTail::hold`]).
    #[inline]
    pub fn hold_place(&mut self) {
        self.data.hold();
    }

    /// `n` places held in the data FIFO are free again ([`DropTail::release`]).
    #[inline]
    pub fn release_places(&mut self, n: usize) {
        self.data.release(n);
    }

    pub fn data_back(&self) -> Option<Packet> {
        self.data.back()
    }

    /// Append `n` packets of a saturated source to the data FIFO as one entry
    /// ([`DropTail::push_run`]).
    pub fn push_run(&mut self, first: Packet, n: u32, now: Time) {
        let was_empty = self.is_empty();
        self.data.push_run(first, n, now);
        if was_empty {
            self.serving_acks = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::Kind;

    fn pkt(flow: u32) -> Packet {
        Packet::udp(flow, 0, 100, 1, 0, 0)
    }

    fn ack(flow: u32) -> Packet {
        Packet {
            kind: Kind::Tcp,
            payload_bytes: 0,
            ..pkt(flow)
        }
    }

    #[test]
    fn a_run_is_the_packets_it_stands_for() {
        let seq = |p: Packet| (p.flow, p.seq);
        let mut q = DropTail::new(6);
        q.push(pkt(1), 0).unwrap();
        q.push_run(Packet { seq: 7, ..pkt(2) }, 3, 0);
        q.push(pkt(3), 0).unwrap();
        assert_eq!(q.len(), 5);
        let entries = q.entries().map(|(p, n)| (seq(*p), n));
        assert_eq!(
            entries.collect::<Vec<_>>(),
            [((1, 0), 1), ((2, 7), 3), ((3, 0), 1)]
        );
        q.push(pkt(4), 0).unwrap();
        assert!(q.is_full());
        assert_eq!(q.push(pkt(5), 0).unwrap_err().flow, 5);
        let mut out = vec![];
        while let Some(head) = q.head().copied() {
            let p = q.pop().unwrap();
            assert_eq!(seq(head), seq(p), "the head is what pops");
            out.push(seq(p));
        }
        assert_eq!(out, [(1, 0), (2, 7), (2, 8), (2, 9), (3, 0), (4, 0)]);
        assert!(q.is_empty() && q.entries().next().is_none());
        q.push_run(pkt(6), 2, 0);
        assert_eq!((q.room(), q.back().map(seq)), (4, Some((6, 1))));
    }

    #[test]
    #[should_panic(expected = "a run fits in the queue")]
    fn a_run_that_does_not_fit_is_refused() {
        let mut q = DropTail::new(3);
        q.push(pkt(1), 0).unwrap();
        q.push_run(pkt(2), 3, 0);
    }

    #[test]
    fn drops_at_capacity_and_keeps_fifo_order() {
        let mut q = DropTail::new(2);
        assert!(q.push(pkt(1), 0).is_ok());
        assert!(q.push(pkt(2), 0).is_ok());
        assert_eq!(q.push(pkt(3), 0).unwrap_err().flow, 3);
        assert_eq!(q.pop().unwrap().flow, 1);
        assert_eq!(q.pop().unwrap().flow, 2);
        assert!(q.pop().is_none());
    }

    #[test]
    fn split_queue_has_separate_capacities_and_alternates() {
        let mut q = TxQueue::split(2, 1);
        assert!(q.push(pkt(1), 0).is_ok());
        assert!(q.push(ack(10), 0).is_ok());
        assert!(q.push(pkt(2), 0).is_ok());
        assert_eq!(q.push(ack(11), 0).unwrap_err().flow, 11, "A = 1");
        assert_eq!(q.push(pkt(3), 0).unwrap_err().flow, 3, "T = 2");
        assert_eq!(q.len(), 3);
        // The head chosen first stays the head while an ACK arrives behind it.
        assert_eq!(q.head().unwrap().flow, 1);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).map(|p| p.flow).collect();
        assert_eq!(order, [1, 10, 2]);
    }

    #[test]
    fn head_is_stable_until_popped() {
        let mut q = TxQueue::split(4, 4);
        q.push(pkt(1), 0).unwrap();
        q.pop();
        q.push(pkt(2), 0).unwrap();
        q.push(ack(20), 0).unwrap();
        assert_eq!(q.head().unwrap().flow, 2);
        assert_eq!(q.pop().unwrap().flow, 2);
        assert_eq!(q.pop().unwrap().flow, 20);
    }

    #[test]
    fn takes_the_first_packet_for_a_receiver_wherever_it_stands() {
        let to = |hop| move |p: &Packet| p.hop == hop;
        let hop = |p: Packet, hop| Packet { hop, ..p };
        let mut q = TxQueue::shared(10);
        q.push(hop(pkt(1), 7), 0).unwrap();
        q.push(hop(pkt(2), 8), 0).unwrap();
        q.data.push_run(hop(Packet { seq: 4, ..pkt(3) }, 8), 2, 0);
        q.push(hop(pkt(4), 7), 0).unwrap();
        assert!(q.find(to(9)).is_none());
        let (place, p) = q.find(to(8)).unwrap();
        assert_eq!((place, p.flow), (Place::Data(1), 2));
        let mut taken = vec![];
        while let Some((place, _)) = q.find(to(8)) {
            let p = q.take(place);
            taken.push((p.flow, p.seq));
        }
        assert_eq!(taken, [(2, 0), (3, 4), (3, 5)]);
        assert_eq!((q.len(), q.head().unwrap().flow), (2, 1), "the head stays");
        assert_eq!(q.find(to(7)).unwrap().0, Place::Head);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).map(|p| p.flow).collect();
        assert_eq!(order, [1, 4]);
        // A split queue: the head first, then the data FIFO, then the ACK FIFO.
        let mut q = TxQueue::split(4, 4);
        q.push(hop(ack(10), 8), 0).unwrap();
        q.push(hop(pkt(1), 7), 0).unwrap();
        q.push(hop(ack(11), 7), 0).unwrap();
        q.push(hop(pkt(2), 7), 0).unwrap();
        let places: Vec<Place> = std::iter::from_fn(|| {
            let (place, _) = q.find(to(7))?;
            q.take(place);
            Some(place)
        })
        .collect();
        assert_eq!(places, [Place::Data(0), Place::Data(0), Place::Acks(1)]);
        assert_eq!(q.head().unwrap().flow, 10);
    }

    #[test]
    fn shared_queue_mixes_classes_in_one_fifo() {
        let mut q = TxQueue::shared(2);
        q.push(ack(1), 0).unwrap();
        q.push(pkt(2), 0).unwrap();
        assert!(q.push(ack(3), 0).is_err());
        assert_eq!(q.pop().unwrap().flow, 1);
        assert_eq!(q.pop().unwrap().flow, 2);
    }
}
