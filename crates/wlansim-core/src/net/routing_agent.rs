//! The header ns-2's wireless routing agents put on the packets a node originates
//! (scenario key `routing_agent`, ns-2's `-adhocRouting`). ns-2's transport agents size
//! their packets without it (`Agent/TCP` 40 header bytes, `Agent/UDP` none); the routing
//! agent of the node a packet starts from then adds `IP_HDR_LEN` (20 bytes), so those
//! packets take 20 bytes more airtime than the same packets forwarded by a node:
//! - DSDV: every packet the node originates (`dsdv/dsdv.cc` `DSDV_Agent::recv`:
//!   `src == myaddr_ && num_forwards() == 0` → `size() += IP_HDR_LEN`);
//! - AODV: the same, except TCP data and ACKs, "TCP adds the IP header too"
//!   (`aodv/aodv.cc` `AODV::recv`: `ptype() != PT_TCP && ptype() != PT_ACK`);
//! - DumbAgent (`mobile/dumb-agent.cc`), and the standard: nothing.
//!
//! Only wireless nodes (APs and stations: ns-2's mobile nodes, base stations included) run
//! a routing agent; wired nodes add nothing.
use super::packet::Kind;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `IP_HDR_LEN` of ns-2's `common/ip.h`.
pub const IP_HDR_LEN: u32 = 20;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RoutingAgent {
    /// No header of its own (the standard; ns-2's DumbAgent).
    #[default]
    None,
    /// ns-2's DSDV: 20 bytes on every packet a wireless node originates.
    Dsdv,
    /// ns-2's AODV: 20 bytes on the UDP packets a wireless node originates (not on TCP).
    Aodv,
}

impl RoutingAgent {
    /// Bytes the agent of a wireless node adds to a packet of `kind` it originates.
    pub fn origin_header_bytes(self, kind: Kind) -> u32 {
        match (self, kind) {
            (RoutingAgent::Dsdv, _) | (RoutingAgent::Aodv, Kind::Udp) => IP_HDR_LEN,
            (RoutingAgent::None, _) | (RoutingAgent::Aodv, Kind::Tcp) => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dsdv_adds_to_every_packet_aodv_not_to_tcp() {
        assert_eq!(RoutingAgent::Dsdv.origin_header_bytes(Kind::Tcp), 20);
        assert_eq!(RoutingAgent::Dsdv.origin_header_bytes(Kind::Udp), 20);
        assert_eq!(RoutingAgent::Aodv.origin_header_bytes(Kind::Tcp), 0);
        assert_eq!(RoutingAgent::Aodv.origin_header_bytes(Kind::Udp), 20);
        assert_eq!(RoutingAgent::None.origin_header_bytes(Kind::Udp), 0);
    }
}
