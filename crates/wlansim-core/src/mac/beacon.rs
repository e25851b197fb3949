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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BeaconSpec {
    pub interval: Time,
    pub rate: u64,
    /// PLCP of the BSS's preamble.
    pub plcp: Time,
    /// The information elements of its Beacons ([`beacon_elements`]).
    pub elements: Vec<u8>,
}

impl BeaconSpec {
    /// The Beacon MPDU (802.11-2016 9.3.3.3): MAC header (24) and FCS (4); Timestamp (8),
    /// Beacon Interval (2), Capability Information (2); the elements.
    pub fn mpdu_bytes(&self) -> u32 {
        28 + 12 + self.elements.len() as u32
    }
}

/// The information elements every Beacon carries here (9.4.2): SSID (at most 32 bytes);
/// Supported Rates, up to 8, and Extended Supported Rates for the rest, in 500 kb/s
/// units with the high bit on the basic rates; DS Parameter Set (channel 1) in the
/// 2.4 GHz PHYs; a TIM (DTIM count 0, period 1, nothing buffered); the ERP element of
/// 802.11g.
pub fn beacon_elements(standard: Standard, ssid: &str, basic: &[u64]) -> Vec<u8> {
    let ssid = &ssid.as_bytes()[..ssid.len().min(32)];
    let rates: Vec<u8> = standard
        .rates()
        .iter()
        .map(|&r| (r / 500_000) as u8 | if basic.contains(&r) { 0x80 } else { 0 })
        .collect();
    let mut e = vec![0, ssid.len() as u8];
    e.extend_from_slice(ssid);
    let (first, rest) = rates.split_at(rates.len().min(8));
    e.extend_from_slice(&[1, first.len() as u8]);
    e.extend_from_slice(first);
    if standard != Standard::Ieee80211a {
        e.extend_from_slice(&[3, 1, 1]);
    }
    e.extend_from_slice(&[5, 4, 0, 1, 0, 0]);
    if standard == Standard::Ieee80211g {
        e.extend_from_slice(&[42, 1, 0]);
    }
    if !rest.is_empty() {
        e.extend_from_slice(&[50, rest.len() as u8]);
        e.extend_from_slice(rest);
    }
    e
}

/// A Beacon alone on the medium: the frame, then nothing (no ACK).
pub fn beacon_times(phy: &Phy, spec: &BeaconSpec) -> ExchangeTimes {
    let frame = phy.ppdu_time_with(spec.plcp, spec.mpdu_bytes(), spec.rate);
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
        let phy = Standard::Ieee80211b.preset(Preamble::Long);
        let spec = BeaconSpec {
            interval: 102_400 * US,
            rate: 1_000_000,
            plcp: phy.plcp,
            elements: beacon_elements(Standard::Ieee80211b, "ap", &[1_000_000]),
        };
        // SSID "ap": 28 + 12 + (2 + 2) + (2 + 4) + 3 + 6 = 59 bytes: 192 + 472 µs.
        assert_eq!(spec.mpdu_bytes(), 59);
        assert_eq!(&spec.elements[4..10], &[1, 4, 0x82, 4, 11, 22]);
        let t = beacon_times(&phy, &spec);
        assert_eq!(t.first_frame, 664 * US);
        assert_eq!(t.end, 664 * US + phy.propagation_delay);
        // ERP adds its element; 802.11a has no DS element; SSIDs stop at 32 bytes.
        let g = beacon_elements(Standard::Ieee80211g, "ap", &[]);
        assert_eq!(g.len(), 4 + 10 + 3 + 6 + 3);
        let a = beacon_elements(Standard::Ieee80211a, &"x".repeat(40), &[]);
        assert_eq!(a.len(), 34 + 10 + 6);
    }
}
