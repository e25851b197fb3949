//! Minstrel-HT over MCS groups, as ns-3.37's `MinstrelHtWifiManager`
//! (src/wifi/model/rate-control/minstrel-ht-wifi-manager.cc at tag ns-3.37, itself after
//! Linux's `rc80211_minstrel_ht`) runs it; the names of its functions are given beside
//! each rule:
//! - the groups (`DoInitialize`, `RateInit`, [`group_modes`]): one per channel width up
//!   to the link's, guard interval (800 ns, and 400 ns where the link uses the short one)
//!   and stream count up to the link's, of the link's format only (HT on 802.11n, VHT on
//!   802.11ac: `UseLatestAmendmentOnly`), in ns-3's group order (`GetHtGroupId`,
//!   `GetVhtGroupId`: width, then guard interval, then streams); each holds the format's
//!   MCSs (8 HT, 10 VHT), those a width and stream count leave out (VHT, 21.5:
//!   [`HtMode::check`], ns-3's `IsValidMcs`) unsupported. A rate is a group and an MCS
//!   (`GetIndex`); the statistics and choices below run over every supported rate of every
//!   group, in group order;
//! - statistics (`UpdateStats`) at the first report 50 ms (`UpdateStatistics`) or more
//!   after the last update: per rate tried since, the interval's success percentage,
//!   whole (`100 * success / attempt` in integers), its EWMA (75 % on the old value; the
//!   interval's value itself while the rate never succeeded), the throughput estimate
//!   (`CalculateThroughput`: 0 under 10 %, else the percentage, at most 90, over the
//!   airtime of a 1200-byte first MPDU of an A-MPDU, `perfectTxTime`: [`mpdu_airtimes`],
//!   ns-3.37's under `mac.minstrel_ht_airtime = "ns3"`); the best and second best
//!   throughput (`SetBestStationThRates`) and the best-probability rate
//!   (`SetBestProbabilityRate`: the highest throughput among the rates above 75 %, else the
//!   most probable), each update starting from the lowest rate (`GetLowestIndex`: the
//!   first group's MCS 0); each chain rate's retry count (`CalculateRetransmits`: 2, or
//!   more while the attempts with their backoff fit in 6 ms, at most 7; 1 for a rate under
//!   1 %: an A-MPDU's airtime the first MPDU's and the mean length's others',
//!   [`mpdu_airtimes`]); the mean A-MPDU length (MPDUs per A-MPDU, an EWMA over the
//!   intervals, whole);
//! - the rate of the next frame or A-MPDU (`FindRate`, after each report that ends a
//!   frame's chain): the best throughput, or a sample: once `16 + 2 × mean A-MPDU length`
//!   reports have passed since the last sample (`UpdatePacketCounters`, at most
//!   `8 × groups` samples per interval), the next rate of the sample table (10 columns,
//!   each a random order of a group's MCSs; the groups take turns, each walking the table
//!   row by row from its own place: `InitSampleTable`, `GetNextSample`, `SetNextSample`)
//!   is sampled when it is supported, none of the three chain rates, at most 95 %
//!   probable, and faster than the second best (or, with fewer streams than the best,
//!   faster than the most probable), or else after it was skipped by 20 updates, at most
//!   twice per interval;
//! - the retry chain (`UpdateRate`, on a failed frame or an A-MPDU without BlockAck): the
//!   best throughput for its retry count, the second best for its, then the best
//!   probability; a sample once, then the second best, then the best probability (the
//!   second best's count read, as in ns-3.37, at its MCS in the best rate's group). The
//!   controller's own retry count (`m_longRetry`) moves it, not the MAC's; a report with
//!   a success, or one past the chain's end (`CountRetries`), restarts it;
//! - what is reported (`DoReportAmpduTxStatus`, ns-3.37's HtFrameExchangeManager): an
//!   A-MPDU's BlockAck, its MPDUs sent and acknowledged; a missed BlockAck, first one
//!   failed attempt (`ReportDataFailed`, moving the chain) and then every MPDU failed
//!   (moving it again); the BlockAck of the BlockAckReq that follows, the MPDUs still
//!   outstanding and those it acknowledges; its loss, one failed attempt, and when no MPDU
//!   was left for it to ask about, the end of the frames' chain ([`MinstrelHt::final_failed`]).
//!   Each count goes to the rate the chain stands at when it arrives (ns-3's `m_txrate`),
//!   which after a missed BlockAck may already be the next one.
//!
//! Left out: ns-3's best rates per group (`GroupInfo::m_maxTpRate`...: kept by ns-3.37 but
//! read by none of its choices); its HE groups and its legacy Minstrel for non-HT peers;
//! its limit on a single MPDU's retries (`DoNeedRetransmission`: the MAC's retry limits
//! stay wlansim's), and its rate reset after a frame dropped at that limit
//! (`DoReportFinalDataFailed` for a single MPDU: wlansim's controller keeps its chain
//! until the next report with a success).
use super::Ladder;
use crate::phy::ht::{Format, GuardInterval, HtMode};
use crate::phy::{LinkTimes, Phy, PsduTime};
use crate::sim::rng::Rng;
use crate::sim::time::{Time, MS, US};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `UpdateStatistics`.
const UPDATE: Time = 50 * MS;
/// `EWMA`, percent on the old value.
const EWMA_LEVEL: f64 = 75.0;
/// `SampleColumn`.
const SAMPLE_COLUMNS: usize = 10;
/// `CalculateRetransmits`'s airtime budget for a rate's attempts.
const RETRY_BUDGET: Time = 6 * MS;
/// `CalculateRetransmits`'s slot time (OFDM; every ladder here is HT or VHT).
const SLOT: Time = 9 * US;

/// How Minstrel-HT times a rate's MPDUs (`mac.minstrel_ht_airtime`): the airtime its
/// throughput estimate and sampling compare (a first MPDU's) and that its retry counts
/// add up (a first MPDU's and the further ones').
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Airtime {
    /// ns-3.37's: each MPDU's data symbols as a fraction, not rounded up, and every MPDU,
    /// the further ones too, with the PPDU's preamble and signal fields.
    Ns3,
    /// The PPDU's: a first MPDU as a PPDU of its own, in whole symbols; a further MPDU,
    /// the time it adds to the PPDU.
    Ppdu,
}

/// The bytes of the MPDU Minstrel-HT times (ns-3.37's `PacketLength`).
const MPDU_BYTES: u32 = 1200;

/// A 1200-byte MPDU's airtime on `link`, first in an A-MPDU and further in it, as
/// `airtime` times it. ns-3.37's (`CalculateMpduTxDuration`,
/// rate-control/minstrel-ht-wifi-manager.cc:427-445, with `HtPhy::GetPayloadDuration`,
/// ht/ht-phy.cc:300-319; src/wifi/model at tag ns-3.37): the preamble and signal fields
/// (`CalculatePhyPreambleAndHeaderDuration`, no VHT-SIG-B: [`PsduTime::Ns3`]) plus, for
/// `FIRST_MPDU_IN_AGGREGATE`, (16 + 8 · 1200 + 6 · N_ES) / N_DBPS symbols and, for
/// `MIDDLE_MPDU_IN_AGGREGATE`, 8 · 1200 / N_DBPS, each a fraction times the symbol in
/// femtoseconds, truncated to the nanosecond. A link without an HT/VHT mode (legacy
/// ladders, whose controllers read neither) is timed as the PPDU's.
pub fn mpdu_airtimes(phy: &Phy, link: &LinkTimes, airtime: Airtime) -> (Time, Time) {
    match (airtime, link.rates.ht) {
        (Airtime::Ns3, Some(m)) => {
            let preamble = m.preamble(PsduTime::Ns3);
            let fs_per_symbol = m.symbol() as f64 * 1e6;
            let part = |bits: u64| {
                let symbols = bits as f64 / m.bits_per_symbol() as f64;
                (symbols * fs_per_symbol) as Time / 1_000_000
            };
            let bits = 8 * u64::from(MPDU_BYTES);
            let first = preamble + part(16 + bits + 6 * m.encoders());
            (first, preamble + part(bits))
        }
        _ => {
            let one = link.data(phy, MPDU_BYTES);
            (one, link.data(phy, 2 * MPDU_BYTES) - one)
        }
    }
}

/// The modes Minstrel-HT chooses among on a link whose configured mode is `top` (its
/// format, widest channel, most streams and guard interval): every MCS of every group
/// (ns-3.37 `DoInitialize`, `RateInit`), in ns-3's group order, MCS 0 first in each.
/// Which MCSs exist is [`HtMode::check`]'s rule.
pub fn group_modes(top: HtMode) -> Vec<HtMode> {
    let gis: &[GuardInterval] = match top.guard_interval {
        GuardInterval::Long => &[GuardInterval::Long],
        GuardInterval::Short => &[GuardInterval::Long, GuardInterval::Short],
    };
    let mut modes = Vec::new();
    for &width_mhz in top.format.widths().iter().filter(|&&w| w <= top.width_mhz) {
        for &guard_interval in gis {
            for streams in 1..=top.streams {
                for mcs in 0..=top.format.max_mcs() {
                    let mode = HtMode {
                        format: top.format,
                        mcs,
                        streams,
                        width_mhz,
                        guard_interval,
                    };
                    if mode.check().is_ok() {
                        modes.push(mode);
                    }
                }
            }
        }
    }
    modes
}

#[derive(Clone, Copy, Debug, Default)]
struct Rate {
    /// The ladder's rung of this group's MCS; None: the MCS does not exist there
    /// (`supported`).
    rung: Option<u8>,
    /// A 1200-byte first MPDU's airtime with its preamble (`perfectTxTime`) and a further
    /// MPDU's (`GetMpduTxTime`).
    first: Time,
    next: Time,
    attempts: u32,
    successes: u32,
    /// Percent, 0-100.
    ewma: f64,
    throughput: f64,
    success_hist: u64,
    samples_skipped: u32,
    retry_count: u32,
    retry_updated: bool,
}

/// A group's spatial streams, and where its walk of the sample table stands
/// (`GroupInfo::m_index`, `m_col`).
#[derive(Clone, Copy, Debug)]
struct Group {
    streams: u8,
    index: usize,
    col: usize,
}

pub struct MinstrelHt {
    /// MCSs per group (`m_numRates`): 8 (HT) or 10 (VHT).
    per_group: usize,
    groups: Vec<Group>,
    /// By rate (`GetIndex`: group × `per_group` + MCS).
    rates: Vec<Rate>,
    /// SIFS and a BlockAck (`CalculateRetransmits`'s `ackTime`).
    ack: Time,
    max_tp: u16,
    max_tp2: u16,
    max_prob: u16,
    /// The rate of the next frame or A-MPDU (`m_txrate`).
    txrate: u16,
    long_retry: u32,
    sampling: bool,
    /// The group whose turn it is to sample (`m_sampleGroup`).
    sample_group: usize,
    sample_wait: u32,
    sample_tries: u32,
    sample_count: u32,
    samples_slow: u32,
    avg_ampdu_len: u32,
    ampdu_len: u32,
    ampdu_count: u32,
    total_packets: u64,
    sample_packets: u64,
    /// `m_sampleTable[index][col]` (here by column): MCSs.
    table: Vec<Vec<u8>>,
    next_update: Time,
}

impl MinstrelHt {
    /// The controller of a link starting at time 0 (`DoCreateStation`, `RateInit`), over a
    /// ladder of [`group_modes`].
    pub fn new(ladder: &Ladder, rng: &mut Rng) -> MinstrelHt {
        let mode = |i: usize| ladder.rungs[i].rates.ht.expect("Minstrel-HT: HT/VHT rungs");
        let format = mode(0).format;
        let per_group = format.max_mcs() as usize + 1;
        let mut groups: Vec<Group> = Vec::new();
        let mut rates: Vec<Rate> = Vec::new();
        let mut last = None;
        for i in 0..ladder.rungs.len() {
            let m = mode(i);
            let key = (m.width_mhz, m.guard_interval, m.streams);
            if last != Some(key) {
                last = Some(key);
                groups.push(Group {
                    streams: m.streams,
                    index: 0,
                    col: 0,
                });
                rates.resize(rates.len() + per_group, Rate::default());
            }
            let r = &mut rates[(groups.len() - 1) * per_group + m.mcs as usize];
            r.rung = Some(i as u8);
            r.first = ladder.first_mpdu[i];
            r.next = ladder.next_mpdu[i];
        }
        // ns-3 starts its turns at group 0 (HT, 20 MHz, 800 ns, one stream), whose
        // successor takes the first turn (`SetNextSample`): on 802.11ac, with no HT
        // group, the first group.
        let m0 = mode(0);
        let ns3_group_zero = m0.format == Format::Ht
            && (m0.width_mhz, m0.guard_interval, m0.streams) == (20, GuardInterval::Long, 1);
        let sample_group = if ns3_group_zero { 0 } else { groups.len() - 1 };
        let mut m = MinstrelHt {
            per_group,
            groups,
            rates,
            ack: ladder.block_ack,
            max_tp: 0,
            max_tp2: 0,
            max_prob: 0,
            txrate: 0,
            long_retry: 0,
            sampling: false,
            sample_group,
            sample_wait: 0,
            sample_tries: 4,
            sample_count: 16,
            samples_slow: 0,
            avg_ampdu_len: 1,
            ampdu_len: 0,
            ampdu_count: 0,
            total_packets: 0,
            sample_packets: 0,
            table: sample_table(per_group, rng),
            next_update: 0,
        };
        for i in 0..m.rates.len() {
            if m.rates[i].rung.is_some() {
                m.calculate_retransmits(i);
            }
        }
        m.set_next_sample();
        m.update_stats(0);
        m.txrate = m.find_rate();
        m
    }

    /// The rung of the next attempt (`DoGetDataTxVector`).
    pub fn rate(&self) -> u8 {
        self.rates[self.txrate as usize]
            .rung
            .expect("a supported rate")
    }

    /// A frame's attempt, or an A-MPDU's or a BlockAckReq's exchange, got no
    /// acknowledgement (`DoReportDataFailed`).
    pub fn data_failed(&mut self) {
        if self.long_retry < self.count_retries() {
            self.rates[self.txrate as usize].attempts += 1;
            self.update_rate();
        }
    }

    /// A BlockAckReq's BlockAck was missed and no MPDU is left for it to ask about (the
    /// MAC discarded them): the frames' exchange ended in failure, the chain restarts
    /// (`DoReportFinalDataFailed`, which ns-3.37's `HtFrameExchangeManager::MissedBlockAck`
    /// calls when `NeedBarRetransmission` finds no MPDU in flight). Without it a
    /// controller past its chain's end, whose BlockAckReqs at that rate are all lost,
    /// would hear nothing else and stay there.
    pub fn final_failed(&mut self, now: Time) {
        self.update_packet_counters(0, 1);
        self.next_frame(now);
    }

    /// A statistics interval has passed: the next report that ends a frame's chain updates
    /// them (`first_reports.rs`: ns-3.37's application starts 450 ms after its association).
    pub fn interval_ended(&mut self) {
        self.next_update = 0;
    }

    /// A single frame was acknowledged (`DoReportDataOk`).
    pub fn data_ok(&mut self, now: Time) {
        let r = &mut self.rates[self.txrate as usize];
        r.successes += 1;
        r.attempts += 1;
        self.update_packet_counters(1, 0);
        self.next_frame(now);
    }

    /// A BlockAck (of an A-MPDU or a BlockAckReq) acknowledged `acked` of `sent` MPDUs, or
    /// an A-MPDU's BlockAck was missed (`acked` 0) (`DoReportAmpduTxStatus`).
    pub fn ampdu_status(&mut self, (sent, acked): (u32, u32), now: Time) {
        self.ampdu_count += 1;
        self.ampdu_len += sent;
        self.update_packet_counters(acked, sent - acked);
        let r = &mut self.rates[self.txrate as usize];
        r.successes += acked;
        r.attempts += sent;
        if acked == 0 && self.long_retry < self.count_retries() {
            self.update_rate();
        } else {
            self.next_frame(now);
        }
    }

    /// The chain ends: statistics when due, and the next frame's rate.
    fn next_frame(&mut self, now: Time) {
        self.sampling = false;
        self.long_retry = 0;
        if now >= self.next_update {
            self.update_stats(now);
        }
        self.txrate = self.find_rate();
    }

    /// ns-3.37 reads the second best rate's retry count, while sampling, at the second
    /// best's MCS in the best rate's group (`m_groupsTable[maxTpGroupId]
    /// .m_ratesTable[maxTp2RateId]`, in `CountRetries` and `UpdateRate`): the same rate
    /// when both are in one group, else another (or an MCS the group lacks: 0).
    fn sampling_tp2_retries(&self) -> u32 {
        let n = self.per_group as u16;
        let i = self.max_tp / n * n + self.max_tp2 % n;
        self.rates[i as usize].retry_count
    }

    fn count_retries(&self) -> u32 {
        let rc = |i: u16| self.rates[i as usize].retry_count;
        if self.sampling {
            1 + self.sampling_tp2_retries() + rc(self.max_prob)
        } else {
            rc(self.max_tp) + rc(self.max_tp2) + rc(self.max_prob)
        }
    }

    /// `UpdateRate`: the chain's next attempt.
    fn update_rate(&mut self) {
        self.long_retry += 1;
        let rc = |i: u16| self.rates[i as usize].retry_count;
        let r = self.long_retry;
        self.txrate = if !self.sampling {
            if r < rc(self.max_tp) {
                self.max_tp
            } else if r < rc(self.max_tp) + rc(self.max_tp2) {
                self.max_tp2
            } else {
                self.max_prob
            }
        } else if r < 1 + self.sampling_tp2_retries() {
            self.max_tp2
        } else {
            self.max_prob
        };
    }

    fn update_packet_counters(&mut self, successes: u32, failures: u32) {
        let n = u64::from(successes + failures);
        self.total_packets += n;
        if self.sampling {
            self.sample_packets += n;
        }
        if self.sample_wait == 0 && self.sample_tries == 0 && self.sample_count > 0 {
            self.sample_wait = 16 + 2 * self.avg_ampdu_len;
            self.sample_tries = 1;
            self.sample_count -= 1;
        }
    }

    /// `SetNextSample`: the next group's turn, one row further in its walk.
    fn set_next_sample(&mut self) {
        self.sample_group = (self.sample_group + 1) % self.groups.len();
        let g = &mut self.groups[self.sample_group];
        g.index += 1;
        if g.index >= self.per_group {
            g.index = 0;
            g.col = (g.col + 1) % SAMPLE_COLUMNS;
        }
    }

    /// `GetNextSample`: the rate where the group whose turn it is stands.
    fn next_sample(&mut self) -> u16 {
        let group = self.sample_group;
        let g = self.groups[group];
        let mcs = self.table[g.col][g.index];
        self.set_next_sample();
        (group * self.per_group) as u16 + u16::from(mcs)
    }

    fn streams(&self, i: u16) -> u8 {
        self.groups[i as usize / self.per_group].streams
    }

    /// `FindRate`.
    fn find_rate(&mut self) -> u16 {
        if self.sample_packets + self.total_packets == 0 {
            return self.max_tp;
        }
        if self.sample_wait == 0 && self.sample_tries != 0 {
            let s = self.next_sample();
            let info = self.rates[s as usize];
            let chain = [self.max_tp, self.max_tp2, self.max_prob];
            if info.rung.is_some() && !chain.contains(&s) && info.ewma <= 95.0 {
                let first = |i: u16| self.rates[i as usize].first;
                let faster = info.first < first(self.max_tp2)
                    || (self.streams(s) < self.streams(self.max_tp)
                        && info.first < first(self.max_prob));
                if !faster {
                    self.samples_slow += 1;
                }
                if faster || (info.samples_skipped >= 20 && self.samples_slow <= 2) {
                    self.sampling = true;
                    self.sample_tries -= 1;
                    return s;
                }
            }
        }
        self.sample_wait = self.sample_wait.saturating_sub(1);
        self.max_tp
    }

    /// `UpdateStats`.
    fn update_stats(&mut self, now: Time) {
        self.next_update = now + UPDATE;
        self.samples_slow = 0;
        if let Some(latest) = self.ampdu_len.checked_div(self.ampdu_count) {
            let latest = f64::from(latest);
            let avg = latest * (100.0 - EWMA_LEVEL) + f64::from(self.avg_ampdu_len) * EWMA_LEVEL;
            self.avg_ampdu_len = (avg / 100.0) as u32;
            (self.ampdu_len, self.ampdu_count) = (0, 0);
        }
        let lowest = self.rates.iter().position(|r| r.rung.is_some());
        let lowest = lowest.expect("a supported rate") as u16;
        (self.max_tp, self.max_tp2, self.max_prob) = (lowest, lowest, lowest);
        for i in 0..self.rates.len() {
            let r = &mut self.rates[i];
            if r.rung.is_none() {
                continue;
            }
            r.retry_updated = false;
            if let Some(p) = (100 * r.successes).checked_div(r.attempts) {
                r.samples_skipped = 0;
                let p = f64::from(p);
                r.ewma = if r.success_hist == 0 {
                    p
                } else {
                    (p * (100.0 - EWMA_LEVEL) + r.ewma * EWMA_LEVEL) / 100.0
                };
                r.throughput = throughput(r.ewma, r.first);
                r.success_hist += u64::from(r.successes);
            } else {
                r.samples_skipped += 1;
            }
            (r.attempts, r.successes) = (0, 0);
            if r.throughput != 0.0 {
                self.set_best_throughputs(i as u16);
                self.set_best_probability(i as u16);
            }
        }
        // Every rate of every group sampled in each interval, as far as it goes.
        self.sample_count = 8 * self.groups.len() as u32;
        for i in [self.max_tp, self.max_tp2, self.max_prob] {
            if !self.rates[i as usize].retry_updated {
                self.calculate_retransmits(i as usize);
            }
        }
    }

    fn set_best_throughputs(&mut self, i: u16) {
        let r = self.rates[i as usize];
        let (tp, tp2) = (
            self.rates[self.max_tp as usize],
            self.rates[self.max_tp2 as usize],
        );
        let beats = |o: Rate| {
            r.throughput > o.throughput || (r.throughput == o.throughput && r.ewma > o.ewma)
        };
        if beats(tp) {
            self.max_tp2 = self.max_tp;
            self.max_tp = i;
        } else if beats(tp2) {
            self.max_tp2 = i;
        }
    }

    fn set_best_probability(&mut self, i: u16) {
        let r = self.rates[i as usize];
        let best = self.rates[self.max_prob as usize];
        if r.ewma > 75.0 {
            if r.throughput > best.throughput {
                self.max_prob = i;
            }
        } else if r.ewma > best.ewma {
            self.max_prob = i;
        }
    }

    /// `CalculateRetransmits`.
    fn calculate_retransmits(&mut self, i: usize) {
        let r = &mut self.rates[i];
        if r.ewma < 1.0 {
            r.retry_count = 1;
            return;
        }
        r.retry_count = 2;
        r.retry_updated = true;
        let data = r.first + r.next * Time::from(self.avg_ampdu_len.saturating_sub(1));
        let mut cw: u64 = 15;
        let mut backoff = || {
            let t = (cw / 2) * SLOT;
            cw = ((cw + 1) * 2).min(1023);
            t
        };
        let mut tx = backoff() + backoff() + 2 * (data + self.ack);
        loop {
            tx += backoff() + self.ack + data;
            if tx >= RETRY_BUDGET {
                break;
            }
            r.retry_count += 1;
            if r.retry_count >= 7 {
                break;
            }
        }
    }
}

/// `CalculateThroughput`: percent per second of airtime.
fn throughput(ewma: f64, airtime: Time) -> f64 {
    if ewma < 10.0 {
        0.0
    } else {
        ewma.min(90.0) / (airtime as f64 * 1e-9)
    }
}

/// `InitSampleTable`, by column: each of a group's `n` MCSs placed at a random offset from
/// its own index, moving on past taken places (a place holding MCS 0 counts as free, as in
/// ns-3). One table for every group.
fn sample_table(n: usize, rng: &mut Rng) -> Vec<Vec<u8>> {
    (0..SAMPLE_COLUMNS)
        .map(|_| {
            let mut column = vec![0u8; n];
            for i in 0..n {
                let uv = rng.uniform_inclusive(n as u32) as usize;
                let mut place = (i + uv) % n;
                while column[place] != 0 {
                    place = (place + 1) % n;
                }
                column[place] = i as u8;
            }
            column
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::{LinkRates, LinkTimes, Preamble, Standard};
    use crate::sim::rng::StreamKind;

    const L: GuardInterval = GuardInterval::Long;

    fn ht(mcs: u8) -> HtMode {
        HtMode {
            format: Format::Ht,
            mcs,
            streams: 1,
            width_mhz: 20,
            guard_interval: L,
        }
    }

    fn vht(width_mhz: u16, streams: u8, guard_interval: GuardInterval) -> HtMode {
        HtMode {
            format: Format::Vht,
            mcs: 9,
            streams,
            width_mhz,
            guard_interval,
        }
    }

    fn rungs(phy: &crate::phy::Phy, modes: &[HtMode]) -> Vec<LinkTimes> {
        let at = |m: HtMode| LinkRates {
            data: m.rate_bps() as u64,
            ht: Some(m),
            ..LinkRates::fixed(phy)
        };
        modes.iter().map(|&m| LinkTimes::new(phy, at(m))).collect()
    }

    /// A ladder of HT MCS 0 to `n` − 1 (20 MHz, one stream) whose first MPDUs take 1.5 ms
    /// at rung 0 down to 1.5 / (i + 1) ms at rung i (faster up the ladder), further MPDUs
    /// a third of that.
    fn ladder(n: usize) -> Ladder {
        let phy = Standard::Ieee80211n.preset(Preamble::Long);
        let modes: Vec<HtMode> = (0..n as u8).map(ht).collect();
        let first: Vec<Time> = (0..n).map(|i| 1_500 * US / (i as Time + 1)).collect();
        Ladder {
            rungs: rungs(&phy, &modes),
            thresholds: vec![1.0; n],
            exchange: first.clone(),
            next_mpdu: first.iter().map(|t| t / 3).collect(),
            first_mpdu: first,
            block_ack: 84 * US,
        }
    }

    /// The ladder of an 802.11ac link whose configured mode is `top`, timed as the world
    /// times it (the MPDUs as the PPDU's).
    fn vht_ladder(top: HtMode) -> Ladder {
        vht_ladder_timed(top, Airtime::Ppdu)
    }

    fn vht_ladder_timed(top: HtMode, airtime: Airtime) -> Ladder {
        let phy = Standard::Ieee80211ac.preset(Preamble::Long);
        Ladder::new(&phy, rungs(&phy, &group_modes(top)), airtime)
    }

    /// ns-3.37's airtimes, to the nanosecond, as its own log printed them on `validate
    /// ns3`'s 802.11ac 80 MHz ladder (`FindRate`'s "SampleDuration= +184030ns
    /// maxTp2Duration= +406076ns": 20 MHz MCS 7 and MCS 3) and its `PrintStats` table (the
    /// first MPDU's airtime in whole µs: 80 MHz MCS 3 118, MCS 8 63, MCS 9 60); a further
    /// MPDU carries the preamble again, where the PPDU adds only its symbols.
    #[test]
    fn ns3_times_each_mpdu_with_its_preamble_and_fractional_symbols() {
        let ns3 = vht_ladder_timed(vht(80, 1, L), Airtime::Ns3);
        let ppdu = vht_ladder(vht(80, 1, L));
        // Rungs: 20 MHz MCS 0-8, 40 MHz MCS 0-9, 80 MHz MCS 0-9.
        let (mcs3_20, mcs7_20, mcs3_80, mcs8_80, mcs9_80) = (3, 7, 19 + 3, 19 + 8, 19 + 9);
        assert_eq!(ns3.first_mpdu[mcs7_20], 184_030);
        assert_eq!(ns3.first_mpdu[mcs3_20], 406_076);
        assert_eq!(ns3.first_mpdu[mcs3_80] / US, 118);
        assert_eq!(ns3.first_mpdu[mcs8_80] / US, 63);
        assert_eq!(ns3.first_mpdu[mcs9_80] / US, 60);
        // 36 µs of preamble (no VHT-SIG-B) and 9600 / 468 symbols of 4 µs: 118.05 µs.
        assert_eq!(ns3.next_mpdu[mcs3_80], 36 * US + 82_051);
        // The PPDU's: whole symbols (80 MHz MCS 8 and 9 both 7, 64 µs with VHT-SIG-B's
        // 4 µs), a further MPDU 21 symbols of 4 µs and no preamble.
        assert_eq!(ppdu.first_mpdu[mcs8_80], ppdu.first_mpdu[mcs9_80]);
        assert_eq!(ppdu.next_mpdu[mcs3_80], 84 * US);
    }

    /// Retry counts follow the airtime: at 80 MHz MCS 3 with A-MPDUs of 17 MPDUs two
    /// attempts fill ns-3.37's 6 ms budget (ns-3's log: the chain leaves the best rate
    /// after its second attempt, at 0.70 s of seed 3 at 10 dB), three the PPDU's.
    #[test]
    fn the_retry_count_follows_the_airtime() {
        let count = |airtime| {
            let mut m = MinstrelHt::new(&vht_ladder_timed(vht(80, 1, L), airtime), &mut rng());
            m.avg_ampdu_len = 17;
            let i = 2 * 10 + 3;
            m.rates[i].ewma = 100.0;
            m.calculate_retransmits(i);
            m.rates[i].retry_count
        };
        assert_eq!(count(Airtime::Ns3), 2);
        assert_eq!(count(Airtime::Ppdu), 3);
    }

    fn rng() -> Rng {
        Rng::named(3, StreamKind::Rate, "t")
    }

    #[test]
    fn every_column_of_the_sample_table_holds_every_rate() {
        let table = sample_table(8, &mut rng());
        assert_eq!(table.len(), SAMPLE_COLUMNS);
        for column in table {
            let mut seen = column.clone();
            seen.sort();
            assert_eq!(seen, (0..8).collect::<Vec<u8>>());
        }
    }

    /// One interval of A-MPDUs of 10 MPDUs at rung `at`, `acked` of each acknowledged,
    /// ending with a statistics update at `now`.
    fn interval(m: &mut MinstrelHt, at: u16, acked: u32, now: Time) {
        m.txrate = at;
        m.sampling = false;
        m.ampdu_status((10, acked), now);
    }

    #[test]
    fn the_best_rates_follow_throughput_and_the_robust_one_the_75_percent_rule() {
        let mut m = MinstrelHt::new(&ladder(4), &mut rng());
        // Rung 0 always through, rung 1 at 80 %, rung 2 at 60 %, rung 3 never.
        for (rung, acked) in [(0, 10), (1, 8), (2, 6), (3, 0)] {
            m.txrate = rung;
            m.rates[rung as usize].attempts += 10;
            m.rates[rung as usize].successes += acked;
        }
        m.update_stats(UPDATE);
        // Throughputs: 90/1.5, 80/0.75, 60/0.5, 0 (per ms): rung 2 best, rung 1 second.
        assert_eq!((m.max_tp, m.max_tp2), (2, 1));
        // Above 75 %: rungs 0 and 1, rung 1 the faster (a 95 % rule would take rung 0).
        assert_eq!(m.max_prob, 1);
        assert_eq!(m.rates[3].ewma, 0.0);
        // The next interval's EWMA: 75 % on the old value.
        interval(&mut m, 2, 10, 2 * UPDATE);
        assert_eq!(m.rates[2].ewma, 0.75 * 60.0 + 0.25 * 100.0);
    }

    #[test]
    fn a_missed_blockack_moves_the_chain_twice_and_charges_the_next_rate() {
        let mut m = MinstrelHt::new(&ladder(4), &mut rng());
        for (rung, acked) in [(0, 10), (1, 10), (2, 10), (3, 8)] {
            m.rates[rung].attempts += 10;
            m.rates[rung].successes += acked;
        }
        // A-MPDUs of 40 MPDUs: past the 6 ms budget after two attempts.
        m.avg_ampdu_len = 40;
        m.update_stats(UPDATE);
        m.sampling = false;
        m.txrate = m.max_tp;
        let (tp, tp2) = (m.max_tp, m.max_tp2);
        assert_eq!((tp, tp2), (3, 2));
        assert_eq!(m.rates[tp as usize].retry_count, 2);
        assert_eq!(m.rates[tp2 as usize].retry_count, 2);
        // ns-3.37: ReportDataFailed (one attempt at the best, the chain at its second try),
        // then ReportAmpduTxStatus(0, 10) (ten attempts at the rate the chain stands at,
        // still the best; then its third try: the second best).
        m.data_failed();
        m.ampdu_status((10, 0), UPDATE + 1);
        assert_eq!(m.rates[tp as usize].attempts, 11);
        assert_eq!((m.long_retry, m.txrate), (2, tp2));
        // The BlockAckReq's BlockAck reports the ten outstanding, none received: charged to
        // the second best, where the next A-MPDU goes.
        m.ampdu_status((10, 0), UPDATE + 2);
        assert_eq!(m.rates[tp2 as usize].attempts, 10);
        assert_eq!((m.long_retry, m.txrate), (3, tp2));
        // A BlockAck with a success ends the chain.
        m.ampdu_status((10, 4), UPDATE + 3);
        assert_eq!(m.long_retry, 0);
    }

    #[test]
    fn a_lost_blockackreq_with_no_mpdu_left_restarts_the_chain() {
        let mut m = MinstrelHt::new(&ladder(4), &mut rng());
        // Rung 3 the best and most probable (100 %), rung 0 the second best.
        for (rung, acked) in [(0, 10), (3, 10)] {
            m.rates[rung].attempts += 10;
            m.rates[rung].successes += acked;
        }
        m.update_stats(UPDATE);
        assert_eq!((m.max_tp, m.max_tp2, m.max_prob), (3, 0, 3));
        (m.sampling, m.txrate) = (false, m.max_tp);
        // The link turns bad: every A-MPDU and BlockAckReq lost. Past the chain's end a
        // lost BlockAckReq does not move the controller: its rate stays the most probable.
        m.data_failed();
        m.ampdu_status((10, 0), UPDATE + 1);
        while m.long_retry < m.count_retries() {
            m.data_failed();
        }
        let end = (m.long_retry, m.txrate);
        assert_eq!(end.1, 3);
        for _ in 0..10 {
            m.data_failed();
        }
        assert_eq!((m.long_retry, m.txrate), end);
        // The MAC discarded the MPDUs; the next BlockAckReq, about none, is lost too: the
        // chain restarts and, 50 ms on, the statistics see rung 3's losses.
        let attempts = m.rates[3].attempts;
        m.data_failed();
        m.final_failed(2 * UPDATE);
        assert_eq!(m.long_retry, 0);
        assert_eq!(m.next_update, 3 * UPDATE);
        assert!(attempts > 0 && m.rates[3].ewma < 100.0);
    }

    #[test]
    fn a_sample_comes_after_16_plus_twice_the_mean_ampdu_length_reports() {
        let mut m = MinstrelHt::new(&ladder(8), &mut rng());
        // Rung 2 the best at 100 %, rungs 0 and 1 behind it; the rest never tried.
        for rung in 0..3 {
            m.rates[rung].attempts += 10;
            m.rates[rung].successes += 10;
        }
        m.avg_ampdu_len = 10;
        m.update_stats(UPDATE);
        assert_eq!(m.max_tp, 2);
        // The first tries of a new link spent.
        m.sample_tries = 0;
        let (mut reports, mut samples) = (Vec::new(), 0);
        for k in 0..400u64 {
            let sampling = m.sampling;
            let rate = m.txrate;
            if sampling {
                samples += 1;
                reports.push(k);
                assert!(rate > m.max_tp2 && rate != m.max_tp, "sampled {rate}");
            }
            // Every MPDU through at every rung: no chain.
            m.ampdu_status((10, 10), UPDATE + 1 + k);
        }
        // 8 samples per interval at most (one interval here), each after 16 + 2 × 10
        // reports without one.
        assert_eq!(samples, 8, "{reports:?}");
        let gaps: Vec<u64> = reports.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(
            reports[0] >= 37 && gaps.iter().all(|&g| g >= 37),
            "{reports:?}"
        );
    }

    #[test]
    fn the_groups_are_ns3s_for_the_links_capabilities() {
        // 802.11n, 20 MHz, one stream, 800 ns: one group, the configured ladder.
        let top = HtMode { mcs: 7, ..ht(7) };
        assert_eq!(group_modes(top), (0..8).map(ht).collect::<Vec<_>>());
        // 802.11ac at 80 MHz, one stream, 800 ns: VHT at 20 (MCS 0-8: 9 does not exist
        // there), 40 and 80 MHz.
        let modes = group_modes(vht(80, 1, L));
        let widths: Vec<(u16, u8)> = modes.iter().map(|m| (m.width_mhz, m.mcs)).collect();
        let expected: Vec<(u16, u8)> = (0..9)
            .map(|mcs| (20, mcs))
            .chain((0..10).map(|mcs| (40, mcs)))
            .chain((0..10).map(|mcs| (80, mcs)))
            .collect();
        assert_eq!(widths, expected);
        // 160 MHz, 3 streams, 400 ns: 4 widths × 2 guard intervals × 3 stream counts, in
        // ns-3's order (width, guard interval long first, streams), without the MCSs
        // 21.5 leaves out (MCS 9 at 20 MHz with 1 or 2 streams, MCS 6 at 80 MHz with 3,
        // MCS 9 at 160 MHz with 3).
        let modes = group_modes(vht(160, 3, GuardInterval::Short));
        assert_eq!(modes.len(), 24 * 10 - 2 * 2 - 2 - 2);
        let first = |m: &HtMode| (m.width_mhz, m.guard_interval, m.streams);
        let mut groups: Vec<_> = modes.iter().map(first).collect();
        groups.dedup();
        assert_eq!(groups.len(), 24);
        assert_eq!(
            groups[..4],
            [
                (20, L, 1),
                (20, L, 2),
                (20, L, 3),
                (20, GuardInterval::Short, 1)
            ]
        );
        assert!(groups.windows(2).all(|w| w[0].0 <= w[1].0));
        assert!(modes.iter().all(|m| m.check().is_ok()));
        // 802.11n at 40 MHz, 2 streams, 400 ns: 2 × 2 × 2 groups of 8.
        let top = HtMode {
            streams: 2,
            width_mhz: 40,
            guard_interval: GuardInterval::Short,
            ..ht(7)
        };
        assert_eq!(group_modes(top).len(), 64);
    }

    #[test]
    fn the_controller_indexes_rates_by_group_and_mcs() {
        let ladder = vht_ladder(vht(80, 1, L));
        let m = MinstrelHt::new(&ladder, &mut rng());
        assert_eq!((m.per_group, m.groups.len(), m.rates.len()), (10, 3, 30));
        // 20 MHz MCS 9 does not exist: unsupported, never tried, no retry count.
        assert_eq!(m.rates[9].rung, None);
        assert_eq!(m.rates[9].retry_count, 0);
        // 40 MHz MCS 9 is rung 9 + 9, 80 MHz MCS 0 rung 19.
        assert_eq!(m.rates[19].rung, Some(18));
        assert_eq!(m.rates[20].rung, Some(19));
        assert_eq!(m.rates[20].first, ladder.first_mpdu[19]);
        // Nothing learnt: the lowest rate, 20 MHz MCS 0; 8 samples per group and interval.
        assert_eq!((m.max_tp, m.max_tp2, m.max_prob, m.rate()), (0, 0, 0, 0));
        assert_eq!(m.sample_count, 24);
        // A narrower width is slower at the same MCS.
        assert!(m.rates[3].first > m.rates[13].first && m.rates[13].first > m.rates[23].first);
    }

    #[test]
    fn the_groups_take_turns_at_sampling_each_from_its_own_row() {
        let mut m = MinstrelHt::new(&vht_ladder(vht(80, 1, L)), &mut rng());
        // Set up by `new` (one `SetNextSample`): the first group's turn, at row 1.
        assert_eq!(m.sample_group, 0);
        assert_eq!(
            (m.groups[0].index, m.groups[1].index, m.groups[2].index),
            (1, 0, 0)
        );
        let mut walk = Vec::new();
        for _ in 0..6 {
            let g = m.sample_group;
            let (row, col) = (m.groups[g].index, m.groups[g].col);
            let s = m.next_sample();
            assert_eq!(s, (g * 10) as u16 + u16::from(m.table[col][row]));
            walk.push((g, row));
        }
        assert_eq!(walk, [(0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)]);
        // On 802.11n's single group ns-3 starts at its group 0 itself: the walk as before.
        let mut m = MinstrelHt::new(&ladder(8), &mut rng());
        assert_eq!((m.sample_group, m.groups[0].index), (0, 1));
        m.next_sample();
        assert_eq!(m.groups[0].index, 2);
    }

    #[test]
    fn the_best_rates_are_chosen_across_groups() {
        let mut m = MinstrelHt::new(&vht_ladder(vht(80, 1, L)), &mut rng());
        // 20 MHz MCS 7 and 40 MHz MCS 4 always through, 80 MHz MCS 2 at 50 %, 80 MHz MCS 4
        // at 30 %, the rest never tried.
        for (i, acked) in [(7, 10), (14, 10), (22, 5), (24, 3)] {
            m.rates[i].attempts += 10;
            m.rates[i].successes += acked;
        }
        m.update_stats(UPDATE);
        let tp = |i: usize| m.rates[i].throughput;
        let mut order = [7, 14, 22, 24];
        order.sort_by(|&a, &b| tp(b).total_cmp(&tp(a)));
        assert_eq!((m.max_tp, m.max_tp2), (order[0] as u16, order[1] as u16));
        // Above 75 %: the faster of 20 MHz MCS 7 and 40 MHz MCS 4.
        let robust = if tp(7) > tp(14) { 7 } else { 14 };
        assert_eq!(m.max_prob, robust);
    }

    #[test]
    fn a_sample_with_fewer_streams_than_the_best_may_be_slower_than_the_second_best() {
        // 802.11ac at 20 MHz with 2 streams: groups of 1 and 2 streams.
        let mut m = MinstrelHt::new(&vht_ladder(vht(20, 2, L)), &mut rng());
        assert_eq!(
            m.groups.iter().map(|g| g.streams).collect::<Vec<_>>(),
            [1, 2]
        );
        // Best: 2 streams MCS 7; second best 2 streams MCS 6; most probable 1 stream MCS 0.
        (m.max_tp, m.max_tp2, m.max_prob) = (17, 16, 0);
        m.total_packets = 1;
        m.sample_wait = 0;
        m.sample_tries = 1;
        // The next sample: 1 stream MCS 5, slower than 2 streams MCS 6 but faster than MCS 0.
        let (g, mcs) = (0, 5u8);
        m.sample_group = g;
        let (row, col) = (m.groups[g].index, m.groups[g].col);
        m.table[col][row] = mcs;
        assert!(m.rates[5].first > m.rates[16].first && m.rates[5].first < m.rates[0].first);
        assert_eq!(m.find_rate(), 5);
        assert!(m.sampling);
        assert_eq!(m.samples_slow, 0);
    }

    #[test]
    fn while_sampling_the_second_best_retries_are_read_in_the_best_rates_group() {
        let mut m = MinstrelHt::new(&vht_ladder(vht(80, 1, L)), &mut rng());
        // Best 80 MHz MCS 3 (rate 23), second best 40 MHz MCS 5 (rate 15), most probable
        // 20 MHz MCS 0; ns-3.37 reads the second best's count at 80 MHz MCS 5 (rate 25).
        (m.max_tp, m.max_tp2, m.max_prob) = (23, 15, 0);
        m.rates[15].retry_count = 5;
        m.rates[25].retry_count = 2;
        m.rates[0].retry_count = 3;
        m.sampling = true;
        assert_eq!(m.count_retries(), 1 + 2 + 3);
        m.txrate = 7;
        m.update_rate();
        assert_eq!(m.txrate, 15);
        m.update_rate();
        assert_eq!(m.txrate, 15);
        m.update_rate();
        assert_eq!(m.txrate, 0);
        // In a group without the second best's MCS the count is 0: the chain skips it.
        (m.max_tp, m.max_tp2, m.long_retry) = (3, 19, 0);
        // 1 (the sample) + 0 (the second best's) + 3 (the most probable's).
        assert_eq!(m.count_retries(), 4);
        m.update_rate();
        assert_eq!(m.txrate, 0);
    }
}
