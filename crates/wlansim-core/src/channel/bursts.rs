//! Burst models per link and direction (`[channel] bursts`, `[[channel.links]] bursts*`):
//! each station's uplink (its data frames to the AP) and downlink (the AP's to it) with a
//! burst model has its own state, its own random stream (`<station>/uplink`,
//! `<station>/downlink`) and its own loss counters (whole run). The models are
//! [`GilbertElliott`] and the consecutive bursts of fotiadis2005 ([`Periodic`],
//! [`Bernoulli`]); dispatch is an enum match.
use super::consecutive_burst::{Bernoulli, Periodic};
use super::gilbert_elliott::GilbertElliott;
use crate::net::NodeId;
use crate::scenario::{BurstLoss, BurstModel};
use crate::sim::rng::{Rng, StreamKind};

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
    /// The link direction called `name` with the (validated) model `b`.
    pub fn new(seed: u64, name: &str, b: &BurstLoss) -> Self {
        let mut rng = Rng::named(seed, StreamKind::Channel, name);
        let per = b.per.unwrap_or(0.0);
        let burst = b.burst_length.unwrap_or(1.0);
        let model = match b.model {
            BurstModel::GilbertElliott if b.per.is_some() => {
                Model::GilbertElliott(GilbertElliott::from_per(per, burst, &mut rng))
            }
            BurstModel::GilbertElliott => Model::GilbertElliott(GilbertElliott::new(
                b.good_fer.unwrap_or(0.0),
                b.bad_fer.unwrap_or(1.0),
                b.good_frames.unwrap_or(1.0),
                b.bad_frames.unwrap_or(1.0),
                &mut rng,
            )),
            BurstModel::Periodic => Model::Periodic(Periodic::new(per, burst as u64, &mut rng)),
            BurstModel::Bernoulli => Model::Bernoulli(Bernoulli::new(per, burst as u64)),
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
