//! Network-layer pieces: packets and drop-tail queues.
pub mod packet;
pub mod queue;

pub use packet::Kind;
pub use packet::{NodeId, Packet};
pub use queue::{DropTail, TxQueue};
