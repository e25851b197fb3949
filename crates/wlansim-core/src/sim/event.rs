//! The event queue: a binary heap ordered by (time, insertion sequence).
//!
//! Ties in time are broken by insertion order, which makes the order of simultaneous
//! events — and so every result — deterministic. Events are small `Copy` values; stale
//! events (a timer that was re-armed, a backoff expiry that a busy medium invalidated) are
//! recognised by a generation number carried in the event and skipped by the handler,
//! which is cheaper than deleting from the heap.
use super::time::Time;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

struct Entry<E> {
    at: Time,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at && self.seq == other.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    // Reversed: BinaryHeap is a max-heap and we want the earliest event first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

/// Where a component puts its own events: the world's queue, which wraps them in its
/// event type. Components stay independent of the world's `Event` enum.
pub trait Schedule<E> {
    fn schedule(&mut self, at: Time, event: E);
}

impl<E, W: From<E>> Schedule<E> for EventQueue<W> {
    #[inline]
    fn schedule(&mut self, at: Time, event: E) {
        EventQueue::schedule(self, at, event.into());
    }
}

pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
    now: Time,
    processed: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue {
            heap: BinaryHeap::with_capacity(1024),
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

    /// Schedule `event` at absolute time `at` (never in the past).
    #[inline]
    pub fn schedule(&mut self, at: Time, event: E) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Entry { at, seq, event });
    }

    /// Pop the earliest event if it happens before `end` (a run covers [0, end)),
    /// advancing the clock.
    #[inline]
    pub fn pop_before(&mut self, end: Time) -> Option<(Time, E)> {
        if self.heap.peek()?.at >= end {
            return None;
        }
        let entry = self.heap.pop()?;
        self.now = entry.at;
        self.processed += 1;
        Some((entry.at, entry.event))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
