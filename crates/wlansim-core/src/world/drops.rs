//! Scripted losses (`[[drops]]`, keys in `scenario/drops.rs`): the network layer asks
//! [`ScriptedDrops::hit`] before a packet leaves a node (`World::forward`), and a hit is
//! dropped there with `DropReason::Scripted`, counted as `dropped_scripted`.
//!
//! A segment rule numbers the data segments of a TCP flow by their first byte: segment n
//! carries the payload from byte (n − 1)·MSS (sequence number 1 + (n − 1)·MSS after the
//! SYN), so a retransmission has the number of the segment it repeats. It counts the
//! transmissions of each listed segment leaving its node and drops the k-th. The counts
//! span the flow's connections (a file sequence on fresh connections numbers each anew,
//! but a segment already seen k times is not dropped again). A window rule drops every
//! packet of the flow (data, ACKs, handshake) leaving its node in [from, to).
use crate::net::{Kind, NodeId, Packet};
use crate::sim::time::Time;

enum What {
    /// (segment number, transmissions seen), sorted by number.
    Segments {
        mss: u64,
        transmission: u32,
        seen: Vec<(u64, u32)>,
    },
    Window {
        from: Time,
        to: Time,
    },
}

struct Rule {
    node: NodeId,
    what: What,
}

/// The rules of every flow; only built when the scenario has `[[drops]]`.
pub struct ScriptedDrops {
    /// Per flow: its rules (empty for most).
    by_flow: Vec<Vec<Rule>>,
}

impl ScriptedDrops {
    pub fn new(flows: usize) -> Self {
        ScriptedDrops {
            by_flow: (0..flows).map(|_| Vec::new()).collect(),
        }
    }

    /// Drop the given data segments of `flow` (of `mss` bytes) at their `transmission`-th
    /// passage through `node`.
    pub fn add_segments(
        &mut self,
        flow: u32,
        node: NodeId,
        mss: u32,
        transmission: u32,
        segments: &[u32],
    ) {
        let mut seen: Vec<(u64, u32)> = segments.iter().map(|&n| (n as u64, 0)).collect();
        seen.sort_unstable();
        seen.dedup();
        let what = What::Segments {
            mss: mss as u64,
            transmission,
            seen,
        };
        self.by_flow[flow as usize].push(Rule { node, what });
    }

    /// Drop every packet of `flow` leaving `node` in [from, to).
    pub fn add_window(&mut self, flow: u32, node: NodeId, from: Time, to: Time) {
        let what = What::Window { from, to };
        self.by_flow[flow as usize].push(Rule { node, what });
    }

    /// Whether `p`, about to leave `node` at `now`, is dropped (counts its transmission).
    pub fn hit(&mut self, now: Time, node: NodeId, p: &Packet) -> bool {
        let mut hit = false;
        for rule in &mut self.by_flow[p.flow as usize] {
            if rule.node != node {
                continue;
            }
            match &mut rule.what {
                What::Window { from, to } => hit |= (*from..*to).contains(&now),
                What::Segments {
                    mss,
                    transmission,
                    seen,
                } => {
                    if p.kind != Kind::Tcp || p.reverse || p.payload_bytes == 0 {
                        continue;
                    }
                    let n = p.seg.seq.saturating_sub(1) / *mss + 1;
                    if let Ok(k) = seen.binary_search_by_key(&n, |e| e.0) {
                        seen[k].1 += 1;
                        hit |= seen[k].1 == *transmission;
                    }
                }
            }
        }
        hit
    }
}
