//! The standard's clear channel assessment (CCA) levels: a node's default thresholds
//! when neither its own keys nor `[channel.propagation]` (ns-2's `RXThresh_`,
//! `CSThresh_`) give them.
//!
//! - Receive threshold (the weakest frame whose preamble is detected, so that the node
//!   locks onto it, holds CCA busy for its length and may decode it): the minimum input
//!   sensitivity, −80 dBm for DSSS (802.11-2012 16.4.8.2; the PLCP of every 802.11b frame
//!   is DSSS at 1 or 2 Mb/s) and −82 dBm for OFDM at 6 Mb/s (18.3.10.6, 19.5.5).
//! - Carrier-sense (energy detection) threshold, for signals the node is not locked onto:
//!   20 dB above the OFDM sensitivity, −62 dBm (18.3.10.6); for DSSS −80 dBm when the
//!   transmit power exceeds 100 mW, −76 dBm above 50 mW, −70 dBm otherwise (16.4.8.5,
//!   17.4.8.5).
use super::Modulation;

/// (receive threshold, carrier-sense threshold) in dBm of a PHY whose nodes transmit
/// `tx_power_w`.
pub fn thresholds_dbm(modulation: Modulation, tx_power_w: f64) -> (f64, f64) {
    match modulation {
        Modulation::Ofdm => (-82.0, -62.0),
        Modulation::Dsss => {
            let ed = if tx_power_w > 0.1 {
                -80.0
            } else if tx_power_w > 0.05 {
                -76.0
            } else {
                -70.0
            };
            (-80.0, ed)
        }
    }
}
