//! Capture under SINR reception (`[channel.reception] model = "sinr"`): which frame of a
//! collision, if any, its receiver gets, and what the frames that overlap each frame of an
//! exchange add to its interference.
//!
//! The frames of a collision start at one slot boundary and reach every receiver
//! together. A receiver that transmits hears none of them; any other locks onto the
//! strongest frame it hears (`channel/reception.rs` `Reception::lock`), and gets it when
//! that frame is addressed to it and decodes at its SINR (a locked frame that does not
//! decode leaves a collision like any other). When frames addressed to
//! several receivers are locked (several BSSs), the exchange with the highest SINR goes
//! on and the others count as collided: the medium carries one exchange at a time.
//!
//! The captured exchange then runs as usual (CTS, data, ACK), each frame decoded against
//! the colliding frames still on the air when it starts; the medium is busy until the
//! later of its end and the end of the longest colliding frame. A captured exchange ends
//! its TXOP (no burst follows a collision). The colliders fail as in any collision.
//!
//! Of equally strong frames (one collision domain, every frame at one power) a receiver
//! locks onto one drawn evenly; under `profile = "ns3"` onto the one ns-3.37 put on the
//! air first, where [`Shared::send_order`] knows it (`channel/reception.rs` `TieBreak`).
use super::shared::{Exchange, Shared};
use super::store::{ChannelLoss, Store};
use crate::channel::reception::TieBreak;
use crate::channel::Channel;
use crate::net::NodeId;
use crate::sim::time::Time;

impl Shared {
    /// The node of the `i`-th transmitter and the receiver of its frame.
    #[inline]
    fn ends(&self, store: &Store, i: usize) -> (NodeId, NodeId) {
        let e = &store.entities[self.transmitters[i] as usize];
        (e.node, e.head.expect("has frame").to)
    }

    /// Which transmitter of the collision at hand ns-3.37 put on the air first or last (its
    /// index in `transmitters`, and whether first), where its order is known.
    ///
    /// ns-3.37's transmitters whose backoffs end together start in the order their
    /// `ChannelAccessManager::AccessTimeout` events were scheduled, their PPDUs' uids in
    /// that order, and a PHY keeps the strongest preamble of its detection window, ties to
    /// the lowest uid (`PhyEntity::EndPreambleDetectionPeriod`: `rxPowerW > maxRxPowerW`
    /// over `m_currentPreambleEvents`, ordered by uid). A node sets that event when it
    /// requests access (after its own exchange: at its end, `Txop::NotifyChannelReleased`)
    /// and again whenever it fires before the backoff is done
    /// (`ChannelAccessManager::DoRestartAccessTimeoutIfNeeded`): the others of the cell
    /// had theirs fire during the exchange just ended, at the end of AIFS and their slots
    /// counted from the end of its first frame, before the answer that followed it was
    /// known. So after an A-MPDU and its BlockAck the entity that sent it is set last
    /// when it drew no slot (the others' events fired inside the BlockAck) and first
    /// otherwise; after a BlockAckReq's short exchange, first. Of the others' order
    /// nothing is known (drawn). Traced in ns-3 (802.11n MCS 7 40 MHz, A-MPDU, basic
    /// access, n = 5 and 20, 16 runs; docs/validation-ns3.md "who goes first"): of 706
    /// collisions of the last exchange's sender's A-MPDU with a BlockAckReq, the AP
    /// decoded the A-MPDU in 319 of 320 after an A-MPDU exchange and a slot or more, 0 of
    /// 158 with no slot, 185 of 228 after a BlockAckReq exchange; of the other such
    /// collisions in 52.8 %. 802.11-2020 leaves open which of two simultaneous preambles
    /// a receiver synchronises to.
    fn send_order(&self, store: &Store) -> Option<(usize, bool)> {
        let (fresh, data) = self.fresh?;
        let i = self.transmitters.iter().position(|&t| t == fresh)?;
        Some((i, !data || store.entities[fresh as usize].backoff.drawn > 0))
    }

    /// The exchange of a grant with several transmitters under SINR reception: one of
    /// them captured (moved to the front of `transmitters`), or a collision of all.
    pub(super) fn capture(
        &mut self,
        store: &mut Store,
        now: Time,
        busy: Time,
        channel: &mut Channel,
    ) -> Exchange {
        let n = self.transmitters.len();
        let delta = store.phy.propagation_delay;
        let collision = Exchange {
            start: now,
            end: now + busy + delta,
            ..Exchange::default()
        };
        let mut best: Option<(usize, f64)> = None;
        let in_order = channel
            .reception
            .as_ref()
            .expect("SINR reception")
            .tie_break;
        let sent = (in_order == TieBreak::SendOrder)
            .then(|| self.send_order(store))
            .flatten();
        for i in 0..n {
            let rx = self.ends(store, i).1;
            // Each receiver once; a receiver that transmits hears nothing.
            if (0..i).any(|j| self.ends(store, j).1 == rx)
                || (0..n).any(|j| self.ends(store, j).0 == rx)
            {
                continue;
            }
            self.powers.clear();
            for j in 0..n {
                let p = channel.power_w(self.ends(store, j).0, rx, now);
                self.powers.push(p);
            }
            let reception = channel.reception.as_mut().expect("SINR reception");
            let locked = reception.lock_in_order(rx, &self.powers, sent);
            if self.ends(store, locked).1 != rx {
                continue;
            }
            let others: f64 = self.powers.iter().sum::<f64>() - self.powers[locked];
            let ratio = self.powers[locked] / others;
            if best.is_none_or(|(_, b)| ratio > b) {
                best = Some((locked, ratio));
            }
        }
        let Some((i, _)) = best else {
            self.collided_attempts(store, 0, channel);
            self.header_aborts_of_collision(store, now, collision.end, channel);
            return collision;
        };
        self.transmitters.swap(0, i);
        let mut ex = self.exchange_of(store, self.transmitters[0], now, now, channel);
        self.collided_attempts(store, 1, channel);
        let first = if store.head_exchange(self.transmitters[0]).rts {
            ChannelLoss::Rts
        } else {
            ChannelLoss::Data
        };
        if ex.loss == first {
            // Locked, but not decoded: a collision like any other.
            self.header_aborts_of_collision(store, now, collision.end, channel);
            return collision;
        }
        ex.captured = true;
        if collision.end > ex.end {
            ex.end = collision.end;
            ex.tail = true;
        }
        ex
    }

    /// A collision nobody captured, from `now` to `end`: under ns-3.37's rule the nodes
    /// that lose its PHY header count AIFS after it (`shared/header_abort.rs`).
    #[inline]
    fn header_aborts_of_collision(
        &mut self,
        store: &mut Store,
        now: Time,
        end: Time,
        channel: &mut Channel,
    ) {
        if channel
            .reception
            .as_ref()
            .is_some_and(|r| r.aborts_on_header_failure())
        {
            self.abort_headers(store, now, end, channel);
        }
    }

    /// Power (W) at `rx` of the colliding frames (every transmitter but the first) still
    /// on the air `offset` after the exchange began: 0 outside a capture.
    pub(super) fn interference(
        &self,
        store: &Store,
        rx: NodeId,
        start: Time,
        offset: Time,
        channel: &Channel,
    ) -> f64 {
        let mut sum = 0.0;
        for k in 1..self.transmitters.len() {
            let e = &store.entities[self.transmitters[k] as usize];
            if e.head.expect("has frame").times.first_frame > offset {
                sum += channel.power_w(e.node, rx, start);
            }
        }
        sum
    }
}
