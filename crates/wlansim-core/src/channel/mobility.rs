//! Where each wireless node is at a given time: static at its `position`, or moving at a
//! constant speed from it through a list of waypoints, starting at a given time and
//! stopping at the last waypoint (the motion of ns-2's `setdest`, one leg after another).
//! Positions are computed from the time asked, so motion costs no events; the channel
//! asks when a frame is sent (`Channel::frame_lost`), and the `position` series samples it.
use crate::sim::time::{to_secs, Time};

/// One straight leg: from `from` at time `t0` with `velocity` (m/s) until `t1`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Leg {
    t0: Time,
    t1: Time,
    from: [f64; 2],
    velocity: [f64; 2],
}

/// The path of one node.
#[derive(Clone, Debug, PartialEq)]
pub struct Trajectory {
    /// Where the node stands before it moves (and for ever when `legs` is empty).
    start: [f64; 2],
    legs: Vec<Leg>,
    /// Where the last leg ends.
    end: [f64; 2],
}

impl Trajectory {
    /// A node that stands at `p`.
    pub fn fixed(p: [f64; 2]) -> Self {
        Trajectory {
            start: p,
            legs: Vec::new(),
            end: p,
        }
    }

    /// A node at `p` that leaves at `start` and moves at `speed` m/s through `waypoints`
    /// in turn, then stands at the last one.
    pub fn moving(p: [f64; 2], start: Time, speed: f64, waypoints: &[[f64; 2]]) -> Self {
        let mut legs = Vec::with_capacity(waypoints.len());
        let (mut t, mut at) = (start, p);
        for &w in waypoints {
            let (dx, dy) = (w[0] - at[0], w[1] - at[1]);
            let length = dx.hypot(dy);
            if length == 0.0 {
                continue;
            }
            // A leg too slow to end within the clock's range ends never (the cast
            // saturates).
            let t1 = t.saturating_add((length / speed * 1e9).round() as Time);
            legs.push(Leg {
                t0: t,
                t1,
                from: at,
                velocity: [dx / length * speed, dy / length * speed],
            });
            (t, at) = (t1, w);
        }
        Trajectory {
            start: p,
            legs,
            end: at,
        }
    }

    /// Whether the node ever moves.
    pub fn moves(&self) -> bool {
        !self.legs.is_empty()
    }

    /// Where the node stands and every point where its path turns or ends.
    pub fn points(&self) -> Vec<[f64; 2]> {
        std::iter::once(self.start)
            .chain(self.legs.iter().skip(1).map(|l| l.from))
            .chain((!self.legs.is_empty()).then_some(self.end))
            .collect()
    }

    /// The node's position (metres) at `now`.
    #[inline]
    pub fn at(&self, now: Time) -> [f64; 2] {
        match self.legs.first() {
            None => self.start,
            Some(first) if now <= first.t0 => self.start,
            Some(_) => {
                // Legs are few (one per waypoint): find the one under way.
                match self.legs.iter().find(|l| now < l.t1) {
                    None => self.end,
                    Some(l) => {
                        let dt = to_secs(now - l.t0);
                        [
                            l.from[0] + l.velocity[0] * dt,
                            l.from[1] + l.velocity[1] * dt,
                        ]
                    }
                }
            }
        }
    }
}

/// Every node's trajectory; None for a node without a position (a wired node, or a
/// scenario that gives none).
#[derive(Clone, Debug, Default)]
pub struct Positions {
    nodes: Vec<Option<Trajectory>>,
}

impl Positions {
    pub fn new(nodes: Vec<Option<Trajectory>>) -> Self {
        Positions { nodes }
    }

    /// Where node `i` is at `now`; None when it has no position.
    #[inline]
    pub fn at(&self, i: usize, now: Time) -> Option<[f64; 2]> {
        self.nodes.get(i)?.as_ref().map(|t| t.at(now))
    }

    /// The distance (metres) between two positioned nodes at `now`.
    #[inline]
    pub fn distance(&self, a: usize, b: usize, now: Time) -> Option<f64> {
        let (p, q) = (self.at(a, now)?, self.at(b, now)?);
        Some((p[0] - q[0]).hypot(p[1] - q[1]))
    }

    /// Whether node `i` ever moves.
    pub fn moves(&self, i: usize) -> bool {
        self.nodes
            .get(i)
            .is_some_and(|t| t.as_ref().is_some_and(Trajectory::moves))
    }

    /// Where node `i` stands and every point where its path turns or ends (none without
    /// a position).
    pub fn points(&self, i: usize) -> Vec<[f64; 2]> {
        self.nodes
            .get(i)
            .and_then(|t| t.as_ref())
            .map_or_else(Vec::new, Trajectory::points)
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::SECOND;

    #[test]
    fn moves_at_constant_speed_through_its_waypoints_then_stops() {
        // From (50, 0) at t = 35 s, 4 m/s towards (0, 0), then up to (0, 20).
        let t = Trajectory::moving([50.0, 0.0], 35 * SECOND, 4.0, &[[0.0, 0.0], [0.0, 20.0]]);
        let close = |p: [f64; 2], q: [f64; 2]| (p[0] - q[0]).hypot(p[1] - q[1]) < 1e-9;
        assert!(close(t.at(0), [50.0, 0.0]));
        assert!(close(t.at(35 * SECOND), [50.0, 0.0]));
        assert!(close(t.at(40 * SECOND), [30.0, 0.0]));
        assert!(close(t.at(SECOND * 95 / 2), [0.0, 0.0]));
        assert!(close(t.at(50 * SECOND), [0.0, 10.0]));
        assert!(close(t.at(1000 * SECOND), [0.0, 20.0]));
        // A waypoint where the node already is adds no leg.
        let still = Trajectory::moving([1.0, 1.0], 0, 4.0, &[[1.0, 1.0]]);
        assert_eq!(still, Trajectory::fixed([1.0, 1.0]));
    }

    #[test]
    fn distances_between_positioned_nodes_only() {
        let p = Positions::new(vec![
            Some(Trajectory::fixed([0.0, 0.0])),
            Some(Trajectory::moving([3.0, 0.0], 0, 1.0, &[[3.0, 4.0]])),
            None,
        ]);
        assert_eq!(p.distance(0, 1, 0), Some(3.0));
        assert_eq!(p.distance(0, 1, 4 * SECOND), Some(5.0));
        assert_eq!(p.distance(0, 2, 0), None);
    }
}
