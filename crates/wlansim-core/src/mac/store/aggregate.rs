//! The store's side of aggregation (`mac/aggregate.rs`): forming an entity's A-MPDU when
//! it wins the medium, tracing it, and settling its Block Ack session when the exchange
//! ends. A child of the store so that `mac/aggregate.rs` (the sessions, the windows and
//! the reordering) depends on neither medium nor store.
use super::Store;
use crate::mac::aggregate::{bar_times, data_offset, subframes, Carried, Mpdu, Session};
use crate::mac::entity::HeadFrame;
use crate::mac::event::MacOutcome;
use crate::mac::exchange::{Ampdu, Msdus};
use crate::mac::rate::CONFIGURED;
use crate::net::{NodeId, Packet};
use crate::phy::LinkTimes;
use crate::sim::time::Time;
use crate::trace::AirRate;

impl Store {
    /// Whether entity `t` sends A-MPDUs (every entity but a Beacon's, when the run
    /// aggregates).
    #[inline]
    pub(in crate::mac) fn aggregates(&self, t: u32) -> bool {
        self.aggregation.is_some() && self.entities[t as usize].beacon.is_none()
    }

    /// The head of an aggregating entity: the receiver of its next A-MPDU (the session
    /// with MPDUs to resend, else the queue's head) and, until the A-MPDU is formed when
    /// it wins the medium, the exchange of its first MPDU alone.
    pub(in crate::mac) fn aggregate_head(&self, t: u32) -> Option<HeadFrame> {
        let agg = self.aggregation.as_ref().expect("aggregation");
        let e = &self.entities[t as usize];
        let sessions = &agg.sessions[t as usize];
        let (to, body) = sessions
            .iter()
            .find_map(|s| s.unacked.front().map(|m| (s.to, m.body)))
            .or_else(|| {
                let p = e.queue.head()?;
                Some((p.hop, Msdus::default().with(p.ip_bytes())))
            })?;
        let link = self.link(e.node, to);
        let one = Ampdu::default().with_mpdu(&self.phy, body);
        Some(HeadFrame {
            rate: crate::mac::rate::CONFIGURED,
            to,
            times: agg.config.times(&self.phy, link, self.rts_threshold, one),
            delivered: false,
            broadcast: false,
        })
    }

    /// The rung of entity `t`'s next A-MPDU to `to`, or of its BlockAckReq, and the link's
    /// times at it: its rate controller's choice, made once per A-MPDU before it is
    /// filled; the configured rates without a controller. A BlockAckReq goes at the
    /// controller's rung too, it and its BlockAck at that rung's control-response rate (as
    /// ns-3.37's `HtFrameExchangeManager::SendBlockAckReq` sends it with the BlockAck's
    /// TXVECTOR for the rate manager's data TXVECTOR).
    fn aggregate_rate(&mut self, t: u32, to: NodeId) -> (u8, LinkTimes) {
        let e = &self.entities[t as usize];
        let node = e.node;
        if let Some(rc) = self.rate.as_deref_mut() {
            let rung = rc.choose(node, to, e.backoff.short_retries + e.backoff.long_retries);
            if rung != CONFIGURED {
                return (rung, *rc.times(node, to, rung));
            }
        }
        (CONFIGURED, *self.link(node, to))
    }

    /// Entity `t` won the medium: its A-MPDU, whose whole exchange takes at most `budget`
    /// (the TXOP's time left; None: no TXOP limit). At least one MPDU goes.
    pub(in crate::mac) fn form_aggregate(&mut self, t: u32, budget: Option<Time>) {
        let to = self.entities[t as usize].head.expect("has frame").to;
        let (rate, link) = self.aggregate_rate(t, to);
        let Store {
            phy,
            entities,
            aggregation,
            outcomes,
            rts_threshold,
            ..
        } = self;
        let agg = aggregation.as_mut().expect("aggregation");
        let e = &mut entities[t as usize];
        let sessions = &mut agg.sessions[t as usize];
        let s = match sessions.iter().position(|s| s.to == to) {
            Some(s) => s,
            None => {
                sessions.push(Session::new(to));
                sessions.len() - 1
            }
        };
        let session = &mut sessions[s];
        if session.bar {
            // A BlockAckReq about every MPDU sent and not acknowledged.
            agg.current[t as usize] = (s as u32, session.unacked.len() as u32);
            e.head = Some(HeadFrame {
                to,
                times: bar_times(phy, &link),
                delivered: false,
                broadcast: false,
                rate,
            });
            return;
        }
        let config = agg.config;
        let fits = |a| config.fits(phy, &link, *rts_threshold, budget, a);
        let mut a = Ampdu::default();
        for m in &session.unacked {
            let next = a.with_mpdu(phy, m.body);
            if a.mpdus > 0 && !fits(next) {
                break;
            }
            a = next;
        }
        if a.mpdus as usize == session.unacked.len() {
            let end = session.window_start() + agg.config.window;
            // The queued packets to `to`, wherever they stand (as ns-3 and Linux take
            // every queued MPDU of the receiver and TID): the entity's queue is its TID's.
            let for_to = |p: &Packet| p.hop == to;
            while session.next_seq < end {
                let Some((place, p)) = e.queue.find(for_to) else {
                    break;
                };
                let mut body = Msdus::default().with(p.ip_bytes());
                if a.mpdus > 0 && !fits(a.with_mpdu(phy, body)) {
                    break;
                }
                let first = e.queue.take(place);
                outcomes.push(MacOutcome::Vacated(t));
                // An A-MSDU: the next packets to the same receiver while it fits.
                let mut more = Vec::new();
                while let Some((place, q)) = e.queue.find(for_to) {
                    let next = body.with(q.ip_bytes());
                    if !config.amsdu_fits(next) || !fits(a.with_mpdu(phy, next)) {
                        break;
                    }
                    body = next;
                    more.push(e.queue.take(place));
                    outcomes.push(MacOutcome::Vacated(t));
                }
                a = a.with_mpdu(phy, body);
                session.unacked.push_back(Mpdu {
                    msdus: Carried { first, more },
                    body,
                    seq: session.next_seq,
                    retries: 0,
                    received: false,
                });
                session.next_seq += 1;
            }
        }
        agg.current[t as usize] = (s as u32, a.mpdus);
        e.head = Some(HeadFrame {
            rate,
            to,
            times: config.times(phy, &link, *rts_threshold, a),
            delivered: false,
            broadcast: false,
        });
    }

    /// Tracing only, at the end of entity `t`'s exchange that began at `start` (after
    /// [`Store::aggregate_received`], before the window settles): each subframe of its
    /// A-MPDU as sent (`received`: the subframes its receiver decoded; 0 when it
    /// collided), and the receiver's BlockAck when it sent one (`block_ack`: whether the
    /// channel lost it), with the receiver's scoreboard from the window's start.
    #[inline(never)]
    pub(in crate::mac) fn trace_ampdu(
        &mut self,
        t: u32,
        start: Time,
        received: u64,
        block_ack: Option<bool>,
    ) {
        let e = &self.entities[t as usize];
        let (node, head) = (e.node, e.head.expect("has frame"));
        let link = *self.head_link(t);
        let phy = &self.phy;
        let data_at = start + data_offset(phy, &link, head.times.rts);
        let agg = self.aggregation.as_mut().expect("aggregation");
        let ampdu = agg.config.ampdu();
        let (session, count) = agg.current(t);
        let ssn = session.window_start();
        let rate = link.rates.ack;
        if session.bar {
            self.outcomes.push(MacOutcome::BlockAck {
                node,
                to: head.to,
                at: start,
                rate,
                ssn,
                bitmap: None,
                lost: block_ack.is_none(),
            });
        }
        let count = if session.bar { 0 } else { count };
        let mpdus = session.unacked.iter().take(count);
        let offsets = subframes(phy, &link, ampdu, mpdus.clone().map(|m| m.body));
        for (index, (m, (offset, _))) in mpdus.zip(offsets).enumerate() {
            for &packet in m.msdus.iter() {
                self.outcomes.push(MacOutcome::Subframe {
                    node,
                    packet,
                    at: data_at + offset,
                    retry: m.retries > 0,
                    rate: AirRate::of(&link.rates),
                    seq: m.seq,
                    index: index as u32,
                    last: index + 1 == count,
                    decoded: received >> index & 1 == 1,
                });
            }
        }
        // An MPDU sent alone is acknowledged by an ACK (not captured, as elsewhere).
        if let Some(lost) = block_ack.filter(|_| ampdu) {
            let bitmap = session
                .unacked
                .iter()
                .filter(|m| m.received)
                .fold(0u64, |b, m| b | 1 << (m.seq - ssn));
            self.outcomes.push(MacOutcome::BlockAck {
                node: head.to,
                to: node,
                at: start + head.times.data_end + phy.sifs,
                rate,
                ssn,
                bitmap: Some(bitmap),
                lost,
            });
        }
    }

    /// The receiver of entity `t`'s A-MPDU decoded the MPDUs of `bitmap` (bit i: the i-th
    /// subframe), whose reception ended at `at`: it keeps the new ones and passes up what
    /// is in order.
    pub(in crate::mac) fn aggregate_received(&mut self, t: u32, bitmap: u64, at: Time) {
        let agg = self.aggregation.as_mut().expect("aggregation");
        let (session, count) = agg.current(t);
        for i in 0..count {
            let m = &mut session.unacked[i];
            if bitmap >> i & 1 == 0 || m.received {
                continue;
            }
            m.received = true;
            let slot = (m.seq - session.rx_start) as usize;
            if session.held.len() <= slot {
                session.held.resize(slot + 1, None);
            }
            session.held[slot] = Some(m.msdus.clone());
        }
        session.release(at, &mut self.outcomes);
    }

    /// Entity `t`'s BlockAck came back (its exchange began at `start`): the MPDUs the
    /// receiver holds leave the window; each of the A-MPDU's missing ones counts a retry.
    pub(in crate::mac) fn aggregate_acked(&mut self, t: u32, start: Time) {
        self.settle_aggregate(t, start, true);
        self.new_head(t);
    }

    /// Entity `t`'s A-MPDU (sent at `start`) got no BlockAck (lost, collided, or no MPDU
    /// decoded): each of its MPDUs counts a retry; CW doubles, or resets when every MPDU
    /// of it was discarded. `long_frame`: sent after RTS/CTS (the long retry limit).
    pub(in crate::mac) fn aggregate_failed(&mut self, t: u32, start: Time, long_frame: bool) {
        let discarded_all = self.settle_aggregate(t, start, false);
        let e = &mut self.entities[t as usize];
        let b = &mut e.backoff;
        if discarded_all {
            b.on_success(e.params.cw_min);
        } else {
            if long_frame {
                b.long_retries += 1;
            } else {
                b.short_retries += 1;
            }
            b.on_retry(e.params.cw_max);
        }
        self.new_head(t);
    }

    /// Entity `t`'s window after its A-MPDU's exchange (begun at `start`; `acked`: its
    /// BlockAck came back): the retries counted, the acknowledged and the discarded MPDUs
    /// out, the receiver's window moved past the discarded ones (what it releases then
    /// goes up at the A-MPDU's end). Whether every MPDU of the A-MPDU was discarded.
    pub(in crate::mac) fn settle_aggregate(&mut self, t: u32, start: Time, acked: bool) -> bool {
        let e = &mut self.entities[t as usize];
        let head = e.head.expect("has frame");
        let times = head.times;
        let (long, at) = (times.rts, start + times.data_end);
        let limit = if long {
            e.params.long_retry_limit
        } else {
            e.params.short_retry_limit
        };
        let (node, stats) = (e.node, &mut e.stats);
        let agg = self.aggregation.as_mut().expect("aggregation");
        let ampdu = agg.config.ampdu();
        let (session, count) = agg.current(t);
        // A BlockAckReq's BlockAck counts no retry: the A-MPDU whose BlockAck was missed
        // counted them.
        let bar = std::mem::take(&mut session.bar);
        let mut delivered = 0;
        for m in session.unacked.iter_mut().take(count) {
            if !(acked && (m.received || bar)) {
                m.retries += 1;
            }
            delivered += u32::from(acked && m.received);
        }
        // The rate controller learns how many of the A-MPDU's MPDUs got through.
        if let Some(rc) = self.rate.as_deref_mut() {
            if bar {
                rc.report_bar(
                    node,
                    head.to,
                    acked.then_some((count as u32, delivered)),
                    start,
                );
            } else {
                rc.report_mpdus(node, head.to, head.rate, (count as u32, delivered), start);
            }
        }
        let at_limit = |m: &Mpdu| limit.is_some_and(|l| m.retries >= l);
        let discarded_all = session.unacked.iter().take(count).all(at_limit);
        let mut discarded = false;
        let outcomes = &mut self.outcomes;
        session.unacked.retain(|m| {
            if acked && m.received {
                m.msdus.iter().for_each(|p| stats.count_frame(p));
                return false;
            }
            if !at_limit(m) {
                return true;
            }
            stats.retry_drops += m.body.count as u64;
            discarded = true;
            // A frame the receiver holds is not lost.
            if !m.received {
                for &packet in m.msdus.iter() {
                    outcomes.push(MacOutcome::RetryDrop { node, packet });
                }
            }
            false
        });
        if discarded {
            session.catch_up(at, outcomes);
        }
        // A missed BlockAck: a BlockAckReq asks what the receiver holds (an MPDU sent
        // alone is retried on its own).
        session.bar = ampdu && !acked && !session.unacked.is_empty();
        discarded_all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mac::aggregate::{Aggregation, AggregationConfig};
    use crate::mac::backoff::Backoff;
    use crate::mac::entity::{AccessParams, Entity};
    use crate::mac::ns2::MacRules;
    use crate::mac::MacStats;
    use crate::net::TxQueue;
    use crate::phy::{LinkRates, Preamble, Standard};
    use crate::sim::rng::{Rng, StreamKind};

    /// An AP (node 0) that aggregates, its queue holding `queue` (packets to `hop`, by
    /// node), and its two stations (nodes 1 and 2).
    fn ap(queue: &[u32], amsdu_bytes: u32) -> Store {
        let phy = Standard::Ieee80211n.preset(Preamble::Long);
        let mut q = TxQueue::shared(100);
        for (seq, &hop) in queue.iter().enumerate() {
            let p = Packet::udp(hop, seq as u32, 1000, 0, hop, 0);
            q.push(Packet { hop, ..p }).unwrap();
        }
        let e = Entity {
            node: 0,
            ac: None,
            queue: q,
            head: None,
            backoff: Backoff::new(15, Rng::named(1, StreamKind::Backoff, "ap")),
            params: AccessParams {
                aifs: 43_000,
                cw_min: 15,
                cw_max: 1023,
                short_retry_limit: Some(7),
                long_retry_limit: Some(4),
                txop_limit: 0,
            },
            stats: MacStats::default(),
            beacon: None,
        };
        let link = Some(LinkRates::fixed(&phy));
        let mut store = Store::new(
            phy,
            None,
            vec![e],
            vec![None, link, link],
            MacRules::default(),
        );
        let config = AggregationConfig {
            max_bytes: 65_535,
            window: 64,
            amsdu_bytes,
        };
        store.aggregation = Some(Aggregation::new(config, 1));
        store.entities[0].head = store.aggregate_head(0);
        store
    }

    /// The packets (flow, seq) of entity 0's current A-MPDU, by MPDU.
    fn current(store: &mut Store) -> Vec<Vec<(u32, u32)>> {
        let (session, count) = store.aggregation.as_mut().unwrap().current(0);
        let mpdus = session.unacked.iter().take(count);
        mpdus
            .map(|m| m.msdus.iter().map(|p| (p.flow, p.seq)).collect())
            .collect()
    }

    #[test]
    fn an_ampdu_takes_every_queued_packet_for_its_receiver() {
        // Download segments to station 1 interleaved with TCP ACKs to station 2.
        let queue = [1, 2, 1, 2, 1, 2, 1];
        let mut store = ap(&queue, 0);
        store.form_aggregate(0, None);
        assert_eq!(store.entities[0].head.unwrap().to, 1);
        let ones = [[(1, 0)], [(1, 2)], [(1, 4)], [(1, 6)]];
        assert_eq!(current(&mut store), ones.map(Vec::from));
        let left: Vec<u32> = store.entities[0]
            .queue
            .entries()
            .map(|(p, _)| p.seq)
            .collect();
        assert_eq!(left, [1, 3, 5], "the others stay, in order");
        // A-MSDUs are filled the same way: two subframes (2102 B) fit in 2200 B, three not.
        let mut store = ap(&queue, 2_200);
        store.form_aggregate(0, None);
        assert_eq!(
            current(&mut store),
            [vec![(1, 0), (1, 2)], vec![(1, 4), (1, 6)]]
        );
    }
}
