//! `[channel.propagation]` and the nodes' `position`: distance-based reception
//! (`channel/shadowing.rs`, `channel/two_ray_ground.rs`). Without it the channel has no
//! notion of distance, except under ns-2's MAC profile, where nodes that all have a
//! position get ns-2's two-ray ground model with its defaults
//! ([`Scenario::propagation`]).
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
//! # model = "two-ray-ground"  # ns-2's TwoRayGround: Friis, then d⁻⁴ beyond 86 m
//! # antenna_height_m = 1.5
//! ```
use super::{Scenario, ScenarioError};
use crate::channel::two_ray_ground::TwoRayGroundParams;
use crate::channel::{PathLoss, ShadowingParams};
use crate::mac::MacRules;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The propagation models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PropagationModel {
    /// Log-distance path loss from Friis at `reference_distance_m`, plus a normal term of
    /// `sigma_db` drawn per data frame and receiver (ns-2's `Propagation/Shadowing`).
    Shadowing,
    /// Friis up to the crossover distance 4π·h²/λ, d⁻⁴ beyond, antennas
    /// `antenna_height_m` above the ground; no random term (ns-2's
    /// `Propagation/TwoRayGround`, the model of its wireless examples).
    TwoRayGround,
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
    /// `shadowing`: reference distance d0 of the Friis term, m (ns-2 `dist0_`: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_distance_m: Option<f64>,
    /// `shadowing`: path-loss exponent β (ns-2 `pathlossExp_`: 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_loss_exponent: Option<f64>,
    /// `shadowing`: standard deviation σ of the shadowing term, dB (ns-2 `std_db_`: 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma_db: Option<f64>,
    /// `two-ray-ground`: every antenna's height above the ground, m (ns-2
    /// `Antenna/OmniAntenna set Z_ 1.5`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub antenna_height_m: Option<f64>,
    /// Receive threshold, W (ns-2 `RXThresh_`: 3.652e-10): the default `rx_threshold` of
    /// every AP and station, which the per-frame draw compares with.
    #[serde(default = "default_rx_threshold")]
    pub rx_threshold_w: f64,
    /// Carrier-sense threshold, W (ns-2 `CSThresh_`: 1.559e-11): the default
    /// `cs_threshold` of every AP and station; at most `rx_threshold_w`.
    #[serde(default = "default_cs_threshold")]
    pub cs_threshold_w: f64,
    /// `shadowing`: draw for RTS, CTS and ACK frames too (each its own draw at its
    /// receiver, as ns-2 draws for every frame); false: only data frames are shadowed.
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
fn default_rx_threshold() -> f64 {
    3.652e-10
}

/// ns-2.35's defaults of the models' own keys (`tcl/lib/ns-default.tcl`).
const DEFAULT_D0_M: f64 = 1.0;
const DEFAULT_BETA: f64 = 2.0;
const DEFAULT_SIGMA_DB: f64 = 4.0;
const DEFAULT_ANTENNA_HEIGHT_M: f64 = 1.5;

impl PropagationConfig {
    /// ns-2's two-ray ground model with every default (ns-2.35's wireless examples).
    pub fn ns2_two_ray_ground() -> PropagationConfig {
        PropagationConfig {
            model: PropagationModel::TwoRayGround,
            tx_power_w: default_tx_power(),
            frequency_mhz: default_frequency(),
            reference_distance_m: None,
            path_loss_exponent: None,
            sigma_db: None,
            antenna_height_m: None,
            rx_threshold_w: default_rx_threshold(),
            cs_threshold_w: default_cs_threshold(),
            control_frames: default_control_frames(),
        }
    }

    /// The keys of one model only, as given, with the model they belong to.
    fn model_keys(&self) -> [(&'static str, Option<f64>, PropagationModel); 4] {
        use PropagationModel::{Shadowing, TwoRayGround};
        [
            ("reference_distance_m", self.reference_distance_m, Shadowing),
            ("path_loss_exponent", self.path_loss_exponent, Shadowing),
            ("sigma_db", self.sigma_db, Shadowing),
            ("antenna_height_m", self.antenna_height_m, TwoRayGround),
        ]
    }

    /// The shadowing model's parameters (its median and its draw); None for a model
    /// without a random term.
    pub fn shadowing(&self) -> Option<ShadowingParams> {
        (self.model == PropagationModel::Shadowing).then(|| ShadowingParams {
            tx_power_w: self.tx_power_w,
            frequency_mhz: self.frequency_mhz,
            reference_distance_m: self.reference_distance_m.unwrap_or(DEFAULT_D0_M),
            path_loss_exponent: self.path_loss_exponent.unwrap_or(DEFAULT_BETA),
            sigma_db: self.sigma_db.unwrap_or(DEFAULT_SIGMA_DB),
            rx_threshold_w: self.rx_threshold_w,
        })
    }

    /// How the median power falls with distance.
    pub fn path_loss(&self) -> PathLoss {
        match self.shadowing() {
            Some(p) => PathLoss::LogDistance(p),
            None => PathLoss::TwoRayGround(TwoRayGroundParams {
                tx_power_w: self.tx_power_w,
                frequency_mhz: self.frequency_mhz,
                antenna_height_m: self.antenna_height_m.unwrap_or(DEFAULT_ANTENNA_HEIGHT_M),
            }),
        }
    }
}

impl Scenario {
    /// The propagation model the run uses: `[channel.propagation]`, else under ns-2's MAC
    /// profile, when every AP and station group has a `position`, ns-2's two-ray ground
    /// model with its defaults (the model of ns-2.35's wireless examples, whose nodes all
    /// stand somewhere), else none.
    pub fn propagation(&self) -> Option<PropagationConfig> {
        if let Some(p) = &self.channel.propagation {
            return Some(p.clone());
        }
        let placed = self.aps.iter().all(|a| a.position.is_some())
            && self.stations.iter().all(|g| g.position.is_some());
        (self.mac_rules() == MacRules::Ns2 && placed && !self.aps.is_empty())
            .then(PropagationConfig::ns2_two_ray_ground)
    }
}

/// Positions are finite and bounded ([`super::bounds::point`]); with a propagation model every station group and AP has one,
/// and its parameters are in range.
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    let bounded = |at: String, p: Option<[f64; 2]>| match p {
        Some(p) => super::bounds::point(at, p, "a position"),
        None => Ok(()),
    };
    for (i, ap) in s.aps.iter().enumerate() {
        bounded(format!("aps[{i}].position"), ap.position)?;
    }
    for (i, g) in s.stations.iter().enumerate() {
        bounded(format!("stations[{i}].position"), g.position)?;
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
        ("rx_threshold_w", p.rx_threshold_w, "a power in W, above 0"),
        ("cs_threshold_w", p.cs_threshold_w, "a power in W, above 0"),
    ] {
        if !(v > 0.0 && v.is_finite()) {
            return Err(ScenarioError::new(at(key), format!("{v}: {allowed}")));
        }
    }
    let keys = p.model_keys();
    if let Some((key, _, _)) = keys.iter().find(|(_, v, m)| v.is_some() && *m != p.model) {
        let own: Vec<&str> = keys
            .iter()
            .filter(|k| k.2 == p.model)
            .map(|k| k.0)
            .collect();
        let name = match p.model {
            PropagationModel::Shadowing => "shadowing",
            PropagationModel::TwoRayGround => "two-ray-ground",
        };
        return Err(ScenarioError::new(
            at(key),
            format!(
                "not a key of model = \"{name}\" (its own: {})",
                own.join(", ")
            ),
        ));
    }
    for (key, v, allowed, positive) in [
        (
            "reference_distance_m",
            p.reference_distance_m,
            "a distance in m, above 0",
            true,
        ),
        (
            "antenna_height_m",
            p.antenna_height_m,
            "a height in m, above 0",
            true,
        ),
        (
            "path_loss_exponent",
            p.path_loss_exponent,
            "β ≥ 0 (2 in free space, 2.7-5 indoors)",
            false,
        ),
        (
            "sigma_db",
            p.sigma_db,
            "σ ≥ 0 dB (0: no shadowing, the mean power decides)",
            false,
        ),
    ] {
        let Some(v) = v else { continue };
        let ok = v.is_finite() && if positive { v > 0.0 } else { v >= 0.0 };
        if !ok {
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
