//! The EDCA classifier: which access category a packet goes to (802.11-2012 9.2.4.2 maps
//! a user priority to an AC; how a packet gets its priority is left to the upper layers —
//! here an ordered list of rules, first match wins, AC_BE when none matches).
//!
//! A rule matches on any combination of: the IP datagram size (ng2005 classified by
//! packet size), the flow (a `[[flows]]` entry of the scenario), the packet's DSCP, and
//! whether it is a TCP segment without payload (a pure ACK, as the ACK class of ng2005
//! Table 2). Packets are classified one by one as they are queued.
use super::edca::AccessCategory;

/// What a rule can look at.
#[derive(Clone, Copy, Debug)]
pub struct PacketInfo {
    /// Index of the flow's `[[flows]]` entry in the scenario.
    pub flow: u32,
    /// IP datagram length, bytes.
    pub ip_bytes: u32,
    /// Differentiated Services codepoint (RFC 2474), if the flow sets one.
    pub dscp: Option<u8>,
    /// A TCP segment without payload (pure ACK, SYN, SYN-ACK).
    pub tcp_ack: bool,
}

/// One rule: every criterion given must hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub ac: AccessCategory,
    /// Inclusive range of IP datagram sizes, bytes.
    pub size: Option<(u32, u32)>,
    /// Index of a `[[flows]]` entry.
    pub flow: Option<u32>,
    pub dscp: Option<u8>,
    /// `true`: TCP segments without payload only; `false`: every other packet.
    pub tcp_ack: Option<bool>,
}

impl Rule {
    pub fn matches(&self, p: &PacketInfo) -> bool {
        self.size
            .is_none_or(|(lo, hi)| (lo..=hi).contains(&p.ip_bytes))
            && self.flow.is_none_or(|f| f == p.flow)
            && self.dscp.is_none_or(|d| p.dscp == Some(d))
            && self.tcp_ack.is_none_or(|a| a == p.tcp_ack)
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Classifier {
    pub rules: Vec<Rule>,
}

impl Classifier {
    /// The AC of the first matching rule; AC_BE otherwise.
    pub fn classify(&self, p: &PacketInfo) -> AccessCategory {
        self.rules
            .iter()
            .find(|r| r.matches(p))
            .map_or(AccessCategory::Be, |r| r.ac)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AccessCategory::*;

    fn rule(ac: AccessCategory) -> Rule {
        Rule {
            ac,
            size: None,
            flow: None,
            dscp: None,
            tcp_ack: None,
        }
    }

    const BULK: u32 = 0;
    const VIDEO: u32 = 1;

    fn pkt(flow: u32, ip_bytes: u32, dscp: Option<u8>) -> PacketInfo {
        PacketInfo {
            flow,
            ip_bytes,
            dscp,
            tcp_ack: false,
        }
    }

    #[test]
    fn first_matching_rule_wins_and_unmatched_is_best_effort() {
        let c = Classifier {
            rules: vec![
                Rule {
                    size: Some((0, 100)),
                    ..rule(Vo)
                },
                Rule {
                    flow: Some(VIDEO),
                    ..rule(Vi)
                },
                Rule {
                    dscp: Some(8),
                    ..rule(Bk)
                },
            ],
        };
        assert_eq!(c.classify(&pkt(VIDEO, 60, None)), Vo, "size rule first");
        assert_eq!(c.classify(&pkt(VIDEO, 1500, None)), Vi);
        assert_eq!(c.classify(&pkt(BULK, 1500, Some(8))), Bk);
        assert_eq!(c.classify(&pkt(BULK, 1500, Some(46))), Be);
        assert_eq!(
            c.classify(&pkt(BULK, 101, None)),
            Be,
            "size range inclusive"
        );
        assert_eq!(c.classify(&pkt(BULK, 100, None)), Vo);
    }

    #[test]
    fn every_criterion_of_a_rule_must_hold() {
        let c = Classifier {
            rules: vec![Rule {
                size: Some((1000, 2000)),
                flow: Some(BULK),
                dscp: Some(46),
                ..rule(Vo)
            }],
        };
        assert_eq!(c.classify(&pkt(BULK, 1500, Some(46))), Vo);
        assert_eq!(c.classify(&pkt(BULK, 1500, None)), Be);
        assert_eq!(c.classify(&pkt(VIDEO, 1500, Some(46))), Be);
        assert_eq!(c.classify(&pkt(BULK, 500, Some(46))), Be);
    }

    #[test]
    fn tcp_ack_rule_separates_pure_acks_from_data() {
        let c = Classifier {
            rules: vec![Rule {
                tcp_ack: Some(true),
                ..rule(Vo)
            }],
        };
        let ack = PacketInfo {
            tcp_ack: true,
            ..pkt(BULK, 52, None)
        };
        assert_eq!(c.classify(&ack), Vo);
        assert_eq!(c.classify(&pkt(BULK, 52, None)), Be, "a 52-byte non-ACK");
        let data_only = Classifier {
            rules: vec![Rule {
                tcp_ack: Some(false),
                ..rule(Vi)
            }],
        };
        assert_eq!(data_only.classify(&ack), Be);
        assert_eq!(data_only.classify(&pkt(BULK, 1500, None)), Vi);
    }
}
