//! The 802.11 MAC: channel-access entities (one per node under DCF, one per access
//! category under EDCA), the EDCA parameters and the classifier that picks an AC.
pub mod aggregate;
mod agreement;
pub mod backoff;
pub mod beacon;
mod capture;
pub mod carrier_sense;
pub mod classifier;
pub(crate) mod contention;
pub mod delivery;
pub mod edca;
pub mod eifs;
pub mod entity;
pub mod event;
pub mod exchange;
pub mod lifetime;
pub mod medium;
pub mod nav;
pub mod ns2;
pub mod rate;
pub(crate) mod shared;
pub(crate) mod spatial;
pub mod store;

pub use backoff::{Backoff, SlotRule};
pub use classifier::{Classifier, PacketInfo};
pub use delivery::Delivery;
pub use edca::{AccessCategory, EdcaParams};
pub use eifs::EifsStart;
pub use entity::{AccessParams, Entity, MacStats};
pub use event::{MacEvent, MacOutcome};
pub use exchange::{exchange_times, ExchangeTimes};
pub use medium::Mac;
pub use ns2::MacRules;
