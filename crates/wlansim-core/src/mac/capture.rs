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
use super::shared::{Exchange, Fresh, Shared};
use super::store::{ChannelLoss, Store};
use crate::channel::friis::SPEED_OF_LIGHT;
use crate::channel::reception::TieBreak;
use crate::channel::Channel;
use crate::net::NodeId;
use crate::sim::time::{from_secs, Time};

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
    ///
    /// Before that order comes the medium's: the node that sent the exchange's last frame
    /// (its ACK or BlockAck) sees the medium idle as that frame leaves it, every other node
    /// a propagation delay later, so its AIFS and slots end first and its PPDU goes first
    /// whatever the events' order (ns-3.37's `ChannelAccessManager` counts from the end
    /// of the node's own transmission, `m_lastTxEnd`, or of its reception, `m_lastRxEnd`).
    /// Traced in ns-3 (802.11n MCS 7 20 MHz, TCP 2 up + 2 down, 3 seeds;
    /// docs/validation-ns3.md "Tracing the up/down ratio (802.11n, k = 2)"): the AP, at
    /// the cell's centre, sent first in 574 of its 671 collisions.
    ///
    /// Where the nodes have positions, each sees that idle its propagation delay from the
    /// answerer later, in whole nanoseconds as ns-3.37 keeps it
    /// (`ConstantSpeedPropagationDelayModel::GetDelay` returns `Seconds(distance /
    /// speed)`, which rounds to the nearest nanosecond): the nearest goes first, and the
    /// order of the events above decides only among nodes at the same delay. In the
    /// matched cell (stations on a 0.5 m circle round the AP) a station opposite the
    /// answerer (1 m, 3 ns) comes after the AP and the answerer's neighbours (0.5 and
    /// 0.71 m, both 2 ns). Traced in ns-3 (the same cell, 13 runs; docs/validation-ns3.md
    /// "what differs after the answerer first"): the node nearest the answerer went first
    /// in 418 of 418 collisions in which one was nearest.
    ///
    /// None as well where ties are drawn ([`TieBreak::Drawn`]): no exchange is recorded.
    fn send_order(&self, store: &Store, channel: &Channel, now: Time) -> Option<(usize, bool)> {
        let e = |t: u32| &store.entities[t as usize];
        let delay = |a: NodeId, b: NodeId| {
            let metres = channel.positions.distance(a as usize, b as usize, now)?;
            Some(from_secs(metres / SPEED_OF_LIGHT))
        };
        self.fresh?.order(
            &self.transmitters,
            |t| e(t).node,
            |t| e(t).backoff.drawn,
            delay,
        )
    }

    /// Receivers break ties by `tie_break`: under [`TieBreak::SendOrder`] every exchange's
    /// end records what [`Shared::send_order`] needs ([`Shared::record_order`]); under
    /// [`TieBreak::Drawn`] none does (no work on the success path).
    pub(super) fn break_ties(&mut self, tie_break: TieBreak) {
        self.records_order = tie_break == TieBreak::SendOrder;
    }

    /// The exchange in progress ended (`success`: successfully), under
    /// [`TieBreak::SendOrder`]: what the order of a collision that follows it depends on
    /// ([`Fresh`]), before its frame leaves the head of line.
    pub(super) fn record_order(&mut self, store: &Store, success: bool) {
        self.fresh = success.then(|| {
            // The first transmitter: the only one, or the one captured out of a collision.
            let t = self.transmitters[0];
            let data = store
                .aggregation
                .as_ref()
                .is_none_or(|a| a.first_frame(t).is_none());
            let answerer = store.entities[t as usize].head.expect("has frame").to;
            Fresh {
                sender: t,
                data,
                answerer,
            }
        });
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
        let sent = self.send_order(store, channel, now);
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

impl Fresh {
    /// [`Shared::send_order`] of `transmitters` (entities on nodes `node`, having drawn
    /// `drawn` slots, at propagation delay `delay` from the answerer where positioned)
    /// after this exchange: the answerer's first, else the one nearest it, else this
    /// exchange's sender first or last, else none known.
    fn order(
        self,
        transmitters: &[u32],
        node: impl Fn(u32) -> NodeId,
        drawn: impl Fn(u32) -> u32,
        delay: impl Fn(NodeId, NodeId) -> Option<Time>,
    ) -> Option<(usize, bool)> {
        if let Some(i) = transmitters.iter().position(|&t| node(t) == self.answerer) {
            return Some((i, true));
        }
        let sender = transmitters.iter().position(|&t| t == self.sender);
        let sender_first = !self.data || drawn(self.sender) > 0;
        let of = |i: usize| delay(self.answerer, node(transmitters[i]));
        // The nearest delay, the first transmitter at it and how many share it (one pass,
        // no allocation: this runs at every collision under profile ns3); none where some
        // transmitter has no position.
        let mut nearest: Option<(Time, usize, usize)> = None;
        for i in 0..transmitters.len() {
            let Some(d) = of(i) else {
                nearest = None;
                break;
            };
            nearest = match nearest {
                Some((n, first, tied)) if d == n => Some((n, first, tied + 1)),
                Some((n, first, tied)) if d > n => Some((n, first, tied)),
                _ => Some((d, i, 1)),
            };
        }
        if let Some((d, first, tied)) = nearest {
            if tied == 1 {
                return Some((first, true));
            }
            if tied < transmitters.len() {
                // Some farther away: the sender goes first when it is among the nearest
                // and its events put it first; any other first is drawn.
                return sender
                    .filter(|&i| of(i) == Some(d) && sender_first)
                    .map(|i| (i, true));
            }
        }
        Some((sender?, sender_first))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answerer_goes_first_then_the_sender_by_its_slots() {
        // Entities 0-3 on nodes 10-13; entity 0 sent data to node 12 (entity 2), which
        // answered; entity 1 drew no slot, the others one.
        let node = |t: u32| 10 + t as NodeId;
        let drawn = |t: u32| u32::from(t != 1);
        let after = |sender, data, answerer| Fresh {
            sender,
            data,
            answerer,
        };
        let none = |_, _| None;
        let data = after(0, true, 12);
        assert_eq!(data.order(&[3, 0, 2], node, drawn, none), Some((2, true)));
        assert_eq!(data.order(&[3, 0], node, drawn, none), Some((1, true)));
        assert_eq!(data.order(&[3, 1], node, drawn, none), None);
        // The sender that drew no slot goes last after data, first after a BlockAckReq.
        let (data, bar) = (after(1, true, 12), after(1, false, 12));
        assert_eq!(data.order(&[3, 1], node, drawn, none), Some((1, false)));
        assert_eq!(bar.order(&[3, 1], node, drawn, none), Some((1, true)));
    }

    #[test]
    fn positioned_nodes_go_in_the_order_of_their_delay_from_the_answerer() {
        // The matched cell: the AP (node 10, entity 0) at the centre, stations 11-14 on a
        // 0.5 m circle, 13 opposite 11 and 14 opposite 12; entity t on node 10 + t. After
        // the AP's A-MPDU to 11 (the answerer): 10, 12 and 14 at 2 ns, 13 at 3 ns.
        let node = |t: u32| 10 + t as NodeId;
        let at = |n: NodeId| -> [f64; 2] {
            let a = std::f64::consts::FRAC_PI_2 * f64::from(n - 11);
            if n == 10 {
                [0.0, 0.0]
            } else {
                [0.5 * a.cos(), 0.5 * a.sin()]
            }
        };
        let delay = |a: NodeId, b: NodeId| {
            let (p, q) = (at(a), at(b));
            Some(from_secs((p[0] - q[0]).hypot(p[1] - q[1]) / SPEED_OF_LIGHT))
        };
        assert_eq!(
            (delay(11, 10), delay(11, 12), delay(11, 13)),
            (Some(2), Some(2), Some(3))
        );
        let after = |drawn_by_sender: u32| {
            let fresh = Fresh {
                sender: 0,
                data: true,
                answerer: 11,
            };
            move |tx: &[u32]| fresh.order(tx, node, |_| drawn_by_sender, delay)
        };
        // The one nearest goes first, whatever the sender drew.
        assert_eq!(after(0)(&[3, 0]), Some((1, true)));
        assert_eq!(after(0)(&[3, 2]), Some((1, true)));
        // At one delay the events decide: the sender first after a slot, last after none.
        assert_eq!(after(1)(&[2, 0]), Some((1, true)));
        assert_eq!(after(0)(&[2, 0]), Some((1, false)));
        assert_eq!(after(0)(&[2, 4]), None);
        // Some farther: the sender first when its events put it first, else drawn.
        assert_eq!(after(1)(&[3, 2, 0]), Some((2, true)));
        assert_eq!(after(0)(&[3, 2, 0]), None);
    }
}
