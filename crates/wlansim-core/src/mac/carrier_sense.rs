//! One node's view of the medium under the spatial medium (`mac/spatial.rs`): physical
//! and virtual carrier sense (802.11-2012 9.3.2.1), the IFS that follows a busy period
//! (9.3.7, 9.19.2.3), and where its channel-access entities count idle slots from. ns-3's
//! `ChannelAccessManager::GetBackoffStartFor` keeps the same per-radio view.
//!
//! - *Physical* carrier sense is busy while the node transmits, while the frame it is
//!   locked onto lasts, and while a signal at or above its carrier-sense threshold lasts
//!   (`channel/receiver.rs` says which; the spatial medium tells the view how long).
//! - *Virtual* carrier sense: the NAV, set from the Duration of frames the node decodes
//!   without being their addressee (`mac/nav.rs`), and under ns-2's rules from EIFS.
//! - After a frame received in error, EIFS − DIFS more once the medium is idle (9.3.7),
//!   or from the end of that reception under ns-3.37's rule (`mac/eifs.rs`), until a
//!   frame is received correctly; ns-2 sets the NAV to EIFS instead
//!   (`MacRules::eifs_outlasts_correct_frames`).
//!
//! An entity with AIFS `aifs` counts idle slots from
//! max(busy end [+ EIFS − DIFS], NAV end, end of its node's wait for an answer) + AIFS:
//! the class countdown start of the shared medium (`mac/contention.rs`), per node.
use super::{EifsStart, MacRules};
use crate::sim::time::Time;

#[derive(Clone, Copy, Debug, Default)]
pub struct MediumView {
    /// Physical carrier sense is busy until then.
    busy_until: Time,
    /// The NAV is set until then.
    nav_until: Time,
    /// The node waits for the answer to its own frame until then (ACKTimeout,
    /// CTSTimeout): its entities neither count nor send.
    wait_until: Time,
    /// Standard: the last frame received was in error, its reception ending then
    /// (EIFS − DIFS more after the busy period, or after that end: [`EifsStart`]).
    errored: Option<Time>,
    /// Time physical carrier sense was busy, own transmissions included.
    busy_time: Time,
}

impl MediumView {
    /// Whether the medium is busy (physical or virtual carrier sense) at `now`.
    #[inline]
    pub fn busy_at(&self, now: Time) -> bool {
        now < self.busy_until || now < self.nav_until || now < self.wait_until
    }

    /// The node waits for an answer until `until` (9.3.2.8).
    #[inline]
    pub fn wait(&mut self, until: Time) {
        self.wait_until = self.wait_until.max(until);
    }

    /// The awaited answer (CTS or ACK) was received at `now`: the wait ends with it (the
    /// CTSTimeout/ACKTimeout interval is cancelled, 9.3.2.8), so the data frame SIFS after
    /// a CTS, and the next backoff after an ACK, do not find the medium taken by a wait
    /// that outlasts a short answer.
    #[inline]
    pub fn answered(&mut self, now: Time) {
        self.wait_until = self.wait_until.min(now);
    }

    /// The end of the NAV.
    #[inline]
    pub fn nav_until(&self) -> Time {
        self.nav_until
    }

    /// Physical carrier sense is busy from `now` until at least `until`. Returns whether
    /// the medium was idle before (it turns busy now) and whether the busy period grew.
    #[inline]
    pub fn sense(&mut self, now: Time, until: Time) -> (bool, bool) {
        let was_idle = !self.busy_at(now);
        let grew = until > self.busy_until;
        if grew {
            self.busy_time += until - self.busy_until.max(now);
            self.busy_until = until;
        }
        (was_idle, grew)
    }

    /// The NAV is set until at least `until` (9.3.2.4: a NAV is only ever extended).
    /// Returns whether it grew, and whether it now outlasts physical carrier sense (the
    /// node defers where it senses nothing: a NAV deferral).
    #[inline]
    pub fn set_nav(&mut self, until: Time) -> (bool, bool) {
        if until <= self.nav_until {
            return (false, false);
        }
        self.nav_until = until;
        (true, until > self.busy_until)
    }

    /// A reception that ended at `end` was in error: EIFS (9.3.7); `hold`:
    /// [`MacRules::after_error`] less the AIFS.
    #[inline]
    pub fn errored(&mut self, end: Time, rules: MacRules, hold: Time) {
        if rules.eifs_outlasts_correct_frames() {
            self.set_nav(end + hold);
        } else {
            self.errored = Some(end);
        }
    }

    /// A frame was received correctly: DIFS/AIFS again after the busy period (9.3.7).
    /// Returns whether that ended an EIFS.
    #[inline]
    pub fn correct(&mut self) -> bool {
        self.errored.take().is_some()
    }

    /// Where an entity with AIFS `aifs` counts idle slots from; `hold` as in
    /// [`MediumView::errored`], counted by the `eifs` rule.
    #[inline]
    pub fn countdown_start(&self, aifs: Time, hold: Time, eifs: EifsStart) -> Time {
        let busy = match self.errored {
            Some(end) => eifs.countdown_start(end, self.busy_until, hold, 0),
            None => self.busy_until,
        };
        busy.max(self.nav_until).max(self.wait_until) + aifs
    }

    /// Time physical carrier sense was busy up to its known end.
    pub fn busy_time(&self) -> Time {
        self.busy_time
    }

    /// Statistics restart at `now`: only the busy time still ahead counts.
    pub fn reset_busy_time(&mut self, now: Time) {
        self.busy_time = self.busy_until.saturating_sub(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::US;

    #[test]
    fn eifs_holds_until_a_correct_frame_under_the_standard_and_as_a_nav_under_ns2() {
        let (difs, hold) = (50 * US, 314 * US);
        let mut v = MediumView::default();
        assert_eq!(v.sense(100 * US, 400 * US), (true, true));
        assert_eq!(v.sense(200 * US, 300 * US), (false, false), "already busy");
        v.errored(400 * US, MacRules::Standard, hold);
        assert_eq!(
            v.countdown_start(difs, hold, EifsStart::MediumIdle),
            (400 + 314 + 50) * US
        );
        v.correct();
        assert_eq!(
            v.countdown_start(difs, hold, EifsStart::MediumIdle),
            (400 + 50) * US
        );
        // ns-2: the NAV carries it, and a correct frame does not shorten it.
        let mut v = MediumView::default();
        v.sense(0, 400 * US);
        v.errored(400 * US, MacRules::Ns2, 364 * US);
        v.correct();
        assert_eq!(
            v.countdown_start(difs, 364 * US, EifsStart::MediumIdle),
            (400 + 364 + 50) * US
        );
        assert!(v.busy_at(700 * US));
        assert_eq!(v.busy_time(), 400 * US);
        // A NAV beyond what the node senses is a deferral; one within it is not.
        assert_eq!(v.set_nav(2000 * US), (true, true));
        assert_eq!(v.set_nav(1000 * US), (false, false));
    }

    /// A node locked onto the shorter frame of a collision (its reception in error ending
    /// at 400 µs) senses the longer one until 900 µs: the standard's EIFS begins at the
    /// idle, ns-3.37's at 400 µs and has passed by then.
    #[test]
    fn ns3_counts_eifs_from_the_end_of_the_reception_in_error() {
        let (difs, hold) = (50 * US, 314 * US);
        let view = |longer_end| {
            let mut v = MediumView::default();
            v.sense(100 * US, 400 * US);
            v.sense(100 * US, longer_end);
            v.errored(400 * US, MacRules::Standard, hold);
            v
        };
        let v = view(900 * US);
        assert_eq!(
            v.countdown_start(difs, hold, EifsStart::MediumIdle),
            (900 + 314 + 50) * US
        );
        assert_eq!(
            v.countdown_start(difs, hold, EifsStart::ReceptionEnd),
            (900 + 50) * US
        );
        // The longer frame ends within EIFS − DIFS of the shorter: the rest of it.
        let v = view(600 * US);
        assert_eq!(
            v.countdown_start(difs, hold, EifsStart::ReceptionEnd),
            (400 + 314 + 50) * US
        );
    }
}
