//! A packet as the simulator moves it: small and `Copy`, no heap data.
use crate::phy::frame;
use crate::sim::time::Time;

pub type NodeId = u32;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Packet {
    /// Index of the flow that generated it.
    pub flow: u32,
    pub dst: NodeId,
    /// Application payload bytes.
    pub payload_bytes: u32,
    /// Time the application handed it to the network.
    pub created: Time,
}

impl Packet {
    /// Size of the IP datagram the MAC carries (UDP: IP + UDP headers + payload).
    #[inline]
    pub fn ip_bytes(&self) -> u32 {
        frame::IP_HEADER + frame::UDP_HEADER + self.payload_bytes
    }
}
