//! Reception by SINR (`[channel.reception] model = "sinr"`): whether a receiver decodes a
//! frame given its power, the power of the frames overlapping it, and the noise.
//!
//! Received power: the link budget of `power.rs` (the median of `[channel.propagation]`'s
//! path loss, or `rx_power_dbm`, plus both ends' antenna gains). The shadowing model's
//! per-frame draw, when configured, stays a loss of its own (the channel's models
//! compose: a frame must survive every one).
//!
//! Decoding: a frame below `sensitivity_dbm` is not detected. Otherwise it is received
//! with the probability the PHY's error curves give (`error_rate.rs`, the NIST curves or
//! the table-based model: `error_model`) for its PHY header and its PSDU at
//! SINR = P / (Σ interferers + noise), drawn from the receiver's stream
//! (`<node>/reception`); a probability of exactly 1 draws nothing.
//!
//! The PHY header is decoded once, at the PPDU's start, at the SINR of the interference
//! it meets there ([`Part`]); a PPDU whose header fails is lost whole (802.11-2020
//! 17.3.12, 19.3.21: the receiver learns the rate and length from the SIGNAL/HT-SIG
//! field, and without them decodes nothing after it). The PSDU is decoded at the SINR of
//! the interference it meets. A single PSDU's header and PSDU are one draw of the two
//! probabilities' product (the frame is received or not as a whole; where the SINR is
//! the same for both this is the draw the model always made); an A-MPDU draws its header
//! once, then each MPDU at its own SINR, so that an MPDU after a colliding frame's end is
//! received only when the header, sent during the collision, was.
//!
//! Capture on the shared medium (the MAC's rule, `mac/capture.rs`; per receiver on the
//! spatial medium, `receiver.rs`): in one collision domain the frames of a
//! collision start at the same slot boundary, so they reach a receiver together and it
//! synchronises to the strongest of them (ties broken at random from its stream, as the
//! equal-power case has no physical winner). The others are lost at that receiver, and a
//! frame that reaches a receiver which is itself transmitting is lost. A frame that
//! starts while a receiver is locked onto another cannot occur here: every overlap
//! begins at a common slot boundary, or after the receiver's own transmission (the
//! frames that follow a captured one).
use super::error_rate::{header_success, psdu_success, ErrorModel, Mode};
use super::power::watts;
use crate::net::NodeId;
use crate::phy::ht::HtMode;
use crate::phy::Modulation;
use crate::sim::rng::{Rng, StreamKind};
use crate::sim::time::{Time, US};

/// The model's parameters, resolved (`scenario/reception.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReceptionParams {
    pub noise_floor_dbm: f64,
    pub rx_power_dbm: f64,
    pub sensitivity_dbm: f64,
    /// Lock onto the strongest of frames that start together (else all are lost).
    pub capture: bool,
    /// The curves of OFDM, HT and VHT frames.
    pub error_model: ErrorModel,
    /// What a node's PHY reports when the PHY header of the frame it locked onto fails.
    pub header_failure: HeaderFailure,
    /// Where an A-MPDU's first MPDU begins to meet interference.
    pub mpdu_span: MpduSpan,
    /// Which of the frames of a collision, as strong as each other, a receiver locks onto.
    pub tie_break: TieBreak,
}

/// Which of the frames that reach a receiver together, as strong as each other, it locks
/// onto (802.11-2020 leaves it open: a receiver synchronises to one preamble, 17.3.12).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TieBreak {
    /// One drawn evenly from the node's stream (the standard's and ns-2's profiles).
    #[default]
    Drawn,
    /// ns-3.37's (`profile = "ns3"`): the frame put on the air first, of which the MAC
    /// knows the order of (`mac/capture.rs`, `Shared::send_order`); the others drawn.
    SendOrder,
}

/// What a receiver's PHY reports when the PHY header of the frame it locked onto fails,
/// and so what a node that did not transmit defers after a collision it could not decode
/// (the rule: `mac/shared/header_abort.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HeaderFailure {
    /// A reception in error, as any frame of a collision: EIFS follows (802.11-2020
    /// 10.3.2.3.7; the standard's and ns-2's profiles).
    #[default]
    Error,
    /// ns-3.37's (`profile = "ns3"`): the reception is aborted with no RX-end error, and
    /// AIFS follows. Each node draws its header from a stream of its own,
    /// `<node>/header` ([`Reception::bystander_decodes_header`]).
    Abort,
}

/// Where the first MPDU of an A-MPDU begins to meet the frames it collided with (each
/// later MPDU meets those still on the air when its own bits begin): what decides it when
/// a shorter frame (a BlockAckReq, an ADDBA frame) ended during the A-MPDU's PHY
/// preamble, after which the PHY header's own draw (`Part::Header`) is all it hit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MpduSpan {
    /// From the PPDU's start (the standard's and ns-2's profiles): interference on the
    /// training fields (HT-STF/HT-LTF, VHT-STF/VHT-LTF, from which the receiver estimates
    /// the channel for the Data field that follows them, 802.11-2020 19.3.2, 21.3.2) costs
    /// the first MPDU.
    #[default]
    PpduStart,
    /// ns-3.37's (`profile = "ns3"`): each MPDU over its own span of the Data field, the
    /// first from the end of the preamble (`PhyEntity::ScheduleEndOfMpdus`,
    /// `InterferenceHelper::CalculatePayloadPer`, whose window is counted from
    /// `CalculatePhyPreambleAndHeaderDuration`): a frame that ended within the preamble
    /// costs no MPDU.
    Payload,
}

impl MpduSpan {
    /// When the MPDU that starts `offset` into its PPDU (the first at 0) begins to meet
    /// interference, the PPDU's preamble and PHY header lasting `preamble`.
    #[inline]
    pub fn start(self, offset: Time, preamble: Time) -> Time {
        match self {
            MpduSpan::PpduStart => offset,
            MpduSpan::Payload => offset.max(preamble),
        }
    }
}

/// A frame as the receiver sees it: its rate, its PSDU length and its preamble; an HT or
/// VHT data frame's mode (its rate is then that mode's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ppdu {
    pub rate: u64,
    pub bytes: u32,
    pub short_preamble: bool,
    pub ht: Option<HtMode>,
}

/// What one draw of [`Reception::decodes`] decides, at the interference passed to it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Part {
    /// A single PSDU with its header: the header at `header_interference_w` (W, at the
    /// PPDU's start), the PSDU at the interference passed.
    Ppdu { header_interference_w: f64 },
    /// An A-MPDU's PHY header alone (decoded once, at the PPDU's start).
    Header,
    /// One MPDU of an A-MPDU whose header was decoded.
    Mpdu,
}

impl Ppdu {
    /// How long its PHY header lasts from the PPDU's start (what interference starting
    /// meanwhile meets it): `plcp`, the non-HT preamble and PLCP header or SIGNAL field
    /// (96 µs with the DSSS short preamble); for HT/VHT the legacy preamble, L-SIG and the
    /// 8 µs of HT-SIG or VHT-SIG-A (the training fields after them carry no bits).
    pub fn header_time(self, plcp: Time) -> Time {
        if self.ht.is_some() {
            28 * US
        } else if self.short_preamble {
            96 * US
        } else {
            plcp
        }
    }
}

pub struct Reception {
    /// Whether a receiver may capture one of colliding frames (`mac/capture.rs`).
    pub capture: bool,
    /// Where an A-MPDU's first MPDU begins to meet interference.
    pub mpdu_span: MpduSpan,
    error_model: ErrorModel,
    modulation: Modulation,
    noise_w: f64,
    sensitivity_w: f64,
    /// Per receiving node: `<node>/reception`.
    rng: Vec<Rng>,
    /// Per node under [`HeaderFailure::Abort`]: `<node>/header` (else empty), so that no
    /// other draw moves.
    header_rng: Vec<Rng>,
}

impl Reception {
    /// Per node, in node order: its name (which keys its stream).
    pub fn new<'a>(
        seed: u64,
        params: ReceptionParams,
        modulation: Modulation,
        nodes: impl Iterator<Item = &'a str>,
    ) -> Reception {
        let names: Vec<&str> = nodes.collect();
        let streams = |part: &str| -> Vec<Rng> {
            let named = |name| Rng::named(seed, StreamKind::Channel, &format!("{name}/{part}"));
            names.iter().map(named).collect()
        };
        let header_rng = match params.header_failure {
            HeaderFailure::Error => Vec::new(),
            HeaderFailure::Abort => streams("header"),
        };
        Reception {
            capture: params.capture,
            mpdu_span: params.mpdu_span,
            error_model: params.error_model,
            modulation,
            noise_w: watts(params.noise_floor_dbm),
            sensitivity_w: watts(params.sensitivity_dbm),
            rng: streams("reception"),
            header_rng,
        }
    }

    /// Whether a node that loses the PHY header of the frame it locked onto reports no
    /// error ([`HeaderFailure::Abort`]).
    pub fn aborts_on_header_failure(&self) -> bool {
        !self.header_rng.is_empty()
    }

    /// A number drawn evenly from 0..k from `rx`'s stream (which of k frames as strong as
    /// each other it locks onto).
    pub fn draw_below(&mut self, rx: NodeId, k: u32) -> u32 {
        self.rng[rx as usize].uniform_inclusive(k - 1)
    }

    /// Which of the frames that reach `rx` together, at `powers` there, it locks onto:
    /// the strongest, ties drawn uniformly.
    pub fn lock(&mut self, rx: NodeId, powers: &[f64]) -> usize {
        Self::strongest(&mut self.rng[rx as usize], powers, None).expect("the strongest frame")
    }

    /// [`Reception::lock`] knowing that the frame `sent.0` went on the air first of the
    /// frames (`sent.1`) or last ([`TieBreak::SendOrder`]): as strong as the strongest, it
    /// is locked onto when first and only when alone when last; the others drawn.
    pub fn lock_in_order(
        &mut self,
        rx: NodeId,
        powers: &[f64],
        sent: Option<(usize, bool)>,
    ) -> usize {
        let strongest = powers.iter().copied().fold(f64::MIN, f64::max);
        match sent {
            Some((i, true)) if powers[i] == strongest => i,
            Some((i, false)) if powers[i] == strongest => {
                Self::strongest(&mut self.rng[rx as usize], powers, Some(i)).unwrap_or(i)
            }
            _ => self.lock(rx, powers),
        }
    }

    /// The index of the strongest of `powers` leaving `skip` out (None when no other is
    /// as strong as the strongest), ties drawn uniformly from `rng`. A strongest frame
    /// without equal draws nothing, but one beside a `skip` as strong draws (one number
    /// taken by `uniform_inclusive(0)`): so [`Reception::lock_in_order`]'s frame sent last
    /// drew among the others before they shared this function, and the ns-3 profile's
    /// results follow that stream.
    // Inlined into each caller, whose `skip` is then known: out of line, the shared
    // function cost the matched ns-3 A-MPDU cell 0.15 % more instructions (its bystanders
    // lock at every collision, `bystander_decodes_header`); inlined, less than before.
    #[inline(always)]
    fn strongest(rng: &mut Rng, powers: &[f64], skip: Option<usize>) -> Option<usize> {
        let strongest = powers.iter().copied().fold(f64::MIN, f64::max);
        let skipped = skip.is_some_and(|i| powers[i] == strongest);
        let ties = powers.iter().filter(|&&p| p == strongest).count() - usize::from(skipped);
        let pick = match ties {
            0 => return None,
            1 if skip.is_none() => 0,
            _ => rng.uniform_inclusive(ties as u32 - 1),
        };
        let tie = |&(j, &p): &(usize, &f64)| p == strongest && Some(j) != skip;
        let (j, _) = powers
            .iter()
            .enumerate()
            .filter(tie)
            .nth(pick as usize)
            .expect("a tie");
        Some(j)
    }

    /// The SINR of `frame` at `power_w` over `interference_w`: an HT/VHT frame's powers
    /// spread over its width as the noise does.
    fn sinr(&self, frame: Ppdu, power_w: f64, interference_w: f64) -> f64 {
        let noise = match frame.ht {
            Some(ht) => self.noise_w * f64::from(ht.width_mhz / 20),
            None => self.noise_w,
        };
        power_w / (interference_w + noise)
    }

    /// Whether node `rx`, which did not transmit, decodes the PHY header of the frame it
    /// locks onto among `frames` that reach it together at `powers` (the strongest, ties
    /// drawn from its `<node>/header` stream), the others its interference: the shared
    /// medium's bystanders ([`Reception::decodes_header`]). Under [`HeaderFailure::Abort`]
    /// only.
    pub fn bystander_decodes_header(
        &mut self,
        rx: NodeId,
        frames: &[Ppdu],
        powers: &[f64],
    ) -> bool {
        let locked = Self::strongest(&mut self.header_rng[rx as usize], powers, None)
            .expect("the strongest frame");
        let power = powers[locked];
        let others = powers.iter().sum::<f64>() - power;
        self.decodes_header(rx, frames[locked], power, others, None)
    }

    /// Whether node `rx`, which did not transmit, decodes the PHY header of `frame`, the
    /// frame it locked onto, at `power_w` over `interference_w` (the others' while the
    /// header lasts): one draw from its `<node>/header` stream (none when the probability
    /// is 1; a frame below the sensitivity is not detected). The rule of both media
    /// ([`HeaderFailure::Abort`] only): the shared medium's bystanders
    /// ([`Reception::bystander_decodes_header`]) and each node of the spatial medium
    /// (`channel/receiver.rs`).
    ///
    /// `lost`: the node's own draw of the frame ([`Reception::decodes`], [`Part::Ppdu`],
    /// one of header × PSDU) already lost it, its PSDU over that interference (W). The
    /// header is then drawn at its odds given that loss, h (1 − p) / (1 − h p) for a
    /// header decoded at h and a PSDU at p (Bayes): the header is lost at 1 − h, the frame
    /// after its header at h (1 − p), as two draws in turn would have it, while the one
    /// draw that decided the frame stands.
    pub fn decodes_header(
        &mut self,
        rx: NodeId,
        frame: Ppdu,
        power_w: f64,
        interference_w: f64,
        lost: Option<f64>,
    ) -> bool {
        if power_w < self.sensitivity_w {
            return false;
        }
        let header = self.header(frame, self.sinr(frame, power_w, interference_w));
        let p = match lost {
            None => header,
            Some(psdu_interference_w) => {
                let psdu = self.psdu(frame, self.sinr(frame, power_w, psdu_interference_w));
                header * (1.0 - psdu) / (1.0 - header * psdu)
            }
        };
        self.header_rng[rx as usize].chance(p)
    }

    /// Probability that `frame`, alone on the medium at `power_w`, is received: its PHY
    /// header and its PSDU (0 below the sensitivity).
    pub fn clear_success(&self, frame: Ppdu, power_w: f64) -> f64 {
        if power_w < self.sensitivity_w {
            return 0.0;
        }
        let sinr = self.sinr(frame, power_w, 0.0);
        self.header(frame, sinr) * self.psdu(frame, sinr)
    }

    /// Probability that `frame`'s PHY header is received at `sinr`.
    fn header(&self, frame: Ppdu, sinr: f64) -> f64 {
        let (m, short) = (self.modulation, frame.short_preamble);
        header_success(self.error_model, m, short, frame.ht.is_some(), sinr)
    }

    /// Probability that `frame`'s PSDU (an MPDU's) is received at `sinr`.
    fn psdu(&self, frame: Ppdu, sinr: f64) -> f64 {
        let mode = match frame.ht {
            Some(ht) => Mode::of_ht(ht),
            None => Mode::of(self.modulation, frame.rate).expect("validated: a standard rate"),
        };
        let (model, m) = (self.error_model, self.modulation);
        psdu_success(model, m, mode, frame.ht, frame.bytes, sinr)
    }

    /// Whether `rx` decodes `part` of `frame`, received at `power_w` over `interference_w`:
    /// one draw (none when its probability is 1). A header below the sensitivity is not
    /// detected.
    pub fn decodes(
        &mut self,
        rx: NodeId,
        frame: Ppdu,
        part: Part,
        power_w: f64,
        interference_w: f64,
    ) -> bool {
        if part != Part::Mpdu && power_w < self.sensitivity_w {
            return false;
        }
        let sinr = self.sinr(frame, power_w, interference_w);
        let p = match part {
            Part::Ppdu {
                header_interference_w,
            } => {
                let at_start = if header_interference_w == interference_w {
                    sinr
                } else {
                    self.sinr(frame, power_w, header_interference_w)
                };
                self.header(frame, at_start) * self.psdu(frame, sinr)
            }
            Part::Header => self.header(frame, sinr),
            Part::Mpdu => self.psdu(frame, sinr),
        };
        self.rng[rx as usize].chance(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reception(nodes: usize) -> Reception {
        let names: Vec<String> = (0..nodes).map(|i| format!("n{i}")).collect();
        Reception::new(
            7,
            ReceptionParams {
                noise_floor_dbm: -94.0,
                rx_power_dbm: -60.0,
                sensitivity_dbm: -82.0,
                capture: true,
                error_model: ErrorModel::Nist,
                header_failure: HeaderFailure::Error,
                mpdu_span: MpduSpan::PpduStart,
                tie_break: TieBreak::Drawn,
            },
            Modulation::Dsss,
            names.iter().map(|n| n.as_str()),
        )
    }

    /// The matched ns-3 cells' reception (every frame at −30.66 dBm, ns-3's tables) under
    /// `header_failure`.
    fn matched(header_failure: HeaderFailure) -> ReceptionParams {
        ReceptionParams {
            noise_floor_dbm: -93.97,
            rx_power_dbm: -30.66,
            sensitivity_dbm: -101.0,
            capture: true,
            error_model: ErrorModel::Table,
            header_failure,
            mpdu_span: MpduSpan::PpduStart,
            tie_break: TieBreak::Drawn,
        }
    }

    /// A single PSDU that meets `interference_w` from its start.
    fn whole(interference_w: f64) -> Part {
        Part::Ppdu {
            header_interference_w: interference_w,
        }
    }

    const RTS: Ppdu = Ppdu {
        rate: 1_000_000,
        bytes: 20,
        short_preamble: false,
        ht: None,
    };
    const DATA: Ppdu = Ppdu {
        rate: 11_000_000,
        bytes: 1536,
        short_preamble: false,
        ht: None,
    };

    #[test]
    fn a_frame_alone_above_sensitivity_is_always_received() {
        let mut r = reception(2);
        let p = watts(-60.0);
        assert!((0..10_000).all(|_| r.decodes(0, DATA, whole(0.0), p, 0.0)));
        // Below the sensitivity nothing is received.
        assert!(!r.decodes(0, RTS, whole(0.0), watts(-83.0), 0.0));
    }

    #[test]
    fn equal_power_cck_frames_destroy_each_other_a_frame_20_db_up_survives() {
        let mut r = reception(3);
        let p = watts(-60.0);
        assert!((0..10_000).all(|_| !r.decodes(0, DATA, whole(p), p, p)));
        assert!((0..10_000).all(|_| r.decodes(0, DATA, whole(p), p * 100.0, p)));
    }

    #[test]
    fn the_strongest_is_locked_and_ties_are_drawn_evenly() {
        let mut r = reception(4);
        let budget = crate::channel::LinkBudget::new(None, -60.0, [0.0, 3.0, 0.0, 0.0].into_iter());
        let pos = crate::channel::Positions::default();
        let strong = budget.power_w(&pos, 1, 0, 0);
        let weak = budget.power_w(&pos, 2, 0, 0);
        assert!((strong / weak - 10f64.powf(0.3)).abs() < 1e-12);
        assert_eq!(r.lock(0, &[weak, strong, weak]), 1);
        let mut counts = [0; 3];
        for _ in 0..30_000 {
            counts[r.lock(0, &[weak, weak, weak])] += 1;
        }
        for c in counts {
            assert!(
                (c as f64 / 30_000.0 - 1.0 / 3.0).abs() < 0.015,
                "{counts:?}"
            );
        }
    }

    /// ns-3.37's order ([`TieBreak::SendOrder`]): of equally strong frames the one sent
    /// first is locked onto, the one sent last only when alone; a stronger frame wins.
    #[test]
    fn the_frame_sent_first_is_locked_among_equals_the_last_never() {
        let mut r = reception(3);
        let (p, weak) = (watts(-60.0), watts(-70.0));
        assert!((0..1000).all(|_| r.lock_in_order(0, &[p, p, p], Some((2, true))) == 2));
        assert_eq!(r.lock_in_order(0, &[p, weak], Some((1, true))), 0);
        assert!((0..1000).all(|_| r.lock_in_order(0, &[p, p], Some((0, false))) == 1));
        assert_eq!(r.lock_in_order(0, &[p, weak], Some((0, false))), 0);
        let mut counts = [0; 3];
        for _ in 0..30_000 {
            counts[r.lock_in_order(0, &[p, p, p], Some((1, false)))] += 1;
        }
        assert_eq!(counts[1], 0);
        assert!(
            (counts[0] as f64 / 30_000.0 - 0.5).abs() < 0.015,
            "{counts:?}"
        );
    }

    /// The streams of [`Reception::strongest`]'s two uses: the frame sent last beside one
    /// as strong draws once (as it did before they shared the function: the ns-3 profile's
    /// results follow it), a frame stronger than the others draws nothing.
    #[test]
    fn the_frame_sent_last_draws_beside_one_tie_a_lone_strongest_does_not() {
        let (mut r, mut by_hand) = (reception(3), reception(3));
        let (p, weak) = (watts(-60.0), watts(-70.0));
        assert_eq!(r.lock_in_order(0, &[p, p], Some((0, false))), 1);
        by_hand.draw_below(0, 1);
        assert_eq!(r.lock(0, &[weak, p, weak]), 1);
        assert_eq!(r.lock_in_order(0, &[p, weak], Some((0, false))), 0);
        assert_eq!(r.lock_in_order(0, &[weak, p], Some((0, false))), 1);
        assert_eq!(r.draw_below(0, 1 << 20), by_hand.draw_below(0, 1 << 20));
    }

    /// The header-once rule: a PPDU's header meets the interference at its start, its
    /// PSDU (or an MPDU) the interference where it is; a header alone is one draw.
    #[test]
    fn the_header_is_decoded_at_the_start_and_the_psdu_where_it_is() {
        let names = ["ap", "sta"];
        let params = |error_model| ReceptionParams {
            noise_floor_dbm: -94.0,
            rx_power_dbm: -60.0,
            sensitivity_dbm: -82.0,
            capture: true,
            error_model,
            header_failure: HeaderFailure::Error,
            mpdu_span: MpduSpan::PpduStart,
            tie_break: TieBreak::Drawn,
        };
        let ofdm = |m| Reception::new(7, params(m), Modulation::Ofdm, names.into_iter());
        let rts = Ppdu {
            rate: 6_000_000,
            ..RTS
        };
        let p = watts(-60.0);
        let n = 20_000;
        let rate = |r: &mut Reception, part, interference| {
            (0..n)
                .filter(|_| r.decodes(0, rts, part, p, interference))
                .count() as f64
                / n as f64
        };
        let sinr = p / (p + watts(-94.0));
        for model in [ErrorModel::Nist, ErrorModel::Table] {
            let mut r = ofdm(model);
            let header = header_success(model, Modulation::Ofdm, false, false, sinr);
            let mode = Mode::Ofdm { bits: 1, b: 1 };
            let psdu = psdu_success(model, Modulation::Ofdm, mode, None, 20, sinr);
            // An equal-power frame over the header only, over the PSDU only, over both.
            let cases = [
                (whole(p), 0.0, header),
                (whole(0.0), p, psdu),
                (whole(p), p, header * psdu),
            ];
            for (part, interference, expected) in cases {
                let got = rate(&mut r, part, interference);
                assert!(
                    (got - expected).abs() < 0.01,
                    "{model:?}: {got} vs {expected}"
                );
            }
            let got = rate(&mut r, Part::Header, p);
            assert!((got - header).abs() < 0.01, "{model:?}: {got} vs {header}");
            let got = rate(&mut r, Part::Mpdu, p);
            assert!((got - psdu).abs() < 0.01, "{model:?}: {got} vs {psdu}");
        }
        // The NIST curves lose a 6 Mb/s RTS's header at 0 dB most of the time, the tables
        // hardly ever (ns-3: 0.0344 at 0 dB for 32 bytes, 3 bytes here).
        let (nist, table) = (ErrorModel::Nist, ErrorModel::Table);
        assert!(header_success(nist, Modulation::Ofdm, false, false, sinr) < 0.7);
        assert!(header_success(table, Modulation::Ofdm, false, false, sinr) > 0.99);
    }

    /// ns-3.37's bystanders (`HeaderFailure::Abort`): a node that did not transmit draws
    /// the header of the frame it locks onto from its own stream, at the tables' odds: a
    /// non-HT header (L-SIG, 3 bytes of BPSK 1/2) fails at 0.33 % at 0 dB (two frames)
    /// and 39.3 % at −3 dB (three); the reception draws are the same as without it.
    #[test]
    fn bystanders_draw_the_header_apart_at_the_tables_odds() {
        let names = ["ap", "a", "b"];
        let make = |h| Reception::new(3, matched(h), Modulation::Ofdm, names.into_iter());
        let (mut error, mut abort) = (make(HeaderFailure::Error), make(HeaderFailure::Abort));
        assert!(!error.aborts_on_header_failure() && abort.aborts_on_header_failure());
        let data = Ppdu {
            rate: 54_000_000,
            bytes: 1536,
            ..RTS
        };
        let p = watts(-30.66);
        let n = 200_000;
        for (frames, expected) in [(2, 0.00328), (3, 0.39263)] {
            let (ppdus, powers) = (vec![data; frames], vec![p; frames]);
            let sinr = p / ((frames - 1) as f64 * p + watts(-93.97));
            let lost =
                1.0 - header_success(ErrorModel::Table, Modulation::Ofdm, false, false, sinr);
            assert!((lost - expected).abs() < 1e-5, "{frames}: {lost}");
            let failed = (0..n)
                .filter(|_| !abort.bystander_decodes_header(1, &ppdus, &powers))
                .count() as f64
                / n as f64;
            let sd = (expected * (1.0 - expected) / n as f64).sqrt();
            assert!((failed - expected).abs() < 5.0 * sd, "{frames}: {failed}");
        }
        // The receivers' own draws do not move.
        let rts = Ppdu {
            rate: 6_000_000,
            ..RTS
        };
        for _ in 0..1000 {
            let (e, a) = (error.lock(0, &[p, p]), abort.lock(0, &[p, p]));
            assert_eq!(e, a);
            let part = Part::Ppdu {
                header_interference_w: p,
            };
            assert_eq!(
                error.decodes(0, rts, part, p, p),
                abort.decodes(0, rts, part, p, p)
            );
        }
    }

    /// The spatial medium's nodes (`channel/receiver.rs`): a node's own draw of header ×
    /// PSDU lost the frame, and it draws the header given that loss: the header is lost at
    /// 1 − h and the frame after its header at h (1 − p), as two draws in turn would have
    /// it (here h ≈ 0.6 and p ≈ 0.5, the header and the PSDU at interferences of their
    /// own); the node's own draws are those it makes without the rule.
    #[test]
    fn the_header_of_a_lost_frame_is_drawn_given_the_loss() {
        let names = ["ap", "a"];
        let make = |h| Reception::new(5, matched(h), Modulation::Ofdm, names.into_iter());
        let (mut error, mut abort) = (make(HeaderFailure::Error), make(HeaderFailure::Abort));
        let data = Ppdu {
            rate: 6_000_000,
            bytes: 100,
            ..RTS
        };
        let power = watts(-30.66);
        // The interference (W) at which `odds` is `target` (it falls as the SINR does).
        let at = |odds: &dyn Fn(f64) -> f64, target: f64| {
            let (mut lo, mut hi) = (power * 1e-3, power * 1e3);
            for _ in 0..200 {
                let mid = (lo * hi).sqrt();
                if odds(mid) > target {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            lo
        };
        let r = &abort;
        let header_w = at(&|i| r.header(data, r.sinr(data, power, i)), 0.6);
        let psdu_w = at(&|i| r.psdu(data, r.sinr(data, power, i)), 0.5);
        let (h, p) = (
            r.header(data, r.sinr(data, power, header_w)),
            r.psdu(data, r.sinr(data, power, psdu_w)),
        );
        // (The tables round the SNR to 0.01 dB.)
        assert!((h - 0.6).abs() < 0.01 && (p - 0.5).abs() < 0.01, "{h} {p}");
        let part = Part::Ppdu {
            header_interference_w: header_w,
        };
        let n = 200_000;
        let (mut decoded, mut header_lost) = (0, 0);
        for _ in 0..n {
            let d = abort.decodes(1, data, part, power, psdu_w);
            assert_eq!(d, error.decodes(1, data, part, power, psdu_w));
            if d {
                decoded += 1;
            } else if !abort.decodes_header(1, data, power, header_w, Some(psdu_w)) {
                header_lost += 1;
            }
        }
        let after_header = n - decoded - header_lost;
        for (count, expected) in [
            (decoded, h * p),
            (header_lost, 1.0 - h),
            (after_header, h * (1.0 - p)),
        ] {
            let got = count as f64 / n as f64;
            let sd = (expected * (1.0 - expected) / n as f64).sqrt();
            assert!((got - expected).abs() < 5.0 * sd, "{got} vs {expected}");
        }
    }
}
