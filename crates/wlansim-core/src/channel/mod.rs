//! The channel: decides the fate of every frame put on the air, from (transmitter,
//! receiver, time, frame kind). The MAC asks [`Channel::frame_lost`] once per attempt;
//! the answer of one attempt says nothing about the next (a retransmission asks again at
//! its own time), so a model with memory (bursts, distance) sees each attempt.
//!
//! Models: [`iid`] (independent frame errors per link and direction), and on the links
//! that have one a burst model ([`bursts`]: Gilbert–Elliott, the consecutive bursts of
//! fotiadis2005) instead of the i.i.d. rate; with `[channel.propagation]`, distance-based
//! reception on top ([`shadowing`]: ns-2's log-distance shadowing, at the distance the
//! nodes' [`mobility`] gives at the frame's time). Control frames
//! (RTS, CTS, ACK) are short and sent at a low rate: every model treats them as
//! error-free unless it says otherwise.
pub mod bursts;
pub mod consecutive_burst;
pub mod gilbert_elliott;
pub mod iid;
pub mod mobility;
pub mod shadowing;

use crate::net::NodeId;
use crate::sim::time::Time;
pub use bursts::{BurstLink, BurstLinks, BurstParams};
pub use iid::IidLoss;
pub use mobility::{Positions, Trajectory};
pub use shadowing::{Shadowing, ShadowingParams};

/// What kind of frame the channel is asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// A data frame (MPDU carrying a packet).
    Data,
}

/// The channel component: the loss model of every link.
pub struct Channel {
    loss: IidLoss,
    /// The burst models; None when no link has one (the i.i.d. path then tests one
    /// discriminant more).
    pub bursts: Option<BurstLinks>,
    /// Distance-based reception; None without `[channel.propagation]`.
    pub shadowing: Option<Shadowing>,
    /// Where every node is, over time.
    pub positions: Positions,
}

impl Channel {
    pub fn new(
        loss: IidLoss,
        bursts: Option<BurstLinks>,
        shadowing: Option<Shadowing>,
        positions: Positions,
    ) -> Self {
        Channel {
            loss,
            bursts,
            shadowing,
            positions,
        }
    }

    /// Whether the frame `kind` sent by `tx` to `rx` at `now` is received in error.
    #[inline]
    pub fn frame_lost(&mut self, tx: NodeId, rx: NodeId, now: Time, kind: FrameKind) -> bool {
        match kind {
            FrameKind::Data => {
                let lost = match &mut self.bursts {
                    None => self.loss.frame_lost(tx, rx),
                    // Both drawn: a burst model moves on every attempt.
                    Some(b) => b.frame_lost(tx, rx) | self.loss.frame_lost(tx, rx),
                };
                match &mut self.shadowing {
                    None => lost,
                    // Drawn on every attempt, so a receiver's stream does not depend on
                    // the other models' outcomes; a wired node is never shadowed.
                    Some(s) => match self.positions.distance(tx as usize, rx as usize, now) {
                        Some(d) => s.frame_lost(d, rx) | lost,
                        None => lost,
                    },
                }
            }
        }
    }
}
