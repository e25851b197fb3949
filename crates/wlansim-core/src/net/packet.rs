//! A packet as the simulator moves it: small and `Copy`, no heap data.
use crate::phy::frame;
use crate::sim::time::Time;
use crate::tcp::Segment;

pub type NodeId = u32;

/// What a packet carries; decides its headers and how queues classify it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Udp,
    Tcp,
}

/// UDP ports: the sink's, and the first source port (one per flow).
pub const UDP_PORT: u16 = 5000;
const UDP_PORT_BASE: u16 = 10000;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Packet {
    /// Index of the flow that generated it.
    pub flow: u32,
    /// Sequence number among the packets of its flow and direction (from 0).
    pub seq: u32,
    /// Application payload bytes (TCP: the segment's payload).
    pub payload_bytes: u32,
    /// IP + transport header bytes (UDP 28; TCP 40, 52 with timestamps).
    pub header_bytes: u32,
    pub kind: Kind,
    /// TCP: travels from the receiving endpoint back to the sending one (ACKs, SYN-ACK);
    /// the two directions are accounted separately.
    pub reverse: bool,
    /// The node that sent it and the node it is for (network-layer addresses).
    pub src: NodeId,
    pub dst: NodeId,
    /// Transport ports (TCP: the connection's; UDP: per flow).
    pub sport: u16,
    pub dport: u16,
    /// The node that receives the frame carrying it over the air (its next hop on the
    /// wireless medium); set when it is handed to the MAC.
    pub hop: NodeId,
    /// Time the application (or TCP endpoint) handed it to the network.
    pub created: Time,
    /// The TCP segment (unused for UDP).
    pub seg: Segment,
}

impl Packet {
    /// A UDP datagram of `payload_bytes` from node `src` to node `dst`.
    pub fn udp(
        flow: u32,
        seq: u32,
        payload_bytes: u32,
        src: NodeId,
        dst: NodeId,
        created: Time,
    ) -> Packet {
        Packet {
            flow,
            seq,
            payload_bytes,
            header_bytes: frame::IP_HEADER + frame::UDP_HEADER,
            kind: Kind::Udp,
            reverse: false,
            src,
            dst,
            sport: UDP_PORT_BASE.wrapping_add(flow as u16),
            dport: UDP_PORT,
            hop: 0,
            created,
            seg: Segment::default(),
        }
    }

    /// Size of the IP datagram the MAC carries.
    #[inline]
    pub fn ip_bytes(&self) -> u32 {
        self.header_bytes + self.payload_bytes
    }

    /// A TCP segment without payload (pure ACK, SYN, SYN-ACK): the "ACK" class of the
    /// AP's queues and of the per-kind counters (pilosof2003 Figs 4–5).
    #[inline]
    pub fn is_tcp_ack(&self) -> bool {
        self.kind == Kind::Tcp && self.payload_bytes == 0
    }
}
