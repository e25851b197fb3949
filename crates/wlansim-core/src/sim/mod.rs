//! The discrete-event engine: integer clock, event queue, random streams.
pub mod event;
pub mod rng;
pub mod time;
