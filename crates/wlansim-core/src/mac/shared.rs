//! Channel access on the shared medium (802.11-2012 9.3 DCF, 9.19.2 EDCA): deferral,
//! backoff countdown with freezing, collisions, frame exchanges, retries, and what EDCA
//! adds (internal collisions, TXOP bursts). One collision domain: every node hears every
//! other, so the medium is a single state. Under SINR reception a frame of a collision
//! may be captured by its receiver (`capture.rs`).
//!
//! The medium's state is [`Shared`]; the entities and the rules both media apply to them
//! (success, failure, internal collisions, TXOP) are the [`Store`] each call is given
//! (`mac/store.rs`). The world drives it through [`Mac`] (`mac/medium.rs`):
//! - a frame reaching an empty queue → [`Shared::frame_ready`];
//! - [`MacEvent::Grant`] → [`Shared::grant`]: the earliest backoff expiry; the entities
//!   whose counters reach zero transmit;
//! - [`MacEvent::ExchangeEnd`] → [`Shared::exchange_end`], then (after the world handled
//!   the outcomes) [`Shared::exchange_done`]: settle the frames, then continue a TXOP burst
//!   or let the medium turn idle.
//!
//! Carrier sense is taken as instantaneous: two entities collide exactly when their
//! backoffs expire at the same instant (same slot boundary). The propagation delay δ
//! delays each reception and so each response (ACK/CTS start SIFS after the frame is
//! received), as in Bianchi's timing.
//!
//! Which entity's backoff expires first, and the freezing and deferral of all the others,
//! are kept in [`Contention`] at a cost per event that does not grow with the number of
//! entities (see its module). A linear scan over every entity, the former implementation,
//! is kept under `cfg(test)` (`shared/reference.rs`) as the oracle the tests compare
//! against.
//!
//! [`Mac`]: super::Mac
use super::contention::Contention;
use super::entity::AfterFailure;
use super::event::MacEvent;
use super::exchange::ExchangeTimes;
use super::ns2::{LastFrame, MacRules, ShortCount};
use super::store::{ChannelLoss, Store};
use super::Entity;
use crate::channel::{Channel, FrameKind, Part, Ppdu};
use crate::net::NodeId;
use crate::phy::Phy;
use crate::sim::event::Schedule;
use crate::sim::time::Time;

mod aggregate;
mod header_abort;

/// The frame exchange in progress on the medium.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Exchange {
    pub start: Time,
    pub end: Time,
    /// End of the data frame's reception (exchanges of a single transmitter).
    pub data_end: Time,
    pub success: bool,
    /// The frame of the exchange the channel lost (no ACK came back), if any.
    pub loss: ChannelLoss,
    /// Start of the TXOP this exchange belongs to.
    pub txop_start: Time,
    /// The exchange of a transmitter captured out of a collision (`mac/capture.rs`): the
    /// other transmitters collided.
    pub captured: bool,
    /// A colliding frame outlasted the captured exchange: the medium's last frame was
    /// not received correctly.
    pub tail: bool,
    /// A later exchange of a TXOP (no medium access, no attempt counted).
    pub burst: bool,
    /// An A-MPDU's exchange: the MPDUs its receiver decoded (bit i: the i-th subframe;
    /// `mac/aggregate.rs`).
    pub received: u64,
    /// Its recipient passes up what it decoded as the PSDU ends, before the exchange's end
    /// ([`Shared::passes_up_before_end`], worked out once as the exchange is scheduled).
    pub passes_up: bool,
}

/// The countdown start of the last transmitter of a failed exchange worked out, with what
/// it depends on ([`Shared::exchange_end`]; EIFS − DIFS + AIFS follows from AIFS).
#[derive(Clone, Copy)]
struct OwnStart {
    own_end: Time,
    aifs: Time,
    start: Time,
}

impl Default for OwnStart {
    /// None yet: no frame ends at `Time::MAX`.
    fn default() -> Self {
        OwnStart {
            own_end: Time::MAX,
            aifs: 0,
            start: 0,
        }
    }
}

impl OwnStart {
    /// The countdown start of a transmitter of exchange `ex`, which ended at `now`, that
    /// failed, its own frame ending at `own_end`. (Out of line: once per run of the
    /// collided transmitters that share it.)
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn new(
        ex: &Exchange,
        phy: &Phy,
        rules: MacRules,
        own_end: Time,
        aifs: Time,
        now: Time,
        correct_end: bool,
    ) -> OwnStart {
        let delta = phy.propagation_delay;
        // The transmitter waits ACKTimeout/CTSTimeout (9.3.2.8), then AIFS; if it
        // received the tail of a colliding frame in error it also defers EIFS after it.
        let after_timeout = own_end + phy.response_timeout() + aifs;
        // The frames of a collision start together and reach it δ later.
        let errored_tail = rules.tail_is_errored(ex.start + delta..now, ex.start..own_end)
            && (!correct_end || rules.eifs_outlasts_correct_frames());
        let after_medium = if errored_tail {
            now + rules.after_error(phy, aifs)
        } else {
            now + aifs
        };
        OwnStart {
            own_end,
            aifs,
            start: after_timeout.max(after_medium),
        }
    }

    /// Transmitter `ent` of exchange `ex`, which ended at `now`, failed: the frame of its
    /// exchange the channel lost (`loss`), or a collision (`ChannelLoss::None`). Its
    /// countdown starts at a time of its own: this one, worked out again unless `ent`
    /// shares it. Its head-of-line frame's exchange.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn set(
        &mut self,
        ex: &Exchange,
        phy: &Phy,
        rules: MacRules,
        ent: &mut Entity,
        loss: ChannelLoss,
        now: Time,
        correct_end: bool,
    ) -> ExchangeTimes {
        let times = ent.head.expect("has frame").times;
        let own_end = match loss {
            ChannelLoss::None | ChannelLoss::Rts | ChannelLoss::Cts => ex.start + times.first_frame,
            ChannelLoss::Data | ChannelLoss::Ack => ex.data_end - phy.propagation_delay,
        };
        let aifs = ent.params.aifs;
        // It depends on its own frame's end and AIFS alone: the transmitters of a
        // collision of equal frames and one class (a crowded cell's) share it.
        if (own_end, aifs) != (self.own_end, self.aifs) {
            *self = OwnStart::new(ex, phy, rules, own_end, aifs, now, correct_end);
        }
        ent.backoff.countdown_start = self.start;
        times
    }
}

/// A successful exchange, as the order of the collision after it depends on it
/// ([`Shared::send_order`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Fresh {
    /// The entity that sent it.
    pub sender: u32,
    /// Whether it sent data (not a BlockAckReq or an ADDBA frame).
    pub data: bool,
    /// The node that answered it (its ACK or BlockAck, the exchange's last frame).
    pub answerer: NodeId,
}

/// The shared medium: one collision domain.
pub(crate) struct Shared {
    busy: bool,
    generation: u64,
    pub(crate) exchange: Exchange,
    /// Entities transmitting in the current exchange (reused buffer).
    pub(crate) transmitters: Vec<u32>,
    /// Entities that lost an internal collision at the last grant (reused buffer).
    losers: Vec<u32>,
    /// Powers of the transmitters at one receiver (SINR reception; reused buffer).
    pub(super) powers: Vec<f64>,
    /// The transmitters' first frames (SINR reception, `shared/header_abort.rs`; reused
    /// buffer).
    frames: Vec<Ppdu>,
    /// The nodes that lost the PHY header of the collision on the air, which count AIFS
    /// after it (`shared/header_abort.rs`; reused buffer).
    header_aborts: Vec<NodeId>,
    contention: Contention,
    /// Time the medium was busy (exchanges, from their start to their end) since
    /// statistics started at `busy_since`.
    busy_time: Time,
    busy_since: Time,
    /// Under ns-2's rules, after a successful exchange: the node that sent its last frame
    /// (the ACK), that frame's start and length ([`Shared::short_count`]).
    last_frame: Option<LastFrame>,
    /// The exchange that ended last, successfully: ns-3.37's order of a collision that
    /// follows it (`mac/capture.rs`, [`Shared::send_order`]). Recorded only when
    /// `records_order` (else None).
    pub(super) fresh: Option<Fresh>,
    /// Whether receivers break ties by ns-3.37's order ([`TieBreak::SendOrder`], set as
    /// the world is built: [`Shared::break_ties`]), which needs `fresh`: the other
    /// profiles' exchanges record nothing.
    ///
    /// [`TieBreak::SendOrder`]: crate::channel::reception::TieBreak::SendOrder
    pub(super) records_order: bool,
    /// Per node id: the index of its first entity, and one more entry after the last
    /// node that has any (a node's entities are contiguous, in node order:
    /// `world/build.rs`), so that node n's entities are `first_entity[n]..first_entity[n + 1]`.
    first_entity: Vec<u32>,
    /// Run the linear reference scan instead of [`Contention`] (tests only).
    #[cfg(test)]
    reference: bool,
}

impl Shared {
    /// The medium of the entities of `store`.
    pub fn new(store: &Store) -> Shared {
        let (phy, rules, entities) = (&store.phy, store.rules, &store.entities);
        let n = entities.len();
        let contention = Contention::new(entities, phy.slot, |aifs| rules.after_error(phy, aifs));
        let nodes = entities.last().map_or(0, |e| e.node as usize + 1);
        let first_entity = (0..=nodes)
            .map(|n| entities.partition_point(|e| (e.node as usize) < n) as u32)
            .collect();
        Shared {
            busy: false,
            generation: 0,
            exchange: Exchange::default(),
            transmitters: Vec::with_capacity(n),
            losers: Vec::with_capacity(n),
            powers: Vec::with_capacity(n),
            frames: Vec::new(),
            header_aborts: Vec::new(),
            contention,
            busy_time: 0,
            busy_since: 0,
            last_frame: None,
            fresh: None,
            records_order: false,
            first_entity,
            #[cfg(test)]
            reference: false,
        }
    }

    /// The time the medium was busy since statistics started.
    pub fn busy_time(&self) -> Time {
        self.busy_time
    }

    /// Statistics restart at `now`; the entities whose exchange is in progress, each with
    /// whether it is the burst of a TXOP (else a medium access).
    pub fn reset_statistics(&mut self, now: Time) -> Vec<(u32, bool)> {
        self.busy_time = 0;
        self.busy_since = now;
        if self.busy {
            let burst = self.exchange.burst;
            self.transmitters.iter().map(|&t| (t, burst)).collect()
        } else {
            Vec::new()
        }
    }

    /// Entity `e`'s backoff counter: the slots left after the last freeze.
    pub fn backoff_counter(&self, store: &Store, e: u32) -> u32 {
        let b = &store.entities[e as usize].backoff;
        #[cfg(test)]
        if self.reference {
            return b.counter;
        }
        self.contention.counter(e, b)
    }

    /// The time from which entity `e` counts idle slots (the end of the IFS that follows
    /// the last busy period).
    pub fn countdown_start(&self, store: &Store, e: u32) -> Time {
        let b = &store.entities[e as usize].backoff;
        #[cfg(test)]
        if self.reference {
            return b.countdown_start;
        }
        self.contention.countdown_start(e, b)
    }

    /// Whether a frame exchange (or a TXOP burst) holds the medium.
    pub fn is_busy(&self) -> bool {
        self.busy
    }

    /// The generation a grant scheduled now would carry (stale grants carry older ones).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// (Re)schedule the access grant at the earliest backoff expiry among entities that
    /// have a frame to send. Called whenever the medium turns idle or a frame appears.
    /// (Always inlined: LLVM stopped inlining it into the event loop when unrelated code
    /// grew, which cost the 20-station 802.11b bench case 1.2 % more instructions.)
    #[inline(always)]
    fn schedule_grant<S: Schedule<MacEvent>>(&mut self, store: &Store, now: Time, sched: &mut S) {
        debug_assert!(!self.busy);
        self.generation += 1;
        if let Some(at) = self.earliest_expiry(store) {
            sched.schedule(at.max(now), MacEvent::Grant(self.generation));
        }
    }

    #[inline]
    fn earliest_expiry(&self, store: &Store) -> Option<Time> {
        #[cfg(test)]
        if self.reference {
            return self.reference_earliest_expiry(store);
        }
        self.contention.earliest(&store.entities)
    }

    /// A frame was queued at entity `e` whose queue was empty.
    pub(super) fn frame_ready<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        e: u32,
        sched: &mut S,
    ) {
        #[cfg(test)]
        if self.reference {
            return self.reference_frame_ready(store, now, e, sched);
        }
        let b = &mut store.entities[e as usize].backoff;
        self.contention.take(e, b);
        let own_start = self.backoff_on_arrival(store, now, e);
        self.contention
            .restore(e, &store.entities[e as usize], own_start);
        if !self.busy {
            self.schedule_grant(store, now, sched);
        }
    }

    /// The backoff of entity `e` when a frame reaches its empty queue at `now`
    /// ([`super::Backoff::on_frame_arrival`]); whether its countdown now starts at a time
    /// of its own rather than its class's.
    pub(super) fn backoff_on_arrival(&self, store: &mut Store, now: Time, e: u32) -> bool {
        let ent = &mut store.entities[e as usize];
        let aifs = ent.params.aifs;
        ent.backoff
            .on_frame_arrival(now, self.busy, aifs, store.phy.slot, store.rules)
    }

    /// [`MacEvent::Grant`] at `now`: every entity whose counter reaches zero with a frame
    /// transmits; the others freeze. A stale grant does nothing.
    // Inlined: the compiler left these out of line once the medium grew (+9 instructions
    // per event at 20 stations: docs/benchmarks.md, "The merge of four branches").
    #[inline]
    pub fn grant<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        generation: u64,
        channel: &mut Channel,
        sched: &mut S,
    ) {
        if generation != self.generation || self.busy {
            return;
        }
        self.transmitters.clear();
        self.losers.clear();
        let short = self.short_count(store, now);
        // The attempts counted as the transmitters are taken, when nothing before the
        // exchange can change them; else below. The longest first frame: the medium's
        // busy time if they collide.
        let counted = self.counts_when_taken(store);
        let mut busy = 0;
        // (Two instances of the take: neither tests `counted` for every transmitter.)
        if counted {
            self.select_transmitters(store, now, short, |ent| {
                busy = busy.max(ent.count_attempt().first_frame);
            });
        } else {
            self.select_transmitters(store, now, short, |_| {});
        }
        debug_assert!(!self.transmitters.is_empty(), "grant without transmitter");
        if self.transmitters.len() > 1 && Self::order_matters(store, channel) {
            self.transmitters.sort_unstable();
        }
        self.busy = true;
        if store.limits_lifetime {
            store.expire_heads(&self.transmitters, now);
        }
        if store.aggregation.is_some() {
            self.form_aggregates(store, now);
        }
        if self.transmitters.len() > 1 {
            self.resolve_internal_collisions(store, now);
            self.rejoin_losers(store);
        }
        let delta = store.phy.propagation_delay;
        if !counted {
            for &t in &self.transmitters {
                busy = busy.max(store.entities[t as usize].count_attempt().first_frame);
            }
        }
        if store.trace {
            for k in 0..self.transmitters.len() {
                store.trace_attempt(self.transmitters[k], now);
            }
        }
        self.exchange = if self.transmitters.len() == 1 {
            self.exchange_of(store, self.transmitters[0], now, now, channel)
        } else if channel.reception.as_ref().is_some_and(|r| r.capture) {
            self.capture(store, now, busy, channel)
        } else {
            self.collided_attempts(store, 0, channel);
            Exchange {
                start: now,
                end: now + busy + delta,
                ..Exchange::default()
            }
        };
        self.schedule_exchange(store, sched);
    }

    /// The transmitters from the `from`-th on collided (the channel was not asked about
    /// their frames): each unicast data frame sent without RTS still moves its link's
    /// burst models ([`Channel::collided_attempt`]); a collided RTS sent no data frame.
    pub(super) fn collided_attempts(&self, store: &Store, from: usize, channel: &mut Channel) {
        if !channel.counts_collided_attempts() {
            return;
        }
        for &t in &self.transmitters[from..] {
            let e = &store.entities[t as usize];
            let head = e.head.expect("has frame");
            if !head.broadcast && !head.times.rts {
                channel.collided_attempt(e.node, head.to);
            }
        }
    }

    /// The end of the current exchange and, under rules that pass a decoded data frame up
    /// before its ACK ([`MacRules::delivery_delay`]), its delivery: when the addressee
    /// decoded it (the exchange succeeded, or only its ACK was lost) and the delivery
    /// comes before the exchange ends (so that the frame is still the head of line then;
    /// otherwise, as a broadcast frame, it is delivered at the end).
    #[inline(always)]
    fn schedule_exchange<S: Schedule<MacEvent>>(&mut self, store: &Store, sched: &mut S) {
        sched.schedule(self.exchange.end, MacEvent::ExchangeEnd);
        // (Set only when true: every exchange is built with it false, and the success path
        // of an exchange without aggregation stores nothing.)
        debug_assert!(!self.exchange.passes_up);
        if self.passes_up_before_end(store) {
            self.exchange.passes_up = true;
            sched.schedule(
                self.exchange.data_end,
                MacEvent::Received(self.transmitters[0]),
            );
        }
        let ex = &self.exchange;
        if let Some(delay) = store.rules.delivery_delay() {
            let decoded = ex.success || ex.loss == ChannelLoss::Ack;
            if decoded && ex.data_end + delay < ex.end {
                sched.schedule(
                    ex.data_end + delay,
                    MacEvent::Received(self.transmitters[0]),
                );
            }
        }
    }

    /// The entities whose backoff expires at `now` transmit; every other
    /// pending entity freezes (9.3.4.3), and a post-backoff whose counter reached zero
    /// after its countdown started is complete (the entity may then access the medium at
    /// once when a frame arrives after AIFS of idle medium). `taken` is applied to each
    /// transmitter as it is taken.
    #[inline(always)]
    fn select_transmitters(
        &mut self,
        store: &mut Store,
        now: Time,
        short: Option<ShortCount>,
        taken: impl FnMut(&mut Entity),
    ) {
        #[cfg(test)]
        if self.reference {
            return self.reference_select_transmitters(store, now, short);
        }
        self.contention.grant(
            now,
            &mut store.entities,
            &mut self.transmitters,
            short,
            taken,
        );
    }

    /// Whether the grant counts each transmitter's attempt as it takes it
    /// ([`Store::attempts_counted_when_taken`]; not under the reference scan, which takes
    /// them its own way).
    #[inline]
    fn counts_when_taken(&self, store: &Store) -> bool {
        #[cfg(test)]
        if self.reference {
            return false;
        }
        store.attempts_counted_when_taken()
    }

    /// Whether what becomes of a grant's transmitters depends on the order in which they
    /// are taken, so that they must be in entity order (the order the reference scan finds
    /// them in): what the store says ([`Store::order_matters`]), a receiver that picks one
    /// frame of a collision (SINR reception, `mac/capture.rs`), or burst loss processes,
    /// which links may share, moved by each collided data frame. Otherwise a collided
    /// transmitter's failure touches its own state alone (its counters, CW and its
    /// backoff's own random stream) and the order cannot change a result, so a crowded
    /// cell's collisions skip the sort.
    #[inline]
    fn order_matters(store: &Store, channel: &Channel) -> bool {
        store.order_matters() || channel.reception.is_some() || channel.counts_collided_attempts()
    }

    /// Under ns-2's rules, when the node that sent the last frame transmits at `now` as its
    /// own countdown ends, the entities that counted from the same start may count one
    /// slot fewer ([`MacRules::slots_counted_after_own_frame`]); None when every slot
    /// counts. (Inlined: at most grants the sender of the last frame has no entity whose
    /// backoff expires now, and the answer is None.)
    #[inline(always)]
    fn short_count(&self, store: &Store, now: Time) -> Option<ShortCount> {
        let last = self.last_frame?;
        let (node, slot) = (last.sender as usize, store.phy.slot);
        // (None: a node after the last one with entities.)
        let &[first, end] = self.first_entity.get(node..node + 2)? else {
            unreachable!("two entries")
        };
        let e = (first..end).find(|&e| {
            let ent = &store.entities[e as usize];
            ent.has_frame()
                && ent.backoff.pending
                && self.countdown_start(store, e) + self.backoff_counter(store, e) as Time * slot
                    == now
        })?;
        let drawn = store.entities[e as usize].backoff.drawn;
        store
            .rules
            .short_count(last, self.countdown_start(store, e), now, drawn, &store.phy)
    }

    /// The losers of internal collisions drew a new backoff: they count with the others.
    fn rejoin_losers(&mut self, store: &Store) {
        #[cfg(test)]
        if self.reference {
            return;
        }
        for &l in &self.losers {
            self.contention.join(l, &store.entities[l as usize]);
        }
    }

    /// The exchange of entity `t`'s head-of-line frame, alone on the medium from `start`
    /// (in a TXOP that began at `txop_start`): the ACK comes back unless the channel loses
    /// a frame of it. The medium then turns idle when the lost frame ends (an ACK the
    /// sender did not get was still sent).
    #[inline]
    pub(super) fn exchange_of(
        &self,
        store: &Store,
        t: u32,
        start: Time,
        txop_start: Time,
        channel: &mut Channel,
    ) -> Exchange {
        if store.aggregates(t) {
            return self.aggregate_exchange(store, t, start, txop_start, channel);
        }
        let e = &store.entities[t as usize];
        let head = e.head.expect("has frame");
        let (node, to, times) = (e.node, head.to, head.times);
        let (loss, length) = if head.broadcast {
            // Nobody answers a broadcast frame: sent is done (its fate at each receiver
            // changes nothing here).
            (ChannelLoss::None, times.end)
        } else if channel.asks_every_frame() {
            self.frame_by_frame(store, t, start, channel)
        } else if channel.frame_lost(node, to, start, FrameKind::Data) {
            (ChannelLoss::Data, times.data_end)
        } else {
            (ChannelLoss::None, times.end)
        };
        Exchange {
            start,
            end: start + length,
            data_end: start + times.data_end,
            success: loss == ChannelLoss::None,
            loss,
            txop_start,
            ..Exchange::default()
        }
    }

    /// The fate and length of entity `t`'s exchange when the channel asks about each of
    /// its frames (control frames can be lost, or every frame is decoded at its SINR
    /// against the colliding frames still on the air: `mac/capture.rs`), in the order
    /// they are sent; one that is lost ends the exchange (no CTS answers a lost RTS; a lost
    /// ACK was still sent). Out of line: most scenarios lose data frames only.
    #[inline(never)]
    fn frame_by_frame(
        &self,
        store: &Store,
        t: u32,
        start: Time,
        channel: &mut Channel,
    ) -> (ChannelLoss, Time) {
        use super::exchange::{data_ppdu, ppdu};
        use crate::phy::frame::{ACK, CTS, RTS};
        let e = &store.entities[t as usize];
        let head = e.head.expect("has frame");
        let (node, to, times) = (e.node, head.to, head.times);
        let link = *store.head_link(t);
        let phy = &store.phy;
        let (delta, sifs) = (store.phy.propagation_delay, store.phy.sifs);
        // The frame from `tx` to `rx` sent `offset` into the exchange is lost.
        let lost = |c: &mut Channel, tx, rx, offset, kind, frame| {
            c.frame_lost(tx, rx, start, kind) || {
                let interference = self.interference(store, rx, start, offset, c);
                let part = Part::Ppdu {
                    header_interference_w: interference,
                };
                !c.decodes(tx, rx, start + offset, frame, part, interference)
            }
        };
        let cts_at = link.rts + delta + sifs;
        let data_at = if times.rts {
            cts_at + link.cts + delta + sifs
        } else {
            0
        };
        let mpdu = store
            .phy
            .data_mpdu_bytes(e.queue.head().expect("has frame").ip_bytes());
        let ack_at = times.data_end + sifs;
        // (sent, what its loss is, from, to, offset, kind, the frame, where a loss ends it)
        #[rustfmt::skip]
        let frames = [
            (times.rts, ChannelLoss::Rts, node, to, 0, FrameKind::Control, ppdu(phy, &link, link.rates.rts, RTS), times.first_frame + delta),
            (times.rts, ChannelLoss::Cts, to, node, cts_at, FrameKind::Control, ppdu(phy, &link, link.rates.cts, CTS), cts_at + link.cts + delta),
            (true, ChannelLoss::Data, node, to, data_at, FrameKind::Data, data_ppdu(phy, &link, mpdu), times.data_end),
            (true, ChannelLoss::Ack, to, node, ack_at, FrameKind::Control, ppdu(phy, &link, link.rates.ack, ACK), times.end),
        ];
        for (sent, loss, tx, rx, at, kind, frame, end) in frames {
            if sent && lost(channel, tx, rx, at, kind, frame) {
                return (loss, end);
            }
        }
        (ChannelLoss::None, times.end)
    }

    /// The transmitters of a grant form their A-MPDUs (before internal collisions: an
    /// outranked EDCAF's MPDUs count the failure), each within its TXOP limit.
    #[inline(never)]
    fn form_aggregates(&self, store: &mut Store, now: Time) {
        for &t in &self.transmitters {
            if store.aggregates(t) {
                let limit = store.entities[t as usize].params.txop_limit;
                store.form_aggregate(t, now, (limit > 0).then_some(limit));
            }
        }
    }

    /// The transmitters of the grant at `now` that lost an internal collision
    /// ([`Store::internal_collisions`]) leave them for `losers`.
    fn resolve_internal_collisions(&mut self, store: &mut Store, now: Time) {
        let (mut transmitters, mut losers) = (
            std::mem::take(&mut self.transmitters),
            std::mem::take(&mut self.losers),
        );
        store.internal_collisions(&mut transmitters, &mut losers, now);
        (self.transmitters, self.losers) = (transmitters, losers);
    }

    /// [`MacEvent::ExchangeEnd`]: settle the transmitters' frames and set every entity's
    /// next countdown start (AIFS after a correct frame, EIFS after an errored one). The
    /// world then handles the outcomes and calls [`Shared::exchange_done`].
    #[inline]
    pub fn exchange_end(&mut self, store: &mut Store, now: Time) {
        let ex = self.exchange;
        self.last_frame = None;
        if store.rules == MacRules::Ns2 && ex.success && !ex.captured && !ex.tail {
            let head = store.entities[self.transmitters[0] as usize].head;
            if let Some(h) = head.filter(|h| !h.broadcast) {
                // The ACK: SIFS after the data frame's reception, until the medium idles
                // (its reception's end).
                let start = ex.data_end + store.phy.sifs;
                self.last_frame = Some(LastFrame {
                    sender: h.to,
                    start,
                    len: ex.end - store.phy.propagation_delay - start,
                });
            }
        }
        self.busy_time += ex.end - ex.start.max(self.busy_since).min(ex.end);
        if ex.received != 0 && !ex.passes_up {
            store.aggregate_received(self.transmitters[0], ex.received, ex.data_end);
        }
        if store.trace {
            self.trace_answers(store);
        }
        if self.records_order {
            self.record_order(store, ex.success);
        }
        if ex.success {
            // The first transmitter (the only one, or the one captured out of a
            // collision); a TXOP holder's next step waits for `exchange_done`.
            let t = self.transmitters[0];
            store.entities[t as usize].stats.captures += u64::from(ex.captured);
            store.succeed(t, ex.start, ex.data_end);
            if store.entities[t as usize].params.txop_limit > 0 && !ex.captured {
                return;
            }
        }
        // Non-transmitters: DIFS/AIFS after a correct frame, EIFS after a collision (9.3.7).
        let correct_end = ex.success && !ex.tail;
        let errored = (!correct_end).then(|| self.errored_end(store, now));
        self.idle_from(store, now, errored);
        if ex.success && !ex.captured {
            return;
        }
        // The first transmitter failed by the exchange's own loss (or collided, which is
        // no loss); the others (of a collision, or beside a captured exchange) collided:
        // their loop knows that no frame of theirs was lost.
        let mut last = OwnStart::default();
        if !ex.success {
            if ex.loss == ChannelLoss::None && self.joins_at_end(store) {
                return self.collided(store, now, correct_end);
            }
            self.transmitter_failed(store, 0, ex.loss, now, correct_end, &mut last);
        }
        for k in 1..self.transmitters.len() {
            self.transmitter_failed(store, k, ChannelLoss::None, now, correct_end, &mut last);
        }
    }

    /// Transmitter `k` of the exchange that ended at `now` failed: the frame of its
    /// exchange the channel lost (`loss`), or a collision (`ChannelLoss::None`). Its
    /// countdown starts at a time of its own, and the failure is counted.
    #[inline(always)]
    fn transmitter_failed(
        &self,
        store: &mut Store,
        k: usize,
        loss: ChannelLoss,
        now: Time,
        correct_end: bool,
        last: &mut OwnStart,
    ) {
        let ex = &self.exchange;
        let t = self.transmitters[k];
        let ent = &mut store.entities[t as usize];
        let times = last.set(ex, &store.phy, store.rules, ent, loss, now, correct_end);
        let long_frame = matches!(loss, ChannelLoss::Data | ChannelLoss::Ack) && times.rts;
        // The receiver got the data frame of an exchange whose ACK was lost. An
        // aggregating entity's decoded MPDUs reached it above; a BlockAckReq whose
        // BlockAck was lost carried none.
        let received = (loss == ChannelLoss::Ack && !store.aggregates(t)).then_some(ex.data_end);
        store.attempt_failed(t, ex.start, loss, false, received, long_frame);
    }

    /// Whether the failed transmitters of a collision settle their failures and are placed
    /// in one pass as the exchange ends ([`Shared::collided`]): a failure touches the
    /// failed entity's own state alone ([`Store::order_matters`]), so nothing the world
    /// does with the exchange's outcomes (there are none) comes between.
    #[inline]
    fn joins_at_end(&self, store: &Store) -> bool {
        #[cfg(test)]
        if self.reference {
            return false;
        }
        !store.order_matters()
    }

    /// The exchange that ended at `now` was a collision, and a failure touches the failed
    /// entity's own state alone ([`Shared::joins_at_end`]): each transmitter's failure is
    /// settled (its countdown start, the collision counted, the retry rule
    /// [`Entity::on_failure`]) and it is placed for the idle medium
    /// ([`Contention::set_aside`]) in one pass; none is left for
    /// [`Shared::exchange_done`]. (A failure that only the store can settle — an
    /// outcome, a Block Ack session, a rate controller, a Beacon, whose entity shares its
    /// AP's node — goes through [`Store::attempt_failed`] instead.) Out of line: a
    /// function of its own keeps the loop's values in registers.
    #[inline(never)]
    fn collided(&mut self, store: &mut Store, now: Time, correct_end: bool) {
        let (ex, phy, rules) = (&self.exchange, &store.phy, store.rules);
        let mut last = OwnStart::default();
        self.contention
            .set_aside(&self.transmitters, &mut store.entities, |ent| {
                last.set(ex, phy, rules, ent, ChannelLoss::None, now, correct_end);
                ChannelLoss::None.count(&mut ent.stats, false);
                debug_assert!(ent.head.is_some_and(|h| !h.broadcast));
                let after = ent.on_failure(false);
                debug_assert_eq!(after, AfterFailure::Retry, "no retry limit");
            });
        self.transmitters.clear();
    }

    /// Tracing only, at the end of an exchange: the ACK of a frame sent alone, or the
    /// A-MPDUs (or BlockAckReqs) of the exchange (the first transmitter's as received,
    /// with the BlockAck when its receiver answered; the others collided).
    #[inline(never)]
    fn trace_answers(&self, store: &mut Store) {
        let ex = &self.exchange;
        if store.aggregation.is_none() {
            if ex.success {
                store.trace_ack(self.transmitters[0], ex.start, false);
            }
            return;
        }
        // The first transmitter last: its receiver's answer comes after the frames of the
        // others, which began no later (the capture writes records in time order).
        for (k, &t) in self.transmitters.iter().enumerate().rev() {
            if !store.aggregates(t) {
                continue;
            }
            let received = if k == 0 { ex.received } else { 0 };
            // The receiver answered (an A-MPDU of which it decoded an MPDU, or a
            // BlockAckReq), unless the exchange collided.
            let answered = k == 0 && (ex.success || ex.loss == ChannelLoss::Ack);
            let block_ack = answered.then_some(ex.loss == ChannelLoss::Ack);
            store.trace_ampdu(t, ex.start, received, block_ack);
        }
    }

    /// After the outcomes of [`Shared::exchange_end`] were handled (deliveries made, queues
    /// topped up): a TXOP holder sends its next frame SIFS later if the whole next
    /// exchange (with its ACK) still fits in the TXOP limit counted from the TXOP's first
    /// frame (9.19.2.4), and the medium stays busy; otherwise the medium turns idle.
    #[inline]
    pub fn exchange_done<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        channel: &mut Channel,
        sched: &mut S,
    ) {
        let ex = self.exchange;
        if store
            .aggregation
            .as_ref()
            .is_some_and(|a| !a.wakes.is_empty())
        {
            self.wake_entities(store, now, sched);
        }
        // (A successful exchange's first transmitter; after a collision whose transmitters
        // were placed at its end, none is left.)
        let t = if ex.success { self.transmitters[0] } else { 0 };
        let e = &store.entities[t as usize];
        let (limit, has_frame) = (e.params.txop_limit, e.has_frame());
        if ex.success && limit > 0 {
            if store.aggregates(t) && has_frame && !ex.captured {
                // The next A-MPDU fits in what is left of the TXOP.
                let elapsed = now + store.phy.sifs - ex.txop_start;
                store.form_aggregate(t, now, Some(limit.saturating_sub(elapsed)));
            } else if store.limits_lifetime && has_frame {
                store.expire_heads(&[t], now);
            }
            if let Some(start) = store.txop_next(t, now, ex.txop_start, ex.captured) {
                if store.trace {
                    store.trace_attempt(t, start);
                }
                self.exchange = Exchange {
                    burst: true,
                    ..self.exchange_of(store, t, start, ex.txop_start, channel)
                };
                store.entities[t as usize].stats.burst_exchanges += 1;
                self.schedule_exchange(store, sched);
                return;
            }
            // The TXOP ends: one backoff for the whole TXOP, and every entity counts
            // from AIFS after it.
            let b = &mut store.entities[t as usize].backoff;
            if !b.pending {
                b.draw();
            }
            self.idle_from(store, now, ex.tail.then_some(now));
        }
        self.busy = false;
        self.return_transmitters(store, ex.success);
        self.transmitters.clear();
        self.schedule_grant(store, now, sched);
    }

    /// The entities the exchange that ends at `now` woke (ADDBA: `mac/aggregate.rs`):
    /// those due now work their head out again and contend if they have a frame;
    /// the others wake at their time ([`MacEvent::Wake`]). Out of line: once per ADDBA
    /// frame.
    #[inline(never)]
    fn wake_entities<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        sched: &mut S,
    ) {
        let wakes = std::mem::take(&mut store.aggregation.as_mut().expect("aggregation").wakes);
        for &(at, t) in &wakes {
            if at > now {
                sched.schedule(at, MacEvent::Wake(t));
            } else {
                self.wake(store, now, t, sched);
            }
        }
    }

    /// [`MacEvent::Wake`] at `now` for entity `t`: its sessions see whether an awaited
    /// ADDBA Response is late ([`Store::wake_aggregate`]); if it had no frame and now has
    /// one, it contends as when a frame reaches an empty queue.
    pub fn wake<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        t: u32,
        sched: &mut S,
    ) {
        if store.wake_aggregate(t, now) {
            self.frame_ready(store, now, t, sched);
        }
    }

    /// Every entity counts idle slots from AIFS after `end`, or, when the reception of the
    /// medium's last frame ended in error at `errored`, from EIFS − DIFS + AIFS after `end`
    /// or after `errored` ([`super::EifsStart`]); the transmitters of a failed exchange are
    /// set apart afterwards. (The reference scan sets each entity's start in the store.)
    fn idle_from(&mut self, store: &mut Store, end: Time, errored: Option<Time>) {
        #[cfg(test)]
        if self.reference {
            self.reference_idle_from(store, end, errored);
            return self.reference_header_aborts(store, end);
        }
        self.contention.idle_from(end, errored, store.eifs);
    }

    /// Where the reception in error of the nodes that did not transmit ended, the exchange
    /// having ended at `now` with an errored frame: `now`, the medium's end, but after a
    /// collision of frames of unequal length under ns-3.37's rule
    /// ([`super::EifsStart::ReceptionEnd`]) the end of the second-longest frame (the
    /// longest's when two are as long).
    ///
    /// Each ns-3.37 node's PHY locks onto one frame of a collision; at equal power, as in
    /// one collision domain, every node onto the same one, the first sent
    /// (`PhyEntity::EndPreambleDetectionPeriod` keeps the strongest of the preambles that
    /// arrived in its window, ties to the lowest PPDU uid). Locked onto a shorter frame,
    /// its reception ends in error there and EIFS counts from that end. Locked onto the
    /// longest, an A-MPDU, it decodes the MPDUs that follow the other frames' ends (RX OK:
    /// `PhyEntity::EndReceivePayload` needs one MPDU) or, losing the PHY header, aborts
    /// before any reception began (`PhyEntity::EndReceiveField`: the header is received
    /// in CCA_BUSY, `SwitchToRx` comes with the payload), and counts AIFS from the idle.
    /// The shared medium keeps one countdown start per class, not per node, so it takes
    /// every node as locked onto the second-longest frame: exact when the longest frame
    /// is an A-MPDU and ends EIFS − DIFS or more after the others (every node counts AIFS
    /// from the idle), and for the nodes locked onto one of two equally long longest
    /// frames (every MPDU overlapped: EIFS from the idle, the rule's then); otherwise
    /// between ns-3's outcomes (locked onto a longest frame it cannot decode, a node
    /// counts EIFS from the idle; onto an earlier frame, less). In the validation's cells
    /// (seed 1, 4 s) the ends of a collision of unequal frames were EIFS − DIFS apart or
    /// more in 92-100 % of the UDP A-MPDU cases' collisions and 75-100 % of the TCP cases'
    /// (docs/how-to/ns3-profile.md).
    #[inline]
    fn errored_end(&self, store: &Store, now: Time) -> Time {
        let ex = &self.exchange;
        if !store.eifs.from_reception() || ex.success || ex.captured || self.transmitters.len() < 2
        {
            return now;
        }
        self.second_longest_end(store)
    }

    /// The end of the second-longest frame of the collision in progress at every node that
    /// did not transmit ([`Shared::errored_end`]). (Out of line: once per collision, and
    /// only under ns-3.37's rule.)
    #[inline(never)]
    fn second_longest_end(&self, store: &Store) -> Time {
        let (mut longest, mut second) = (0, 0);
        for &t in &self.transmitters {
            let len = store.head_exchange(t).first_frame;
            if len > longest {
                (longest, second) = (len, longest);
            } else if len > second {
                second = len;
            }
        }
        // The frames of a collision start together and reach every node δ later.
        self.exchange.start + second + store.phy.propagation_delay
    }

    /// The medium turned idle: a successful transmitter counts with its class, those of a
    /// failed exchange from their own countdown start (ACK/CTS timeout).
    fn return_transmitters(&mut self, store: &mut Store, success: bool) {
        #[cfg(test)]
        if self.reference {
            return;
        }
        // The first transmitter succeeded alone or was captured; any other collided.
        if success {
            let t = self.transmitters[0];
            self.contention.join(t, &store.entities[t as usize]);
        }
        let failed = &self.transmitters[usize::from(success)..];
        if !failed.is_empty() {
            self.contention
                .set_aside(failed, &mut store.entities, |_| {});
        }
    }

    /// Drive this medium with the linear reference scan (before any event).
    #[cfg(test)]
    pub(crate) fn use_reference(&mut self) {
        self.reference = true;
    }

    /// Make entity `e` pending with `counter` slots to count from `countdown_start`.
    #[cfg(test)]
    pub(crate) fn set_backoff(
        &mut self,
        store: &mut Store,
        e: u32,
        counter: u32,
        countdown_start: Time,
    ) {
        let b = &mut store.entities[e as usize].backoff;
        if !self.reference {
            self.contention.take(e, b);
        }
        b.pending = true;
        b.counter = counter;
        b.countdown_start = countdown_start;
        if !self.reference {
            self.contention
                .restore(e, &store.entities[e as usize], true);
            self.contention.rescan_aside(&store.entities);
        }
    }
}

#[cfg(test)]
mod reference;
