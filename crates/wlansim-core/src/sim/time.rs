//! Simulation time: an integer number of nanoseconds (DESIGN.md, engine rules).
//! No floating-point clock anywhere in the engine; conversions to seconds happen only when
//! results are reported.

/// A point in simulated time, or a duration, in nanoseconds.
pub type Time = u64;

pub const NS: Time = 1;
pub const US: Time = 1_000;
pub const MS: Time = 1_000_000;
pub const SECOND: Time = 1_000_000_000;

/// Seconds as `f64`, for reporting only.
pub fn to_secs(t: Time) -> f64 {
    t as f64 / SECOND as f64
}

/// Nearest whole nanosecond of a duration given in seconds (used when reading scenarios).
pub fn from_secs(s: f64) -> Time {
    (s * SECOND as f64).round() as Time
}
