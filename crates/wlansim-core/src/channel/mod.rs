//! The channel: decides the fate of every frame put on the air, from (transmitter,
//! receiver, time, frame kind). The MAC asks [`Channel::frame_lost`] once per attempt;
//! the answer of one attempt says nothing about the next (a retransmission asks again at
//! its own time), so a model with memory (bursts, distance) sees each attempt.
//!
//! Models: [`iid`] (independent frame errors per link and direction), and on the links
//! that have one a burst model ([`bursts`]: Gilbert–Elliott, the consecutive bursts of
//! fotiadis2005) instead of the i.i.d. rate; with `[channel.propagation]`, distance-based
//! reception on top ([`shadowing`]: ns-2's log-distance shadowing, at the distance the
//! nodes' [`mobility`] gives at the frame's time; [`two_ray_ground`] draws nothing: its
//! power decides who hears and decodes, `hearing.rs`). Control frames
//! (RTS, CTS, ACK) are short and sent at a low rate: the i.i.d. and burst models treat
//! them as error-free; shadowing draws for them too (`FrameKind::Control`).
//!
//! With `[channel.reception] model = "sinr"` every frame must also be decoded at its
//! SINR ([`reception`], with the PHYs' error curves of [`error_rate`]): the MAC asks
//! [`Channel::decodes`] for each frame of an exchange with the power of the frames that
//! overlap it, and which of colliding frames a receiver locks onto (`mac/capture.rs`).
pub mod bursts;
pub mod consecutive_burst;
pub mod error_rate;
pub mod error_tables;
pub mod friis;
pub mod gilbert_elliott;
pub mod hearing;
pub mod iid;
pub mod mobility;
pub mod power;
pub mod receiver;
pub mod reception;
pub mod shadowing;
pub mod two_ray_ground;

use crate::net::NodeId;
use crate::sim::time::Time;
pub use bursts::{BurstLink, BurstLinks, BurstParams, BurstSpec};
pub use hearing::{Hearing, Radio};
pub use iid::IidLoss;
pub use mobility::{Positions, Trajectory};
pub use power::{LinkBudget, PathLoss};
pub use reception::{Part, Ppdu, Reception};
pub use shadowing::{Shadowing, ShadowingParams};

/// What kind of frame the channel is asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// A data frame (MPDU carrying a packet).
    Data,
    /// A control frame of the exchange: RTS, CTS or ACK. Only distance-based reception
    /// draws for them (`[channel.propagation] control_frames`, on by default, as ns-2
    /// draws for every frame); the i.i.d. and burst models leave them error-free.
    Control,
}

/// The channel component: the loss model of every link.
pub struct Channel {
    loss: IidLoss,
    /// The burst models; None when no link has one (the i.i.d. path then tests one
    /// discriminant more).
    pub bursts: Option<BurstLinks>,
    /// Distance-based reception; None without `[channel.propagation]`.
    pub shadowing: Option<Shadowing>,
    /// Whether shadowing also draws for RTS, CTS and ACK frames.
    shadow_control: bool,
    /// Where every node is, over time.
    pub positions: Positions,
    /// Reception by SINR; None: any overlap destroys every frame in it.
    pub reception: Option<Reception>,
    /// Received powers (`power.rs`).
    pub budget: LinkBudget,
    /// Who hears whom; the spatial medium's only (`hearing.rs`).
    pub hearing: Option<Hearing>,
}

impl Channel {
    pub fn new(
        loss: IidLoss,
        bursts: Option<BurstLinks>,
        shadowing: Option<(Shadowing, bool)>,
        positions: Positions,
        reception: Option<Reception>,
        budget: LinkBudget,
    ) -> Self {
        let shadow_control = shadowing.as_ref().is_some_and(|s| s.1);
        Channel {
            loss,
            bursts,
            shadowing: shadowing.map(|s| s.0),
            shadow_control,
            positions,
            reception,
            budget,
            hearing: None,
        }
    }

    /// The nodes that hear a frame `tx` sends at `now`, with their powers (spatial medium).
    #[inline]
    pub fn heard_by(&self, tx: NodeId, now: Time, out: &mut Vec<(NodeId, f64)>) {
        let hearing = self.hearing.as_ref().expect("the spatial medium's hearing");
        hearing.heard_by(&self.budget, &self.positions, tx, now, out);
    }

    /// Node `n`'s radio (spatial medium).
    #[inline]
    pub fn radio(&self, n: NodeId) -> &Radio {
        self.hearing
            .as_ref()
            .expect("the spatial medium's hearing")
            .radio(n)
    }

    /// Whether the addressee's reception of a frame is decided by the shadowing draw
    /// (`[channel.propagation]`): the spatial medium then lets it lock onto any frame it
    /// hears from its link partner and leaves the verdict to the draw.
    #[inline]
    pub fn draws_reception(&self) -> bool {
        self.shadowing.is_some()
    }

    /// Whether an exchange asks about each of its frames (control frames can be lost, or
    /// every frame must be decoded at its SINR).
    #[inline]
    pub fn asks_every_frame(&self) -> bool {
        self.shadow_control || self.reception.is_some()
    }

    /// Power (W) at `rx` of a frame from `tx` at `now`.
    #[inline]
    pub fn power_w(&self, tx: NodeId, rx: NodeId, now: Time) -> f64 {
        self.budget.power_w(&self.positions, tx, rx, now)
    }

    /// Whether `rx` decodes `part` of `frame` from `tx` at `now` over `interference_w` of
    /// overlapping frames: always without SINR reception.
    #[inline]
    pub fn decodes(
        &mut self,
        tx: NodeId,
        rx: NodeId,
        now: Time,
        frame: Ppdu,
        part: Part,
        interference_w: f64,
    ) -> bool {
        let Some(r) = &mut self.reception else {
            return true;
        };
        let power = self.budget.power_w(&self.positions, tx, rx, now);
        r.decodes(rx, frame, part, power, interference_w)
    }

    /// Shadowing of a frame `tx` → `rx` at `now` (drawn only between positioned nodes).
    /// Kept out of line: `frame_lost` stays small enough to inline where no scenario
    /// shadows.
    #[inline(never)]
    fn shadowed(&mut self, tx: NodeId, rx: NodeId, now: Time) -> bool {
        let Some(s) = &mut self.shadowing else {
            return false;
        };
        match self.positions.distance(tx as usize, rx as usize, now) {
            Some(d) => s.frame_lost(d, rx),
            None => false,
        }
    }

    /// Whether shadowing draws for frames of `kind`.
    #[inline]
    pub fn shadows(&self, kind: FrameKind) -> bool {
        self.shadowing.is_some() && (kind == FrameKind::Data || self.shadow_control)
    }

    /// Whether the link models (i.i.d. errors, bursts: no shadowing) lose the frame
    /// `kind` sent by `tx` to `rx`; they leave control frames error-free.
    #[inline]
    pub fn link_lost(&mut self, tx: NodeId, rx: NodeId, kind: FrameKind) -> bool {
        match (kind, &mut self.bursts) {
            (FrameKind::Control, _) => false,
            (FrameKind::Data, None) => self.loss.frame_lost(tx, rx),
            // Both drawn: a burst model moves on every attempt.
            (FrameKind::Data, Some(b)) => b.frame_lost(tx, rx) | self.loss.frame_lost(tx, rx),
        }
    }

    /// A data frame `tx` → `rx` that collided on the shared medium was still an attempt
    /// on its link: its burst models move on by one, as for any other attempt (the
    /// spatial medium asks [`Channel::link_lost`] at every transmission's start, and
    /// ns-2.35's error model on a sender's outgoing path, `ErrorModel::recv` in
    /// `queue/errmodel.cc` behind `-OutgoingErrProc`, counts every frame the MAC sends,
    /// `Mac802_11::transmit`, colliding or not). The i.i.d. models draw nothing: a draw
    /// skipped changes no rate.
    #[inline]
    pub fn collided_attempt(&mut self, tx: NodeId, rx: NodeId) {
        if let Some(b) = &mut self.bursts {
            b.frame_lost(tx, rx);
        }
    }

    /// Whether [`Channel::collided_attempt`] moves anything (a burst model): when not, a
    /// collision's frames need not be taken one by one.
    #[inline]
    pub fn counts_collided_attempts(&self) -> bool {
        self.bursts.is_some()
    }

    /// Whether the frame `kind` sent by `tx` to `rx` at `now` is received in error (the
    /// shared medium's question: the link models, then the addressee's shadowing draw).
    #[inline]
    pub fn frame_lost(&mut self, tx: NodeId, rx: NodeId, now: Time, kind: FrameKind) -> bool {
        let lost = self.link_lost(tx, rx, kind);
        // Drawn on every attempt, so a receiver's stream does not depend on the other
        // models' outcomes; a wired node is never shadowed.
        if self.shadows(kind) {
            self.shadowed(tx, rx, now) | lost
        } else {
            lost
        }
    }

    /// The power at which node `rx` receives a frame `kind` whose median power there is
    /// `median_w` (W): with one shadowing draw of `rx`'s when shadowing draws for `kind`
    /// (the spatial medium asks once per frame and node that may hear it).
    #[inline]
    pub fn drawn_power_w(&mut self, rx: NodeId, kind: Option<FrameKind>, median_w: f64) -> f64 {
        match (&mut self.shadowing, kind) {
            (Some(s), Some(k)) if k == FrameKind::Data || self.shadow_control => {
                median_w * 10f64.powf(s.draw_db(rx) / 10.0)
            }
            _ => median_w,
        }
    }

    /// The factor (≤ 1) by which a node's median power may fall short of its floor and a
    /// draw still make it hear a frame: 1 without shadowing.
    pub fn reach_factor(&self) -> f64 {
        self.shadowing.as_ref().map_or(1.0, Shadowing::reach_factor)
    }
}
