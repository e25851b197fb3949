//! ns-2.35's 802.11 MAC where it departs from the standard (`[mac] profile = "ns2"`, or
//! the scenario's `profile = "ns2"`). The MAC and the world ask [`MacRules`] at build time
//! and at the few places where the two differ; each rule cites ns-2's source
//! (`mac/mac-802_11.cc`, `mac/mac-802_11.h`, `mac/mac-timers.cc`, `tcl/lib/ns-default.tcl`).
use crate::phy::{frame, Phy};
use crate::sim::time::Time;

/// Which MAC rules the channel-access entities follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MacRules {
    /// IEEE 802.11-2012.
    #[default]
    Standard,
    /// ns-2.35's `Mac/802_11`.
    Ns2,
}

/// ns-2's data MAC header: frame control, duration, four addresses, sequence control
/// (`struct hdr_mac802_11` up to `dh_body`, 30 bytes) and the FCS (`ETHER_FCS_LEN`, 4):
/// `PHY_MIB::getHdrLen11` less the PLCP header. ns-2 adds no LLC/SNAP.
pub const NS2_DATA_FRAMING: u32 = 34;

/// `Mac/802_11 set CWMin_ 31`, `CWMax_ 1023` (`tcl/lib/ns-default.tcl`), whatever the PHY.
pub const NS2_CW_MIN: u32 = 31;
pub const NS2_CW_MAX: u32 = 1023;

/// `LL set delay_ 25us` (`tcl/lib/ns-default.tcl`): ns-2's link layer hands a received
/// packet up this long after the MAC (`LL::sendUp`).
pub const NS2_LL_DELAY: Time = 25 * crate::sim::time::US;

impl MacRules {
    /// Bytes a data MPDU adds to the network-layer packet: the standard's 24-byte header,
    /// FCS and RFC 1042 LLC/SNAP (8), or ns-2's [`NS2_DATA_FRAMING`].
    pub fn data_framing(self) -> u32 {
        match self {
            MacRules::Standard => frame::MAC_DATA_OVERHEAD + frame::LLC_SNAP,
            MacRules::Ns2 => NS2_DATA_FRAMING,
        }
    }

    /// The largest backoff counter for a contention window `cw`: the standard draws from
    /// [0, CW] (9.3.4.3); ns-2 from [0, CW − 1] (`BackoffTimer::start`, mac-timers.cc:
    /// `Random::random() % cw`).
    #[inline]
    pub fn max_counter(self, cw: u32) -> u32 {
        match self {
            MacRules::Standard => cw,
            MacRules::Ns2 => cw.saturating_sub(1),
        }
    }

    /// How long after the end of an errored frame (a collision) an entity with AIFS
    /// `aifs` starts counting idle slots. Standard: EIFS − DIFS + AIFS (9.3.7). ns-2: the
    /// errored reception sets the NAV to EIFS (`Mac802_11::recv_timer`,
    /// `set_nav(usec(phymib_.getEIFS()))`), and when the NAV expires the backoff resumes
    /// after a further DIFS (`Mac802_11::navHandler` → `checkBackoffTimer` →
    /// `mhBackoff_.resume(phymib_.getDIFS())`).
    pub fn after_error(self, phy: &Phy, aifs: Time) -> Time {
        match self {
            MacRules::Standard => phy.eifs() - phy.difs + aifs,
            MacRules::Ns2 => phy.eifs() + aifs,
        }
    }

    /// Whether a node whose own transmission ended at `own_end` received in error a frame
    /// that overlapped it and ended (at the node) at `frame_end`, and so defers
    /// [`MacRules::after_error`] after it. Standard: when it heard the tail of a longer
    /// frame, one that outlasts its own by more than the propagation delay `delta`. ns-2:
    /// whenever the frame ends after its transmission, since a frame arriving while the
    /// node transmits is received as errored (`Mac802_11::recv`: `if (tx_active_ && …)
    /// hdr->error() = 1`) and, unless the node still transmits when it ends
    /// (`recv_timer`: a silent discard then), sets the NAV to EIFS like any other errored
    /// frame (`>=`: the reception and the transmission timers of ns-2 firing at one
    /// instant, the reception counts).
    #[inline]
    pub fn tail_is_errored(self, frame_end: Time, own_end: Time, delta: Time) -> bool {
        match self {
            MacRules::Standard => frame_end > own_end + delta,
            MacRules::Ns2 => frame_end >= own_end,
        }
    }

    /// Whether the EIFS after a frame received in error still holds after a later frame
    /// is received correctly. Standard: no, the node resynchronises on the correct frame
    /// and uses DIFS/AIFS again (9.3.7). ns-2: yes, the errored frame set the NAV to EIFS
    /// (`recv_timer`: `set_nav(usec(phymib_.getEIFS()))`), and a NAV is only ever
    /// extended (`set_nav`).
    #[inline]
    pub fn eifs_outlasts_correct_frames(self) -> bool {
        self == MacRules::Ns2
    }

    /// The part of [`MacRules::after_error`] beyond the AIFS: how long after an errored
    /// reception an entity waits before its AIFS (standard: EIFS − DIFS; ns-2: EIFS).
    pub fn eifs_hold(self, phy: &Phy) -> Time {
        self.after_error(phy, 0)
    }

    /// Whether a node locks onto (and so is kept busy by) a frame it senses but cannot
    /// decode: below its receive threshold, or arriving while it transmits. Standard: no,
    /// it detects no preamble then, and only energy detection can hold the medium busy.
    /// ns-2: yes, `WirelessPhy::sendUp` passes a packet between `CSThresh_` and
    /// `RXThresh_` up marked as errored and `Mac802_11::recv` receives it (`pktRx_`) like
    /// any other, as it does a packet that arrives while it transmits.
    #[inline]
    pub fn locks_undecodable(self) -> bool {
        self == MacRules::Ns2
    }

    /// When a frame arriving at `now` for `duration` is ignored because the frame being
    /// received is at least the capture threshold stronger: ns-2 sets the NAV to EIFS plus
    /// its duration (`Mac802_11::capture`: `set_nav(usec(phymib_.getEIFS() + txtime(p)))`),
    /// so the node defers as after an errored frame; the standard keeps no such rule.
    #[inline]
    pub fn capture_nav(self, phy: &Phy, now: Time, duration: Time) -> Option<Time> {
        (self == MacRules::Ns2).then(|| now + phy.eifs() + duration)
    }

    /// Whether the addressee of an RTS answers with a CTS SIFS later. Standard: when its
    /// NAV is idle (802.11-2016 10.3.2.7). ns-2: when its medium is idle altogether, no
    /// reception under way either (`Mac802_11::check_pktCTRL`: `if(!is_idle())` discard).
    #[inline]
    pub fn answers_rts(self, nav_busy: bool, receiving: bool) -> bool {
        !nav_busy && (self != MacRules::Ns2 || !receiving)
    }

    /// Whether the sender of an answered RTS sends its data frame SIFS after the CTS only
    /// if its medium is idle then. Standard: it sends regardless (9.3.2.6). ns-2: if busy,
    /// it backs off with a doubled window instead, its retry counts untouched
    /// (`Mac802_11::check_pktTx`: `if(! is_idle())` `inc_cw()`, backoff).
    #[inline]
    pub fn data_after_cts_needs_idle(self) -> bool {
        self == MacRules::Ns2
    }

    /// When the network layer receives a data frame its addressee decoded, counted from
    /// the end of the frame's reception: standard, when the exchange ends (its ACK sent,
    /// `None`); ns-2, [`NS2_LL_DELAY`] after the frame's end, while its ACK is still to
    /// come (`Mac802_11::recvDATA` passes the frame up before the ACK leaves SIFS later,
    /// and `LL::sendUp` schedules it `delay_` later).
    #[inline]
    pub fn delivery_delay(self) -> Option<Time> {
        (self == MacRules::Ns2).then_some(NS2_LL_DELAY)
    }

    /// Whether a frame that finds the medium idle for DIFS/AIFS and no backoff pending
    /// is sent at once (9.3.4.2). ns-2 always waits DIFS plus a backoff drawn then
    /// (`Mac802_11::send`: `mhDefer_.start(phymib_.getDIFS() + rTime)`).
    pub fn immediate_access(self) -> bool {
        self == MacRules::Standard
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::{Preamble, Standard};
    use crate::sim::time::US;

    #[test]
    fn ns2_defers_eifs_then_difs_after_an_error() {
        let phy = Standard::Ieee80211b.preset(Preamble::Long);
        assert_eq!(phy.eifs(), 364 * US);
        assert_eq!(MacRules::Ns2.after_error(&phy, phy.difs), (364 + 50) * US);
        assert_eq!(MacRules::Standard.after_error(&phy, phy.difs), 364 * US);
    }
}
