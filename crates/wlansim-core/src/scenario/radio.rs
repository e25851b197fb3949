//! The radio keys of APs and station groups: the BSS's `channel`, and each node's
//! `cs_threshold`, `rx_threshold` and `antenna_gain_db` (`channel/hearing.rs`,
//! `mac/carrier_sense.rs`).
//!
//! ```toml
//! [[aps]]
//! name = "left"
//! channel = 6               # 2.4 GHz: 1-13 (1, 6, 11 do not overlap); 5 GHz: 36, 40, ...
//! rx_threshold = "-82 dBm"  # preamble detection (ns-2 RXThresh_)
//! cs_threshold = "-62 dBm"  # energy detection (ns-2 CSThresh_)
//! antenna_gain_db = 3
//! ```
use super::{Scenario, ScenarioError};
use crate::phy::channels::{self, Coupling};

/// Every channel is one of the band's, able to carry the PHY's width; no two BSSs on
/// partly overlapping channels.
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    let band = s.band();
    let width = s.ht_mode().map_or(20, |m| m.width_mhz);
    let valid = channels::channels(band);
    for (i, ap) in s.aps.iter().enumerate() {
        if let Some(c) = ap.channel {
            if !valid.contains(&c) {
                let list: Vec<String> = valid.iter().map(u16::to_string).collect();
                return Err(ScenarioError::new(
                    format!("aps[{i}].channel"),
                    format!(
                        "{c}: not a channel of {} ({}); one of {}",
                        s.phy.standard.name(),
                        band.name(),
                        list.join(", ")
                    ),
                ));
            }
        }
    }
    let channel_of = |ap: &super::ApConfig| ap.channel.unwrap_or(channels::default_channel(band));
    for (i, ap) in s.aps.iter().enumerate() {
        let c = channel_of(ap);
        if channels::span(band, width, c).is_none() {
            return Err(ScenarioError::new(
                format!("aps[{i}].channel"),
                format!(
                    "{c}: no {width} MHz channel has {c} as its primary channel at {} \
                     (5 GHz: aligned blocks of the sub-bands 36-64, 100-144, 149-161, \
                     e.g. 36, 52, 100, 116, 132, 149 for 80 MHz; 2.4 GHz 40 MHz: 1-9, the \
                     secondary channel 4 above)",
                    band.name()
                ),
            ));
        }
    }
    for (i, a) in s.aps.iter().enumerate() {
        for (j, b) in s.aps.iter().enumerate().skip(i + 1) {
            let (ca, cb) = (channel_of(a), channel_of(b));
            if channels::coupling(band, width, ca, cb) == Coupling::Overlapping {
                return Err(ScenarioError::new(
                    format!("aps[{j}].channel"),
                    format!(
                        "{cb}: \"{}\" on channel {cb} and \"{}\" on channel {ca} overlap \
                         ({width} MHz wide; 2.4 GHz channels fewer than 5 apart share part \
                         of their spectrum), which wlansim does not model; use the same \
                         channel or channels that do not overlap (1, 6, 11 at 2.4 GHz)",
                        b.name, a.name
                    ),
                ));
            }
        }
    }
    Ok(())
}
