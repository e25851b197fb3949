//! PHY timing: how long a frame occupies the medium, and the interframe spaces.
//!
//! Presets follow the standard (IEEE 802.11-2012): clause 17 (HR/DSSS, 802.11b), clause 18
//! (OFDM, 802.11a) and clause 19 (ERP, 802.11g); 802.11n (HT) and 802.11ac (VHT) data
//! frames follow 802.11-2020 clauses 19 and 21 (`ht.rs`) on the OFDM PHY of their band.
//! Every value can be overridden from the scenario; DIFS is derived as SIFS + 2·slot
//! (9.3.7) unless set explicitly.
pub mod cca;
pub mod channels;
pub mod ht;
mod presets;
pub mod rates;

pub use presets::{Modulation, Preamble, Standard, LONG_DSSS_PLCP};
pub use rates::{LinkRates, LinkTimes};

use crate::sim::time::{Time, SECOND, US};

/// Bytes of MAC framing counted in airtime.
pub mod frame {
    /// Data MPDU: frame control, duration, 3 addresses, sequence control (24) + FCS (4).
    pub const MAC_DATA_OVERHEAD: u32 = 28;
    /// LLC/SNAP header carried in every data MSDU (RFC 1042 encapsulation).
    pub const LLC_SNAP: u32 = 8;
    /// The QoS Control field of a QoS data frame's header (26 bytes instead of 24).
    pub const QOS_CONTROL: u32 = 2;
    /// An A-MPDU subframe's delimiter (10.12.2): a VHT PSDU carrying one MPDU has it.
    pub const AMPDU_DELIMITER: u32 = 4;
    pub const ACK: u32 = 14;
    /// A compressed BlockAck (9.3.1.8: 16-byte header, BA control, starting sequence
    /// control, 8-byte bitmap, FCS).
    pub const BLOCK_ACK: u32 = 32;
    /// A compressed BlockAckReq (9.3.1.7: 16-byte header, BAR control, starting sequence
    /// control, FCS).
    pub const BLOCK_ACK_REQ: u32 = 24;
    pub const CTS: u32 = 14;
    pub const RTS: u32 = 20;
    pub const IP_HEADER: u32 = 20;
    pub const UDP_HEADER: u32 = 8;
}

/// The resolved PHY of a scenario: every number the MAC needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Phy {
    pub standard: Standard,
    pub band: channels::Band,
    /// The HT/VHT mode of the data frames (802.11n/ac); None: `data_rate` in the non-HT
    /// PHY.
    pub ht: Option<ht::HtMode>,
    /// The modulation of the non-HT frames (every frame of 802.11a/b/g; the control
    /// frames and beacons of 802.11n/ac).
    pub modulation: Modulation,
    pub slot: Time,
    pub sifs: Time,
    pub difs: Time,
    pub cw_min: u32,
    pub cw_max: u32,
    /// PLCP preamble + header (DSSS) or preamble + SIGNAL (OFDM) duration.
    pub plcp: Time,
    /// Data rate, bits/s (of an HT/VHT mode: its rate to the nearest bit/s).
    pub data_rate: u64,
    pub control_rate: u64,
    /// Lowest mandatory rate of this PHY's own modulation: the ACK of EIFS is timed at it
    /// (9.3.7), unless `eifs_ack` names another PHY's.
    pub lowest_rate: u64,
    /// The ACK time of EIFS when the lowest mandatory rate is another modulation's:
    /// an ERP PHY's (802.11g, and HT at 2.4 GHz) is 1 Mb/s DSSS with the long PLCP
    /// (802.11-2012 clause 19: an ERP STA supports 1, 2, 5.5 and 11 Mb/s; 9.3.7: "at the lowest
    /// PHY mandatory rate"), 304 µs, as ns-3.37's. None: `lowest_rate` in this PHY, as
    /// 802.11a/b and ns-2's `getEIFS` (the PLCP and the ACK at `PLCPDataRate`).
    pub eifs_ack: Option<Time>,
    pub propagation_delay: Time,
    /// The 2.4 GHz OFDM signal extension (802.11g ERP-OFDM 19.3.2.3; HT 19.4.3), 0 at
    /// 5 GHz and for DSSS.
    pub signal_extension: Time,
    /// Bytes a data PSDU adds to its network-layer packet (MAC header, FCS, LLC/SNAP;
    /// `mac::MacRules::data_framing`; HT/VHT: the QoS header's 2 bytes more and, for VHT,
    /// the A-MPDU delimiter).
    pub data_framing: u32,
    /// How a PSDU's bits become time on air (the profile's: `scenario::Profile::psdu_time`).
    pub psdu_time: PsduTime,
}

/// How a PSDU's bits become time on air.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PsduTime {
    /// The standard's: DSSS counts the PSDU in whole µs rounded up (17.2.3.5, the LENGTH
    /// field); OFDM in 4 µs symbols with the SERVICE and tail bits (18.4.3), and 802.11g's
    /// signal extension (19.3.2.3).
    Standard,
    /// ns-2.35's `Mac802_11::txtime` (mac-802_11.cc): the PLCP, then bits / rate with no
    /// rounding, no SERVICE or tail bits and no signal extension, whatever the modulation
    /// (here to the nearest ns: ns-2 keeps a double).
    Unrounded,
    /// ns-3.37's HT/VHT PPDUs (`profile = "ns3"`): no VHT-SIG-B in a VHT SU PPDU and
    /// 400 ns guard-interval symbols not rounded to 4 µs (`ht::HtMode::ppdu_time`); every
    /// other frame as `Standard` (ns-3.37's DSSS and OFDM PHYs round as the standard).
    Ns3,
}

impl Phy {
    /// Time on air of a PPDU carrying `mpdu_bytes` at `rate` bits/s.
    pub fn ppdu_time(&self, mpdu_bytes: u32, rate: u64) -> Time {
        self.ppdu_time_with(self.plcp, mpdu_bytes, rate)
    }

    /// Time on air of a PPDU with a PLCP of `plcp` (a BSS's own preamble).
    #[inline]
    pub fn ppdu_time_with(&self, plcp: Time, mpdu_bytes: u32, rate: u64) -> Time {
        let bits = 8 * mpdu_bytes as u64;
        if self.psdu_time == PsduTime::Unrounded {
            return plcp + (bits * SECOND + rate / 2) / rate;
        }
        match self.modulation {
            // 17.2.3.5: the LENGTH field holds the PSDU duration in µs, rounded up.
            Modulation::Dsss => plcp + (bits * 1_000_000).div_ceil(rate) * US,
            // 18.4.3: SERVICE (16 bits) + PSDU + tail (6 bits) in 4 µs symbols of N_DBPS bits.
            Modulation::Ofdm => {
                let bits_per_symbol = rate * 4 / 1_000_000;
                let symbols = (16 + bits + 6).div_ceil(bits_per_symbol);
                plcp + symbols * 4 * US + self.signal_extension
            }
        }
    }

    /// Whether frames with a PLCP of `plcp` use the DSSS short preamble (header at 2 Mb/s).
    pub fn short_preamble(&self, plcp: Time) -> bool {
        self.modulation == Modulation::Dsss && plcp < LONG_DSSS_PLCP
    }

    /// Bytes of an MPDU that carries a network-layer packet of `ip_bytes`.
    pub fn data_mpdu_bytes(&self, ip_bytes: u32) -> u32 {
        self.data_framing + ip_bytes
    }

    /// Time on air of a data PPDU of `psdu_bytes`: in the HT/VHT mode `ht`, or else at the
    /// non-HT `rate` with a PLCP of `plcp`.
    #[inline]
    pub fn data_ppdu_time(
        &self,
        plcp: Time,
        psdu_bytes: u32,
        rate: u64,
        ht: Option<ht::HtMode>,
    ) -> Time {
        match ht {
            Some(mode) => mode.ppdu_time(psdu_bytes, self.psdu_time) + self.signal_extension,
            None => self.ppdu_time_with(plcp, psdu_bytes, rate),
        }
    }

    pub fn data_time(&self, ip_bytes: u32) -> Time {
        let bytes = self.data_mpdu_bytes(ip_bytes);
        self.data_ppdu_time(self.plcp, bytes, self.data_rate, self.ht)
    }

    pub fn ack_time(&self) -> Time {
        self.ppdu_time(frame::ACK, self.control_rate)
    }

    pub fn rts_time(&self) -> Time {
        self.ppdu_time(frame::RTS, self.control_rate)
    }

    pub fn cts_time(&self) -> Time {
        self.ppdu_time(frame::CTS, self.control_rate)
    }

    /// EIFS = SIFS + DIFS + ACK time at the lowest mandatory rate (9.3.7).
    pub fn eifs(&self) -> Time {
        let ack = self
            .eifs_ack
            .unwrap_or_else(|| self.ppdu_time(frame::ACK, self.lowest_rate));
        self.sifs + self.difs + ack
    }

    /// The link of a cell with one rate for every control frame (`control_rate`).
    pub fn fixed_link(&self) -> LinkTimes {
        LinkTimes::new(self, LinkRates::fixed(self))
    }

    /// Airtime offsets of one frame exchange on `link` from its start: (end of the data
    /// frame's reception, end of the ACK's reception). RTS/CTS first when `uses_rts`.
    #[inline]
    pub fn exchange_offsets(
        &self,
        link: &LinkTimes,
        uses_rts: bool,
        ip_bytes: u32,
    ) -> (Time, Time) {
        let delta = self.propagation_delay;
        let mut t = 0;
        if uses_rts {
            t += link.rts + delta + self.sifs + link.cts + delta + self.sifs;
        }
        let data_end = t + link.data(self, self.data_mpdu_bytes(ip_bytes)) + delta;
        (data_end, data_end + self.sifs + link.ack + delta)
    }

    /// ACKTimeout (and CTSTimeout) = SIFS + slot + PHY-RX-START delay (9.3.2.8); the
    /// RX-START delay is the PLCP preamble + header time.
    pub fn response_timeout(&self) -> Time {
        self.sifs + self.slot + self.plcp
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dsss_long_preamble_times() {
        let phy = Standard::Ieee80211b.preset(Preamble::Long);
        assert_eq!(phy.plcp, 192 * US);
        // ACK (14 B) at 1 Mb/s: 192 + 112 µs.
        assert_eq!(phy.ack_time(), 304 * US);
        // 1500-byte IP packet at 11 Mb/s: MPDU 1536 B = 12288 bits → 1117.09 → 1118 µs.
        assert_eq!(phy.data_time(1500), (192 + 1118) * US);
        assert_eq!(phy.difs, 50 * US);
        assert_eq!(phy.eifs(), (10 + 50 + 304) * US);
        assert_eq!(phy.response_timeout(), (10 + 20 + 192) * US);
    }

    #[test]
    fn ofdm_times() {
        let phy = Standard::Ieee80211a.preset(Preamble::Long);
        // ACK at 6 Mb/s: 16+112+6 = 134 bits / 24 per symbol = 6 symbols → 20 + 24 µs.
        assert_eq!(phy.ack_time(), 44 * US);
        let g = Standard::Ieee80211g.preset(Preamble::Long);
        assert_eq!(g.ack_time(), 50 * US, "ERP adds the 6 µs signal extension");
        assert_eq!(g.difs, 28 * US);
    }

    #[test]
    fn eifs_times_the_ack_at_the_lowest_mandatory_rate() {
        // 802.11a: the ACK at 6 Mb/s OFDM.
        let a = Standard::Ieee80211a.preset(Preamble::Long);
        assert_eq!(a.eifs(), (16 + 34 + 44) * US);
        // ERP (802.11g) and HT at 2.4 GHz: at DSSS's 1 Mb/s with the long PLCP, as ns-3.37
        // (SIFS 10 + 304 + DIFS 28 = 342 µs); HT at 5 GHz as 802.11a.
        let g = Standard::Ieee80211g.preset(Preamble::Long);
        assert_eq!(g.eifs(), (10 + 304 + 28) * US);
        let n24 = Standard::Ieee80211n.preset_in(Preamble::Long, channels::Band::Ghz2_4);
        assert_eq!(n24.eifs(), g.eifs());
        let n5 = Standard::Ieee80211n.preset_in(Preamble::Long, channels::Band::Ghz5);
        assert_eq!(n5.eifs(), a.eifs());
        // 802.11b with the short PLCP: its lowest rate, 2 Mb/s.
        let b = Standard::Ieee80211b.preset(Preamble::Short);
        assert_eq!(b.eifs(), (10 + 50 + 96 + 56) * US);
    }
}

/// The timing numbers an analytical model needs, in seconds (Python: `wlansim.phy.timing`).
#[derive(Clone, Debug, serde::Serialize, PartialEq)]
pub struct Timing {
    pub slot_s: f64,
    pub sifs_s: f64,
    pub difs_s: f64,
    pub eifs_s: f64,
    pub ack_timeout_s: f64,
    pub cts_timeout_s: f64,
    pub propagation_delay_s: f64,
    /// Whole PPDU of one UDP packet carrying `payload_bits / 8` bytes.
    pub data_frame_s: f64,
    pub ack_s: f64,
    pub rts_s: f64,
    pub cts_s: f64,
    pub cw_min: u32,
    pub cw_max: u32,
    pub data_rate_bps: f64,
    pub control_rate_bps: f64,
    pub payload_bits: f64,
    /// With `mac.ampdu_max_bytes` or `mac.amsdu_max_bytes`: the MPDUs of a saturated
    /// sender's A-MPDU (no TXOP limit; at most its queue, which a saturated source keeps
    /// full; 1 with A-MSDU alone), its PPDU and the response (the compressed BlockAck; an
    /// ACK for an MPDU sent alone).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ampdu_mpdus: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ampdu_frame_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_ack_s: Option<f64>,
    /// With `mac.ampdu_max_bytes`: the BlockAckReq a sender sends after a missed
    /// BlockAck.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_ack_req_s: Option<f64>,
    /// With `mac.amsdu_max_bytes`: the MSDUs in each MPDU of that A-MPDU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amsdu_msdus: Option<u32>,
}

impl Phy {
    /// The timing of one UDP packet's exchange on `link` (its data, ACK, RTS and CTS
    /// airtimes; `control_rate_bps` is the RTS's rate, which starts an RTS exchange).
    pub fn timing(&self, link: &LinkTimes, udp_payload_bytes: u32) -> Timing {
        use crate::sim::time::to_secs;
        let ip_bytes = frame::IP_HEADER + frame::UDP_HEADER + udp_payload_bytes;
        Timing {
            slot_s: to_secs(self.slot),
            sifs_s: to_secs(self.sifs),
            difs_s: to_secs(self.difs),
            eifs_s: to_secs(self.eifs()),
            ack_timeout_s: to_secs(self.response_timeout()),
            cts_timeout_s: to_secs(self.response_timeout()),
            propagation_delay_s: to_secs(self.propagation_delay),
            data_frame_s: to_secs(link.data(self, self.data_mpdu_bytes(ip_bytes))),
            ack_s: to_secs(link.ack),
            rts_s: to_secs(link.rts),
            cts_s: to_secs(link.cts),
            cw_min: self.cw_min,
            cw_max: self.cw_max,
            data_rate_bps: link
                .rates
                .ht
                .map_or(link.rates.data as f64, |m| m.rate_bps()),
            control_rate_bps: link.rates.rts as f64,
            payload_bits: 8.0 * udp_payload_bytes as f64,
            ampdu_mpdus: None,
            ampdu_frame_s: None,
            amsdu_msdus: None,
            block_ack_req_s: None,
            block_ack_s: None,
        }
    }
}
