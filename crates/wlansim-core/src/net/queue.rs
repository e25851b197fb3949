//! Drop-tail FIFO of bounded capacity (in packets); storage is allocated once.
use super::Packet;
use std::collections::VecDeque;

pub struct DropTail {
    buf: VecDeque<Packet>,
    capacity: usize,
}

impl DropTail {
    pub fn new(capacity: u32) -> Self {
        DropTail {
            buf: VecDeque::with_capacity(capacity as usize),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(flow: u32) -> Packet {
        Packet {
            flow,
            dst: 0,
            payload_bytes: 100,
            created: 0,
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
}
