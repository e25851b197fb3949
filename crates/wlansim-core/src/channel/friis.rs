//! Free-space propagation (Friis; Rappaport, *Wireless Communications*, eq. 4.2, with unit
//! antenna gains and no system loss; ns-2.35 `mobile/propagation.cc` `Friis`): the
//! wavelength and the power received `d` metres from a transmitter. The shadowing model
//! takes it at its reference distance, two-ray ground up to its crossover distance.

/// Speed of light (m/s).
pub const SPEED_OF_LIGHT: f64 = 299_792_458.0;

/// λ in metres at `frequency_mhz`.
#[inline]
pub fn wavelength_m(frequency_mhz: f64) -> f64 {
    SPEED_OF_LIGHT / (frequency_mhz * 1e6)
}

/// Pr(d) = Pt·(λ / 4πd)² in W.
#[inline]
pub fn power_w(tx_power_w: f64, wavelength_m: f64, d: f64) -> f64 {
    tx_power_w * wavelength_m * wavelength_m / (4.0 * std::f64::consts::PI * d).powi(2)
}
