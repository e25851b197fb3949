//! The network layer: packets, drop-tail queues, wired links, routes, and the header ns-2's
//! wireless routing agents add.
pub mod link;
pub mod packet;
pub mod queue;
pub mod routes;
pub mod routing_agent;

pub use link::{Link, WireEvent, Wires};
pub use packet::Kind;
pub use packet::{NodeId, Packet};
pub use queue::{DropTail, Place, TxQueue};
pub use routes::{Edge, Hop, Routes};
pub use routing_agent::RoutingAgent;
