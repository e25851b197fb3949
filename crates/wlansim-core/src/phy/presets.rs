//! The standard PHY parameter sets.
use super::channels::Band;
use super::ht::{Format, GuardInterval, HtMode};
use super::{frame, Phy};
use crate::sim::time::{Time, US};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Standard {
    #[serde(rename = "802.11b")]
    Ieee80211b,
    #[serde(rename = "802.11a")]
    Ieee80211a,
    #[serde(rename = "802.11g")]
    Ieee80211g,
    /// HT (clause 19), at 2.4 or 5 GHz (`phy.band`).
    #[serde(rename = "802.11n")]
    Ieee80211n,
    /// VHT (clause 21), at 5 GHz.
    #[serde(rename = "802.11ac")]
    Ieee80211ac,
}

/// PLCP preamble + header of DSSS with the long preamble (17.2.2.2): 144 + 48 µs at
/// 1 Mb/s; the short one (17.2.2.3) takes 96 µs, its header at 2 Mb/s.
pub const LONG_DSSS_PLCP: Time = 192 * US;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Preamble {
    #[default]
    Long,
    Short,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modulation {
    Dsss,
    Ofdm,
}

const DSSS_RATES: &[u64] = &[1_000_000, 2_000_000, 5_500_000, 11_000_000];
const OFDM_RATES: &[u64] = &[
    6_000_000, 9_000_000, 12_000_000, 18_000_000, 24_000_000, 36_000_000, 48_000_000, 54_000_000,
];

impl Standard {
    pub fn name(self) -> &'static str {
        match self {
            Standard::Ieee80211b => "802.11b",
            Standard::Ieee80211a => "802.11a",
            Standard::Ieee80211g => "802.11g",
            Standard::Ieee80211n => "802.11n",
            Standard::Ieee80211ac => "802.11ac",
        }
    }

    /// The non-HT rates this PHY has, in bits/s: every rate of 802.11a/b/g; the OFDM
    /// rates of the control frames (and basic rates) of 802.11n/ac, whose data frames go
    /// at an MCS (`phy/ht.rs`).
    pub fn rates(self) -> &'static [u64] {
        match self {
            Standard::Ieee80211b => DSSS_RATES,
            _ => OFDM_RATES,
        }
    }

    /// The HT/VHT format of the data frames (802.11n, 802.11ac); None for 802.11a/b/g.
    pub fn ht_format(self) -> Option<Format> {
        match self {
            Standard::Ieee80211n => Some(Format::Ht),
            Standard::Ieee80211ac => Some(Format::Vht),
            _ => None,
        }
    }

    /// The bands this PHY works in; the first is its default.
    pub fn bands(self) -> &'static [Band] {
        match self {
            Standard::Ieee80211b | Standard::Ieee80211g => &[Band::Ghz2_4],
            Standard::Ieee80211a | Standard::Ieee80211ac => &[Band::Ghz5],
            Standard::Ieee80211n => &[Band::Ghz5, Band::Ghz2_4],
        }
    }

    /// Default parameters in the PHY's default band ([`Standard::preset_in`]).
    pub fn preset(self, preamble: Preamble) -> Phy {
        self.preset_in(preamble, self.bands()[0])
    }

    /// Default parameters. 802.11b: clause 17 (slot 20 µs, SIFS 10 µs, CW 31..1023, long
    /// PLCP 144+48 µs, short 72+24 µs). 802.11a: clause 18 (slot 9, SIFS 16, CW 15..1023,
    /// preamble+SIGNAL 20 µs). 802.11g: ERP-OFDM in a BSS of ERP stations only (short slot
    /// 9 µs, SIFS 10, CW 15..1023, 6 µs signal extension). 802.11n (19.4.4) and 802.11ac
    /// (21.4.4): the OFDM PHY of their band (5 GHz: 802.11a's; 2.4 GHz: 802.11g's, short
    /// slot and signal extension), non-HT control frames, data frames at the highest MCS
    /// of one stream with the 800 ns guard interval, 20 MHz (HT) or 80 MHz (VHT), in QoS
    /// data frames (26-byte header) and, for VHT, inside an A-MPDU (a VHT PPDU always
    /// carries one: a single MPDU goes as a VHT single MPDU, with its 4-byte delimiter).
    pub fn preset_in(self, preamble: Preamble, band: Band) -> Phy {
        let ofdm = match band {
            Band::Ghz2_4 => Standard::Ieee80211g,
            Band::Ghz5 => Standard::Ieee80211a,
        };
        let Some(format) = self.ht_format() else {
            return self.legacy_preset(preamble);
        };
        let width = match format {
            Format::Ht => 20,
            Format::Vht => 80,
        };
        let ht = HtMode::highest(format, 1, width, GuardInterval::Long);
        let delimiter = match format {
            Format::Ht => 0,
            Format::Vht => frame::AMPDU_DELIMITER,
        };
        let legacy = ofdm.legacy_preset(preamble);
        Phy {
            standard: self,
            band,
            data_rate: ht.rate_bps().round() as u64,
            ht: Some(ht),
            data_framing: legacy.data_framing + frame::QOS_CONTROL + delimiter,
            ..legacy
        }
    }

    fn legacy_preset(self, preamble: Preamble) -> Phy {
        let (modulation, slot, sifs, cw_min, plcp, data, control, lowest, ext): (
            Modulation,
            Time,
            Time,
            u32,
            Time,
            u64,
            u64,
            u64,
            Time,
        ) = match self {
            Standard::Ieee80211b => {
                // The short PLCP cannot carry 1 Mb/s (17.2.2.3): its lowest rate is 2 Mb/s.
                let (plcp, lowest) = match preamble {
                    Preamble::Long => (LONG_DSSS_PLCP, 1_000_000),
                    Preamble::Short => (96 * US, 2_000_000),
                };
                (
                    Modulation::Dsss,
                    20 * US,
                    10 * US,
                    31,
                    plcp,
                    11_000_000,
                    lowest,
                    lowest,
                    0,
                )
            }
            Standard::Ieee80211a => (
                Modulation::Ofdm,
                9 * US,
                16 * US,
                15,
                20 * US,
                54_000_000,
                6_000_000,
                6_000_000,
                0,
            ),
            Standard::Ieee80211g => (
                Modulation::Ofdm,
                9 * US,
                10 * US,
                15,
                20 * US,
                54_000_000,
                6_000_000,
                6_000_000,
                6 * US,
            ),
            Standard::Ieee80211n | Standard::Ieee80211ac => unreachable!("an HT PHY"),
        };
        Phy {
            standard: self,
            band: self.bands()[0],
            ht: None,
            modulation,
            slot,
            sifs,
            difs: sifs + 2 * slot,
            cw_min,
            cw_max: 1023,
            plcp,
            data_rate: data,
            control_rate: control,
            lowest_rate: lowest,
            // An ERP PHY's lowest mandatory rate is DSSS's 1 Mb/s (802.11-2012 clause 19), whose ACK
            // takes the long PLCP and 112 µs.
            eifs_ack: (self == Standard::Ieee80211g).then_some(LONG_DSSS_PLCP + 112 * US),
            propagation_delay: US,
            signal_extension: ext,
            data_framing: frame::MAC_DATA_OVERHEAD + frame::LLC_SNAP,
            psdu_time: super::PsduTime::Standard,
        }
    }
}
