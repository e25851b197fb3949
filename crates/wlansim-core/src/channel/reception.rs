//! Reception by SINR (`[channel.reception] model = "sinr"`): whether a receiver decodes a
//! frame given its power, the power of the frames overlapping it, and the noise.
//!
//! Received power: from the log-distance model of `[channel.propagation]` (its median
//! P̄r(d), `shadowing.rs`) between two positioned nodes, otherwise `rx_power_dbm` for every
//! link; plus the antenna gains of both ends (`antenna_gain_db` of a station group). The
//! shadowing model's per-frame draw, when configured, stays a loss of its own (the
//! channel's models compose: a frame must survive every one).
//!
//! Decoding: a frame below `sensitivity_dbm` is not detected. Otherwise it is received
//! with the probability the PHY's error curves give (`error_rate.rs`) for its PLCP header
//! and its PSDU at SINR = P / (Σ interferers + noise), drawn from the receiver's stream
//! (`<node>/reception`); a probability of exactly 1 draws nothing.
//!
//! Capture (the MAC's rule, `mac/capture.rs`): in one collision domain the frames of a
//! collision start at the same slot boundary, so they reach a receiver together and it
//! synchronises to the strongest of them (ties broken at random from its stream, as the
//! equal-power case has no physical winner). The others are lost at that receiver, and a
//! frame that reaches a receiver which is itself transmitting is lost. A frame that
//! starts while a receiver is locked onto another cannot occur here: every overlap
//! begins at a common slot boundary, or after the receiver's own transmission (the
//! frames that follow a captured one).
use super::error_rate::{ppdu_success, Mode};
use super::{Positions, ShadowingParams};
use crate::net::NodeId;
use crate::phy::Modulation;
use crate::sim::rng::{Rng, StreamKind};
use crate::sim::time::Time;

/// The model's parameters, resolved (`scenario/reception.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReceptionParams {
    pub noise_floor_dbm: f64,
    pub rx_power_dbm: f64,
    pub sensitivity_dbm: f64,
    /// Lock onto the strongest of frames that start together (else all are lost).
    pub capture: bool,
}

/// A frame as the receiver sees it: its rate, its PSDU length and its preamble.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ppdu {
    pub rate: u64,
    pub bytes: u32,
    pub short_preamble: bool,
}

fn watts(dbm: f64) -> f64 {
    10f64.powf((dbm - 30.0) / 10.0)
}

pub struct Reception {
    /// Whether a receiver may capture one of colliding frames (`mac/capture.rs`).
    pub capture: bool,
    modulation: Modulation,
    noise_w: f64,
    sensitivity_w: f64,
    /// Received power of a link between nodes without positions (no gains).
    flat_w: f64,
    /// Per node: its antenna gain as a power factor.
    gain: Vec<f64>,
    /// Distance-based power when the scenario has `[channel.propagation]`.
    path: Option<ShadowingParams>,
    /// Per receiving node: `<node>/reception`.
    rng: Vec<Rng>,
}

impl Reception {
    /// Per node, in node order: its name (which keys its stream) and antenna gain (dB).
    pub fn new<'a>(
        seed: u64,
        params: ReceptionParams,
        modulation: Modulation,
        path: Option<ShadowingParams>,
        nodes: impl Iterator<Item = (&'a str, f64)>,
    ) -> Reception {
        let (rng, gain) = nodes
            .map(|(name, gain_db)| {
                let rng = Rng::named(seed, StreamKind::Channel, &format!("{name}/reception"));
                (rng, 10f64.powf(gain_db / 10.0))
            })
            .unzip();
        Reception {
            capture: params.capture,
            modulation,
            noise_w: watts(params.noise_floor_dbm),
            sensitivity_w: watts(params.sensitivity_dbm),
            flat_w: watts(params.rx_power_dbm),
            gain,
            path,
            rng,
        }
    }

    /// Power (W) at `rx` of a frame sent by `tx` at `now`.
    pub fn power_w(&self, positions: &Positions, tx: NodeId, rx: NodeId, now: Time) -> f64 {
        let link = match (
            &self.path,
            positions.distance(tx as usize, rx as usize, now),
        ) {
            (Some(p), Some(d)) => 10f64.powf(p.mean_power_dbw(d) / 10.0),
            _ => self.flat_w,
        };
        link * self.gain[tx as usize] * self.gain[rx as usize]
    }

    /// Which of the frames that reach `rx` together, at `powers` there, it locks onto:
    /// the strongest, ties drawn uniformly.
    pub fn lock(&mut self, rx: NodeId, powers: &[f64]) -> usize {
        let strongest = powers.iter().copied().fold(f64::MIN, f64::max);
        let ties = powers.iter().filter(|&&p| p == strongest).count();
        let pick = if ties == 1 {
            0
        } else {
            self.rng[rx as usize].uniform_inclusive(ties as u32 - 1) as usize
        };
        powers
            .iter()
            .enumerate()
            .filter(|&(_, &p)| p == strongest)
            .nth(pick)
            .expect("the strongest frame")
            .0
    }

    /// Whether `rx` decodes `frame`, received at `power_w` over `interference_w`.
    pub fn decodes(&mut self, rx: NodeId, frame: Ppdu, power_w: f64, interference_w: f64) -> bool {
        if power_w < self.sensitivity_w {
            return false;
        }
        let mode = Mode::of(self.modulation, frame.rate).expect("validated: a standard rate");
        let sinr = power_w / (interference_w + self.noise_w);
        let p = ppdu_success(
            self.modulation,
            frame.short_preamble,
            mode,
            frame.bytes,
            sinr,
        );
        p >= 1.0 || self.rng[rx as usize].uniform() < p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reception(gains: &[f64]) -> Reception {
        let names: Vec<String> = (0..gains.len()).map(|i| format!("n{i}")).collect();
        Reception::new(
            7,
            ReceptionParams {
                noise_floor_dbm: -94.0,
                rx_power_dbm: -60.0,
                sensitivity_dbm: -82.0,
                capture: true,
            },
            Modulation::Dsss,
            None,
            names.iter().map(|n| n.as_str()).zip(gains.iter().copied()),
        )
    }

    const RTS: Ppdu = Ppdu {
        rate: 1_000_000,
        bytes: 20,
        short_preamble: false,
    };
    const DATA: Ppdu = Ppdu {
        rate: 11_000_000,
        bytes: 1536,
        short_preamble: false,
    };

    #[test]
    fn a_frame_alone_above_sensitivity_is_always_received() {
        let mut r = reception(&[0.0, 0.0]);
        let p = r.power_w(&Positions::default(), 1, 0, 0);
        assert!((10.0 * (p * 1e3).log10() + 60.0).abs() < 1e-9);
        assert!((0..10_000).all(|_| r.decodes(0, DATA, p, 0.0)));
        // Below the sensitivity nothing is received.
        assert!(!r.decodes(0, RTS, watts(-83.0), 0.0));
    }

    #[test]
    fn equal_power_cck_frames_destroy_each_other_a_frame_20_db_up_survives() {
        let mut r = reception(&[0.0, 0.0, 0.0]);
        let p = watts(-60.0);
        assert!((0..10_000).all(|_| !r.decodes(0, DATA, p, p)));
        assert!((0..10_000).all(|_| r.decodes(0, DATA, p * 100.0, p)));
    }

    #[test]
    fn the_strongest_is_locked_and_ties_are_drawn_evenly() {
        let mut r = reception(&[0.0, 3.0, 0.0, 0.0]);
        let pos = Positions::default();
        let strong = r.power_w(&pos, 1, 0, 0);
        let weak = r.power_w(&pos, 2, 0, 0);
        assert!((strong / weak - 10f64.powf(0.3)).abs() < 1e-12);
        assert_eq!(r.lock(0, &[weak, strong, weak]), 1);
        let mut counts = [0; 3];
        for _ in 0..30_000 {
            counts[r.lock(0, &[weak, weak, weak])] += 1;
        }
        for c in counts {
            assert!(
                (c as f64 / 30_000.0 - 1.0 / 3.0).abs() < 0.015,
                "{counts:?}"
            );
        }
    }
}
