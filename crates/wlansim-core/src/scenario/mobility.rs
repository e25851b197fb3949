//! A station group's `mobility`: constant-velocity motion from its `position` through a
//! list of waypoints (`channel/mobility.rs` computes where it is). A moving station stays
//! associated with its AP (`ap`), as in ns-2.28, which had no 802.11 hand-off.
//!
//! ```toml
//! [[stations]]
//! name = "n3"
//! position = [150, 0]
//! mobility = { speed = "4 m/s", start = "35 s", waypoints = [[0, 0]] }
//! ```
use super::units::{Duration, Speed};
use super::{Scenario, ScenarioError};
use crate::channel::Trajectory;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Motion at a constant speed from the group's `position` through `waypoints` in turn,
/// standing at the last one afterwards. Every station of the group moves alike.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MobilityConfig {
    /// The speed along every leg.
    pub speed: Speed,
    /// The points to move to, [x, y] in metres (each within ±1000 km), in order (one
    /// point: straight towards it).
    pub waypoints: Vec<[f64; 2]>,
    /// When the motion starts; the stations stand at `position` until then.
    #[serde(default)]
    pub start: Duration,
}

impl MobilityConfig {
    /// The path of a station that stands at `position` before it moves.
    pub fn trajectory(&self, position: [f64; 2]) -> Trajectory {
        Trajectory::moving(position, self.start.0, self.speed.0, &self.waypoints)
    }
}

/// A moving group has a position to start from and bounded waypoints
/// ([`super::bounds::point`]).
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    for (i, g) in s.stations.iter().enumerate() {
        let Some(m) = &g.mobility else { continue };
        let at = |k: &str| format!("stations[{i}].mobility{k}");
        if g.position.is_none() {
            return Err(ScenarioError::new(
                format!("stations[{i}].position"),
                format!(
                    "missing for \"{}\": a moving group starts from its position ([x, y] in \
                     metres)",
                    g.name
                ),
            ));
        }
        if m.waypoints.is_empty() {
            return Err(ScenarioError::new(
                at(".waypoints"),
                "[]: at least one point [x, y] in metres to move to",
            ));
        }
        for (k, &w) in m.waypoints.iter().enumerate() {
            super::bounds::point(at(&format!(".waypoints[{k}]")), w, "a waypoint")?;
        }
    }
    Ok(())
}
