//! The standard PHY parameter sets.
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
        }
    }

    /// The data rates this PHY has, in bits/s.
    pub fn rates(self) -> &'static [u64] {
        match self {
            Standard::Ieee80211b => DSSS_RATES,
            Standard::Ieee80211a | Standard::Ieee80211g => OFDM_RATES,
        }
    }

    /// Default parameters. 802.11b: clause 17 (slot 20 µs, SIFS 10 µs, CW 31..1023, long
    /// PLCP 144+48 µs, short 72+24 µs). 802.11a: clause 18 (slot 9, SIFS 16, CW 15..1023,
    /// preamble+SIGNAL 20 µs). 802.11g: ERP-OFDM in a BSS of ERP stations only (short slot
    /// 9 µs, SIFS 10, CW 15..1023, 6 µs signal extension).
    pub fn preset(self, preamble: Preamble) -> Phy {
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
        };
        Phy {
            standard: self,
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
            propagation_delay: US,
            signal_extension: ext,
            data_framing: frame::MAC_DATA_OVERHEAD + frame::LLC_SNAP,
            psdu_time: super::PsduTime::Standard,
        }
    }
}
