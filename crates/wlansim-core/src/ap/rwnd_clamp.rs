//! Receiver-window clamping at the AP (pilosof2003 §V): the advertised window of every ACK
//! the AP forwards becomes min(rwnd, ⌊B/n⌋ segments), with B the AP buffer and n the TCP
//! flows counted by 4-tuple that sent a packet through the AP within the idle timeout.
//! The window is in bytes on the wire: ⌊B/n⌋ segments of the connection's MSS (an AP learns
//! it from the SYN's MSS option). It never goes below one segment, so n > B still lets
//! every flow send (the paper runs n up to 26 flows with B = 100: ⌊100/52⌋ = 1).
use crate::sim::time::Time;

pub struct RwndClamp {
    buffer: u32,
    idle_timeout: Time,
    /// Per flow (a flow is one 4-tuple): when the AP last forwarded one of its packets.
    last_seen: Vec<Option<Time>>,
}

impl RwndClamp {
    pub fn new(buffer: u32, idle_timeout: Time, flows: usize) -> Self {
        RwndClamp {
            buffer,
            idle_timeout,
            last_seen: vec![None; flows],
        }
    }

    /// Room for `flows` flows (flows opened during the run: emulation).
    pub fn grow(&mut self, flows: usize) {
        self.last_seen.resize(flows.max(self.last_seen.len()), None);
    }

    /// A packet of `flow` passes the AP at `now`.
    #[inline]
    pub fn observe(&mut self, flow: u32, now: Time) {
        self.last_seen[flow as usize] = Some(now);
    }

    /// Flows active at `now`.
    pub fn active_flows(&self, now: Time) -> u32 {
        self.last_seen
            .iter()
            .filter(|t| t.is_some_and(|t| now.saturating_sub(t) <= self.idle_timeout))
            .count() as u32
    }

    /// The advertised window (bytes) an ACK leaves the AP with.
    pub fn clamp(&self, now: Time, rwnd: u32, mss: u32) -> u32 {
        let n = self.active_flows(now).max(1);
        let segments = (self.buffer / n).max(1);
        rwnd.min(segments.saturating_mul(mss))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::SECOND;

    #[test]
    fn clamps_to_buffer_share_of_active_flows() {
        let mut c = RwndClamp::new(100, SECOND, 8);
        for f in 0..8 {
            c.observe(f, 0);
        }
        assert_eq!(c.active_flows(0), 8);
        // ⌊100/8⌋ = 12 segments of 1024 B.
        assert_eq!(c.clamp(0, 42 * 1024, 1024), 12 * 1024);
        // A smaller advertised window is kept.
        assert_eq!(c.clamp(0, 5 * 1024, 1024), 5 * 1024);
    }

    #[test]
    fn idle_flows_stop_counting() {
        let mut c = RwndClamp::new(100, SECOND, 4);
        c.observe(0, 0);
        c.observe(1, 0);
        c.observe(2, 3 * SECOND);
        assert_eq!(c.active_flows(3 * SECOND), 1);
        assert_eq!(c.clamp(3 * SECOND, u32::MAX, 1000), 100 * 1000);
    }

    #[test]
    fn never_below_one_segment() {
        let mut c = RwndClamp::new(2, SECOND, 5);
        for f in 0..5 {
            c.observe(f, 0);
        }
        assert_eq!(c.clamp(0, 42_000, 1000), 1000);
    }
}
