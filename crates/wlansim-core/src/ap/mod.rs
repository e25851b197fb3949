//! Access-point mechanisms above the MAC. The separate data/ACK queues (pilosof2003 §V's
//! rejected baseline) are a queue discipline, [`crate::net::TxQueue`]; the advertised
//! window rewriting is here.
pub mod rwnd_clamp;

pub use rwnd_clamp::RwndClamp;
