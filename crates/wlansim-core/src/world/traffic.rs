//! The world's side of the UDP sources (`crate::app::UdpSource`: when packets come; the
//! saturated sources' refills) and the packet bookkeeping at the ends of a flow:
//! generation, queue drops, delivery (handing TCP packets on), retry drops. Statistics
//! count from the start and are zeroed at the end of the warm-up; the accounting counters
//! never are.
use super::{Event, World};
use crate::app::udp::PACKETS_PER_EVENT;
use crate::net::{Kind, Packet};
use crate::sim::time::Time;
use crate::trace::{DropReason, TraceEvent};

impl World {
    pub(super) fn on_source_start(&mut self, now: Time, flow: u32) {
        if self.flows[flow as usize].tcp.is_some() {
            return self.tcp_start(now, flow);
        }
        let f = &mut self.flows[flow as usize];
        let source = f.udp.as_mut().expect("a UDP flow");
        match source.first(now) {
            Some(at) => self.events.schedule(at, Event::Arrival(flow)),
            None => {
                let entity = f.entity;
                self.saturated[entity as usize].0.push(flow);
                self.fill(now, entity);
            }
        }
    }

    /// Fill `entity`'s queue from its saturated flows at `now`. When one flow fills it
    /// and nothing looks at its packets one by one as they are made (no trace hook, no
    /// scripted losses), the packets after the first go in as one entry
    /// (`TxQueue::push_run`): the same packets and counts as one by one, at the cost of
    /// one packet, so that a run of many saturated stations does not pay for 50 packets
    /// a station before its first event.
    fn fill(&mut self, now: Time, entity: u32) {
        let (flows, _) = &self.saturated[entity as usize];
        let as_run = flows.len() == 1 && self.trace.is_none() && self.drops.is_none();
        while !self.mac.store.entities[entity as usize].queue.is_full() {
            if !self.refill(now, entity) {
                break;
            }
            if as_run {
                return self.fill_run(now, entity);
            }
        }
    }

    /// [`World::fill`] after its first packet, at `now`: the room left, as one run of
    /// copies of that packet with the flow's next sequence numbers.
    fn fill_run(&mut self, now: Time, entity: u32) {
        let queue = &self.mac.store.entities[entity as usize].queue;
        let n = queue.data_room() as u32;
        let last = queue.data_back().expect("the packet just queued");
        if n == 0 {
            return;
        }
        let f = &mut self.flows[last.flow as usize];
        let first = f.on_generated(false, last.payload_bytes);
        for _ in 1..n {
            f.on_generated(false, last.payload_bytes);
        }
        debug_assert_eq!(first, last.seq + 1);
        let run = Packet { seq: first, ..last };
        self.mac.store.entities[entity as usize]
            .queue
            .push_run(run, n, now);
    }

    /// A message of a CBR, Poisson, game or trace source comes: sent as packets of the
    /// flow's `packet_size`, the last one carrying the rest (none for an empty message).
    /// At most `PACKETS_PER_EVENT` packets per event: a larger message goes on in an
    /// event at the same time (its next message is at least 1 ns later).
    pub(super) fn on_arrival(&mut self, now: Time, flow: u32) {
        let f = &mut self.flows[flow as usize];
        let source = f.udp.as_mut().expect("a UDP flow");
        if !source.in_message() {
            let Some((bytes, next)) = source.next(now) else {
                return;
            };
            self.events.schedule(next, Event::Arrival(flow));
            source.start_message(bytes);
        }
        let src = f.src;
        for _ in 0..PACKETS_PER_EVENT {
            let source = self.flows[flow as usize].udp.as_mut().expect("a UDP flow");
            let Some(payload) = source.fragment() else {
                return;
            };
            let p = self.generate(now, flow, payload);
            self.forward(now, src, p);
        }
        if self.flows[flow as usize]
            .udp
            .as_ref()
            .is_some_and(|u| u.in_message())
        {
            self.events.schedule(now, Event::Arrival(flow));
        }
    }

    /// A new packet of UDP flow `flow` with `payload` bytes, counted as offered.
    #[inline]
    fn generate(&mut self, now: Time, flow: u32, payload: u32) -> Packet {
        let f = &mut self.flows[flow as usize];
        let seq = f.on_generated(false, payload);
        let mut p = Packet::udp(flow, seq, payload, f.src, f.dst, now);
        p.header_bytes += f.origin_header[0];
        self.trace(now, TraceEvent::Created { node: p.src }, &p);
        p
    }

    /// Queue `p` (its next hop over the air set) at `entity`, or drop it if the queue is
    /// full.
    #[inline(always)]
    pub(super) fn enqueue(&mut self, now: Time, entity: u32, p: Packet) {
        let node = self.mac.store.entities[entity as usize].node;
        match self.mac.enqueue(now, entity, p, &mut self.events) {
            Ok(()) => self.trace(now, TraceEvent::Enqueued { node }, &p),
            Err(p) => {
                let reason = DropReason::Queue;
                self.trace(now, TraceEvent::Dropped { node, reason }, &p);
                self.count_queue_drop(&p);
            }
        }
    }

    /// Top up `entity`'s queue from its saturated flows (round robin). Returns whether a
    /// packet was added.
    pub(super) fn refill(&mut self, now: Time, entity: u32) -> bool {
        let (flows, cursor) = &self.saturated[entity as usize];
        let (n, mut i) = (flows.len(), *cursor);
        for _ in 0..n {
            let flow = flows[i];
            // (The next in turn, without a division.)
            i = if i + 1 == n { 0 } else { i + 1 };
            if self.flows[flow as usize]
                .udp
                .as_ref()
                .is_some_and(|u| now < u.stop)
            {
                self.saturated[entity as usize].1 = i;
                let source = self.flows[flow as usize].udp.as_ref();
                let p = self.generate(now, flow, source.expect("a UDP flow").payload_bytes);
                let src = p.src;
                self.forward(now, src, p);
                return true;
            }
        }
        false
    }

    /// `p` reached its destination at `now`; its last data frame was received at `at`
    /// (the delay of a UDP packet counts to there). A TCP segment goes to its endpoint,
    /// which acts when the exchange is over.
    pub(super) fn arrive(&mut self, now: Time, at: Time, p: Packet) {
        if self.deliver_external(now, &p) {
            return;
        }
        let node = p.dst;
        match p.kind {
            Kind::Udp => {
                self.trace(at, TraceEvent::Delivered { node }, &p);
                self.flows[p.flow as usize].on_delivered(&p, at - p.created, self.warmup);
            }
            Kind::Tcp => {
                self.trace(now, TraceEvent::Delivered { node }, &p);
                self.tcp_arrive(now, p)
            }
        }
    }

    pub(super) fn count_queue_drop(&mut self, p: &Packet) {
        self.forget(p);
        let f = &mut self.flows[p.flow as usize];
        f.acct[p.reverse as usize].dropped_queue += 1;
        f.stats.counts.dropped_queue += 1;
    }

    pub(super) fn count_scripted_drop(&mut self, p: &Packet) {
        self.forget(p);
        let f = &mut self.flows[p.flow as usize];
        f.acct[p.reverse as usize].dropped_scripted += 1;
        f.stats.counts.dropped_scripted += 1;
    }

    pub(super) fn count_retry_drop(&mut self, p: &Packet) {
        self.forget(p);
        let f = &mut self.flows[p.flow as usize];
        f.acct[p.reverse as usize].dropped_retry += 1;
        f.stats.counts.dropped_retry += 1;
    }

    pub(super) fn count_lifetime_drop(&mut self, p: &Packet) {
        self.forget(p);
        let f = &mut self.flows[p.flow as usize];
        f.acct[p.reverse as usize].dropped_lifetime += 1;
        f.stats.counts.dropped_lifetime += 1;
    }

    /// End of the warm-up: statistics restart from zero (accounting does not).
    pub(super) fn reset_statistics(&mut self, now: Time) {
        self.mac.reset_statistics(now);
        for f in &mut self.flows {
            f.stats.clear();
        }
        self.series.on_statistics_reset();
        if let Some(trace) = &mut self.trace {
            trace.on_statistics_reset();
        }
        self.tcp_reset_statistics();
    }
}
