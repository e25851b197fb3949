//! 802.11e EDCA (802.11-2012 9.19.2): access categories and their default parameters.
//!
//! A QoS node has one channel-access entity (EDCAF) per access category, each with its own
//! queue, AIFS[AC] = SIFS + AIFSN[AC]·aSlotTime, CWmin[AC], CWmax[AC], TXOP limit and retry
//! limits. The contention itself runs in `world::contention`, shared with DCF; the EDCA
//! differences (slot-boundary countdown rule, internal collisions, TXOP bursts) are in
//! `Backoff::freeze` and `world::edca`.
use crate::phy::{Modulation, Phy};
use crate::sim::time::{Time, US};
use serde::{Deserialize, Serialize};

/// The four access categories, in increasing priority (the order of a node's entities).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AccessCategory {
    /// AC_BK, background.
    Bk,
    /// AC_BE, best effort: where unclassified traffic goes (9.2.4.2, UP 0).
    Be,
    /// AC_VI, video.
    Vi,
    /// AC_VO, voice.
    Vo,
}

impl AccessCategory {
    pub const ALL: [AccessCategory; 4] = [Self::Bk, Self::Be, Self::Vi, Self::Vo];

    /// Position among a node's entities (= priority rank, 0 lowest).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Bk => "AC_BK",
            Self::Be => "AC_BE",
            Self::Vi => "AC_VI",
            Self::Vo => "AC_VO",
        }
    }

    /// The lowercase key used in scenarios (`bk`, `be`, `vi`, `vo`).
    pub fn key(self) -> &'static str {
        match self {
            Self::Bk => "bk",
            Self::Be => "be",
            Self::Vi => "vi",
            Self::Vo => "vo",
        }
    }
}

/// The EDCA parameters of one access category.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdcaParams {
    pub aifsn: u32,
    pub cw_min: u32,
    pub cw_max: u32,
    /// TXOP limit; 0 = one frame exchange per channel access.
    pub txop_limit: Time,
}

impl EdcaParams {
    /// The default EDCA parameter set, 802.11-2012 Table 8-105, from the PHY's aCWmin and
    /// aCWmax. TXOP limits: 6.016 ms (AC_VI) and 3.264 ms (AC_VO) for the DSSS/HR-DSSS
    /// PHYs (clauses 16, 17), 3.008 ms and 1.504 ms for OFDM/ERP (clauses 18, 19).
    /// The AP uses the same set (as ns-3 does); a scenario may override any value.
    pub fn default_for(ac: AccessCategory, phy: &Phy) -> EdcaParams {
        let (cw_min, cw_max) = (phy.cw_min, phy.cw_max);
        // Table 8-105 writes (aCWmin + 1)/2 − 1 and (aCWmin + 1)/4 − 1.
        let (half, quarter) = (((cw_min + 1) >> 1) - 1, ((cw_min + 1) >> 2) - 1);
        let dsss = phy.modulation == Modulation::Dsss;
        match ac {
            AccessCategory::Bk => EdcaParams {
                aifsn: 7,
                cw_min,
                cw_max,
                txop_limit: 0,
            },
            AccessCategory::Be => EdcaParams {
                aifsn: 3,
                cw_min,
                cw_max,
                txop_limit: 0,
            },
            AccessCategory::Vi => EdcaParams {
                aifsn: 2,
                cw_min: half,
                cw_max: cw_min,
                txop_limit: if dsss { 6016 * US } else { 3008 * US },
            },
            AccessCategory::Vo => EdcaParams {
                aifsn: 2,
                cw_min: quarter,
                cw_max: half,
                txop_limit: if dsss { 3264 * US } else { 1504 * US },
            },
        }
    }

    /// AIFS[AC] = AIFSN[AC]·aSlotTime + aSIFSTime (802.11-2012 9.19.2.3).
    pub fn aifs(&self, phy: &Phy) -> Time {
        phy.sifs + self.aifsn as Time * phy.slot
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::{Preamble, Standard};

    #[test]
    fn default_parameter_set_of_802_11b() {
        let phy = Standard::Ieee80211b.preset(Preamble::Long);
        let be = EdcaParams::default_for(AccessCategory::Be, &phy);
        assert_eq!(
            (be.aifsn, be.cw_min, be.cw_max, be.txop_limit),
            (3, 31, 1023, 0)
        );
        let vi = EdcaParams::default_for(AccessCategory::Vi, &phy);
        assert_eq!((vi.aifsn, vi.cw_min, vi.cw_max), (2, 15, 31));
        assert_eq!(vi.txop_limit, 6016 * US);
        let vo = EdcaParams::default_for(AccessCategory::Vo, &phy);
        assert_eq!((vo.aifsn, vo.cw_min, vo.cw_max), (2, 7, 15));
        assert_eq!(vo.txop_limit, 3264 * US);
        assert_eq!(EdcaParams::default_for(AccessCategory::Bk, &phy).aifsn, 7);
        // AIFSN 2 gives the DCF's DIFS.
        assert_eq!(vo.aifs(&phy), phy.difs);
    }

    #[test]
    fn ofdm_txop_limits() {
        let phy = Standard::Ieee80211g.preset(Preamble::Short);
        let vo = EdcaParams::default_for(AccessCategory::Vo, &phy);
        assert_eq!(vo.txop_limit, 1504 * US);
        assert_eq!((vo.cw_min, vo.cw_max), (3, 7));
    }
}
