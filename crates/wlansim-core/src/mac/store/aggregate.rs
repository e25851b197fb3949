//! The store's side of aggregation (`mac/aggregate.rs`): forming an entity's A-MPDU when
//! it wins the medium, tracing it, and settling its Block Ack session when the exchange
//! ends. A child of the store so that `mac/aggregate.rs` (the sessions, the windows and
//! the reordering) depends on neither medium nor store.
use super::Store;
use crate::mac::aggregate::{
    data_offset, subframes, AggregationConfig, Answer, Carried, FirstFrame, Mpdu, Session,
};
use crate::mac::agreement::{
    Action, Agreement, Response, ADDBA_RESPONSE_TIMEOUT, FAILED_ADDBA_TIMEOUT,
};
use crate::mac::entity::HeadFrame;
use crate::mac::event::MacOutcome;
use crate::mac::exchange::{Ampdu, Msdus};
use crate::mac::rate::CONFIGURED;
use crate::net::{NodeId, Packet};
use crate::phy::LinkTimes;
use crate::sim::time::Time;
use crate::trace::AirRate;

impl Store {
    /// The packets entity `t`'s queue holds: those queued and the MPDUs in flight that
    /// keep their places (`mac.queue_counts_in_flight`; `TxQueue::hold_place`). For the
    /// `queue_length` series only: the queue keeps no count of its places held, so that
    /// a run that holds none pays nothing for them.
    pub fn queue_len(&self, t: u32) -> usize {
        let held = self
            .aggregation
            .as_ref()
            .filter(|a| a.config.queue_counts_in_flight)
            .map_or(0, |a| {
                a.sessions[t as usize].iter().map(|s| s.unacked.len()).sum()
            });
        self.entities[t as usize].queue.len() + held
    }

    /// Whether entity `t` sends A-MPDUs (every entity but a Beacon's, when the run
    /// aggregates).
    #[inline]
    pub(in crate::mac) fn aggregates(&self, t: u32) -> bool {
        self.aggregation.is_some() && self.entities[t as usize].beacon.is_none()
    }

    /// The head of an aggregating entity: the receiver of its next exchange (the ADDBA
    /// frame that goes before any other, [`Aggregation::pending_addba`]; the session with
    /// MPDUs to resend; else the first queued packet whose session does not wait for its
    /// agreement; a BlockAckReq owed for MPDUs discarded) and, until the exchange is
    /// formed when it wins the medium, the
    /// exchange of that frame alone. None while every frame it has waits.
    ///
    /// [`Aggregation::pending_addba`]: crate::mac::aggregate::Aggregation::pending_addba
    pub(in crate::mac) fn aggregate_head(&self, t: u32) -> Option<HeadFrame> {
        let agg = self.aggregation.as_ref().expect("aggregation");
        if let Some(action) = agg.pending_addba(t) {
            return Some(self.addba_head(t, action));
        }
        let e = &self.entities[t as usize];
        let sessions = &agg.sessions[t as usize];
        // A BlockAckReq owed for MPDUs discarded when none is left to resend.
        if let Some(s) = sessions
            .iter()
            .find(|s| s.discarded && s.unacked.is_empty())
        {
            let times = FirstFrame::BlockAckReq.times(&self.phy, self.link(e.node, s.to));
            return Some(HeadFrame::unicast(s.to, times, CONFIGURED));
        }
        let waits = |to: NodeId| sessions.iter().any(|s| s.to == to && s.waits());
        let (to, body, agreement) = sessions
            .iter()
            .filter(|s| !s.waits())
            .find_map(|s| s.unacked.front().map(|m| (s.to, m.body, s.block_ack())))
            .or_else(|| {
                let (_, p) = e.queue.find(|p| !waits(p.hop))?;
                let agreement = sessions.iter().any(|s| s.to == p.hop && s.block_ack());
                Some((p.hop, Msdus::default().with(p.ip_bytes()), agreement))
            })?;
        let ampdu = agg.config.block_acked(agreement, 1);
        let link = self.link(e.node, to);
        let one = Ampdu::default().with_mpdu(&self.phy, body);
        let times = AggregationConfig::times(&self.phy, link, self.rts_threshold, one, ampdu);
        Some(HeadFrame::unicast(to, times, CONFIGURED))
    }

    /// The entity of node `node` that answers entity `t`'s ADDBA Request: the one of the
    /// same access category (TID), else the node's first that is not a Beacon's.
    fn peer_entity(&self, t: u32, node: NodeId) -> u32 {
        let ac = self.entities[t as usize].ac;
        let of_node = || {
            let all = self.entities.iter().enumerate();
            all.filter(move |(_, e)| e.node == node && e.beacon.is_none())
        };
        let same_ac = of_node().find(|(_, e)| e.ac == ac);
        same_ac
            .or_else(|| of_node().next())
            .expect("a node that receives has an entity")
            .0 as u32
    }

    /// The rung of entity `t`'s next A-MPDU to `to`, or of its BlockAckReq, and the link's
    /// times at it: its rate controller's choice, made once per A-MPDU before it is
    /// filled; the configured rates without a controller. A BlockAckReq goes at the
    /// controller's rung too, it and its BlockAck at that rung's control-response rate (as
    /// ns-3.37's `HtFrameExchangeManager::SendBlockAckReq` sends it with the BlockAck's
    /// TXVECTOR for the rate manager's data TXVECTOR).
    fn aggregate_rate(&mut self, t: u32, to: NodeId) -> (u8, LinkTimes) {
        let rung = self.choose_rung(t, to);
        let node = self.entities[t as usize].node;
        (rung, *self.link_at(node, to, rung))
    }

    /// Entity `t` won the medium at `now`: an ADDBA frame ([`Store::form_addba`]), or its
    /// A-MPDU, whose whole exchange takes at most `budget` (the TXOP's time left; None: no
    /// TXOP limit). At least one MPDU goes.
    pub(in crate::mac) fn form_aggregate(&mut self, t: u32, now: Time, budget: Option<Time>) {
        if self.form_addba(t, now) {
            return;
        }
        let to = self.entities[t as usize].head.expect("has frame").to;
        self.expire_session(t, to, now);
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
        let s = Session::of(sessions, to);
        let session = &mut sessions[s];
        if session.bar {
            // A BlockAckReq about every MPDU sent and not acknowledged.
            agg.current[t as usize] = (s as u32, session.unacked.len() as u32, true);
            let times = FirstFrame::BlockAckReq.times(phy, &link);
            e.head = Some(HeadFrame::unicast(to, times, rate));
            return;
        }
        let config = agg.config;
        // Without its agreement an MPDU goes alone, acknowledged by an ACK.
        let agreement = session.block_ack();
        let window = if agreement { config.window } else { 1 };
        let fits = |a| config.fits(phy, &link, *rts_threshold, budget, (a, agreement));
        let mut a = Ampdu::default();
        for m in &session.unacked {
            let next = a.with_mpdu(phy, m.body);
            if a.mpdus > 0 && !fits(next) {
                break;
            }
            a = next;
        }
        if a.mpdus as usize == session.unacked.len() {
            let end = session.window_start() + window;
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
                let queued = e.queue.queued_at(place);
                let first = e.queue.take(place);
                // `mac.queue_counts_in_flight`: the MPDU keeps its place in the queue until
                // it leaves the window, acknowledged or discarded. ns-3.37's `WifiMacQueue`
                // keeps an MPDU from its first transmission until `BlockAckManager`
                // dequeues it (block-ack-manager.cc:451, 550) or it is dropped, and admits
                // a packet only while `GetNPackets() < MaxSize` (wifi-mac-queue.cc:204).
                // An A-MSDU keeps one place, as ns-3's queue holds it as one MPDU.
                if config.queue_counts_in_flight {
                    e.queue.hold_place();
                } else {
                    outcomes.push(MacOutcome::Vacated(t));
                }
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
                    queued,
                    received: false,
                });
                session.next_seq += 1;
            }
        }
        // One MPDU alone may go with an ACK (`SingleMpduAck`): it starts the window.
        let ampdu = config.block_acked(agreement, a.mpdus);
        debug_assert!(ampdu || !agreement || session.unacked[0].seq == session.window_start());
        agg.current[t as usize] = (s as u32, a.mpdus, ampdu);
        let times = AggregationConfig::times(phy, &link, *rts_threshold, a, ampdu);
        e.head = Some(HeadFrame::unicast(to, times, rate));
    }

    /// Entity `t`, which won the medium at `now`, sends an ADDBA frame when
    /// [`Aggregation::addba`] says so (the exchange is then its head's). Whether it does.
    ///
    /// [`Aggregation::addba`]: crate::mac::aggregate::Aggregation::addba
    fn form_addba(&mut self, t: u32, now: Time) -> bool {
        let Store {
            phy,
            entities,
            aggregation,
            ..
        } = self;
        let agg = aggregation.as_mut().expect("aggregation");
        let e = &entities[t as usize];
        let to = e.head.expect("has frame").to;
        let queued = || {
            e.queue
                .entries()
                .filter(|(p, _)| p.hop == to)
                .take(2)
                .count()
        };
        let action = agg.addba(t, (to, now), phy, queued);
        agg.action[t as usize] = action;
        let Some(action) = action else {
            return false;
        };
        self.entities[t as usize].head = Some(self.addba_head(t, action));
        true
    }

    /// The head of entity `t` when it sends the ADDBA frame `action`: to the originator
    /// of a Response, or the receiver of a Request's session.
    fn addba_head(&self, t: u32, action: Action) -> HeadFrame {
        let to = match action {
            Action::Response(r) => self.entities[r.from as usize].node,
            Action::Request(s) => {
                self.aggregation.as_ref().expect("aggregation").sessions[t as usize][s as usize].to
            }
        };
        let link = self.link(self.entities[t as usize].node, to);
        let times = FirstFrame::Addba.times(&self.phy, link);
        HeadFrame::unicast(to, times, CONFIGURED)
    }

    /// Tracing only, at the end of entity `t`'s exchange that began at `start` (after
    /// [`Store::aggregate_received`], before the window settles): each subframe of its
    /// A-MPDU as sent (`received`: the subframes its receiver decoded; 0 when it
    /// collided), and the receiver's BlockAck when it sent one (`block_ack`: whether the
    /// channel lost it), with the receiver's scoreboard from the window's start, or its
    /// ACK to an MPDU sent alone.
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
        if let Some(action) = agg.action[t as usize] {
            let bssid = if self.links[node as usize].is_some() {
                head.to
            } else {
                node
            };
            self.outcomes.push(MacOutcome::Addba {
                node,
                to: head.to,
                bssid,
                at: start,
                rate: link.rates.mgmt,
                response: matches!(action, Action::Response(_)),
                lost: received == 0,
            });
            return;
        }
        let ampdu = agg.current[t as usize].2;
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
                    last: ampdu.then_some(index + 1 == count),
                    decoded: received >> index & 1 == 1,
                });
            }
        }
        // The receiver's answer: a BlockAck to an A-MPDU, an ACK to an MPDU sent alone
        // (`SingleMpduAck`).
        let Some(lost) = block_ack else { return };
        let (at, answerer) = (start + head.times.data_end + phy.sifs, head.to);
        let answer = if ampdu {
            let bitmap = session
                .unacked
                .iter()
                .filter(|m| m.received)
                .fold(0u64, |b, m| b | 1 << (m.seq - ssn));
            let bitmap = Some(bitmap);
            MacOutcome::BlockAck {
                node: answerer,
                to: node,
                at,
                rate,
                ssn,
                bitmap,
                lost,
            }
        } else if count == 1 {
            MacOutcome::Ack {
                node: answerer,
                to: node,
                at,
                rate,
                lost,
            }
        } else {
            return;
        };
        self.outcomes.push(answer);
    }

    /// The receiver of entity `t`'s A-MPDU decoded the MPDUs of `bitmap` (bit i: the i-th
    /// subframe), whose reception ended at `at`: it keeps the new ones and passes up what
    /// is in order. (An ADDBA frame or a BlockAckReq: bit 0, the frame decoded.)
    pub(in crate::mac) fn aggregate_received(&mut self, t: u32, bitmap: u64, at: Time) {
        if self.aggregation.as_ref().expect("aggregation").action[t as usize].is_some() {
            return self.addba_received(t, at);
        }
        let agg = self.aggregation.as_mut().expect("aggregation");
        let (session, count) = agg.current(t);
        if session.bar {
            // A BlockAckReq: the recipient's window moves to its starting sequence number
            // (the sender's window start), past MPDUs the sender discarded (10.25.6).
            return session.catch_up(at, &mut self.outcomes);
        }
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
        if self.settle_addba(t, start, true, true).is_none() {
            self.settle_aggregate(t, start, true, true, true);
        }
        self.new_head(t);
    }

    /// The recipient of entity `t`'s ADDBA frame decoded it at `at`: a Request makes it
    /// owe a Response (replacing one it owes for the same session, as ns-3.37 does), a
    /// Response sets the originator's agreement up. Either wakes the entity that may now
    /// send.
    fn addba_received(&mut self, t: u32, at: Time) {
        let e = &self.entities[t as usize];
        let (node, to) = (e.node, e.head.expect("has frame").to);
        let action = self.aggregation.as_ref().expect("aggregation").action[t as usize];
        match action.expect("an ADDBA frame") {
            Action::Request(session) => {
                let r = self.peer_entity(t, to);
                let agg = self.aggregation.as_mut().expect("aggregation");
                let owed = &mut agg.responses[r as usize];
                owed.retain(|o| (o.from, o.session) != (t, session));
                owed.push(Response {
                    from: t,
                    session,
                    retries: 0,
                });
                agg.wakes.push((at, r));
            }
            Action::Response(r) => {
                let agg = self.aggregation.as_mut().expect("aggregation");
                let session = &mut agg.sessions[r.from as usize][r.session as usize];
                debug_assert_eq!(session.to, node);
                session.agreement = Agreement::Established;
                agg.wakes.push((at, r.from));
            }
        }
    }

    /// Entity `t`'s exchange that began at `start` ended (`acked`: its ACK came back): if
    /// it sent an ADDBA frame, the frame's fate: a Request acknowledged makes its session
    /// wait for the Response (until [`ADDBA_RESPONSE_TIMEOUT`] has passed: a wake then);
    /// one not acknowledged goes again, or, at the short retry limit, is discarded and
    /// the session's MPDUs go alone for [`FAILED_ADDBA_TIMEOUT`]; a Response acknowledged,
    /// or discarded at the limit, is no longer owed. Whether the frame was discarded;
    /// None when the exchange was not an ADDBA frame's. `on_air`: the frame went on the
    /// air (false: it lost an internal collision, and counts a retry but no frame sent).
    fn settle_addba(&mut self, t: u32, start: Time, acked: bool, on_air: bool) -> Option<bool> {
        let agg = self.aggregation.as_mut().expect("aggregation");
        let action = agg.action[t as usize].take()?;
        if on_air {
            // Counted as ns-3.37 counts a management frame's ACK (not discarded by it).
            let answer = if acked {
                Answer::AckOrCts
            } else {
                Answer::Missed
            };
            agg.missed_in_a_row(t, answer, false);
        }
        let e = &mut self.entities[t as usize];
        e.stats.addba_sent += u64::from(on_air);
        let end = start + e.head.expect("has frame").times.end;
        let limit = e.params.short_retry_limit;
        let at_limit = |retries: u32| limit.is_some_and(|l| retries >= l);
        let discarded = match action {
            Action::Request(s) => {
                let session = &mut agg.sessions[t as usize][s as usize];
                let retries = match session.agreement {
                    Agreement::Requesting { retries } => retries,
                    _ => 0,
                };
                let discarded = !acked && at_limit(retries + 1);
                session.agreement = if acked {
                    agg.wakes.push((end + ADDBA_RESPONSE_TIMEOUT, t));
                    Agreement::Awaiting {
                        until: end + ADDBA_RESPONSE_TIMEOUT,
                    }
                } else if discarded {
                    Agreement::NoReply {
                        retry_at: end + FAILED_ADDBA_TIMEOUT,
                    }
                } else {
                    Agreement::Requesting {
                        retries: retries + 1,
                    }
                };
                discarded
            }
            Action::Response(r) => {
                let owed = &mut agg.responses[t as usize];
                let same = |o: &Response| (o.from, o.session) == (r.from, r.session);
                let Some(i) = owed.iter().position(same) else {
                    return Some(false); // replaced by a newer one meanwhile
                };
                owed[i].retries += 1;
                let discarded = !acked && at_limit(owed[i].retries);
                if acked || discarded {
                    owed.remove(i);
                }
                discarded
            }
        };
        Some(discarded)
    }

    /// A wake of entity `t` at `now` ([`Aggregation::wakes`]): a Response awaited until
    /// now that did not come lets the session's MPDUs go alone (`NoReply`). Whether the
    /// entity had no frame and now has one (it then contends).
    ///
    /// [`Aggregation::wakes`]: crate::mac::aggregate::Aggregation::wakes
    pub(in crate::mac) fn wake_aggregate(&mut self, t: u32, now: Time) -> bool {
        let agg = self.aggregation.as_mut().expect("aggregation");
        for s in &mut agg.sessions[t as usize] {
            if matches!(s.agreement, Agreement::Awaiting { until } if until <= now) {
                s.agreement = Agreement::NoReply {
                    retry_at: now + FAILED_ADDBA_TIMEOUT,
                };
            }
        }
        if self.entities[t as usize].has_frame() {
            return false;
        }
        self.new_head(t);
        self.entities[t as usize].has_frame()
    }

    /// Entity `t`'s A-MPDU (sent at `start`) got no BlockAck (lost, collided, or no MPDU
    /// decoded): each of its MPDUs counts a retry (an RTS that got no CTS counts once,
    /// against the short retry count: `settle_aggregate`); CW doubles, or resets when
    /// every MPDU of it was discarded. `long_frame`: sent after RTS/CTS (the long retry
    /// limit). `on_air`: its first frame went on the air; false when it lost an internal
    /// collision (802.11-2012 9.19.2.3: it then acts as after a collision on the medium,
    /// but no frame of it counts as sent: `mpdus_sent`, `bars_sent`, `addba_sent` count
    /// with `attempts`).
    pub(in crate::mac) fn aggregate_failed(
        &mut self,
        t: u32,
        start: Time,
        long_frame: bool,
        on_air: bool,
    ) {
        // The data frame went on the air unless the RTS before it went unanswered
        // (`long_frame`: a data frame sent after RTS/CTS failed).
        let sent = long_frame || !self.entities[t as usize].head.expect("has frame").times.rts;
        let discarded_all = match self.settle_addba(t, start, false, on_air) {
            Some(discarded) => discarded,
            None => self.settle_aggregate(t, start, false, sent, on_air),
        };
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
    /// BlockAck came back; `sent`: the A-MPDU went on the air, not stopped by an RTS
    /// nobody answered; `on_air`: not outranked in an internal collision either, see
    /// [`Store::aggregate_failed`]): the retries counted, the acknowledged and the
    /// discarded MPDUs out, the receiver's window moved past the discarded ones (what it
    /// releases then goes up at the A-MPDU's end). Whether every MPDU of the A-MPDU was
    /// discarded.
    pub(in crate::mac) fn settle_aggregate(
        &mut self,
        t: u32,
        start: Time,
        acked: bool,
        sent: bool,
        on_air: bool,
    ) -> bool {
        let e = &mut self.entities[t as usize];
        let head = e.head.expect("has frame");
        let times = head.times;
        let (long, at) = (times.rts, start + times.data_end);
        let limit = if long {
            e.params.long_retry_limit
        } else {
            e.params.short_retry_limit
        };
        // An RTS without its CTS counts once, against the entity's short retry count
        // (802.11-2012 9.19.2.6, the EDCA retransmit procedures: the QoS STA's SRC), not
        // against each MPDU, none of which went; at the short retry limit every MPDU of
        // the A-MPDU is discarded (as ns-3.37's `FrameExchangeManager::DoCtsTimeout` does
        // when the station's SSRC reaches its limit).
        let rts_failed = !sent;
        let src_at_limit = rts_failed
            && e.params
                .short_retry_limit
                .is_some_and(|l| e.backoff.short_retries + 1 >= l);
        let (node, stats) = (e.node, &mut e.stats);
        let agg = self.aggregation.as_mut().expect("aggregation");
        let (s, _, ampdu) = agg.current[t as usize];
        let counted = agg.config.queue_counts_in_flight;
        // An MPDU sent alone with a Normal Ack, discarded at ns-3.37's retry limit on it
        // (`mac.single_mpdu_retry_limit`), which counts every exchange on the air.
        let alone = !(ampdu || agg.sessions[t as usize][s as usize].bar);
        let mut discard_alone = false;
        if on_air {
            if times.rts && sent {
                agg.missed_in_a_row(t, Answer::AckOrCts, false); // its CTS came back
            }
            let answer = match (acked, alone) {
                (false, _) => Answer::Missed,
                (true, false) => Answer::BlockAck,
                (true, true) => Answer::AckOrCts,
            };
            discard_alone = agg.missed_in_a_row(t, answer, alone && sent);
        }
        let (session, count) = agg.current(t);
        // A BlockAckReq's BlockAck counts no retry: the A-MPDU whose BlockAck was missed
        // counted them.
        let bar = std::mem::take(&mut session.bar);
        if bar && acked {
            session.discarded = false; // the recipient knows
        }
        if !on_air {
            // outranked in an internal collision: nothing was sent
        } else if bar {
            stats.bars_sent += 1;
        } else if sent {
            stats.mpdus_sent += count as u64;
        }
        let mut delivered = 0;
        for m in session.unacked.iter_mut().take(count) {
            if !(acked && (m.received || bar)) && !rts_failed {
                m.retries += 1;
            }
            delivered += u32::from(acked && m.received);
        }
        // The rate controller learns how many of the A-MPDU's MPDUs got through (none
        // went when its RTS was not answered, nor when an internal collision kept it off
        // the air: it hears nothing of a frame never sent).
        if let Some(rc) = self.rate.as_deref_mut().filter(|_| sent && on_air) {
            if bar {
                rc.report_bar(
                    node,
                    head.to,
                    count as u32,
                    acked.then_some(delivered),
                    start,
                );
            } else {
                rc.report_mpdus(node, head.to, head.rate, (count as u32, delivered), start);
            }
        }
        let at_limit = |m: &Mpdu| {
            if rts_failed {
                src_at_limit
            } else {
                discard_alone || limit.is_some_and(|l| m.retries >= l)
            }
        };
        let discarded_all = session.unacked.iter().take(count).all(at_limit);
        let mut discarded = false;
        let outcomes = &mut self.outcomes;
        let mut index = 0;
        let mut left = 0;
        session.unacked.retain(|m| {
            let of_ampdu = index < count;
            index += 1;
            if acked && m.received {
                m.msdus.iter().for_each(|p| stats.count_frame(p));
                left += 1;
                return false;
            }
            if !(of_ampdu && at_limit(m)) {
                return true;
            }
            stats.retry_drops += m.body.count as u64;
            discarded = true;
            left += 1;
            // A frame the receiver holds is not lost.
            if !m.received {
                for &packet in m.msdus.iter() {
                    outcomes.push(MacOutcome::RetryDrop { node, packet });
                }
            }
            false
        });
        if counted {
            // Their places in the queue, which they kept while in flight.
            self.entities[t as usize].queue.release_places(left);
            (0..left).for_each(|_| outcomes.push(MacOutcome::Vacated(t)));
        }
        if discarded {
            session.catch_up(at, outcomes);
        }
        // A missed BlockAck: a BlockAckReq asks what the receiver holds (an MPDU sent
        // alone is retried on its own). An A-MPDU whose RTS got no CTS was not sent, so
        // no BlockAck was missed: the RTS and the A-MPDU go again (802.11-2020 10.25: the
        // BlockAckReq asks about MPDUs sent; ns-3.37's `HtFrameExchangeManager::CtsTimeout`,
        // `FrameExchangeManager::DoCtsTimeout`: CW doubles, the MPDUs go again, or all
        // are discarded at the short retry limit). Nor was one missed when an internal
        // collision kept the frame off the air (802.11-2020 10.23.2.4: the AC backs off as
        // after a collision, its retry counts up): what it was to send goes next, the
        // A-MPDU or the BlockAckReq it had pending (as ns-3.37's
        // `FrameExchangeManager::NotifyInternalCollision`, which schedules no BlockAckReq).
        session.bar = session.discarded
            || if on_air {
                ampdu && sent && !acked && !session.unacked.is_empty()
            } else {
                bar
            };
        discarded_all
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::mac::aggregate::{Aggregation, SingleMpduAck};
    use crate::mac::backoff::Backoff;
    use crate::mac::entity::{AccessParams, Entity};
    use crate::mac::ns2::MacRules;
    use crate::mac::{Delivery, EifsStart, MacStats};
    use crate::net::TxQueue;
    use crate::phy::{LinkRates, Preamble, Standard};
    use crate::sim::rng::{Rng, StreamKind};
    use crate::sim::time::MS;

    /// An AP (node 0, entity 0) that aggregates, its queue holding `queue` (packets to
    /// `hop`, by node), and its two stations (nodes and entities 1 and 2, nothing
    /// queued), on 802.11n (HT).
    pub(in crate::mac::store) fn ap(queue: &[u32], amsdu_bytes: u32) -> Store {
        let phy = Standard::Ieee80211n.preset(Preamble::Long);
        let entity = |node: NodeId, queue: &[u32]| {
            let mut q = TxQueue::shared(100);
            for (seq, &hop) in queue.iter().enumerate() {
                let p = Packet::udp(hop, seq as u32, 1000, node, hop, 0);
                q.push(Packet { hop, ..p }, 0).unwrap();
            }
            Entity {
                node,
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
                    msdu_lifetime: None,
                },
                stats: MacStats::default(),
                beacon: None,
            }
        };
        let link = Some(LinkRates::fixed(&phy));
        let entities = vec![entity(0, queue), entity(1, &[]), entity(2, &[])];
        let mut store = Store::new(
            phy,
            None,
            entities,
            vec![None, link, link],
            MacRules::default(),
            EifsStart::default(),
        );
        let config = AggregationConfig {
            max_bytes: 65_535,
            window: 64,
            amsdu_bytes,
            delivery: Delivery::default(),
            queue_counts_in_flight: false,
            single_ack: SingleMpduAck::default(),
            single_retry_limit: None,
        };
        store.aggregation = Some(Aggregation::new(config, 3));
        store.entities[0].head = store.aggregate_head(0);
        store
    }

    /// Entity 0's agreements with `receivers` exist.
    pub(in crate::mac::store) fn agreed(store: &mut Store, receivers: &[NodeId]) {
        let sessions = &mut store.aggregation.as_mut().unwrap().sessions[0];
        for &to in receivers {
            let mut s = Session::new(to);
            s.agreement = Agreement::Established;
            sessions.push(s);
        }
    }

    /// Entity `t`'s exchange that began at `start` got through: every frame of it
    /// decoded, then its ACK or BlockAck.
    pub(in crate::mac::store) fn received_and_acked(store: &mut Store, t: u32, start: Time) {
        let data_end = start + store.entities[t as usize].head.unwrap().times.data_end;
        store.aggregate_received(t, u64::MAX, data_end);
        store.aggregate_acked(t, start);
    }

    /// Entity `t`'s current exchange: its ADDBA frame, else whether a BlockAck answers it.
    fn exchange(store: &Store, t: u32) -> (Option<Action>, bool) {
        let agg = store.aggregation.as_ref().unwrap();
        (agg.action[t as usize], agg.current[t as usize].2)
    }

    /// The packets (flow, seq) of entity 0's current A-MPDU, by MPDU.
    pub(in crate::mac::store) fn current(store: &mut Store) -> Vec<Vec<(u32, u32)>> {
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
        agreed(&mut store, &[1, 2]);
        store.form_aggregate(0, 0, None);
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
        agreed(&mut store, &[1, 2]);
        store.form_aggregate(0, 0, None);
        assert_eq!(
            current(&mut store),
            [vec![(1, 0), (1, 2)], vec![(1, 4), (1, 6)]]
        );
    }

    /// `mac.queue_counts_in_flight`: a full queue of 100 sends an A-MPDU of k MPDUs; with
    /// the rule the k in flight keep their places (the arrival is refused, no place is
    /// vacated) until the BlockAck acknowledges them, without it the arrival is taken.
    #[test]
    fn the_mpdus_in_flight_count_against_the_queue_under_the_rule() {
        let vacated = |store: &mut Store| {
            let outcomes = store.take_outcomes();
            let places = outcomes
                .iter()
                .filter(|o| matches!(o, MacOutcome::Vacated(0)));
            places.count()
        };
        for rule in [true, false] {
            let mut store = ap(&[1; 100], 0);
            store
                .aggregation
                .as_mut()
                .unwrap()
                .config
                .queue_counts_in_flight = rule;
            agreed(&mut store, &[1]);
            let room = |store: &Store| store.entities[0].queue.data_room();
            assert_eq!(room(&store), 0, "full either way");
            store.form_aggregate(0, 0, None);
            let k = current(&mut store).len();
            assert!(k > 1 && store.entities[0].queue.len() == 100 - k);
            let in_flight: usize = store.aggregation.as_ref().unwrap().sessions[0]
                .iter()
                .map(|s| s.unacked.len())
                .sum();
            assert_eq!(in_flight, k);
            assert_eq!(store.queue_len(0), if rule { 100 } else { 100 - k });
            assert_eq!(room(&store), if rule { 0 } else { k });
            assert_eq!(vacated(&mut store), if rule { 0 } else { k });
            let arrival = Packet {
                hop: 1,
                ..Packet::udp(1, 100, 1000, 0, 1, 0)
            };
            let taken = store.entities[0].queue.push(arrival, 0);
            assert_eq!(taken.is_err(), rule, "a packet arriving now");
            if !rule {
                continue;
            }
            received_and_acked(&mut store, 0, 0);
            assert_eq!(vacated(&mut store), k, "the acknowledged MPDUs' places");
            assert_eq!((store.queue_len(0), room(&store)), (100 - k, k));
        }
    }

    #[test]
    fn blockackreqs_and_the_mpdus_of_data_frames_are_counted_per_attempt() {
        let mut store = ap(&[1, 1, 1], 0);
        agreed(&mut store, &[1]);
        store.form_aggregate(0, 0, None);
        assert_eq!(current(&mut store).len(), 3);
        store.aggregate_failed(0, 0, false, true); // collided: a BlockAckReq follows
        for _ in 0..2 {
            store.form_aggregate(0, MS, None);
            assert!(store.aggregation.as_ref().unwrap().sessions[0][0].bar);
            store.aggregate_failed(0, MS, false, true);
        }
        store.form_aggregate(0, 2 * MS, None);
        store.aggregate_acked(0, 2 * MS); // its BlockAck: nothing received
        let stats = store.entities[0].stats;
        assert_eq!((stats.bars_sent, stats.mpdus_sent), (3, 3));
        // The three MPDUs go again in one A-MPDU.
        store.form_aggregate(0, 3 * MS, None);
        assert_eq!(current(&mut store).len(), 3);
        received_and_acked(&mut store, 0, 3 * MS);
        let stats = store.entities[0].stats;
        assert_eq!((stats.bars_sent, stats.mpdus_sent), (3, 6));
    }

    #[test]
    fn a_lone_mpdu_goes_with_a_normal_ack_and_is_resent_without_a_blockackreq() {
        use crate::mac::exchange::Ampdu;
        // One packet to station 1, two to station 2, both agreements set up.
        let mut store = ap(&[1, 2, 2], 0);
        store.aggregation.as_mut().unwrap().config.single_ack = SingleMpduAck::NormalAck;
        agreed(&mut store, &[1, 2]);
        store.form_aggregate(0, 0, None);
        assert_eq!(current(&mut store), [vec![(1, 0)]]);
        assert_eq!(exchange(&store, 0), (None, false), "an ACK answers it");
        let body = store.aggregation.as_ref().unwrap().sessions[0][0].unacked[0].body;
        let one = Ampdu::default().with_mpdu(&store.phy, body);
        let times =
            |ampdu| AggregationConfig::times(&store.phy, store.link(0, 1), None, one, ampdu);
        let (alone, in_ampdu) = (times(false), times(true));
        assert_eq!(store.entities[0].head.unwrap().times, alone);
        assert!(alone.data_end <= in_ampdu.data_end && alone.end < in_ampdu.end);
        // Its ACK missed: a retry, CW doubles, no BlockAckReq; it goes alone again.
        store.aggregate_failed(0, 0, false, true);
        let session = |store: &Store| {
            let s = &store.aggregation.as_ref().unwrap().sessions[0][0];
            (
                s.bar,
                s.unacked.iter().map(|m| m.retries).collect::<Vec<_>>(),
            )
        };
        assert_eq!(session(&store), (false, vec![1]));
        assert_eq!(store.entities[0].backoff.cw, 31);
        store.form_aggregate(0, MS, None);
        assert_eq!(exchange(&store, 0), (None, false));
        received_and_acked(&mut store, 0, MS);
        assert_eq!(
            session(&store),
            (false, vec![]),
            "acknowledged: the window moves on"
        );
        // Two MPDUs to station 2: an A-MPDU, answered by a BlockAck.
        store.form_aggregate(0, 2 * MS, None);
        assert_eq!(current(&mut store).len(), 2);
        assert_eq!(exchange(&store, 0), (None, true));
        // Under `BlockAck` the lone MPDU is an A-MPDU of one.
        let mut store = ap(&[1], 0);
        agreed(&mut store, &[1]);
        store.form_aggregate(0, 0, None);
        assert_eq!(exchange(&store, 0), (None, true));
        assert_eq!(store.entities[0].head.unwrap().times, in_ampdu);
    }

    /// `mac.single_mpdu_retry_limit` (ns-3.37's station SSRC): a missed BlockAck, of an
    /// A-MPDU or of a BlockAckReq, counts towards a lone MPDU's limit and a BlockAck
    /// received clears nothing, so a lone MPDU whose first ACK is missed is discarded
    /// when the entity's earlier misses bring the count to the limit; without the limit
    /// it goes again.
    #[test]
    fn a_lone_mpdu_is_discarded_when_the_entitys_missed_responses_reach_the_limit() {
        for limit in [Some(3), None] {
            // Two packets to station 2, then one to station 1, both agreements set up.
            let mut store = ap(&[2, 2, 1], 0);
            let config = &mut store.aggregation.as_mut().unwrap().config;
            (config.single_ack, config.single_retry_limit) = (SingleMpduAck::NormalAck, limit);
            agreed(&mut store, &[2, 1]);
            store.form_aggregate(0, 0, None);
            assert_eq!(current(&mut store).len(), 2);
            store.aggregate_failed(0, 0, false, true); // the A-MPDU's BlockAck missed: 1
            store.form_aggregate(0, MS, None);
            store.aggregate_failed(0, MS, false, true); // the BlockAckReq's missed: 2
            store.form_aggregate(0, 2 * MS, None);
            store.aggregate_acked(0, 2 * MS); // its BlockAck (nothing held): still 2
            store.form_aggregate(0, 3 * MS, None);
            assert_eq!(current(&mut store).len(), 2, "the two go again");
            received_and_acked(&mut store, 0, 3 * MS); // a BlockAck: still 2
            store.form_aggregate(0, 4 * MS, None);
            assert_eq!(current(&mut store), [vec![(1, 2)]]);
            assert_eq!(
                exchange(&store, 0),
                (None, false),
                "alone, with a Normal Ack"
            );
            store.outcomes.clear();
            let before = store.entities[0].backoff.cw;
            store.aggregate_failed(0, 4 * MS, false, true); // its ACK missed: 3
            let dropped = store
                .outcomes
                .iter()
                .filter(|o| matches!(o, MacOutcome::RetryDrop { .. }))
                .count();
            let left = &store.aggregation.as_ref().unwrap().sessions[0][1].unacked;
            let cw = store.entities[0].backoff.cw;
            if limit.is_some() {
                assert_eq!((dropped, left.len(), cw), (1, 0, 15), "discarded, CW reset");
                assert_eq!(store.entities[0].stats.retry_drops, 1);
            } else {
                assert_eq!((dropped, left.len()), (0, 1), "it goes again");
                assert_eq!(cw, 2 * before + 1, "CW doubles");
                assert_eq!(left[0].retries, 1);
            }
        }
    }

    #[test]
    fn an_ampdu_whose_rts_went_unanswered_goes_again_without_a_blockackreq() {
        let mut store = ap(&[1, 1, 1], 0);
        store.rts_threshold = Some(0);
        agreed(&mut store, &[1]);
        store.form_aggregate(0, 0, None);
        assert!(store.entities[0].head.unwrap().times.rts);
        store.aggregate_failed(0, 0, false, true); // no CTS: the A-MPDU stayed off the air
        let bar = |store: &Store| store.aggregation.as_ref().unwrap().sessions[0][0].bar;
        assert!(!bar(&store));
        assert_eq!(store.entities[0].stats.mpdus_sent, 0);
        assert_eq!(store.entities[0].backoff.cw, 31, "CW doubles");
        // The RTS and the same three MPDUs again; the CTS came, the BlockAck did not.
        store.form_aggregate(0, MS, None);
        assert_eq!(current(&mut store).len(), 3);
        store.aggregate_failed(0, MS, true, true);
        assert!(bar(&store));
        assert_eq!(store.entities[0].stats.mpdus_sent, 3);
    }

    #[test]
    fn an_rts_without_cts_counts_once_against_the_short_retry_count() {
        let mut store = ap(&[1, 1, 1], 0); // short retry limit 7, long 4
        store.rts_threshold = Some(0);
        agreed(&mut store, &[1]);
        let retries = |store: &Store| -> Vec<u32> {
            let session = &store.aggregation.as_ref().unwrap().sessions[0][0];
            session.unacked.iter().map(|m| m.retries).collect()
        };
        for i in 0..6 {
            store.form_aggregate(0, i * MS, None);
            assert_eq!(current(&mut store).len(), 3);
            store.aggregate_failed(0, i * MS, false, true); // no CTS
        }
        // Six RTSs unanswered: the SRC is 6, below the short limit; no MPDU counted a
        // retry (per MPDU, the long limit would have discarded them after four).
        assert_eq!(store.entities[0].backoff.short_retries, 6);
        assert_eq!(retries(&store), [0, 0, 0]);
        assert_eq!(store.entities[0].stats.retry_drops, 0);
        // The seventh reaches the short retry limit: every MPDU of the A-MPDU goes.
        store.form_aggregate(0, 6 * MS, None);
        store.aggregate_failed(0, 6 * MS, false, true);
        assert_eq!(store.entities[0].stats.retry_drops, 3);
        assert!(retries(&store).is_empty());
        let b = &store.entities[0].backoff;
        assert_eq!((b.short_retries, b.cw), (0, 15), "CW back to its minimum");
    }

    #[test]
    fn an_addba_request_goes_first_and_its_receivers_mpdus_wait_for_the_response() {
        use crate::sim::time::US;
        // Two packets for station 1, one for station 2 (HT: one alone needs no agreement).
        let mut store = ap(&[1, 1, 2], 0);
        store.form_aggregate(0, 0, None);
        let head = store.entities[0].head.unwrap();
        assert_eq!(
            (head.to, exchange(&store, 0)),
            (1, (Some(Action::Request(0)), false))
        );
        // 37 bytes at 6 Mb/s (the lowest basic rate): 16 + 296 + 6 bits in 14 symbols
        // after the 20 µs preamble; SIFS; the ACK at 6 Mb/s, 44 µs.
        let delta = store.phy.propagation_delay;
        assert_eq!(head.times.first_frame, 76 * US);
        assert_eq!(head.times.end, (76 + 16 + 44) * US + 2 * delta);
        // Station 1 decodes it and owes a Response; the ACK comes back at `end`.
        let end = head.times.end;
        store.aggregate_received(0, 1, head.times.data_end);
        store.aggregate_acked(0, 0);
        let agg = store.aggregation.as_ref().unwrap();
        let owed = Response {
            from: 0,
            session: 0,
            retries: 0,
        };
        assert_eq!(agg.responses[1], [owed]);
        assert_eq!(agg.wakes, [(head.times.data_end, 1), (end + MS, 0)]);
        // Station 1's packets wait; station 2's goes alone with an ACK.
        assert_eq!(store.entities[0].head.unwrap().to, 2);
        store.form_aggregate(0, end, None);
        assert_eq!(exchange(&store, 0), (None, false));
        assert_eq!(current(&mut store), [vec![(2, 2)]]);
        received_and_acked(&mut store, 0, end);
        assert!(store.entities[0].head.is_none() && store.entities[0].queue.len() == 2);
        // No Response within 1 ms of the Request's ACK: the MPDUs go alone meanwhile.
        assert!(store.wake_aggregate(0, end + MS));
        store.form_aggregate(0, end + MS, None);
        assert_eq!(exchange(&store, 0), (None, false));
        assert_eq!(current(&mut store), [vec![(1, 0)]]);
        received_and_acked(&mut store, 0, end + MS);
        // Station 1 wakes to send its Response (before anything of its own).
        assert!(store.wake_aggregate(1, end + MS));
        store.form_aggregate(1, end + 2 * MS, None);
        assert_eq!(store.entities[1].head.unwrap().to, 0);
        assert!(matches!(exchange(&store, 1).0, Some(Action::Response(r)) if r == owed));
        received_and_acked(&mut store, 1, end + 2 * MS);
        let agg = store.aggregation.as_ref().unwrap();
        assert!(agg.responses[1].is_empty() && agg.sessions[0][0].block_ack());
        assert_eq!(store.entities[0].stats.addba_sent, 1);
        assert_eq!(store.entities[1].stats.addba_sent, 1);
        // The agreement exists: what is left goes in an A-MPDU.
        store.form_aggregate(0, end + 3 * MS, None);
        assert_eq!(exchange(&store, 0), (None, true));
        assert_eq!(current(&mut store), [vec![(1, 1)]]);
    }

    #[test]
    fn a_request_discarded_at_the_retry_limit_lets_mpdus_go_alone_for_200_ms() {
        let mut store = ap(&[1, 1, 1, 1], 0);
        for _ in 0..7 {
            store.form_aggregate(0, 0, None);
            assert_eq!(exchange(&store, 0), (Some(Action::Request(0)), false));
            store.aggregate_failed(0, 0, false, true);
        }
        assert_eq!(store.entities[0].stats.addba_sent, 7);
        // Discarded at the short retry limit (7): CW back to its minimum.
        assert_eq!(store.entities[0].backoff.short_retries, 0);
        for at in [MS, 199 * MS] {
            store.form_aggregate(0, at, None);
            assert_eq!(exchange(&store, 0), (None, false));
            assert_eq!(current(&mut store).len(), 1);
            received_and_acked(&mut store, 0, at);
        }
        store.form_aggregate(0, 201 * MS, None);
        assert_eq!(exchange(&store, 0), (Some(Action::Request(0)), false));
    }
}
