//! One-shot timers re-armed lazily. Restarting the retransmission timer on every ACK
//! (RFC 6298 §5.3) would put one event per ACK into the simulator's queue; instead, when the
//! new deadline is later than the callback already requested, only the deadline is
//! recorded, and the early callback re-arms itself for the real deadline. Cancelling only
//! clears the deadline. Stale callbacks are recognised by their generation number.

use super::{TcpOutput, TimerKind};
use crate::sim::time::Time;

#[derive(Debug, Clone)]
pub(crate) struct LazyTimer {
    kind: TimerKind,
    generation: u32,
    /// When the simulator will call back with the current generation.
    armed_at: Option<Time>,
    /// When the timer really expires (`None` = not running).
    deadline: Option<Time>,
}

impl LazyTimer {
    pub(crate) fn new(kind: TimerKind) -> Self {
        LazyTimer {
            kind,
            generation: 0,
            armed_at: None,
            deadline: None,
        }
    }

    pub(crate) fn is_running(&self) -> bool {
        self.deadline.is_some()
    }

    pub(crate) fn deadline(&self) -> Option<Time> {
        self.deadline
    }

    /// (Re)start the timer to expire at `at`.
    pub(crate) fn set(&mut self, at: Time, out: &mut impl TcpOutput) {
        self.deadline = Some(at);
        match self.armed_at {
            Some(a) if a <= at => {} // the pending callback will re-arm for `at`
            _ => self.arm(at, out),
        }
    }

    pub(crate) fn cancel(&mut self) {
        self.deadline = None;
    }

    fn arm(&mut self, at: Time, out: &mut impl TcpOutput) {
        self.generation = self.generation.wrapping_add(1);
        self.armed_at = Some(at);
        out.arm_timer(self.kind, at, self.generation);
    }

    /// Handle a callback; true if the timer has expired now.
    pub(crate) fn fire(&mut self, now: Time, generation: u32, out: &mut impl TcpOutput) -> bool {
        if generation != self.generation || self.armed_at.is_none() {
            return false; // stale
        }
        self.armed_at = None;
        match self.deadline {
            None => false,
            Some(d) if d > now => {
                self.arm(d, out);
                false
            }
            Some(_) => {
                self.deadline = None;
                true
            }
        }
    }
}
