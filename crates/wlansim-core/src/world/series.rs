//! Time series recorded on request (`[output] series`): sampled by a periodic event
//! from the end of the warm-up, stored in vectors sized once at the start.
use super::{Event, World};
use crate::mac::rate::RateTally;
use crate::results::SeriesTable;
use crate::scenario::{Direction, SeriesKind, ACTIVE_FLOW_COLUMNS};
use crate::sim::time::{to_secs, Time};
use std::collections::BTreeMap;

/// One recorded series: a column per flow or node, sampled at the times `t`.
pub struct Recorder {
    kinds: Vec<SeriesKind>,
    interval: Time,
    t: Vec<f64>,
    /// Per kind, per column (flow or node), the samples.
    columns: Vec<Vec<Vec<f64>>>,
    /// Delivered bytes of each flow at the previous sample.
    last_bytes: Vec<u64>,
    /// Bytes each flow delivered since the previous sample.
    delta_bytes: Vec<u64>,
    /// Per node: its attempts that failed on the channel (data or control frame lost)
    /// and its attempts that did not collide, at the previous sample.
    last_frames: Vec<(u64, u64)>,
    /// Per node: its adapted attempts and the sum of their rates at the previous sample.
    last_rates: Vec<RateTally>,
}

impl Recorder {
    pub fn new(
        kinds: &[SeriesKind],
        interval: Time,
        samples: usize,
        flows: usize,
        nodes: usize,
    ) -> Self {
        // Nothing is reserved unless a series is recorded (validation bounds the size).
        let samples = if kinds.is_empty() { 0 } else { samples };
        let columns = kinds
            .iter()
            .map(|k| vec![Vec::with_capacity(samples); k.columns(flows, nodes)])
            .collect();
        Recorder {
            kinds: kinds.to_vec(),
            interval,
            t: Vec::with_capacity(samples),
            columns,
            last_bytes: vec![0; flows],
            delta_bytes: vec![0; flows],
            last_frames: vec![(0, 0); nodes],
            last_rates: vec![RateTally::default(); nodes],
        }
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// Statistics were reset at the end of the warm-up: byte counters restart at zero.
    pub fn on_statistics_reset(&mut self) {
        self.last_bytes.iter_mut().for_each(|b| *b = 0);
        self.last_frames.iter_mut().for_each(|f| *f = (0, 0));
        self.last_rates.fill(RateTally::default());
    }
}

impl World {
    pub(super) fn on_sample(&mut self, now: Time) {
        let rec = &mut self.series;
        rec.t.push(to_secs(now));
        let per_second = 1.0 / to_secs(rec.interval);
        for ((f, last), delta) in self
            .flows
            .iter()
            .zip(&mut rec.last_bytes)
            .zip(&mut rec.delta_bytes)
        {
            let bytes = f.stats.counts.delivered_bytes;
            *delta = bytes - *last;
            *last = bytes;
        }
        for (kind, columns) in rec.kinds.iter().zip(&mut rec.columns) {
            match kind {
                SeriesKind::FlowThroughput => {
                    for (col, delta) in columns.iter_mut().zip(&rec.delta_bytes) {
                        col.push(*delta as f64 * 8.0 * per_second);
                    }
                }
                SeriesKind::ActiveFlows => {
                    let mut active = [0usize; 2];
                    for (f, delta) in self.flows.iter().zip(&rec.delta_bytes) {
                        if *delta > 0 {
                            active[(f.direction == Direction::Downlink) as usize] += 1;
                        }
                    }
                    let values = [active[0], active[1], active[0] + active[1]];
                    for (col, v) in columns.iter_mut().zip(values) {
                        col.push(v as f64);
                    }
                }
                SeriesKind::QueueLength => {
                    for (n, col) in self.nodes.iter().zip(columns) {
                        let queued: usize = (n.entities.clone())
                            .map(|t| self.mac.store.queue_len(t))
                            .sum();
                        col.push(queued as f64);
                    }
                }
                SeriesKind::FrameErrorRatio => {
                    for ((n, col), last) in self.nodes.iter().zip(columns).zip(&mut rec.last_frames)
                    {
                        let (mut lost, mut heard) = (0, 0);
                        for e in n.entities_in(&self.mac.store.entities) {
                            lost += e.stats.frame_errors + e.stats.control_errors;
                            heard += e.stats.attempts - e.stats.collisions;
                        }
                        let (dl, dh) = (lost - last.0, heard - last.1);
                        col.push(if dh == 0 {
                            f64::NAN
                        } else {
                            dl as f64 / dh as f64
                        });
                        *last = (lost, heard);
                    }
                }
                SeriesKind::DataRate => {
                    let tally = self.mac.store.rate.as_ref().map(|r| &r.tally);
                    for (i, (col, last)) in columns.iter_mut().zip(&mut rec.last_rates).enumerate()
                    {
                        let now = tally.map_or(RateTally::default(), |t| t[i]);
                        let attempts = now.attempts - last.attempts;
                        col.push(if attempts == 0 {
                            f64::NAN
                        } else {
                            (now.rate_sum - last.rate_sum) / attempts as f64
                        });
                        *last = now;
                    }
                }
                SeriesKind::Position => {
                    for (i, xy) in columns.chunks_mut(2).enumerate() {
                        if let Some(p) = self.channel.positions.at(i, now) {
                            xy[0].push(p[0]);
                            xy[1].push(p[1]);
                        }
                    }
                }
                SeriesKind::Cwnd | SeriesKind::Rto | SeriesKind::Srtt => {
                    for (f, col) in self.flows.iter().zip(columns) {
                        if let Some(c) = f.tcp {
                            let sender = &self.conns[c as usize].sender;
                            col.push(match kind {
                                SeriesKind::Cwnd => sender.cwnd_bytes() as f64,
                                SeriesKind::Rto => to_secs(sender.rto()),
                                _ => sender.srtt().map_or(f64::NAN, to_secs),
                            });
                        }
                    }
                }
            }
        }
        self.events.schedule(now + rec.interval, Event::Sample);
    }

    pub(super) fn series_table(&self) -> SeriesTable {
        let rec = &self.series;
        let mut out = SeriesTable::new();
        for (kind, columns) in rec.kinds.iter().zip(&rec.columns) {
            // A name per column; UDP flows have no cwnd column, wired nodes no position.
            let names: Vec<Option<String>> = match kind {
                SeriesKind::FlowThroughput => {
                    self.flows.iter().map(|f| Some(f.name.clone())).collect()
                }
                SeriesKind::Cwnd | SeriesKind::Rto | SeriesKind::Srtt => self
                    .flows
                    .iter()
                    .map(|f| f.tcp.map(|_| f.name.clone()))
                    .collect(),
                SeriesKind::QueueLength | SeriesKind::FrameErrorRatio | SeriesKind::DataRate => {
                    self.nodes
                        .iter()
                        .map(|n| n.bss.map(|_| n.name.clone()))
                        .collect()
                }
                SeriesKind::ActiveFlows => ACTIVE_FLOW_COLUMNS
                    .iter()
                    .map(|c| Some(c.to_string()))
                    .collect(),
                SeriesKind::Position => self
                    .nodes
                    .iter()
                    .enumerate()
                    .flat_map(|(i, n)| {
                        let positioned = self.channel.positions.at(i, 0).is_some();
                        ["x", "y"].map(|axis| positioned.then(|| format!("{}.{axis}", n.name)))
                    })
                    .collect(),
            };
            let mut table: BTreeMap<String, Vec<f64>> = names
                .into_iter()
                .zip(columns)
                .filter_map(|(name, col)| Some((name?, col.clone())))
                .collect();
            table.insert("t_s".into(), rec.t.clone());
            out.insert(kind.name().into(), table);
        }
        out
    }
}
