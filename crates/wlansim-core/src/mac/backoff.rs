//! Binary exponential backoff with freeze/resume computed analytically (9.3.4.3).
//!
//! No event per slot: an entity stores its remaining slot count and the time from which
//! slots count (`countdown_start`, the end of DIFS/AIFS/EIFS after the last busy period).
//! When the medium turns busy at `t`, the slots that fully elapsed are subtracted
//! ([`Backoff::freeze`]); the expiry time is `countdown_start + counter · slot`.
//! `mac::contention` applies the same count ([`SlotRule::counted`]) to whole classes of
//! entities at once.
//!
//! DCF and EDCA differ in which slot boundaries count ([`SlotRule`]).
use super::ns2::{MacRules, ShortCount};
use crate::sim::rng::Rng;
use crate::sim::time::Time;

/// Largest contention window: ECWmin/ECWmax are 4-bit exponents, CW = 2^ECW − 1
/// (802.11-2012 8.4.2.31); the PHY's aCWmax is 1023.
pub const MAX_CW: u32 = 32767;

/// A contention window is 2^k − 1, at most [`MAX_CW`] (the binary exponential backoff
/// doubles CW + 1, 9.3.4.3).
pub fn is_contention_window(cw: u32) -> bool {
    (cw + 1).is_power_of_two() && cw <= MAX_CW
}

/// Which idle slot boundaries decrement the backoff counter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SlotRule {
    /// DCF (9.3.4.3): the counter decrements at the end of each idle slot after DIFS.
    #[default]
    Dcf = 0,
    /// EDCA (9.19.2.3): at each slot boundary the EDCAF does exactly one of decrement,
    /// transmit, or invoke backoff after an internal collision; the first boundary is the
    /// end of AIFS[AC] itself. So the counter also decrements at the AIFS boundary: one
    /// decrement more than DCF in every idle period that ends in another station's
    /// transmission (ns-3 `ChannelAccessManager::UpdateBackoff` does the same). An
    /// uninterrupted countdown of k slots still ends k slots after AIFS (k − 1 decrements
    /// after the first one, then the transmission at the next boundary).
    Edca = 1,
}

impl SlotRule {
    /// The slot boundaries a countdown that started at `countdown_start` has counted when
    /// the medium turns busy at `t`: the idle slots that fully elapsed, plus the end of AIFS
    /// itself under EDCA; none if `t` is before `countdown_start`.
    #[inline]
    pub fn counted(self, countdown_start: Time, t: Time, slot: Time) -> Time {
        if t < countdown_start {
            return 0;
        }
        (t - countdown_start) / slot + self as Time
    }
}

/// The medium turns busy at `t`, seen from a countdown that started at `start` under
/// `rule`: what [`Backoff::on_busy`] works out for an entity, worked out once for every
/// entity that shares the start and rule (the transmitters of a collision, set aside with
/// one countdown start of their own, freeze together at the next grant).
#[derive(Clone, Copy, Debug)]
pub struct Busy {
    start: Time,
    rule: SlotRule,
    /// The countdown has started: `t` is at or after `start`.
    started: bool,
    /// The slot boundaries counted ([`SlotRule::counted`]).
    counted: Time,
    /// The counter that reaches zero exactly at `t` (`Time::MAX`: none, `t` is no slot
    /// boundary of the countdown).
    expiring: Time,
}

impl Busy {
    #[inline]
    pub fn new(start: Time, rule: SlotRule, t: Time, slot: Time) -> Busy {
        let started = t >= start;
        let on_boundary = started && (t - start).is_multiple_of(slot);
        Busy {
            start,
            rule,
            started,
            counted: rule.counted(start, t, slot),
            expiring: if on_boundary {
                (t - start) / slot
            } else {
                Time::MAX
            },
        }
    }

    /// The medium turns busy at `t` for backoff `b`.
    #[inline]
    pub fn of(b: &Backoff, t: Time, slot: Time) -> Busy {
        Busy::new(b.countdown_start, b.rule, t, slot)
    }

    /// Whether this is what the medium turning busy is for backoff `b` (same start, same
    /// rule).
    #[inline]
    pub fn applies_to(&self, b: &Backoff) -> bool {
        b.countdown_start == self.start && b.rule == self.rule
    }
}

/// One entity's backoff. While the entity counts with the others of its class, `counter`
/// and `countdown_start` are held by `mac::contention` (which reads and writes them back
/// when the entity leaves its class); `Mac::backoff_counter` and `Mac::countdown_start`
/// give the current values at any time.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct Backoff {
    /// Time from which idle slots count (end of the IFS that follows the last busy period).
    pub countdown_start: Time,
    /// Slots left to count down.
    pub counter: u32,
    /// The counter as last drawn (ns-2's arithmetic,
    /// [`MacRules::slots_counted_after_own_frame`]).
    pub drawn: u32,
    /// Current contention window CW; the counter is drawn uniformly from [0, CW].
    pub cw: u32,
    /// Short and long retry counters (SRC, LRC; 9.3.4.4).
    pub short_retries: u32,
    pub long_retries: u32,
    /// A backoff is in progress (counting or frozen). After the counter reaches zero with
    /// nothing to send, this is false and the entity may transmit at once on the next
    /// arrival if the medium has been idle for its AIFS.
    pub pending: bool,
    pub rule: SlotRule,
    /// Range of the draw (standard [0, CW], ns-2 [0, CW − 1]).
    pub rules: MacRules,
    rng: Rng,
}

impl Backoff {
    pub fn new(cw_min: u32, rng: Rng) -> Self {
        Backoff {
            cw: cw_min,
            counter: 0,
            drawn: 0,
            pending: false,
            countdown_start: 0,
            short_retries: 0,
            long_retries: 0,
            rule: SlotRule::Dcf,
            rules: MacRules::Standard,
            rng,
        }
    }

    /// Draw a new backoff counter in [0, CW] ([0, CW − 1] under ns-2's rules).
    #[inline]
    pub fn draw(&mut self) {
        self.counter = self.rng.uniform_inclusive(self.rules.max_counter(self.cw));
        self.drawn = self.counter;
        self.pending = true;
    }

    /// When the counter reaches zero if the medium stays idle.
    #[inline]
    pub fn expiry(&self, slot: Time) -> Time {
        self.countdown_start + self.counter as Time * slot
    }

    /// The medium turned busy at `t`: keep the slots not yet counted (freeze). A counter
    /// that reaches zero exactly at `t` stays at zero. Under EDCA the boundary at
    /// `countdown_start` (the end of AIFS) counts too, also when the medium turns busy
    /// exactly there.
    #[inline]
    pub fn freeze(&mut self, t: Time, slot: Time) {
        self.freeze_by(&Busy::of(self, t, slot));
    }

    /// [`Backoff::freeze`] with `busy` worked out for this backoff.
    #[inline]
    fn freeze_by(&mut self, busy: &Busy) {
        debug_assert!(busy.applies_to(self));
        if !self.pending {
            return;
        }
        self.counter -= busy.counted.min(self.counter as Time) as u32;
    }

    /// The medium turns busy at `t` for this entity (9.3.4.3): true when its counter
    /// reaches zero at this very slot boundary with a frame to send (it transmits, as
    /// the others whose slot boundary this is); otherwise the backoff freezes, and a
    /// post-backoff whose counter reached zero after its countdown started is complete
    /// (the entity may then access the medium at once when a frame arrives after AIFS of
    /// idle medium).
    #[inline]
    pub fn on_busy(&mut self, has_frame: bool, t: Time, slot: Time) -> bool {
        if !self.pending {
            return false;
        }
        self.on_busy_by(has_frame, &Busy::of(self, t, slot))
    }

    /// [`Backoff::on_busy`] with `busy` worked out for this backoff.
    #[inline]
    pub fn on_busy_by(&mut self, has_frame: bool, busy: &Busy) -> bool {
        if !self.pending {
            return false;
        }
        if has_frame && self.counter as Time == busy.expiring {
            return true;
        }
        self.freeze_busy_by(has_frame, busy);
        false
    }

    /// [`Backoff::on_busy`] for an entity that may not transmit at `t` even if its counter
    /// reaches zero there (its node is busy with a frame of its own): it freezes.
    #[inline]
    pub fn freeze_busy(&mut self, has_frame: bool, t: Time, slot: Time) {
        self.freeze_busy_by(has_frame, &Busy::of(self, t, slot));
    }

    #[inline]
    fn freeze_busy_by(&mut self, has_frame: bool, busy: &Busy) {
        self.freeze_by(busy);
        if self.counter == 0 && busy.started && !has_frame {
            self.pending = false;
        }
    }

    /// After [`Backoff::on_busy`]: an entity that froze with `counter_before` slots left,
    /// its countdown started where `short` says, counts `short.n` slots instead of
    /// `short.k` (ns-2's arithmetic, [`MacRules::slots_counted_after_own_frame`]).
    #[inline]
    pub fn recount(&mut self, counter_before: u32, short: Option<ShortCount>) {
        if let Some(s) = short {
            if self.pending
                && self.countdown_start == s.countdown_start
                && counter_before as Time > s.k
            {
                self.counter += (s.k - s.n) as u32;
            }
        }
    }

    /// A frame reaches the entity's empty queue at `now` (9.3.4.2, 9.3.4.3; ns-2's rule
    /// in `mac/ns2.rs`); `busy`: the medium is busy for it. Returns whether its countdown
    /// now starts at a time of its own (`now` or `now` + AIFS) rather than where its view
    /// of the medium puts it.
    #[inline]
    pub fn on_frame_arrival(
        &mut self,
        now: Time,
        busy: bool,
        aifs: Time,
        slot: Time,
        rules: MacRules,
    ) -> bool {
        if busy {
            // A frame that finds the medium busy waits for a backoff; a backoff already
            // running keeps going.
            if !self.pending {
                self.draw();
            }
            false
        } else if self.pending && self.expiry(slot) <= now && rules.immediate_access() {
            // The post-backoff ran out while the medium stayed idle: send at once.
            self.counter = 0;
            self.countdown_start = now;
            true
        } else if self.pending && self.expiry(slot) > now {
            false
        } else if !rules.immediate_access() && now + aifs >= self.countdown_start {
            // ns-2: no backoff running (none, or a post-backoff that ran out: its timer
            // has stopped, `mhBackoff_.busy() == 0`) and the medium idle (`is_idle()`,
            // also inside the DIFS after a busy period; an EIFS is ns-2's NAV, so busy):
            // DIFS/AIFS from now, then a backoff (`mhDefer_.start(DIFS + rTime)`).
            self.countdown_start = now + aifs;
            self.draw();
            true
        } else if now >= self.countdown_start {
            // Idle for at least AIFS and no backoff pending: immediate access.
            self.counter = 0;
            self.countdown_start = now;
            self.pending = true;
            true
        } else if rules.immediate_access() {
            // Still inside the IFS after a busy period, the medium idle, no backoff
            // running: the backoff is invoked only for a frame that finds the medium busy
            // (10.23.2.2 a), 10.3.4.2; ns-3's `NeedBackoffUponAccess`), so the frame goes
            // when the IFS ends, with no slots to count.
            self.counter = 0;
            self.pending = true;
            false
        } else {
            // ns-2 inside an EIFS: its NAV, so the medium is busy for it: back off.
            self.draw();
            false
        }
    }

    /// A successful exchange: CW back to CWmin, retry counters cleared (9.3.4.3), and a new
    /// backoff drawn (backoff after every transmission).
    pub fn on_success(&mut self, cw_min: u32) {
        self.reset(cw_min);
        self.draw();
    }

    /// CW back to CWmin and retry counters cleared, without a new draw (an exchange inside
    /// a TXOP: the backoff is invoked once, when the TXOP ends).
    pub fn reset(&mut self, cw_min: u32) {
        self.cw = cw_min;
        self.short_retries = 0;
        self.long_retries = 0;
    }

    /// A failed attempt that will be retried: CW ← min(2·(CW+1) − 1, CWmax), new draw.
    pub fn on_retry(&mut self, cw_max: u32) {
        self.cw = (2 * self.cw + 1).min(cw_max);
        self.draw();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::StreamKind;
    use crate::sim::time::US;

    fn backoff() -> Backoff {
        Backoff::new(31, Rng::named(1, StreamKind::Backoff, "sta-0"))
    }

    const SLOT: Time = 20 * US;

    /// 10 slots to count from 1000 µs under `rule`: expiry at 1200 µs if nothing interrupts.
    fn counting(rule: SlotRule) -> Backoff {
        let mut b = backoff();
        b.rule = rule;
        b.pending = true;
        b.counter = 10;
        b.countdown_start = 1000 * US;
        assert_eq!(b.expiry(SLOT), 1200 * US);
        b
    }

    #[test]
    fn freeze_keeps_remaining_slots_and_resume_continues() {
        let slot = SLOT;
        let mut b = counting(SlotRule::Dcf);
        // Busy 3.5 slots after counting began: 3 slots counted, 7 remain.
        b.freeze(1070 * US, slot);
        assert_eq!(b.counter, 7);
        // Resume after the next IFS: expiry moves by the 7 remaining slots only.
        b.countdown_start = 2000 * US;
        assert_eq!(b.expiry(slot), 2140 * US);
        // Busy before counting started: nothing counted.
        b.freeze(1990 * US, slot);
        assert_eq!(b.counter, 7);
    }

    #[test]
    fn edca_also_counts_the_aifs_boundary() {
        let slot = SLOT;
        // Same expiry as DCF when nothing interrupts the countdown (checked in `counting`).
        let mut b = counting(SlotRule::Edca);
        // Busy 3.5 slots after AIFS: boundaries at 0, 1, 2, 3 slots counted, 6 remain.
        b.freeze(1070 * US, slot);
        assert_eq!(b.counter, 6);
        // Busy exactly at the AIFS boundary: that boundary still counts.
        b.countdown_start = 2000 * US;
        b.freeze(2000 * US, slot);
        assert_eq!(b.counter, 5);
        // Busy before AIFS ended: nothing counted.
        b.countdown_start = 3000 * US;
        b.freeze(2990 * US, slot);
        assert_eq!(b.counter, 5);
    }

    #[test]
    fn cw_doubles_up_to_cwmax_and_resets_on_success() {
        let mut b = backoff();
        let mut seen = vec![b.cw];
        for _ in 0..7 {
            b.on_retry(1023);
            seen.push(b.cw);
        }
        assert_eq!(seen, vec![31, 63, 127, 255, 511, 1023, 1023, 1023]);
        b.on_success(31);
        assert_eq!(b.cw, 31);
        assert!(b.pending);
        assert!(b.counter <= 31);
    }

    #[test]
    fn draws_stay_within_cw() {
        let mut b = backoff();
        b.cw = 63;
        let mut max = 0;
        for _ in 0..10_000 {
            b.draw();
            max = max.max(b.counter);
        }
        assert_eq!(max, 63, "the draw covers [0, CW] inclusive");
    }

    const DIFS: Time = 50 * US;

    /// A frame reaches the empty queue at 2000 µs, long after a post-backoff of 3 slots
    /// drawn at 1000 µs ran out on an idle medium: the standard sends at once (9.3.4.2),
    /// ns-2 waits DIFS and a fresh backoff from the arrival (`Mac802_11::send`: its
    /// backoff timer has stopped, `mhDefer_.start(DIFS + rTime)`).
    #[test]
    fn after_a_post_backoff_ran_out_ns2_waits_difs_and_a_backoff() {
        for (rules, immediate) in [(MacRules::Standard, true), (MacRules::Ns2, false)] {
            let mut b = backoff();
            b.rules = rules;
            b.pending = true;
            b.counter = 3;
            b.countdown_start = 1000 * US;
            assert!(b.on_frame_arrival(2000 * US, false, DIFS, SLOT, rules));
            if immediate {
                assert_eq!((b.counter, b.countdown_start), (0, 2000 * US));
            } else {
                assert_eq!(b.countdown_start, 2000 * US + DIFS);
                assert!(b.pending && b.counter < 31);
            }
        }
    }

    /// A frame that arrives 20 µs into the DIFS after a busy period (countdown start at
    /// 1050 µs): the standard sends it when that DIFS ends, with no backoff (the medium
    /// was idle when it arrived: 10.23.2.2 a)); ns-2, whose
    /// medium is idle then, defers DIFS from the arrival (1070 µs) before its backoff, and
    /// backs off inside an EIFS.
    #[test]
    fn inside_the_difs_ns2_defers_difs_from_the_arrival() {
        let mut b = backoff();
        b.countdown_start = 1050 * US;
        assert!(!b.on_frame_arrival(1020 * US, false, DIFS, SLOT, MacRules::Standard));
        assert_eq!((b.countdown_start, b.counter), (1050 * US, 0));
        assert!(b.pending);
        let mut b = backoff();
        b.rules = MacRules::Ns2;
        b.countdown_start = 1050 * US;
        assert!(b.on_frame_arrival(1020 * US, false, DIFS, SLOT, MacRules::Ns2));
        assert_eq!(b.countdown_start, 1070 * US);
        // Still inside an EIFS (ns-2's NAV): a backoff drawn, counted from where it ends
        // (this stream's first draw is not 0; the standard's rule would leave 0 slots).
        let mut b = Backoff::new(31, Rng::named(1, StreamKind::Backoff, "sta-1"));
        b.rules = MacRules::Ns2;
        b.countdown_start = 1500 * US;
        assert!(!b.on_frame_arrival(1020 * US, false, DIFS, SLOT, MacRules::Ns2));
        assert_eq!(b.countdown_start, 1500 * US);
        assert!(b.pending && b.counter > 0);
    }
}
