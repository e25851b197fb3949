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
use super::Standard;

/// The channels of `standard`'s band.
pub fn channels(standard: Standard) -> Vec<u16> {
    match standard {
        Standard::Ieee80211b | Standard::Ieee80211g => (1..=13).collect(),
        Standard::Ieee80211a => (36..=64)
            .step_by(4)
            .chain((100..=144).step_by(4))
            .chain((149..=165).step_by(4))
            .collect(),
    }
}

/// The channel a BSS uses when the scenario names none: 1 at 2.4 GHz, 36 at 5 GHz.
pub fn default_channel(standard: Standard) -> u16 {
    channels(standard)[0]
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

pub fn coupling(standard: Standard, a: u16, b: u16) -> Coupling {
    if a == b {
        return Coupling::Same;
    }
    match standard {
        Standard::Ieee80211b | Standard::Ieee80211g if a.abs_diff(b) < 5 => Coupling::Overlapping,
        _ => Coupling::Separate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_non_overlapping_set_of_each_band() {
        let b = Standard::Ieee80211b;
        assert_eq!(coupling(b, 1, 6), Coupling::Separate);
        assert_eq!(coupling(b, 6, 11), Coupling::Separate);
        assert_eq!(coupling(b, 1, 3), Coupling::Overlapping);
        assert_eq!(coupling(b, 11, 7), Coupling::Overlapping);
        assert_eq!(coupling(b, 4, 4), Coupling::Same);
        let a = Standard::Ieee80211a;
        assert_eq!(coupling(a, 36, 40), Coupling::Separate);
        assert_eq!(channels(a).len(), 8 + 12 + 5);
        assert_eq!(default_channel(a), 36);
        assert_eq!(default_channel(Standard::Ieee80211g), 1);
    }
}
