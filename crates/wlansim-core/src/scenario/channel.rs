//! The `[channel]` table: the loss model of the radio links, scenario-wide defaults and
//! per-link overrides. Today's model is i.i.d. data frame errors (`channel::iid`); a
//! station group's own `fer` / `fer_uplink` / `fer_downlink` keys are sugar for a
//! `[[channel.links]]` entry naming that group.
//!
//! ```toml
//! [channel]
//! fer = 0.01                  # every station's link with its AP, both directions
//! [[channel.links]]
//! stations = "far"            # a station group
//! fer_uplink = 0.2            # fer (both directions), fer_uplink, fer_downlink
//! bursts_downlink = { model = "gilbert-elliott", per = 0.2, burst_length = 10 }
//! ```
use super::{Scenario, ScenarioError, StationGroup};
use crate::channel::consecutive_burst::Phase;
use crate::channel::{BurstParams, BurstSpec};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChannelConfig {
    /// Data frame error rate of every station's link with its AP, both directions; in
    /// [0, 1).
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub fer: f64,
    /// Bursty losses of every station's link with its AP, both directions (replaces `fer`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bursts: Option<BurstLoss>,
    /// Per-link overrides.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkLoss>,
    /// Distance-based reception of data frames (on top of the loss models above); needs
    /// a `position` on every AP and station group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub propagation: Option<super::propagation::PropagationConfig>,
    /// How receivers decide they got a frame: `none` (any overlap destroys every frame
    /// in it), `threshold` (ns-2's capture threshold) or `sinr` (error curves at each
    /// frame's SINR, capture of the strongest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reception: Option<super::reception::ReceptionConfig>,
    /// The medium: `auto` (one shared medium where every node senses every other on one
    /// channel, decodes it under two-ray ground, and no receiver hears two frames the
    /// capture threshold apart in power under `threshold`; else carrier sense, NAV and
    /// reception per node) or `spatial` (per node always). The run's `meta.medium` says
    /// which.
    #[serde(default, skip_serializing_if = "Medium::is_auto")]
    pub medium: Medium,
}

/// Which medium a run uses (`[channel] medium`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Medium {
    /// Shared where the geometry allows it, spatial otherwise.
    #[default]
    Auto,
    /// Carrier sense, NAV and reception per node, whatever the geometry.
    Spatial,
}

impl Medium {
    fn is_auto(&self) -> bool {
        *self == Medium::Auto
    }
}

/// The loss of the links between the stations of a group and their AP.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkLoss {
    /// The station group.
    pub stations: String,
    /// Both directions; `fer_uplink` / `fer_downlink` override one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fer: Option<f64>,
    /// Station → AP.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fer_uplink: Option<f64>,
    /// AP → station.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fer_downlink: Option<f64>,
    /// Bursty losses, both directions (replaces the frame error rate); `bursts_uplink` /
    /// `bursts_downlink` override one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bursts: Option<BurstLoss>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bursts_uplink: Option<BurstLoss>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bursts_downlink: Option<BurstLoss>,
}

/// A loss model with memory, per link and direction, driven by the link's frame attempts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BurstModel {
    /// Two-state Markov chain (Good/Bad), `per` + `burst_length`, or `good_frames` +
    /// `bad_frames` (mean sojourns in attempts) with `good_fer` (default 0) and `bad_fer`
    /// (default 1).
    GilbertElliott,
    /// fotiadis2005: runs of exactly `burst_length` losses every `burst_length / per`
    /// attempts (an integer), at a random phase per link (`phase`).
    Periodic,
    /// fotiadis2005, random variant: runs of exactly `burst_length` losses starting as a
    /// Bernoulli process with long-run rate `per`.
    Bernoulli,
}

/// Where a periodic pattern starts (`BurstLoss::phase`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PeriodicPhase {
    Uniform,
    Ns2,
}

/// Bursty losses of data frames on one link direction (`channel::bursts`). Each link and
/// direction has its own state and random stream, unless `shared`; MAC control frames
/// stay error-free.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BurstLoss {
    pub model: BurstModel,
    /// Long-run frame error rate, in [0, 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per: Option<f64>,
    /// Mean (Gilbert–Elliott) or exact (periodic, bernoulli: an integer) length of a run
    /// of lost attempts, ≥ 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub burst_length: Option<f64>,
    /// Gilbert–Elliott: frame error rate in the Good state, in [0, 1]; default 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub good_fer: Option<f64>,
    /// Gilbert–Elliott: frame error rate in the Bad state, in [0, 1]; default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bad_fer: Option<f64>,
    /// Gilbert–Elliott: mean sojourn in the Good state, attempts, ≥ 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub good_frames: Option<f64>,
    /// Gilbert–Elliott: mean sojourn in the Bad state, attempts, ≥ 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bad_frames: Option<f64>,
    /// Periodic model: where a link's first attempt falls in its pattern, drawn per link:
    /// `uniform` (anywhere in the period, the default; it may fall inside a burst) or
    /// `ns2` (as ns-2.35's `ErrorModel/Periodic` with `offset_` drawn from 2 to period −
    /// burst_length + 1: the link starts between two bursts, never inside one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<PeriodicPhase>,
    /// The station group's links in this direction share one loss process (one pattern
    /// that every station's attempts move, as one error model at the AP's receiver would);
    /// false (the default): each link has its own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shared: bool,
}

impl BurstLoss {
    /// The model of group `group`'s links in direction `dir`, with the name of the
    /// group's process when `shared`.
    pub fn spec(&self, group: &str, dir: &str) -> BurstSpec {
        BurstSpec {
            params: self.params(),
            shared: self.shared.then(|| format!("{group}/{dir}/shared")),
        }
    }

    /// The model with its defaults filled (validated tables only): a missing `per` is 0
    /// and `burst_length` 1; Gilbert–Elliott's state keys default to a Good state without
    /// errors and a Bad state that loses every frame, one attempt each.
    pub fn params(&self) -> BurstParams {
        let per = self.per.unwrap_or(0.0);
        let burst = self.burst_length.unwrap_or(1.0);
        match self.model {
            BurstModel::GilbertElliott if self.per.is_some() => BurstParams::GilbertElliottPer {
                per,
                burst_length: burst,
            },
            BurstModel::GilbertElliott => BurstParams::GilbertElliott {
                good_fer: self.good_fer.unwrap_or(0.0),
                bad_fer: self.bad_fer.unwrap_or(1.0),
                good_frames: self.good_frames.unwrap_or(1.0),
                bad_frames: self.bad_frames.unwrap_or(1.0),
            },
            BurstModel::Periodic => BurstParams::Periodic {
                per,
                burst_length: burst as u64,
                phase: match self.phase {
                    None | Some(PeriodicPhase::Uniform) => Phase::Uniform,
                    Some(PeriodicPhase::Ns2) => Phase::Ns2,
                },
            },
            BurstModel::Bernoulli => BurstParams::Bernoulli {
                per,
                burst_length: burst as u64,
            },
        }
    }
}

impl ChannelConfig {
    pub fn is_default(&self) -> bool {
        *self == ChannelConfig::default()
    }

    /// The (uplink, downlink) frame error rates of the stations of group `g`: its link
    /// entry (or its own keys), then the channel's default.
    pub fn group_fer(&self, g: &StationGroup) -> (f64, f64) {
        let own = LinkLoss {
            stations: g.name.clone(),
            fer: g.fer,
            fer_uplink: g.fer_uplink,
            fer_downlink: g.fer_downlink,
            ..LinkLoss::default()
        };
        let link = self
            .links
            .iter()
            .find(|l| l.stations == g.name)
            .unwrap_or(&own);
        let both = link.fer.unwrap_or(self.fer);
        (
            link.fer_uplink.unwrap_or(both),
            link.fer_downlink.unwrap_or(both),
        )
    }

    /// The (uplink, downlink) burst models of the stations of group `g`: its link entry,
    /// then the channel's default.
    pub fn group_bursts(&self, g: &StationGroup) -> (Option<&BurstLoss>, Option<&BurstLoss>) {
        let link = self.links.iter().find(|l| l.stations == g.name);
        let both = link
            .and_then(|l| l.bursts.as_ref())
            .or(self.bursts.as_ref());
        (
            link.and_then(|l| l.bursts_uplink.as_ref()).or(both),
            link.and_then(|l| l.bursts_downlink.as_ref()).or(both),
        )
    }
}

impl BurstLoss {
    /// Each model's keys are given, in range, and nothing else; the long-run PER is below
    /// 1 (a link that loses every frame would block a station forever with unlimited
    /// retries and drop everything with a finite limit).
    pub fn validate(&self, at: &str) -> Result<(), ScenarioError> {
        let key = |k: &str| format!("{at}.{k}");
        let bad = |k: &str, v: f64, allowed: &str| {
            Err(ScenarioError::new(key(k), format!("{v}: {allowed}")))
        };
        let given = [
            ("per", self.per),
            ("burst_length", self.burst_length),
            ("good_fer", self.good_fer),
            ("bad_fer", self.bad_fer),
            ("good_frames", self.good_frames),
            ("bad_frames", self.bad_frames),
        ];
        if self.phase.is_some() && self.model != BurstModel::Periodic {
            return Err(ScenarioError::new(
                key("phase"),
                "only the periodic model has a phase (its pattern's start); remove it",
            ));
        }
        let by_per = self.per.is_some() || self.burst_length.is_some();
        let allowed: &[&str] = match (self.model, by_per) {
            (BurstModel::GilbertElliott, false) => {
                &["good_fer", "bad_fer", "good_frames", "bad_frames"]
            }
            _ => &["per", "burst_length"],
        };
        for (k, v) in given {
            if v.is_some() && !allowed.contains(&k) {
                return Err(ScenarioError::new(
                    key(k),
                    format!(
                        "not a key of this burst model (use {}; a Gilbert–Elliott channel \
                         takes either per + burst_length or good/bad_fer + good/bad_frames)",
                        allowed.join(", ")
                    ),
                ));
            }
        }
        for k in allowed {
            let v = given.iter().find(|(n, _)| n == k).and_then(|(_, v)| *v);
            let optional = matches!(*k, "good_fer" | "bad_fer");
            if v.is_none() && !optional {
                return Err(ScenarioError::new(
                    key(k),
                    "missing: this burst model needs it",
                ));
            }
        }
        if !by_per {
            for k in ["good_fer", "bad_fer"] {
                let v = given.iter().find(|(n, _)| *n == k).and_then(|(_, v)| *v);
                if let Some(v) = v.filter(|v| !(0.0..=1.0).contains(v)) {
                    return bad(k, v, "a frame error rate is a probability in [0, 1]");
                }
            }
            for (k, v) in [
                ("good_frames", self.good_frames),
                ("bad_frames", self.bad_frames),
            ] {
                let v = v.unwrap_or(1.0);
                if v.is_nan() || v < 1.0 {
                    return bad(k, v, "a mean sojourn is at least 1 attempt");
                }
            }
            if self.good_fer.unwrap_or(0.0) >= 1.0 && self.bad_fer.unwrap_or(1.0) >= 1.0 {
                return Err(ScenarioError::new(
                    key("good_fer"),
                    "1 with bad_fer 1: every frame would be lost (long-run PER must be below 1)",
                ));
            }
            return Ok(());
        }
        let (per, burst) = (self.per.unwrap_or(0.0), self.burst_length.unwrap_or(1.0));
        if !(0.0..1.0).contains(&per) {
            return bad("per", per, "a long-run packet error rate is in [0, 1)");
        }
        if burst.is_nan() || burst < 1.0 {
            return bad("burst_length", burst, "a burst is at least 1 frame");
        }
        if self.model == BurstModel::GilbertElliott {
            // Good sojourn L(1 − p)/p ≥ 1 attempt.
            if per > burst / (burst + 1.0) {
                return bad(
                    "per",
                    per,
                    &format!(
                        "at most L/(L + 1) = {} for burst_length {burst}",
                        burst / (burst + 1.0)
                    ),
                );
            }
            return Ok(());
        }
        if burst.fract() != 0.0 {
            return bad(
                "burst_length",
                burst,
                "this model's bursts are a whole number of frames",
            );
        }
        if per == 0.0 {
            return bad(
                "per",
                per,
                "this model needs a PER above 0 (leave the link to fer = 0)",
            );
        }
        if self.model == BurstModel::Periodic {
            let period = burst / per;
            if (period - period.round()).abs() > 1e-6 * period || period.round() > u32::MAX as f64 {
                return bad(
                    "per",
                    per,
                    &format!(
                        "the period burst_length / per = {period} must be a whole number of frames"
                    ),
                );
            }
        } else if per > burst / (burst + 1.0) {
            // A burst is followed by at least one delivered attempt.
            return bad(
                "per",
                per,
                &format!(
                    "at most L/(L + 1) = {} for burst_length {burst}",
                    burst / (burst + 1.0)
                ),
            );
        }
        Ok(())
    }
}

fn fer(at: String, f: f64) -> Result<(), ScenarioError> {
    if (0.0..1.0).contains(&f) {
        return Ok(());
    }
    Err(ScenarioError::new(
        at,
        format!("{f}: a frame error rate is a probability in [0, 1)"),
    ))
}

/// Every frame error rate is a probability below 1; link entries name existing groups,
/// once, and a group's own keys and a link entry for it are not both given.
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    fer("channel.fer".into(), s.channel.fer)?;
    if let Some(b) = &s.channel.bursts {
        b.validate("channel.bursts")?;
    }
    for (i, g) in s.stations.iter().enumerate() {
        for (key, f) in [
            ("fer", g.fer),
            ("fer_uplink", g.fer_uplink),
            ("fer_downlink", g.fer_downlink),
        ] {
            if let Some(f) = f {
                fer(format!("stations[{i}].{key}"), f)?;
            }
        }
    }
    let groups: Vec<&str> = s.stations.iter().map(|g| g.name.as_str()).collect();
    for (i, l) in s.channel.links.iter().enumerate() {
        let at = |key: &str| format!("channel.links[{i}].{key}");
        super::checks::reference(at("stations"), &l.stations, "a station group", &groups)?;
        if s.channel.links[..i]
            .iter()
            .any(|o| o.stations == l.stations)
        {
            return Err(ScenarioError::new(
                at("stations"),
                format!("\"{}\" has a link entry already", l.stations),
            ));
        }
        let g = &s.stations[groups.iter().position(|n| *n == l.stations).unwrap_or(0)];
        if g.fer.is_some() || g.fer_uplink.is_some() || g.fer_downlink.is_some() {
            return Err(ScenarioError::new(
                at("stations"),
                format!(
                    "station group \"{}\" sets its frame error rates itself; keep one of the two",
                    l.stations
                ),
            ));
        }
        for (key, f) in [
            ("fer", l.fer),
            ("fer_uplink", l.fer_uplink),
            ("fer_downlink", l.fer_downlink),
        ] {
            if let Some(f) = f {
                fer(at(key), f)?;
            }
        }
        for (key, b) in [
            ("bursts", &l.bursts),
            ("bursts_uplink", &l.bursts_uplink),
            ("bursts_downlink", &l.bursts_downlink),
        ] {
            if let Some(b) = b {
                b.validate(&at(key))?;
            }
        }
    }
    Ok(())
}
