//! Drop-tail FIFOs of bounded capacity (in packets). Storage grows with what a queue holds,
//! up to its capacity (a few reallocations in a run, none once grown), so that a run of
//! many stations whose queues stay short uses little memory.
use super::Packet;
use std::collections::VecDeque;

#[derive(Clone)]
pub struct DropTail {
    buf: VecDeque<Packet>,
    capacity: usize,
}

impl DropTail {
    pub fn new(capacity: u32) -> Self {
        DropTail {
            buf: VecDeque::new(),
            capacity: capacity as usize,
        }
    }

    /// Append `p`, or give it back if the queue is full (the caller counts the drop).
    #[inline]
    pub fn push(&mut self, p: Packet) -> Result<(), Packet> {
        if self.buf.len() >= self.capacity {
            return Err(p);
        }
        self.buf.push_back(p);
        Ok(())
    }

    #[inline]
    pub fn head(&self) -> Option<&Packet> {
        self.buf.front()
    }

    #[inline]
    pub fn pop(&mut self) -> Option<Packet> {
        self.buf.pop_front()
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    #[inline]
    pub fn is_full(&self) -> bool {
        self.buf.len() >= self.capacity
    }

    pub fn iter(&self) -> impl Iterator<Item = &Packet> {
        self.buf.iter()
    }
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
    pub fn push(&mut self, p: Packet) -> Result<(), Packet> {
        let was_empty = self.is_empty();
        let to_acks = match &mut self.acks {
            Some(a) if p.is_tcp_ack() => {
                a.push(p)?;
                true
            }
            _ => {
                self.data.push(p)?;
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

    #[inline]
    pub fn pop(&mut self) -> Option<Packet> {
        let Some(acks) = &mut self.acks else {
            return self.data.pop();
        };
        let p = if self.serving_acks {
            acks.pop()
        } else {
            self.data.pop()
        };
        // Alternate between the classes when both are backlogged.
        self.serving_acks = if self.serving_acks {
            self.data.is_empty()
        } else {
            !acks.is_empty()
        };
        p
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.data.len() + self.acks.as_ref().map_or(0, DropTail::len)
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.data.is_empty() && self.acks.as_ref().is_none_or(DropTail::is_empty)
    }

    /// The data FIFO is full (what a saturated source sees).
    #[inline]
    pub fn is_full(&self) -> bool {
        self.data.is_full()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Packet> {
        self.data
            .iter()
            .chain(self.acks.iter().flat_map(DropTail::iter))
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
    fn drops_at_capacity_and_keeps_fifo_order() {
        let mut q = DropTail::new(2);
        assert!(q.push(pkt(1)).is_ok());
        assert!(q.push(pkt(2)).is_ok());
        assert_eq!(q.push(pkt(3)).unwrap_err().flow, 3);
        assert_eq!(q.pop().unwrap().flow, 1);
        assert_eq!(q.pop().unwrap().flow, 2);
        assert!(q.pop().is_none());
    }

    #[test]
    fn split_queue_has_separate_capacities_and_alternates() {
        let mut q = TxQueue::split(2, 1);
        assert!(q.push(pkt(1)).is_ok());
        assert!(q.push(ack(10)).is_ok());
        assert!(q.push(pkt(2)).is_ok());
        assert_eq!(q.push(ack(11)).unwrap_err().flow, 11, "A = 1");
        assert_eq!(q.push(pkt(3)).unwrap_err().flow, 3, "T = 2");
        assert_eq!(q.len(), 3);
        // The head chosen first stays the head while an ACK arrives behind it.
        assert_eq!(q.head().unwrap().flow, 1);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).map(|p| p.flow).collect();
        assert_eq!(order, [1, 10, 2]);
    }

    #[test]
    fn head_is_stable_until_popped() {
        let mut q = TxQueue::split(4, 4);
        q.push(pkt(1)).unwrap();
        q.pop();
        q.push(pkt(2)).unwrap();
        q.push(ack(20)).unwrap();
        assert_eq!(q.head().unwrap().flow, 2);
        assert_eq!(q.pop().unwrap().flow, 2);
        assert_eq!(q.pop().unwrap().flow, 20);
    }

    #[test]
    fn shared_queue_mixes_classes_in_one_fifo() {
        let mut q = TxQueue::shared(2);
        q.push(ack(1)).unwrap();
        q.push(pkt(2)).unwrap();
        assert!(q.push(ack(3)).is_err());
        assert_eq!(q.pop().unwrap().flow, 1);
        assert_eq!(q.pop().unwrap().flow, 2);
    }
}
