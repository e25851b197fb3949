//! The event queue: a binary heap ordered by (time, insertion sequence), plus a few
//! slots beside it.
//!
//! Ties in time are broken by insertion order, which makes the order of simultaneous
//! events — and so every result — deterministic. Events are small `Copy` values; stale
//! events (a timer that was re-armed, a backoff expiry that a busy medium invalidated) are
//! recognised by a generation number carried in the event and skipped by the handler,
//! which is cheaper than deleting from the heap.
//!
//! A kind of event of which at most one is ever live, and whose newest always makes the
//! older ones obsolete (the medium's next access grant, the end of the current exchange),
//! is kept in its own slot instead of the heap ([`Slot::Newest`]): scheduling it replaces
//! the slot's content. A kind of which mostly one is pending at a time (a frame passed up
//! before its exchange ends) takes its slot when the slot is free and the heap otherwise
//! ([`Slot::Free`]). Popping takes the earliest of the heap's top and the slots. The order
//! of the events that run is the same as with the heap alone (the slots' entries carry
//! their sequence numbers); the heap stays small and the obsolete events are never
//! popped.
use super::time::Time;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

struct Entry<E> {
    at: Time,
    seq: u64,
    event: E,
}

impl<E> Entry<E> {
    /// (time, sequence) as one number: one comparison orders two entries.
    #[inline]
    fn key(&self) -> u128 {
        (u128::from(self.at) << 64) | u128::from(self.seq)
    }
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl<E> Eq for Entry<E> {}
// Reversed: BinaryHeap is a max-heap and we want the earliest event first. The heap's
// sifts compare with `<=`, which the comparisons below give directly.
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
    #[inline]
    fn lt(&self, other: &Self) -> bool {
        other.key() < self.key()
    }
    #[inline]
    fn le(&self, other: &Self) -> bool {
        other.key() <= self.key()
    }
    #[inline]
    fn gt(&self, other: &Self) -> bool {
        other.key() > self.key()
    }
    #[inline]
    fn ge(&self, other: &Self) -> bool {
        other.key() >= self.key()
    }
}
impl<E> Ord for Entry<E> {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        other.key().cmp(&self.key())
    }
}

/// A slot beside the heap (`k < SLOTS`), and how an event of its kind takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// At most one event of the kind is live, the newest: it replaces what slot `k` holds.
    Newest(usize),
    /// Slot `k` when it is free, else the heap.
    Free(usize),
}

/// Which slot beside the heap an event lives in, if any (see the module's text).
pub trait Slotted {
    /// `None` (the default): the heap.
    fn slot(&self) -> Option<Slot> {
        None
    }
}

/// How many slots an event queue keeps beside its heap.
pub const SLOTS: usize = 3;

/// Where a component puts its own events: the world's queue, which wraps them in its
/// event type. Components stay independent of the world's `Event` enum.
pub trait Schedule<E> {
    fn schedule(&mut self, at: Time, event: E);
}

impl<E, W: From<E> + Slotted> Schedule<E> for EventQueue<W> {
    #[inline(always)]
    fn schedule(&mut self, at: Time, event: E) {
        EventQueue::schedule(self, at, event.into());
    }
}

pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    slots: [Option<Entry<E>>; SLOTS],
    next_seq: u64,
    now: Time,
    processed: u64,
}

impl<E: Slotted> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Slotted> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue {
            heap: BinaryHeap::with_capacity(1024),
            slots: [None, None, None],
            next_seq: 0,
            now: 0,
            processed: 0,
        }
    }

    /// Current simulated time (the time of the last event popped).
    #[inline]
    pub fn now(&self) -> Time {
        self.now
    }

    /// Number of events popped so far.
    pub fn processed(&self) -> u64 {
        self.processed
    }

    /// Schedule `event` at absolute time `at` (never in the past). (Inlined everywhere:
    /// the extension's build left it and [`EventQueue::pop_before`] out of line once the
    /// third slot came, +10 instructions per event, docs/benchmarks.md "The speed cell's
    /// run".)
    #[inline(always)]
    pub fn schedule(&mut self, at: Time, event: E) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        let seq = self.next_seq;
        self.next_seq += 1;
        let entry = Entry { at, seq, event };
        match entry.event.slot() {
            Some(Slot::Newest(k)) => self.slots[k] = Some(entry),
            Some(Slot::Free(k)) if self.slots[k].is_none() => self.slots[k] = Some(entry),
            _ => self.heap.push(entry),
        }
    }

    /// Time of the earliest pending event, if any.
    pub fn next_time(&self) -> Option<Time> {
        let slots = self.slots.iter().flatten().map(|e| e.at);
        self.heap
            .peek()
            .map(|e| e.at)
            .into_iter()
            .chain(slots)
            .min()
    }

    /// Pop the earliest event if it happens before `end` (a run covers [0, end)),
    /// advancing the clock.
    #[inline(always)]
    pub fn pop_before(&mut self, end: Time) -> Option<(Time, E)> {
        // The earliest of the heap's top and the slots (None: the heap).
        let mut best: Option<usize> = None;
        let mut key = self.heap.peek().map(|e| (e.at, e.seq));
        for (k, slot) in self.slots.iter().enumerate() {
            if let Some(e) = slot {
                if key.is_none_or(|key| (e.at, e.seq) < key) {
                    key = Some((e.at, e.seq));
                    best = Some(k);
                }
            }
        }
        if key?.0 >= end {
            return None;
        }
        let entry = match best {
            Some(k) => self.slots[k].take()?,
            None => self.heap.pop()?,
        };
        self.now = entry.at;
        self.processed += 1;
        Some((entry.at, entry.event))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Slotted for char {
        /// Upper-case letters live in slot 0; digits take slot 1 when it is free.
        fn slot(&self) -> Option<Slot> {
            if self.is_ascii_uppercase() {
                Some(Slot::Newest(0))
            } else {
                self.is_ascii_digit().then_some(Slot::Free(1))
            }
        }
    }

    impl Slotted for () {}

    #[test]
    fn a_slot_keeps_the_newest_and_pops_in_order() {
        let mut q = EventQueue::new();
        q.schedule(30, 'c');
        q.schedule(10, 'X'); // replaced by the next slot event: never popped
        q.schedule(20, 'a');
        q.schedule(20, 'Y'); // a tie with 'a': inserted later, popped after it
        q.schedule(40, 'd');
        let mut seen = vec![];
        while let Some((t, e)) = q.pop_before(100) {
            seen.push((t, e));
        }
        assert_eq!(seen, vec![(20, 'a'), (20, 'Y'), (30, 'c'), (40, 'd')]);
        assert_eq!(q.processed(), 4);
    }

    #[test]
    fn a_free_slot_keeps_the_first_and_the_heap_the_others() {
        let mut q = EventQueue::new();
        q.schedule(30, '3'); // the slot
        q.schedule(10, '1'); // the heap: the slot is taken
        q.schedule(30, '4'); // the heap, after '3' at the same time
        q.schedule(20, 'b');
        let mut seen = vec![];
        while let Some((t, e)) = q.pop_before(100) {
            seen.push((t, e));
            if e == '1' {
                q.schedule(25, '2'); // the slot is still taken
            }
        }
        let want = vec![(10, '1'), (20, 'b'), (25, '2'), (30, '3'), (30, '4')];
        assert_eq!(seen, want);
    }

    #[test]
    fn pops_in_time_then_insertion_order() {
        let mut q = EventQueue::new();
        q.schedule(30, 'c');
        q.schedule(10, 'a');
        q.schedule(30, 'd');
        q.schedule(20, 'b');
        let mut seen = vec![];
        while let Some((t, e)) = q.pop_before(100) {
            seen.push((t, e));
        }
        assert_eq!(seen, vec![(10, 'a'), (20, 'b'), (30, 'c'), (30, 'd')]);
        assert_eq!(q.processed(), 4);
    }

    /// Interleaved schedules (often before every pending event, often tied) and pops come
    /// out in (time, insertion) order.
    #[test]
    fn pops_keep_time_then_insertion_order() {
        let mut q = EventQueue::new();
        let mut pending: Vec<(Time, u32)> = vec![];
        let mut x: u64 = 7;
        let mut next = move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x >> 33
        };
        for i in 0..20_000u32 {
            if next() % 3 == 0 {
                let want = pending.iter().copied().min_by_key(|&(t, n)| (t, n));
                let got: Option<(Time, u32)> = q.pop_before(Time::MAX);
                assert_eq!(got, want);
                pending.retain(|&p| Some(p) != want);
            } else {
                let at = q.now() + next() % 8;
                q.schedule(at, i);
                pending.push((at, i));
            }
        }
    }

    impl Slotted for u32 {}

    #[test]
    fn stops_at_horizon() {
        let mut q = EventQueue::new();
        q.schedule(5, ());
        q.schedule(15, ());
        assert!(q.pop_before(15).is_some());
        assert!(q.pop_before(15).is_none(), "the end itself is excluded");
        assert_eq!(q.now(), 5);
    }
}
