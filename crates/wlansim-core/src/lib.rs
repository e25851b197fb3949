//! wlansim-core: a packet-level discrete-event simulator of infrastructure IEEE 802.11
//! WLANs (DCF and EDCA, UDP and TCP), with the statistics the five studies cited in the
//! README need. Pure Rust; the Python package drives it through the
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

pub use results::{Results, BUILD};
pub use scenario::{Scenario, ScenarioError};
pub use world::{simulate, simulate_with, SimError};
