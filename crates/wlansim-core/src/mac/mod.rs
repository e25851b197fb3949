//! The 802.11 MAC: channel-access entities (DCF now; EDCA gives a node one per access
//! category) and the timing of frame exchanges.
pub mod backoff;
pub mod entity;

pub use backoff::Backoff;
pub use entity::{AccessParams, Entity, MacStats};
