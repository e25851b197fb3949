//! The network layer: packets, drop-tail queues, wired links and routes.
pub mod link;
pub mod packet;
pub mod queue;
pub mod routes;

pub use link::{Link, WireEvent, Wires};
pub use packet::Kind;
pub use packet::{NodeId, Packet};
pub use queue::{DropTail, TxQueue};
pub use routes::{Edge, Hop, Routes};
