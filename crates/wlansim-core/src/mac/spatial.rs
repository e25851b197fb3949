//! The spatial medium: carrier sense, NAV and reception per node, for scenarios in which
//! not every node hears every other, or on several channels (ARCHITECTURE.md, "The
//! medium: shared or spatial").
//!
//! A frame is a signal: it reaches the nodes that hear it (`channel/hearing.rs`) a
//! propagation delay δ after it starts, and leaves them δ after it ends
//! ([`MacEvent::SignalStart`], [`MacEvent::SignalEnd`]). Each node keeps its own view of
//! the medium (`mac/carrier_sense.rs`) and its own reception (`channel/receiver.rs`);
//! its channel-access entities count idle slots from where its view puts them, with the
//! backoff rules of `mac/backoff.rs`, and the node's earliest expiry is its
//! [`MacEvent::Access`] (at most one pending; one that finds the expiry moved later
//! schedules the next). Two nodes whose counters reach zero at one slot boundary both
//! transmit: a signal that reaches a node exactly at its boundary does not stop it
//! ([`super::Backoff::on_busy`]), so in one collision domain collisions happen exactly where the
//! shared medium has them. The node that sent the last frame senses its end δ before the
//! others, so its boundaries run δ ahead and its frame of a slot starts δ earlier: that
//! makes the collision not hidden (`channel/receiver.rs`); whether it defers EIFS after
//! the tail of a frame that outlasts its own is `MacRules::tail_is_errored`'s (under the
//! standard rules never: it missed that frame's start).
//!
//! An exchange runs as messages between nodes. The sender puts its first frame on the air
//! (RTS, or the data frame, or a Beacon) and waits CTSTimeout/ACKTimeout
//! ([`MacEvent::Timeout`]; a reception under way then is awaited to its end). The
//! addressee that decodes an RTS answers CTS SIFS later when its NAV lets it
//! (`MacRules::answers_rts`), one that decodes a data frame ACK SIFS later
//! ([`MacEvent::Send`]); the sender that decodes the CTS sends its data frame SIFS later,
//! the one that decodes the ACK is done (and may go on in its TXOP). Third parties that
//! decode a frame set their NAV from it (`mac/nav.rs`); one received in error brings
//! EIFS, but for one whose PHY header the node lost under ns-3.37's rule
//! (`mac/shared/header_abort.rs`, the rule of both media). The link models of the
//! channel (i.i.d., bursts) decide a frame at its addressee when it is sent and, as in
//! the shared medium, spoil it for every node; shadowing draws each frame's power at each
//! node that may hear it when it arrives there, and the drawn power decides what that
//! node senses, decodes and captures (ns-2's `Shadowing::Pr` per receiving node:
//! `channel/shadowing.rs`).
//!
//! Outcomes and counters are those of the shared medium: a success delivers the packet at
//! the end of its data frame's reception, a failure is counted by its cause (the loss
//! models, or else a collision, *hidden* when the frames arrived more than δ apart: see
//! `channel/receiver.rs`), and the rules shared with it (`mac/store.rs`: `Store::attempt_failed`,
//! `Store::succeed`, `Store::internal_collisions`, `Store::txop_next`) are called, not
//! copied.
use super::carrier_sense::MediumView;
use super::event::MacEvent;
use super::exchange::{data_ppdu, ppdu};
use super::nav::{nav_end, Frame};
use super::ns2::{LastFrame, MacRules};
use super::store::{ChannelLoss, Store};
use crate::channel::receiver::{Arrival, Fate, Receivers, Rule};
use crate::channel::{Channel, FrameKind, Ppdu};
use crate::net::{NodeId, Packet};
use crate::phy::frame::{ACK, CTS, RTS};
use crate::sim::event::Schedule;
use crate::sim::time::Time;
use std::ops::Range;

/// A frame a node puts on the air: which, to whom, of which entity's exchange (an
/// answer carries its sender's exchange: its timing and NAV), started when.
#[derive(Clone, Copy, Debug)]
struct Out {
    frame: Frame,
    to: NodeId,
    entity: u32,
    exchange_start: Time,
}

/// What a node owes SIFS after a reception (or, in a TXOP, after its last exchange).
#[derive(Clone, Copy, Debug)]
enum Owed {
    /// A CTS, an ACK, or the data frame after a CTS.
    Frame(Out),
    /// The next exchange of its TXOP, which began then.
    NextExchange { entity: u32, txop_start: Time },
}

/// A node's exchange as a sender.
#[derive(Clone, Copy, Debug)]
struct Exchange {
    entity: u32,
    to: NodeId,
    /// Its last frame: RTS (awaiting the CTS), data (awaiting the ACK), or a Beacon.
    stage: Frame,
    start: Time,
    txop_start: Time,
    /// The end of its last frame on the air.
    own_end: Time,
    /// Generation of its timeout (a later frame makes the earlier timeout stale).
    timeout: u32,
    /// The timeout passed while a frame was being received: decide when it ends.
    awaiting: bool,
    /// The transmission of its last frame.
    tx: u32,
    /// The fate of its last frame at the addressee, and whether the channel's loss models
    /// lost it (known once that frame ended there).
    fate: Option<(Fate, bool)>,
    /// The fate of the answer at this node.
    answer: Option<(Fate, bool)>,
    /// The addressee got the data frame (the end of its reception).
    received: Option<Time>,
    /// A frame of it was decoded although others overlapped it.
    captured: bool,
    /// The next exchange of a TXOP (SIFS after the last), not a medium access.
    burst: bool,
}

#[derive(Clone, Copy, Debug)]
struct NodeState {
    view: MediumView,
    /// Pending access event: its generation and time (`Time::MAX`: none).
    access_gen: u32,
    access_at: Time,
    /// Its own (last) transmission lasts from, until.
    tx_from: Time,
    tx_until: Time,
    ex: Option<Exchange>,
    owed: Option<Owed>,
    /// Its exchange succeeded in this event; the TXOP rule waits for the world
    /// (`Spatial::settle`).
    settling: bool,
    /// Frames it decoded whose NAV kept it deferring beyond what it sensed.
    nav_deferrals: u64,
    /// Under ns-2's rules: the last frame it heard end, if it decoded an ACK: its sender,
    /// start and length ([`super::MacRules::slots_counted_after_own_frame`]).
    last_ack: Option<LastFrame>,
}

impl Default for NodeState {
    fn default() -> Self {
        NodeState {
            view: MediumView::default(),
            access_gen: 0,
            access_at: Time::MAX,
            tx_from: 0,
            tx_until: 0,
            ex: None,
            owed: None,
            settling: false,
            nav_deferrals: 0,
            last_ack: None,
        }
    }
}

/// A frame on the air.
#[derive(Clone, Debug)]
struct Transmission {
    node: NodeId,
    /// Its addressee (the sender itself for a broadcast frame).
    to: NodeId,
    frame: Frame,
    start: Time,
    end: Time,
    ppdu: Ppdu,
    /// Where it sets the NAV of the third parties that decode it.
    nav_end: Time,
    /// The channel's link models lost it at its addressee.
    lost: bool,
    /// What the channel's models know it as (None: a Beacon, which nothing draws for).
    kind: Option<FrameKind>,
    /// The nodes that hear it and their (drawn) powers.
    heard: Vec<(NodeId, f64)>,
    /// A data frame's packet and retry flag, when what each node hears is traced
    /// ([`Store::trace_heard`]).
    data: Option<(Packet, bool)>,
}

/// The per-node medium (see the module's text).
pub(crate) struct Spatial {
    nodes: Vec<NodeState>,
    /// Per node: its channel-access entities (its beacon entity included).
    entities_of: Vec<Range<u32>>,
    /// Per entity: it may not count idle slots before then (ACKTimeout + AIFS after its
    /// failed attempt, or a countdown of its own that a frame's arrival started).
    hold: Vec<Time>,
    /// Per entity sending Beacons: their frame.
    beacon_ppdu: Vec<Option<Ppdu>>,
    txs: Vec<Transmission>,
    free: Vec<u32>,
    receivers: Receivers,
    /// Successes whose TXOP decision waits for the world's outcomes: (node, entity, TXOP
    /// start, captured).
    settle: Vec<(NodeId, u32, Time, bool)>,
    /// Reused buffers.
    due: Vec<u32>,
    losers: Vec<u32>,
    /// [`super::MacRules::eifs_hold`].
    eifs_hold: Time,
    /// Per entity: the boundary at which [`Spatial::freeze`] last left it to transmit
    /// (its counter reached zero as its medium turned busy there), else `Time::MAX`.
    sends_at: Vec<Time>,
}

impl Spatial {
    /// The medium of `nodes` nodes whose entities are `store.entities` (each node's
    /// contiguous), deciding receptions by `rule`; `beacon_ppdu`: per entity, the Beacon
    /// it sends, if any.
    pub fn new(store: &Store, nodes: usize, rule: Rule, beacon_ppdu: Vec<Option<Ppdu>>) -> Spatial {
        let mut entities_of = vec![0..0; nodes];
        for (i, e) in store.entities.iter().enumerate() {
            let r = &mut entities_of[e.node as usize];
            if r.start == r.end {
                *r = i as u32..i as u32 + 1;
            } else {
                debug_assert_eq!(r.end, i as u32, "a node's entities are contiguous");
                r.end = i as u32 + 1;
            }
        }
        Spatial {
            nodes: vec![NodeState::default(); nodes],
            entities_of,
            hold: vec![0; store.entities.len()],
            beacon_ppdu,
            txs: Vec::new(),
            free: Vec::new(),
            receivers: Receivers::new(rule, store.phy.propagation_delay, nodes),
            settle: Vec::new(),
            due: Vec::new(),
            losers: Vec::new(),
            eifs_hold: store.rules.eifs_hold(&store.phy),
            sends_at: vec![Time::MAX; store.entities.len()],
        }
    }

    /// Node `n`'s carrier-sense busy time and NAV deferrals.
    pub fn node_counters(&self, n: NodeId) -> (Time, u64) {
        let s = &self.nodes[n as usize];
        (s.view.busy_time(), s.nav_deferrals)
    }

    /// Statistics restart at `now`.
    pub fn reset_statistics(&mut self, now: Time) {
        for s in &mut self.nodes {
            s.view.reset_busy_time(now);
            s.nav_deferrals = 0;
        }
    }

    /// The entities whose exchange is under way (counted as an attempt, or as the burst of
    /// a TXOP: the bool; its outcome is not counted yet).
    pub fn exchanges_in_progress(&self) -> Vec<(u32, bool)> {
        let ex = self.nodes.iter().filter_map(|s| s.ex);
        ex.map(|ex| (ex.entity, ex.burst)).collect()
    }

    /// Whether node `n` is taken by an exchange of its own (sending, awaiting an answer,
    /// about to answer).
    #[inline]
    fn engaged(&self, n: NodeId, now: Time) -> bool {
        let s = &self.nodes[n as usize];
        s.tx_until > now || s.ex.is_some() || s.owed.is_some() || s.settling
    }

    /// A frame reached entity `e`'s empty queue at `now`.
    pub fn frame_ready<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        e: u32,
        sched: &mut S,
    ) {
        let node = store.entities[e as usize].node;
        let busy = self.nodes[node as usize].view.busy_at(now) || self.engaged(node, now);
        let (slot, rules) = (store.phy.slot, store.rules);
        let ent = &mut store.entities[e as usize];
        let aifs = ent.params.aifs;
        if ent.backoff.on_frame_arrival(now, busy, aifs, slot, rules) {
            self.hold[e as usize] = ent.backoff.countdown_start;
        }
        self.schedule_access(store, node, now, sched);
    }

    /// Where node `n`'s entities count idle slots from, after its view changed. Only an
    /// entity that [`Spatial::freeze`] left to transmit at this very boundary keeps its
    /// countdown. That is recorded (`sends_at`), not inferred from a counter that reaches
    /// zero now: a frozen entity's counter drops by the slots it counted while its
    /// countdown start stays, so its countdown too ends now whenever the freeze falls
    /// half-way through it (k slots counted of 2k), and a fresh draw after an exchange may
    /// end now by chance; either, kept, would transmit into a busy medium.
    fn refresh(&self, store: &mut Store, n: NodeId, now: Time) {
        let view = self.nodes[n as usize].view;
        let slot = store.phy.slot;
        for e in self.entities_of[n as usize].clone() {
            let ent = &mut store.entities[e as usize];
            let has_frame = ent.has_frame();
            let b = &mut ent.backoff;
            let sends = b.pending && has_frame && b.expiry(slot) == now;
            if sends && self.sends_at[e as usize] == now {
                continue;
            }
            let start = view.countdown_start(ent.params.aifs, self.eifs_hold, store.eifs);
            b.countdown_start = start.max(self.hold[e as usize]);
        }
    }

    /// Node `n`'s medium turns busy at `now`: its entities freeze (9.3.4.3); with `due`,
    /// one whose counter reaches zero now is left to transmit at this boundary. `own`:
    /// under ns-2's rules, when the signal is that of the sender of the last frame the
    /// node decoded (an ACK: its start and length), transmitting as its own countdown
    /// ended (its draw): the node's entities count the slots as ns-2's arithmetic does
    /// ([`super::MacRules::slots_counted_after_own_frame`]).
    fn freeze(
        &mut self,
        store: &mut Store,
        n: NodeId,
        now: Time,
        due: bool,
        own: Option<(LastFrame, u32)>,
    ) {
        let slot = store.phy.slot;
        for e in self.entities_of[n as usize].clone() {
            let ent = &mut store.entities[e as usize];
            let has_frame = ent.has_frame();
            if !ent.backoff.pending {
                continue;
            }
            let (before, start) = (ent.backoff.counter, ent.backoff.countdown_start);
            // Whether the entity transmits at this boundary (its counter reaches zero now).
            let sends = if due {
                ent.backoff.on_busy(has_frame, now, slot)
            } else {
                ent.backoff.freeze_busy(has_frame, now, slot);
                false
            };
            // Only a boundary exactly on the node's slots can come out short.
            if let Some((last, drawn)) =
                own.filter(|_| start <= now && (now - start).is_multiple_of(slot))
            {
                let short = store.rules.short_count(last, start, now, drawn, &store.phy);
                ent.backoff.recount(before, short);
            }
            self.sends_at[e as usize] = if sends { now } else { Time::MAX };
        }
    }

    /// Schedule node `n`'s access at its earliest expiry, unless an earlier access event
    /// is pending (it will look again) or the node is engaged.
    fn schedule_access<S: Schedule<MacEvent>>(
        &mut self,
        store: &Store,
        n: NodeId,
        now: Time,
        sched: &mut S,
    ) {
        if self.engaged(n, now) {
            return;
        }
        let slot = store.phy.slot;
        let earliest = self.entities_of[n as usize]
            .clone()
            .map(|e| &store.entities[e as usize])
            .filter(|e| e.backoff.pending && e.has_frame())
            .map(|e| e.backoff.expiry(slot))
            .min();
        let s = &mut self.nodes[n as usize];
        if let Some(at) = earliest {
            let at = at.max(now);
            if at < s.access_at {
                s.access_gen = s.access_gen.wrapping_add(1);
                s.access_at = at;
                sched.schedule(at, MacEvent::Access(n, s.access_gen));
            }
        }
    }

    /// Handle one of the spatial medium's events at `now`.
    pub fn handle<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        event: MacEvent,
        channel: &mut Channel,
        sched: &mut S,
    ) {
        match event {
            MacEvent::Access(n, generation) => {
                self.on_access(store, now, n, generation, channel, sched)
            }
            MacEvent::Send(n) => self.on_send(store, now, n, channel, sched),
            MacEvent::SignalStart(tx) => self.signal_start(store, now, tx, channel, sched),
            MacEvent::SignalEnd(tx) => self.signal_end(store, now, tx, channel, sched),
            MacEvent::Timeout(n, generation) => self.on_timeout(store, now, n, generation, sched),
            MacEvent::Grant(_)
            | MacEvent::ExchangeEnd
            | MacEvent::Received(_)
            | MacEvent::Wake(_) => {
                unreachable!("events of the shared medium or the world")
            }
        }
    }

    /// Node `n`'s earliest backoff expiry: the entities whose counter reaches zero now
    /// transmit (the highest AC of the node among them, 9.19.2.3); the others freeze.
    fn on_access<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        n: NodeId,
        generation: u32,
        channel: &mut Channel,
        sched: &mut S,
    ) {
        let s = &mut self.nodes[n as usize];
        if generation != s.access_gen {
            return;
        }
        s.access_at = Time::MAX;
        let slot = store.phy.slot;
        let mut due = std::mem::take(&mut self.due);
        due.clear();
        due.extend(self.entities_of[n as usize].clone().filter(|&e| {
            let ent = &store.entities[e as usize];
            let expiry = ent.backoff.expiry(slot);
            debug_assert!(
                !(ent.backoff.pending && ent.has_frame()) || expiry >= now,
                "a backoff expired unnoticed"
            );
            ent.backoff.pending && ent.has_frame() && expiry <= now
        }));
        if due.is_empty() || self.engaged(n, now) {
            if !due.is_empty() {
                // Its own frame is on the air: the entity sends once the medium lets it.
                self.freeze(store, n, now, false, None);
                self.refresh(store, n, now);
            }
            self.due = due;
            return self.schedule_access(store, n, now, sched);
        }
        // The node's other entities freeze; the outranked keep the backoff they draw.
        let range = self.entities_of[n as usize].clone();
        for e in range {
            if !due.contains(&e) {
                let ent = &mut store.entities[e as usize];
                let has_frame = ent.has_frame();
                ent.backoff.on_busy(has_frame, now, slot);
            }
        }
        let mut losers = std::mem::take(&mut self.losers);
        losers.clear();
        if due.len() > 1 {
            store.internal_collisions(&mut due, &mut losers, now);
        }
        let winner = due[0];
        self.due = due;
        self.losers = losers;
        self.start_exchange(store, now, winner, now, false, channel, sched);
    }

    /// Entity `t` starts an exchange at `now` (in a TXOP that began at `txop_start`;
    /// `burst`: SIFS after its last one, not a medium access).
    #[allow(clippy::too_many_arguments)]
    fn start_exchange<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        t: u32,
        txop_start: Time,
        burst: bool,
        channel: &mut Channel,
        sched: &mut S,
    ) {
        if store.limits_lifetime {
            store.expire_heads(&[t], now);
        }
        if burst {
            store.entities[t as usize].stats.burst_exchanges += 1;
        } else {
            store.entities[t as usize].count_attempt();
        }
        if store.trace {
            store.trace_attempt(t, now);
        }
        let e = &store.entities[t as usize];
        let head = e.head.expect("has frame");
        let frame = if head.broadcast {
            Frame::Beacon
        } else if head.times.rts {
            Frame::Rts
        } else {
            Frame::Data
        };
        let n = e.node;
        self.nodes[n as usize].ex = Some(Exchange {
            entity: t,
            to: head.to,
            stage: frame,
            start: now,
            txop_start,
            own_end: now,
            timeout: 0,
            awaiting: false,
            tx: 0,
            fate: None,
            answer: None,
            received: None,
            captured: false,
            burst,
        });
        let out = Out {
            frame,
            to: head.to,
            entity: t,
            exchange_start: now,
        };
        // A medium access froze the node's entities already (`on_access`).
        self.transmit(store, now, n, out, burst, channel, sched);
    }

    /// Node `n` puts `out.frame` on the air at `now`; `freeze`: its entities freeze now
    /// (not after a medium access, which froze them itself).
    #[allow(clippy::too_many_arguments)]
    fn transmit<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        n: NodeId,
        out: Out,
        freeze: bool,
        channel: &mut Channel,
        sched: &mut S,
    ) {
        let sender = &store.entities[out.entity as usize];
        let head = sender.head.expect("the exchange's frame is queued");
        let times = head.times;
        let (duration, ppdu, kind) = if out.frame == Frame::Beacon {
            let ppdu = self.beacon_ppdu[out.entity as usize].expect("a beacon entity");
            (times.first_frame, ppdu, None)
        } else {
            let (phy, link) = (&store.phy, *store.link(sender.node, head.to));
            let control = Some(FrameKind::Control);
            match out.frame {
                Frame::Rts => (link.rts, ppdu(phy, &link, link.rates.rts, RTS), control),
                Frame::Cts => (link.cts, ppdu(phy, &link, link.rates.cts, CTS), control),
                Frame::Ack => (link.ack, ppdu(phy, &link, link.rates.ack, ACK), control),
                Frame::Data | Frame::Beacon => {
                    let ip = sender.queue.head().expect("has frame").ip_bytes();
                    let mpdu = phy.data_mpdu_bytes(ip);
                    let data = data_ppdu(phy, &link, mpdu);
                    (link.data(phy, mpdu), data, Some(FrameKind::Data))
                }
            }
        };
        let end = now + duration;
        let lost = kind.is_some_and(|k| channel.link_lost(n, out.to, k));
        let data = (store.trace_heard && out.frame == Frame::Data).then(|| {
            let packet = *sender.queue.head().expect("has frame");
            (packet, sender.is_retry())
        });
        let transmission = Transmission {
            node: n,
            to: out.to,
            frame: out.frame,
            start: now,
            end,
            ppdu,
            nav_end: nav_end(out.frame, out.exchange_start, &times),
            lost,
            kind,
            heard: Vec::new(),
            data,
        };
        let tx = match self.free.pop() {
            Some(i) => {
                let heard = std::mem::take(&mut self.txs[i as usize].heard);
                self.txs[i as usize] = Transmission {
                    heard,
                    ..transmission
                };
                i
            }
            None => {
                self.txs.push(transmission);
                self.txs.len() as u32 - 1
            }
        };
        // The node's own transmission: busy, its entities freeze, a reception under way
        // is lost.
        let s = &mut self.nodes[n as usize];
        (s.tx_from, s.tx_until) = (now, end);
        if s.view.sense(now, end).0 && freeze {
            self.freeze(store, n, now, true, None);
        }
        self.receivers.transmit(n);
        sched.schedule(now + store.phy.propagation_delay, MacEvent::SignalStart(tx));
        if !out.frame.expects_answer() {
            self.refresh(store, n, now);
        } else {
            let timeout = end + store.phy.response_timeout();
            // Until the answer or the timeout the node listens for it: none of its
            // entities counts or sends meanwhile. (One refresh after both changes of the
            // view: one after the first alone would leave every countdown after `end`,
            // where no entity's expiry is `now`, so this one would undo it.)
            self.nodes[n as usize].view.wait(timeout);
            self.refresh(store, n, now);
            let ex = self.nodes[n as usize]
                .ex
                .as_mut()
                .expect("a sender's exchange");
            ex.timeout = ex.timeout.wrapping_add(1);
            (ex.stage, ex.own_end, ex.tx, ex.awaiting) = (out.frame, end, tx, false);
            (ex.fate, ex.answer) = (None, None);
            sched.schedule(timeout, MacEvent::Timeout(n, ex.timeout));
        }
    }

    /// The signal of `tx` reaches the nodes that hear it (its start plus the propagation
    /// delay): each senses it, and locks onto it or has it overlap what it receives.
    fn signal_start<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        tx: u32,
        channel: &mut Channel,
        sched: &mut S,
    ) {
        let (node, start, end, kind) = {
            let t = &self.txs[tx as usize];
            (t.node, t.start, now + (t.end - t.start), t.kind)
        };
        let header = self.txs[tx as usize].ppdu.header_time(store.phy.plcp);
        let mut heard = std::mem::take(&mut self.txs[tx as usize].heard);
        channel.heard_by(node, start, &mut heard);
        // Each node's own draw (shadowing); a node the draw puts below its floor does
        // not hear the frame at all.
        heard.retain_mut(|(r, power)| {
            *power = channel.drawn_power_w(*r, kind, *power);
            *power >= channel.radio(*r).floor_w()
        });
        // A medium access (not an answer, not the next exchange of a TXOP): its entity's
        // draw, for ns-2's slot count at the nodes whose last frame it sent.
        let access = self.nodes[node as usize]
            .ex
            .filter(|ex| {
                !ex.burst
                    && ex.start == start
                    && matches!(self.txs[tx as usize].frame, Frame::Rts | Frame::Data)
            })
            .map(|ex| store.entities[ex.entity as usize].backoff.drawn);
        for &(r, power) in &heard {
            let radio = *channel.radio(r);
            let transmitting = self.nodes[r as usize].tx_until > now;
            let decodable = power >= radio.rx_w;
            let sensed = power >= radio.cs_w;
            let lockable = if transmitting {
                store.rules.locks_undecodable()
            } else {
                decodable || (store.rules.locks_undecodable() && sensed)
            };
            let errored = transmitting || !decodable;
            let arrival = self.receivers.arrive(
                r,
                tx,
                power,
                now,
                end,
                lockable,
                errored,
                header,
                channel.reception.as_mut(),
            );
            if transmitting {
                self.receivers.mark_own_tx(r, tx);
            }
            let s = &mut self.nodes[r as usize];
            let (mut turned, mut changed) = (false, false);
            if matches!(arrival, Arrival::Locked { .. }) || sensed {
                (turned, changed) = s.view.sense(now, end);
            }
            // A frame the capture rule ignores: this one, or the one it displaced.
            let ignored = match arrival {
                Arrival::Overlap { ignored: true } => Some(end),
                Arrival::Locked { displaced } => displaced,
                Arrival::Overlap { ignored: false } | Arrival::Unlocked => None,
            };
            if let Some(until) = ignored {
                if let Some(nav) = store.rules.capture_nav(&store.phy, now, until - now) {
                    turned |= !s.view.busy_at(now);
                    changed |= s.view.set_nav(nav).0;
                }
            }
            if turned {
                let own = match (s.last_ack, access) {
                    (Some(last), Some(drawn)) if last.sender == node => Some((last, drawn)),
                    _ => None,
                };
                self.freeze(store, r, now, true, own);
            }
            if changed {
                self.refresh(store, r, now);
            }
        }
        self.txs[tx as usize].heard = heard;
        sched.schedule(end, MacEvent::SignalEnd(tx));
    }

    /// The signal of `tx` leaves the nodes that heard it: each decides its fate there.
    fn signal_end<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        tx: u32,
        channel: &mut Channel,
        sched: &mut S,
    ) {
        let heard = std::mem::take(&mut self.txs[tx as usize].heard);
        let (from, to, frame, ppdu, lost, nav, start, data) = {
            let t = &self.txs[tx as usize];
            (
                t.node, t.to, t.frame, t.ppdu, t.lost, t.nav_end, t.start, t.data,
            )
        };
        let ppdu_len = self.txs[tx as usize].end - start;
        let delta = store.phy.propagation_delay;
        let mut collided = false;
        for &(r, _) in &heard {
            let ended = self
                .receivers
                .end(r, tx, now, ppdu, channel.reception.as_mut());
            collided |= matches!(ended.fate, Fate::Collided { .. });
            let decoded = matches!(ended.fate, Fate::Decoded { .. }) && !lost;
            if store.trace_heard && ended.locked && matches!(frame, Frame::Data | Frame::Beacon) {
                store.heard(r, from, start + delta, decoded, data);
            }
            let s = &mut self.nodes[r as usize];
            if store.rules == MacRules::Ns2 {
                s.last_ack = (decoded && frame == Frame::Ack).then_some(LastFrame {
                    sender: from,
                    start,
                    len: ppdu_len,
                });
            }
            let errored = if ended.own_tx {
                store
                    .rules
                    .tail_is_errored(now - ppdu_len..now, s.tx_from..s.tx_until)
            } else {
                // A frame whose PHY header the node lost under ns-3.37's rule brings no
                // EIFS (`mac/shared/header_abort.rs`).
                ended.locked && !decoded && !ended.header_aborted
            };
            // Whether the node's view changed (else its countdowns stand as they are).
            let mut changed = errored;
            if errored {
                s.view.errored(ended.until, store.rules, self.eifs_hold);
            } else if decoded {
                changed = s.view.correct();
            }
            if r == to {
                // The fate of a frame at its addressee, which its sender learns from the
                // answer that comes, or does not.
                let fate = if ended.own_tx {
                    Fate::Collided { hidden: false }
                } else {
                    ended.fate
                };
                self.note_fate(from, r, tx, frame, (fate, lost));
                if decoded {
                    self.addressed(store, now, r, tx, from, frame, sched);
                }
            } else if decoded && frame != Frame::Beacon {
                let (grew, deferral) = s.view.set_nav(nav);
                changed |= grew;
                s.nav_deferrals += u64::from(deferral);
            }
            // A sender whose timeout passed during a reception decides once none is
            // under way.
            let awaiting = self.nodes[r as usize].ex.is_some_and(|ex| ex.awaiting);
            if awaiting && !self.receivers.is_receiving(r, now) {
                self.fail(store, now, r, sched);
            } else if changed {
                self.refresh(store, r, now);
                self.schedule_access(store, r, now, sched);
            }
        }
        self.txs[tx as usize].heard = heard;
        self.free.push(tx);
        // The sender's side: a Beacon is done; an answer's sender is free again.
        match frame {
            Frame::Beacon => {
                let ex = self.nodes[from as usize].ex.take();
                let ex = ex.expect("the beacon's exchange");
                store.broadcast_done(ex.entity, collided, start);
            }
            Frame::Cts | Frame::Ack => {}
            Frame::Rts | Frame::Data => return,
        }
        self.refresh(store, from, now);
        self.schedule_access(store, from, now, sched);
    }

    /// The fate of `frame` (transmission `tx` from `from`) at its addressee `r`, for the
    /// exchange it belongs to.
    fn note_fate(&mut self, from: NodeId, r: NodeId, tx: u32, frame: Frame, fate: (Fate, bool)) {
        match frame {
            Frame::Rts | Frame::Data => {
                if let Some(ex) = self.nodes[from as usize]
                    .ex
                    .as_mut()
                    .filter(|ex| ex.tx == tx)
                {
                    ex.fate = Some(fate);
                    ex.captured |= !fate.1 && fate.0 == (Fate::Decoded { captured: true });
                }
            }
            Frame::Cts | Frame::Ack => {
                if let Some(ex) = self.nodes[r as usize].ex.as_mut() {
                    ex.answer = Some(fate);
                }
            }
            Frame::Beacon => {}
        }
    }

    /// Node `r` decoded `frame` of transmission `tx`, addressed to it, from `from`.
    #[allow(clippy::too_many_arguments)]
    fn addressed<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        r: NodeId,
        tx: u32,
        from: NodeId,
        frame: Frame,
        sched: &mut S,
    ) {
        let sifs = store.phy.sifs;
        match frame {
            Frame::Rts | Frame::Data => {
                let Some(ex) = self.nodes[from as usize]
                    .ex
                    .as_mut()
                    .filter(|ex| ex.tx == tx)
                else {
                    return;
                };
                if frame == Frame::Data {
                    ex.received = Some(now);
                    // ns-2 passes the frame up before its ACK (`MacRules::delivery_delay`);
                    // the ACK's SIFS and airtime, or the sender's ACK timeout when a busy
                    // receiver sends none, outlast the delay, so the frame is still the
                    // sender's head of line then.
                    if let Some(delay) = store.rules.delivery_delay() {
                        sched.schedule(now + delay, MacEvent::Received(ex.entity));
                    }
                }
                let ex = *ex;
                let s = &mut self.nodes[r as usize];
                // An ACK goes out whatever the node does; a CTS only from a node that is
                // not in an exchange of its own (nor answering one).
                let busy = s.owed.is_some() || s.settling;
                if busy || (frame == Frame::Rts && (s.ex.is_some() || s.tx_until > now)) {
                    return;
                }
                let answer = if frame == Frame::Rts {
                    Frame::Cts
                } else {
                    Frame::Ack
                };
                s.owed = Some(Owed::Frame(Out {
                    frame: answer,
                    to: from,
                    entity: ex.entity,
                    exchange_start: ex.start,
                }));
                sched.schedule(now + sifs, MacEvent::Send(r));
            }
            Frame::Cts => {
                let s = &mut self.nodes[r as usize];
                let Some(ex) =
                    s.ex.as_mut()
                        .filter(|ex| ex.stage == Frame::Rts && ex.to == from)
                else {
                    return;
                };
                // The RTS went through: the data frame follows SIFS after the CTS.
                ex.timeout = ex.timeout.wrapping_add(1);
                ex.awaiting = false;
                s.view.answered(now);
                s.owed = Some(Owed::Frame(Out {
                    frame: Frame::Data,
                    to: from,
                    entity: ex.entity,
                    exchange_start: ex.start,
                }));
                sched.schedule(now + sifs, MacEvent::Send(r));
            }
            Frame::Ack => {
                let s = &mut self.nodes[r as usize];
                if s.ex
                    .is_some_and(|ex| ex.stage == Frame::Data && ex.to == from)
                {
                    s.view.answered(now);
                    self.succeed(store, r);
                }
            }
            Frame::Beacon => {}
        }
    }

    /// Node `n` sends what it owes.
    fn on_send<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        n: NodeId,
        channel: &mut Channel,
        sched: &mut S,
    ) {
        let receiving = self.receivers.is_receiving(n, now);
        let s = &mut self.nodes[n as usize];
        let out = match s.owed.take() {
            None => return,
            Some(Owed::NextExchange { entity, txop_start }) => {
                return self.start_exchange(store, now, entity, txop_start, true, channel, sched);
            }
            Some(Owed::Frame(out)) => out,
        };
        let medium_busy = s.view.busy_at(now) || receiving;
        let answers = match out.frame {
            Frame::Cts => store.rules.answers_rts(now < s.view.nav_until(), receiving),
            Frame::Data if store.rules.data_after_cts_needs_idle() && medium_busy => {
                // ns-2: back off with a doubled window, the frame kept, no retry counted.
                let ex = s.ex.take().expect("the exchange of the CTS");
                let e = &mut store.entities[ex.entity as usize];
                let cw_max = e.params.cw_max;
                e.backoff.on_retry(cw_max);
                false
            }
            _ => true,
        };
        if answers {
            self.transmit(store, now, n, out, true, channel, sched);
        } else {
            self.refresh(store, n, now);
            self.schedule_access(store, n, now, sched);
        }
    }

    /// Node `n`'s CTSTimeout/ACKTimeout: unless a frame is being received (its end then
    /// decides), the attempt failed.
    fn on_timeout<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        n: NodeId,
        generation: u32,
        sched: &mut S,
    ) {
        let receiving = self.receivers.is_receiving(n, now);
        let Some(ex) = self.nodes[n as usize].ex.as_mut() else {
            return;
        };
        if ex.timeout != generation || !ex.stage.expects_answer() {
            return;
        }
        if receiving {
            ex.awaiting = true;
            return;
        }
        self.fail(store, now, n, sched);
    }

    /// Node `n`'s exchange failed at `now`.
    fn fail<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        n: NodeId,
        sched: &mut S,
    ) {
        let ex = self.nodes[n as usize].ex.take().expect("an exchange");
        let t = ex.entity;
        // Which frame failed, and why: the loss models' (or a link too weak), else a
        // collision; an RTS decoded but not answered counts as one too.
        let (loss, hidden) = match (ex.fate, ex.answer) {
            (None | Some((Fate::Missed, _)), _) | (Some((_, true)), _) => {
                (ChannelLoss::of(ex.stage, false), false)
            }
            (Some((Fate::Collided { hidden }, _)), _)
            | (_, Some((Fate::Collided { hidden }, false))) => (ChannelLoss::None, hidden),
            (Some((Fate::Decoded { .. }, false)), None) => (ChannelLoss::None, false),
            (Some((Fate::Decoded { .. }, false)), Some(_)) => {
                (ChannelLoss::of(ex.stage, true), false)
            }
        };
        let times = store.head_exchange(t);
        let long_frame = ex.stage == Frame::Data && times.rts;
        let aifs = store.entities[t as usize].params.aifs;
        self.hold[t as usize] = ex.own_end + store.phy.response_timeout() + aifs;
        store.attempt_failed(t, ex.start, loss, hidden, ex.received, long_frame);
        self.refresh(store, n, now);
        self.schedule_access(store, n, now, sched);
    }

    /// Node `n`'s exchange succeeded (its ACK decoded).
    fn succeed(&mut self, store: &mut Store, n: NodeId) {
        let s = &mut self.nodes[n as usize];
        let ex = s.ex.take().expect("an exchange");
        s.settling = true;
        let t = ex.entity;
        store.entities[t as usize].stats.captures += u64::from(ex.captured);
        let received = ex.received.expect("an acknowledged frame was received");
        if store.trace {
            store.trace_ack(t, ex.start, false);
        }
        store.succeed(t, ex.start, received);
        self.settle.push((n, t, ex.txop_start, ex.captured));
    }

    /// After the world handled the outcomes of the last event (deliveries made, queues
    /// topped up): a TXOP holder sends its next exchange SIFS later if it fits
    /// (9.19.2.4), else it backs off once for the whole TXOP; the node contends again.
    pub fn settle<S: Schedule<MacEvent>>(&mut self, store: &mut Store, now: Time, sched: &mut S) {
        while let Some((n, t, txop_start, captured)) = self.settle.pop() {
            self.nodes[n as usize].settling = false;
            if store.entities[t as usize].params.txop_limit > 0 {
                if let Some(start) = store.txop_next(t, now, txop_start, captured) {
                    let owed = Owed::NextExchange {
                        entity: t,
                        txop_start,
                    };
                    self.nodes[n as usize].owed = Some(owed);
                    sched.schedule(start, MacEvent::Send(n));
                    continue;
                }
                let b = &mut store.entities[t as usize].backoff;
                if !b.pending {
                    b.draw();
                }
            }
            self.refresh(store, n, now);
            self.schedule_access(store, n, now, sched);
        }
    }
}

impl ChannelLoss {
    /// The loss of the frame a sender's `stage` put on the air, or (`answer`) of the
    /// frame answering it.
    fn of(stage: Frame, answer: bool) -> ChannelLoss {
        match (stage, answer) {
            (Frame::Rts, false) => ChannelLoss::Rts,
            (Frame::Rts, true) => ChannelLoss::Cts,
            (Frame::Data, false) => ChannelLoss::Data,
            (Frame::Data, true) => ChannelLoss::Ack,
            _ => ChannelLoss::None,
        }
    }
}
