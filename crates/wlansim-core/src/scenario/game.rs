//! `[flows.game]`: one direction of a game (`traffic = "game"`, `app/game.rs`).
//!
//! ```toml
//! [[flows]]            # the client's events, station → server
//! name = "game-up"
//! direction = "uplink"
//! stations = "n1"
//! server = "a1"
//! traffic = "game"     # defaults: 42 B every 60 ms up, 200 B every 50 ms down
//! game = { size = { distribution = "fixed", value = "42 B" }, interval = { distribution = "exponential", mean = "60 ms" } }
//! ```
use super::files::{size_draw, time_draw};
use super::units::{Bytes, Duration};
use super::{Direction, ScenarioError, SizeDistribution, ThinkDistribution};
use crate::app::udp::MAX_MESSAGE_BYTES;
use crate::app::{Draw, GameSource};
use crate::sim::time::MS;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Message sizes and intervals of one direction of a game; each fixed when absent, at the
/// direction's default (janevski2009 §3: client events 42 B every 60 ms uplink, server
/// updates 200 B every 50 ms downlink).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameConfig {
    /// Payload bytes per message: `{ distribution = "fixed", value }`, `"exponential"`
    /// (`mean`), `"pareto"`, `"log-normal"` or `"empirical"` (`csv`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<SizeDistribution>,
    /// Time between messages: `{ distribution = "fixed", value }`, `"exponential"`
    /// (`mean`) or `"empirical"` (`csv`, seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<ThinkDistribution>,
}

/// The defaults of a direction: (size, interval).
fn defaults(direction: Direction) -> (Bytes, Duration) {
    match direction {
        Direction::Uplink => (Bytes(42), Duration(60 * MS)),
        Direction::Downlink => (Bytes(200), Duration(50 * MS)),
    }
}

impl GameConfig {
    /// The source of one flow of the entry at key `at` (`flows[i].game`).
    pub fn source(&self, direction: Direction, at: &str) -> Result<GameSource, ScenarioError> {
        let (size, interval) = defaults(direction);
        let size = match &self.size {
            None => Draw::Fixed(size.0 as f64),
            Some(d) => size_draw(
                d,
                &format!("{at}.size"),
                MAX_MESSAGE_BYTES as u64,
                "a game message",
            )?,
        };
        let interval = match &self.interval {
            None => Draw::Fixed(interval.0 as f64),
            Some(ThinkDistribution::Fixed { value }) if value.0 == 0 => {
                return Err(ScenarioError::new(
                    format!("{at}.interval.value"),
                    "0 s: a game sends messages at intervals above 0",
                ))
            }
            Some(d) => time_draw(d, &format!("{at}.interval"), "interval")?,
        };
        Ok(GameSource::new(size, interval))
    }
}
