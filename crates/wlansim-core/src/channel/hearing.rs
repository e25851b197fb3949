//! Who hears whom: which nodes a transmission reaches at or above their floor (the lower
//! of their carrier-sense and receive thresholds), on the same channel, and with what
//! median power. Below its floor a node neither senses a frame nor counts it as
//! interference, as in ns-2 (`WirelessPhy::sendUp` drops a packet below `CSThresh_`).
//! Under shadowing each frame's power at each node is drawn (`shadowing.rs`): the lists
//! then hold the nodes whose median power reaches their floor times the model's reach
//! factor, and the draw decides (`mac/spatial.rs` `signal_start`).
//!
//! The cost of a transmission grows with the nodes that hear it, not with the network:
//! - a node that does not move has, from the start, the list of the static nodes that
//!   hear it, with their powers (found through a grid over positions whose cells are as
//!   wide as the farthest any frame reaches);
//! - a moving transmitter looks up the static nodes in the 3 × 3 cells around where it is
//!   at the frame's time;
//! - moving receivers are checked one by one at the frame's time (there are few).
//!
//! [`Hearing::everyone_hears`] says whether every wireless node hears every other at
//! every point of their paths on one channel: then the MAC keeps one shared medium (as
//! wlansim did before it had the spatial one, and as a scenario within carrier-sense
//! range of ns-2's `CSThresh_` runs in ns-2).
use super::power::LinkBudget;
use super::Positions;
use crate::net::NodeId;
use crate::sim::time::Time;

/// What the hearing of one node is made of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Radio {
    /// Its channel; None for a wired node, which hears nothing.
    pub channel: Option<u16>,
    /// The weakest frame it locks onto (preamble detection, `rx_threshold`), W.
    pub rx_w: f64,
    /// The weakest signal that makes its medium busy when not locked onto it
    /// (`cs_threshold`), W.
    pub cs_w: f64,
}

impl Radio {
    /// The weakest signal the node notices at all.
    #[inline]
    pub fn floor_w(&self) -> f64 {
        self.rx_w.min(self.cs_w)
    }
}

/// Static nodes in square cells of a side at least the reach of any frame.
struct Grid {
    cell: f64,
    x0: f64,
    y0: f64,
    nx: i64,
    ny: i64,
    cells: Vec<Vec<NodeId>>,
}

impl Grid {
    fn new(cell: f64, nodes: &[(NodeId, [f64; 2])]) -> Grid {
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for &(_, p) in nodes {
            (x0, y0, x1, y1) = (x0.min(p[0]), y0.min(p[1]), x1.max(p[0]), y1.max(p[1]));
        }
        if nodes.is_empty() {
            (x0, y0, x1, y1) = (0.0, 0.0, 0.0, 0.0);
        }
        // One cell when the reach spans everything (or is infinite).
        let span = (x1 - x0).max(y1 - y0);
        let mut cell = if cell.is_finite() && cell > 0.0 && cell < span {
            cell
        } else {
            span.max(1.0) * 2.0
        };
        // At most four cells per node (a short reach over a wide area would otherwise ask
        // for more cells than memory holds): wider cells only add candidates, which
        // `Hearing::hears` then turns away, so who hears whom is the same.
        let cells = |cell: f64| ((x1 - x0) / cell + 1.0).floor() * ((y1 - y0) / cell + 1.0).floor();
        while cells(cell) > 4.0 * nodes.len().max(1) as f64 {
            cell *= 2.0;
        }
        let count = |extent: f64| (extent / cell).floor() as i64 + 1;
        let (nx, ny) = (count(x1 - x0), count(y1 - y0));
        let mut cells = vec![Vec::new(); (nx * ny) as usize];
        let mut grid = Grid {
            cell,
            x0,
            y0,
            nx,
            ny,
            cells: Vec::new(),
        };
        for &(n, p) in nodes {
            let (i, j) = grid.cell_of(p);
            cells[(j * nx + i) as usize].push(n);
        }
        grid.cells = cells;
        grid
    }

    fn cell_of(&self, p: [f64; 2]) -> (i64, i64) {
        (
            ((p[0] - self.x0) / self.cell).floor() as i64,
            ((p[1] - self.y0) / self.cell).floor() as i64,
        )
    }

    /// Every node in the cells around `p` (its own and the eight next to it).
    fn near(&self, p: [f64; 2], mut visit: impl FnMut(NodeId)) {
        let (i, j) = self.cell_of(p);
        for jj in (j - 1).max(0)..=(j + 1).min(self.ny - 1) {
            for ii in (i - 1).max(0)..=(i + 1).min(self.nx - 1) {
                for &n in &self.cells[(jj * self.nx + ii) as usize] {
                    visit(n);
                }
            }
        }
    }
}

pub struct Hearing {
    radios: Vec<Radio>,
    /// A node is listed where its median power reaches its floor times this (≤ 1: the
    /// shadowing draws' reach, `Channel::reach_factor`).
    reach: f64,
    /// Per node that does not move: the static nodes that hear it and their powers, in
    /// node order ([`Hearing::with_lists`]: the spatial medium's; as many entries as
    /// pairs of nodes in reach, so never made for the shared medium).
    lists: Vec<Vec<(NodeId, f64)>>,
    moving: Vec<bool>,
    /// The wireless nodes that move.
    mobile: Vec<NodeId>,
    /// The wireless nodes that do not move, and where they stand.
    placed: Vec<(NodeId, [f64; 2])>,
    grid: Grid,
}

impl Hearing {
    /// Per node, its radio; `positions` says where each is and which move; `reach`: a
    /// node whose median power reaches its floor times this may hear a frame (1 without
    /// shadowing draws). Memory and time linear in the nodes: the neighbour lists come
    /// with [`Hearing::with_lists`].
    pub fn new(
        radios: Vec<Radio>,
        budget: &LinkBudget,
        positions: &Positions,
        reach: f64,
    ) -> Hearing {
        let n = radios.len();
        let wireless = |i: usize| radios[i].channel.is_some();
        let moving: Vec<bool> = (0..n).map(|i| positions.moves(i)).collect();
        let mobile = (0..n)
            .filter(|&i| wireless(i) && moving[i])
            .map(|i| i as NodeId)
            .collect();
        let floor = radios
            .iter()
            .filter(|r| r.channel.is_some())
            .map(Radio::floor_w)
            .fold(f64::INFINITY, f64::min);
        let placed: Vec<(NodeId, [f64; 2])> = (0..n)
            .filter(|&i| wireless(i) && !moving[i])
            .map(|i| (i as NodeId, positions.at(i, 0).unwrap_or([0.0, 0.0])))
            .collect();
        let range = if budget.has_path() {
            budget.range_m(floor * reach)
        } else {
            f64::INFINITY
        };
        let grid = Grid::new(range, &placed);
        Hearing {
            radios,
            reach,
            lists: Vec::new(),
            moving,
            mobile,
            placed,
            grid,
        }
    }

    /// With every static node's list of the static nodes that hear it (what
    /// [`Hearing::heard_by`] reads).
    pub fn with_lists(mut self, budget: &LinkBudget, positions: &Positions) -> Hearing {
        let mut lists = vec![Vec::new(); self.radios.len()];
        self.static_pairs(budget, positions, |a, b, power| {
            lists[a as usize].push((b, power))
        });
        for list in &mut lists {
            list.sort_unstable_by_key(|&(b, _)| b);
        }
        self.lists = lists;
        self
    }

    /// `visit(a, b, power)` for every two static nodes such that `b` hears `a`'s frames.
    fn static_pairs(
        &self,
        budget: &LinkBudget,
        positions: &Positions,
        mut visit: impl FnMut(NodeId, NodeId, f64),
    ) {
        for &(a, p) in &self.placed {
            self.grid.near(p, |b| {
                if let Some(power) = self.hears(budget, positions, a, b, 0) {
                    visit(a, b, power);
                }
            });
        }
    }

    pub fn radio(&self, n: NodeId) -> &Radio {
        &self.radios[n as usize]
    }

    /// The median power at which `rx` may hear a frame of `tx` at `now`, if it may at all.
    #[inline]
    fn hears(
        &self,
        budget: &LinkBudget,
        positions: &Positions,
        tx: NodeId,
        rx: NodeId,
        now: Time,
    ) -> Option<f64> {
        let r = &self.radios[rx as usize];
        if tx == rx || r.channel.is_none() || r.channel != self.radios[tx as usize].channel {
            return None;
        }
        let p = budget.power_w(positions, tx, rx, now);
        (p >= r.floor_w() * self.reach).then_some(p)
    }

    /// The nodes that may hear a frame `tx` sends at `now`, with their median powers,
    /// into `out` (cleared first): static ones in node order, then moving ones.
    pub fn heard_by(
        &self,
        budget: &LinkBudget,
        positions: &Positions,
        tx: NodeId,
        now: Time,
        out: &mut Vec<(NodeId, f64)>,
    ) {
        out.clear();
        if self.radios[tx as usize].channel.is_none() {
            return;
        }
        if self.moving[tx as usize] {
            let at = positions.at(tx as usize, now).unwrap_or([0.0, 0.0]);
            self.grid.near(at, |b| {
                if let Some(p) = self.hears(budget, positions, tx, b, now) {
                    out.push((b, p));
                }
            });
            out.sort_unstable_by_key(|&(b, _)| b);
        } else {
            out.extend_from_slice(&self.lists[tx as usize]);
        }
        for &m in &self.mobile {
            if let Some(p) = self.hears(budget, positions, tx, m, now) {
                out.push((m, p));
            }
        }
    }

    /// Whether every wireless node hears (at or above its floor; with `decodes`, at or
    /// above its receive threshold) every other's frames on one channel, at every point
    /// of their paths: the farthest two nodes on two straight legs are at the legs' ends,
    /// and power falls with distance.
    pub fn everyone_hears(
        &self,
        budget: &LinkBudget,
        positions: &Positions,
        decodes: bool,
    ) -> bool {
        let floor = |r: &Radio| if decodes { r.rx_w } else { r.floor_w() };
        let nodes: Vec<usize> = (0..self.radios.len())
            .filter(|&i| self.radios[i].channel.is_some())
            .collect();
        let Some(&first) = nodes.first() else {
            return true;
        };
        let channel = self.radios[first].channel;
        if nodes.iter().any(|&i| self.radios[i].channel != channel) {
            return false;
        }
        let points: Vec<Vec<[f64; 2]>> = nodes.iter().map(|&i| positions.points(i)).collect();
        let placed = budget.has_path() && points.iter().all(|p| !p.is_empty());
        // Quick acceptance, in one pass: the weakest gains and the highest receive
        // threshold at the bounding box's diagonal (or at the one power of every link).
        let diagonal = placed.then(|| {
            let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
            for p in points.iter().flatten() {
                (x0, y0, x1, y1) = (x0.min(p[0]), y0.min(p[1]), x1.max(p[0]), y1.max(p[1]));
            }
            (x1 - x0).hypot(y1 - y0)
        });
        let highest = nodes
            .iter()
            .map(|&i| floor(&self.radios[i]))
            .fold(0.0, f64::max);
        let g = budget.min_gain();
        if budget.link_w(diagonal) * g * g >= highest {
            return true;
        }
        let power =
            |a: usize, b: usize, d: Option<f64>| budget.power_at(a as NodeId, b as NodeId, d);
        if !placed {
            return nodes.iter().all(|&a| {
                nodes
                    .iter()
                    .all(|&b| a == b || power(a, b, None) >= floor(&self.radios[b]))
            });
        }
        for (ia, &a) in nodes.iter().enumerate() {
            for (ib, &b) in nodes.iter().enumerate() {
                if a == b {
                    continue;
                }
                let floor = floor(&self.radios[b]);
                for p in &points[ia] {
                    for q in &points[ib] {
                        if power(a, b, Some((p[0] - q[0]).hypot(p[1] - q[1]))) < floor {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// Whether some receiver can hear two frames whose powers differ by `ratio` or more
    /// (then ns-2's capture threshold can save the stronger of two that overlap there).
    /// Between static nodes with a path-loss model exactly (every receiver's weakest and
    /// strongest frame); a moving node then counts as yes; without a path-loss model the
    /// powers differ by the antenna gains only.
    pub fn capture_possible(&self, budget: &LinkBudget, positions: &Positions, ratio: f64) -> bool {
        if !budget.has_path() {
            return budget.max_gain() >= budget.min_gain() * ratio;
        }
        if !self.mobile.is_empty() {
            return true;
        }
        let mut range = vec![(f64::INFINITY, 0.0f64); self.radios.len()];
        self.static_pairs(budget, positions, |_, b, p| {
            let r = &mut range[b as usize];
            *r = (r.0.min(p), r.1.max(p));
        });
        range.iter().any(|&(lo, hi)| hi >= lo * ratio)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_reach_over_a_wide_area_keeps_a_few_cells_per_node() {
        let nodes = [(0, [-1e6, -1e6]), (1, [1e6, 1e6]), (2, [0.5, 0.0])];
        // A reach of 1 cm: 4·10^16 cells of its width.
        let grid = Grid::new(0.01, &nodes);
        assert!(grid.cells.len() <= 4 * nodes.len(), "{}", grid.cells.len());
        let mut near = Vec::new();
        grid.near([0.0, 0.0], |n| near.push(n));
        assert!(near.contains(&2));
    }
}
