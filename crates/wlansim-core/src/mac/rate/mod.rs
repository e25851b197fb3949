//! Rate adaptation (`mac.rate_control`, per station group `stations[].rate_control`): per
//! link and direction (a station → its AP, the AP → that station) a controller that picks
//! the data rate of each attempt from the link's ladder of rates and learns from each
//! attempt's fate (ACK received or not).
//!
//! The ladder of a link holds the standard's data rates of its PHY's modulation (802.11b:
//! 1-11 Mb/s; OFDM: 6-54 Mb/s) or, on 802.11n/ac, MCS 0 up to the highest MCS valid at
//! the configured streams, width and guard interval (for Minstrel-HT, the MCSs of each of
//! its groups: every width, stream count and guard interval up to the configured ones,
//! `minstrel_ht::group_modes`); each rung with its control frames' rates by the
//! control-response rule (`phy/rates.rs`). The algorithms:
//! - `constant`: no controller, the link's configured rate (the default);
//! - `ideal` (`ideal.rs`): the highest rate whose threshold SNR is below the link's SNR;
//! - `arf`, `aarf` (`arf.rs`): up after a run of successes, down after failures;
//! - `minstrel` (`minstrel.rs`), `minstrel_ht` (`minstrel_ht.rs`, ns-3.37's
//!   `MinstrelHtWifiManager`): throughput statistics per rate with sampling and a retry
//!   chain.
//!
//! Where the rate is used: the exchange's airtime (data frame and its ACK at the
//! control-response rate of the chosen data rate) and the data frame's decoding by the
//! SINR reception model's error curve of that rate. The i.i.d. frame error rate is
//! rate-blind, so rate adaptation needs `[channel.reception] model = "sinr"`.
//!
//! With aggregation (`mac.ampdu_max_bytes`, `mac.amsdu_max_bytes`) the controller picks
//! the rate once per A-MPDU, before it is filled (so that its PPDU time limit holds at
//! that rate), and learns from its Block Ack how many of the MPDUs sent got through (as
//! ns-3's `ReportAmpduTxStatus` and Linux's `ampdu_len`/`ampdu_ack_len` feed
//! Minstrel-HT); a missed BlockAck reports every MPDU failed (Minstrel-HT: first one
//! failed attempt, as ns-3.37); the BlockAckReq that follows goes at the controller's rung
//! (it and its BlockAck at that rung's control-response rate) and its BlockAck tells
//! Minstrel-HT the MPDUs still outstanding and those it acknowledges (its loss, when none
//! is left, ends Minstrel-HT's chain, as ns-3.37's). ARF and AARF count
//! frames, acknowledged or not, and are refused with A-MPDUs (an A-MPDU partly
//! acknowledged is neither).
pub mod arf;
pub mod first_reports;
pub mod ideal;
pub mod minstrel;
pub mod minstrel_ht;

use crate::net::NodeId;
use crate::phy::{LinkTimes, Phy};
use crate::sim::rng::Rng;
use crate::sim::time::Time;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The rate controller of a link (`mac.rate_control`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RateAlgorithm {
    /// The configured rate (`phy.data_rate`, `stations[].data_rate`, `phy.mcs`).
    #[default]
    Constant,
    /// The highest rate whose bit error rate at the link's SNR is at most 1e-6 (ns-3's
    /// `IdealWifiManager`).
    Ideal,
    /// Auto Rate Fallback (Kamerman & Monteban 1997): up after 10 successes (or 15
    /// attempts), down after 2 failures in a row or 1 just after a step up.
    Arf,
    /// Adaptive ARF (Lacage, Manshaei & Turletti 2004): ARF whose success threshold
    /// doubles (up to 60) each time the attempt after a step up fails.
    Aarf,
    /// Minstrel (Linux mac80211, ns-3 `MinstrelWifiManager`) over the legacy rates.
    Minstrel,
    /// Minstrel-HT (Linux `minstrel_ht`, ns-3 `MinstrelHtWifiManager`) over ns-3.37's
    /// groups: the MCSs at every channel width, stream count and guard interval up to the
    /// configured ones (400 ns only where `phy.guard_interval` is short); 802.11n/ac only.
    MinstrelHt,
}

impl RateAlgorithm {
    pub const ALL: [RateAlgorithm; 6] = [
        RateAlgorithm::Constant,
        RateAlgorithm::Ideal,
        RateAlgorithm::Arf,
        RateAlgorithm::Aarf,
        RateAlgorithm::Minstrel,
        RateAlgorithm::MinstrelHt,
    ];

    pub fn name(self) -> &'static str {
        match self {
            RateAlgorithm::Constant => "constant",
            RateAlgorithm::Ideal => "ideal",
            RateAlgorithm::Arf => "arf",
            RateAlgorithm::Aarf => "aarf",
            RateAlgorithm::Minstrel => "minstrel",
            RateAlgorithm::MinstrelHt => "minstrel_ht",
        }
    }
}

/// A link's ladder: each rung's rates and frame times, lowest rate first.
#[derive(Clone, Debug)]
pub struct Ladder {
    pub rungs: Vec<LinkTimes>,
    /// Per rung: the SNR (linear) at which its bit error rate is 1e-6 (`ideal`).
    pub thresholds: Vec<f64>,
    /// Per rung: the airtime of one exchange of a 1200-byte MPDU with its ACK (Minstrel's
    /// throughput estimate divides the success probability by it).
    pub exchange: Vec<Time>,
    /// Per rung (Minstrel-HT): a 1200-byte MPDU's airtime first in an A-MPDU (ns-3's
    /// `perfectTxTime`) and further in it (`GetMpduTxTime`), as `mac.minstrel_ht_airtime`
    /// times them (`minstrel_ht::mpdu_airtimes`).
    pub first_mpdu: Vec<Time>,
    pub next_mpdu: Vec<Time>,
    /// SIFS and a BlockAck at the lowest rung's control rate (Minstrel-HT's retry counts).
    pub block_ack: Time,
}

impl Ladder {
    pub fn new(phy: &Phy, rungs: Vec<LinkTimes>, airtime: minstrel_ht::Airtime) -> Ladder {
        let thresholds = rungs
            .iter()
            .map(|l| ideal::threshold_snr(l, phy.modulation))
            .collect();
        let exchange = rungs
            .iter()
            .map(|l| l.data(phy, 1200) + phy.sifs + l.ack)
            .collect();
        let (first, next_mpdu) = rungs
            .iter()
            .map(|l| minstrel_ht::mpdu_airtimes(phy, l, airtime))
            .unzip();
        let block_ack = phy.sifs + rungs.first().map_or(0, |l| l.block_ack);
        Ladder {
            rungs,
            thresholds,
            exchange,
            first_mpdu: first,
            next_mpdu,
            block_ack,
        }
    }

    fn top(&self) -> u8 {
        (self.rungs.len() - 1) as u8
    }
}

/// Which way a link's frames go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
}

/// One link's controller.
enum Controller {
    Ideal(u8),
    Arf(arf::Arf),
    Minstrel(Box<minstrel::Minstrel>),
    MinstrelHt(Box<minstrel_ht::MinstrelHt>),
}

/// What a link was sent at, for the outputs: attempts (an A-MPDU is one) and the sum of
/// their rates.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RateTally {
    pub attempts: u64,
    pub rate_sum: f64,
}

struct Link {
    ladder: usize,
    controller: Controller,
}

/// A link's controller as the world builds it: which ladder, which algorithm, the SNR of
/// the frames from the peer (`ideal`), the name of its random stream (`minstrel`).
pub struct LinkSpec {
    /// The station's frames to its AP (`tx` the station), or the AP's to it.
    pub direction: Direction,
    pub tx: NodeId,
    pub rx: NodeId,
    pub ladder: usize,
    pub algorithm: RateAlgorithm,
    pub snr: f64,
    pub rng: Rng,
}

/// The controllers of every adapted link and their ladders.
pub struct RateControl {
    ladders: Vec<Ladder>,
    /// Per station: the index in `links` of its link to its AP and of its AP's link to
    /// it (NONE: not adapted). A frame over the air always has a station at one end.
    index: Vec<[u32; 2]>,
    links: Vec<Link>,
    /// Per transmitting node: the attempts it sent at an adapted rate, and their rates.
    pub tally: Vec<RateTally>,
}

/// A head-of-line frame sent at its link's configured rates (no controller).
pub const CONFIGURED: u8 = u8::MAX;
/// The most rungs a ladder holds (a rung is a `u8`, and [`CONFIGURED`] none).
pub const MAX_RUNGS: usize = CONFIGURED as usize;
const NONE: u32 = u32::MAX;

impl RateControl {
    pub fn new(nodes: usize, ladders: Vec<Ladder>, specs: Vec<LinkSpec>) -> RateControl {
        let mut index = vec![[NONE; 2]; nodes];
        let mut links = Vec::with_capacity(specs.len());
        for s in specs {
            let ladder = &ladders[s.ladder];
            let controller = match s.algorithm {
                RateAlgorithm::Constant => continue,
                RateAlgorithm::Ideal => Controller::Ideal(ideal::choose(ladder, s.snr)),
                RateAlgorithm::Arf => Controller::Arf(arf::Arf::new(false)),
                RateAlgorithm::Aarf => Controller::Arf(arf::Arf::new(true)),
                RateAlgorithm::MinstrelHt => {
                    let mut rng = s.rng;
                    Controller::MinstrelHt(Box::new(minstrel_ht::MinstrelHt::new(ladder, &mut rng)))
                }
                RateAlgorithm::Minstrel => {
                    Controller::Minstrel(Box::new(minstrel::Minstrel::new(ladder, s.rng)))
                }
            };
            let slot = match s.direction {
                Direction::Up => &mut index[s.tx as usize][0],
                Direction::Down => &mut index[s.rx as usize][1],
            };
            *slot = links.len() as u32;
            links.push(Link {
                ladder: s.ladder,
                controller,
            });
        }
        RateControl {
            ladders,
            index,
            links,
            tally: vec![RateTally::default(); nodes],
        }
    }

    #[inline]
    fn link(&self, tx: NodeId, rx: NodeId) -> Option<usize> {
        let up = self.index[tx as usize][0];
        let i = if up != NONE {
            up
        } else {
            self.index[rx as usize][1]
        };
        (i != NONE).then_some(i as usize)
    }

    /// The rung for attempt `attempt` (0: the first) of a frame `tx` → `rx`;
    /// [`CONFIGURED`] on a link without a controller.
    pub fn choose(&mut self, tx: NodeId, rx: NodeId, attempt: u32) -> u8 {
        let Some(i) = self.link(tx, rx) else {
            return CONFIGURED;
        };
        let link = &mut self.links[i];
        let ladder = &self.ladders[link.ladder];
        match &mut link.controller {
            Controller::Ideal(r) => *r,
            Controller::Arf(a) => a.rate(),
            Controller::Minstrel(m) => m.choose(ladder, attempt),
            Controller::MinstrelHt(m) => m.rate(),
        }
    }

    /// The attempt `tx` → `rx` at `rung` ended at `now`: acknowledged (`success`) or not.
    pub fn report(&mut self, tx: NodeId, rx: NodeId, rung: u8, success: bool, now: Time) {
        self.feed(tx, rx, rung, (1, u32::from(success)), false, now);
    }

    /// The A-MPDU `tx` → `rx` at `rung` that carried `sent` MPDUs ended at `now` with
    /// `acked` of them acknowledged (0: its BlockAck was missed).
    pub fn report_mpdus(
        &mut self,
        tx: NodeId,
        rx: NodeId,
        rung: u8,
        counts: (u32, u32),
        now: Time,
    ) {
        self.feed(tx, rx, rung, counts, true, now);
    }

    fn feed(
        &mut self,
        tx: NodeId,
        rx: NodeId,
        rung: u8,
        counts: (u32, u32),
        ampdu: bool,
        now: Time,
    ) {
        if rung == CONFIGURED {
            return;
        }
        let i = self.link(tx, rx).expect("an adapted link");
        let t = &mut self.tally[tx as usize];
        t.attempts += 1;
        t.rate_sum += self.ladders[self.links[i].ladder].rungs[rung as usize]
            .rates
            .data as f64;
        self.learn(i, rung, counts, ampdu, now);
    }

    /// A frame of the link `tx` → `rx`'s start (`first_reports.rs`) with the controller at
    /// `rung` was acknowledged (`success`) or not, at time 0: the controller learns of it as
    /// of a single frame; the outputs do not count it.
    pub fn start_report(&mut self, tx: NodeId, rx: NodeId, rung: u8, success: bool) {
        let i = self.link(tx, rx).expect("an adapted link");
        self.learn(i, rung, (1, u32::from(success)), false, 0);
    }

    /// A statistics interval of the link `tx` → `rx`'s controller has passed (the start's
    /// frames are reported at time 0, `first_reports.rs`): Minstrel-HT updates its
    /// statistics at its next report; the others keep no interval.
    pub fn interval_ended(&mut self, tx: NodeId, rx: NodeId) {
        let i = self.link(tx, rx).expect("an adapted link");
        if let Controller::MinstrelHt(m) = &mut self.links[i].controller {
            m.interval_ended();
        }
    }

    /// Link `i`'s controller learns that `acked` of `sent` attempts at `rung` got through.
    fn learn(&mut self, i: usize, rung: u8, (sent, acked): (u32, u32), ampdu: bool, now: Time) {
        let link = &mut self.links[i];
        let ladder = &self.ladders[link.ladder];
        match &mut link.controller {
            Controller::Ideal(_) => {}
            // One frame (ARF and AARF are refused with A-MPDUs).
            Controller::Arf(a) => a.report(acked == sent, ladder.top()),
            // One frame (Minstrel is refused on 802.11n/ac, the PHYs that aggregate).
            Controller::Minstrel(m) => m.report(ladder, rung, acked == sent, now),
            // ns-3.37: a missed BlockAck is a failed attempt, then its MPDUs' status.
            Controller::MinstrelHt(m) if ampdu => {
                if acked == 0 {
                    m.data_failed();
                }
                m.ampdu_status((sent, acked), now);
            }
            Controller::MinstrelHt(m) if acked == 1 => m.data_ok(now),
            Controller::MinstrelHt(m) => m.data_failed(),
        }
    }

    /// The BlockAckReq `tx` → `rx` (sent after a missed BlockAck or discarded MPDUs) about
    /// `outstanding` MPDUs ended at `now`: its BlockAck came back (Some: the MPDUs it
    /// acknowledges) or not (None). Minstrel-HT learns from it as ns-3.37 does
    /// (`minstrel_ht.rs`; a lost one about no MPDU ends the frames' chain:
    /// `HtFrameExchangeManager::MissedBlockAck`); the other controllers do not.
    pub fn report_bar(
        &mut self,
        tx: NodeId,
        rx: NodeId,
        outstanding: u32,
        acked: Option<u32>,
        now: Time,
    ) {
        let Some(i) = self.link(tx, rx) else {
            return;
        };
        if let Controller::MinstrelHt(m) = &mut self.links[i].controller {
            match acked {
                Some(acked) => m.ampdu_status((outstanding, acked), now),
                None => {
                    m.data_failed();
                    if outstanding == 0 {
                        m.final_failed(now);
                    }
                }
            }
        }
    }

    /// The frame times of rung `rung` of the link `tx` → `rx`.
    #[inline]
    pub fn times(&self, tx: NodeId, rx: NodeId, rung: u8) -> &LinkTimes {
        let i = self.link(tx, rx).expect("an adapted link");
        &self.ladders[self.links[i].ladder].rungs[rung as usize]
    }

    /// Counters restart at the end of the warm-up.
    pub fn reset_statistics(&mut self) {
        self.tally.fill(RateTally::default());
    }
}
