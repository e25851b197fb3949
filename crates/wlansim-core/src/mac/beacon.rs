//! Beacon frames of an AP (`[[aps]] beacon_interval`, off by default).
//!
//! At every target beacon transmission time (TBTT, k · beacon_interval; the standard's
//! interval is 100 TU = 102.4 ms, 802.11-2016 11.1.3.1) the AP queues a Beacon and sends
//! it by the rules of its channel access: DCF (DIFS, backoff in CW), or with EDCA the
//! parameters of its AC_VO (a QoS AP sends management frames in AC_VO, 10.2.4.2). The
//! beacon has a channel-access entity of its own, next to the AP's, so that it waits
//! behind no data frame; when both reach the same slot the beacon goes first and the
//! data frame backs off as after an internal collision (9.19.2.3). A Beacon is addressed
//! to every station: nobody acknowledges it and it is never retried (10.3.2.1, 9.3.4.4);
//! its sender draws a new backoff after it, as after any frame. It goes at the lowest
//! rate of the BSS basic rate set (10.6.6.2; `phy.control_rate` when the BSS states none).
//! A beacon still queued at the next TBTT is replaced by nothing: the next one is skipped.
use super::ExchangeTimes;
use crate::phy::{Phy, Standard};
use crate::sim::time::Time;

/// An AP's beacons, resolved from the scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BeaconSpec {
    pub interval: Time,
    pub rate: u64,
    /// PLCP of the BSS's preamble.
    pub plcp: Time,
    pub mpdu_bytes: u32,
}

/// The Beacon MPDU (802.11-2016 9.3.3.3, with the elements every BSS carries): MAC header
/// (24) and FCS (4); Timestamp (8), Beacon Interval (2), Capability Information (2); the
/// SSID element (2 + its length, at most 32); Supported Rates (2 + up to 8 rates) and
/// Extended Supported Rates for the rest (2 + the others); DS Parameter Set (3) in the
/// 2.4 GHz PHYs; a TIM (2 + 4 at least); the ERP element (3) of 802.11g.
pub fn beacon_mpdu_bytes(standard: Standard, ssid_len: usize) -> u32 {
    let ssid = 2 + ssid_len.min(32) as u32;
    let rates: u32 = match standard {
        Standard::Ieee80211b => 4,
        Standard::Ieee80211a => 8,
        Standard::Ieee80211g => 12,
    };
    let supported = 2 + rates.min(8);
    let extended = if rates > 8 { 2 + rates - 8 } else { 0 };
    let ds = if standard == Standard::Ieee80211a {
        0
    } else {
        3
    };
    let erp = if standard == Standard::Ieee80211g {
        3
    } else {
        0
    };
    28 + 12 + ssid + supported + extended + ds + 6 + erp
}

/// A Beacon alone on the medium: the frame, then nothing (no ACK).
pub fn beacon_times(phy: &Phy, spec: &BeaconSpec) -> ExchangeTimes {
    let frame = phy.ppdu_time_with(spec.plcp, spec.mpdu_bytes, spec.rate);
    let end = frame + phy.propagation_delay;
    ExchangeTimes {
        rts: false,
        first_frame: frame,
        data_end: end,
        end,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::Preamble;
    use crate::sim::time::US;

    #[test]
    fn an_802_11b_beacon_takes_under_one_percent_of_the_air_at_1_mbps() {
        // SSID "ap": 28 + 12 + 4 + 6 + 3 + 6 = 59 bytes: 192 + 472 µs.
        assert_eq!(beacon_mpdu_bytes(Standard::Ieee80211b, 2), 59);
        let phy = Standard::Ieee80211b.preset(Preamble::Long);
        let spec = BeaconSpec {
            interval: 102_400 * US,
            rate: 1_000_000,
            plcp: phy.plcp,
            mpdu_bytes: 59,
        };
        let t = beacon_times(&phy, &spec);
        assert_eq!(t.first_frame, 664 * US);
        assert_eq!(t.end, 664 * US + phy.propagation_delay);
        // ERP adds the extended rates and the ERP element; 802.11a has no DS element.
        assert_eq!(beacon_mpdu_bytes(Standard::Ieee80211g, 2), 59 + 4 + 6 + 3);
        assert_eq!(
            beacon_mpdu_bytes(Standard::Ieee80211a, 40),
            28 + 12 + 34 + 10 + 6
        );
    }
}
