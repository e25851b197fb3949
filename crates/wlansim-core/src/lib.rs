//! wlansim-core: a packet-level discrete-event simulator of infrastructure IEEE 802.11
//! WLANs (DCF; EDCA to come), with UDP traffic (TCP to come), and the statistics the
//! studies in `shared/papers` need. Pure Rust; the Python package drives it through the
//! `wlansim-py` bindings.
//!
//! Flow of data: [`scenario`] (validated input) → [`world`] (nodes, MAC, traffic, event
//! loop) → [`results`] (tables).
pub mod ap;
pub mod app;
pub mod channel;
pub mod emulation;
pub mod mac;
pub mod net;
pub mod phy;
pub mod results;
pub mod scenario;
pub mod sim;
pub mod stats;
pub mod tcp;
pub mod trace;
pub mod world;

pub use results::Results;
pub use scenario::{Scenario, ScenarioError};
pub use world::{simulate, simulate_with, SimError};
