//! The channel-access entities and the rules both media apply to them (802.11-2012 9.3,
//! 9.19.2): an attempt counted, a success (a new backoff, or a TXOP that goes on), a
//! failure counted by its cause against the retry limits, internal collisions between the
//! EDCAFs of one node, whether the next exchange of a TXOP fits, and the outcomes handed
//! back to the world. The shared medium (`mac/shared.rs`) and the spatial medium
//! (`mac/spatial.rs`) decide *when* entities transmit and *what* became of their frames,
//! and call these rules; neither knows the other.
use super::aggregate::Aggregation;
use super::eifs::EifsStart;
use super::entity::{AfterFailure, HeadFrame};
use super::event::MacOutcome;
use super::exchange::{exchange_times, ExchangeTimes};
use super::ns2::MacRules;
use super::rate::{RateControl, CONFIGURED};
use super::{Entity, MacStats};
use crate::net::{NodeId, Packet};
use crate::phy::{LinkRates, LinkTimes, Phy};
use crate::sim::time::Time;
use crate::trace::AirRate;

mod aggregate;
mod lifetime;

/// What the exchange of a unicast frame depends on besides the run's constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ExchangeKey {
    to: NodeId,
    ip_bytes: u32,
    /// The rung of the link's ladder, or `CONFIGURED`.
    rate: u8,
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

impl ChannelLoss {
    /// Count a failed attempt in `stats` by its cause: this frame lost, or else (`None`)
    /// a collision (`hidden`: with a frame whose sender it did not sense).
    #[inline(always)]
    pub(super) fn count(self, stats: &mut MacStats, hidden: bool) {
        match self {
            ChannelLoss::None => {
                stats.collisions += 1;
                stats.hidden_collisions += u64::from(hidden);
            }
            ChannelLoss::Data => stats.frame_errors += 1,
            ChannelLoss::Rts | ChannelLoss::Cts | ChannelLoss::Ack => stats.control_errors += 1,
        }
    }
}

/// The channel-access entities, what their frames' exchanges take, and the outcomes of
/// the rules applied to them.
pub struct Store {
    pub phy: Phy,
    /// Per node: the rates of a station's link with its AP (None at an AP).
    links: Vec<Option<LinkTimes>>,
    /// dot11RTSThreshold in MPDU bytes; None: RTS/CTS never used.
    pub(super) rts_threshold: Option<u32>,
    pub entities: Vec<Entity>,
    /// Standard or ns-2 rules where they differ (`mac/ns2.rs`).
    pub(super) rules: MacRules,
    /// Where the EIFS after a reception in error begins (`mac/eifs.rs`).
    pub(super) eifs: EifsStart,
    pub(super) outcomes: Vec<MacOutcome>,
    /// The Block Ack sessions when the run sends A-MPDUs (`mac/aggregate.rs`).
    pub(super) aggregation: Option<Aggregation>,
    /// The links' rate controllers when some link adapts its rate (`mac/rate/`).
    pub rate: Option<Box<RateControl>>,
    /// Some node has more than one entity (EDCA, or a beacon entity beside its data
    /// one): internal collisions are possible.
    shares_nodes: bool,
    /// Some entity has a retry limit: a failure may drop a frame (an outcome).
    limits_retries: bool,
    /// Some entity has an MSDU lifetime (`mac/lifetime.rs`): an access may discard frames.
    pub(super) limits_lifetime: bool,
    /// Per entity: the last exchange worked out for its head-of-line frame, with what it
    /// depends on ([`Store::exchange_at`]).
    last_exchange: Vec<Option<(ExchangeKey, ExchangeTimes)>>,
    /// Report attempts and failures too (for the trace hook).
    pub trace: bool,
    /// Report what each node receives too (`MacOutcome::Heard`; the spatial medium's
    /// per-node captures).
    pub trace_heard: bool,
}

impl Store {
    /// The entities, following `rules` where the standard and ns-2 differ and `eifs` for
    /// where an EIFS begins; `links`: per node, the rates of a station's link with its AP
    /// (None at an AP).
    pub fn new(
        phy: Phy,
        rts_threshold: Option<u32>,
        entities: Vec<Entity>,
        links: Vec<Option<LinkRates>>,
        rules: MacRules,
        eifs: EifsStart,
    ) -> Store {
        let links = links
            .into_iter()
            .map(|l| l.map(|l| LinkTimes::new(&phy, l)))
            .collect();
        let n = entities.len();
        // A node's entities are contiguous (`world/build.rs`).
        let shares_nodes = entities.windows(2).any(|w| w[0].node == w[1].node);
        let limits_retries = entities.iter().any(|e| {
            let p = &e.params;
            p.short_retry_limit.is_some() || p.long_retry_limit.is_some()
        });
        let limits_lifetime = entities.iter().any(|e| e.params.msdu_lifetime.is_some());
        Store {
            phy,
            links,
            rts_threshold,
            entities,
            rules,
            eifs,
            outcomes: Vec::with_capacity(2 * n),
            aggregation: None,
            rate: None,
            shares_nodes,
            limits_retries,
            limits_lifetime,
            last_exchange: vec![None; n],
            trace: false,
            trace_heard: false,
        }
    }

    /// The outcomes collected since the last call (the buffer is handed back with
    /// [`Store::restore_outcomes`], so nothing is allocated once it has grown).
    pub fn take_outcomes(&mut self) -> Vec<MacOutcome> {
        std::mem::take(&mut self.outcomes)
    }

    pub fn restore_outcomes(&mut self, mut buffer: Vec<MacOutcome>) {
        buffer.clear();
        self.outcomes = buffer;
    }

    /// Whether the rules applied to the transmitters of one grant depend on the order
    /// they are taken in: a node's EDCAFs must be adjacent (internal collisions); or a
    /// failure may write an outcome (the trace, a frame dropped at its retry limit), move
    /// a Block Ack session, or report to a rate controller; or an access may discard
    /// frames whose lifetime passed (outcomes). Otherwise a failure touches the failed
    /// entity's own state alone.
    #[inline]
    pub(super) fn order_matters(&self) -> bool {
        self.shares_nodes
            || self.limits_retries
            || self.limits_lifetime
            || self.trace
            || self.aggregation.is_some()
            || self.rate.is_some()
    }

    /// Whether the shared medium's grant may count each transmitter's attempt
    /// ([`Entity::count_attempt`]) as it takes it: nothing the grant does before the
    /// exchange (frames whose lifetime passed discarded, A-MPDUs formed, internal
    /// collisions lost) can change a transmitter's head-of-line frame or whether it
    /// transmits.
    #[inline]
    pub(super) fn attempts_counted_when_taken(&self) -> bool {
        !self.shares_nodes && !self.limits_lifetime && self.aggregation.is_none()
    }

    pub(super) fn trace_attempt(&mut self, t: u32, at: Time) {
        let e = &self.entities[t as usize];
        if e.beacon.is_some() {
            return; // beacons are not packets of the network layer
        }
        if self.aggregates(t) {
            return; // its subframes are traced at the exchange's end (`trace_ampdu`)
        }
        let packet = *e.queue.head().expect("has frame");
        let (node, retry) = (e.node, e.is_retry());
        let rate = AirRate::of(&self.head_link(t).rates);
        self.outcomes.push(MacOutcome::Attempt {
            node,
            packet,
            at,
            retry,
            rate,
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

    /// The rates of entity `t`'s head-of-line frame's exchange: its link's, or those of
    /// the rung its rate controller chose.
    #[inline]
    pub(super) fn head_link(&self, t: u32) -> &LinkTimes {
        let e = &self.entities[t as usize];
        let head = e.head.as_ref().expect("has frame");
        self.link_at(e.node, head.to, head.rate)
    }

    /// The times of `node`'s link to `to` at rung `rate` of its ladder (`CONFIGURED`, or
    /// no rate controller: the link's configured rates).
    #[inline]
    fn link_at(&self, node: NodeId, to: NodeId, rate: u8) -> &LinkTimes {
        match &self.rate {
            Some(rc) if rate != CONFIGURED => rc.times(node, to, rate),
            _ => self.link(node, to),
        }
    }

    /// The exchange timing of entity `t`'s head-of-line frame.
    #[inline]
    pub(super) fn head_exchange(&self, t: u32) -> ExchangeTimes {
        self.entities[t as usize].head.expect("has frame").times
    }

    /// Entity `t`'s head-of-line frame changed (a frame reached an empty queue, or the
    /// head left): note its receiver and work out its exchange.
    pub(super) fn new_head(&mut self, t: u32) {
        if self.aggregates(t) {
            self.entities[t as usize].head = self.aggregate_head(t);
            return;
        }
        let e = &self.entities[t as usize];
        // (Each arm writes the head in place: one copy of the exchange's times.)
        match (e.queue.head(), e.beacon) {
            (None, _) => self.entities[t as usize].head = None,
            (Some(_), Some(times)) => {
                let to = e.node;
                self.entities[t as usize].head = Some(HeadFrame {
                    delivered: false,
                    broadcast: true,
                    rate: CONFIGURED,
                    to,
                    times,
                });
            }
            (Some(p), None) => {
                let (to, ip_bytes) = (p.hop, p.ip_bytes());
                let times = self.exchange_at(t, to, ip_bytes, CONFIGURED);
                self.entities[t as usize].head = Some(HeadFrame::unicast(to, times, CONFIGURED));
            }
        }
        if self.rate.is_some() {
            self.choose_rate(t);
        }
    }

    /// Entity `t`'s rate controller picks the rung of its head-of-line frame's next
    /// attempt (a new frame, or a retry after a failure), and the exchange is timed at it.
    #[inline(never)]
    fn choose_rate(&mut self, t: u32) {
        let Some(head) = self.entities[t as usize].head.filter(|h| !h.broadcast) else {
            return;
        };
        let rung = self.choose_rung(t, head.to);
        if rung == CONFIGURED {
            return;
        }
        let e = &self.entities[t as usize];
        let ip_bytes = e.queue.head().expect("has frame").ip_bytes();
        let times = self.exchange_at(t, head.to, ip_bytes, rung);
        let head = self.entities[t as usize].head.as_mut().expect("has frame");
        head.rate = rung;
        head.times = times;
    }

    /// The rung of entity `t`'s next attempt to `to` (its retries so far: the attempt's
    /// number), as its rate controller picks it; `CONFIGURED` without a controller or on
    /// a link it does not adapt.
    #[inline]
    fn choose_rung(&mut self, t: u32, to: NodeId) -> u8 {
        let e = &self.entities[t as usize];
        let attempt = e.backoff.short_retries + e.backoff.long_retries;
        self.rate
            .as_deref_mut()
            .map_or(CONFIGURED, |rc| rc.choose(e.node, to, attempt))
    }

    /// The exchange of entity `t`'s packet of `ip_bytes` to `to` at rung `rate` of its
    /// link's ladder (or `CONFIGURED`: the link's rates). It depends on nothing else (the
    /// PHY, the RTS threshold and the rates of a link and its rungs do not change during a
    /// run), so the last one worked out is kept per entity and used again while the
    /// receiver, the size and the rung stay: a saturated source sends one size to one
    /// receiver, and a retry at the same rung asks again.
    #[inline(always)]
    fn exchange_at(&mut self, t: u32, to: NodeId, ip_bytes: u32, rate: u8) -> ExchangeTimes {
        let key = ExchangeKey { to, ip_bytes, rate };
        match self.last_exchange[t as usize] {
            Some((k, times)) if k == key => times,
            _ => {
                let link = self.link_at(self.entities[t as usize].node, to, rate);
                let times = exchange_times(&self.phy, link, self.rts_threshold, ip_bytes);
                self.last_exchange[t as usize] = Some((key, times));
                times
            }
        }
    }

    /// Entity `t`'s rate controller learns the fate of the attempt that began at `start`.
    /// With aggregation `settle_aggregate` reports each exchange (its MPDUs sent and
    /// acknowledged), not this.
    #[inline(never)]
    fn report_rate(&mut self, t: u32, success: bool, start: Time) {
        if self.aggregation.is_some() {
            return;
        }
        let rc = self.rate.as_mut().expect("rate control");
        let e = &self.entities[t as usize];
        if let Some(head) = e.head.filter(|h| !h.broadcast) {
            rc.report(e.node, head.to, head.rate, success, start);
        }
    }

    /// [`super::MacEvent::Received`] at `now`: entity `t`'s head-of-line frame, decoded
    /// [`MacRules::delivery_delay`] earlier, goes up: the packet and when it was decoded,
    /// handed straight back (no outcome: nothing else happens at this event), unless it
    /// went up before.
    #[inline]
    pub fn received(&mut self, now: Time, t: u32) -> Option<(Packet, Time)> {
        let delay = self.rules.delivery_delay().unwrap_or(0);
        Some((self.first_delivery(t)?, now - delay))
    }

    /// Entity `t`'s head-of-line data frame reached its receiver at `at`: delivered now,
    /// once (the sender's later copies are duplicates, 10.3.2.11). Called when its ACK was
    /// lost.
    pub(super) fn deliver_received(&mut self, t: u32, at: Time) {
        if let Some(packet) = self.first_delivery(t) {
            self.outcomes.push(MacOutcome::Delivered { packet, at });
        }
    }

    /// Entity `t`'s head-of-line data frame, the first time it reaches its receiver (None:
    /// a duplicate), now marked delivered.
    #[inline(always)]
    fn first_delivery(&mut self, t: u32) -> Option<Packet> {
        let e = &mut self.entities[t as usize];
        let head = e.head.as_mut().expect("has frame");
        if head.delivered {
            return None;
        }
        head.delivered = true;
        Some(*e.queue.head().expect("has frame"))
    }

    /// A failed attempt of entity `t` in the exchange that began at `start`, counted by its
    /// cause: the frame of the exchange the channel's loss models lost (`loss`), or else a
    /// collision (`hidden`: with a frame
    /// whose sender it did not sense). A data frame its receiver got at `received` (only
    /// the answer was lost) is delivered then, once (the sender's later copies are
    /// duplicates). `long_frame`: a data frame sent after RTS/CTS, counted against the
    /// long retry limit; an RTS, or a frame sent without one, against the short one
    /// (9.3.4.4).
    #[inline(always)]
    pub(super) fn attempt_failed(
        &mut self,
        t: u32,
        start: Time,
        loss: ChannelLoss,
        hidden: bool,
        received: Option<Time>,
        long_frame: bool,
    ) {
        loss.count(&mut self.entities[t as usize].stats, hidden);
        if let Some(at) = received {
            self.deliver_received(t, at);
        }
        if self.rate.is_some() {
            self.report_rate(t, false, start);
        }
        let e = &self.entities[t as usize];
        if self.trace && e.beacon.is_none() && !self.aggregates(t) {
            self.outcomes.push(MacOutcome::Failed {
                node: e.node,
                packet: *e.queue.head().expect("has frame"),
                lost: loss != ChannelLoss::None,
            });
            if received.is_some() {
                self.trace_ack(t, start, true);
            }
        }
        self.fail(t, start, long_frame);
    }

    /// 9.19.2.3: when EDCAFs of one node reach the same slot boundary at `now`, the
    /// highest AC transmits; each lower one behaves as after a collision on the medium (CW
    /// doubles, its short retry count grows, a frame at the retry limit is discarded).
    /// `transmitters` are in entity order, so a node's ACs are adjacent, highest last: the
    /// outranked leave them for `losers`.
    #[inline(always)]
    pub(super) fn internal_collisions(
        &mut self,
        transmitters: &mut Vec<u32>,
        losers: &mut Vec<u32>,
        now: Time,
    ) {
        if !self.shares_nodes {
            return; // one entity per node: nothing to outrank (and nothing to look up)
        }
        let mut kept = 0;
        for i in 0..transmitters.len() {
            let t = transmitters[i];
            let node = self.entities[t as usize].node;
            let outranked = transmitters
                .get(i + 1)
                .is_some_and(|&n| self.entities[n as usize].node == node);
            if outranked {
                self.entities[t as usize].stats.internal_collisions += 1;
                if self.aggregates(t) {
                    // Its A-MPDU (or ADDBA frame, or BlockAckReq) stayed off the air.
                    self.aggregate_failed(t, now, false, false);
                } else {
                    self.fail(t, now, false);
                }
                losers.push(t);
            } else {
                transmitters[kept] = t;
                kept += 1;
            }
        }
        transmitters.truncate(kept);
    }

    /// A failed attempt of entity `t` (9.3.4.4) in the exchange that began at `start`:
    /// counted against the retry limit; at the limit the frame is discarded. Inlined into
    /// its two callers; what is not a retry of a unicast frame is out of line, so the
    /// collided stations of a crowded cell pay for the retry alone.
    #[inline(always)]
    fn fail(&mut self, t: u32, start: Time, long_frame: bool) {
        // (A Beacon: `head.broadcast`, read beside the backoff rather than `beacon` in the
        // entity's last cache line.)
        if self.entities[t as usize]
            .head
            .as_ref()
            .is_some_and(|h| h.broadcast)
        {
            // Its sender cannot tell a collided broadcast frame: done, not retried.
            return self.broadcast_done(t, true, start);
        }
        if self.aggregation.is_some() {
            return self.aggregate_failed(t, start, long_frame, true);
        }
        if self.entities[t as usize].on_failure(long_frame) == AfterFailure::Drop {
            self.retry_dropped(t);
        } else if self.rate.is_some() {
            self.choose_rate(t);
        }
    }

    /// Entity `t`'s head-of-line frame reached its retry limit: it leaves the queue.
    #[inline(never)]
    fn retry_dropped(&mut self, t: u32) {
        let e = &mut self.entities[t as usize];
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

    /// Entity `t`'s frame, sent in the exchange that began at `start`, was acknowledged
    /// (delivered at `delivered_at`). Outside a TXOP a new backoff is drawn at once
    /// (9.3.4.3); inside one, CW resets and the backoff waits for the TXOP's end.
    #[inline(always)]
    pub(super) fn succeed(&mut self, t: u32, start: Time, delivered_at: Time) {
        if self.rate.is_some() {
            self.report_rate(t, true, start);
        }
        let e = &mut self.entities[t as usize];
        e.stats.successes += 1;
        if e.head.as_ref().is_some_and(|h| h.broadcast) {
            return self.broadcast_done(t, false, start);
        }
        if e.params.txop_limit == 0 {
            e.backoff.on_success(e.params.cw_min);
        } else {
            e.backoff.reset(e.params.cw_min);
        }
        if self.aggregation.is_some() {
            return self.aggregate_acked(t, start);
        }
        // (The packet read where it is queued, and copied only when it goes up now.)
        let e = &mut self.entities[t as usize];
        let duplicate = e.head.is_some_and(|h| h.delivered);
        let p = e.queue.head().expect("a delivered frame was queued");
        e.stats.count_frame(p);
        if !duplicate {
            self.outcomes.push(MacOutcome::Delivered {
                packet: *p,
                at: delivered_at,
            });
        }
        e.queue.remove_head();
        self.new_head(t);
        self.outcomes.push(MacOutcome::Vacated(t));
    }

    /// Tracing only: the ACK that answered entity `t`'s head-of-line frame, sent in the
    /// exchange that began at `start`, SIFS after the frame's reception (`lost`: the
    /// channel lost it, and the sender tries again); none to a broadcast frame.
    #[cold]
    #[inline(never)]
    pub(super) fn trace_ack(&mut self, t: u32, start: Time, lost: bool) {
        let e = &self.entities[t as usize];
        let head = e.head.as_ref().expect("has frame");
        if head.broadcast {
            return;
        }
        let at = start + head.times.data_end + self.phy.sifs;
        let rate = self.head_link(t).rates.ack;
        let (node, to) = (head.to, e.node);
        self.outcomes.push(MacOutcome::Ack {
            node,
            to,
            at,
            rate,
            lost,
        });
    }

    /// A Beacon sent at `at` left the air (alone or in a collision): a new backoff, the
    /// next frame. (Out of line: only an AP's beacon entity sends them.)
    #[inline(never)]
    pub(super) fn broadcast_done(&mut self, t: u32, collided: bool, at: Time) {
        let e = &mut self.entities[t as usize];
        e.backoff.on_success(e.params.cw_min);
        debug_assert!(!e.queue.is_empty(), "a beacon was queued");
        e.queue.remove_head();
        if self.trace {
            let node = e.node;
            self.outcomes
                .push(MacOutcome::Beacon { node, at, collided });
        }
        self.new_head(t);
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
}
