//! Per-link channel quality: an i.i.d. data frame error rate on each station's link with
//! the AP, per direction. A lost data frame gets no ACK: the sender retries after its ACK
//! timeout, the other stations, having received an errored frame, defer EIFS (9.3.7).
//! Control frames (RTS, CTS, ACK) are short and taken as error-free.
use crate::net::NodeId;
use crate::sim::rng::{Rng, StreamKind};

pub struct IidLoss {
    /// Per node: error rate of the data frames it sends (a station's uplink FER; 0 at the AP).
    tx: Vec<f64>,
    /// Per node: error rate of the data frames it receives (a station's downlink FER).
    rx: Vec<f64>,
    /// Per node: the stream that draws the fate of the data frames it sends.
    rng: Vec<Rng>,
    /// Some node sends or receives with errors (else no frame is ever lost: a run's
    /// constant, not worked out again for every frame).
    lossy: bool,
}

impl IidLoss {
    /// Per node, in node order: its name (which keys its random stream) and its
    /// (tx, rx) frame error rates.
    pub fn new<'a>(seed: u64, nodes: impl Iterator<Item = (&'a str, (f64, f64))>) -> Self {
        let mut loss = IidLoss {
            tx: Vec::new(),
            rx: Vec::new(),
            rng: Vec::new(),
            lossy: false,
        };
        for (name, (tx, rx)) in nodes {
            loss.tx.push(tx);
            loss.rx.push(rx);
            loss.rng.push(Rng::named(seed, StreamKind::Channel, name));
        }
        loss.lossy = loss.tx.iter().chain(&loss.rx).any(|&fer| fer > 0.0);
        loss
    }

    /// Whether the data frame `src` → `dst` is received in error. Losses at the sender's
    /// and the receiver's end are independent: FER = 1 − (1 − tx[src])(1 − rx[dst]).
    /// Links without errors draw nothing, so an ideal channel changes no random stream.
    #[inline]
    pub fn frame_lost(&mut self, src: NodeId, dst: NodeId) -> bool {
        self.lossy && self.link_lost(src, dst)
    }

    /// [`IidLoss::frame_lost`] when some link has errors (out of line).
    #[inline(never)]
    fn link_lost(&mut self, src: NodeId, dst: NodeId) -> bool {
        let fer = 1.0 - (1.0 - self.tx[src as usize]) * (1.0 - self.rx[dst as usize]);
        if fer <= 0.0 {
            return false;
        }
        self.rng[src as usize].uniform() < fer
    }
}
