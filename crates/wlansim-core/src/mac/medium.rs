//! The MAC as the world sees it: the channel-access entities and the rules both media
//! apply to them (`mac/store.rs`), and the medium that decides when they transmit and
//! what becomes of their frames, either the shared one (one collision domain:
//! `mac/shared.rs`) or the spatial one (carrier sense and reception per node:
//! `mac/spatial.rs`). The two media know the store, not each other; this file only
//! passes each call to the medium the run has.
//!
//! The world drives the [`Mac`] through a few calls and it reports through
//! [`MacOutcome`]s, the way `tcp/` reports through `TcpOutput`:
//! - [`Mac::enqueue`]: a packet for an entity's queue (from the network layer);
//! - [`MacEvent::Grant`] → [`Mac::grant`], [`MacEvent::ExchangeEnd`] →
//!   [`Mac::exchange_end`] and then (after the world handled the outcomes)
//!   [`Mac::exchange_done`]: the shared medium's events;
//! - [`MacEvent::Access`] … [`MacEvent::Timeout`] → [`Mac::spatial_event`], then
//!   [`Mac::spatial_settle`]: the spatial medium's;
//! - [`MacEvent::Received`] → [`Mac::received`], only under rules that pass a decoded
//!   data frame up before its exchange ends (ns-2's, [`super::MacRules::delivery_delay`];
//!   an aggregating entity's PSDU under ns-3.37's, [`super::Delivery::PsduEnd`]).
use super::aggregate::{Aggregation, AggregationConfig};
use super::event::{MacEvent, MacOutcome};
use super::shared::Shared;
use super::spatial::Spatial;
use super::store::Store;
use super::{EifsStart, Entity, MacRules, MacStats};
use crate::channel::receiver::Rule;
use crate::channel::reception::TieBreak;
use crate::channel::{Channel, Ppdu};
use crate::net::{NodeId, Packet};
use crate::phy::LinkRates;
use crate::phy::Phy;
use crate::sim::event::Schedule;
use crate::sim::time::Time;

pub struct Mac {
    /// The entities and the rules both media apply to them.
    pub store: Store,
    /// The shared medium (its state stands unused when the run has a spatial one).
    pub(crate) shared: Shared,
    /// The spatial medium, when the run has one; None: the shared medium.
    spatial: Option<Box<Spatial>>,
}

impl Mac {
    /// The shared medium of `entities`, following `rules` where the standard and ns-2
    /// differ and `eifs` for where an EIFS begins; `links`: per node, the rates of a
    /// station's link with its AP (None at an AP).
    pub fn new(
        phy: Phy,
        rts_threshold: Option<u32>,
        entities: Vec<Entity>,
        links: Vec<Option<LinkRates>>,
        rules: MacRules,
        eifs: EifsStart,
    ) -> Mac {
        let store = Store::new(phy, rts_threshold, entities, links, rules, eifs);
        let shared = Shared::new(&store);
        Mac {
            store,
            shared,
            spatial: None,
        }
    }

    /// Run on the spatial medium (`mac/spatial.rs`) instead, deciding receptions by
    /// `rule`; `nodes`: how many nodes the run has; `beacon_ppdu`: per entity, the Beacon
    /// it sends, if any.
    pub fn use_spatial(&mut self, nodes: usize, rule: Rule, beacon_ppdu: Vec<Option<Ppdu>>) {
        let spatial = Spatial::new(&self.store, nodes, rule, beacon_ppdu);
        self.spatial = Some(Box::new(spatial));
    }

    /// Under SINR reception, receivers break ties of equally strong frames by `tie_break`
    /// (`channel/reception.rs`; the shared medium's `mac/capture.rs`).
    pub fn break_ties(&mut self, tie_break: TieBreak) {
        self.shared.break_ties(tie_break);
    }

    /// Send A-MPDUs with Block Ack (`mac/aggregate.rs`; the shared medium only).
    pub fn aggregate(&mut self, config: AggregationConfig) {
        let n = self.store.entities.len();
        self.store.aggregation = Some(Aggregation::new(config, n));
    }

    /// The packets in the Block Ack windows: sent and not yet received, or received and
    /// held by the reordering buffer (none without aggregation).
    pub fn in_windows(&self) -> impl Iterator<Item = &Packet> {
        self.store.aggregation.iter().flat_map(|a| a.in_flight())
    }

    /// Which medium runs: "shared" or "spatial".
    pub fn medium_name(&self) -> &'static str {
        if self.spatial.is_some() {
            "spatial"
        } else {
            "shared"
        }
    }

    /// The outcomes collected since the last call (see [`Store::take_outcomes`]).
    pub fn take_outcomes(&mut self) -> Vec<MacOutcome> {
        self.store.take_outcomes()
    }

    /// Whether any outcome waits to be taken (most events make none).
    #[inline]
    pub fn has_outcomes(&self) -> bool {
        !self.store.outcomes.is_empty()
    }

    pub fn restore_outcomes(&mut self, buffer: Vec<MacOutcome>) {
        self.store.restore_outcomes(buffer);
    }

    /// Queue `p` at `entity`; a full queue gives it back (the entity counts the drop):
    /// full at its capacity, the places the MPDUs in flight keep included
    /// (`TxQueue::hold_place`).
    #[inline(always)]
    pub fn enqueue<S: Schedule<MacEvent>>(
        &mut self,
        now: Time,
        entity: u32,
        p: Packet,
        sched: &mut S,
    ) -> Result<(), Packet> {
        let e = &mut self.store.entities[entity as usize];
        let was_empty = e.queue.is_empty();
        if let Err(p) = e.queue.push(p, now) {
            e.stats.count_queue_drop(&p);
            return Err(p);
        }
        // (An aggregating entity may have no frame to send with packets queued: they
        // wait for their session's ADDBA Response; the new one may not.)
        if was_empty || !e.has_frame() {
            self.store.new_head(entity);
            if !self.store.entities[entity as usize].has_frame() {
                return Ok(());
            }
            if self.spatial.is_none() {
                self.shared.frame_ready(&mut self.store, now, entity, sched);
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
        let spatial = self.spatial.as_mut().expect("the spatial medium");
        spatial.frame_ready(&mut self.store, now, e, sched);
    }

    /// Shared medium: whether a frame exchange (or a TXOP burst) holds it.
    pub fn is_busy(&self) -> bool {
        self.shared.is_busy()
    }

    /// Shared medium: the generation a grant scheduled now would carry.
    pub fn generation(&self) -> u64 {
        self.shared.generation()
    }

    /// Shared medium: entity `e`'s backoff counter (the slots left after the last freeze).
    pub fn backoff_counter(&self, e: u32) -> u32 {
        self.shared.backoff_counter(&self.store, e)
    }

    /// Shared medium: the time from which entity `e` counts idle slots.
    pub fn countdown_start(&self, e: u32) -> Time {
        self.shared.countdown_start(&self.store, e)
    }

    /// [`MacEvent::Grant`] at `now` (shared medium).
    pub fn grant<S: Schedule<MacEvent>>(
        &mut self,
        now: Time,
        generation: u64,
        channel: &mut Channel,
        sched: &mut S,
    ) {
        self.shared
            .grant(&mut self.store, now, generation, channel, sched);
    }

    /// [`MacEvent::ExchangeEnd`] at `now` (shared medium).
    pub fn exchange_end(&mut self, now: Time) {
        self.shared.exchange_end(&mut self.store, now);
    }

    /// After the outcomes of [`Mac::exchange_end`] were handled (shared medium).
    pub fn exchange_done<S: Schedule<MacEvent>>(
        &mut self,
        now: Time,
        channel: &mut Channel,
        sched: &mut S,
    ) {
        self.shared
            .exchange_done(&mut self.store, now, channel, sched);
    }

    /// [`MacEvent::Wake`] at `now` (shared medium with A-MPDU): entity `t`'s wait for an
    /// ADDBA Response ends.
    pub fn wake<S: Schedule<MacEvent>>(&mut self, now: Time, t: u32, sched: &mut S) {
        self.shared.wake(&mut self.store, now, t, sched);
    }

    /// [`MacEvent::Received`] at `now` (either medium; the shared medium's aggregating
    /// entity under [`super::Delivery::PsduEnd`]: `mac/delivery.rs`, whose MPDUs go up as
    /// outcomes): the packet that goes up and when it was decoded ([`Store::received`]).
    pub fn received(&mut self, now: Time, t: u32) -> Option<(Packet, Time)> {
        if self.spatial.is_none() && self.shared.exchange.passes_up {
            self.shared.pass_up(&mut self.store, now);
            return None;
        }
        self.store.received(now, t)
    }

    /// A spatial medium's event at `now` ([`MacEvent::Access`] … [`MacEvent::Timeout`]).
    pub fn spatial_event<S: Schedule<MacEvent>>(
        &mut self,
        now: Time,
        event: MacEvent,
        channel: &mut Channel,
        sched: &mut S,
    ) {
        let spatial = self.spatial.as_mut().expect("the spatial medium");
        spatial.handle(&mut self.store, now, event, channel, sched);
    }

    /// After the world handled the outcomes of a spatial medium's event: the successful
    /// TXOP holders go on or back off (`Spatial::settle`).
    pub fn spatial_settle<S: Schedule<MacEvent>>(&mut self, now: Time, sched: &mut S) {
        let spatial = self.spatial.as_mut().expect("the spatial medium");
        spatial.settle(&mut self.store, now, sched);
    }

    /// Node `n`'s carrier-sense busy time and NAV deferrals since statistics started (the
    /// shared medium: the time its exchanges held the medium, for every node; no NAV).
    pub fn node_counters(&self, n: NodeId) -> (Time, u64) {
        match &self.spatial {
            Some(s) => s.node_counters(n),
            None => (self.shared.busy_time(), 0),
        }
    }

    /// Statistics restart at `now` (the end of the warm-up): every counter from zero,
    /// except that the entities whose exchange is in progress keep the attempt (or the
    /// burst exchange of a TXOP) they counted, so that its outcome (counted when it ends)
    /// falls in the same window as its attempt.
    pub fn reset_statistics(&mut self, now: Time) {
        for e in &mut self.store.entities {
            e.stats = MacStats::default();
        }
        if let Some(r) = &mut self.store.rate {
            r.reset_statistics();
        }
        let shared = self.shared.reset_statistics(now);
        let in_progress = match &mut self.spatial {
            Some(s) => {
                s.reset_statistics(now);
                s.exchanges_in_progress()
            }
            None => shared,
        };
        for (t, burst) in in_progress {
            let e = &mut self.store.entities[t as usize];
            if burst {
                e.stats.burst_exchanges = 1;
            } else {
                e.stats.attempts = 1;
                e.stats.retries = e.is_retry() as u64;
            }
        }
    }

    /// Drive the shared medium with the linear reference scan (before any event).
    #[cfg(test)]
    pub(crate) fn use_reference(&mut self) {
        self.shared.use_reference();
    }

    /// Make entity `e` pending with `counter` slots to count from `countdown_start`
    /// (shared medium).
    #[cfg(test)]
    pub(crate) fn set_backoff(&mut self, e: u32, counter: u32, countdown_start: Time) {
        self.shared
            .set_backoff(&mut self.store, e, counter, countdown_start);
    }
}
