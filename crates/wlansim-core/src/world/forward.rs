//! The network layer of every node: a packet arriving at a node is delivered there if the
//! node is its destination, and otherwise forwarded along the routes ([`crate::net::Routes`])
//! over the air (through the node's MAC) or on a wired link, unless a scripted loss
//! (`[[drops]]`, `drops.rs`) takes it as it leaves the node. An AP applies its mechanisms
//! (rwnd clamping, pilosof2003 §V; delay injection, fotiadis2005 Algorithm 1, which may
//! hold an ACK and send it on later) to the TCP packets it forwards. Under the ns2 profile a
//! packet handed to the MAC reaches its interface queue ns-2's link-layer delay later
//! (`MacRules::hand_down_delay`), but for a saturated source's own, whose queue never
//! empties (the source keeps it full), so that the delay before it would change no access.
use super::{Event, World};
use crate::mac::MacRules;
use crate::net::{Hop, Kind, NodeId, Packet, WireEvent};
use crate::sim::time::Time;
use crate::tcp::TS_TICK;
use crate::trace::{DropReason, TraceEvent};
use std::collections::VecDeque;

/// ns-2's link layer on the way down ([`MacRules::hand_down_delay`]): the packets handed to
/// a MAC and not yet in its interface queue, with the entity that queues each. One delay
/// for all, so they reach their queues in the order they were handed down.
pub(super) struct HandDown {
    /// None: a packet goes into the queue when it is handed down (the standard profile).
    delay: Option<Time>,
    pub(super) pending: VecDeque<(u32, Packet)>,
}

impl HandDown {
    pub(super) fn new(rules: MacRules) -> Self {
        HandDown {
            delay: rules.hand_down_delay(),
            pending: VecDeque::new(),
        }
    }
}

impl World {
    /// `p` reached node `node` at `now` (its data frame was received at `at`, the end of
    /// the exchange or of the wire being `now`).
    pub(super) fn receive(&mut self, now: Time, at: Time, node: NodeId, p: Packet) {
        if p.dst == node {
            self.arrive(now, at, p);
        } else {
            self.forward(now, node, p);
        }
    }

    /// Send `p` on from `node` (its source, or a node on its path).
    pub(super) fn forward(&mut self, now: Time, node: NodeId, mut p: Packet) {
        if let Some(drops) = &mut self.drops {
            if drops.hit(now, node, &p) {
                let reason = DropReason::Scripted;
                self.trace(now, TraceEvent::Dropped { node, reason }, &p);
                self.count_scripted_drop(&p);
                return;
            }
        }
        if p.kind == Kind::Tcp && node != p.src {
            self.ap_relay(now, node, &mut p);
            if p.reverse && self.hold_ack(now, node, &p) {
                return;
            }
        }
        self.send_on(now, node, p);
    }

    /// Route `p` on from `node`: over the air or a wired link.
    #[inline(always)]
    fn send_on(&mut self, now: Time, node: NodeId, mut p: Packet) {
        match self.routes.next_hop(node, p.dst) {
            Hop::Air(next) => {
                p.hop = next;
                let entity = self.packet_entity(node, &p);
                match self.hand_down.delay {
                    Some(delay) if !self.saturated[entity as usize].0.contains(&p.flow) => {
                        self.hand_down.pending.push_back((entity, p));
                        self.events.schedule(now + delay, Event::HandedDown);
                    }
                    _ => self.enqueue(now, entity, p),
                }
            }
            Hop::Wire(link) => match self.wires.send(now, link, p, &mut self.events) {
                Ok(start) => {
                    if self.trace.is_some() {
                        self.trace(now, TraceEvent::Enqueued { node }, &p);
                        if start == now {
                            self.trace_wire_start(now, link, &p);
                        } else {
                            let event = Event::Wire(WireEvent::TraceStart(link));
                            self.events.schedule(start, event);
                        }
                    }
                }
                Err(p) => {
                    let reason = DropReason::Queue;
                    self.trace(now, TraceEvent::Dropped { node, reason }, &p);
                    self.count_queue_drop(&p);
                }
            },
            Hop::Here | Hop::Unreachable => {
                unreachable!("routes are checked when the world is built")
            }
        }
    }

    /// The oldest packet handed down to a MAC reaches its interface queue
    /// ([`crate::mac::MacRules::hand_down_delay`]: one delay for all, so in the order they
    /// were handed down).
    pub(super) fn on_handed_down(&mut self, now: Time) {
        let (entity, p) = self
            .hand_down
            .pending
            .pop_front()
            .expect("one packet handed down per event");
        self.enqueue(now, entity, p);
    }

    /// Delay injection at AP `node` on the ACK `p` it forwards to a station: whether it
    /// holds it (the ACK leaves later, from [`World::release_held`]). pdelay is the time
    /// since the data segment the ACK echoes left its sender (timestamp echo, 1 ms tick).
    fn hold_ack(&mut self, now: Time, node: NodeId, p: &Packet) -> bool {
        let Some(Some(di)) = self.delay_injection.get_mut(node as usize) else {
            return false;
        };
        if !matches!(self.routes.next_hop(node, p.dst), Hop::Air(_)) {
            return false;
        }
        let pdelay = now.saturating_sub(p.seg.ts_ecr as Time * TS_TICK);
        let release = di.release_time(p.flow, now, pdelay);
        if release <= now {
            return false;
        }
        di.hold(now, node, release, *p, &mut self.events);
        true
    }

    /// The ACKs AP `ap` held that are due at `now` go on, in arrival order.
    pub(super) fn release_held(&mut self, now: Time, ap: NodeId) {
        while let Some(p) = self.delay_injection[ap as usize]
            .as_mut()
            .and_then(|di| di.pop_due(now))
        {
            self.send_on(now, ap, p);
        }
    }

    /// An AP forwards `p`: flow counting and rwnd clamping.
    fn ap_relay(&mut self, now: Time, node: NodeId, p: &mut Packet) {
        let Some(Some(clamp)) = self.rwnd_clamp.get_mut(node as usize) else {
            return;
        };
        clamp.observe(p.flow, now);
        if p.reverse {
            let mss = self.segment_size(p.flow);
            let clamp = self.rwnd_clamp[node as usize]
                .as_ref()
                .expect("checked above");
            p.seg.rwnd = clamp.clamp(now, p.seg.rwnd, mss);
        }
    }
}
