//! The airtime of one frame exchange: RTS/CTS when the MPDU is longer than
//! dot11RTSThreshold (802.11-2012 9.3.2.6), the data frame, the ACK after SIFS (9.3.2.8).
//! Every part of the simulator that needs the length of an exchange asks here.
use crate::phy::{LinkTimes, Phy};
use crate::sim::time::Time;

/// Offsets from the start of an exchange of one data frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExchangeTimes {
    /// RTS/CTS precede the data frame.
    pub rts: bool,
    /// Duration of the first frame the sender puts on the air (RTS or the data frame):
    /// what a collision costs it.
    pub first_frame: Time,
    /// End of the data frame's reception.
    pub data_end: Time,
    /// End of the ACK's reception: the end of a successful exchange.
    pub end: Time,
}

/// Whether RTS/CTS precedes a data frame of `mpdu_bytes`: when it is longer than
/// dot11RTSThreshold (9.3.2.6); `None`: never (the threshold off).
#[inline]
pub fn uses_rts(rts_threshold: Option<u32>, mpdu_bytes: u32) -> bool {
    rts_threshold.is_some_and(|t| mpdu_bytes > t)
}

/// The exchange that carries a network-layer packet of `ip_bytes` on `link` (its rates:
/// `phy/rates.rs`).
#[inline]
pub fn exchange_times(
    phy: &Phy,
    link: &LinkTimes,
    rts_threshold: Option<u32>,
    ip_bytes: u32,
) -> ExchangeTimes {
    let mpdu = phy.data_mpdu_bytes(ip_bytes);
    let uses_rts = uses_rts(rts_threshold, mpdu);
    let (data_end, end) = phy.exchange_offsets(link, uses_rts, ip_bytes);
    ExchangeTimes {
        rts: uses_rts,
        first_frame: if uses_rts {
            link.rts
        } else {
            link.data(phy, mpdu)
        },
        data_end,
        end,
    }
}
