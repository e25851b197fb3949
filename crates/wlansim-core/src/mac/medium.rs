//! Channel access on the shared medium (802.11-2012 9.3 DCF, 9.19.2 EDCA): deferral,
//! backoff countdown with freezing, collisions, frame exchanges, retries, and what EDCA
//! adds (internal collisions, TXOP bursts). One collision domain: every node hears every
//! other, so the medium is a single state. Under SINR reception a frame of a collision
//! may be captured by its receiver (`capture.rs`).
//!
//! The [`Mac`] owns the channel-access entities and the medium. It is driven by the world
//! through four calls and reports through [`MacOutcome`]s, the way `tcp/` reports through
//! `TcpOutput`:
//! - [`Mac::enqueue`]: a packet for an entity's queue (from the network layer);
//! - [`MacEvent::Grant`] → [`Mac::grant`]: the earliest backoff expiry; the entities
//!   whose counters reach zero transmit;
//! - [`MacEvent::ExchangeEnd`] → [`Mac::exchange_end`], then (after the world handled
//!   the outcomes) [`Mac::exchange_done`]: settle the frames, then continue a TXOP burst
//!   or let the medium turn idle;
//! - [`MacEvent::Received`] → [`Mac::deliver_received`], only under rules that pass a
//!   decoded data frame up before its exchange ends (ns-2's, [`MacRules::delivery_delay`]).
//!
//! Carrier sense is taken as instantaneous: two entities collide exactly when their
//! backoffs expire at the same instant (same slot boundary). The propagation delay δ
//! delays each reception and so each response (ACK/CTS start SIFS after the frame is
//! received), as in Bianchi's timing.
//!
//! Which entity's backoff expires first, and the freezing and deferral of all the others,
//! are kept in [`Contention`] at a cost per event that does not grow with the number of
//! entities (see its module). A linear scan over every entity, the former implementation,
//! is kept under `cfg(test)` (`medium/reference.rs`) as the oracle the tests compare
//! against.
use super::contention::Contention;
use super::entity::{AfterFailure, HeadFrame};
use super::exchange::exchange_times;
use super::ns2::{LastFrame, MacRules, ShortCount};
use super::{Entity, MacStats};
use crate::channel::{Channel, FrameKind};
use crate::net::{NodeId, Packet};
use crate::phy::{LinkRates, LinkTimes, Phy};
use crate::sim::event::Schedule;
use crate::sim::time::Time;

/// The MAC's own events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacEvent {
    /// Shared medium: the earliest backoff expiry; stale unless the generation matches.
    Grant(u64),
    /// Shared medium: the current frame exchange (or collision) is over.
    ExchangeEnd,
    /// Either medium, under rules that pass a decoded data frame up before its ACK
    /// ([`MacRules::delivery_delay`]): entity's head-of-line frame reaches the network
    /// layer of its addressee.
    Received(u32),
    /// Spatial medium (`mac/spatial.rs`): a node's earliest backoff expiry (node,
    /// generation).
    Access(NodeId, u32),
    /// Spatial medium: a node sends what it owes (an answer SIFS after a reception, its
    /// data frame after a CTS, the next exchange of its TXOP).
    Send(NodeId),
    /// Spatial medium: a transmission's signal reaches the nodes that hear it.
    SignalStart(u32),
    /// Spatial medium: a transmission's signal leaves them.
    SignalEnd(u32),
    /// Spatial medium: a sender's CTSTimeout/ACKTimeout (node, generation).
    Timeout(NodeId, u32),
}

/// What the MAC hands back to the world, in the order it happened.
#[derive(Clone, Copy, Debug)]
pub enum MacOutcome {
    /// A frame was received correctly by `packet.hop` at `at`.
    Delivered { packet: Packet, at: Time },
    /// `node` discarded its head-of-line frame after the retry limit.
    RetryDrop { node: NodeId, packet: Packet },
    /// Entity `e`'s head-of-line frame left its queue (sent or dropped): a saturated
    /// source may top the queue up.
    Vacated(u32),
    /// Tracing only: `node` starts an attempt to send `packet` (to `packet.hop`) at `at`.
    Attempt {
        node: NodeId,
        packet: Packet,
        at: Time,
        retry: bool,
    },
    /// Tracing only: AP `node` sent a Beacon at `at` (`collided`: another frame started
    /// with it).
    Beacon {
        node: NodeId,
        at: Time,
        collided: bool,
    },
    /// Tracing only: the attempt of `node` failed (`lost` on the channel, or collided).
    Failed {
        node: NodeId,
        packet: Packet,
        lost: bool,
    },
    /// Tracing what each node hears (spatial medium, [`Mac::trace_heard`]): the radio of
    /// `node` received a frame of `from` that reached it at `at` (it locked onto it);
    /// `decoded`: without error. `data`: a data frame's packet and retry flag; None for a
    /// Beacon.
    Heard {
        node: NodeId,
        from: NodeId,
        at: Time,
        decoded: bool,
        data: Option<(Packet, bool)>,
    },
}

/// The frame of an exchange that the channel lost, if any.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum ChannelLoss {
    #[default]
    None,
    Rts,
    Cts,
    Data,
    Ack,
}

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
}

pub struct Mac {
    pub phy: Phy,
    /// Per node: the rates of a station's link with its AP (None at an AP).
    links: Vec<Option<LinkTimes>>,
    /// dot11RTSThreshold in MPDU bytes; None: RTS/CTS never used.
    rts_threshold: Option<u32>,
    pub entities: Vec<Entity>,
    /// Per entity: EIFS − DIFS + AIFS (9.3.7, 9.19.2.3), or ns-2's deferral
    /// ([`MacRules::after_error`]).
    eifs: Vec<Time>,
    /// Standard or ns-2 rules where they differ (`mac/ns2.rs`).
    pub(super) rules: MacRules,
    busy: bool,
    generation: u64,
    pub(crate) exchange: Exchange,
    /// Entities transmitting in the current exchange (reused buffer).
    pub(crate) transmitters: Vec<u32>,
    /// Entities that lost an internal collision at the last grant (reused buffer).
    losers: Vec<u32>,
    /// Powers of the transmitters at one receiver (SINR reception; reused buffer).
    pub(super) powers: Vec<f64>,
    contention: Contention,
    outcomes: Vec<MacOutcome>,
    /// Report attempts and failures too (for the trace hook).
    pub trace: bool,
    /// Report what each node receives too (`MacOutcome::Heard`; the spatial medium's
    /// per-node captures).
    pub trace_heard: bool,
    /// The spatial medium, when the run has one (`mac/spatial.rs`); None: the shared
    /// medium above.
    pub(crate) spatial: Option<Box<super::spatial::Spatial>>,
    /// Shared medium: time the medium was busy (exchanges, from their start to their
    /// end) since statistics started at `busy_since`.
    busy_time: Time,
    busy_since: Time,
    /// Under ns-2's rules, after a successful exchange: the node that sent its last frame
    /// (the ACK), that frame's start and length ([`Mac::short_count`]).
    last_frame: Option<LastFrame>,
    /// Run the linear reference scan instead of [`Contention`] (tests only).
    #[cfg(test)]
    reference: bool,
}

impl Mac {
    /// The medium of `entities`, following `rules` where the standard and ns-2 differ;
    /// `links`: per node, the rates of a station's link with its AP (None at an AP).
    pub fn new(
        phy: Phy,
        rts_threshold: Option<u32>,
        entities: Vec<Entity>,
        links: Vec<Option<LinkRates>>,
        rules: MacRules,
    ) -> Mac {
        let eifs = entities
            .iter()
            .map(|e| rules.after_error(&phy, e.params.aifs))
            .collect();
        let n = entities.len();
        let contention = Contention::new(&entities, phy.slot, |aifs| rules.after_error(&phy, aifs));
        let links = links
            .into_iter()
            .map(|l| l.map(|l| LinkTimes::new(&phy, l)))
            .collect();
        Mac {
            phy,
            links,
            rts_threshold,
            entities,
            eifs,
            rules,
            busy: false,
            generation: 0,
            exchange: Exchange::default(),
            transmitters: Vec::with_capacity(n),
            losers: Vec::with_capacity(n),
            powers: Vec::with_capacity(n),
            contention,
            outcomes: Vec::with_capacity(2 * n),
            trace: false,
            trace_heard: false,
            spatial: None,
            busy_time: 0,
            busy_since: 0,
            last_frame: None,
            #[cfg(test)]
            reference: false,
        }
    }

    /// Entity `e`'s backoff counter: the slots left after the last freeze.
    pub fn backoff_counter(&self, e: u32) -> u32 {
        let b = &self.entities[e as usize].backoff;
        #[cfg(test)]
        if self.reference {
            return b.counter;
        }
        self.contention.counter(e, b)
    }

    /// The time from which entity `e` counts idle slots (the end of the IFS that follows
    /// the last busy period).
    pub fn countdown_start(&self, e: u32) -> Time {
        let b = &self.entities[e as usize].backoff;
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

    /// The outcomes collected since the last call (the buffer is handed back with
    /// [`Mac::restore_outcomes`], so nothing is allocated once it has grown).
    pub fn take_outcomes(&mut self) -> Vec<MacOutcome> {
        std::mem::take(&mut self.outcomes)
    }

    pub fn restore_outcomes(&mut self, mut buffer: Vec<MacOutcome>) {
        buffer.clear();
        self.outcomes = buffer;
    }

    /// Queue `p` at `entity`; a full queue gives it back (the entity counts the drop).
    pub fn enqueue<S: Schedule<MacEvent>>(
        &mut self,
        now: Time,
        entity: u32,
        p: Packet,
        sched: &mut S,
    ) -> Result<(), Packet> {
        let e = &mut self.entities[entity as usize];
        let was_empty = e.queue.is_empty();
        if let Err(p) = e.queue.push(p) {
            e.stats.count_queue_drop(&p);
            return Err(p);
        }
        if was_empty {
            self.new_head(entity);
            if self.spatial.is_none() {
                self.frame_ready(now, entity, sched);
            } else {
                self.spatial_frame_ready(now, entity, sched);
            }
        }
        Ok(())
    }

    /// A frame reached entity `e`'s empty queue on the spatial medium (out of line: the
    /// shared medium's path stays as small as it was without it).
    #[inline(never)]
    fn spatial_frame_ready<S: Schedule<MacEvent>>(&mut self, now: Time, e: u32, sched: &mut S) {
        let mut spatial = self.spatial.take().expect("the spatial medium");
        spatial.frame_ready(self, now, e, sched);
        self.spatial = Some(spatial);
    }

    /// Run on the spatial medium (`mac/spatial.rs`), deciding receptions by `rule`;
    /// `nodes`: how many nodes the run has; `beacon_ppdu`: per entity, the Beacon it
    /// sends, if any.
    pub fn use_spatial(
        &mut self,
        nodes: usize,
        rule: crate::channel::receiver::Rule,
        beacon_ppdu: Vec<Option<crate::channel::Ppdu>>,
    ) {
        self.spatial = Some(Box::new(super::spatial::Spatial::new(
            self,
            nodes,
            rule,
            beacon_ppdu,
        )));
    }

    /// Which medium runs: "shared" or "spatial".
    pub fn medium_name(&self) -> &'static str {
        if self.spatial.is_some() {
            "spatial"
        } else {
            "shared"
        }
    }

    /// A spatial medium's event at `now` ([`MacEvent::Access`] … [`MacEvent::Timeout`]).
    pub fn spatial_event<S: Schedule<MacEvent>>(
        &mut self,
        now: Time,
        event: MacEvent,
        channel: &mut Channel,
        sched: &mut S,
    ) {
        let mut spatial = self.spatial.take().expect("the spatial medium");
        spatial.handle(self, now, event, channel, sched);
        self.spatial = Some(spatial);
    }

    /// After the world handled the outcomes of a spatial medium's event: the successful
    /// TXOP holders go on or back off (`Spatial::settle`).
    pub fn spatial_settle<S: Schedule<MacEvent>>(&mut self, now: Time, sched: &mut S) {
        let mut spatial = self.spatial.take().expect("the spatial medium");
        spatial.settle(self, now, sched);
        self.spatial = Some(spatial);
    }

    /// Node `n`'s carrier-sense busy time and NAV deferrals since statistics started (the
    /// shared medium: the time its exchanges held the medium, for every node; no NAV).
    pub fn node_counters(&self, n: NodeId) -> (Time, u64) {
        match &self.spatial {
            Some(s) => s.node_counters(n),
            None => (self.busy_time, 0),
        }
    }

    /// Statistics restart at `now` (the end of the warm-up): every counter from zero,
    /// except that the entities whose medium access is in progress keep the attempt they
    /// counted, so that its outcome (counted when it ends) falls in the same window as
    /// its attempt.
    pub fn reset_statistics(&mut self, now: Time) {
        for e in &mut self.entities {
            e.stats = MacStats::default();
        }
        let in_progress = match &mut self.spatial {
            Some(s) => {
                s.reset_statistics(now);
                s.attempts_in_progress()
            }
            None if self.busy && !self.exchange.burst => self.transmitters.clone(),
            None => Vec::new(),
        };
        for t in in_progress {
            let e = &mut self.entities[t as usize];
            e.stats.attempts = 1;
            e.stats.retries = e.is_retry() as u64;
        }
        self.busy_time = 0;
        self.busy_since = now;
    }

    /// (Re)schedule the access grant at the earliest backoff expiry among entities that
    /// have a frame to send. Called whenever the medium turns idle or a frame appears.
    fn schedule_grant<S: Schedule<MacEvent>>(&mut self, now: Time, sched: &mut S) {
        debug_assert!(!self.busy);
        self.generation += 1;
        if let Some(at) = self.earliest_expiry() {
            sched.schedule(at.max(now), MacEvent::Grant(self.generation));
        }
    }

    #[inline]
    fn earliest_expiry(&self) -> Option<Time> {
        #[cfg(test)]
        if self.reference {
            return self.reference_earliest_expiry();
        }
        self.contention.earliest(&self.entities)
    }

    /// A frame was queued at entity `e` whose queue was empty.
    fn frame_ready<S: Schedule<MacEvent>>(&mut self, now: Time, e: u32, sched: &mut S) {
        #[cfg(test)]
        if self.reference {
            return self.reference_frame_ready(now, e, sched);
        }
        let b = &mut self.entities[e as usize].backoff;
        self.contention.take(e, b);
        let own_start = self.backoff_on_arrival(now, e);
        self.contention
            .restore(e, &self.entities[e as usize], own_start);
        if !self.busy {
            self.schedule_grant(now, sched);
        }
    }

    /// The backoff of entity `e` when a frame reaches its empty queue at `now`
    /// ([`super::Backoff::on_frame_arrival`]); whether its countdown now starts at a time
    /// of its own rather than its class's.
    fn backoff_on_arrival(&mut self, now: Time, e: u32) -> bool {
        let ent = &mut self.entities[e as usize];
        let aifs = ent.params.aifs;
        ent.backoff
            .on_frame_arrival(now, self.busy, aifs, self.phy.slot, self.rules)
    }

    /// [`MacEvent::Grant`] at `now`: every entity whose counter reaches zero with a frame
    /// transmits; the others freeze. A stale grant does nothing.
    pub fn grant<S: Schedule<MacEvent>>(
        &mut self,
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
        let short = self.short_count(now);
        self.select_transmitters(now, short);
        debug_assert!(!self.transmitters.is_empty(), "grant without transmitter");
        self.busy = true;
        if self.transmitters.len() > 1 {
            self.resolve_internal_collisions();
            self.rejoin_losers();
        }
        let delta = self.phy.propagation_delay;
        let mut busy = 0;
        for k in 0..self.transmitters.len() {
            let t = self.transmitters[k];
            self.count_attempt(t);
            busy = busy.max(self.head_exchange(t).first_frame);
        }
        if self.trace {
            for k in 0..self.transmitters.len() {
                self.trace_attempt(self.transmitters[k], now);
            }
        }
        self.exchange = if self.transmitters.len() == 1 {
            self.exchange_of(self.transmitters[0], now, now, channel)
        } else if channel.reception.as_ref().is_some_and(|r| r.capture) {
            self.capture(now, busy, channel)
        } else {
            self.collided_attempts(0, channel);
            Exchange {
                start: now,
                end: now + busy + delta,
                ..Exchange::default()
            }
        };
        self.schedule_exchange(sched);
    }

    /// The transmitters from the `from`-th on collided (the channel was not asked about
    /// their frames): each unicast data frame sent without RTS still moves its link's
    /// burst models ([`Channel::collided_attempt`]); a collided RTS sent no data frame.
    pub(super) fn collided_attempts(&self, from: usize, channel: &mut Channel) {
        for &t in &self.transmitters[from..] {
            let e = &self.entities[t as usize];
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
    #[inline]
    fn schedule_exchange<S: Schedule<MacEvent>>(&self, sched: &mut S) {
        let ex = &self.exchange;
        sched.schedule(ex.end, MacEvent::ExchangeEnd);
        if let Some(delay) = self.rules.delivery_delay() {
            let decoded = ex.success || ex.loss == ChannelLoss::Ack;
            if decoded && ex.data_end + delay < ex.end {
                sched.schedule(
                    ex.data_end + delay,
                    MacEvent::Received(self.transmitters[0]),
                );
            }
        }
    }

    /// Entity `t` accesses the medium: its backoff is spent, an attempt is counted.
    #[inline]
    pub(super) fn count_attempt(&mut self, t: u32) {
        let e = &mut self.entities[t as usize];
        e.backoff.pending = false;
        e.stats.attempts += 1;
        if e.is_retry() {
            e.stats.retries += 1;
        }
    }

    /// The entities whose backoff expires at `now` (in entity order) transmit; every other
    /// pending entity freezes (9.3.4.3), and a post-backoff whose counter reached zero
    /// after its countdown started is complete (the entity may then access the medium at
    /// once when a frame arrives after AIFS of idle medium).
    fn select_transmitters(&mut self, now: Time, short: Option<ShortCount>) {
        #[cfg(test)]
        if self.reference {
            return self.reference_select_transmitters(now, short);
        }
        self.contention
            .grant(now, &mut self.entities, &mut self.transmitters, short);
    }

    /// Under ns-2's rules, when the node that sent the last frame transmits at `now` as its
    /// own countdown ends, the entities that counted from the same start may count one
    /// slot fewer ([`MacRules::slots_counted_after_own_frame`]); None when every slot
    /// counts.
    fn short_count(&self, now: Time) -> Option<ShortCount> {
        let last = self.last_frame?;
        let (node, slot) = (last.sender, self.phy.slot);
        // A node's entities are contiguous, in node order (`world/build.rs`).
        let first = self.entities.partition_point(|e| e.node < node);
        let e = (first..self.entities.len())
            .take_while(|&e| self.entities[e].node == node)
            .map(|e| e as u32)
            .find(|&e| {
                let ent = &self.entities[e as usize];
                ent.has_frame()
                    && ent.backoff.pending
                    && self.countdown_start(e) + self.backoff_counter(e) as Time * slot == now
            })?;
        let drawn = self.entities[e as usize].backoff.drawn;
        self.rules
            .short_count(last, self.countdown_start(e), now, drawn, &self.phy)
    }

    /// The losers of internal collisions drew a new backoff: they count with the others.
    fn rejoin_losers(&mut self) {
        #[cfg(test)]
        if self.reference {
            return;
        }
        for &l in &self.losers {
            self.contention.join(l, &self.entities[l as usize]);
        }
    }

    pub(super) fn trace_attempt(&mut self, t: u32, at: Time) {
        let e = &self.entities[t as usize];
        if e.beacon.is_some() {
            return; // beacons are not packets of the network layer
        }
        let packet = *e.queue.head().expect("has frame");
        let (node, retry) = (e.node, e.is_retry());
        self.outcomes.push(MacOutcome::Attempt {
            node,
            packet,
            at,
            retry,
        });
    }

    /// Tracing only: `node` received a frame of `from` (see [`MacOutcome::Heard`]).
    pub(super) fn heard(
        &mut self,
        node: NodeId,
        from: NodeId,
        at: Time,
        decoded: bool,
        data: Option<(Packet, bool)>,
    ) {
        self.outcomes.push(MacOutcome::Heard {
            node,
            from,
            at,
            decoded,
            data,
        });
    }

    /// The rates of the frames between `tx` and `rx` (a station and its AP).
    #[inline]
    pub fn link(&self, tx: NodeId, rx: NodeId) -> &LinkTimes {
        match &self.links[tx as usize] {
            Some(link) => link,
            None => self.links[rx as usize].as_ref().expect("a station's link"),
        }
    }

    /// The exchange timing of entity `t`'s head-of-line frame.
    #[inline]
    pub(super) fn head_exchange(&self, t: u32) -> super::exchange::ExchangeTimes {
        self.entities[t as usize].head.expect("has frame").times
    }

    /// Entity `t`'s head-of-line frame changed (a frame reached an empty queue, or the
    /// head left): note its receiver and work out its exchange.
    fn new_head(&mut self, t: u32) {
        let e = &self.entities[t as usize];
        let head = e.queue.head().map(|p| match e.beacon {
            Some(times) => HeadFrame {
                delivered: false,
                broadcast: true,
                to: e.node,
                times,
            },
            None => HeadFrame {
                delivered: false,
                broadcast: false,
                to: p.hop,
                times: exchange_times(
                    &self.phy,
                    self.link(e.node, p.hop),
                    self.rts_threshold,
                    p.ip_bytes(),
                ),
            },
        });
        self.entities[t as usize].head = head;
    }

    /// The exchange of entity `t`'s head-of-line frame, alone on the medium from `start`
    /// (in a TXOP that began at `txop_start`): the ACK comes back unless the channel loses
    /// a frame of it. The medium then turns idle when the lost frame ends (an ACK the
    /// sender did not get was still sent).
    pub(super) fn exchange_of(
        &mut self,
        t: u32,
        start: Time,
        txop_start: Time,
        channel: &mut Channel,
    ) -> Exchange {
        let e = &self.entities[t as usize];
        let head = e.head.expect("has frame");
        let (node, to, times) = (e.node, head.to, head.times);
        let (loss, length) = if head.broadcast {
            // Nobody answers a broadcast frame: sent is done (its fate at each receiver
            // changes nothing here).
            (ChannelLoss::None, times.end)
        } else if channel.asks_every_frame() {
            self.frame_by_frame(t, start, channel)
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
    fn frame_by_frame(&self, t: u32, start: Time, channel: &mut Channel) -> (ChannelLoss, Time) {
        use crate::channel::Ppdu;
        use crate::phy::frame::{ACK, CTS, RTS};
        let e = &self.entities[t as usize];
        let head = e.head.expect("has frame");
        let (node, to, times) = (e.node, head.to, head.times);
        let link = *self.link(node, to);
        let short_preamble = self.phy.short_preamble(link.rates.plcp);
        let ppdu = |rate, bytes| Ppdu {
            rate,
            bytes,
            short_preamble,
            ht: None,
        };
        let (delta, sifs) = (self.phy.propagation_delay, self.phy.sifs);
        // The frame from `tx` to `rx` sent `offset` into the exchange is lost.
        let lost = |c: &mut Channel, tx, rx, offset, kind, frame| {
            c.frame_lost(tx, rx, start, kind)
                || !c.decodes(
                    tx,
                    rx,
                    start + offset,
                    frame,
                    self.interference(rx, start, offset, c),
                )
        };
        let cts_at = link.rts + delta + sifs;
        let data_at = if times.rts {
            cts_at + link.cts + delta + sifs
        } else {
            0
        };
        let mpdu = self
            .phy
            .data_mpdu_bytes(e.queue.head().expect("has frame").ip_bytes());
        let ack_at = times.data_end + sifs;
        // (sent, what its loss is, from, to, offset, kind, the frame, where a loss ends it)
        #[rustfmt::skip]
        let frames = [
            (times.rts, ChannelLoss::Rts, node, to, 0, FrameKind::Control, ppdu(link.rates.rts, RTS), times.first_frame + delta),
            (times.rts, ChannelLoss::Cts, to, node, cts_at, FrameKind::Control, ppdu(link.rates.cts, CTS), cts_at + link.cts + delta),
            (true, ChannelLoss::Data, node, to, data_at, FrameKind::Data, Ppdu { ht: link.rates.ht, ..ppdu(link.rates.data, mpdu) }, times.data_end),
            (true, ChannelLoss::Ack, to, node, ack_at, FrameKind::Control, ppdu(link.rates.ack, ACK), times.end),
        ];
        for (sent, loss, tx, rx, at, kind, frame, end) in frames {
            if sent && lost(channel, tx, rx, at, kind, frame) {
                return (loss, end);
            }
        }
        (ChannelLoss::None, times.end)
    }

    /// [`MacEvent::Received`] at `now`: entity `t`'s head-of-line frame, decoded
    /// [`MacRules::delivery_delay`] earlier, goes up.
    pub fn received(&mut self, now: Time, t: u32) {
        let delay = self.rules.delivery_delay().unwrap_or(0);
        self.deliver_received(t, now - delay);
    }

    /// Entity `t`'s head-of-line data frame reached its receiver at `at`: delivered now,
    /// once (the sender's later copies are duplicates, 10.3.2.11). Called when its ACK was
    /// lost, and at [`MacEvent::Received`].
    pub(super) fn deliver_received(&mut self, t: u32, at: Time) {
        let e = &mut self.entities[t as usize];
        let head = e.head.as_mut().expect("has frame");
        if !head.delivered {
            head.delivered = true;
            let packet = *e.queue.head().expect("has frame");
            self.outcomes.push(MacOutcome::Delivered { packet, at });
        }
    }

    /// A failed attempt of entity `t`, counted by its cause: the frame of the exchange the
    /// channel's loss models lost (`loss`), or else a collision (`hidden`: with a frame
    /// whose sender it did not sense). A data frame its receiver got at `received` (only
    /// the answer was lost) is delivered then, once (the sender's later copies are
    /// duplicates). `long_frame`: a data frame sent after RTS/CTS, counted against the
    /// long retry limit; an RTS, or a frame sent without one, against the short one
    /// (9.3.4.4).
    #[inline(always)]
    pub(super) fn attempt_failed(
        &mut self,
        t: u32,
        loss: ChannelLoss,
        hidden: bool,
        received: Option<Time>,
        long_frame: bool,
    ) {
        let stats = &mut self.entities[t as usize].stats;
        match loss {
            ChannelLoss::None => {
                stats.collisions += 1;
                stats.hidden_collisions += u64::from(hidden);
            }
            ChannelLoss::Data => stats.frame_errors += 1,
            ChannelLoss::Rts | ChannelLoss::Cts | ChannelLoss::Ack => stats.control_errors += 1,
        }
        if let Some(at) = received {
            self.deliver_received(t, at);
        }
        let e = &self.entities[t as usize];
        if self.trace && e.beacon.is_none() {
            self.outcomes.push(MacOutcome::Failed {
                node: e.node,
                packet: *e.queue.head().expect("has frame"),
                lost: loss != ChannelLoss::None,
            });
        }
        self.fail(t, long_frame);
    }

    /// 9.19.2.3: when EDCAFs of one node reach the same slot boundary, the highest AC
    /// transmits; each lower one behaves as after a collision on the medium (CW doubles,
    /// its short retry count grows, a frame at the retry limit is discarded). Transmitters
    /// are in entity order, so a node's ACs are adjacent, highest last.
    fn resolve_internal_collisions(&mut self) {
        let (mut transmitters, mut losers) = (
            std::mem::take(&mut self.transmitters),
            std::mem::take(&mut self.losers),
        );
        self.internal_collisions(&mut transmitters, &mut losers);
        (self.transmitters, self.losers) = (transmitters, losers);
    }

    /// [`Mac::resolve_internal_collisions`] over `transmitters` (in entity order): the
    /// outranked go to `losers`.
    #[inline(always)]
    pub(super) fn internal_collisions(
        &mut self,
        transmitters: &mut Vec<u32>,
        losers: &mut Vec<u32>,
    ) {
        let mut kept = 0;
        for i in 0..transmitters.len() {
            let t = transmitters[i];
            let node = self.entities[t as usize].node;
            let outranked = transmitters
                .get(i + 1)
                .is_some_and(|&n| self.entities[n as usize].node == node);
            if outranked {
                self.entities[t as usize].stats.internal_collisions += 1;
                self.fail(t, false);
                losers.push(t);
            } else {
                transmitters[kept] = t;
                kept += 1;
            }
        }
        transmitters.truncate(kept);
    }

    /// A failed attempt of entity `t` (9.3.4.4): counted against the retry limit; at the
    /// limit the frame is discarded.
    fn fail(&mut self, t: u32, long_frame: bool) {
        let e = &mut self.entities[t as usize];
        if e.beacon.is_some() {
            // Its sender cannot tell a collided broadcast frame: done, not retried.
            return self.broadcast_done(t, true, self.exchange.start);
        }
        if e.on_failure(long_frame) == AfterFailure::Drop {
            let delivered = e.head.is_some_and(|h| h.delivered);
            let packet = e.queue.pop().expect("a dropped frame was queued");
            self.new_head(t);
            let node = self.entities[t as usize].node;
            // A frame the receiver already has (only its ACKs were lost) is not lost.
            if !delivered {
                self.outcomes.push(MacOutcome::RetryDrop { node, packet });
            }
            self.outcomes.push(MacOutcome::Vacated(t));
        }
    }

    /// Entity `t`'s frame was acknowledged. Outside a TXOP a new backoff is drawn at once
    /// (9.3.4.3); inside one, CW resets and the backoff waits for the TXOP's end.
    #[inline(always)]
    pub(super) fn succeed(&mut self, t: u32, delivered_at: Time) {
        let e = &mut self.entities[t as usize];
        e.stats.successes += 1;
        if e.beacon.is_some() {
            return self.broadcast_done(t, false, self.exchange.start);
        }
        if e.params.txop_limit == 0 {
            e.backoff.on_success(e.params.cw_min);
        } else {
            e.backoff.reset(e.params.cw_min);
        }
        let duplicate = e.head.is_some_and(|h| h.delivered);
        let p = e.queue.pop().expect("a delivered frame was queued");
        e.stats.count_frame(&p);
        self.new_head(t);
        if !duplicate {
            self.outcomes.push(MacOutcome::Delivered {
                packet: p,
                at: delivered_at,
            });
        }
        self.outcomes.push(MacOutcome::Vacated(t));
    }

    /// A Beacon sent at `at` left the air (alone or in a collision): a new backoff, the
    /// next frame.
    pub(super) fn broadcast_done(&mut self, t: u32, collided: bool, at: Time) {
        let e = &mut self.entities[t as usize];
        e.backoff.on_success(e.params.cw_min);
        e.queue.pop().expect("a beacon was queued");
        if self.trace {
            let node = e.node;
            self.outcomes
                .push(MacOutcome::Beacon { node, at, collided });
        }
        self.new_head(t);
    }

    /// [`MacEvent::ExchangeEnd`]: settle the transmitters' frames and set every entity's
    /// next countdown start (AIFS after a correct frame, EIFS after an errored one). The
    /// world then handles the outcomes and calls [`Mac::exchange_done`].
    pub fn exchange_end(&mut self, now: Time) {
        let ex = self.exchange;
        self.last_frame = None;
        if self.rules == MacRules::Ns2 && ex.success && !ex.captured && !ex.tail {
            let head = self.entities[self.transmitters[0] as usize].head;
            if let Some(h) = head.filter(|h| !h.broadcast) {
                // The ACK: SIFS after the data frame's reception, until the medium idles
                // (its reception's end).
                let start = ex.data_end + self.phy.sifs;
                self.last_frame = Some(LastFrame {
                    sender: h.to,
                    start,
                    len: ex.end - self.phy.propagation_delay - start,
                });
            }
        }
        self.busy_time += ex.end - ex.start.max(self.busy_since).min(ex.end);
        if ex.success {
            // The first transmitter (the only one, or the one captured out of a
            // collision); a TXOP holder's next step waits for `exchange_done`.
            let t = self.transmitters[0];
            self.entities[t as usize].stats.captures += u64::from(ex.captured);
            self.succeed(t, ex.data_end);
            if self.entities[t as usize].params.txop_limit > 0 && !ex.captured {
                return;
            }
        }
        let delta = self.phy.propagation_delay;
        // Non-transmitters: DIFS/AIFS after a correct frame, EIFS after a collision (9.3.7).
        let correct_end = ex.success && !ex.tail;
        self.idle_from(now, correct_end);
        if ex.success && !ex.captured {
            return;
        }
        for k in usize::from(ex.success)..self.transmitters.len() {
            let t = self.transmitters[k];
            let times = self.head_exchange(t);
            let e = &mut self.entities[t as usize];
            // The captured exchange's own loss; the other transmitters collided.
            let loss = if k == 0 { ex.loss } else { ChannelLoss::None };
            let own_end = match loss {
                ChannelLoss::None | ChannelLoss::Rts | ChannelLoss::Cts => {
                    ex.start + times.first_frame
                }
                ChannelLoss::Data | ChannelLoss::Ack => ex.data_end - delta,
            };
            // The transmitter waits ACKTimeout/CTSTimeout (9.3.2.8), then AIFS; if it
            // received the tail of a colliding frame in error it also defers EIFS after
            // it.
            let aifs = e.params.aifs;
            let after_timeout = own_end + self.phy.response_timeout() + aifs;
            // The frames of a collision start together and reach it δ later.
            let errored_tail = self
                .rules
                .tail_is_errored(ex.start + delta..now, ex.start..own_end)
                && (!correct_end || self.rules.eifs_outlasts_correct_frames());
            let after_medium = if errored_tail {
                now + self.eifs[t as usize]
            } else {
                now + aifs
            };
            e.backoff.countdown_start = after_timeout.max(after_medium);
            let long_frame = matches!(loss, ChannelLoss::Data | ChannelLoss::Ack) && times.rts;
            // The receiver got the data frame of an exchange whose ACK was lost.
            let received = (loss == ChannelLoss::Ack).then_some(ex.data_end);
            self.attempt_failed(t, loss, false, received, long_frame);
        }
    }

    /// After the outcomes of [`Mac::exchange_end`] were handled (deliveries made, queues
    /// topped up): a TXOP holder sends its next frame SIFS later if the whole next
    /// exchange (with its ACK) still fits in the TXOP limit counted from the TXOP's first
    /// frame (9.19.2.4), and the medium stays busy; otherwise the medium turns idle.
    pub fn exchange_done<S: Schedule<MacEvent>>(
        &mut self,
        now: Time,
        channel: &mut Channel,
        sched: &mut S,
    ) {
        let ex = self.exchange;
        let t = self.transmitters[0];
        let e = &self.entities[t as usize];
        if ex.success && e.params.txop_limit > 0 {
            if let Some(start) = self.txop_next(t, now, ex.txop_start, ex.captured) {
                if self.trace {
                    self.trace_attempt(t, start);
                }
                self.exchange = Exchange {
                    burst: true,
                    ..self.exchange_of(t, start, ex.txop_start, channel)
                };
                self.entities[t as usize].stats.burst_exchanges += 1;
                self.schedule_exchange(sched);
                return;
            }
            // The TXOP ends: one backoff for the whole TXOP, and every entity counts
            // from AIFS after it.
            let b = &mut self.entities[t as usize].backoff;
            if !b.pending {
                b.draw();
            }
            self.idle_from(now, !ex.tail);
        }
        self.busy = false;
        self.return_transmitters(ex.success);
        self.transmitters.clear();
        self.schedule_grant(now, sched);
    }

    /// When entity `t`, whose exchange in a TXOP that began at `txop_start` succeeded at
    /// `now`, sends its next frame: SIFS later if it has one and the whole next exchange
    /// (with its ACK) still fits in the TXOP limit (9.19.2.4). No burst follows an
    /// exchange captured out of a collision.
    pub(super) fn txop_next(
        &self,
        t: u32,
        now: Time,
        txop_start: Time,
        captured: bool,
    ) -> Option<Time> {
        let e = &self.entities[t as usize];
        if !e.has_frame() || captured {
            return None;
        }
        let start = now + self.phy.sifs;
        let span = self.head_exchange(t).end;
        (start + span - txop_start <= e.params.txop_limit).then_some(start)
    }

    /// Every entity counts idle slots from AIFS after `end` (`correct`) or from
    /// EIFS − DIFS + AIFS after it; the transmitters of a failed exchange are set apart
    /// afterwards.
    fn idle_from(&mut self, end: Time, correct: bool) {
        #[cfg(test)]
        if self.reference {
            return self.reference_idle_from(end, correct);
        }
        self.contention.idle_from(end, correct);
    }

    /// The medium turned idle: a successful transmitter counts with its class, those of a
    /// failed exchange from their own countdown start (ACK/CTS timeout).
    fn return_transmitters(&mut self, success: bool) {
        #[cfg(test)]
        if self.reference {
            return;
        }
        // The first transmitter succeeded alone or was captured; any other collided.
        for (k, &t) in self.transmitters.iter().enumerate() {
            if success && k == 0 {
                self.contention.join(t, &self.entities[t as usize]);
            } else {
                self.contention.set_aside(t, &self.entities[t as usize]);
            }
        }
    }

    /// Drive this MAC with the linear reference scan (before any event).
    #[cfg(test)]
    pub(crate) fn use_reference(&mut self) {
        self.reference = true;
    }

    /// Make entity `e` pending with `counter` slots to count from `countdown_start`.
    #[cfg(test)]
    pub(crate) fn set_backoff(&mut self, e: u32, counter: u32, countdown_start: Time) {
        let b = &mut self.entities[e as usize].backoff;
        if !self.reference {
            self.contention.take(e, b);
        }
        b.pending = true;
        b.counter = counter;
        b.countdown_start = countdown_start;
        if !self.reference {
            self.contention.restore(e, &self.entities[e as usize], true);
            self.contention.rescan_aside(&self.entities);
        }
    }
}

#[cfg(test)]
mod reference;
