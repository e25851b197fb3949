//! Delay injection at the AP (fotiadis2005 §III.B, Algorithm 1): TCP ACKs the AP forwards
//! towards a mobile are held so that the sender's RTO grows to absorb the delay spikes
//! that persistent link-layer retransmissions cause, instead of firing spuriously.
//!
//! Per TCP flow, for the k-th ACK reaching the AP, pdelay is the time since its sender
//! sent the segment the ACK echoes (the ACK's timestamp echo against the AP's clock; the
//! paper assumes synchronized clocks, ours are exact, at the 1 ms timestamp tick):
//!
//! - eq 1: S[k] = (1 − a)·S[k−1] + a·pdelay[k]
//! - eq 2: V[k] = (1 − b)·V[k−1] + b·|pdelay[k] − S[k]|
//! - eq 3: dthresh = S[k] + c·V[k]      (a, b, c = 1/8, 1/4, 4)
//!
//! Algorithm 1: if pdelay > dthresh (a spike), D = (pdelay − avdelay)/delay_factor and the
//! ACK goes on; otherwise, when no ACK is being held, the ACK is held D (inject_delay),
//! and while one is, the ACK leaves right after it; then D decreases by subthresh. §IV.C:
//! subthresh = D/(5·pkt_count), pkt_count the ACKs between the last two spikes. Then
//! update(dthresh) with this pdelay. The first ACK of a flow only initialises S = pdelay,
//! V = pdelay/2 (RFC 6298's first-sample rule, which the paper's [8] formula follows).
//!
//! Two readings the text leaves open, and the one taken:
//! - avdelay: "the exponentially smoothed average of pdelay" is what S is (eq 1, the same
//!   a), and no other gain is given, so avdelay = S, taken before this ACK's update
//!   (S[k−1]): the spike is measured against the delay before it, not one it already
//!   pulled up. (The other reading, a separate average, would need a gain the paper
//!   does not give.)
//! - "delay by up to D": the later ACKs "that arrive within time D of the delayed ACK are
//!   transmitted after it (i.e., no additional delay)": each leaves when the first
//!   delayed ACK does, t₀ + D, so it is held t₀ + D − now ≤ D ("up to D"). The other
//!   reading, each later ACK held D itself, would add delay to them, which the sentence
//!   excludes. The first ACK after t₀ + D opens a new window.
//!
//! - Whose state: Algorithm 1 and §IV.C name one set of variables at the AP (S, V, D,
//!   subthresh, pkt_count), with no flow index, while pdelay is read per ACK from its own
//!   flow's timestamps. [`Scope::Ap`] keeps that one set for every ACK the AP forwards
//!   (a spike of one flow then holds the next ACK of any flow); [`Scope::Flow`] keeps one
//!   set per TCP flow. Both are offered; with one flow they coincide.
//!
//! ACKs of one flow leave in arrival order (a release time never precedes the flow's
//! previous one), are never dropped here, and wait in [`DelayInjection::held`] (the
//! world's packet accounting counts them in flight).
use crate::net::{NodeId, Packet};
use crate::sim::event::Schedule;
use crate::sim::time::Time;

/// The AP's timer: release the held ACKs that are due (the AP's node id).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApEvent {
    Release(NodeId),
}

/// Whose state Algorithm 1 keeps (module comment): one set per TCP flow, or one for the AP.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scope {
    #[default]
    Flow,
    Ap,
}

/// Parameters of Algorithm 1 (defaults: the paper's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    pub a: f64,
    pub b: f64,
    pub c: f64,
    pub delay_factor: f64,
    /// subthresh = D / (subthresh_packets · pkt_count); 5 in §IV.C.
    pub subthresh_packets: f64,
    pub scope: Scope,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            a: 1.0 / 8.0,
            b: 1.0 / 4.0,
            c: 4.0,
            delay_factor: 1.5,
            subthresh_packets: 5.0,
            scope: Scope::Flow,
        }
    }
}

/// The algorithm's state, a flow's or the AP's (times in ns, as f64 for the averages).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlowState {
    /// S and V (eqs 1, 2); None before the first ACK.
    pub sv: Option<(f64, f64)>,
    /// The delay to inject, and its decrement per ACK without a spike.
    pub d: f64,
    pub subthresh: f64,
    /// ACKs since the last spike.
    pub pkt_count: u64,
    /// When the ACK being held leaves (the end of the current window); ACKs after it are
    /// not delayed.
    pub window_end: Time,
    /// The release time of the flow's last ACK (order is kept).
    pub last_release: Time,
}

impl FlowState {
    /// eq 3.
    pub fn dthresh(&self, c: f64) -> Option<f64> {
        self.sv.map(|(s, v)| s + c * v)
    }
}

pub struct DelayInjection {
    pub params: Params,
    /// One state per TCP flow ([`Scope::Flow`]), or the AP's one ([`Scope::Ap`]).
    pub flows: Vec<FlowState>,
    /// ACKs held at the AP with their release times, in arrival order.
    pub held: Vec<(Time, Packet)>,
    /// ACKs held (for a positive time), and the delay added to them in all, ns.
    pub acks_delayed: u64,
    pub injected: Time,
    /// ACKs whose pdelay exceeded dthresh (Algorithm 1's spikes, each setting D).
    pub spikes: u64,
}

impl DelayInjection {
    pub fn new(params: Params, flows: usize) -> Self {
        let states = match params.scope {
            Scope::Flow => flows,
            Scope::Ap => 1,
        };
        DelayInjection {
            params,
            flows: vec![FlowState::default(); states],
            held: Vec::new(),
            acks_delayed: 0,
            injected: 0,
            spikes: 0,
        }
    }

    /// Room for `flows` flows (flows opened during the run: emulation).
    pub fn grow(&mut self, flows: usize) {
        let n = flows.max(self.flows.len());
        self.flows.resize(n, FlowState::default());
    }

    /// Algorithm 1 for an ACK of `flow` reaching the AP at `now` with `pdelay`: when it
    /// may leave (≥ now). The state is `flow`'s, or the AP's one under [`Scope::Ap`].
    pub fn release_time(&mut self, flow: u32, now: Time, pdelay: Time) -> Time {
        let p = &self.params;
        let state = match p.scope {
            Scope::Flow => flow as usize,
            Scope::Ap => 0,
        };
        let f = &mut self.flows[state];
        let sample = pdelay as f64;
        let mut release = now;
        if let Some((s, v)) = f.sv {
            if sample > s + p.c * v {
                self.spikes += 1;
                // Lines 1–2, avdelay = S[k−1].
                f.d = (sample - s) / p.delay_factor;
                f.subthresh = f.d / (p.subthresh_packets * f.pkt_count.max(1) as f64);
                f.pkt_count = 0;
            } else {
                f.pkt_count += 1;
                if now >= f.window_end {
                    // Line 5: inject_delay(D) on the first ACK of a window.
                    let d = f.d.round() as Time;
                    if d > 0 {
                        f.window_end = now + d;
                        release = now + d;
                    }
                } else {
                    // Line 7: leave right after the held one.
                    release = f.window_end;
                }
                // Line 9.
                f.d = (f.d - f.subthresh).max(0.0);
            }
        }
        // Line 11: eqs 1–2 (the first sample initialises them).
        f.sv = Some(match f.sv {
            None => (sample, sample / 2.0),
            Some((s, v)) => {
                let s = (1.0 - p.a) * s + p.a * sample;
                (s, (1.0 - p.b) * v + p.b * (sample - s).abs())
            }
        });
        let release = release.max(f.last_release);
        f.last_release = release;
        release
    }

    /// Hold `ack` at AP `ap` until `release` (> now), with its timer.
    pub fn hold(
        &mut self,
        now: Time,
        ap: NodeId,
        release: Time,
        ack: Packet,
        events: &mut impl Schedule<ApEvent>,
    ) {
        self.acks_delayed += 1;
        self.injected += release - now;
        self.held.push((release, ack));
        events.schedule(release, ApEvent::Release(ap));
    }

    /// The first held ACK (in arrival order) due at `now`.
    pub fn pop_due(&mut self, now: Time) -> Option<Packet> {
        let i = self.held.iter().position(|&(t, _)| t <= now)?;
        Some(self.held.remove(i).1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::MS;

    impl crate::sim::event::Slotted for ApEvent {}

    /// Algorithm 1 step by step on a scripted pdelay sequence (ms), by hand:
    /// S, V, dthresh (eqs 1–3), the spike's D and subthresh, the hold times and the decay.
    #[test]
    fn scripted_pdelays_step_by_step() {
        let mut di = DelayInjection::new(Params::default(), 1);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-6 * b.abs().max(1.0);
        // k=0 at t=0: pdelay 40 → S = 40, V = 20; no hold.
        assert_eq!(di.release_time(0, 0, 40 * MS), 0);
        let f = di.flows[0];
        assert_eq!(f.sv, Some((40e6, 20e6)));
        assert!(close(f.dthresh(4.0).unwrap(), 120e6));
        // k=1..4 at t=10..40 ms: pdelay 40 (≤ dthresh), D = 0: no hold; S stays 40, V
        // decays by 3/4 each time: 15, 11.25, 8.4375, 6.328125.
        for k in 1..=4u64 {
            assert_eq!(di.release_time(0, k * 10 * MS, 40 * MS), k * 10 * MS);
        }
        let f = di.flows[0];
        let (s, v) = f.sv.unwrap();
        assert!(close(s, 40e6) && close(v, 6.328125e6), "{s} {v}");
        assert_eq!(f.pkt_count, 4);
        // dthresh = 40 + 4·6.328125 = 65.3125 ms. k=5 at 50 ms: pdelay 190 ms, a spike:
        // D = (190 − 40)/1.5 = 100 ms, subthresh = 100/(5·4) = 5 ms; the ACK itself goes.
        assert!(close(f.dthresh(4.0).unwrap(), 65.3125e6));
        assert_eq!(di.release_time(0, 50 * MS, 190 * MS), 50 * MS);
        let f = di.flows[0];
        assert!(close(f.d, 100e6) && close(f.subthresh, 5e6) && f.pkt_count == 0);
        // eqs 1–2 with the spike: S = 35 + 23.75 = 58.75, V = 0.75·6.328125 + 0.25·131.25.
        let (s, v) = f.sv.unwrap();
        assert!(
            close(s, 58.75e6) && close(v, 4.74609375e6 + 32.8125e6),
            "{s} {v}"
        );
        // k=6 at 60 ms, pdelay 45 (below dthresh): the first ACK after the spike is held
        // D = 100 ms → leaves at 160 ms; D decays to 95 ms.
        assert_eq!(di.release_time(0, 60 * MS, 45 * MS), 160 * MS);
        assert!(close(di.flows[0].d, 95e6));
        // k=7 at 100 ms (within D of the held one): leaves right after it, at 160 ms
        // (held 60 ms, "up to D"); D → 90.
        assert_eq!(di.release_time(0, 100 * MS, 45 * MS), 160 * MS);
        assert!(close(di.flows[0].d, 90e6));
        // k=8 at 170 ms (after the window): held D = 90 ms again → 260 ms; D → 85.
        assert_eq!(di.release_time(0, 170 * MS, 45 * MS), 260 * MS);
        assert!(close(di.flows[0].d, 85e6));
        // 17 more ACKs without a spike, each after the window they fall in: D decays by 5
        // ms per ACK to 0 after 20 ACKs since the spike (5·pkt_count = 20), never below.
        let mut t = 300 * MS;
        for _ in 0..17 {
            let d = di.flows[0].d.round() as Time;
            assert_eq!(di.release_time(0, t, 45 * MS), t + d);
            t += d + MS;
        }
        assert_eq!(di.flows[0].d, 0.0);
        assert_eq!(di.release_time(0, t, 45 * MS), t);
        assert_eq!(di.flows[0].pkt_count, 21);
    }

    /// §IV.C: subthresh = D/(5·pkt_count), pkt_count the ACKs between the last two spikes:
    /// the i-th ACK after a spike is held D − (i − 1)·subthresh, the last hold is the
    /// 5·pkt_count-th, and the ACK after it goes at once, whatever pkt_count; the next
    /// spike sets D and subthresh afresh from its own pkt_count.
    #[test]
    fn subthresh_brings_the_hold_to_zero_after_five_pkt_counts_acks() {
        for gap in [1u64, 3, 10, 40] {
            let mut di = DelayInjection::new(Params::default(), 1);
            let mut t = 0;
            let mut ack = |di: &mut DelayInjection, pdelay| {
                let r = di.release_time(0, t, pdelay);
                let held = r - t;
                t = r + MS; // the next ACK comes after this one left: a new window
                held
            };
            assert_eq!(ack(&mut di, 40 * MS), 0); // initialises S, V
            for _ in 0..gap {
                assert_eq!(ack(&mut di, 40 * MS), 0); // D = 0: nothing held
            }
            assert_eq!(ack(&mut di, 340 * MS), 0); // a spike: D = 300/1.5 = 200 ms
            let d0 = 200e6;
            assert!((di.flows[0].d - d0).abs() < 1.0, "{}", di.flows[0].d);
            let sub = d0 / (5 * gap) as f64;
            for i in 1..=5 * gap {
                let want = (d0 - (i - 1) as f64 * sub).round() as Time;
                let held = ack(&mut di, 40 * MS);
                assert!(
                    held.abs_diff(want) <= 1,
                    "gap {gap}, ACK {i}: {held} ≠ {want}"
                );
                assert!(held > 0, "gap {gap}, ACK {i} is still held");
            }
            assert_eq!(ack(&mut di, 40 * MS), 0, "gap {gap}: D reached 0");
        }
    }

    /// Scope::Ap: one state for every ACK, so a spike of flow 0 holds the next ACK of
    /// flow 1; Scope::Flow keeps them apart.
    #[test]
    fn ap_scope_shares_the_state_between_flows() {
        for (scope, held) in [(Scope::Flow, false), (Scope::Ap, true)] {
            let params = Params {
                scope,
                ..Params::default()
            };
            let mut di = DelayInjection::new(params, 2);
            assert_eq!(di.flows.len(), if held { 1 } else { 2 });
            for k in 0..5 {
                di.release_time(0, k * MS, 40 * MS);
                di.release_time(1, k * MS, 40 * MS);
            }
            assert_eq!(di.release_time(0, 10 * MS, 400 * MS), 10 * MS); // flow 0 spikes
            let r = di.release_time(1, 11 * MS, 40 * MS);
            assert_eq!(r > 11 * MS, held, "{scope:?}: flow 1 released at {r}");
        }
    }

    #[test]
    fn order_is_kept_and_holds_are_counted_and_released_in_order() {
        let mut di = DelayInjection::new(Params::default(), 2);
        di.flows[0].d = 50e6;
        di.flows[0].sv = Some((40e6, 1e6));
        // A spike ACK after a held one still leaves after it.
        let r0 = di.release_time(0, 0, 40 * MS);
        assert_eq!(r0, 50 * MS);
        let r1 = di.release_time(0, MS, 500 * MS);
        assert_eq!(r1, 50 * MS);
        let mut q = crate::sim::event::EventQueue::<ApEvent>::new();
        let p = |seq| Packet::udp(0, seq, 0, 1, 0, 0);
        di.hold(0, 0, r0, p(0), &mut q);
        di.hold(MS, 0, r1, p(1), &mut q);
        di.hold(2 * MS, 0, 10 * MS, p(2), &mut q);
        assert_eq!(
            (di.acks_delayed, di.injected),
            (3, 50 * MS + 49 * MS + 8 * MS)
        );
        let mut out = Vec::new();
        let mut drain = |di: &mut DelayInjection, now| {
            while let Some(p) = di.pop_due(now) {
                out.push(p.seq);
            }
        };
        drain(&mut di, 10 * MS);
        drain(&mut di, 50 * MS);
        assert_eq!(out, [2, 0, 1]);
        assert!(di.held.is_empty());
    }
}
