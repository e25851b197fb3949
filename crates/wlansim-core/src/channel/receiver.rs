//! Reception per receiver under the spatial medium (`mac/spatial.rs`): the signals on the
//! air at each node, the frame it is locked onto, and that frame's fate when it ends (the
//! part of ns-3's `InterferenceHelper` and ns-2's `Mac802_11::recv`/`recv_timer` that
//! decides it).
//!
//! A node that is neither transmitting nor locked locks onto a frame that arrives at or
//! above its receive threshold (preamble detection; the MAC says when else it may:
//! `mac/ns2.rs`). Frames that start at one instant reach it together and it locks onto
//! the strongest (ties drawn evenly, as `Reception::lock` draws them). Every other signal
//! on the air at the node while the locked frame lasts overlaps it, and the rule decides:
//! - [`Rule::Overlap`] (`[channel.reception] model = "none"`): any overlap destroys it;
//! - [`Rule::Threshold`] (`"threshold"`, ns-2's `CPThresh_`): an overlapping frame at
//!   least `ratio` weaker is ignored (`Mac802_11::capture`), any other destroys it;
//! - [`Rule::Sinr`] (`"sinr"`): decoded by the error curves, its PHY header at the SINR
//!   over the worst interference it met while the header lasted (`Ppdu::header_time`:
//!   the signals on the air when it arrived and those that arrived during its header),
//!   its PSDU over the worst interference it met while it lasted (the highest sum of the
//!   other signals' powers), one draw of both (`channel/reception.rs`); without capture
//!   (`capture = false`) any overlap destroys it, as with `Overlap`.
//!
//! Under `Overlap`, `Threshold` (and `Sinr` without capture) a receiver whose frame was
//! destroyed stays in that
//! garbled reception until the longest frame of the collision ends, as ns-2's `collision`
//! makes the longest frame the one it receives: no frame starting meanwhile is locked.
//!
//! A frame the node does not get is lost there for a reason the MAC counts: it
//! overlapped another (a collision, *hidden* when the later of the two arrived more than
//! the propagation delay δ after the earlier: its sender had the earlier frame on the air
//! at it and did not sense it), or it was too weak. Frames of one slot arrive up to δ
//! apart: the node that sent the last frame senses its end δ before the others, so its
//! slot boundaries run δ ahead of theirs (`MacRules::tail_is_errored`).
use super::reception::{Part, Ppdu, Reception};
use crate::net::NodeId;
use crate::sim::time::Time;

/// How a locked frame fares against the signals that overlap it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    Overlap,
    /// Power ratio (linear) the locked frame needs over each overlapping one.
    Threshold {
        ratio: f64,
    },
    Sinr {
        capture: bool,
    },
}

impl Rule {
    /// Whether the receiver locks onto the strongest of frames that start together (else
    /// they destroy each other whichever it locks onto).
    fn captures(self) -> bool {
        matches!(self, Rule::Threshold { .. } | Rule::Sinr { capture: true })
    }

    /// Whether a destroyed frame keeps the receiver in a garbled reception until the
    /// longest frame of the collision ends.
    fn garbles(self) -> bool {
        !matches!(self, Rule::Sinr { capture: true })
    }
}

/// A signal on the air at a node.
#[derive(Clone, Copy, Debug)]
struct Signal {
    tx: u32,
    power: f64,
    start: Time,
    end: Time,
    /// It overlapped another signal at this node.
    collided: bool,
    /// One it overlapped arrived more than δ apart from it.
    hidden: bool,
    /// It overlapped this node's own transmission.
    own_tx: bool,
}

/// The frame a node is locked onto.
#[derive(Clone, Copy, Debug)]
struct Lock {
    tx: u32,
    power: f64,
    start: Time,
    /// Lost whatever happens (locked below the receive threshold, or while transmitting).
    errored: bool,
    /// Destroyed by an overlapping frame (`Overlap`, `Threshold`).
    collided: bool,
    /// The highest sum of the other signals' powers while it lasted (`Sinr`).
    interference: f64,
    /// The same while its PHY header lasted, until `header_end`.
    header_interference: f64,
    header_end: Time,
    /// Another signal overlapped it.
    overlapped: bool,
    /// Frames as strong as it among those that started with it.
    ties: u32,
    /// The end of the garbled reception (the longest frame of a collision).
    until: Time,
}

/// What became of an arriving signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// The node locked onto it; `displaced`: the end of a frame that started at the same
    /// instant, which the node had locked onto and now ignores, the new one being at
    /// least the capture ratio stronger (ns-2 receives the nearer, stronger frame first
    /// and ignores the other: `MacRules::capture_nav`).
    Locked { displaced: Option<Time> },
    /// It overlaps the frame the node is locked onto; `ignored`: that frame is at least
    /// the capture ratio stronger (ns-2 then sets the NAV: `MacRules::capture_nav`).
    Overlap { ignored: bool },
    /// The node is not locked onto it (too weak, or the node is busy).
    Unlocked,
}

/// The fate, at a node, of a signal that ended there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Decoded; `captured`: other signals overlapped it.
    Decoded { captured: bool },
    /// Lost to an overlap; `hidden`: the two arrived more than δ apart (not in one slot).
    Collided { hidden: bool },
    /// Not locked onto and overlapping nothing, or locked below the threshold: too weak,
    /// or it arrived while the node transmitted.
    Missed,
}

/// A signal that ended at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    pub fate: Fate,
    /// The node was locked onto it (its end is a reception's end: EIFS after an error).
    pub locked: bool,
    /// It overlapped the node's own transmission.
    pub own_tx: bool,
    /// The end of the reception it closes: later than its own end when a longer frame
    /// of a collision made the reception last.
    pub until: Time,
    /// The node was locked onto it, lost its PHY header and reports no error
    /// ([`HeaderFailure::Abort`]: AIFS, not EIFS, follows; `mac/shared/header_abort.rs`).
    ///
    /// [`HeaderFailure::Abort`]: super::reception::HeaderFailure::Abort
    pub header_aborted: bool,
}

#[derive(Default)]
struct Node {
    signals: Vec<Signal>,
    lock: Option<Lock>,
    /// A garbled reception (collision) lasts until then (`Overlap`, `Threshold`).
    garbled_until: Time,
}

pub struct Receivers {
    rule: Rule,
    /// The propagation delay δ: overlapping frames that arrive further apart are hidden
    /// from each other.
    delta: Time,
    nodes: Vec<Node>,
}

impl Receivers {
    pub fn new(rule: Rule, delta: Time, nodes: usize) -> Receivers {
        Receivers {
            rule,
            delta,
            nodes: (0..nodes).map(|_| Node::default()).collect(),
        }
    }

    /// Whether `r` is locked onto a frame (or in a garbled reception) at `now`.
    #[inline]
    pub fn is_receiving(&self, r: NodeId, now: Time) -> bool {
        let n = &self.nodes[r as usize];
        n.lock.is_some() || n.garbled_until > now
    }

    /// A signal of transmission `tx` starts at `r` at `now` with `power`, until `end`.
    /// `lockable`: the node may lock onto it (at or above its threshold, not
    /// transmitting; `errored`: it will not decode it even so); its PHY header lasts
    /// `header` (`Ppdu::header_time`). Ties among frames that start together are drawn
    /// from `r`'s reception stream.
    #[allow(clippy::too_many_arguments)]
    pub fn arrive(
        &mut self,
        r: NodeId,
        tx: u32,
        power: f64,
        now: Time,
        end: Time,
        lockable: bool,
        errored: bool,
        header: Time,
        reception: Option<&mut Reception>,
    ) -> Arrival {
        let (rule, delta) = (self.rule, self.delta);
        let n = &mut self.nodes[r as usize];
        let mut new = Signal {
            tx,
            power,
            start: now,
            end,
            collided: false,
            hidden: false,
            own_tx: false,
        };
        let mut others = 0.0;
        for s in &mut n.signals {
            s.collided = true;
            new.collided = true;
            let hidden = now - s.start > delta;
            s.hidden |= hidden;
            new.hidden |= hidden;
            others += s.power;
        }
        n.signals.push(new);
        let garbled = n.garbled_until > now;
        let Some(lock) = &mut n.lock else {
            if !lockable || garbled {
                return Arrival::Unlocked;
            }
            let mut lock = Lock {
                tx,
                power,
                start: now,
                errored,
                collided: false,
                interference: others,
                header_interference: others,
                header_end: now + header,
                overlapped: false,
                ties: 1,
                until: end,
            };
            for s in &n.signals[..n.signals.len() - 1] {
                Self::overlap(rule, &mut lock, s.power, s.end);
            }
            n.lock = Some(lock);
            return Arrival::Locked { displaced: None };
        };
        // Frames that start together: the receiver locks onto the strongest.
        if lock.start == now && lockable && rule.captures() {
            let stronger = power > lock.power;
            let tie = power == lock.power && matches!(rule, Rule::Sinr { .. });
            let take = stronger
                || (tie && {
                    lock.ties += 1;
                    let draw = reception.map_or(0, |rec| rec.draw_below(r, lock.ties));
                    draw == 0
                });
            if stronger {
                lock.ties = 1;
            }
            if take {
                let old = *lock;
                let ties = lock.ties;
                *lock = Lock {
                    tx,
                    power,
                    start: now,
                    errored,
                    collided: false,
                    interference: others,
                    header_interference: others,
                    header_end: now + header,
                    overlapped: false,
                    ties,
                    until: end.max(old.until),
                };
                let signals = &n.signals;
                let mut displaced = None;
                for s in &signals[..signals.len() - 1] {
                    if Self::overlap(rule, lock, s.power, s.end) && s.tx == old.tx {
                        displaced = Some(s.end);
                    }
                }
                return Arrival::Locked { displaced };
            }
        }
        let ignored = Self::overlap(rule, lock, power, end);
        // `others` counts the locked frame's own signal.
        let interference = others - lock.power + power;
        lock.interference = lock.interference.max(interference);
        if now < lock.header_end {
            lock.header_interference = lock.header_interference.max(interference);
        }
        Arrival::Overlap { ignored }
    }

    /// `lock` meets a signal of `power` ending at `end`; whether the rule ignores it.
    fn overlap(rule: Rule, lock: &mut Lock, power: f64, end: Time) -> bool {
        lock.overlapped = true;
        match rule {
            Rule::Overlap | Rule::Sinr { capture: false } => lock.collided = true,
            Rule::Threshold { ratio } => {
                if lock.power / power >= ratio {
                    return true;
                }
                lock.collided = true;
            }
            Rule::Sinr { capture: true } => {}
        }
        if lock.collided && rule.garbles() {
            lock.until = lock.until.max(end);
        }
        false
    }

    /// `r` starts transmitting at `now`: the frame it was locked onto is lost (ns-2:
    /// `Mac802_11::transmit` marks it errored), and every signal on the air at it
    /// overlaps its transmission.
    pub fn transmit(&mut self, r: NodeId) {
        let n = &mut self.nodes[r as usize];
        if let Some(lock) = &mut n.lock {
            lock.errored = true;
        }
        for s in &mut n.signals {
            s.own_tx = true;
        }
    }

    /// A signal arriving while `r` transmits overlaps its transmission.
    pub fn mark_own_tx(&mut self, r: NodeId, tx: u32) {
        if let Some(s) = self.nodes[r as usize]
            .signals
            .iter_mut()
            .rev()
            .find(|s| s.tx == tx)
        {
            s.own_tx = true;
        }
    }

    /// The signal of `tx` ends at `r` at `now`: its fate there. A locked frame is decoded
    /// by the rule (`frame`: what the error curves need); under `Sinr`, `reception`
    /// draws.
    pub fn end(
        &mut self,
        r: NodeId,
        tx: u32,
        now: Time,
        frame: Ppdu,
        reception: Option<&mut Reception>,
    ) -> Ended {
        let rule = self.rule;
        let n = &mut self.nodes[r as usize];
        let i = n
            .signals
            .iter()
            .position(|s| s.tx == tx)
            .expect("a signal ends where it arrived");
        let s = n.signals.swap_remove(i);
        let locked = n.lock.is_some_and(|l| l.tx == tx);
        let mut until = now;
        let mut header_aborted = false;
        let fate = if locked {
            let lock = n.lock.take().expect("locked");
            until = lock.until.max(now);
            if lock.collided && rule.garbles() && lock.until > now {
                n.garbled_until = n.garbled_until.max(lock.until);
            }
            let decoded = !lock.errored
                && !lock.collided
                && match rule {
                    Rule::Overlap | Rule::Threshold { .. } => true,
                    Rule::Sinr { .. } => reception.is_some_and(|rec| {
                        let part = Part::Ppdu {
                            header_interference_w: lock.header_interference,
                        };
                        let decoded = rec.decodes(r, frame, part, lock.power, lock.interference);
                        // Which part was lost, given the frame was (`decodes_header`).
                        header_aborted = !decoded
                            && rec.aborts_on_header_failure()
                            && !rec.decodes_header(
                                r,
                                frame,
                                lock.power,
                                lock.header_interference,
                                Some(lock.interference),
                            );
                        decoded
                    }),
                };
            if decoded {
                Fate::Decoded {
                    captured: lock.overlapped,
                }
            } else if lock.errored && !lock.overlapped {
                Fate::Missed
            } else {
                Fate::Collided { hidden: s.hidden }
            }
        } else if s.collided {
            Fate::Collided { hidden: s.hidden }
        } else {
            Fate::Missed
        };
        Ended {
            fate,
            locked,
            own_tx: s.own_tx,
            until,
            header_aborted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PPDU: Ppdu = Ppdu {
        rate: 1_000_000,
        bytes: 100,
        short_preamble: false,
        ht: None,
    };

    /// ns-2's `Mac802_11::recv`: of two frames that arrive together the receiver keeps the
    /// stronger when it is `CPThresh_` stronger (ns-2 receives the nearer first and ignores
    /// the other, `capture`), whichever of the two comes first here; closer in power both
    /// are lost (`collision`); a later frame never takes over.
    #[test]
    fn the_capture_threshold_keeps_the_frame_ten_times_stronger() {
        let threshold = Rule::Threshold { ratio: 10.0 };
        let mut r = Receivers::new(threshold, 0, 1);
        assert_eq!(
            r.arrive(0, 1, 1e-9, 0, 1000, true, false, 0, None),
            Arrival::Locked { displaced: None }
        );
        // The stronger one displaces it, which is ignored from then on.
        assert_eq!(
            r.arrive(0, 2, 2e-8, 0, 1200, true, false, 0, None),
            Arrival::Locked {
                displaced: Some(1000)
            }
        );
        assert_eq!(
            r.end(0, 1, 1000, PPDU, None).fate,
            Fate::Collided { hidden: false }
        );
        assert_eq!(
            r.end(0, 2, 1200, PPDU, None).fate,
            Fate::Decoded { captured: true }
        );
        // 5 dB apart: the stronger is locked onto but both are lost.
        let mut r = Receivers::new(threshold, 0, 1);
        r.arrive(0, 1, 1e-9, 0, 1000, true, false, 0, None);
        assert_eq!(
            r.arrive(0, 2, 3e-9, 0, 1000, true, false, 0, None),
            Arrival::Locked { displaced: None }
        );
        assert_eq!(
            r.end(0, 2, 1000, PPDU, None).fate,
            Fate::Collided { hidden: false }
        );
        // A later frame: ignored when 10 times weaker, else it destroys the locked one;
        // it arrived more than δ after it: hidden.
        let mut r = Receivers::new(threshold, 5, 1);
        r.arrive(0, 1, 1e-8, 0, 1000, true, false, 0, None);
        assert_eq!(
            r.arrive(0, 2, 1e-9, 10, 500, true, false, 0, None),
            Arrival::Overlap { ignored: true }
        );
        assert_eq!(
            r.arrive(0, 3, 1e-7, 20, 600, true, false, 0, None),
            Arrival::Overlap { ignored: false }
        );
        assert_eq!(
            r.end(0, 1, 1000, PPDU, None).fate,
            Fate::Collided { hidden: true }
        );
    }

    /// Frames of one slot arrive up to δ apart (the sender of the last frame counts δ
    /// ahead): they collide, but neither is hidden from the other; one arriving later is.
    #[test]
    fn frames_of_one_slot_are_not_hidden() {
        let mut r = Receivers::new(Rule::Overlap, 5, 1);
        r.arrive(0, 1, 1e-8, 0, 1000, true, false, 0, None);
        r.arrive(0, 2, 1e-8, 5, 1005, true, false, 0, None);
        let not_hidden = Fate::Collided { hidden: false };
        assert_eq!(r.end(0, 1, 1000, PPDU, None).fate, not_hidden);
        assert_eq!(r.end(0, 2, 1005, PPDU, None).fate, not_hidden);
        let mut r = Receivers::new(Rule::Overlap, 5, 1);
        r.arrive(0, 1, 1e-8, 0, 1000, true, false, 0, None);
        r.arrive(0, 2, 1e-8, 6, 1006, true, false, 0, None);
        assert_eq!(
            r.end(0, 1, 1000, PPDU, None).fate,
            Fate::Collided { hidden: true }
        );
    }
}
