//! The airtime of one frame exchange: RTS/CTS when the MPDU is longer than
//! dot11RTSThreshold (802.11-2012 9.3.2.6), the data frame, the ACK after SIFS (9.3.2.8).
//! Every part of the simulator that needs the length of an exchange asks here.
use crate::channel::Ppdu;
use crate::phy::{LinkTimes, Phy};
use crate::sim::time::Time;

/// Offsets from the start of an exchange of one data frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExchangeTimes {
    /// RTS/CTS precede the data frame.
    pub rts: bool,
    /// Duration of the first frame the sender puts on the air (RTS or the data frame):
    /// what a collision costs it.
    pub first_frame: Time,
    /// End of the data frame's reception.
    pub data_end: Time,
    /// End of the ACK's reception: the end of a successful exchange.
    pub end: Time,
}

/// Whether RTS/CTS precedes a data frame of `mpdu_bytes`: when it is longer than
/// dot11RTSThreshold (9.3.2.6); `None`: never (the threshold off).
#[inline]
pub fn uses_rts(rts_threshold: Option<u32>, mpdu_bytes: u32) -> bool {
    rts_threshold.is_some_and(|t| mpdu_bytes > t)
}

/// The exchange that carries a network-layer packet of `ip_bytes` on `link` (its rates:
/// `phy/rates.rs`).
#[inline]
pub fn exchange_times(
    phy: &Phy,
    link: &LinkTimes,
    rts_threshold: Option<u32>,
    ip_bytes: u32,
) -> ExchangeTimes {
    let mpdu = phy.data_mpdu_bytes(ip_bytes);
    let uses_rts = uses_rts(rts_threshold, mpdu);
    let (data_end, end) = phy.exchange_offsets(link, uses_rts, ip_bytes);
    ExchangeTimes {
        rts: uses_rts,
        first_frame: if uses_rts {
            link.rts
        } else {
            link.data(phy, mpdu)
        },
        data_end,
        end,
    }
}

/// A non-HT frame of `bytes` sent at `rate` on `link` (an RTS, CTS or ACK of the link's
/// exchange), as its receiver decodes it: with the link's preamble. One rule for both
/// media.
#[inline]
pub fn ppdu(phy: &Phy, link: &LinkTimes, rate: u64, bytes: u32) -> Ppdu {
    Ppdu {
        rate,
        bytes,
        short_preamble: phy.short_preamble(link.rates.plcp),
        ht: None,
    }
}

/// The data frame of an MPDU of `mpdu_bytes` on `link`, as its receiver decodes it: at the
/// link's data rate, or in its HT/VHT mode.
#[inline]
pub fn data_ppdu(phy: &Phy, link: &LinkTimes, mpdu_bytes: u32) -> Ppdu {
    Ppdu {
        ht: link.rates.ht,
        ..ppdu(phy, link, link.rates.data, mpdu_bytes)
    }
}

/// aPPDUMaxTime: the longest HT-mixed or VHT PPDU, the L-SIG's limit (802.11-2020
/// 19.4.3, 21.3.8.2.4).
pub const PPDU_MAX_TIME: Time = 5_484_000;

/// The body of a data MPDU (what its MAC header and FCS enclose): one MSDU behind its
/// LLC/SNAP header, or an A-MSDU (802.11-2020 9.3.2.2.2) of several, each in a subframe
/// with a 14-byte header (DA, SA, length) and LLC/SNAP, every subframe but the last
/// padded to a multiple of 4 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Msdus {
    /// The MSDUs so far.
    pub count: u32,
    /// Bytes of the body: the one MSDU with its LLC/SNAP, or the A-MSDU's subframes.
    pub bytes: u32,
}

/// An A-MSDU subframe's header: DA, SA and length (9.3.2.2.2).
pub const AMSDU_SUBFRAME_HEADER: u32 = 14;

impl Msdus {
    /// The body with one more MSDU carrying a network-layer packet of `ip_bytes`: a
    /// second MSDU makes the body an A-MSDU.
    #[inline]
    pub fn with(self, ip_bytes: u32) -> Msdus {
        use crate::phy::frame::LLC_SNAP;
        let msdu = LLC_SNAP + ip_bytes;
        let bytes = match self.count {
            0 => msdu,
            1 => {
                (AMSDU_SUBFRAME_HEADER + self.bytes).next_multiple_of(4)
                    + AMSDU_SUBFRAME_HEADER
                    + msdu
            }
            _ => self.bytes.next_multiple_of(4) + AMSDU_SUBFRAME_HEADER + msdu,
        };
        Msdus {
            count: self.count + 1,
            bytes,
        }
    }

    /// Bytes of the A-MSDU (0 for a single MSDU, which goes without subframe header).
    #[inline]
    pub fn amsdu_bytes(self) -> u32 {
        if self.count > 1 {
            self.bytes
        } else {
            0
        }
    }
}

/// The PSDU of an A-MPDU (802.11-2020 10.12): each MPDU in a subframe with a 4-byte
/// delimiter, every subframe but the last padded to a multiple of 4 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ampdu {
    /// PSDU bytes of the subframes so far (the last unpadded).
    pub bytes: u32,
    pub mpdus: u32,
}

impl Ampdu {
    /// The A-MPDU with one more MPDU carrying a network-layer packet of `ip_bytes`.
    #[inline]
    pub fn with(self, phy: &Phy, ip_bytes: u32) -> Ampdu {
        self.with_mpdu(phy, Msdus::default().with(ip_bytes))
    }

    /// The A-MPDU with one more MPDU of body `body`.
    #[inline]
    pub fn with_mpdu(self, phy: &Phy, body: Msdus) -> Ampdu {
        use crate::phy::frame::AMPDU_DELIMITER;
        Ampdu {
            bytes: self.bytes.next_multiple_of(4) + AMPDU_DELIMITER + mpdu_bytes(phy, body),
            mpdus: self.mpdus + 1,
        }
    }

    /// The PSDU that carries it: the A-MPDU, or (`!ampdu`: one MPDU sent alone) that MPDU,
    /// which under HT has no delimiter (a VHT PSDU has one).
    #[inline]
    pub fn psdu(self, phy: &Phy, ampdu: bool) -> u32 {
        self.bytes - if ampdu { 0 } else { undelimited(phy) }
    }
}

/// The delimiter bytes an MPDU sent alone does without: 4 under HT, 0 under VHT.
#[inline]
fn undelimited(phy: &Phy) -> u32 {
    use crate::phy::{frame::AMPDU_DELIMITER, ht::Format};
    match phy.ht.map(|m| m.format) {
        Some(Format::Vht) => 0,
        _ => AMPDU_DELIMITER,
    }
}

/// Bytes of an MPDU (without a delimiter) of body `body`: a VHT PHY's data framing
/// already counts the delimiter of its single MPDU.
#[inline]
fn mpdu_bytes(phy: &Phy, body: Msdus) -> u32 {
    use crate::phy::frame::{AMPDU_DELIMITER, LLC_SNAP};
    phy.data_framing + undelimited(phy) - AMPDU_DELIMITER - LLC_SNAP + body.bytes
}

/// The exchange of a PSDU of `psdu_bytes` on `link`: RTS/CTS when the PSDU is longer
/// than dot11RTSThreshold, the PSDU, and SIFS after it an immediate compressed BlockAck
/// (an A-MPDU: `ampdu`) or an ACK (one MPDU sent alone).
#[inline]
pub fn ampdu_times(
    phy: &Phy,
    link: &LinkTimes,
    rts_threshold: Option<u32>,
    psdu_bytes: u32,
    ampdu: bool,
) -> ExchangeTimes {
    let uses_rts = uses_rts(rts_threshold, psdu_bytes);
    let delta = phy.propagation_delay;
    let protection = if uses_rts {
        link.rts + delta + phy.sifs + link.cts + delta + phy.sifs
    } else {
        0
    };
    let data = link.data(phy, psdu_bytes);
    let data_end = protection + data + delta;
    ExchangeTimes {
        rts: uses_rts,
        first_frame: if uses_rts { link.rts } else { data },
        data_end,
        end: data_end + phy.sifs + if ampdu { link.block_ack } else { link.ack } + delta,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::{Preamble, Standard};

    #[test]
    fn ampdu_subframes_are_delimited_and_padded_but_the_last() {
        let n = Standard::Ieee80211n.preset(Preamble::Long);
        let ac = Standard::Ieee80211ac.preset(Preamble::Long);
        // HT: MPDU = 26 + 4 + 8 + 1 = 39 bytes; VHT's data framing holds the delimiter.
        let one = Ampdu::default().with(&n, 1);
        assert_eq!(one.bytes, 4 + n.data_mpdu_bytes(1));
        assert_eq!(Ampdu::default().with(&ac, 1).bytes, ac.data_mpdu_bytes(1));
        let two = one.with(&n, 1);
        assert_eq!(two.bytes, one.bytes.next_multiple_of(4) + one.bytes);
        assert_eq!(two.mpdus, 2);
    }

    #[test]
    fn a_window_of_1500_byte_packets_on_80211ac_mcs_9_by_hand() {
        use crate::sim::time::US;
        let phy = Standard::Ieee80211ac.preset(Preamble::Long); // MCS 9, 80 MHz, 1 stream
        let link = phy.fixed_link();
        let mut a = Ampdu::default();
        for _ in 0..64 {
            a = a.with(&phy, 1500);
        }
        // MPDU 26 + 8 + 1500 + 4 = 1538 B; subframe 1542, padded 1544 but the last.
        assert_eq!(a.bytes, 63 * 1544 + 1542);
        // 16 + 8·98814 + 6 bits in 1560-bit symbols: 507 symbols after a 40 µs preamble.
        assert_eq!(link.data(&phy, a.bytes), (40 + 507 * 4) * US);
        // The BlockAck at the ACK's 6 Mb/s of the fixed link: 278 bits, 12 symbols.
        let t = ampdu_times(&phy, &link, None, a.bytes, true);
        let delta = phy.propagation_delay;
        assert_eq!(t.data_end, 2068 * US + delta);
        assert_eq!(t.end, (2068 + 16 + 20 + 48) * US + 2 * delta);
        assert!(!t.rts);
        assert!(ampdu_times(&phy, &link, Some(2346), a.bytes, true).rts);
    }

    #[test]
    fn an_amsdu_of_two_1500_byte_packets_by_hand() {
        use crate::sim::time::US;
        let n = Standard::Ieee80211n.preset(Preamble::Long); // MCS 7, 20 MHz: 260 bits/symbol
        let body = Msdus::default().with(1500).with(1500);
        // Subframes: 14 + 8 + 1500 = 1522, padded to 1524, then 1522: 3046 bytes.
        assert_eq!(
            (body.count, body.bytes, body.amsdu_bytes()),
            (2, 3046, 3046)
        );
        assert_eq!(Msdus::default().with(1500).amsdu_bytes(), 0);
        // One MPDU alone (HT: no delimiter): 26-byte QoS header + 3046 + FCS = 3076 bytes.
        let a = Ampdu::default().with_mpdu(&n, body);
        assert_eq!(a.psdu(&n, false), 3076);
        assert_eq!(a.psdu(&n, true), 3080);
        // 16 + 8·3076 + 6 bits: 95 symbols after the 36 µs HT-mixed preamble; then SIFS
        // and an ACK, not a BlockAck.
        let link = n.fixed_link();
        let t = ampdu_times(&n, &link, None, a.psdu(&n, false), false);
        let delta = n.propagation_delay;
        assert_eq!(t.data_end, (36 + 95 * 4) * US + delta);
        assert_eq!(t.end - t.data_end, n.sifs + link.ack + delta);
        // VHT's single MPDU keeps its delimiter.
        let ac = Standard::Ieee80211ac.preset(Preamble::Long);
        let a = Ampdu::default().with_mpdu(&ac, body);
        assert_eq!(a.psdu(&ac, false), 3080);
    }
}
