//! Minstrel (Linux mac80211 `rc80211_minstrel`; ns-3 `MinstrelWifiManager`) and, over the
//! MCS ladder of 802.11n/ac, Minstrel-HT (Linux `rc80211_minstrel_ht`; ns-3
//! `MinstrelHtWifiManager`), as modelled here:
//! - per rung, the MPDUs sent and acknowledged in the current 100 ms interval (an
//!   A-MPDU counts each of its MPDUs, by its Block Ack);
//!   at the first report after it ends, each tried rung's success probability becomes
//!   the EWMA (weight 75 % on the old value, the first sample taken as it is) and the
//!   counters restart;
//! - throughput estimate of a rung: probability / airtime of a 1200-byte exchange
//!   (`Ladder::exchange`), 0 below a probability of 10 %; Minstrel-HT caps the
//!   probability at 90 % in it (as Linux's `minstrel_ht_get_tp_avg`);
//! - the best-throughput rung, the second best, and the best-probability rung (the
//!   highest-throughput rung at 95 % or more, else the most probable one);
//! - sampling, Minstrel: 10 % of frames (drawn from the link's own stream) sample a rung
//!   drawn uniformly among the others: a faster one for the frame's first attempt, a
//!   slower one only after the best rung's attempts (as Linux and ns-3 place a slower
//!   sample second in the chain);
//! - sampling, Minstrel-HT (Linux `minstrel_ht`, ns-3 `MinstrelHtWifiManager::FindRate`):
//!   after a sample the link waits 16 + 2 × the mean A-MPDU length (MPDUs per attempt,
//!   whole, an EWMA per interval as the probabilities; 1 without A-MPDUs) attempts; then
//!   each new frame or A-MPDU draws a rung other than the best (uniformly, from the link's
//!   own stream) and samples it when it is neither the second best nor the
//!   best-probability rung, its probability is at most 95 % and it is faster than the
//!   second best (ns-3 also samples a slower rung after it was passed over 20 times, at
//!   most twice per interval: left out); otherwise the next frame draws again;
//! - retry chain, simplified: every stage takes two attempts (Linux and ns-3 give each a
//!   count from a 6 ms airtime budget): best throughput, second best, best probability,
//!   then the lowest rung for the rest; a sampling frame: the faster sampled rung once,
//!   then best throughput, best probability, lowest; or best throughput, the slower
//!   sampled rung, best probability, lowest.
//!
//! Minstrel-HT here has one group: the MCS of the configured streams, width and guard
//! interval (Linux's groups also move between them). An A-MPDU is one attempt of the
//! chain (its rate chosen once), and its throughput estimate is still that of one
//! 1200-byte exchange (Linux divides the airtime by the mean A-MPDU length).
use super::Ladder;
use crate::sim::rng::Rng;
use crate::sim::time::{Time, MS};

const UPDATE: Time = 100 * MS;
const EWMA_OLD: f64 = 0.75;
const SAMPLE_SHARE: f64 = 0.1;
const STAGE_ATTEMPTS: u32 = 2;

#[derive(Clone, Copy, Debug, Default)]
struct RungStats {
    attempts: u32,
    successes: u32,
    /// The EWMA success probability; None before the rung was ever tried.
    ewma: Option<f64>,
    throughput: f64,
}

pub struct Minstrel {
    ht: bool,
    /// Minstrel-HT: attempts to wait before the next sample; the mean A-MPDU length, and
    /// this interval's MPDUs and attempts.
    sample_wait: u32,
    mean_ampdu: u32,
    interval_mpdus: u32,
    interval_attempts: u32,
    rungs: Vec<RungStats>,
    best: u8,
    second: u8,
    robust: u8,
    /// The sampled rung of the frame being sent, if it is a sampling frame.
    sample: Option<u8>,
    next_update: Time,
    rng: Rng,
}

impl Minstrel {
    pub fn new(ladder: &Ladder, ht: bool, rng: Rng) -> Minstrel {
        Minstrel {
            ht,
            sample_wait: 0,
            mean_ampdu: 1,
            interval_mpdus: 0,
            interval_attempts: 0,
            rungs: vec![RungStats::default(); ladder.rungs.len()],
            best: 0,
            second: 0,
            robust: 0,
            sample: None,
            next_update: UPDATE,
            rng,
        }
    }

    /// The rung of attempt `attempt` (0: a new frame).
    pub fn choose(&mut self, ladder: &Ladder, attempt: u32) -> u8 {
        let n = ladder.rungs.len() as u32;
        if attempt == 0 {
            self.sample = if self.ht {
                self.ht_sample(ladder)
            } else {
                (n > 1 && self.rng.uniform() < SAMPLE_SHARE).then(|| self.other_rung(n))
            };
        }
        let stage = |chain: [u8; 3], attempt: u32| {
            chain
                .get((attempt / STAGE_ATTEMPTS) as usize)
                .copied()
                .unwrap_or(0)
        };
        match self.sample {
            None => stage([self.best, self.second, self.robust], attempt),
            // A faster rung is sampled once, first; a slower one only after the best
            // rung's attempts failed.
            Some(s) if ladder.exchange[s as usize] < ladder.exchange[self.best as usize] => {
                match attempt {
                    0 => s,
                    a => stage([self.best, self.robust, 0], a - 1),
                }
            }
            Some(s) => stage([self.best, s, self.robust], attempt),
        }
    }

    /// A rung other than the best, evenly (`n` rungs, at least 2).
    fn other_rung(&mut self, n: u32) -> u8 {
        let r = self.rng.uniform_inclusive(n - 2) as u8;
        if r >= self.best {
            r + 1
        } else {
            r
        }
    }

    /// Minstrel-HT's sampling decision for a new frame or A-MPDU (see the module's notes).
    fn ht_sample(&mut self, ladder: &Ladder) -> Option<u8> {
        let n = ladder.rungs.len() as u32;
        if n < 2 {
            return None;
        }
        if self.sample_wait > 0 {
            self.sample_wait -= 1;
            return None;
        }
        let r = self.other_rung(n);
        let worth = r != self.second
            && r != self.robust
            && self.rungs[r as usize].ewma.unwrap_or(0.0) <= 0.95
            && ladder.exchange[r as usize] < ladder.exchange[self.second as usize];
        if worth {
            self.sample_wait = 16 + 2 * self.mean_ampdu;
        }
        worth.then_some(r)
    }

    /// An attempt at `rung` that carried `sent` MPDUs ended at `now`, `acked` of them
    /// acknowledged.
    pub fn report(&mut self, ladder: &Ladder, rung: u8, (sent, acked): (u32, u32), now: Time) {
        let r = &mut self.rungs[rung as usize];
        r.attempts += sent;
        r.successes += acked;
        self.interval_mpdus += sent;
        self.interval_attempts += 1;
        if now >= self.next_update {
            self.update(ladder);
            self.next_update = now + UPDATE;
        }
    }

    /// The interval's statistics: EWMA probabilities, throughputs, the chain's rungs.
    fn update(&mut self, ladder: &Ladder) {
        let cap = if self.ht { 0.9 } else { 1.0 };
        if let Some(latest) = self.interval_mpdus.checked_div(self.interval_attempts) {
            self.mean_ampdu = (latest * 25 + self.mean_ampdu * 75) / 100;
            (self.interval_mpdus, self.interval_attempts) = (0, 0);
        }
        for (r, &airtime) in self.rungs.iter_mut().zip(&ladder.exchange) {
            if r.attempts > 0 {
                let p = f64::from(r.successes) / f64::from(r.attempts);
                r.ewma = Some(
                    r.ewma
                        .map_or(p, |old| EWMA_OLD * old + (1.0 - EWMA_OLD) * p),
                );
                (r.attempts, r.successes) = (0, 0);
            }
            let p = r.ewma.unwrap_or(0.0);
            r.throughput = if p < 0.1 {
                0.0
            } else {
                p.min(cap) / airtime as f64
            };
        }
        // Ties go to the lower rung (the more robust one).
        let by_tp = |skip: Option<usize>| {
            let mut best = 0;
            for (i, r) in self.rungs.iter().enumerate() {
                if Some(i) != skip
                    && (Some(best) == skip || r.throughput > self.rungs[best].throughput)
                {
                    best = i;
                }
            }
            best
        };
        let best = by_tp(None);
        self.best = best as u8;
        self.second = if self.rungs.len() > 1 {
            by_tp(Some(best)) as u8
        } else {
            0
        };
        let p = |i: usize| self.rungs[i].ewma.unwrap_or(0.0);
        let sure = (0..self.rungs.len())
            .filter(|&i| p(i) >= 0.95)
            .max_by(|&a, &b| {
                self.rungs[a]
                    .throughput
                    .total_cmp(&self.rungs[b].throughput)
                    .then(b.cmp(&a))
            });
        self.robust = sure.unwrap_or_else(|| {
            (0..self.rungs.len())
                .max_by(|&a, &b| p(a).total_cmp(&p(b)).then(b.cmp(&a)))
                .unwrap_or(0)
        }) as u8;
    }

    /// The best-throughput rung.
    pub fn best(&self) -> u8 {
        self.best
    }
}
