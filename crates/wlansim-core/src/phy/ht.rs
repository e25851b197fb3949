//! HT (802.11n, IEEE 802.11-2020 clause 19) and VHT (802.11ac, clause 21) data PPDUs: a
//! modulation and coding scheme (MCS) per spatial stream, 1-4 streams, a channel width
//! and a guard interval give the data bits of each OFDM symbol, and from them the rate
//! and the time on air of a PSDU.
//!
//! - MCS 0-7 (HT and VHT), 8-9 (VHT): BPSK 1/2, QPSK 1/2, QPSK 3/4, 16-QAM 1/2, 16-QAM
//!   3/4, 64-QAM 2/3, 64-QAM 3/4, 64-QAM 5/6, 256-QAM 3/4, 256-QAM 5/6 (19.5, 21.5). HT
//!   numbers its MCSs 0-31 across streams (MCS 8·(N_SS − 1) + m); here the index is per
//!   stream, as VHT's, with the streams apart.
//! - Data subcarriers N_SD: 52 (20 MHz), 108 (40 MHz), 234 (80 MHz), 468 (160 MHz).
//!   N_DBPS = N_SD · N_BPSCS · R · N_SS per symbol of 4 µs (800 ns guard interval) or
//!   3.6 µs (400 ns, "short GI").
//! - BCC encoders N_ES: the tables of 19.5 and 21.5 give one encoder per 300 Mb/s (HT) or
//!   540 Mb/s (VHT) of the 800 ns rate (N_DBPS ≤ 1200 or 2160 bits per encoder), except a
//!   few VHT combinations listed there (of 1-4 streams: 160 MHz, 4 streams, MCS 7 takes
//!   6 encoders instead of 5). The tail of the PSDU carries 6 bits per encoder.
//! - Combinations the VHT tables leave out (N_DBPS not a whole number of bits per
//!   encoder and interleaver): MCS 9 at 20 MHz except with 3 (or 6) streams, MCS 6 at
//!   80 MHz with 3 (or 7) streams, MCS 9 at 160 MHz with 3 streams (21.5).
//!
//! Preambles (19.3.2 HT-mixed format, 21.3.2 VHT): L-STF 8 µs + L-LTF 8 + L-SIG 4, then
//! HT-SIG 8 + HT-STF 4 + N_LTF · 4 (HT) or VHT-SIG-A 8 + VHT-STF 4 + N_LTF · 4 +
//! VHT-SIG-B 4 (VHT), with N_LTF = 1, 2, 4, 4 long training fields for 1-4 streams.
//!
//! TXTIME (19.4.3, 21.4.3): preamble + N_SYM symbols, N_SYM = ⌈(16 + 8·L + 6·N_ES) /
//! N_DBPS⌉ (SERVICE, PSDU, tail), L the PSDU length (for VHT the A-MPDU's APEP_LENGTH);
//! with the 400 ns guard interval the symbols are counted in whole 4 µs periods,
//! 4 µs · ⌈3.6 µs · N_SYM / 4 µs⌉ (the L-SIG's spoofed duration rounds there); then the
//! 2.4 GHz band's 6 µs signal extension (added by [`super::Phy`]).
//!
//! `profile = "ns3"` ([`PsduTime::Ns3`]) times these PPDUs as ns-3.37 does, with two
//! departures from the standard: no VHT-SIG-B in a VHT SU PPDU ([`HtMode::sig_b`]) and
//! 400 ns guard-interval symbols of 3.6 µs each without the rounding to 4 µs
//! ([`HtMode::data_time`]).
//!
//! Control responses to an HT/VHT frame compare basic rates with the frame's non-HT
//! reference rate (10.6.6.5.2): the OFDM rate of its modulation and code rate (6 for BPSK
//! 1/2 … 54 Mb/s for 64-QAM 3/4, and 54 for 64-QAM 5/6 and 256-QAM).
use super::PsduTime;
use crate::sim::time::{Time, US};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The guard interval of HT/VHT data symbols.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum GuardInterval {
    /// 800 ns: 4 µs symbols.
    #[default]
    Long,
    /// 400 ns: 3.6 µs symbols.
    Short,
}

/// HT-mixed (802.11n) or VHT (802.11ac) PPDU format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Ht,
    Vht,
}

/// One HT or VHT data mode: the PPDU format, the MCS per stream, the spatial streams, the
/// channel width (MHz) and the guard interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HtMode {
    pub format: Format,
    pub mcs: u8,
    pub streams: u8,
    pub width_mhz: u16,
    pub guard_interval: GuardInterval,
}

/// (bits per subcarrier symbol, code rate numerator, denominator) of MCS 0-9.
const MCS: [(u8, u8, u8); 10] = [
    (1, 1, 2),
    (2, 1, 2),
    (2, 3, 4),
    (4, 1, 2),
    (4, 3, 4),
    (6, 2, 3),
    (6, 3, 4),
    (6, 5, 6),
    (8, 3, 4),
    (8, 5, 6),
];

/// The channel widths of each format, MHz.
pub const HT_WIDTHS: &[u16] = &[20, 40];
pub const VHT_WIDTHS: &[u16] = &[20, 40, 80, 160];
/// Spatial streams wlansim models.
pub const MAX_STREAMS: u8 = 4;

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Ht => "HT (802.11n)",
            Format::Vht => "VHT (802.11ac)",
        }
    }

    /// The highest MCS index per stream.
    pub fn max_mcs(self) -> u8 {
        match self {
            Format::Ht => 7,
            Format::Vht => 9,
        }
    }

    pub fn widths(self) -> &'static [u16] {
        match self {
            Format::Ht => HT_WIDTHS,
            Format::Vht => VHT_WIDTHS,
        }
    }
}

impl HtMode {
    /// Bits per subcarrier symbol N_BPSCS (1 BPSK … 8 256-QAM).
    pub fn constellation_bits(self) -> u8 {
        MCS[self.mcs as usize].0
    }

    /// Code rate as (numerator, denominator).
    pub fn code_rate(self) -> (u8, u8) {
        let (_, n, d) = MCS[self.mcs as usize];
        (n, d)
    }

    /// Data subcarriers N_SD of the width.
    pub fn data_subcarriers(self) -> u64 {
        match self.width_mhz {
            20 => 52,
            40 => 108,
            80 => 234,
            _ => 468,
        }
    }

    /// Data bits per OFDM symbol, N_DBPS.
    pub fn bits_per_symbol(self) -> u64 {
        let (bits, n, d) = MCS[self.mcs as usize];
        self.data_subcarriers() * bits as u64 * self.streams as u64 * n as u64 / d as u64
    }

    /// Duration of a data symbol: 4 µs, or 3.6 µs with the short guard interval.
    pub fn symbol(self) -> Time {
        match self.guard_interval {
            GuardInterval::Long => 4 * US,
            GuardInterval::Short => 3_600,
        }
    }

    /// The data rate, bits/s (N_DBPS over the symbol).
    pub fn rate_bps(self) -> f64 {
        self.bits_per_symbol() as f64 * 1e9 / self.symbol() as f64
    }

    /// BCC encoders N_ES (19.5, 21.5): see the module's notes.
    pub fn encoders(self) -> u64 {
        let per_encoder = match self.format {
            Format::Ht => 1200,
            Format::Vht => 2160,
        };
        if self.format == Format::Vht && (self.width_mhz, self.streams, self.mcs) == (160, 4, 7) {
            return 6;
        }
        self.bits_per_symbol().div_ceil(per_encoder)
    }

    /// Long training fields: 1, 2, 4, 4 for 1-4 streams (19.3.9.4.6, 21.3.8.3.5).
    pub fn training_fields(self) -> Time {
        match self.streams {
            1 => 1,
            2 => 2,
            _ => 4,
        }
    }

    /// The PPDU's preamble and signal fields before its data symbols, timed by `timing`.
    pub fn preamble(self, timing: PsduTime) -> Time {
        let legacy = 8 * US + 8 * US + 4 * US; // L-STF, L-LTF, L-SIG
        let training = 4 * US + self.training_fields() * 4 * US; // (V)HT-STF, LTFs
        match self.format {
            Format::Ht => legacy + 8 * US + training, // HT-SIG
            Format::Vht => legacy + 8 * US + training + self.sig_b(timing), // VHT-SIG-A
        }
    }

    /// VHT-SIG-B of a VHT PPDU: one 4 µs symbol in every VHT PPDU, SU or MU (802.11-2020
    /// 21.3.2, Figure 21-4; 21.3.8.3.6; T_VHT-SIG-B in 21.4.3's TXTIME). ns-3.37 leaves it
    /// out of an SU PPDU (`VhtPhy::GetSigBDuration`, src/wifi/model/vht/vht-phy.cc: 4 µs
    /// only for `WIFI_PREAMBLE_VHT_MU`), and wlansim's VHT PPDUs are SU: 0 under
    /// [`PsduTime::Ns3`].
    fn sig_b(self, timing: PsduTime) -> Time {
        match timing {
            PsduTime::Ns3 => 0,
            PsduTime::Standard | PsduTime::Unrounded => 4 * US,
        }
    }

    /// OFDM data symbols N_SYM of a PSDU of `psdu_bytes` (BCC, no STBC).
    pub fn symbols(self, psdu_bytes: u32) -> u64 {
        (16 + 8 * psdu_bytes as u64 + 6 * self.encoders()).div_ceil(self.bits_per_symbol())
    }

    /// The data field of `symbols` OFDM symbols. 800 ns guard interval: 4 µs each. 400 ns:
    /// 802.11-2020's TXTIME counts them in whole 4 µs periods, T_SYML · ⌈T_SYMS · N_SYM /
    /// T_SYML⌉ (19.4.3, 21.4.3), where ns-3.37 takes N_SYM · 3.6 µs as it is
    /// (`HtPhy::GetPayloadDuration`, src/wifi/model/ht/ht-phy.cc: `numSymbols ·
    /// symbolDuration`, `GetSymbolDuration` 3,200 + 400 ns): under [`PsduTime::Ns3`].
    pub fn data_time(self, symbols: u64, timing: PsduTime) -> Time {
        match (self.guard_interval, timing) {
            (GuardInterval::Long, _) => symbols * 4 * US,
            (GuardInterval::Short, PsduTime::Ns3) => symbols * 3_600,
            (GuardInterval::Short, PsduTime::Standard | PsduTime::Unrounded) => {
                (symbols * 3_600).div_ceil(4 * US) * 4 * US
            }
        }
    }

    /// TXTIME of a PSDU of `psdu_bytes` without the signal extension, timed by `timing`
    /// (the standard's, or ns-3.37's under [`PsduTime::Ns3`]; ns-2's `Unrounded` has no
    /// HT/VHT PHY and counts as the standard's here).
    pub fn ppdu_time(self, psdu_bytes: u32, timing: PsduTime) -> Time {
        self.preamble(timing) + self.data_time(self.symbols(psdu_bytes), timing)
    }

    /// The non-HT reference rate (10.6.6.5.2), bits/s.
    pub fn non_ht_reference_rate(self) -> u64 {
        const M: u64 = 1_000_000;
        match self.mcs {
            0 => 6 * M,
            1 => 12 * M,
            2 => 18 * M,
            3 => 24 * M,
            4 => 36 * M,
            5 => 48 * M,
            _ => 54 * M,
        }
    }

    /// Why this mode does not exist, or `Ok`: the key (`mcs`, `streams`, `channel_width`)
    /// at fault and what is allowed.
    pub fn check(self) -> Result<(), (&'static str, String)> {
        let name = self.format.name();
        if self.mcs > self.format.max_mcs() {
            return Err((
                "mcs",
                format!(
                    "{}: {name} has MCS 0 to {} per spatial stream{}",
                    self.mcs,
                    self.format.max_mcs(),
                    if self.format == Format::Ht {
                        " (HT's MCS 8-31 are these with 2-4 streams: set streams)"
                    } else {
                        ""
                    }
                ),
            ));
        }
        if !(1..=MAX_STREAMS).contains(&self.streams) {
            return Err((
                "streams",
                format!("{}: 1 to {MAX_STREAMS} spatial streams", self.streams),
            ));
        }
        if !self.format.widths().contains(&self.width_mhz) {
            let list: Vec<String> = self.format.widths().iter().map(u16::to_string).collect();
            return Err((
                "channel_width",
                format!(
                    "{} MHz: {name} channels are {} MHz wide",
                    self.width_mhz,
                    list.join(", ")
                ),
            ));
        }
        let excluded = self.format == Format::Vht
            && matches!(
                (self.mcs, self.width_mhz, self.streams),
                (9, 20, 1 | 2 | 4) | (6, 80, 3) | (9, 160, 3)
            );
        if excluded {
            return Err((
                "mcs",
                format!(
                    "{}: VHT MCS {} does not exist at {} MHz with {} spatial stream{} \
                     (802.11-2020 21.5: its bits do not divide among the encoders); \
                     the highest there is MCS {}",
                    self.mcs,
                    self.mcs,
                    self.width_mhz,
                    self.streams,
                    if self.streams == 1 { "" } else { "s" },
                    self.mcs - 1
                ),
            ));
        }
        Ok(())
    }

    /// The highest MCS of `format` at this width and stream count (the default MCS).
    pub fn highest(format: Format, streams: u8, width_mhz: u16, gi: GuardInterval) -> HtMode {
        let mut mode = HtMode {
            format,
            mcs: format.max_mcs(),
            streams,
            width_mhz,
            guard_interval: gi,
        };
        while mode.mcs > 0 && mode.check().is_err_and(|(key, _)| key == "mcs") {
            mode.mcs -= 1;
        }
        mode
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ht(mcs: u8, streams: u8, width_mhz: u16, gi: GuardInterval) -> HtMode {
        HtMode {
            format: Format::Ht,
            mcs,
            streams,
            width_mhz,
            guard_interval: gi,
        }
    }

    fn vht(mcs: u8, streams: u8, width_mhz: u16, gi: GuardInterval) -> HtMode {
        HtMode {
            format: Format::Vht,
            ..ht(mcs, streams, width_mhz, gi)
        }
    }

    const L: GuardInterval = GuardInterval::Long;
    const S: GuardInterval = GuardInterval::Short;
    const STD: PsduTime = PsduTime::Standard;
    const NS3: PsduTime = PsduTime::Ns3;

    #[test]
    fn rates_of_the_standards_tables() {
        // 802.11-2020 Tables 19-27 (HT 20 MHz), 19-28 (40 MHz); 21-30… (VHT), Mb/s.
        let cases = [
            (ht(0, 1, 20, L), 6.5),
            (ht(7, 1, 20, L), 65.0),
            (ht(7, 1, 20, S), 72.2),
            (ht(7, 1, 40, L), 135.0),
            (ht(7, 1, 40, S), 150.0),
            (ht(7, 2, 20, L), 130.0),
            (ht(7, 4, 40, S), 600.0),
            (vht(8, 1, 20, L), 78.0),
            (vht(9, 1, 40, L), 180.0),
            (vht(9, 1, 80, L), 390.0),
            (vht(9, 1, 80, S), 433.3),
            (vht(9, 1, 160, S), 866.7),
            (vht(9, 3, 20, L), 260.0),
            (vht(9, 4, 160, S), 3466.7),
        ];
        for (mode, mbps) in cases {
            assert!((mode.rate_bps() / 1e6 - mbps).abs() < 0.05, "{mode:?}");
        }
    }

    #[test]
    fn encoders_follow_the_tables() {
        assert_eq!(ht(7, 2, 40, S).encoders(), 1); // 300 Mb/s
        assert_eq!(ht(5, 3, 40, L).encoders(), 2); // 324 Mb/s (MCS 21)
        assert_eq!(ht(7, 4, 40, S).encoders(), 2); // 600 Mb/s (MCS 31)
        assert_eq!(vht(9, 1, 80, S).encoders(), 1);
        assert_eq!(vht(9, 1, 160, L).encoders(), 2); // 780 Mb/s
        assert_eq!(vht(9, 4, 80, S).encoders(), 3); // 1733 Mb/s
        assert_eq!(vht(7, 4, 160, L).encoders(), 6); // the tables' exception
        assert_eq!(vht(9, 4, 160, S).encoders(), 6); // 3467 Mb/s
    }

    #[test]
    fn txtime_of_a_1538_byte_mpdu() {
        // HT-mixed, 1 stream: 36 µs of preamble; MCS 7 at 40 MHz: 540 bits per symbol,
        // (16 + 12304 + 6) / 540 → 23 symbols = 92 µs.
        assert_eq!(ht(7, 1, 40, L).ppdu_time(1538, STD), 128 * US);
        // 20 MHz, 400 ns GI: 260 bits → 48 symbols of 3.6 µs = 172.8 µs → 176 µs.
        assert_eq!(ht(7, 1, 20, S).ppdu_time(1538, STD), (36 + 176) * US);
        // VHT: 40 µs of preamble (VHT-SIG-B); 1542 bytes (the S-MPDU's delimiter) at MCS 9,
        // 80 MHz: 1560 bits → 8 symbols.
        assert_eq!(vht(9, 1, 80, L).ppdu_time(1542, STD), (40 + 32) * US);
        // 2 streams: 2 HT-LTFs; 3 or 4: 4.
        assert_eq!(ht(0, 2, 20, L).preamble(STD), 40 * US);
        assert_eq!(vht(0, 3, 20, L).preamble(STD), 52 * US);
    }

    #[test]
    fn ns3_leaves_vht_sig_b_out_of_an_su_ppdu() {
        // The S-MPDU of a 1472-byte UDP packet (1542 bytes) at VHT MCS 9, 80 MHz: 8
        // symbols under both; the preamble 40 µs (standard) or 36 µs (ns-3.37).
        for mode in [
            vht(9, 1, 80, L),
            vht(8, 1, 20, L),
            vht(9, 1, 40, L),
            vht(0, 3, 20, L),
        ] {
            let (std, ns3) = (mode.ppdu_time(1542, STD), mode.ppdu_time(1542, NS3));
            assert_eq!(std - ns3, 4 * US, "{mode:?}");
        }
        assert_eq!(vht(9, 1, 80, L).ppdu_time(1542, NS3), (36 + 32) * US);
        // HT has no SIG-B: its long-GI PPDUs are the same under both.
        assert_eq!(
            ht(7, 1, 20, L).ppdu_time(1538, NS3),
            ht(7, 1, 20, L).ppdu_time(1538, STD)
        );
    }

    #[test]
    fn ns3_counts_short_gi_symbols_unrounded() {
        // HT MCS 7, 20 MHz, 400 ns GI, 1538 bytes: 48 symbols. The standard: 172.8 µs in
        // whole 4 µs, 176 µs; ns-3.37: 48 · 3.6 = 172.8 µs.
        let mode = ht(7, 1, 20, S);
        assert_eq!(mode.symbols(1538), 48);
        assert_eq!(mode.data_time(48, STD), 176 * US);
        assert_eq!(mode.data_time(48, NS3), 172_800);
        assert_eq!(mode.ppdu_time(1538, NS3), 36 * US + 172_800);
        // Both rounding ways agree on a multiple of 10 symbols (36 µs): 10 · 3.6 = 36.
        assert_eq!(mode.data_time(10, STD), mode.data_time(10, NS3));
        // VHT with the short GI: both departures. MCS 9, 80 MHz, 1542 bytes: 8 symbols,
        // standard 40 + 32 µs (28.8 rounded), ns-3.37 36 + 28.8 µs.
        let v = vht(9, 1, 80, S);
        assert_eq!(v.ppdu_time(1542, STD), (40 + 32) * US);
        assert_eq!(v.ppdu_time(1542, NS3), 36 * US + 28_800);
    }

    #[test]
    fn excluded_combinations_are_refused_and_the_default_mcs_avoids_them() {
        assert_eq!(vht(9, 1, 20, L).check().unwrap_err().0, "mcs");
        assert!(vht(9, 3, 20, L).check().is_ok());
        assert_eq!(vht(6, 3, 80, L).check().unwrap_err().0, "mcs");
        assert_eq!(vht(9, 3, 160, S).check().unwrap_err().0, "mcs");
        assert_eq!(ht(8, 1, 20, L).check().unwrap_err().0, "mcs");
        assert_eq!(ht(7, 1, 80, L).check().unwrap_err().0, "channel_width");
        assert_eq!(ht(7, 5, 20, L).check().unwrap_err().0, "streams");
        assert_eq!(HtMode::highest(Format::Vht, 1, 20, L).mcs, 8);
        assert_eq!(HtMode::highest(Format::Vht, 3, 20, L).mcs, 9);
        assert_eq!(HtMode::highest(Format::Ht, 2, 40, L).mcs, 7);
        // Every combination the check lets through has whole bits per encoder.
        for format in [Format::Ht, Format::Vht] {
            for &w in format.widths() {
                for n in 1..=MAX_STREAMS {
                    for mcs in 0..=format.max_mcs() {
                        let m = HtMode {
                            format,
                            ..ht(mcs, n, w, L)
                        };
                        if m.check().is_ok() {
                            let (bits, num, den) = MCS[mcs as usize];
                            let total = m.data_subcarriers() * bits as u64 * n as u64 * num as u64;
                            assert_eq!(total % den as u64, 0, "{m:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn non_ht_reference_rates() {
        assert_eq!(ht(7, 1, 20, L).non_ht_reference_rate(), 54_000_000);
        assert_eq!(ht(4, 2, 40, L).non_ht_reference_rate(), 36_000_000);
        assert_eq!(vht(9, 1, 80, L).non_ht_reference_rate(), 54_000_000);
    }
}
