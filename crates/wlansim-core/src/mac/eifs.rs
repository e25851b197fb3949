//! Where the EIFS that follows a reception in error begins: 802.11-2020's rule, and
//! ns-3.37's departure from it (`profile = "ns3"`).
//!
//! A node that received a frame in error waits EIFS − DIFS more (then AIFS) before it
//! counts idle slots (802.11-2020 10.3.2.3.7). The standard starts EIFS "following
//! indication by the PHY that the medium is idle after detection of the erroneous frame":
//! after a collision of frames of unequal length, when the longest ends. ns-3.37 counts
//! it from the end of the errored reception itself, the medium's idle still awaited
//! (`ChannelAccessManager::GetAccessGrantStart`, src/wifi/model/channel-access-manager.cc:
//! `m_lastRx.end + SIFS + EIFS − DIFS` when the last reception ended in error, beside
//! `m_lastBusyEnd + SIFS`, and `GetBackoffStartFor` adds AIFSN × slot): a node whose PHY
//! locked onto a shorter frame of the collision has passed its EIFS before the longest
//! ends when the two ends are EIFS − DIFS apart or more, and counts AIFS from the idle.
//!
//! Both media apply it: the spatial medium per node, from the end of the frame the node
//! locked onto (`mac/carrier_sense.rs` [`super::carrier_sense::MediumView`]); the shared
//! medium per class of entities, after a collision from the end of the latest-ending
//! frame shorter than the longest (`Shared::errored_end` in `mac/shared.rs`, which says
//! why).
use crate::sim::time::Time;

/// Where the EIFS after a reception in error begins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EifsStart {
    /// 802.11-2020 10.3.2.3.7 (the standard's and ns-2's profiles): when the medium turns
    /// idle after the erroneous frame.
    #[default]
    MediumIdle,
    /// ns-3.37 (`profile = "ns3"`): when the reception in error ends; the entity still
    /// counts from AIFS after the medium's idle at the earliest.
    ReceptionEnd,
}

impl EifsStart {
    /// Where an entity with AIFS `aifs` counts idle slots from after a reception that
    /// ended in error at `errored`, the medium idle from `idle` (not before `errored`);
    /// `hold`: EIFS − DIFS ([`super::MacRules::eifs_hold`]).
    #[inline]
    pub fn countdown_start(self, errored: Time, idle: Time, hold: Time, aifs: Time) -> Time {
        match self {
            EifsStart::MediumIdle => idle + hold + aifs,
            EifsStart::ReceptionEnd => (errored + hold).max(idle) + aifs,
        }
    }

    /// Whether the end of the reception in error matters (else the medium's idle alone
    /// does, and a medium need not work it out).
    #[inline]
    pub fn from_reception(self) -> bool {
        self == EifsStart::ReceptionEnd
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::US;

    /// 802.11n at 5 GHz: EIFS − DIFS = SIFS + an ACK at 6 Mb/s = 16 + 44 µs; AIFS[AC_BE]
    /// = 16 + 3 x 9 µs. A BlockAckReq (32 µs) collided with an A-MPDU (5 ms).
    #[test]
    fn ns3_counts_eifs_from_the_errored_reception_the_standard_from_the_idle() {
        let (hold, aifs) = (60 * US, 43 * US);
        let (bar_end, ampdu_end) = (1032 * US, 6000 * US);
        // The standard: EIFS after the A-MPDU, whichever frame the node locked onto.
        let standard = EifsStart::MediumIdle;
        assert_eq!(
            standard.countdown_start(bar_end, ampdu_end, hold, aifs),
            ampdu_end + hold + aifs
        );
        // ns-3.37, locked onto the BlockAckReq: its EIFS ended while the A-MPDU was on the
        // air, AIFS after the idle.
        let ns3 = EifsStart::ReceptionEnd;
        assert_eq!(
            ns3.countdown_start(bar_end, ampdu_end, hold, aifs),
            ampdu_end + aifs
        );
        // Ends closer than EIFS − DIFS: what is left of the EIFS, then AIFS.
        let close = ampdu_end - 20 * US;
        assert_eq!(
            ns3.countdown_start(close, ampdu_end, hold, aifs),
            close + hold + aifs
        );
        // A frame received in error alone: both rules agree.
        for rule in [standard, ns3] {
            assert_eq!(
                rule.countdown_start(ampdu_end, ampdu_end, hold, aifs),
                ampdu_end + hold + aifs
            );
        }
    }
}
