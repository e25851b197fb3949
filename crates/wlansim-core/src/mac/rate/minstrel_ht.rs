//! Minstrel-HT over one MCS group (the configured streams, width and guard interval), as
//! ns-3.37's `MinstrelHtWifiManager` (src/wifi/model/rate-control/minstrel-ht-wifi-manager.cc
//! at tag ns-3.37, itself after Linux's `rc80211_minstrel_ht`) runs it; the names of its
//! functions are given beside each rule:
//! - statistics (`UpdateStats`) at the first report 50 ms (`UpdateStatistics`) or more
//!   after the last update: per rate tried since, the interval's success percentage,
//!   whole (`100 * success / attempt` in integers), its EWMA (75 % on the old value; the
//!   interval's value itself while the rate never succeeded), the throughput estimate
//!   (`CalculateThroughput`: 0 under 10 %, else the percentage, at most 90, over the
//!   airtime of a 1200-byte first MPDU of an A-MPDU, `perfectTxTime`); the best and second
//!   best throughput (`SetBestStationThRates`) and the best-probability rate
//!   (`SetBestProbabilityRate`: the highest throughput among the rates above 75 %, else the
//!   most probable), each update starting from the lowest rate; each chain rate's retry
//!   count (`CalculateRetransmits`: 2, or more while the attempts with their backoff fit in
//!   6 ms, at most 7; 1 for a rate under 1 %); the mean A-MPDU length (MPDUs per A-MPDU,
//!   an EWMA over the intervals, whole);
//! - the rate of the next frame or A-MPDU (`FindRate`, after each report that ends a
//!   frame's chain): the best throughput, or a sample: once `16 + 2 × mean A-MPDU length`
//!   reports have passed since the last sample (`UpdatePacketCounters`, at most
//!   `8 × groups` samples per interval), the next rate of the sample table (10 columns,
//!   each a random order of the rates, walked row by row: `InitSampleTable`,
//!   `GetNextSample`) is sampled when it is none of the three chain rates, at most 95 %
//!   probable, and faster than the second best, or else after it was skipped by 20
//!   updates, at most twice per interval;
//! - the retry chain (`UpdateRate`, on a failed frame or an A-MPDU without BlockAck): the
//!   best throughput for its retry count, the second best for its, then the best
//!   probability; a sample once, then the second best, then the best probability. The
//!   controller's own retry count (`m_longRetry`) moves it, not the MAC's; a report with
//!   a success, or one past the chain's end (`CountRetries`), restarts it;
//! - what is reported (`DoReportAmpduTxStatus`, ns-3.37's HtFrameExchangeManager): an
//!   A-MPDU's BlockAck, its MPDUs sent and acknowledged; a missed BlockAck, first one
//!   failed attempt (`ReportDataFailed`, moving the chain) and then every MPDU failed
//!   (moving it again); the BlockAck of the BlockAckReq that follows, the MPDUs still
//!   outstanding and those it acknowledges; its loss, one failed attempt. Each count goes
//!   to the rate the chain stands at when it arrives (ns-3's `m_txrate`), which after a
//!   missed BlockAck may already be the next one.
//!
//! Left out: Linux's and ns-3's other groups (other widths, streams and guard intervals);
//! ns-3's limit on a single MPDU's retries (`DoNeedRetransmission`: the MAC's retry limits
//! stay wlansim's), and its rate reset after a frame dropped at that limit
//! (`DoReportFinalDataFailed`: wlansim's controller keeps its chain until the next
//! report with a success).
use super::Ladder;
use crate::sim::rng::Rng;
use crate::sim::time::{Time, MS, US};

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

#[derive(Clone, Copy, Debug, Default)]
struct Rate {
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

pub struct MinstrelHt {
    rates: Vec<Rate>,
    /// Per rung: a 1200-byte first MPDU's airtime with its preamble (`perfectTxTime`) and
    /// a further MPDU's (`GetMpduTxTime`).
    first: Vec<Time>,
    mpdu: Vec<Time>,
    /// SIFS and a BlockAck (`CalculateRetransmits`'s `ackTime`).
    ack: Time,
    max_tp: u8,
    max_tp2: u8,
    max_prob: u8,
    /// The rung of the next frame or A-MPDU (`m_txrate`).
    txrate: u8,
    long_retry: u32,
    sampling: bool,
    sample_wait: u32,
    sample_tries: u32,
    sample_count: u32,
    samples_slow: u32,
    avg_ampdu_len: u32,
    ampdu_len: u32,
    ampdu_count: u32,
    total_packets: u64,
    sample_packets: u64,
    /// `m_sampleTable[index][col]` (here by column), and where the walk stands.
    table: Vec<Vec<u8>>,
    index: usize,
    col: usize,
    next_update: Time,
}

impl MinstrelHt {
    /// The controller of a link starting at time 0 (`DoCreateStation`, `RateInit`).
    pub fn new(ladder: &Ladder, rng: &mut Rng) -> MinstrelHt {
        let n = ladder.rungs.len();
        let first = ladder.first_mpdu.clone();
        let mpdu = ladder.next_mpdu.clone();
        let ack = ladder.block_ack;
        let mut m = MinstrelHt {
            rates: vec![Rate::default(); n],
            first,
            mpdu,
            ack,
            max_tp: 0,
            max_tp2: 0,
            max_prob: 0,
            txrate: 0,
            long_retry: 0,
            sampling: false,
            sample_wait: 0,
            sample_tries: 4,
            sample_count: 16,
            samples_slow: 0,
            avg_ampdu_len: 1,
            ampdu_len: 0,
            ampdu_count: 0,
            total_packets: 0,
            sample_packets: 0,
            table: sample_table(n, rng),
            index: 0,
            col: 0,
            next_update: 0,
        };
        for i in 0..n {
            m.calculate_retransmits(i);
        }
        m.set_next_sample();
        m.update_stats(0);
        m.txrate = m.find_rate();
        m
    }

    /// The rung of the next attempt (`DoGetDataTxVector`).
    pub fn rate(&self) -> u8 {
        self.txrate
    }

    /// A frame's attempt, or an A-MPDU's or a BlockAckReq's exchange, got no
    /// acknowledgement (`DoReportDataFailed`).
    pub fn data_failed(&mut self) {
        if self.long_retry < self.count_retries() {
            self.rates[self.txrate as usize].attempts += 1;
            self.update_rate();
        }
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

    fn count_retries(&self) -> u32 {
        let rc = |i: u8| self.rates[i as usize].retry_count;
        if self.sampling {
            1 + rc(self.max_tp2) + rc(self.max_prob)
        } else {
            rc(self.max_tp) + rc(self.max_tp2) + rc(self.max_prob)
        }
    }

    /// `UpdateRate`: the chain's next attempt.
    fn update_rate(&mut self) {
        self.long_retry += 1;
        let rc = |i: u8| self.rates[i as usize].retry_count;
        let r = self.long_retry;
        self.txrate = if !self.sampling {
            if r < rc(self.max_tp) {
                self.max_tp
            } else if r < rc(self.max_tp) + rc(self.max_tp2) {
                self.max_tp2
            } else {
                self.max_prob
            }
        } else if r < 1 + rc(self.max_tp2) {
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

    fn set_next_sample(&mut self) {
        self.index += 1;
        if self.index >= self.rates.len() {
            self.index = 0;
            self.col = (self.col + 1) % SAMPLE_COLUMNS;
        }
    }

    fn next_sample(&mut self) -> u8 {
        let r = self.table[self.col][self.index];
        self.set_next_sample();
        r
    }

    /// `FindRate`.
    fn find_rate(&mut self) -> u8 {
        if self.sample_packets + self.total_packets == 0 {
            return self.max_tp;
        }
        if self.sample_wait == 0 && self.sample_tries != 0 {
            let s = self.next_sample();
            let info = self.rates[s as usize];
            if s != self.max_tp && s != self.max_tp2 && s != self.max_prob && info.ewma <= 95.0 {
                // One group: the sample has as many streams as the best rate.
                let faster = self.first[s as usize] < self.first[self.max_tp2 as usize];
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
        (self.max_tp, self.max_tp2, self.max_prob) = (0, 0, 0);
        for i in 0..self.rates.len() {
            let airtime = self.first[i];
            let r = &mut self.rates[i];
            r.retry_updated = false;
            if let Some(p) = (100 * r.successes).checked_div(r.attempts) {
                r.samples_skipped = 0;
                let p = f64::from(p);
                r.ewma = if r.success_hist == 0 {
                    p
                } else {
                    (p * (100.0 - EWMA_LEVEL) + r.ewma * EWMA_LEVEL) / 100.0
                };
                r.throughput = throughput(r.ewma, airtime);
                r.success_hist += u64::from(r.successes);
            } else {
                r.samples_skipped += 1;
            }
            (r.attempts, r.successes) = (0, 0);
            if r.throughput != 0.0 {
                self.set_best_throughputs(i as u8);
                self.set_best_probability(i as u8);
            }
        }
        // One group: 8 samples per interval.
        self.sample_count = 8;
        for i in [self.max_tp, self.max_tp2, self.max_prob] {
            if !self.rates[i as usize].retry_updated {
                self.calculate_retransmits(i as usize);
            }
        }
    }

    fn set_best_throughputs(&mut self, i: u8) {
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

    fn set_best_probability(&mut self, i: u8) {
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
        let data = self.first[i] + self.mpdu[i] * Time::from(self.avg_ampdu_len.saturating_sub(1));
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

/// `InitSampleTable`, by column: each rate placed at a random offset from its own index,
/// moving on past taken places (a place holding rate 0 counts as free, as in ns-3).
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
    use crate::phy::{Preamble, Standard};
    use crate::sim::rng::StreamKind;

    /// A ladder of `n` rungs whose first MPDUs take 1.5 ms at rung 0 down to 1.5 / (i + 1)
    /// ms at rung i (faster up the ladder), further MPDUs a third of that.
    fn ladder(n: usize) -> Ladder {
        let phy = Standard::Ieee80211n.preset(Preamble::Long);
        let first: Vec<Time> = (0..n).map(|i| 1_500 * US / (i as Time + 1)).collect();
        Ladder {
            rungs: vec![phy.fixed_link(); n],
            thresholds: vec![1.0; n],
            exchange: first.clone(),
            next_mpdu: first.iter().map(|t| t / 3).collect(),
            first_mpdu: first,
            block_ack: 84 * US,
        }
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
    fn interval(m: &mut MinstrelHt, at: u8, acked: u32, now: Time) {
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
        assert_eq!((m.long_retry, m.rate()), (2, tp2));
        // The BlockAckReq's BlockAck reports the ten outstanding, none received: charged to
        // the second best, where the next A-MPDU goes.
        m.ampdu_status((10, 0), UPDATE + 2);
        assert_eq!(m.rates[tp2 as usize].attempts, 10);
        assert_eq!((m.long_retry, m.rate()), (3, tp2));
        // A BlockAck with a success ends the chain.
        m.ampdu_status((10, 4), UPDATE + 3);
        assert_eq!(m.long_retry, 0);
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
            let rate = m.rate();
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
}
