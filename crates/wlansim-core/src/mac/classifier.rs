//! The EDCA classifier: which access category a packet goes to (802.11-2012 9.2.4.2 maps
//! a user priority to an AC; how a packet gets its priority is left to the upper layers —
//! here an ordered list of rules, first match wins, AC_BE when none matches).
//!
//! A rule matches on any combination of: the IP datagram size (ng2005 classified by
//! packet size), the flow's name (as written in the scenario), the packet's DSCP.
use super::edca::AccessCategory;

/// What a rule can look at.
#[derive(Clone, Copy, Debug)]
pub struct PacketInfo<'a> {
    /// The flow's name in the scenario (`[[flows]] name`).
    pub flow: &'a str,
    /// IP datagram length, bytes.
    pub ip_bytes: u32,
    /// Differentiated Services codepoint (RFC 2474), if the flow sets one.
    pub dscp: Option<u8>,
}

/// One rule: every criterion given must hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub ac: AccessCategory,
    /// Inclusive range of IP datagram sizes, bytes.
    pub size: Option<(u32, u32)>,
    pub flow: Option<String>,
    pub dscp: Option<u8>,
}

impl Rule {
    pub fn matches(&self, p: &PacketInfo) -> bool {
        self.size
            .is_none_or(|(lo, hi)| (lo..=hi).contains(&p.ip_bytes))
            && self.flow.as_deref().is_none_or(|f| f == p.flow)
            && self.dscp.is_none_or(|d| p.dscp == Some(d))
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
        }
    }

    fn pkt(flow: &str, ip_bytes: u32, dscp: Option<u8>) -> PacketInfo<'_> {
        PacketInfo {
            flow,
            ip_bytes,
            dscp,
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
                    flow: Some("video".into()),
                    ..rule(Vi)
                },
                Rule {
                    dscp: Some(8),
                    ..rule(Bk)
                },
            ],
        };
        assert_eq!(c.classify(&pkt("video", 60, None)), Vo, "size rule first");
        assert_eq!(c.classify(&pkt("video", 1500, None)), Vi);
        assert_eq!(c.classify(&pkt("bulk", 1500, Some(8))), Bk);
        assert_eq!(c.classify(&pkt("bulk", 1500, Some(46))), Be);
        assert_eq!(
            c.classify(&pkt("bulk", 101, None)),
            Be,
            "size range inclusive"
        );
        assert_eq!(c.classify(&pkt("bulk", 100, None)), Vo);
    }

    #[test]
    fn every_criterion_of_a_rule_must_hold() {
        let c = Classifier {
            rules: vec![Rule {
                size: Some((1000, 2000)),
                flow: Some("up".into()),
                dscp: Some(46),
                ..rule(Vo)
            }],
        };
        assert_eq!(c.classify(&pkt("up", 1500, Some(46))), Vo);
        assert_eq!(c.classify(&pkt("up", 1500, None)), Be);
        assert_eq!(c.classify(&pkt("down", 1500, Some(46))), Be);
        assert_eq!(c.classify(&pkt("up", 500, Some(46))), Be);
    }
}
