//! The frames of an exchange and the NAV their Duration field sets at the nodes that
//! decode them without being their addressee (802.11-2012 8.2.4.2 Duration/ID, 8.3.1.2
//! RTS, 8.3.1.3 CTS, 8.3.1.4 ACK, 9.3.2.4 setting and resetting the NAV).
//!
//! Every frame of an exchange but the ACK reserves the medium until the exchange ends:
//! the RTS for CTS + DATA + ACK + 3 SIFS, the CTS for the RTS's Duration less SIFS + CTS,
//! the data frame for SIFS + ACK; the ACK ends it (Duration 0 without fragments), and a
//! broadcast frame reserves nothing. wlansim times an exchange with its propagation delays
//! (`phy/mod.rs` `exchange_offsets`) and so ends every NAV where the exchange ends; the
//! standard's Duration, and ns-2's (`Mac802_11::sendRTS`, `sendCTS`, `sendDATA`), leave the
//! microseconds of propagation out.
use super::ExchangeTimes;
use crate::sim::time::Time;

/// The frames the MAC puts on the air.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame {
    Rts,
    Cts,
    Data,
    Ack,
    /// A broadcast frame (an AP's Beacon): no answer, no NAV.
    Beacon,
}

impl Frame {
    /// Whether the sender waits for an answer (CTS or ACK) after it.
    #[inline]
    pub fn expects_answer(self) -> bool {
        matches!(self, Frame::Rts | Frame::Data)
    }
}

/// Until when a node that decodes `frame` of an exchange that started at `start` with
/// timing `times` (its own addressee excepted) sets its NAV.
#[inline]
pub fn nav_end(frame: Frame, start: Time, times: &ExchangeTimes) -> Time {
    match frame {
        Frame::Rts | Frame::Cts | Frame::Data => start + times.end,
        Frame::Ack | Frame::Beacon => 0,
    }
}
