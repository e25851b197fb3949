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

/// Every channel is one of the standard's; no two BSSs on partly overlapping channels.
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    let standard = s.phy.standard;
    let valid = channels::channels(standard);
    for (i, ap) in s.aps.iter().enumerate() {
        if let Some(c) = ap.channel {
            if !valid.contains(&c) {
                let list: Vec<String> = valid.iter().map(u16::to_string).collect();
                return Err(ScenarioError::new(
                    format!("aps[{i}].channel"),
                    format!(
                        "{c}: not a channel of {}; one of {}",
                        standard.name(),
                        list.join(", ")
                    ),
                ));
            }
        }
    }
    let channel_of =
        |ap: &super::ApConfig| ap.channel.unwrap_or(channels::default_channel(standard));
    for (i, a) in s.aps.iter().enumerate() {
        for (j, b) in s.aps.iter().enumerate().skip(i + 1) {
            let (ca, cb) = (channel_of(a), channel_of(b));
            if channels::coupling(standard, ca, cb) == Coupling::Overlapping {
                return Err(ScenarioError::new(
                    format!("aps[{j}].channel"),
                    format!(
                        "{cb}: \"{}\" on channel {cb} and \"{}\" on channel {ca} overlap \
                         (2.4 GHz channels fewer than 5 apart share part of their spectrum), \
                         which wlansim does not model; use the same channel or channels at \
                         least 5 apart (1, 6, 11)",
                        b.name, a.name
                    ),
                ));
            }
        }
    }
    Ok(())
}
