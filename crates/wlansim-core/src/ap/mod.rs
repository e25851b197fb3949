//! Access-point mechanisms above the MAC. The separate data/ACK queues (pilosof2003 §V's
//! rejected baseline) are a queue discipline, [`crate::net::TxQueue`]; the advertised
//! window rewriting and the delay injection of fotiadis2005 (Algorithm 1) are here.
pub mod delay_injection;
pub mod rwnd_clamp;

pub use delay_injection::{ApEvent, DelayInjection};
pub use rwnd_clamp::RwndClamp;
