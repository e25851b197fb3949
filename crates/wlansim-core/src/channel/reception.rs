//! Reception by SINR (`[channel.reception] model = "sinr"`): whether a receiver decodes a
//! frame given its power, the power of the frames overlapping it, and the noise.
//!
//! Received power: the link budget of `power.rs` (the median of `[channel.propagation]`'s
//! path loss, or `rx_power_dbm`, plus both ends' antenna gains). The shadowing model's
//! per-frame draw, when configured, stays a loss of its own (the channel's models
//! compose: a frame must survive every one).
//!
//! Decoding: a frame below `sensitivity_dbm` is not detected. Otherwise it is received
//! with the probability the PHY's error curves give (`error_rate.rs`) for its PLCP header
//! and its PSDU at SINR = P / (Σ interferers + noise), drawn from the receiver's stream
//! (`<node>/reception`); a probability of exactly 1 draws nothing.
//!
//! Capture on the shared medium (the MAC's rule, `mac/capture.rs`; per receiver on the
//! spatial medium, `receiver.rs`): in one collision domain the frames of a
//! collision start at the same slot boundary, so they reach a receiver together and it
//! synchronises to the strongest of them (ties broken at random from its stream, as the
//! equal-power case has no physical winner). The others are lost at that receiver, and a
//! frame that reaches a receiver which is itself transmitting is lost. A frame that
//! starts while a receiver is locked onto another cannot occur here: every overlap
//! begins at a common slot boundary, or after the receiver's own transmission (the
//! frames that follow a captured one).
use super::error_rate::{ht_ppdu_success, ppdu_success, Mode};
use super::power::watts;
use crate::net::NodeId;
use crate::phy::ht::HtMode;
use crate::phy::Modulation;
use crate::sim::rng::{Rng, StreamKind};

/// The model's parameters, resolved (`scenario/reception.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReceptionParams {
    pub noise_floor_dbm: f64,
    pub rx_power_dbm: f64,
    pub sensitivity_dbm: f64,
    /// Lock onto the strongest of frames that start together (else all are lost).
    pub capture: bool,
}

/// A frame as the receiver sees it: its rate, its PSDU length and its preamble; an HT or
/// VHT data frame's mode (its rate is then that mode's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ppdu {
    pub rate: u64,
    pub bytes: u32,
    pub short_preamble: bool,
    pub ht: Option<HtMode>,
}

pub struct Reception {
    /// Whether a receiver may capture one of colliding frames (`mac/capture.rs`).
    pub capture: bool,
    modulation: Modulation,
    noise_w: f64,
    sensitivity_w: f64,
    /// Per receiving node: `<node>/reception`.
    rng: Vec<Rng>,
}

impl Reception {
    /// Per node, in node order: its name (which keys its stream).
    pub fn new<'a>(
        seed: u64,
        params: ReceptionParams,
        modulation: Modulation,
        nodes: impl Iterator<Item = &'a str>,
    ) -> Reception {
        let rng = nodes
            .map(|name| Rng::named(seed, StreamKind::Channel, &format!("{name}/reception")))
            .collect();
        Reception {
            capture: params.capture,
            modulation,
            noise_w: watts(params.noise_floor_dbm),
            sensitivity_w: watts(params.sensitivity_dbm),
            rng,
        }
    }

    /// A number drawn evenly from 0..k from `rx`'s stream (which of k frames as strong as
    /// each other it locks onto).
    pub fn draw_below(&mut self, rx: NodeId, k: u32) -> u32 {
        self.rng[rx as usize].uniform_inclusive(k - 1)
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
        let p = match frame.ht {
            Some(ht) => {
                let noise = self.noise_w * f64::from(ht.width_mhz / 20);
                ht_ppdu_success(ht, frame.bytes, power_w / (interference_w + noise))
            }
            None => {
                let mode =
                    Mode::of(self.modulation, frame.rate).expect("validated: a standard rate");
                let sinr = power_w / (interference_w + self.noise_w);
                ppdu_success(
                    self.modulation,
                    frame.short_preamble,
                    mode,
                    frame.bytes,
                    sinr,
                )
            }
        };
        p >= 1.0 || self.rng[rx as usize].uniform() < p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reception(nodes: usize) -> Reception {
        let names: Vec<String> = (0..nodes).map(|i| format!("n{i}")).collect();
        Reception::new(
            7,
            ReceptionParams {
                noise_floor_dbm: -94.0,
                rx_power_dbm: -60.0,
                sensitivity_dbm: -82.0,
                capture: true,
            },
            Modulation::Dsss,
            names.iter().map(|n| n.as_str()),
        )
    }

    const RTS: Ppdu = Ppdu {
        rate: 1_000_000,
        bytes: 20,
        short_preamble: false,
        ht: None,
    };
    const DATA: Ppdu = Ppdu {
        rate: 11_000_000,
        bytes: 1536,
        short_preamble: false,
        ht: None,
    };

    #[test]
    fn a_frame_alone_above_sensitivity_is_always_received() {
        let mut r = reception(2);
        let p = watts(-60.0);
        assert!((0..10_000).all(|_| r.decodes(0, DATA, p, 0.0)));
        // Below the sensitivity nothing is received.
        assert!(!r.decodes(0, RTS, watts(-83.0), 0.0));
    }

    #[test]
    fn equal_power_cck_frames_destroy_each_other_a_frame_20_db_up_survives() {
        let mut r = reception(3);
        let p = watts(-60.0);
        assert!((0..10_000).all(|_| !r.decodes(0, DATA, p, p)));
        assert!((0..10_000).all(|_| r.decodes(0, DATA, p * 100.0, p)));
    }

    #[test]
    fn the_strongest_is_locked_and_ties_are_drawn_evenly() {
        let mut r = reception(4);
        let budget = crate::channel::LinkBudget::new(None, -60.0, [0.0, 3.0, 0.0, 0.0].into_iter());
        let pos = crate::channel::Positions::default();
        let strong = budget.power_w(&pos, 1, 0, 0);
        let weak = budget.power_w(&pos, 2, 0, 0);
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
