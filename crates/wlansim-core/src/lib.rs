//! wlansim-core: a packet-level discrete-event simulator of infrastructure IEEE 802.11
//! WLANs (DCF, later EDCA), with UDP and TCP traffic, and the statistics the studies in
//! `shared/papers` need. Pure Rust; the Python package drives it through `wlansim-py`.
//!
//! Flow of data: [`scenario`] (validated input) → [`world`] (nodes, MAC, traffic, event
//! loop) → [`results`] (tables).
pub mod sim;
pub mod tcp;
