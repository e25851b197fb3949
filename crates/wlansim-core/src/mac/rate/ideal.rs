//! The ideal controller, after ns-3's `IdealWifiManager`: each rate has a threshold SNR,
//! the one at which its bit error rate (the reception model's curve, `error_rate.rs`)
//! is 1e-6; a frame goes at the highest rate whose threshold the SNR of the frames heard
//! from the peer reaches (the lowest rate when none does).
//!
//! As modelled: the SNR is the link's received power from the peer over the noise floor
//! (`channel/power.rs`, positions fixed: the scenario refuses `ideal` on moving nodes),
//! known from the start; an HT/VHT rung of W MHz compares it with its threshold scaled
//! by W/20 (the noise of its width).
use super::Ladder;
use crate::channel::error_rate::Mode;
use crate::phy::{LinkTimes, Modulation};

/// The bit error rate a rate must reach (ns-3's `IdealWifiManager::BerThreshold`).
pub const BER: f64 = 1e-6;

/// The SNR (linear, over a 20 MHz noise floor) at which rung `l`'s data bits are received
/// with [`BER`]: found by bisection on the decibel scale.
pub fn threshold_snr(l: &LinkTimes, modulation: Modulation) -> f64 {
    let (mode, width) = match l.rates.ht {
        Some(ht) => (Mode::of_ht(ht), f64::from(ht.width_mhz) / 20.0),
        None => (
            Mode::of(modulation, l.rates.data).expect("a rate of the ladder"),
            1.0,
        ),
    };
    let ber = |db: f64| 1.0 - mode.success(10f64.powf(db / 10.0), 1.0);
    let (mut lo, mut hi) = (-30.0, 60.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if ber(mid) > BER {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    10f64.powf(hi / 10.0) * width
}

/// The highest rung whose threshold `snr` reaches; the lowest when none does.
pub fn choose(ladder: &Ladder, snr: f64) -> u8 {
    ladder
        .thresholds
        .iter()
        .rposition(|&t| t <= snr)
        .unwrap_or(0) as u8
}
