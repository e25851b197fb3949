//! Burst models per link and direction (`[channel] bursts`, `[[channel.links]] bursts*`):
//! each station's uplink (its data frames to the AP) and downlink (the AP's to it) with a
//! burst model has its own state, its own random stream (`<station>/uplink`,
//! `<station>/downlink`) and its own loss counters (whole run). The models are
//! [`GilbertElliott`] and the consecutive bursts of fotiadis2005 ([`Periodic`],
//! [`Bernoulli`]); dispatch is an enum match.
use super::consecutive_burst::{Bernoulli, Periodic};
use super::gilbert_elliott::GilbertElliott;
use crate::net::NodeId;
use crate::sim::rng::{Rng, StreamKind};

/// A link direction's burst model with its parameters resolved (`scenario/channel.rs`
/// `BurstLoss::params` fills the defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BurstParams {
    /// Gilbert–Elliott from a long-run frame error rate and a mean burst length.
    GilbertElliottPer { per: f64, burst_length: f64 },
    /// Gilbert–Elliott from each state's frame error rate and mean sojourn (attempts).
    GilbertElliott {
        good_fer: f64,
        bad_fer: f64,
        good_frames: f64,
        bad_frames: f64,
    },
    /// fotiadis2005's runs of `burst_length` losses, one per period, random phase.
    Periodic { per: f64, burst_length: u64 },
    /// Runs of `burst_length` losses starting at random (long-run rate `per`).
    Bernoulli { per: f64, burst_length: u64 },
}

#[derive(Clone, Debug)]
enum Model {
    GilbertElliott(GilbertElliott),
    Periodic(Periodic),
    Bernoulli(Bernoulli),
}

#[derive(Clone, Debug)]
pub struct BurstLink {
    model: Model,
    rng: Rng,
    /// Data frame attempts on the link, and those lost.
    pub frames: u64,
    pub losses: u64,
}

impl BurstLink {
    /// The link direction called `name` with the model `b`.
    pub fn new(seed: u64, name: &str, b: BurstParams) -> Self {
        let mut rng = Rng::named(seed, StreamKind::Channel, name);
        let model = match b {
            BurstParams::GilbertElliottPer { per, burst_length } => {
                Model::GilbertElliott(GilbertElliott::from_per(per, burst_length, &mut rng))
            }
            BurstParams::GilbertElliott {
                good_fer,
                bad_fer,
                good_frames,
                bad_frames,
            } => Model::GilbertElliott(GilbertElliott::new(
                good_fer,
                bad_fer,
                good_frames,
                bad_frames,
                &mut rng,
            )),
            BurstParams::Periodic { per, burst_length } => {
                Model::Periodic(Periodic::new(per, burst_length, &mut rng))
            }
            BurstParams::Bernoulli { per, burst_length } => {
                Model::Bernoulli(Bernoulli::new(per, burst_length))
            }
        };
        BurstLink {
            model,
            rng,
            frames: 0,
            losses: 0,
        }
    }

    #[inline]
    fn frame_lost(&mut self) -> bool {
        let lost = match &mut self.model {
            Model::GilbertElliott(m) => m.frame_lost(&mut self.rng),
            Model::Periodic(m) => m.frame_lost(),
            Model::Bernoulli(m) => m.frame_lost(&mut self.rng),
        };
        self.frames += 1;
        self.losses += lost as u64;
        lost
    }
}

/// Per node: the burst model of the link whose data frames it sends to its AP (`up`, a
/// station's uplink) and of the link whose frames it receives from its AP (`down`).
#[derive(Default)]
pub struct BurstLinks {
    pub up: Vec<Option<BurstLink>>,
    pub down: Vec<Option<BurstLink>>,
}

impl BurstLinks {
    /// Whether the data frame `src` → `dst` is lost to a burst (either end's model).
    #[inline]
    pub fn frame_lost(&mut self, src: NodeId, dst: NodeId) -> bool {
        let up = self.up[src as usize]
            .as_mut()
            .is_some_and(|l| l.frame_lost());
        let down = self.down[dst as usize]
            .as_mut()
            .is_some_and(|l| l.frame_lost());
        up | down
    }
}
