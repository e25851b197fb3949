//! Log-distance path loss with log-normal shadowing, in the form of ns-2's
//! `Propagation/Shadowing` (ns-2.35 `mobile/shadowing.cc` `Shadowing::Pr`; Rappaport,
//! *Wireless Communications*, 2nd ed., eqs 4.68-4.69):
//!
//! P̄r(d) = Pr_Friis(d0) − 10 β log10(d / d0) dB for d > d0 (P̄r(d0) closer), with
//! Pr_Friis(d0) = Pt·Gt·Gr·λ² / ((4π·d0)²·L); each frame at each receiver draws its own
//! X ~ N(0, σ²) dB and is received when P̄r(d) + X ≥ RXThresh. The reception probability
//! is therefore Q((RXThresh − P̄r(d)) / σ) (`python/wlansim/models/shadowing.py` has the
//! closed form; `wlansim model shadowing` prints it).
//!
//! Defaults are ns-2.35's (`tcl/lib/ns-default.tcl`): Pt_ 0.28183815 W, freq_ 914 MHz,
//! L_ 1, Gt_ = Gr_ = 1, RXThresh_ 3.652e-10 W, pathlossExp_ 2, std_db_ 4, dist0_ 1 m.
//! The distance is the nodes' at the frame's time (`mobility.rs`). On the shared medium a
//! draw decides whether the frame's addressee receives it (against its own receive
//! threshold; every other node decodes what the addressee decodes). On the spatial medium
//! every node that may hear the frame draws, as ns-2's `WirelessPhy::sendUp` calls
//! `Shadowing::Pr` once per receiving node and packet: the drawn power decides whether
//! the node senses the frame (`CSThresh_`), decodes it (`RXThresh_`, else it receives it
//! in error and defers EIFS, without the NAV it would have set) and which of two
//! overlapping frames it keeps (`CPThresh_`) (`mac/spatial.rs` `signal_start`). The nodes
//! that may hear a frame are those whose median power lies at most [`REACH_SIGMAS`] σ
//! below their floor (`hearing.rs`). The channel asks for every frame of an exchange,
//! RTS, CTS and ACK included, as ns-2 does, unless `control_frames = false`
//! (`channel/mod.rs`, `mac/shared.rs` `exchange_of`).
use crate::net::NodeId;
use crate::sim::rng::{Rng, StreamKind};
use rand_distr::{Distribution, StandardNormal};

use super::friis;

/// How far below its floor a node's median power may lie for a draw to make it hear a
/// frame at all, in σ: a draw above 4σ comes once in 31 600 (ns-2 draws at every node of
/// the channel, however far).
pub const REACH_SIGMAS: f64 = 4.0;

/// The model's parameters, resolved (`scenario/channel.rs` `PropagationConfig`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShadowingParams {
    pub tx_power_w: f64,
    pub frequency_mhz: f64,
    pub reference_distance_m: f64,
    pub path_loss_exponent: f64,
    pub sigma_db: f64,
    pub rx_threshold_w: f64,
}

impl ShadowingParams {
    /// P̄r(d) in dBW, the median received power `d` metres from the transmitter.
    pub fn mean_power_dbw(&self, d: f64) -> f64 {
        self.median().dbw(d)
    }

    /// The median's terms that do not depend on the distance, computed once.
    pub fn median(&self) -> Median {
        let d0 = self.reference_distance_m;
        let at_d0 = friis::power_w(self.tx_power_w, friis::wavelength_m(self.frequency_mhz), d0);
        Median {
            at_d0_dbw: 10.0 * at_d0.log10(),
            slope_db: 10.0 * self.path_loss_exponent,
            d0,
        }
    }

    /// The distance beyond which the median power with `gain` (both antennas, a power
    /// factor) falls below `floor_w` (infinite when the path loss does not grow with
    /// distance).
    pub fn range_m(&self, floor_w: f64, gain: f64) -> f64 {
        // mean_power_dbw(d) = P(d0) − 10 β log10(d / d0) beyond d0.
        let at_d0 = self.mean_power_dbw(self.reference_distance_m) + 10.0 * gain.log10();
        let margin_db = at_d0 - 10.0 * floor_w.log10();
        if self.path_loss_exponent <= 0.0 {
            return if margin_db >= 0.0 { f64::INFINITY } else { 0.0 };
        }
        let d0 = self.reference_distance_m;
        (d0 * 10f64.powf(margin_db / (10.0 * self.path_loss_exponent))).max(d0)
    }
}

/// P̄r(d) = P̄r(d0) − 10 β log10(d / d0) (dBW; d0 closer), its terms that do not depend on
/// `d` computed once ([`ShadowingParams::median`]): per frame one logarithm, the same
/// operations in the same order, so the same bits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Median {
    /// 10 log10 P̄r(d0).
    at_d0_dbw: f64,
    /// 10 β.
    slope_db: f64,
    d0: f64,
}

impl Median {
    /// P̄r(d) in dBW.
    #[inline]
    pub fn dbw(&self, d: f64) -> f64 {
        self.at_d0_dbw - self.slope_db * (d.max(self.d0) / self.d0).log10()
    }
}

/// The shadowing model of a run: a stream per receiver; each frame's margin over the
/// threshold is computed from the distance when it is sent.
pub struct Shadowing {
    params: ShadowingParams,
    /// Per receiving node: the stream of its draws (`<node>/shadowing`). The losses are
    /// counted with every other channel loss (the nodes' `frame_errors`).
    rng: Vec<Rng>,
    /// Per receiving node: its receive threshold, dBW (`rx_threshold`, by default the
    /// model's `rx_threshold_w`).
    rx_dbw: Vec<f64>,
    median: Median,
}

impl Shadowing {
    /// Per node, in node order: its name (which keys its stream) and receive threshold.
    pub fn new<'a>(
        seed: u64,
        params: ShadowingParams,
        nodes: impl Iterator<Item = (&'a str, f64)>,
    ) -> Self {
        let (rng, rx_dbw) = nodes
            .map(|(name, rx_w)| {
                let rng = Rng::named(seed, StreamKind::Channel, &format!("{name}/shadowing"));
                (rng, 10.0 * rx_w.log10())
            })
            .unzip();
        Shadowing {
            params,
            rng,
            rx_dbw,
            median: params.median(),
        }
    }

    /// Whether a data frame received by `rx` from `distance` metres arrives below its
    /// receive threshold.
    #[inline]
    pub fn frame_lost(&mut self, distance: f64, rx: NodeId) -> bool {
        let margin = self.median.dbw(distance) - self.rx_dbw[rx as usize];
        margin + self.draw_db(rx) < 0.0
    }

    /// The next shadowing term of `rx`'s frames, dB (X ~ N(0, σ²)).
    #[inline]
    pub fn draw_db(&mut self, rx: NodeId) -> f64 {
        let x: f64 = StandardNormal.sample(&mut self.rng[rx as usize]);
        self.params.sigma_db * x
    }

    /// The factor (≤ 1) by which a node's median power may fall short of its floor for a
    /// draw to make it hear a frame ([`REACH_SIGMAS`]).
    pub fn reach_factor(&self) -> f64 {
        10f64.powf(-REACH_SIGMAS * self.params.sigma_db / 10.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ns2(beta: f64) -> ShadowingParams {
        ShadowingParams {
            tx_power_w: 0.281_838_15,
            frequency_mhz: 914.0,
            reference_distance_m: 1.0,
            path_loss_exponent: beta,
            sigma_db: 4.0,
            rx_threshold_w: 3.652e-10,
        }
    }

    #[test]
    fn friis_at_the_reference_distance_and_the_slope_beyond() {
        let p = ns2(2.7);
        // λ = 0.328 m: Pt λ² / (4π)² = 1.92e-4 W = −37.2 dBW.
        assert!((p.mean_power_dbw(1.0) + 37.17).abs() < 0.01);
        assert!((p.mean_power_dbw(0.5) - p.mean_power_dbw(1.0)).abs() < 1e-12);
        let slope = p.mean_power_dbw(10.0) - p.mean_power_dbw(100.0);
        assert!((slope - 27.0).abs() < 1e-9);
    }

    /// The median with its constant terms computed once gives the bits of the formula
    /// computed whole (the results of every run depend on it).
    #[test]
    fn the_median_computed_once_gives_the_formula_s_bits() {
        let p = ns2(2.7);
        let m = p.median();
        let at_d0 = friis::power_w(p.tx_power_w, friis::wavelength_m(p.frequency_mhz), 1.0);
        for d in [0.3_f64, 1.0, 10.0, 57.3, 100.0, 110.0, 1234.5] {
            let whole =
                10.0 * at_d0.log10() - 10.0 * p.path_loss_exponent * (d.max(1.0) / 1.0).log10();
            assert_eq!(m.dbw(d).to_bits(), whole.to_bits(), "{d}");
        }
    }

    #[test]
    fn loss_rate_follows_the_normal_tail() {
        // At 100 m, β = 2.7: margin 3.2 dB, σ = 4 dB: lost with P = Q(0.80) ≈ 0.211.
        let nodes = [("ap", 3.652e-10), ("sta", 3.652e-10)];
        let mut s = Shadowing::new(1, ns2(2.7), nodes.into_iter());
        let n = 100_000;
        let lost = (0..n).filter(|_| s.frame_lost(100.0, 0)).count() as f64 / n as f64;
        assert!((lost - 0.2113).abs() < 0.005, "{lost}");
    }
}
