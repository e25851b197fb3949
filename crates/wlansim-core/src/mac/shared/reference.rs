//! The linear reference for [`Contention`](crate::mac::contention::Contention): channel
//! access as it was implemented before, one scan over every entity per medium event (the
//! grant's expiry scan and freeze, every entity's countdown start at the end of a busy
//! period), with each entity's `Backoff` fields holding its whole state. Tests only: the
//! randomized comparisons in `world/contention_tests.rs` run scenarios through both and
//! require identical results.
use super::super::event::MacEvent;
use super::super::ns2::ShortCount;
use super::super::store::Store;
use super::Shared;
use crate::sim::event::Schedule;
use crate::sim::time::Time;

impl Shared {
    pub(super) fn reference_earliest_expiry(&self, store: &Store) -> Option<Time> {
        let slot = store.phy.slot;
        store
            .entities
            .iter()
            .filter(|e| e.backoff.pending && !e.queue.is_empty())
            .map(|e| e.backoff.expiry(slot))
            .min()
    }

    pub(super) fn reference_frame_ready<S: Schedule<MacEvent>>(
        &mut self,
        store: &mut Store,
        now: Time,
        e: u32,
        sched: &mut S,
    ) {
        self.backoff_on_arrival(store, now, e);
        if !self.busy {
            self.schedule_grant(store, now, sched);
        }
    }

    pub(super) fn reference_select_transmitters(
        &mut self,
        store: &mut Store,
        now: Time,
        short: Option<ShortCount>,
    ) {
        let slot = store.phy.slot;
        for (i, e) in store.entities.iter_mut().enumerate() {
            let has_frame = !e.queue.is_empty();
            let before = e.backoff.counter;
            if e.backoff.on_busy(has_frame, now, slot) {
                self.transmitters.push(i as u32);
            } else {
                e.backoff.recount(before, short);
            }
        }
    }

    pub(super) fn reference_idle_from(
        &mut self,
        store: &mut Store,
        end: Time,
        errored: Option<Time>,
    ) {
        let (eifs, hold) = (store.eifs, store.rules.eifs_hold(&store.phy));
        for e in &mut store.entities {
            let aifs = e.params.aifs;
            e.backoff.countdown_start = match errored {
                None => end + aifs,
                Some(at) => eifs.countdown_start(at, end, hold, aifs),
            };
        }
    }
}
