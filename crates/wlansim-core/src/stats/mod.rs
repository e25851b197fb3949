//! Statistics collected during a run.
pub mod histogram;
pub mod jitter;

pub use histogram::Histogram;
pub use jitter::Jitter;
