//! Rate selection for the frames of one link (IEEE 802.11-2016 10.6.6): the data rate of
//! the station, and the rates of RTS, CTS and ACK from the BSS basic rate set.
//!
//! Control responses (CTS, ACK), 10.6.6.5.2: the primary rate is the highest rate of the
//! BSSBasicRateSet that is not above the rate of the frame that elicited the response;
//! when no basic rate qualifies, the highest mandatory rate of the PHY not above it. The
//! response uses the modulation class of the eliciting frame: a PHY here has one class
//! (DSSS/CCK for 802.11b, whose rates share the clause 16/17 PLCP, or OFDM for a and g),
//! so every rate of the PHY qualifies.
//!
//! RTS: a control frame that starts an exchange is sent at a rate of the BSSBasicRateSet
//! (10.6.6.2). By default it goes at the rate the response rule would give for the data
//! frame it protects (the highest basic rate not above the data rate), so that the RTS
//! is as robust as the ACK of that data frame; the BSS's `rts_rate` sets another.
//!
//! HT and VHT data frames (802.11n/ac) elicit their responses by their non-HT reference
//! rate (10.6.6.5.2; `HtMode::non_ht_reference_rate`): CTS and ACK are non-HT OFDM PPDUs
//! at the highest basic rate not above it.
use super::ht::HtMode;
use super::{Phy, Standard};
use crate::sim::time::Time;

/// The rates and the PLCP time of the frames exchanged on one link (station ↔ its AP).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkRates {
    /// Rate of the data frames, bits/s (of an HT/VHT mode: its rate to the nearest bit/s).
    pub data: u64,
    /// The HT/VHT mode of the data frames (802.11n/ac); None: non-HT at `data`.
    pub ht: Option<HtMode>,
    pub rts: u64,
    pub cts: u64,
    pub ack: u64,
    /// Rate of the management frames of the link (ADDBA): the lowest rate of the BSS's
    /// basic rate set.
    pub mgmt: u64,
    /// PLCP preamble + header time of the BSS's preamble (DSSS long or short).
    pub plcp: Time,
}

impl LinkRates {
    /// One rate for every control frame (`phy.control_rate`, or the PHY's lowest rate):
    /// the PHY's own rates and PLCP.
    pub fn fixed(phy: &Phy) -> LinkRates {
        LinkRates {
            data: phy.data_rate,
            ht: phy.ht,
            rts: phy.control_rate,
            cts: phy.control_rate,
            ack: phy.control_rate,
            mgmt: phy.control_rate,
            plcp: phy.plcp,
        }
    }

    /// The rates of 10.6.6 in a BSS with basic rate set `basic` (sorted or not) for data
    /// frames at `data` (in the HT/VHT mode `ht` when given); `rts` overrides the RTS
    /// rate.
    pub fn standard(
        standard: Standard,
        basic: &[u64],
        (data, ht): (u64, Option<HtMode>),
        rts: Option<u64>,
        plcp: Time,
    ) -> LinkRates {
        let eliciting = ht.map_or(data, HtMode::non_ht_reference_rate);
        let rts = rts.unwrap_or_else(|| control_response_rate(standard, basic, eliciting));
        LinkRates {
            data,
            ht,
            rts,
            cts: control_response_rate(standard, basic, rts),
            ack: control_response_rate(standard, basic, eliciting),
            mgmt: *basic.iter().min().expect("a basic rate set holds a rate"),
            plcp,
        }
    }
}

/// A link's rates with the airtimes of its control frames worked out once (the MAC asks
/// for them at every exchange).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkTimes {
    pub rates: LinkRates,
    pub rts: Time,
    pub cts: Time,
    pub ack: Time,
    /// A compressed BlockAck at the ACK's rate (the control-response rate of the
    /// eliciting A-MPDU, 10.6.6.5.2).
    pub block_ack: Time,
    /// A compressed BlockAckReq at the same rate (after a missed BlockAck).
    pub block_ack_req: Time,
}

impl LinkTimes {
    pub fn new(phy: &Phy, rates: LinkRates) -> LinkTimes {
        let time = |bytes, rate| phy.ppdu_time_with(rates.plcp, bytes, rate);
        LinkTimes {
            rates,
            rts: time(super::frame::RTS, rates.rts),
            cts: time(super::frame::CTS, rates.cts),
            ack: time(super::frame::ACK, rates.ack),
            block_ack: time(super::frame::BLOCK_ACK, rates.ack),
            block_ack_req: time(super::frame::BLOCK_ACK_REQ, rates.ack),
        }
    }

    /// Airtime of the data frame of `mpdu_bytes`.
    #[inline]
    pub fn data(&self, phy: &Phy, mpdu_bytes: u32) -> Time {
        phy.data_ppdu_time(self.rates.plcp, mpdu_bytes, self.rates.data, self.rates.ht)
    }
}

/// The mandatory rates of a PHY: 802.11b 1, 2 (clause 16), 5.5, 11 Mb/s (clause 17);
/// OFDM 6, 12, 24 Mb/s (17.3.2.3; ERP-OFDM 18.4.1), also the non-HT rates every HT and
/// VHT STA supports (19.1.1, 21.1.1).
pub fn mandatory_rates(standard: Standard) -> &'static [u64] {
    match standard {
        Standard::Ieee80211b => &[1_000_000, 2_000_000, 5_500_000, 11_000_000],
        _ => &[6_000_000, 12_000_000, 24_000_000],
    }
}

/// The rate of a CTS or ACK answering a frame sent at `eliciting` (10.6.6.5.2): the
/// highest basic rate ≤ `eliciting`, else the highest mandatory rate ≤ `eliciting`, else
/// (a frame below every mandatory rate) the lowest mandatory rate.
pub fn control_response_rate(standard: Standard, basic: &[u64], eliciting: u64) -> u64 {
    let highest_at_most = |set: &[u64]| set.iter().copied().filter(|&r| r <= eliciting).max();
    let mandatory = mandatory_rates(standard);
    highest_at_most(basic)
        .or_else(|| highest_at_most(mandatory))
        .unwrap_or(mandatory[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    const M: u64 = 1_000_000;

    #[test]
    fn responses_take_the_highest_basic_rate_not_above_the_eliciting_one() {
        let b = Standard::Ieee80211b;
        let basic = [M, 2 * M];
        assert_eq!(control_response_rate(b, &basic, 11 * M), 2 * M);
        assert_eq!(control_response_rate(b, &basic, 5_500_000), 2 * M);
        assert_eq!(control_response_rate(b, &basic, 2 * M), 2 * M);
        assert_eq!(control_response_rate(b, &basic, M), M);
        // No basic rate qualifies: the highest mandatory rate not above it.
        assert_eq!(control_response_rate(b, &[5_500_000], 2 * M), 2 * M);
        let a = Standard::Ieee80211a;
        let basic = [6 * M, 12 * M, 24 * M];
        assert_eq!(control_response_rate(a, &basic, 54 * M), 24 * M);
        assert_eq!(control_response_rate(a, &basic, 18 * M), 12 * M);
        assert_eq!(control_response_rate(a, &basic, 9 * M), 6 * M);
        assert_eq!(control_response_rate(a, &[24 * M], 18 * M), 12 * M);
    }

    #[test]
    fn rts_defaults_to_the_response_rate_of_the_data_frame_and_cts_answers_it() {
        let b = Standard::Ieee80211b;
        let r = LinkRates::standard(b, &[M, 2 * M], (11 * M, None), None, 0);
        assert_eq!((r.data, r.rts, r.cts, r.ack), (11 * M, 2 * M, 2 * M, 2 * M));
        let r = LinkRates::standard(b, &[M, 2 * M], (11 * M, None), Some(M), 0);
        assert_eq!((r.rts, r.cts, r.ack), (M, M, 2 * M));
    }

    #[test]
    fn ht_frames_elicit_responses_by_their_non_ht_reference_rate() {
        use crate::phy::ht::{Format, GuardInterval};
        let n = Standard::Ieee80211n;
        let mode = |mcs| HtMode {
            format: Format::Ht,
            mcs,
            streams: 1,
            width_mhz: 20,
            guard_interval: GuardInterval::Long,
        };
        let basic = [6 * M, 12 * M, 24 * M];
        // MCS 7 (65 Mb/s) refers to 54 Mb/s: ACK at 24; MCS 1 (13 Mb/s) refers to 12.
        let r = LinkRates::standard(n, &basic, (65 * M, Some(mode(7))), None, 0);
        assert_eq!((r.rts, r.cts, r.ack), (24 * M, 24 * M, 24 * M));
        let r = LinkRates::standard(n, &basic, (13 * M, Some(mode(1))), Some(6 * M), 0);
        assert_eq!((r.rts, r.cts, r.ack), (6 * M, 6 * M, 12 * M));
    }
}
