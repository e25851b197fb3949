//! Received power of a frame: the link budget every distance-aware part of the channel
//! asks (SINR decoding, carrier sense, who hears whom).
//!
//! Between two positioned nodes with `[channel.propagation]`: the path-loss model's median
//! power at their distance (`shadowing.rs` `ShadowingParams::mean_power_dbw`, whose
//! per-frame shadowing draw stays a loss of its own, at the addressee; or
//! `two_ray_ground.rs`); otherwise one
//! power for every link (`[channel.reception] rx_power_dbm`, −60 dBm by default). Plus
//! both ends' antenna gains.
//!
//! A moving node's links are computed per frame at the distance its trajectory gives; a
//! node that stands still (before it starts, once it arrives) gives the same distances
//! frame after frame, so the median of the last distances seen is kept
//! ([`LinkBudget::link_w`]: the same distance, the same bits).
use super::shadowing::Median;
use super::two_ray_ground::TwoRayGroundParams;
use super::{Positions, ShadowingParams};
use crate::net::NodeId;
use crate::sim::time::Time;
use std::cell::Cell;

/// [`LinkBudget::link_w`] keeps the median power of 2^`REMEMBERED_BITS` distances
/// (direct-mapped by the distance's bits).
const REMEMBERED_BITS: u32 = 4;

/// How the median received power falls with distance (`[channel.propagation] model`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PathLoss {
    /// ns-2's `Propagation/Shadowing` (its median; the draw is `shadowing.rs`'s).
    LogDistance(ShadowingParams),
    /// ns-2's `Propagation/TwoRayGround`.
    TwoRayGround(TwoRayGroundParams),
}

impl PathLoss {
    /// The median power `d` metres away without antenna gains, dBW.
    #[inline]
    pub fn mean_power_dbw(&self, d: f64) -> f64 {
        match self {
            PathLoss::LogDistance(p) => p.mean_power_dbw(d),
            PathLoss::TwoRayGround(p) => p.mean_power_dbw(d),
        }
    }

    /// The distance beyond which the median power with `gain` falls below `floor_w`.
    fn range_m(&self, floor_w: f64, gain: f64) -> f64 {
        match self {
            PathLoss::LogDistance(p) => p.range_m(floor_w, gain),
            PathLoss::TwoRayGround(p) => p.range_m(floor_w, gain),
        }
    }
}

/// dBm → W.
pub fn watts(dbm: f64) -> f64 {
    10f64.powf((dbm - 30.0) / 10.0)
}

pub struct LinkBudget {
    /// The median path loss when the scenario has `[channel.propagation]`.
    path: Option<PathLoss>,
    /// The log-distance model's median, its constant terms computed once.
    median: Option<Median>,
    /// The power of a link between nodes without positions (no gains).
    flat_w: f64,
    /// Per node: its antenna gain as a power factor.
    gain: Vec<f64>,
    /// Distances (their bits; `u64::MAX`, a NaN, for none) and their median power
    /// without gains, most recent per entry.
    remembered: [Cell<(u64, f64)>; 1 << REMEMBERED_BITS],
}

impl LinkBudget {
    /// `gains_db`: per node, in node order.
    pub fn new(
        path: Option<PathLoss>,
        flat_dbm: f64,
        gains_db: impl Iterator<Item = f64>,
    ) -> LinkBudget {
        let median = match path {
            Some(PathLoss::LogDistance(p)) => Some(p.median()),
            _ => None,
        };
        LinkBudget {
            path,
            median,
            flat_w: watts(flat_dbm),
            gain: gains_db.map(|g| 10f64.powf(g / 10.0)).collect(),
            remembered: std::array::from_fn(|_| Cell::new((u64::MAX, 0.0))),
        }
    }

    /// Power (W) at `rx` of a frame sent by `tx` at `now`.
    #[inline]
    pub fn power_w(&self, positions: &Positions, tx: NodeId, rx: NodeId, now: Time) -> f64 {
        let d = match &self.path {
            Some(_) => positions.distance(tx as usize, rx as usize, now),
            None => None,
        };
        self.power_at(tx, rx, d)
    }

    /// Power (W) at `rx` of a frame from `tx` `d` metres away (None: no position).
    #[inline]
    pub fn power_at(&self, tx: NodeId, rx: NodeId, d: Option<f64>) -> f64 {
        self.link_w(d) * self.gain[tx as usize] * self.gain[rx as usize]
    }

    /// The power of a link `d` metres long between antennas without gain.
    #[inline]
    pub fn link_w(&self, d: Option<f64>) -> f64 {
        let (Some(path), Some(d)) = (&self.path, d) else {
            return self.flat_w;
        };
        let bits = d.to_bits();
        let slot = bits.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - REMEMBERED_BITS);
        let entry = &self.remembered[slot as usize];
        let (seen, w) = entry.get();
        if seen == bits {
            return w;
        }
        let w = match &self.median {
            Some(m) => 10f64.powf(m.dbw(d) / 10.0),
            None => 10f64.powf(path.mean_power_dbw(d) / 10.0),
        };
        entry.set((bits, w));
        w
    }

    /// Whether the power depends on distance (a path-loss model is given).
    pub fn has_path(&self) -> bool {
        self.path.is_some()
    }

    /// The largest antenna gain of any node, as a power factor.
    pub fn max_gain(&self) -> f64 {
        self.gain.iter().copied().fold(0.0, f64::max)
    }

    /// The smallest antenna gain of any node, as a power factor.
    pub fn min_gain(&self) -> f64 {
        self.gain.iter().copied().fold(f64::INFINITY, f64::min)
    }

    /// The distance beyond which no frame arrives at `floor_w` or above, whoever sends and
    /// receives it (infinite without a path-loss model or when the path loss does not
    /// grow with distance).
    pub fn range_m(&self, floor_w: f64) -> f64 {
        let Some(p) = &self.path else {
            return f64::INFINITY;
        };
        let g = self.max_gain();
        let d = p.range_m(floor_w, g * g);
        if !d.is_finite() || d == 0.0 {
            return d;
        }
        // A hair beyond, so that rounding never excludes a node at the edge (every
        // candidate's power is checked exactly afterwards).
        d * (1.0 + 1e-9) + 1e-6
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::Trajectory;

    /// ns-2's shadowing at 914 MHz, path-loss exponent 2.7, σ = 4 dB.
    fn ns2_shadowing() -> ShadowingParams {
        ShadowingParams {
            tx_power_w: 0.281_838_15,
            frequency_mhz: 914.0,
            reference_distance_m: 1.0,
            path_loss_exponent: 2.7,
            sigma_db: 4.0,
            rx_threshold_w: 3.652e-10,
        }
    }

    #[test]
    fn the_range_is_where_the_median_power_meets_the_floor() {
        let path = ns2_shadowing();
        let b = LinkBudget::new(
            Some(PathLoss::LogDistance(path)),
            -60.0,
            [0.0, 3.0].into_iter(),
        );
        let floor = 1.559e-11;
        let r = b.range_m(floor);
        // With the 3 dB antenna at both ends: 6 dB more than ns-2's 423 m reach.
        let pos = Positions::new(vec![
            Some(Trajectory::fixed([0.0, 0.0])),
            Some(Trajectory::fixed([r * 0.999, 0.0])),
        ]);
        assert!(b.power_w(&pos, 1, 1, 0) > 0.0);
        let mid = 10f64.powf(path.mean_power_dbw(r * (1.0 - 1e-6)) / 10.0) * 2.0 * 2.0;
        assert!(mid >= floor * 0.999_999 && mid < floor * 1.01, "{mid}");
        assert!(
            (r / (423.0 * 10f64.powf(6.0 / 27.0)) - 1.0).abs() < 0.01,
            "{r}"
        );
        // No path model: the one power reaches everywhere.
        let flat = LinkBudget::new(None, -60.0, [0.0, 0.0].into_iter());
        assert_eq!(flat.range_m(floor), f64::INFINITY);
        assert!((flat.power_at(0, 1, Some(1e6)) - watts(-60.0)).abs() < 1e-20);
    }

    /// A remembered distance gives the bits its median was computed with, whatever
    /// distances came between (a 16-entry table: collisions overwrite).
    #[test]
    fn a_remembered_distance_gives_the_same_power() {
        let two_ray = TwoRayGroundParams {
            tx_power_w: 0.281_838_15,
            frequency_mhz: 914.0,
            antenna_height_m: 1.5,
        };
        let log_distance = ns2_shadowing();
        let paths = [
            PathLoss::TwoRayGround(two_ray),
            PathLoss::LogDistance(log_distance),
        ];
        for path in paths {
            let b = LinkBudget::new(Some(path), -60.0, [0.0].into_iter());
            let fresh = |d: f64| match &b.median {
                Some(m) => 10f64.powf(m.dbw(d) / 10.0),
                None => 10f64.powf(path.mean_power_dbw(d) / 10.0),
            };
            for i in 0..2000u32 {
                let d = 1.0 + f64::from(i % 37) * 3.7 + f64::from(i % 5) * 1e-9;
                assert_eq!(b.link_w(Some(d)).to_bits(), fresh(d).to_bits(), "{d}");
            }
        }
    }
}
