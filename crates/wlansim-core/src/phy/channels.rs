//! Channel numbers of each band and which two channels interact.
//!
//! 2.4 GHz (802.11b/g): channels 1-13, centre 2407 + 5·n MHz (802.11-2016 15.4.4.3,
//! 16.3.6.3, 18.4.3); an HR/DSSS or ERP transmission is about 22 MHz wide, so two
//! channels fewer than 5 numbers apart overlap (1, 6 and 11 are the set that does not).
//! 5 GHz (802.11a): the 20 MHz channels 36-64, 100-144 and 149-165 in steps of 4, centre
//! 5000 + 5·n MHz (17.3.8.4.2): distinct numbers never overlap.
//!
//! wlansim models two channels that do not overlap as independent (a frame on one is
//! neither sensed nor heard as interference on the other: the standard's adjacent-channel
//! rejection, 35 dB for HR/DSSS at 25 MHz, puts a neighbouring BSS well below any
//! threshold at the same distance) and refuses overlapping ones (how much of a partly
//! overlapping channel's energy a receiver sees is not modelled).
//!
//! Wider channels (802.11n 40 MHz, 802.11ac 40, 80 and 160 MHz) are named by their
//! primary 20 MHz channel. At 5 GHz a W MHz channel is one of the aligned blocks of W/20
//! channels of its sub-band (36-64, 100-144, 149-161: 40 MHz 36+40, 44+48, …; 80 MHz
//! 36-48, 52-64, 100-112, 116-128, 132-144, 149-161; 160 MHz 36-64, 100-128; 802.11-2020
//! 21.3.14, Annex E); at 2.4 GHz a 40 MHz channel has its secondary channel 4 numbers
//! above the primary (primary 1-9). Two BSSs whose blocks share spectrum overlap.
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The frequency band of a PHY.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Band {
    #[serde(rename = "2.4 GHz")]
    Ghz2_4,
    #[serde(rename = "5 GHz")]
    Ghz5,
}

impl Band {
    pub fn name(self) -> &'static str {
        match self {
            Band::Ghz2_4 => "2.4 GHz",
            Band::Ghz5 => "5 GHz",
        }
    }
}

/// The 20 MHz channels of `band`.
pub fn channels(band: Band) -> Vec<u16> {
    match band {
        Band::Ghz2_4 => (1..=13).collect(),
        Band::Ghz5 => (36..=64)
            .step_by(4)
            .chain((100..=144).step_by(4))
            .chain((149..=165).step_by(4))
            .collect(),
    }
}

/// The channel a BSS uses when the scenario names none: 1 at 2.4 GHz, 36 at 5 GHz.
pub fn default_channel(band: Band) -> u16 {
    channels(band)[0]
}

/// The 20 MHz channels (lowest, highest) a BSS of `width_mhz` with primary channel
/// `primary` occupies, or None if no such channel exists in `band`.
pub fn span(band: Band, width_mhz: u16, primary: u16) -> Option<(u16, u16)> {
    let k = width_mhz / 20;
    if !channels(band).contains(&primary) {
        return None;
    }
    match band {
        Band::Ghz2_4 if k == 1 => Some((primary, primary)),
        Band::Ghz2_4 if k == 2 && primary <= 9 => Some((primary, primary + 4)),
        Band::Ghz2_4 => None,
        Band::Ghz5 => {
            let (base, last) = match primary {
                ..=64 => (36, 64),
                100..=144 => (100, 144),
                _ => (149, 161),
            };
            let first = base + (primary - base) / (4 * k) * 4 * k;
            let top = first + 4 * (k - 1);
            (primary <= last && top <= last).then_some((first, top))
        }
    }
}

/// How two channels of `standard`'s band relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coupling {
    /// The same channel: every frame counts.
    Same,
    /// Channels whose spectra do not overlap: no interaction.
    Separate,
    /// Channels whose spectra overlap partly (2.4 GHz, fewer than 5 numbers apart).
    Overlapping,
}

/// How two BSSs of `width_mhz` on primary channels `a` and `b` of `band` relate (both
/// channels exist: [`span`]).
pub fn coupling(band: Band, width_mhz: u16, a: u16, b: u16) -> Coupling {
    if a == b {
        return Coupling::Same;
    }
    let (sa, sb) = (span(band, width_mhz, a), span(band, width_mhz, b));
    let ((a0, a1), (b0, b1)) = (sa.unwrap_or((a, a)), sb.unwrap_or((b, b)));
    // 2.4 GHz channels 5 MHz apart, each about 22 MHz wide: 5 numbers apart to be clear.
    let guard = if band == Band::Ghz2_4 { 4 } else { 0 };
    if a0 <= b1 + guard && b0 <= a1 + guard {
        Coupling::Overlapping
    } else {
        Coupling::Separate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_non_overlapping_set_of_each_band() {
        let b = Band::Ghz2_4;
        assert_eq!(coupling(b, 20, 1, 6), Coupling::Separate);
        assert_eq!(coupling(b, 20, 6, 11), Coupling::Separate);
        assert_eq!(coupling(b, 20, 1, 3), Coupling::Overlapping);
        assert_eq!(coupling(b, 20, 11, 7), Coupling::Overlapping);
        assert_eq!(coupling(b, 20, 4, 4), Coupling::Same);
        let a = Band::Ghz5;
        assert_eq!(coupling(a, 20, 36, 40), Coupling::Separate);
        assert_eq!(channels(a).len(), 8 + 12 + 5);
        assert_eq!(default_channel(a), 36);
        assert_eq!(default_channel(b), 1);
    }

    #[test]
    fn wide_channels_are_aligned_blocks() {
        let a = Band::Ghz5;
        assert_eq!(span(a, 40, 40), Some((36, 40)));
        assert_eq!(span(a, 80, 44), Some((36, 48)));
        assert_eq!(span(a, 80, 161), Some((149, 161)));
        assert_eq!(span(a, 160, 124), Some((100, 128)));
        assert_eq!(span(a, 160, 132), None);
        assert_eq!(span(a, 40, 165), None);
        assert_eq!(coupling(a, 40, 36, 40), Coupling::Overlapping);
        assert_eq!(coupling(a, 40, 36, 44), Coupling::Separate);
        assert_eq!(coupling(a, 80, 36, 52), Coupling::Separate);
        assert_eq!(coupling(a, 80, 36, 48), Coupling::Overlapping);
        let b = Band::Ghz2_4;
        assert_eq!(span(b, 40, 9), Some((9, 13)));
        assert_eq!(span(b, 40, 10), None);
        assert_eq!(coupling(b, 40, 1, 9), Coupling::Overlapping);
    }
}
