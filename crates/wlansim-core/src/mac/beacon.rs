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
use crate::phy::channels::{self, Band};
use crate::phy::ht::{Format, GuardInterval, HtMode};
use crate::phy::{Modulation, Phy};
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
/// units with the high bit on the basic rates; DS Parameter Set (the BSS's `channel`) in
/// the 2.4 GHz band; a TIM (DTIM count 0, period 1, nothing buffered); the ERP element of
/// the 2.4 GHz OFDM PHYs (802.11g, 802.11n); HT Capabilities and HT Operation (802.11n/ac,
/// 9.4.2.56-57) and VHT Capabilities and VHT Operation (802.11ac, 9.4.2.157-158),
/// advertising the PHY's streams, width and guard interval.
pub fn beacon_elements(phy: &Phy, channel: u16, ssid: &str, basic: &[u64]) -> Vec<u8> {
    let ssid = &ssid.as_bytes()[..ssid.len().min(32)];
    let rates: Vec<u8> = phy
        .standard
        .rates()
        .iter()
        .map(|&r| (r / 500_000) as u8 | if basic.contains(&r) { 0x80 } else { 0 })
        .collect();
    let mut e = vec![0, ssid.len() as u8];
    e.extend_from_slice(ssid);
    let (first, rest) = rates.split_at(rates.len().min(8));
    e.extend_from_slice(&[1, first.len() as u8]);
    e.extend_from_slice(first);
    let band24 = phy.band == Band::Ghz2_4;
    if band24 {
        e.extend_from_slice(&[3, 1, channel as u8]);
    }
    e.extend_from_slice(&[5, 4, 0, 1, 0, 0]);
    if band24 && phy.modulation == Modulation::Ofdm {
        e.extend_from_slice(&[42, 1, 0]);
    }
    if !rest.is_empty() {
        e.extend_from_slice(&[50, rest.len() as u8]);
        e.extend_from_slice(rest);
    }
    if let Some(ht) = phy.ht {
        ht_elements(&mut e, ht, channel);
    }
    e
}

/// HT (and VHT) Capabilities and Operation elements of a BSS in `mode` whose primary
/// channel is `channel`.
fn ht_elements(e: &mut Vec<u8>, mode: HtMode, channel: u16) {
    let short = mode.guard_interval == GuardInterval::Short;
    let wide = mode.width_mhz >= 40;
    // HT Capability Information: 20/40 MHz (bit 1), short GI at 20 (bit 5) and 40 (bit 6).
    let info = (u16::from(wide) << 1) | (u16::from(short) << 5) | (u16::from(short && wide) << 6);
    // Supported MCS Set: the Rx MCS bitmask, 8 MCSs per stream, then the Tx set defined.
    let mut mcs = [0u8; 16];
    mcs[..mode.streams as usize].fill(0xff);
    mcs[12] = 1;
    e.extend_from_slice(&[45, 26]);
    e.extend_from_slice(&info.to_le_bytes());
    e.push(0); // A-MPDU parameters
    e.extend_from_slice(&mcs);
    e.extend_from_slice(&[0; 7]); // extended capabilities, beamforming, ASEL
                                  // HT Operation: primary channel; secondary channel above (1) and any width (bit 2) when
                                  // 40 MHz or more; no basic HT-MCS.
    e.extend_from_slice(&[61, 22, channel as u8]);
    e.push(if wide { 1 | 4 } else { 0 });
    e.extend_from_slice(&[0; 20]);
    if mode.format != Format::Vht {
        return;
    }
    // VHT Capabilities Information: 160 MHz (bits 2-3), short GI at 80 (bit 5) and 160
    // (bit 6); Rx and Tx VHT-MCS maps, 2 bits per stream (2: MCS 0-9, 3: none).
    let w160 = mode.width_mhz == 160;
    let cap = (u32::from(w160) << 2) | (u32::from(short) << 5) | (u32::from(short && w160) << 6);
    let map = (0..8).fold(0u16, |m, i| {
        m | (if i < mode.streams as u16 { 2 } else { 3 }) << (2 * i)
    });
    e.extend_from_slice(&[191, 12]);
    e.extend_from_slice(&cap.to_le_bytes());
    for half in [map, 0, map, 0] {
        e.extend_from_slice(&half.to_le_bytes());
    }
    // VHT Operation: channel width (0: 20/40, 1: 80 or 160) and the centre channel of the
    // 80 MHz segment (and of the 160 MHz channel); basic VHT-MCS set: MCS 0-7 on 1 stream.
    let (first, last) =
        channels::span(Band::Ghz5, mode.width_mhz, channel).unwrap_or((channel, channel));
    let centre = ((first + last) / 2) as u8;
    let (width, seg0, seg1) = match mode.width_mhz {
        80 => (1, centre, 0),
        160 => (
            1,
            centre - 8 + 16 * u8::from(channel > (first + last) / 2),
            centre,
        ),
        _ => (0, 0, 0),
    };
    e.extend_from_slice(&[192, 5, width, seg0, seg1]);
    e.extend_from_slice(&0xfffcu16.to_le_bytes());
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
    use crate::phy::{Preamble, Standard};
    use crate::sim::time::US;

    #[test]
    fn an_802_11b_beacon_takes_under_one_percent_of_the_air_at_1_mbps() {
        let phy = Standard::Ieee80211b.preset(Preamble::Long);
        let spec = BeaconSpec {
            interval: 102_400 * US,
            rate: 1_000_000,
            plcp: phy.plcp,
            elements: beacon_elements(&phy, 1, "ap", &[1_000_000]),
        };
        // SSID "ap": 28 + 12 + (2 + 2) + (2 + 4) + 3 + 6 = 59 bytes: 192 + 472 µs.
        assert_eq!(spec.mpdu_bytes(), 59);
        assert_eq!(&spec.elements[4..10], &[1, 4, 0x82, 4, 11, 22]);
        let t = beacon_times(&phy, &spec);
        assert_eq!(t.first_frame, 664 * US);
        assert_eq!(t.end, 664 * US + phy.propagation_delay);
        // ERP adds its element; 802.11a has no DS element; SSIDs stop at 32 bytes.
        let g = beacon_elements(&Standard::Ieee80211g.preset(Preamble::Long), 6, "ap", &[]);
        assert_eq!(g.len(), 4 + 10 + 3 + 6 + 3);
        assert_eq!(&g[14..17], &[3, 1, 6]);
        let a = Standard::Ieee80211a.preset(Preamble::Long);
        let a = beacon_elements(&a, 36, &"x".repeat(40), &[]);
        assert_eq!(a.len(), 34 + 10 + 6);
    }

    #[test]
    fn ht_and_vht_beacons_carry_their_capabilities_and_operation() {
        let n = Standard::Ieee80211n.preset(Preamble::Long);
        let e = beacon_elements(&n, 36, "ap", &[]);
        // 5 GHz: no DS element; HT Capabilities (2 + 26), HT Operation (2 + 22).
        assert_eq!(e.len(), 4 + 10 + 6 + 28 + 24);
        assert_eq!(e[20..22], [45, 26]);
        assert_eq!(e[48..51], [61, 22, 36]);
        let ac = Standard::Ieee80211ac.preset(Preamble::Long);
        let e = beacon_elements(&ac, 44, "ap", &[]);
        assert_eq!(e.len(), 4 + 10 + 6 + 28 + 24 + 14 + 7);
        // VHT Operation of an 80 MHz BSS on 36-48: width 1, centre channel 42.
        assert_eq!(e[e.len() - 7..e.len() - 2], [192, 5, 1, 42, 0]);
    }
}
