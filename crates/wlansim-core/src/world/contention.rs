//! DCF channel access on the shared medium (802.11-2012 9.3): deferral, backoff
//! countdown with freezing, collisions, frame exchanges, retries. EDCA entities contend
//! the same way; what EDCA adds (internal collisions, TXOP bursts) is in `edca`.
//!
//! Carrier sense is taken as instantaneous: two entities collide exactly when their
//! backoffs expire at the same instant (same slot boundary). The propagation delay δ
//! delays each reception and so each response (ACK/CTS start SIFS after the frame is
//! received), as in Bianchi's timing.
use super::{Event, Exchange, World};
use crate::mac::entity::AfterFailure;
use crate::phy::Phy;
use crate::sim::time::Time;

impl World {
    /// (Re)schedule the access grant at the earliest backoff expiry among entities that
    /// have a frame to send. Called whenever the medium turns idle or a frame appears.
    pub(super) fn schedule_grant(&mut self) {
        debug_assert!(!self.medium_busy);
        self.grant_generation += 1;
        let slot = self.phy.slot;
        let earliest = self
            .entities
            .iter()
            .filter(|e| e.backoff.pending && !e.queue.is_empty())
            .map(|e| e.backoff.expiry(slot))
            .min();
        if let Some(at) = earliest {
            let at = at.max(self.events.now());
            self.events
                .schedule(at, Event::AccessGrant(self.grant_generation));
        }
    }

    /// A frame was queued at entity `e` whose queue was empty.
    pub(super) fn on_frame_ready(&mut self, now: Time, e: u32) {
        let slot = self.phy.slot;
        let b = &mut self.entities[e as usize].backoff;
        if self.medium_busy {
            // 9.3.4.3: a frame that finds the medium busy waits for a backoff; a backoff
            // already running keeps going.
            if !b.pending {
                b.draw();
            }
            return;
        }
        if b.pending && b.expiry(slot) <= now {
            // The post-backoff ran out while the medium stayed idle: send at once.
            b.counter = 0;
            b.countdown_start = now;
        } else if !b.pending {
            if now >= b.countdown_start {
                // Idle for at least AIFS and no backoff pending: immediate access.
                b.counter = 0;
                b.countdown_start = now;
                b.pending = true;
            } else {
                // Still inside the IFS after a busy period: back off.
                b.draw();
            }
        }
        self.schedule_grant();
    }

    /// Backoff expiry at `now`: every entity whose counter reaches zero with a frame
    /// transmits; the others freeze.
    pub(super) fn on_access_grant(&mut self, now: Time) {
        let slot = self.phy.slot;
        self.transmitters.clear();
        for (i, e) in self.entities.iter_mut().enumerate() {
            let b = &mut e.backoff;
            if !b.pending {
                continue;
            }
            if !e.queue.is_empty() && b.expiry(slot) == now {
                self.transmitters.push(i as u32);
                continue;
            }
            b.freeze(now, slot);
            if b.counter == 0 && b.countdown_start <= now && e.queue.is_empty() {
                b.pending = false; // post-backoff complete
            }
        }
        debug_assert!(!self.transmitters.is_empty(), "grant without transmitter");
        self.medium_busy = true;
        if self.transmitters.len() > 1 {
            self.resolve_internal_collisions(now);
        }
        let phy = &self.phy;
        let delta = phy.propagation_delay;
        let mut busy = 0;
        for &t in &self.transmitters {
            let e = &mut self.entities[t as usize];
            e.backoff.pending = false;
            e.stats.attempts += 1;
            if e.is_retry() {
                e.stats.retries += 1;
            }
            let first = first_frame_time(phy, self.rts_threshold.uses_rts(mpdu_bytes(e)), e);
            busy = busy.max(first);
        }
        self.exchange = if self.transmitters.len() == 1 {
            self.exchange_of(self.transmitters[0], now, now)
        } else {
            Exchange {
                start: now,
                end: now + busy + delta,
                ..Exchange::default()
            }
        };
        self.events.schedule(self.exchange.end, Event::ExchangeEnd);
    }

    /// The exchange of entity `t`'s head-of-line frame, alone on the medium from `start`
    /// (in a TXOP that began at `txop_start`): the ACK comes back unless the link loses
    /// the data frame, in which case the medium turns idle when the data frame ends.
    pub(super) fn exchange_of(&mut self, t: u32, start: Time, txop_start: Time) -> Exchange {
        let e = &self.entities[t as usize];
        let head = *e.queue.head().expect("has frame");
        let uses_rts = self.rts_threshold.uses_rts(mpdu_bytes(e));
        let (data_end, ack_end) = self.phy.exchange_offsets(uses_rts, head.ip_bytes());
        // The frame's receiver: the AP, or for the AP's frames the flow's station.
        let receiver = if e.node == self.ap {
            self.flows[head.flow as usize].station
        } else {
            self.ap
        };
        let lost = self.link_errors.frame_lost(e.node, receiver);
        Exchange {
            start,
            end: start + if lost { data_end } else { ack_end },
            data_end: start + data_end,
            success: !lost,
            lost,
            txop_start,
        }
    }

    /// The medium turns idle: settle the transmitters' frames, set every entity's next
    /// countdown start (AIFS after a correct frame, EIFS after an errored one), deliver.
    pub(super) fn on_exchange_end(&mut self, now: Time) {
        let ex = self.exchange;
        if ex.success
            && self.entities[self.transmitters[0] as usize]
                .params
                .txop_limit
                > 0
            && self.end_txop_exchange(now)
        {
            return; // the TXOP goes on: the medium stays busy
        }
        let delta = self.phy.propagation_delay;
        // Non-transmitters: DIFS/AIFS after a correct frame, EIFS after a collision (9.3.7).
        for (i, e) in self.entities.iter_mut().enumerate() {
            e.backoff.countdown_start = now
                + if ex.success {
                    e.params.aifs
                } else {
                    self.eifs[i]
                };
        }
        let mut settled = std::mem::take(&mut self.transmitters);
        let mut delivered = None;
        for &t in &settled {
            let uses_rts = self
                .rts_threshold
                .uses_rts(mpdu_bytes(&self.entities[t as usize]));
            let e = &mut self.entities[t as usize];
            if ex.success {
                // (A TXOP holder has settled its frame in `end_txop_exchange`.)
                if e.params.txop_limit == 0 {
                    e.stats.successes += 1;
                    e.backoff.on_success(e.params.cw_min);
                    delivered = e.queue.pop();
                    if let Some(p) = &delivered {
                        e.stats.count_frame(p);
                    }
                }
                e.backoff.countdown_start = now + e.params.aifs;
                continue;
            }
            // A collided RTS counts against the short retry limit, like a short frame; a
            // data frame lost after RTS/CTS against the long one.
            let (own_end, long_frame) = if ex.lost {
                e.stats.frame_errors += 1;
                (ex.data_end - delta, uses_rts)
            } else {
                e.stats.collisions += 1;
                (ex.start + first_frame_time(&self.phy, uses_rts, e), false)
            };
            // The transmitter waits ACKTimeout/CTSTimeout (9.3.2.8), then AIFS; if it
            // heard the tail of a longer colliding frame it also defers EIFS after it.
            let after_timeout = own_end + self.phy.response_timeout() + e.params.aifs;
            let after_medium = if own_end + delta < now {
                now + self.eifs[t as usize]
            } else {
                now + e.params.aifs
            };
            let outcome = e.on_failure(long_frame);
            e.backoff.countdown_start = after_timeout.max(after_medium);
            if outcome == AfterFailure::Drop {
                let p = e.queue.pop().expect("a dropped frame was queued");
                self.count_retry_drop(&p);
                self.refill(now, t);
            }
        }
        // Deliver before the medium turns idle: a packet this queues at an empty entity
        // finds every countdown start after `now` (AIFS or more), where the busy and idle
        // rules of `on_frame_ready` agree, and the single grant below covers it.
        if let Some(p) = delivered {
            self.deliver(now, ex.data_end, p);
            self.refill(now, settled[0]);
        }
        self.medium_busy = false;
        settled.clear();
        self.transmitters = settled;
        self.schedule_grant();
    }
}

/// MPDU size of the entity's head-of-line frame.
fn mpdu_bytes(e: &crate::mac::Entity) -> u32 {
    Phy::data_mpdu_bytes(e.queue.head().map_or(0, |p| p.ip_bytes()))
}

/// Duration of the first frame an entity puts on the air: RTS or the data frame.
fn first_frame_time(phy: &Phy, uses_rts: bool, e: &crate::mac::Entity) -> Time {
    if uses_rts {
        phy.rts_time()
    } else {
        phy.data_time(e.queue.head().expect("has frame").ip_bytes())
    }
}
