//! `[channel.reception]`: how a receiver decides that it got a frame
//! (`channel/reception.rs`).
//!
//! ```toml
//! [channel.reception]
//! model = "sinr"            # "none": any overlap destroys every frame in it (Bianchi)
//! noise_floor_dbm = -94     # thermal noise over 20 MHz (−101 dBm) + a 7 dB noise figure
//! rx_power_dbm = -60        # every link's received power when nodes have no position
//! sensitivity_dbm = -82     # preamble detection: weaker frames are not detected
//! capture = true            # false: frames that start together are all lost
//! error_model = "nist"      # "table": ns-3's link-level AWGN PER tables for OFDM/HT/VHT
//! [[stations]]
//! name = "favoured"
//! antenna_gain_db = 3       # frames from and to these stations arrive 3 dB stronger
//! ```
//!
//! Without the table: any overlap destroys every frame in it, except under ns-2's MAC
//! profile, whose default is ns-2's capture rule (`threshold`, `CPThresh_` 10 dB:
//! [`Scenario::reception_rule`]).
use super::{Scenario, ScenarioError};
use crate::channel::error_rate::{ErrorModel, Mode};
use crate::channel::receiver::Rule;
use crate::channel::reception::{HeaderFailure, MpduSpan, ReceptionParams, TieBreak};
use crate::mac::MacRules;
use crate::phy::{LinkRates, Modulation};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The reception models.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReceptionModel {
    /// Frames that overlap are all lost (Bianchi's assumption; the seed studies state it).
    #[default]
    None,
    /// Each frame is received with the probability the PHY's error curves give at its
    /// SINR; a receiver locks onto the strongest of frames that arrive together.
    Sinr,
    /// ns-2's capture rule: a frame survives every frame overlapping it at its receiver
    /// that is at least `capture_threshold_db` weaker (`CPThresh_`); the receiver locks
    /// onto the first (of frames that arrive together, the strongest) and a later frame
    /// never takes over. Per receiver: it runs on the spatial medium where some receiver
    /// hears two frames that far apart in power (on the shared one otherwise, where it
    /// decides as `none`). ns-2's MAC profile's default.
    Threshold,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReceptionConfig {
    #[serde(default)]
    pub model: ReceptionModel,
    /// Noise power at every receiver, dBm.
    #[serde(default = "default_noise")]
    pub noise_floor_dbm: f64,
    /// Received power of every link between nodes without a `position`, dBm (with
    /// positions and `[channel.propagation]`, the model's median power at the distance).
    #[serde(default = "default_rx_power")]
    pub rx_power_dbm: f64,
    /// Preamble-detection threshold: the weakest frame a receiver detects, dBm.
    #[serde(default = "default_sensitivity")]
    pub sensitivity_dbm: f64,
    /// A receiver locks onto the strongest of frames that start together and may get it
    /// (true); false: they are all lost, as with `none`, and only noise and the error
    /// curves decide the fate of frames alone on the air.
    #[serde(default = "default_capture")]
    pub capture: bool,
    /// `threshold`: how much stronger (dB) a frame must be than each frame overlapping it
    /// to survive (ns-2's `CPThresh_`, 10).
    #[serde(default = "default_capture_threshold")]
    pub capture_threshold_db: f64,
    /// `sinr`: the error model of OFDM, HT and VHT frames: `nist` (the NIST model's
    /// curves) or `table` (ns-3.37's default `TableBasedErrorRateModel`: link-level AWGN
    /// PER tables of 32- and 1458-byte frames per MCS, scaled to the frame's size; 9 Mb/s
    /// keeps the NIST curve, DSSS its own curves).
    #[serde(default)]
    pub error_model: ErrorModel,
}

fn default_capture_threshold() -> f64 {
    NS2_CAPTURE_THRESHOLD_DB
}

fn default_capture() -> bool {
    true
}

fn default_noise() -> f64 {
    -94.0
}
/// Every link's received power between nodes without a position, dBm.
pub const DEFAULT_RX_POWER_DBM: f64 = -60.0;

fn default_rx_power() -> f64 {
    DEFAULT_RX_POWER_DBM
}
fn default_sensitivity() -> f64 {
    -82.0
}

/// ns-2's `Phy/WirelessPhy set CPThresh_ 10.0` (`tcl/lib/ns-default.tcl`): a power ratio,
/// 10 dB (`Mac802_11::recv` compares `RxPr` ratios with it).
pub const NS2_CAPTURE_THRESHOLD_DB: f64 = 10.0;

impl Scenario {
    /// How receivers decide: `[channel.reception]`'s model; without the table, ns-2's
    /// capture rule under ns-2's MAC profile (`Mac802_11::recv`: a frame arriving during
    /// a reception at least `CPThresh_` weaker is ignored, `capture`, any other collides,
    /// `collision`), else any overlap destroys every frame in it.
    pub fn reception_rule(&self) -> Rule {
        match (&self.channel.reception, self.mac_rules()) {
            (Some(r), _) => r.rule(),
            (None, MacRules::Ns2) => Rule::Threshold {
                ratio: ratio_of_db(NS2_CAPTURE_THRESHOLD_DB),
            },
            (None, MacRules::Standard) => Rule::Overlap,
        }
    }
}

fn ratio_of_db(db: f64) -> f64 {
    10f64.powf(db / 10.0)
}

impl ReceptionConfig {
    /// How the spatial medium's receivers decide (`channel/receiver.rs`).
    pub fn rule(&self) -> Rule {
        match self.model {
            ReceptionModel::None => Rule::Overlap,
            ReceptionModel::Sinr => Rule::Sinr {
                capture: self.capture,
            },
            ReceptionModel::Threshold => Rule::Threshold {
                ratio: ratio_of_db(self.capture_threshold_db),
            },
        }
    }

    /// The SINR model's parameters; None for `model = "none"`.
    pub fn params(&self) -> Option<ReceptionParams> {
        (self.model == ReceptionModel::Sinr).then_some(ReceptionParams {
            noise_floor_dbm: self.noise_floor_dbm,
            rx_power_dbm: self.rx_power_dbm,
            sensitivity_dbm: self.sensitivity_dbm,
            capture: self.capture,
            error_model: self.error_model,
            header_failure: HeaderFailure::default(),
            mpdu_span: MpduSpan::default(),
            tie_break: TieBreak::default(),
        })
    }
}

/// Finite powers; antenna gains finite and within ±60 dB.
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    if let Some(r) = &s.channel.reception {
        if r.error_model != ErrorModel::Nist && r.model != ReceptionModel::Sinr {
            return Err(ScenarioError::new(
                "channel.reception.error_model",
                "\"table\" needs model = \"sinr\": only the SINR model decodes frames by an \
                 error model",
            ));
        }
        let cp = r.capture_threshold_db;
        if !cp.is_finite() || !(0.0..=100.0).contains(&cp) {
            return Err(ScenarioError::new(
                "channel.reception.capture_threshold_db",
                format!("{cp}: a power ratio in dB within [0, 100]"),
            ));
        }
        for (k, v) in [
            ("noise_floor_dbm", r.noise_floor_dbm),
            ("rx_power_dbm", r.rx_power_dbm),
            ("sensitivity_dbm", r.sensitivity_dbm),
        ] {
            if !v.is_finite() || !(-200.0..=60.0).contains(&v) {
                return Err(ScenarioError::new(
                    format!("channel.reception.{k}"),
                    format!("{v}: a power in dBm within [-200, 60]"),
                ));
            }
        }
    }
    let gains = s
        .aps
        .iter()
        .enumerate()
        .map(|(i, a)| (format!("aps[{i}].antenna_gain_db"), a.antenna_gain_db))
        .chain(
            s.stations
                .iter()
                .enumerate()
                .map(|(i, g)| (format!("stations[{i}].antenna_gain_db"), g.antenna_gain_db)),
        );
    for (key, gain) in gains {
        if let Some(gain) = gain {
            if !gain.is_finite() || gain.abs() > 60.0 {
                return Err(ScenarioError::new(
                    key,
                    format!("{gain}: a gain in dB within [-60, 60]"),
                ));
            }
        }
    }
    Ok(())
}

/// With the SINR model every frame's rate needs an error curve: the standard's rates only.
pub fn check_rates(
    modulation: Modulation,
    links: impl Iterator<Item = LinkRates>,
) -> Result<(), ScenarioError> {
    for l in links {
        // An HT/VHT data frame's curve is its MCS's.
        let data = l.ht.is_none().then_some(l.data);
        for rate in data.into_iter().chain([l.rts, l.cts, l.ack]) {
            if Mode::of(modulation, rate).is_none() {
                return Err(ScenarioError::new(
                    "channel.reception.model",
                    format!(
                        "\"sinr\" with a frame at {} Mb/s: the SINR model has error curves \
                         for the standard's rates only (phy.nonstandard_rate)",
                        rate as f64 / 1e6
                    ),
                ));
            }
        }
    }
    Ok(())
}
