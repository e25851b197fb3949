//! The channel: decides the fate of every frame put on the air, from (transmitter,
//! receiver, time, frame kind). The MAC asks [`Channel::frame_lost`] once per attempt;
//! the answer of one attempt says nothing about the next (a retransmission asks again at
//! its own time), so a model with memory (bursts, distance) sees each attempt.
//!
//! Models: [`iid`] (independent frame errors per link and direction). Control frames
//! (RTS, CTS, ACK) are short and sent at a low rate: every model treats them as
//! error-free unless it says otherwise.
pub mod iid;

use crate::net::NodeId;
use crate::sim::time::Time;
pub use iid::IidLoss;

/// What kind of frame the channel is asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// A data frame (MPDU carrying a packet).
    Data,
}

/// The channel component: the loss model of every link.
pub struct Channel {
    loss: IidLoss,
}

impl Channel {
    pub fn new(loss: IidLoss) -> Self {
        Channel { loss }
    }

    /// Whether the frame `kind` sent by `tx` to `rx` at `now` is received in error.
    #[inline]
    pub fn frame_lost(&mut self, tx: NodeId, rx: NodeId, _now: Time, kind: FrameKind) -> bool {
        match kind {
            FrameKind::Data => self.loss.frame_lost(tx, rx),
        }
    }
}
