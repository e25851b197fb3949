//! Statistics collected during a run.
pub mod histogram;

pub use histogram::Histogram;
