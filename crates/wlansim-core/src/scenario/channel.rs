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
//! ```
use super::{Scenario, ScenarioError, StationGroup};
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
    /// Per-link overrides.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkLoss>,
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
    }
    Ok(())
}
