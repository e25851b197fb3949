//! The store's side of the MSDU lifetime (the rule: `mac/lifetime.rs`): what an entity
//! discards when it accesses the medium.
use super::Store;
use crate::mac::aggregate::Session;
use crate::mac::event::MacOutcome;
use crate::mac::lifetime::expired;
use crate::net::Place;
use crate::sim::time::Time;

impl Store {
    /// The transmitters of an access at `now` discard what outlived its lifetime: an
    /// aggregating entity when its exchange is formed ([`Store::expire_session`]), any
    /// other its expired head-of-line frames ([`Store::expire_head`]). Out of line: only
    /// runs with a lifetime call it.
    #[inline(never)]
    pub(in crate::mac) fn expire_heads(&mut self, transmitters: &[u32], now: Time) {
        for &t in transmitters {
            if !self.aggregates(t) {
                self.expire_head(t, now);
            }
        }
    }

    /// Entity `t` (not aggregating) sends at `now`: its head-of-line frames whose lifetime
    /// passed are discarded, oldest first, while it has another one (the last goes,
    /// whatever its age); the retry counts start again with the new head.
    pub(in crate::mac) fn expire_head(&mut self, t: u32, now: Time) {
        let e = &mut self.entities[t as usize];
        let lifetime = e.params.msdu_lifetime;
        if lifetime.is_none() || e.beacon.is_some() {
            return;
        }
        let mut discarded = false;
        while e.queue.len() > 1 && expired(e.queue.queued_at(Place::Head), lifetime, now) {
            // A frame its receiver already has (only its ACK was lost) is not lost.
            let delivered = !discarded && e.head.is_some_and(|h| h.delivered);
            let packet = e.queue.pop().expect("a queued frame");
            e.stats.lifetime_drops += 1;
            if !delivered {
                let node = e.node;
                self.outcomes
                    .push(MacOutcome::LifetimeDrop { node, packet });
            }
            self.outcomes.push(MacOutcome::Vacated(t));
            discarded = true;
        }
        if discarded {
            let b = &mut e.backoff;
            (b.short_retries, b.long_retries) = (0, 0);
            self.new_head(t);
        }
    }

    /// Entity `t`, which aggregates, forms its exchange to `to` at `now`: the MPDUs of
    /// its session with `to` whose lifetime passed leave the window (under a Block Ack
    /// agreement a BlockAckReq then tells the recipient, [`Session::discarded`]; without
    /// one, MPDUs go alone and the recipient's window moves at once), and its expired
    /// queued packets to `to` are discarded, oldest first, while something else remains
    /// to send to `to`.
    pub(in crate::mac) fn expire_session(&mut self, t: u32, to: crate::net::NodeId, now: Time) {
        let Store {
            entities,
            aggregation,
            outcomes,
            ..
        } = self;
        let e = &mut entities[t as usize];
        let lifetime = e.params.msdu_lifetime;
        if lifetime.is_none() {
            return;
        }
        let agg = aggregation.as_mut().expect("aggregation");
        let sessions = &mut agg.sessions[t as usize];
        let s = Session::of(sessions, to);
        let session = &mut sessions[s];
        let (node, stats) = (e.node, &mut e.stats);
        let counted = agg.config.queue_counts_in_flight;
        let before = session.unacked.len();
        let mut vacated = 0;
        session.unacked.retain(|m| {
            if !expired(m.queued, lifetime, now) {
                return true;
            }
            if counted {
                // The place it kept in the queue while in flight.
                vacated += 1;
                outcomes.push(MacOutcome::Vacated(t));
            }
            stats.lifetime_drops += 1;
            // An MPDU the recipient holds is not lost: it goes up when the window moves.
            if !m.received {
                for &packet in m.msdus.iter() {
                    outcomes.push(MacOutcome::LifetimeDrop { node, packet });
                }
            }
            false
        });
        e.queue.release_places(vacated);
        if session.unacked.len() < before {
            if session.block_ack() {
                session.discarded = true;
                session.bar = true;
            } else {
                session.catch_up(now, outcomes);
            }
        }
        let for_to = |p: &crate::net::Packet| p.hop == to;
        let mut left: u32 = e
            .queue
            .entries()
            .filter(|(p, _)| for_to(p))
            .map(|(_, n)| n)
            .sum();
        while let Some((place, _)) = e.queue.find(for_to) {
            let other = left > 1 || !session.unacked.is_empty() || session.bar;
            if !(other && expired(e.queue.queued_at(place), lifetime, now)) {
                break;
            }
            let packet = e.queue.take(place);
            left -= 1;
            stats.lifetime_drops += 1;
            outcomes.push(MacOutcome::LifetimeDrop { node, packet });
            outcomes.push(MacOutcome::Vacated(t));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::aggregate::tests::{agreed, ap, current, received_and_acked};
    use super::*;
    use crate::net::Packet;
    use crate::sim::time::MS;

    /// A packet of flow 9 to station `hop`.
    fn to(hop: u32, seq: u32) -> Packet {
        Packet {
            hop,
            ..Packet::udp(9, seq, 1000, 0, hop, 0)
        }
    }

    /// Packets by (flow, seq).
    type Packets = Vec<(u32, u32)>;

    /// The packets dropped, and those delivered, in order.
    fn drops_and_deliveries(store: &mut Store) -> (Packets, Packets) {
        let (mut dropped, mut delivered) = (Vec::new(), Vec::new());
        for o in store.take_outcomes() {
            match o {
                MacOutcome::LifetimeDrop { packet: p, .. } => dropped.push((p.flow, p.seq)),
                MacOutcome::Delivered { packet: p, .. } => delivered.push((p.flow, p.seq)),
                _ => {}
            }
        }
        (dropped, delivered)
    }

    #[test]
    fn a_frame_queued_longer_than_its_lifetime_is_discarded_at_the_head() {
        // Entity 0 without aggregation: packets to station 1 queued at 0, 0 and 40 ms.
        let mut store = ap(&[1, 1], 0);
        store.aggregation = None;
        store.limits_lifetime = true;
        store.entities[0].params.msdu_lifetime = Some(50 * MS);
        store.entities[0].queue.push(to(1, 0), 40 * MS).unwrap();
        store.new_head(0);
        store.entities[0].backoff.short_retries = 2; // the head was being retried
        store.expire_head(0, 49 * MS);
        assert_eq!(store.entities[0].queue.len(), 3, "not yet 50 ms old");
        store.expire_head(0, 50 * MS);
        let (dropped, _) = drops_and_deliveries(&mut store);
        assert_eq!(dropped, [(1, 0), (1, 1)]);
        let e = &store.entities[0];
        assert_eq!(
            (e.queue.head().unwrap().flow, e.stats.lifetime_drops),
            (9, 2)
        );
        assert_eq!(
            e.backoff.short_retries, 0,
            "a new head: its retries count afresh"
        );
        // The last frame goes whatever its age: the entity won the medium.
        store.expire_head(0, 500 * MS);
        assert_eq!(store.entities[0].queue.len(), 1);
    }

    #[test]
    fn an_expired_mpdu_in_flight_leaves_the_window_and_a_blockackreq_moves_the_recipients() {
        let mut store = ap(&[1, 1, 1, 1], 0); // queued at 0
        agreed(&mut store, &[1]);
        store.limits_lifetime = true;
        store.entities[0].params.msdu_lifetime = Some(50 * MS);
        store.form_aggregate(0, 0, None);
        assert_eq!(current(&mut store).len(), 4);
        // The recipient decodes the MPDUs 1-3, not 0: it holds them behind the gap.
        let data_end = store.entities[0].head.unwrap().times.data_end;
        store.aggregate_received(0, 0b1110, data_end);
        store.aggregate_acked(0, 0);
        assert_eq!(drops_and_deliveries(&mut store), (vec![], vec![]));
        // A new packet at 60 ms: MPDU 0 (queued at 0) outlived its 50 ms when the entity
        // next forms an exchange; it leaves the window, and the exchange is a
        // BlockAckReq (the new packet waits).
        store.entities[0].queue.push(to(1, 0), 60 * MS).unwrap();
        store.form_aggregate(0, 60 * MS, None);
        let session = &store.aggregation.as_ref().unwrap().sessions[0][0];
        assert!(session.bar && session.discarded && session.unacked.is_empty());
        assert_eq!(store.entities[0].queue.len(), 1);
        assert_eq!(drops_and_deliveries(&mut store), (vec![(1, 0)], vec![]));
        assert_eq!(store.entities[0].stats.lifetime_drops, 1);
        // The BlockAckReq arrives: the recipient's window moves past 0 and releases 1-3
        // in order; its BlockAck comes back.
        received_and_acked(&mut store, 0, 60 * MS);
        let (_, delivered) = drops_and_deliveries(&mut store);
        assert_eq!(delivered, [(1, 1), (1, 2), (1, 3)]);
        let session = &store.aggregation.as_ref().unwrap().sessions[0][0];
        assert!(!session.bar && !session.discarded);
        assert_eq!(store.entities[0].stats.bars_sent, 1);
        // Then the new packet goes, sequence number 4, and goes up at once.
        store.form_aggregate(0, 61 * MS, None);
        assert_eq!(current(&mut store), [vec![(9, 0)]]);
        received_and_acked(&mut store, 0, 61 * MS);
        assert_eq!(drops_and_deliveries(&mut store).1, [(9, 0)]);
    }

    #[test]
    fn a_blockackreq_lost_goes_again_until_its_blockack_comes_back() {
        let mut store = ap(&[1, 1], 0);
        agreed(&mut store, &[1]);
        store.limits_lifetime = true;
        store.entities[0].params.msdu_lifetime = Some(50 * MS);
        store.form_aggregate(0, 0, None);
        let data_end = store.entities[0].head.unwrap().times.data_end;
        store.aggregate_received(0, 0b10, data_end);
        store.aggregate_acked(0, 0);
        store.form_aggregate(0, 60 * MS, None); // MPDU 0 expired: a BlockAckReq
        store.aggregate_failed(0, 60 * MS, false, true); // lost
        let session = &store.aggregation.as_ref().unwrap().sessions[0][0];
        assert!(session.bar && session.discarded);
        store.form_aggregate(0, 61 * MS, None);
        received_and_acked(&mut store, 0, 61 * MS);
        assert_eq!(
            drops_and_deliveries(&mut store),
            (vec![(1, 0)], vec![(1, 1)])
        );
        assert_eq!(store.entities[0].stats.bars_sent, 2);
    }

    #[test]
    fn expired_queued_packets_are_not_aggregated_but_the_last_one_goes() {
        let mut store = ap(&[1, 1, 1], 0); // queued at 0
        agreed(&mut store, &[1]);
        store.limits_lifetime = true;
        store.entities[0].params.msdu_lifetime = Some(50 * MS);
        store.entities[0].queue.push(to(1, 0), 30 * MS).unwrap();
        store.form_aggregate(0, 60 * MS, None);
        assert_eq!(current(&mut store), [vec![(9, 0)]]);
        let (dropped, _) = drops_and_deliveries(&mut store);
        assert_eq!(dropped, [(1, 0), (1, 1), (1, 2)]);
        // Alone and expired, a packet still goes (the access is not undone).
        let mut store = ap(&[1], 0);
        agreed(&mut store, &[1]);
        store.entities[0].params.msdu_lifetime = Some(50 * MS);
        store.form_aggregate(0, 60 * MS, None);
        assert_eq!(current(&mut store), [vec![(1, 0)]]);
    }
}
