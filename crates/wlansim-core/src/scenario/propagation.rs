//! `[channel.propagation]` and the nodes' `position`: distance-based reception
//! (`channel/shadowing.rs`). Without it the channel has no notion of distance.
//!
//! ```toml
//! [aps.0]  # or [ap]
//! position = [0, 0]          # metres
//! [[stations]]
//! name = "far"
//! position = [100, 0]        # every station of the group stands there
//! [channel.propagation]
//! model = "shadowing"        # ns-2's log-distance + log-normal shadowing
//! path_loss_exponent = 2.7
//! sigma_db = 4
//! ```
use super::{Scenario, ScenarioError};
use crate::channel::ShadowingParams;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The propagation models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PropagationModel {
    /// Log-distance path loss from Friis at `reference_distance_m`, plus a normal term of
    /// `sigma_db` drawn per data frame and receiver (ns-2's `Propagation/Shadowing`).
    Shadowing,
}

/// Distance-based reception of data frames; every station and AP needs a `position`.
/// Defaults are ns-2.35's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PropagationConfig {
    pub model: PropagationModel,
    /// Transmit power, W (ns-2 `Pt_`: 0.28183815).
    #[serde(default = "default_tx_power")]
    pub tx_power_w: f64,
    /// Carrier frequency, MHz (ns-2 `freq_`: 914).
    #[serde(default = "default_frequency")]
    pub frequency_mhz: f64,
    /// Reference distance d0 of the Friis term, m (ns-2 `dist0_`: 1).
    #[serde(default = "default_d0")]
    pub reference_distance_m: f64,
    /// Path-loss exponent β (ns-2 `pathlossExp_`: 2).
    #[serde(default = "default_beta")]
    pub path_loss_exponent: f64,
    /// Standard deviation σ of the shadowing term, dB (ns-2 `std_db_`: 4).
    #[serde(default = "default_sigma")]
    pub sigma_db: f64,
    /// Receive threshold, W (ns-2 `RXThresh_`: 3.652e-10): the default `rx_threshold` of
    /// every AP and station, which the per-frame draw compares with.
    #[serde(default = "default_rx_threshold")]
    pub rx_threshold_w: f64,
    /// Carrier-sense threshold, W (ns-2 `CSThresh_`: 1.559e-11): the default
    /// `cs_threshold` of every AP and station; at most `rx_threshold_w`.
    #[serde(default = "default_cs_threshold")]
    pub cs_threshold_w: f64,
    /// Draw for RTS, CTS and ACK frames too (each its own draw at its receiver, as ns-2
    /// draws for every frame); false: only data frames are shadowed.
    #[serde(default = "default_control_frames")]
    pub control_frames: bool,
}

fn default_cs_threshold() -> f64 {
    1.559e-11
}

fn default_control_frames() -> bool {
    true
}

fn default_tx_power() -> f64 {
    0.281_838_15
}
fn default_frequency() -> f64 {
    914.0
}
fn default_d0() -> f64 {
    1.0
}
fn default_beta() -> f64 {
    2.0
}
fn default_sigma() -> f64 {
    4.0
}
fn default_rx_threshold() -> f64 {
    3.652e-10
}

impl PropagationConfig {
    pub fn params(&self) -> ShadowingParams {
        ShadowingParams {
            tx_power_w: self.tx_power_w,
            frequency_mhz: self.frequency_mhz,
            reference_distance_m: self.reference_distance_m,
            path_loss_exponent: self.path_loss_exponent,
            sigma_db: self.sigma_db,
            rx_threshold_w: self.rx_threshold_w,
        }
    }
}

/// Positions are finite; with a propagation model every station group and AP has one,
/// and its parameters are in range.
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    let finite = |at: String, p: Option<[f64; 2]>| match p {
        Some(p) if !p.iter().all(|v| v.is_finite()) => Err(ScenarioError::new(
            at,
            format!("{p:?}: a position is [x, y] in metres, finite numbers"),
        )),
        _ => Ok(()),
    };
    for (i, ap) in s.aps.iter().enumerate() {
        finite(format!("aps[{i}].position"), ap.position)?;
    }
    for (i, g) in s.stations.iter().enumerate() {
        finite(format!("stations[{i}].position"), g.position)?;
    }
    let Some(p) = &s.channel.propagation else {
        return Ok(());
    };
    let at = |k: &str| format!("channel.propagation.{k}");
    for (key, v, allowed) in [
        ("tx_power_w", p.tx_power_w, "a power in W, above 0"),
        (
            "frequency_mhz",
            p.frequency_mhz,
            "a frequency in MHz, above 0",
        ),
        (
            "reference_distance_m",
            p.reference_distance_m,
            "a distance in m, above 0",
        ),
        ("rx_threshold_w", p.rx_threshold_w, "a power in W, above 0"),
        ("cs_threshold_w", p.cs_threshold_w, "a power in W, above 0"),
    ] {
        if !(v > 0.0 && v.is_finite()) {
            return Err(ScenarioError::new(at(key), format!("{v}: {allowed}")));
        }
    }
    for (key, v, allowed) in [
        (
            "path_loss_exponent",
            p.path_loss_exponent,
            "β ≥ 0 (2 in free space, 2.7-5 indoors)",
        ),
        (
            "sigma_db",
            p.sigma_db,
            "σ ≥ 0 dB (0: no shadowing, the mean power decides)",
        ),
    ] {
        if !(v >= 0.0 && v.is_finite()) {
            return Err(ScenarioError::new(at(key), format!("{v}: {allowed}")));
        }
    }
    if p.cs_threshold_w > p.rx_threshold_w {
        return Err(ScenarioError::new(
            "channel.propagation.cs_threshold_w",
            format!(
                "{}: the carrier-sense threshold is at most the receive threshold ({} W)",
                p.cs_threshold_w, p.rx_threshold_w
            ),
        ));
    }
    let missing = s
        .aps
        .iter()
        .enumerate()
        .find(|(_, a)| a.position.is_none())
        .map(|(i, a)| (format!("aps[{i}].position"), &a.name))
        .or_else(|| {
            s.stations
                .iter()
                .enumerate()
                .find(|(_, g)| g.position.is_none())
                .map(|(i, g)| (format!("stations[{i}].position"), &g.name))
        });
    if let Some((key, name)) = missing {
        return Err(ScenarioError::new(
            key,
            format!(
                "missing for \"{name}\": channel.propagation needs a position ([x, y] in \
                 metres) for every AP and station group"
            ),
        ));
    }
    Ok(())
}
