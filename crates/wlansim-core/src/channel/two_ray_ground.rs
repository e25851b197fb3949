//! ns-2's `Propagation/TwoRayGround` (ns-2.35 `mobile/tworayground.cc`
//! `TwoRayGround::Pr`, `mobile/propagation.cc` `Friis`; Rappaport, *Wireless
//! Communications*, 2nd ed., eqs 4.5 and 4.52), the model of ns-2.35's wireless examples
//! (`-propType Propagation/TwoRayGround`):
//!
//! Pr(d) = Pt·Gt·Gr·λ² / ((4π·d)²·L) (Friis) up to the crossover distance
//! dc = 4π·ht·hr / λ, and Pt·Gt·Gr·ht²·hr² / (d⁴·L) beyond it, the two equal at dc.
//!
//! Defaults are ns-2.35's (`tcl/lib/ns-default.tcl`): Pt_ 0.28183815 W, freq_ 914 MHz,
//! antennas 1.5 m above the ground (`Antenna/OmniAntenna set Z_ 1.5`), L_ 1, Gt_ = Gr_ = 1:
//! dc = 86.2 m, and `RXThresh_` 3.652e-10 W is reached at 250 m, `CSThresh_` 1.559e-11 W
//! at 550 m. The model has no random term: a frame at or above the receive threshold can
//! be received, one below it cannot (`WirelessPhy::sendUp`). Closer than
//! [`MIN_DISTANCE_M`] the power is the power there (ns-2's Friis grows without bound as
//! d → 0; a station group's stations stand at one point).
use super::friis;

/// Distances below this count as this, m.
pub const MIN_DISTANCE_M: f64 = 1.0;

/// The model's parameters, resolved (`scenario/propagation.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoRayGroundParams {
    pub tx_power_w: f64,
    pub frequency_mhz: f64,
    /// Height of every antenna above the ground, m (ns-2: the node's Z_ 0 plus the
    /// antenna's Z_ 1.5).
    pub antenna_height_m: f64,
}

impl TwoRayGroundParams {
    fn lambda(&self) -> f64 {
        friis::wavelength_m(self.frequency_mhz)
    }

    /// The crossover distance dc = 4π·ht·hr / λ, m.
    pub fn crossover_m(&self) -> f64 {
        let h = self.antenna_height_m;
        4.0 * std::f64::consts::PI * h * h / self.lambda()
    }

    /// Pr(d) in W without antenna gains.
    pub fn power_w(&self, d: f64) -> f64 {
        let d = d.max(MIN_DISTANCE_M);
        if d < self.crossover_m() {
            friis::power_w(self.tx_power_w, self.lambda(), d)
        } else {
            let h2 = self.antenna_height_m * self.antenna_height_m;
            self.tx_power_w * h2 * h2 / (d * d * d * d)
        }
    }

    /// Pr(d) in dBW, as the link budget asks for it.
    pub fn mean_power_dbw(&self, d: f64) -> f64 {
        10.0 * self.power_w(d).log10()
    }

    /// The distance beyond which the power with `gain` (both antennas, a power factor)
    /// falls below `floor_w`.
    pub fn range_m(&self, floor_w: f64, gain: f64) -> f64 {
        let floor = floor_w / gain;
        let dc = self.crossover_m();
        let d = if floor >= self.power_w(dc) {
            self.lambda() / (4.0 * std::f64::consts::PI) * (self.tx_power_w / floor).sqrt()
        } else {
            let h2 = self.antenna_height_m * self.antenna_height_m;
            (self.tx_power_w * h2 * h2 / floor).powf(0.25)
        };
        d.max(MIN_DISTANCE_M)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NS2: TwoRayGroundParams = TwoRayGroundParams {
        tx_power_w: 0.281_838_15,
        frequency_mhz: 914.0,
        antenna_height_m: 1.5,
    };

    #[test]
    fn ns2_defaults_reach_250_m_and_sense_550_m() {
        // ns-2's threshold script (indep-utils/propagation/threshold.cc) sets RXThresh_
        // 3.652e-10 W for 250 m and CSThresh_ 1.559e-11 W for 550 m under TwoRayGround.
        assert!((NS2.crossover_m() - 86.20).abs() < 0.01);
        assert!((NS2.power_w(250.0) / 3.652e-10 - 1.0).abs() < 1e-3);
        assert!((NS2.power_w(550.0) / 1.559e-11 - 1.0).abs() < 1e-3);
        assert!((NS2.range_m(3.652e-10, 1.0) - 250.0).abs() < 0.1);
        assert!((NS2.range_m(1.559e-11, 1.0) - 550.0).abs() < 0.2);
    }

    #[test]
    fn friis_below_the_crossover_two_ray_beyond_continuous_at_it() {
        // Friis: 10 dB for a distance 10^(1/2) times longer; two-ray: 10 dB per 10^(1/4).
        let friis = NS2.mean_power_dbw(10.0) - NS2.mean_power_dbw(10.0 * 10f64.sqrt());
        assert!((friis - 10.0).abs() < 1e-9);
        let two_ray = NS2.mean_power_dbw(100.0) - NS2.mean_power_dbw(100.0 * 10f64.powf(0.25));
        assert!((two_ray - 10.0).abs() < 1e-9);
        let dc = NS2.crossover_m();
        assert!((NS2.power_w(dc * (1.0 - 1e-12)) / NS2.power_w(dc) - 1.0).abs() < 1e-9);
        // Friis at 1 m: Pt λ² / (4π)² = −37.2 dBW; closer counts as 1 m.
        assert!((NS2.mean_power_dbw(1.0) + 37.17).abs() < 0.01);
        assert_eq!(NS2.power_w(0.0), NS2.power_w(1.0));
        // Ranges in the Friis part too.
        let p = NS2.power_w(40.0);
        assert!((NS2.range_m(p, 1.0) - 40.0).abs() < 1e-9);
    }
}
