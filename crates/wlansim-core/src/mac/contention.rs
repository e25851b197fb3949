//! Who contends, and whose backoff expires first, at a cost per medium event that grows
//! with the logarithm of the number of channel-access entities, not with the number.
//!
//! Every entity hears the same busy and idle periods (one collision domain). After a busy
//! period that ends at T, an entity counts idle slots from T + AIFS after a correct
//! exchange, or from T + EIFS − DIFS + AIFS after an errored or collided one (9.3.7,
//! 9.19.2.3); which slot boundaries count depends only on that start and on the entity's
//! [`SlotRule`] (DCF 9.3.4.3, EDCA 9.19.2.3). So the entities with the same AIFS and slot
//! rule — a *class* — count the same number of slots in every idle period:
//! - each class keeps a clock: the slots its members counted over all past idle periods,
//!   advanced once per grant by [`SlotRule::counted`] (what [`Backoff::freeze`] subtracts
//!   from each member);
//! - a member that joins its class with counter k while the clock reads S stores the key
//!   k + S; its counter at any later time is max(0, key − clock), so freezing touches no
//!   counter, and the member with the smallest key expires first;
//! - the pending members with a frame (*armed*) are in a ring of buckets indexed by key:
//!   an armed member's counter stays within [0, CWmax], so every armed key is within one
//!   ring length of the clock and the first occupied bucket from the clock holds the
//!   earliest expiry (an insertion O(1), a grant's removal of a whole bucket O(1) a
//!   member, the search a few bitmap words; a member removed alone walks its bucket);
//! - the pending members without a frame (post-backoff, 9.3.4.3), whose counters may stop
//!   at zero below the clock, are in a min-heap on the key, from which a grant removes
//!   those whose counter reached zero once their countdown had started;
//! - an entity whose countdown start is its own — a transmitter of a failed exchange
//!   (ACKTimeout/CTSTimeout then AIFS, 9.3.2.8), or one given immediate access or sending
//!   a post-backoff that ran out — is kept *aside* with its own [`Backoff`] fields; the
//!   next grant freezes it as `Backoff::freeze` does and folds it into its class, whose
//!   countdown start the end of that busy period gives it again;
//! - the failed transmitters of an exchange whose own countdown start comes before their
//!   class's (the standard's ACKTimeout then AIFS, against EIFS − DIFS + AIFS after the
//!   medium's end) join the class's ring at once when the medium turns idle, their keys
//!   less the whole slots between the two starts: the key the next grant would give them
//!   when it comes at a slot boundary of the class's countdown. A grant at another time
//!   puts them aside first ([`Early`]);
//! - the transmitters of the exchange in progress are *out* until the medium turns idle.
//!
//! For entities aside or out the `Backoff` fields `counter` and `countdown_start` hold the
//! state; for the others this structure does ([`Contention::counter`],
//! [`Contention::countdown_start`]). A grant costs O(classes + aside + transmitters) plus
//! O(log n) per completed post-backoff, a frame arrival O(log n) at most (or, for an
//! armed entity, the length of its bucket), the end of an
//! exchange O(classes + transmitters). Storage is allocated once.
use super::backoff::Busy;
use super::eifs::EifsStart;
use super::ns2::ShortCount;
use super::{Backoff, Entity, SlotRule};
use crate::sim::time::Time;

/// Where an entity's backoff state is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// No backoff pending; its countdown start is its class's.
    Idle,
    /// Pending, with a frame: in its class's armed ring.
    Armed,
    /// Pending, no frame (post-backoff): in its class's post heap.
    Post,
    /// Its own countdown start: in `aside`, the `Backoff` fields hold the state.
    Aside,
    /// Transmitting in the exchange in progress: the `Backoff` fields hold the state.
    Out,
}

/// The entities with one AIFS and one slot rule.
struct Class {
    aifs: Time,
    /// EIFS − DIFS + AIFS (9.3.7, 9.19.2.3).
    eifs: Time,
    rule: SlotRule,
    /// Where the members count idle slots from in the current idle period.
    countdown_start: Time,
    /// Slots counted by the members over all past idle periods.
    clock: u64,
    armed: KeyRing,
    post: KeyHeap,
    /// The failed transmitters of the last exchange that joined `armed` at once
    /// ([`Contention::set_aside`]).
    early: Early,
}

/// Failed transmitters of one exchange that share a countdown start of their own
/// (ACKTimeout, then AIFS, after their frame: 9.3.2.8) earlier than their class's, put
/// into the class's ring when the medium turns idle instead of being kept aside.
///
/// The class's start is `slots` whole slots and a part of one after theirs. At the next
/// grant at t such a member, with counter k, counts n_own slots against its start, the
/// class n slots against its own, and it joins the class with key k − n_own + clock + n.
/// When n_own − n = `slots` — every grant at a slot boundary of the class's countdown
/// (another member's expiry), and the grants between the end of their `slots`-th slot and
/// the class's start — that key is k − `slots` + clock, known when the medium turns idle:
/// they are in the ring with it already, and the grant touches none of them. Any other
/// grant (one of theirs expires, or some entity's at another time) first takes them back
/// aside with their own counters, and handles them as any entity aside
/// ([`Contention::grant`]). Only members with k > `slots` join (keys above the clock): the
/// others may expire before the class's start.
struct Early {
    /// Their countdown start (`Time::MAX`: no group since the last grant).
    start: Time,
    slots: u64,
    members: Listed,
}

impl Default for Early {
    fn default() -> Self {
        Early {
            start: Time::MAX,
            slots: 0,
            members: Listed::default(),
        }
    }
}

/// A list of entities with room for all the members of a class, made once: adding one has
/// no path that grows it, so the collided pass ([`Contention::set_aside`]) keeps the list
/// in registers rather than in memory around a call.
#[derive(Default)]
struct Listed {
    room: Box<[u32]>,
    len: usize,
}

impl Listed {
    fn with_room(n: usize) -> Listed {
        Listed {
            room: vec![0; n].into_boxed_slice(),
            len: 0,
        }
    }

    #[inline]
    fn as_slice(&self) -> &[u32] {
        &self.room[..self.len]
    }

    #[inline(always)]
    fn push(&mut self, e: u32) {
        self.room[self.len] = e;
        self.len += 1;
    }

    /// Remove `e`, keeping the others in order.
    fn remove(&mut self, e: u32) {
        if let Some(i) = self.as_slice().iter().position(|&m| m == e) {
            self.room.copy_within(i + 1..self.len, i);
            self.len -= 1;
        }
    }

    #[inline]
    fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Class {
    /// Whether armed member `e` is one of the early group's.
    #[inline]
    fn is_early(&self, e: u32) -> bool {
        self.early.members.as_slice().contains(&e)
    }

    #[inline]
    fn counter(&self, key: u64) -> u32 {
        key.saturating_sub(self.clock) as u32
    }

    #[inline]
    fn expiry(&self, key: u64, slot: Time) -> Time {
        self.countdown_start + self.counter(key) as Time * slot
    }
}

/// What the structure keeps of one entity on the path of every grant, together in 16
/// bytes: a grant that takes, sets aside or rejoins an entity touches one cache line of
/// this array for it, not one in each of three arrays (a cell of thousands of stations
/// keeps few in cache).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
struct Member {
    /// While armed: its key, and the next member of its bucket (`NONE`: none).
    key: u64,
    next: u32,
    class: u16,
    place: Place,
}

impl Member {
    fn new(class: u16) -> Member {
        Member {
            key: 0,
            next: NONE,
            class,
            place: Place::Idle,
        }
    }
}

pub(crate) struct Contention {
    classes: Vec<Class>,
    members: Vec<Member>,
    /// Index of each post heap member in its heap.
    pos: Vec<u32>,
    aside: Vec<u32>,
    /// The earliest expiry among the entities aside that are pending with a frame
    /// (`Time::MAX`: none). Exact without a scan: until the next grant empties `aside`, an
    /// entity aside neither leaves it nor loses its frame, and its expiry changes only
    /// through [`Contention::restore`].
    aside_earliest: Time,
    slot: Time,
}

impl Contention {
    /// `eifs(aifs)`: EIFS − DIFS + AIFS. Every entity starts idle at time 0.
    pub fn new(entities: &[Entity], slot: Time, eifs: impl Fn(Time) -> Time) -> Contention {
        let mut classes: Vec<Class> = Vec::new();
        // Members and the largest counter a member can draw (CW never exceeds them).
        let mut sizes: Vec<(usize, u32)> = Vec::new();
        let members = entities
            .iter()
            .map(|e| {
                let (aifs, rule) = (e.params.aifs, e.backoff.rule);
                let c = match classes
                    .iter()
                    .position(|c| c.aifs == aifs && c.rule == rule)
                {
                    Some(c) => c,
                    None => {
                        classes.push(Class {
                            aifs,
                            eifs: eifs(aifs),
                            rule,
                            countdown_start: 0,
                            clock: 0,
                            armed: KeyRing::default(),
                            post: KeyHeap::default(),
                            early: Early::default(),
                        });
                        sizes.push((0, 0));
                        classes.len() - 1
                    }
                };
                let cw = e.params.cw_min.max(e.params.cw_max).max(e.backoff.cw);
                sizes[c] = (sizes[c].0 + 1, sizes[c].1.max(cw));
                Member::new(u16::try_from(c).expect("fewer than 65536 (AIFS, slot rule) classes"))
            })
            .collect();
        for (c, &(n, cw)) in classes.iter_mut().zip(&sizes) {
            c.armed = KeyRing::new(cw);
            c.post.items.reserve_exact(n);
            c.early.members = Listed::with_room(n);
        }
        let n = entities.len();
        Contention {
            classes,
            members,
            pos: vec![0; n],
            aside: Vec::with_capacity(n),
            aside_earliest: Time::MAX,
            slot,
        }
    }

    #[inline]
    fn class(&self, e: u32) -> &Class {
        &self.classes[self.members[e as usize].class as usize]
    }

    /// Entity `e`'s counter: slots left after the last grant's freeze.
    pub fn counter(&self, e: u32, b: &Backoff) -> u32 {
        let c = self.class(e);
        let key = self.members[e as usize].key;
        match self.members[e as usize].place {
            Place::Armed if c.is_early(e) => (key - c.clock + c.early.slots) as u32,
            Place::Armed => c.counter(key),
            Place::Post => c.counter(c.post.key_of(e, &self.pos)),
            Place::Idle | Place::Aside | Place::Out => b.counter,
        }
    }

    /// Entity `e`'s countdown start.
    pub fn countdown_start(&self, e: u32, b: &Backoff) -> Time {
        let c = self.class(e);
        match self.members[e as usize].place {
            Place::Aside | Place::Out => b.countdown_start,
            Place::Armed if c.is_early(e) => c.early.start,
            Place::Idle | Place::Armed | Place::Post => c.countdown_start,
        }
    }

    /// Detach `e` from its class before its `Backoff` is read or changed directly: the
    /// fields get the state this structure held. Entities aside or out stay so.
    pub fn take(&mut self, e: u32, b: &mut Backoff) {
        let c = &mut self.classes[self.members[e as usize].class as usize];
        let key = match self.members[e as usize].place {
            Place::Armed if c.is_early(e) => {
                // Aside again, with its own counter and start (kept in order).
                c.early.members.remove(e);
                let key = c.armed.remove(e, &mut self.members);
                b.counter = (key - c.clock + c.early.slots) as u32;
                b.countdown_start = c.early.start;
                self.members[e as usize].place = Place::Aside;
                self.aside.push(e);
                return;
            }
            Place::Armed => c.armed.remove(e, &mut self.members),
            Place::Post => c.post.remove(e, &mut self.pos),
            Place::Idle => {
                b.countdown_start = c.countdown_start;
                return;
            }
            Place::Aside | Place::Out => return,
        };
        b.counter = c.counter(key);
        b.countdown_start = c.countdown_start;
        self.members[e as usize].place = Place::Idle;
    }

    /// Put `e` back after [`Contention::take`]: aside if it was, or if `own_start` (its
    /// countdown start was set to its own), else into its class. An entity out stays out.
    pub fn restore(&mut self, e: u32, ent: &Entity, own_start: bool) {
        match self.members[e as usize].place {
            Place::Out => {}
            Place::Aside => self.note_aside(ent),
            Place::Idle if own_start => {
                self.members[e as usize].place = Place::Aside;
                self.aside.push(e);
                self.note_aside(ent);
            }
            Place::Idle => self.join(e, ent),
            Place::Armed | Place::Post => unreachable!("restore without take"),
        }
    }

    /// Entity `e` (idle, out, or aside and just frozen by a grant) counts with its class
    /// from now on: its `Backoff` counter is the one left after the last grant, and its
    /// countdown start will be the class's. (Inlined: a grant rejoins every transmitter of
    /// the collision before it.)
    #[inline(always)]
    pub fn join(&mut self, e: u32, ent: &Entity) {
        debug_assert!(matches!(
            self.members[e as usize].place,
            Place::Idle | Place::Out | Place::Aside
        ));
        let c = &mut self.classes[self.members[e as usize].class as usize];
        let b = &ent.backoff;
        let place = if !b.pending {
            Place::Idle
        } else {
            let key = b.counter as u64 + c.clock;
            if !ent.has_frame() {
                c.post.push(key, e, &mut self.pos);
                Place::Post
            } else {
                c.armed.insert(e, key, c.clock, &mut self.members);
                Place::Armed
            }
        };
        self.members[e as usize].place = place;
    }

    /// Transmitters of the exchange that just ended (out) are aside: their countdown
    /// starts are their own (ACK/CTS timeout). Those that can join their class's ring at
    /// once do ([`Early`]): pending with a frame, their own countdown start the class's
    /// early group's (or, the group empty, before the class's), their counter above the
    /// group's whole slots. `settle` is applied to each first (its failure settled, when
    /// the medium turns idle as the exchange ends: [`super::Shared::exchange_end`]).
    ///
    /// What a transmitter is placed by — the class's clock and start, its early group, its
    /// ring — is read once for each run of transmitters of one class (a collision's in a
    /// DCF cell: one run) and written back once: in locals, the writes to the entities and
    /// to the ring do not make the compiler read it again for every transmitter.
    #[inline(always)]
    pub fn set_aside(
        &mut self,
        transmitters: &[u32],
        entities: &mut [Entity],
        mut settle: impl FnMut(&mut Entity),
    ) {
        let Contention {
            classes,
            members,
            aside,
            aside_earliest,
            slot,
            ..
        } = self;
        let (members, slot) = (&mut members[..], *slot);
        // (One record per entity: a member's index checked, its entity's needs no check.)
        let entities = &mut entities[..members.len()];
        let mut earliest = *aside_earliest;
        let mut aside_list = std::mem::take(aside);
        let mut i = 0;
        while i < transmitters.len() {
            let class = members[transmitters[i] as usize].class;
            let c = &mut classes[class as usize];
            let (clock, class_start) = (c.clock, c.countdown_start);
            let (mut early_start, mut early_slots) = (c.early.start, c.early.slots);
            let mut early = std::mem::take(&mut c.early.members);
            let before = early.len;
            // The smallest counter that joins early (their expiry counts from their own
            // start, `early_start`: the earliest of theirs is worked out once).
            let mut early_counter = u64::MAX;
            let mut ring = c.armed.slots();
            while i < transmitters.len() {
                let e = transmitters[i];
                let m = &mut members[e as usize];
                if m.class != class {
                    break;
                }
                i += 1;
                debug_assert_eq!(m.place, Place::Out);
                let ent = &mut entities[e as usize];
                settle(ent);
                let b = &ent.backoff;
                if b.pending && ent.has_frame() {
                    if early.is_empty() && b.countdown_start < class_start {
                        early_start = b.countdown_start;
                        early_slots = (class_start - b.countdown_start) / slot;
                    }
                    let counter = b.counter as u64;
                    if b.countdown_start == early_start && counter > early_slots {
                        ring.insert(e, counter - early_slots + clock, clock, m);
                        m.place = Place::Armed;
                        early.push(e);
                        early_counter = early_counter.min(counter);
                        continue;
                    }
                    earliest = earliest.min(b.expiry(slot));
                }
                m.place = Place::Aside;
                aside_list.push(e);
            }
            if early_counter < u64::MAX {
                earliest = earliest.min(early_start + early_counter as Time * slot);
            }
            c.armed.members += (early.len - before) as u32;
            c.early = Early {
                start: early_start,
                slots: early_slots,
                members: early,
            };
        }
        *aside = aside_list;
        *aside_earliest = earliest;
    }

    /// Recompute `aside_earliest` after a test set an entity's backoff by hand.
    #[cfg(test)]
    pub fn rescan_aside(&mut self, entities: &[Entity]) {
        self.aside_earliest = Time::MAX;
        for i in 0..self.aside.len() {
            self.note_aside(&entities[self.aside[i] as usize]);
        }
    }

    #[inline]
    fn note_aside(&mut self, ent: &Entity) {
        if ent.backoff.pending && ent.has_frame() {
            let at = ent.backoff.expiry(self.slot);
            self.aside_earliest = self.aside_earliest.min(at);
        }
    }

    /// The earliest backoff expiry among the entities pending with a frame. (Inlined into
    /// its one caller, the scheduling of the next grant: docs/benchmarks.md, "The speed
    /// cell's run".)
    #[inline]
    pub fn earliest(&self, entities: &[Entity]) -> Option<Time> {
        let slot = self.slot;
        debug_assert_eq!(
            self.aside_earliest,
            self.aside
                .iter()
                .map(|&e| &entities[e as usize])
                .filter(|ent| ent.backoff.pending && ent.has_frame())
                .map(|ent| ent.backoff.expiry(slot))
                .chain(self.classes.iter().flat_map(|c| {
                    c.early.members.as_slice().iter().map(move |&e| {
                        let counter = self.members[e as usize].key - c.clock + c.early.slots;
                        c.early.start + counter as Time * slot
                    })
                }))
                .min()
                .unwrap_or(Time::MAX)
        );
        // A loop rather than an iterator chain: the chain's fold was left out of line in
        // some builds (+12 instructions per event at 20 stations, branch `hdr`).
        let mut earliest = self.aside_earliest;
        for c in &self.classes {
            if let Some(key) = c.armed.min_key(c.clock) {
                earliest = earliest.min(c.expiry(key, slot));
            }
        }
        (earliest < Time::MAX).then_some(earliest)
    }

    /// The medium turns busy at `now`: the entities pending with a frame whose backoff
    /// expires now go into `transmitters` (in no particular order: the caller sorts them
    /// when their order matters) and are out; every other
    /// pending entity freezes (9.3.4.3), and a post-backoff that reached zero after its
    /// countdown started is over. `short`: the entities that count fewer slots under
    /// ns-2's rules ([`ShortCount`]). `taken` is applied to each transmitter.
    #[inline(always)]
    pub fn grant(
        &mut self,
        now: Time,
        entities: &mut [Entity],
        transmitters: &mut Vec<u32>,
        short: Option<ShortCount>,
        mut taken: impl FnMut(&mut Entity),
    ) {
        let slot = self.slot;
        for c in &mut self.classes {
            // The early members' keys hold if they counted the group's whole slots more
            // than the class (a grant under ns-2's short count: never); else they are
            // aside again, with their own counters, and freeze below.
            if !c.early.members.is_empty() {
                let counted = |start| c.rule.counted(start, now, slot);
                let hold = short.is_none()
                    && counted(c.early.start) - counted(c.countdown_start) == c.early.slots as Time;
                if !hold {
                    // In the reverse order of their insertion, each is the first of its
                    // bucket when it leaves (nothing joins between): no bucket walked.
                    for &e in c.early.members.as_slice().iter().rev() {
                        let key = c.armed.remove(e, &mut self.members);
                        let b = &mut entities[e as usize].backoff;
                        b.counter = (key - c.clock + c.early.slots) as u32;
                        b.countdown_start = c.early.start;
                        self.members[e as usize].place = Place::Aside;
                        self.aside.push(e);
                    }
                }
                c.early.members.clear();
            }
            c.early.start = Time::MAX;
            // Every member with the smallest key expires now or none does; a bucket holds
            // one key (every key is within one ring length of the clock), so it is taken
            // whole.
            if let Some(key) = c.armed.min_key(c.clock) {
                if c.expiry(key, slot) == now {
                    let (counter, start) = (c.counter(key), c.countdown_start);
                    // (One record per entity: a member's index checked, its entity's
                    // needs no check.)
                    let entities = &mut entities[..self.members.len()];
                    c.armed.take_bucket(key, &mut self.members, |e| {
                        let ent = &mut entities[e as usize];
                        ent.backoff.counter = counter;
                        ent.backoff.countdown_start = start;
                        taken(ent);
                        transmitters.push(e);
                    });
                }
            }
            // Every member freezes: the slots counted in this idle period.
            c.clock += c.rule.counted(c.countdown_start, now, slot);
            if c.countdown_start <= now {
                while let Some((key, e)) = c.post.peek() {
                    if key > c.clock {
                        break;
                    }
                    c.post.remove(e, &mut self.pos);
                    entities[e as usize].backoff.pending = false; // post-backoff complete
                    self.members[e as usize].place = Place::Idle;
                }
            }
            // Counters left above zero keep the slots ns-2 did not count (keys above the
            // clock by at least k − n + 1: every member left had more than k).
            if let Some(s) = short.filter(|s| s.countdown_start == c.countdown_start) {
                c.clock -= s.k - s.n;
            }
        }
        // The entities aside freeze against their own countdown start, which the
        // transmitters of one collision share: worked out once per start.
        let mut busy = Busy::new(Time::MAX, SlotRule::Dcf, now, slot);
        for i in 0..self.aside.len() {
            let e = self.aside[i];
            let ent = &mut entities[e as usize];
            let has_frame = ent.has_frame();
            if !busy.applies_to(&ent.backoff) {
                busy = Busy::of(&ent.backoff, now, slot);
            }
            let before = ent.backoff.counter;
            if ent.backoff.on_busy_by(has_frame, &busy) {
                self.members[e as usize].place = Place::Out;
                taken(ent);
                transmitters.push(e);
                continue;
            }
            ent.backoff.recount(before, short);
            self.join(e, &entities[e as usize]);
        }
        self.aside.clear();
        self.aside_earliest = Time::MAX;
    }

    /// The medium turns idle at `end`: every class counts from AIFS after it when the last
    /// frame was received correctly, else from EIFS − DIFS + AIFS after it, or after
    /// `errored`, where the reception in error ended, by the `eifs` rule (9.3.7, 9.19.2.3;
    /// `mac/eifs.rs`).
    pub fn idle_from(&mut self, end: Time, errored: Option<Time>, eifs: EifsStart) {
        for c in &mut self.classes {
            c.countdown_start = match errored {
                None => end + c.aifs,
                Some(at) => eifs.countdown_start(at, end, c.eifs - c.aifs, c.aifs),
            };
        }
    }
}

const NONE: u32 = u32::MAX;

/// Keys in [clock, clock + len) by bucket `key mod len`, each bucket a list linked through
/// the members' `next`, with a bitmap of the occupied buckets. `len` is a power of two
/// above the largest counter a member can have. Singly linked: an insertion writes the
/// member alone, not its bucket neighbour as well (a collided station of a crowded cell
/// rejoins at every collision), and the members of a bucket leave together at a grant;
/// a member that leaves alone ([`Contention::take`] of an armed entity, which the
/// entities of a saturated cell never are: it has a frame) walks its bucket.
#[derive(Default)]
struct KeyRing {
    heads: Vec<u32>,
    occupied: Vec<u64>,
    members: u32,
}

impl KeyRing {
    fn new(max_counter: u32) -> KeyRing {
        let len = (max_counter as usize + 1).next_power_of_two().max(64);
        KeyRing {
            heads: vec![NONE; len],
            occupied: vec![0; len / 64],
            members: 0,
        }
    }

    #[inline]
    fn mask(&self) -> u64 {
        self.heads.len() as u64 - 1
    }

    #[inline(always)]
    fn insert(&mut self, e: u32, key: u64, clock: u64, members: &mut [Member]) {
        self.slots().insert(e, key, clock, &mut members[e as usize]);
        self.members += 1;
    }

    /// The buckets and their bitmap, to insert into without counting the members (the
    /// caller adds them to `members`).
    #[inline(always)]
    fn slots(&mut self) -> Buckets<'_> {
        Buckets {
            mask: self.mask(),
            heads: &mut self.heads,
            occupied: &mut self.occupied,
        }
    }

    /// Remove member `e`; its key.
    fn remove(&mut self, e: u32, members: &mut [Member]) -> u64 {
        let (key, next) = (members[e as usize].key, members[e as usize].next);
        let b = (key & self.mask()) as usize;
        if self.heads[b] == e {
            self.heads[b] = next;
        } else {
            let mut prev = self.heads[b];
            while members[prev as usize].next != e {
                prev = members[prev as usize].next;
            }
            members[prev as usize].next = next;
        }
        if self.heads[b] == NONE {
            self.occupied[b / 64] &= !(1 << (b % 64));
        }
        self.members -= 1;
        key
    }

    /// Remove every member with `key` (the ring holds one), handing each to `f`: they
    /// are out (transmitting).
    #[inline]
    fn take_bucket(&mut self, key: u64, members: &mut [Member], mut f: impl FnMut(u32)) {
        let b = (key & self.mask()) as usize;
        let mut e = std::mem::replace(&mut self.heads[b], NONE);
        self.occupied[b / 64] &= !(1 << (b % 64));
        let mut taken = 0;
        while e != NONE {
            taken += 1;
            let m = &mut members[e as usize];
            m.place = Place::Out;
            let next = m.next;
            f(e);
            e = next;
        }
        self.members -= taken;
    }

    /// The smallest key, every key being in [clock, clock + len).
    fn min_key(&self, clock: u64) -> Option<u64> {
        if self.members == 0 {
            return None;
        }
        let mask = self.mask();
        let start = (clock & mask) as usize;
        let words = self.occupied.len();
        // The clock's word from the clock's bucket on, the other words in ring order, then
        // the clock's word again for the buckets below the clock's (the largest keys).
        let mut w = start / 64;
        let mut bits = self.occupied[w] & (!0u64 << (start % 64));
        for _ in 0..=words {
            if bits != 0 {
                let b = w * 64 + bits.trailing_zeros() as usize;
                return Some(clock + (b.wrapping_sub(start) as u64 & mask));
            }
            w = (w + 1) % words;
            bits = self.occupied[w];
        }
        unreachable!("an occupied bucket")
    }
}

/// A [`KeyRing`]'s buckets and bitmap, borrowed apart from its count of members.
struct Buckets<'a> {
    mask: u64,
    heads: &'a mut [u32],
    occupied: &'a mut [u64],
}

impl Buckets<'_> {
    /// Member `e` (its record `m`) goes into the bucket of `key`, first.
    #[inline(always)]
    fn insert(&mut self, e: u32, key: u64, clock: u64, m: &mut Member) {
        // (key < clock wraps above the mask.)
        assert!(
            key.wrapping_sub(clock) <= self.mask,
            "an armed counter is within [0, CW]"
        );
        let b = (key & self.mask) as usize;
        m.key = key;
        m.next = self.heads[b];
        self.heads[b] = e;
        self.occupied[b / 64] |= 1 << (b % 64);
    }
}

/// A 4-ary min-heap of (key, entity) ordered by key alone, from which any entity can be
/// removed: `pos[e]` is the index of entity `e` in the heap that holds it (an entity is in
/// one heap at most). Equal keys come out in no particular order: the grant takes every
/// entity of the earliest expiry. Four children per node halve the depth of
/// a binary heap, and the four share a cache line.
#[derive(Default)]
struct KeyHeap {
    items: Vec<(u64, u32)>,
}

const ARITY: usize = 4;

impl KeyHeap {
    #[inline]
    fn peek(&self) -> Option<(u64, u32)> {
        self.items.first().copied()
    }

    #[inline]
    fn key_of(&self, e: u32, pos: &[u32]) -> u64 {
        self.items[pos[e as usize] as usize].0
    }

    fn push(&mut self, key: u64, e: u32, pos: &mut [u32]) {
        debug_assert!(self.items.len() < self.items.capacity(), "preallocated");
        self.items.push((key, e));
        self.sift_up(self.items.len() - 1, pos);
    }

    /// Remove entity `e`; its key.
    fn remove(&mut self, e: u32, pos: &mut [u32]) -> u64 {
        let i = pos[e as usize] as usize;
        let key = self.items[i].0;
        let last = self.items.pop().expect("e is in this heap");
        if i < self.items.len() {
            self.items[i] = last;
            if last.0 < key {
                self.sift_up(i, pos);
            } else {
                self.sift_down(i, pos);
            }
        }
        key
    }

    fn sift_up(&mut self, mut i: usize, pos: &mut [u32]) {
        let item = self.items[i];
        while i > 0 {
            let parent = (i - 1) / ARITY;
            if self.items[parent].0 <= item.0 {
                break;
            }
            self.items[i] = self.items[parent];
            pos[self.items[i].1 as usize] = i as u32;
            i = parent;
        }
        self.items[i] = item;
        pos[item.1 as usize] = i as u32;
    }

    fn sift_down(&mut self, mut i: usize, pos: &mut [u32]) {
        let item = self.items[i];
        let n = self.items.len();
        loop {
            let first = ARITY * i + 1;
            if first >= n {
                break;
            }
            let mut child = first;
            for c in first + 1..(first + ARITY).min(n) {
                if self.items[c].0 < self.items[child].0 {
                    child = c;
                }
            }
            if item.0 <= self.items[child].0 {
                break;
            }
            self.items[i] = self.items[child];
            pos[self.items[i].1 as usize] = i as u32;
            i = child;
        }
        self.items[i] = item;
        pos[item.1 as usize] = i as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::{Rng, StreamKind};

    #[test]
    fn key_ring_finds_the_smallest_key_as_the_clock_advances() {
        let mut rng = Rng::named(8, StreamKind::Backoff, "ring");
        let (n, cw) = (100u32, 200u32);
        let mut links = vec![Member::new(0); n as usize];
        let mut ring = KeyRing::new(cw);
        assert_eq!(ring.heads.len(), 256);
        let mut model: Vec<(u64, u32)> = Vec::new();
        let mut clock = 0u64;
        for _ in 0..20_000 {
            let e = rng.uniform_inclusive(n - 1);
            if let Some(i) = model.iter().position(|&(_, m)| m == e) {
                let (key, _) = model.swap_remove(i);
                assert_eq!(ring.remove(e, &mut links), key);
            } else {
                let key = clock + rng.uniform_inclusive(cw) as u64;
                ring.insert(e, key, clock, &mut links);
                model.push((key, e));
            }
            let min = model.iter().map(|&(key, _)| key).min();
            assert_eq!(ring.min_key(clock), min);
            if let Some(min) = min {
                let mut taken = Vec::new();
                ring.take_bucket(min, &mut links, |e| taken.push(e));
                let mut with_min: Vec<u32> = model
                    .iter()
                    .filter(|&&(key, _)| key == min)
                    .map(|&(_, e)| e)
                    .collect();
                with_min.sort_unstable();
                taken.sort_unstable();
                assert_eq!(
                    taken, with_min,
                    "the bucket holds every member with the key"
                );
                for &e in &taken {
                    ring.insert(e, min, clock, &mut links);
                }
                // The clock never passes an armed key (see the module doc).
                clock += rng.uniform_inclusive((min - clock) as u32) as u64;
            }
        }
    }

    #[test]
    fn key_heap_orders_and_removes_any_member() {
        let mut rng = Rng::named(7, StreamKind::Backoff, "heap");
        let n = 200;
        let mut pos = vec![0; n];
        let mut heap = KeyHeap::default();
        heap.items.reserve_exact(n);
        let mut model: Vec<(u64, u32)> = Vec::new();
        for step in 0..5000 {
            let e = rng.uniform_inclusive(n as u32 - 1);
            if let Some(i) = model.iter().position(|&(_, m)| m == e) {
                let (key, _) = model.swap_remove(i);
                assert_eq!(heap.remove(e, &mut pos), key);
            } else {
                let key = rng.uniform_inclusive(50) as u64;
                heap.push(key, e, &mut pos);
                model.push((key, e));
            }
            if step % 7 == 0 {
                let min = model.iter().map(|&(key, _)| key).min();
                assert_eq!(heap.peek().map(|(key, _)| key), min);
            }
            for &(key, m) in &model {
                assert_eq!(heap.key_of(m, &pos), key);
            }
        }
        model.sort_unstable();
        for &(key, _) in &model {
            let (top, e) = heap.peek().expect("not empty yet");
            assert_eq!(top, key);
            heap.remove(e, &mut pos);
        }
        assert!(heap.peek().is_none());
    }
}
