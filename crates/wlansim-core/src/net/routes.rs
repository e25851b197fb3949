//! Routes, computed once when the world is built (topology as data).
//!
//! The wired graph holds the APs, routers and servers, joined by full-duplex links.
//! Stations are leaves: a station's only neighbour is its AP, over the air, and a packet
//! for a station is routed to that AP, which sends it over the air. Between wired nodes a
//! packet follows the path of least total propagation delay, ties broken by fewer hops,
//! then by the lower link index (Dijkstra from every wired node; deterministic). The table
//! holds, for every pair of wired nodes, the first link of that path: forwarding is one
//! table lookup per hop.
use super::NodeId;
use crate::sim::time::Time;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const NONE: u32 = u32::MAX;

/// Where a node sends a packet next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hop {
    /// The packet has arrived: this node is its destination.
    Here,
    /// Over the air to this node (station → its AP, AP → one of its stations).
    Air(NodeId),
    /// On this wired link.
    Wire(u32),
    /// No route (the topology does not connect the two nodes).
    Unreachable,
}

pub struct Routes {
    /// Per node: its index among the wired nodes, or NONE for a station.
    wired: Vec<u32>,
    /// Per node: the AP of a station, or NONE.
    ap_of: Vec<u32>,
    /// Number of wired nodes.
    n: usize,
    /// `first_link[i·n + j]`: the link leaving wired node i on its path to wired node j.
    first_link: Vec<u32>,
}

/// A directed wired link as routing sees it.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    pub from: NodeId,
    pub to: NodeId,
    pub delay: Time,
}

impl Routes {
    /// `ap_of[node]` is the AP of each station and `None` for every wired node (APs,
    /// routers, servers); `edges[k]` is directed link k.
    pub fn compute(ap_of: &[Option<NodeId>], edges: &[Edge]) -> Routes {
        let mut wired = vec![NONE; ap_of.len()];
        let mut nodes = Vec::new();
        for (node, ap) in ap_of.iter().enumerate() {
            if ap.is_none() {
                wired[node] = nodes.len() as u32;
                nodes.push(node as NodeId);
            }
        }
        let n = nodes.len();
        let mut out: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (k, e) in edges.iter().enumerate() {
            out[wired[e.from as usize] as usize].push(k as u32);
        }
        let mut first_link = vec![NONE; n * n];
        let mut best = vec![(Time::MAX, u32::MAX); n];
        let mut heap = BinaryHeap::new();
        for src in 0..n {
            best.fill((Time::MAX, u32::MAX));
            best[src] = (0, 0);
            heap.push(Reverse((0, 0, src as u32, NONE)));
            while let Some(Reverse((delay, hops, at, first))) = heap.pop() {
                let at = at as usize;
                if (delay, hops) > best[at] || first_link[src * n + at] != NONE {
                    continue;
                }
                first_link[src * n + at] = first;
                for &k in &out[at] {
                    let e = edges[k as usize];
                    let to = wired[e.to as usize] as usize;
                    let cost = (delay + e.delay, hops + 1);
                    if to != src && cost < best[to] {
                        best[to] = cost;
                        let first = if first == NONE { k } else { first };
                        heap.push(Reverse((cost.0, cost.1, to as u32, first)));
                    }
                }
            }
            first_link[src * n + src] = NONE;
        }
        Routes {
            wired,
            ap_of: ap_of.iter().map(|a| a.unwrap_or(NONE)).collect(),
            n,
            first_link,
        }
    }

    /// The next hop at node `at` of a packet for node `dst`.
    #[inline(always)]
    pub fn next_hop(&self, at: NodeId, dst: NodeId) -> Hop {
        if at == dst {
            return Hop::Here;
        }
        let ap = self.ap_of[at as usize];
        if ap != NONE {
            return Hop::Air(ap);
        }
        let target = match self.ap_of[dst as usize] {
            NONE => dst,
            ap if ap == at => return Hop::Air(dst),
            ap => ap,
        };
        let i = self.wired[at as usize] as usize;
        let j = self.wired[target as usize] as usize;
        match self.first_link[i * self.n + j] {
            NONE => Hop::Unreachable,
            link => Hop::Wire(link),
        }
    }

    /// The nodes a packet from `src` to `dst` visits after `src`, given each wired link's
    /// far end (None when a hop is unreachable).
    pub fn path(&self, src: NodeId, dst: NodeId, link_to: &[NodeId]) -> Option<Vec<NodeId>> {
        let mut at = src;
        let mut path = Vec::new();
        while at != dst {
            at = match self.next_hop(at, dst) {
                Hop::Air(next) => next,
                Hop::Wire(link) => link_to[link as usize],
                Hop::Here | Hop::Unreachable => return None,
            };
            if path.len() > self.ap_of.len() {
                return None; // a loop: impossible with shortest paths, kept as a guard
            }
            path.push(at);
        }
        Some(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::MS;

    /// 0, 1: APs; 2: router; 3, 4: servers; 5: station of AP 0; 6: station of AP 1.
    /// Links: 0–2 (10 ms), 1–2 (10 ms), 2–3 (20 ms), 2–4 (30 ms), and a slow direct 0–1.
    fn tree() -> (Routes, Vec<NodeId>) {
        let mut edges = Vec::new();
        for (a, b, d) in [(0, 2, 10), (1, 2, 10), (2, 3, 20), (2, 4, 30), (0, 1, 50)] {
            edges.push(Edge {
                from: a,
                to: b,
                delay: d * MS,
            });
            edges.push(Edge {
                from: b,
                to: a,
                delay: d * MS,
            });
        }
        let ap_of = [None, None, None, None, None, Some(0), Some(1)];
        let link_to = edges.iter().map(|e| e.to).collect();
        (Routes::compute(&ap_of, &edges), link_to)
    }

    #[test]
    fn least_delay_paths_through_the_tree() {
        let (r, to) = tree();
        assert_eq!(r.path(5, 3, &to), Some(vec![0, 2, 3]));
        assert_eq!(r.path(3, 6, &to), Some(vec![2, 1, 6]));
        // Station to station across BSSs: via the router (20 ms), not the 50 ms link.
        assert_eq!(r.path(5, 6, &to), Some(vec![0, 2, 1, 6]));
        assert_eq!(r.next_hop(0, 5), Hop::Air(5));
        assert_eq!(r.next_hop(5, 5), Hop::Here);
        assert_eq!(r.next_hop(6, 3), Hop::Air(1));
    }

    #[test]
    fn disconnected_nodes_have_no_route() {
        let ap_of = [None, None, Some(0)];
        let r = Routes::compute(&ap_of, &[]);
        assert_eq!(r.next_hop(0, 1), Hop::Unreachable);
        assert_eq!(r.path(2, 1, &[]), None);
        assert_eq!(r.path(2, 0, &[]), Some(vec![0]));
    }
}
