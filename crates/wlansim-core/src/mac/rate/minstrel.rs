//! Minstrel (Linux mac80211 `rc80211_minstrel`; ns-3 `MinstrelWifiManager`) over the
//! legacy rates, as modelled here (Minstrel-HT: `minstrel_ht.rs`):
//! - per rung, the frames sent and acknowledged in the current 100 ms interval; at the
//!   first report after it ends, each tried rung's success probability becomes the EWMA
//!   (weight 75 % on the old value, the first sample taken as it is) and the counters
//!   restart;
//! - throughput estimate of a rung: probability / airtime of a 1200-byte exchange
//!   (`Ladder::exchange`), 0 below a probability of 10 %;
//! - the best-throughput rung, the second best, and the best-probability rung (the
//!   highest-throughput rung at 95 % or more, else the most probable one);
//! - sampling: 10 % of frames (drawn from the link's own stream) sample a rung drawn
//!   uniformly among the others: a faster one for the frame's first attempt, a slower one
//!   only after the best rung's attempts (as Linux and ns-3 place a slower sample second
//!   in the chain);
//! - retry chain, simplified: every stage takes two attempts (Linux and ns-3 give each a
//!   count from a 6 ms airtime budget): best throughput, second best, best probability,
//!   then the lowest rung for the rest; a sampling frame: the faster sampled rung once,
//!   then best throughput, best probability, lowest; or best throughput, the slower
//!   sampled rung, best probability, lowest.
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
    pub fn new(ladder: &Ladder, rng: Rng) -> Minstrel {
        Minstrel {
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
            self.sample = (n > 1 && self.rng.uniform() < SAMPLE_SHARE).then(|| self.other_rung(n));
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

    /// An attempt at `rung` ended at `now`, acknowledged (`success`) or not.
    pub fn report(&mut self, ladder: &Ladder, rung: u8, success: bool, now: Time) {
        let r = &mut self.rungs[rung as usize];
        r.attempts += 1;
        r.successes += u32::from(success);
        if now >= self.next_update {
            self.update(ladder);
            self.next_update = now + UPDATE;
        }
    }

    /// The interval's statistics: EWMA probabilities, throughputs, the chain's rungs.
    fn update(&mut self, ladder: &Ladder) {
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
            r.throughput = if p < 0.1 { 0.0 } else { p / airtime as f64 };
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
