//! Time series recorded on request (`[output] series`): sampled by a periodic event
//! from the end of the warm-up, stored in vectors sized once at the start.
use super::{Event, World};
use crate::results::SeriesTable;
use crate::scenario::SeriesKind;
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
            .map(|k| {
                let width = match k {
                    SeriesKind::FlowThroughput | SeriesKind::Cwnd | SeriesKind::Rto => flows,
                    SeriesKind::QueueLength => nodes,
                };
                vec![Vec::with_capacity(samples); width]
            })
            .collect();
        Recorder {
            kinds: kinds.to_vec(),
            interval,
            t: Vec::with_capacity(samples),
            columns,
            last_bytes: vec![0; flows],
        }
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// Statistics were reset at the end of the warm-up: byte counters restart at zero.
    pub fn on_statistics_reset(&mut self) {
        self.last_bytes.iter_mut().for_each(|b| *b = 0);
    }
}

impl World {
    pub(super) fn on_sample(&mut self, now: Time) {
        let rec = &mut self.series;
        rec.t.push(to_secs(now));
        let per_second = 1.0 / to_secs(rec.interval);
        for (kind, columns) in rec.kinds.iter().zip(&mut rec.columns) {
            match kind {
                SeriesKind::FlowThroughput => {
                    for ((f, col), last) in self.flows.iter().zip(columns).zip(&mut rec.last_bytes)
                    {
                        let bytes = f.stats.counts.delivered_bytes;
                        col.push((bytes - *last) as f64 * 8.0 * per_second);
                        *last = bytes;
                    }
                }
                SeriesKind::QueueLength => {
                    for (n, col) in self.nodes.iter().zip(columns) {
                        let queued: usize = n
                            .entities_in(&self.mac.entities)
                            .iter()
                            .map(|e| e.queue.len())
                            .sum();
                        col.push(queued as f64);
                    }
                }
                SeriesKind::Cwnd | SeriesKind::Rto => {
                    for (f, col) in self.flows.iter().zip(columns) {
                        if let Some(c) = f.tcp {
                            let sender = &self.conns[c as usize].sender;
                            col.push(match kind {
                                SeriesKind::Cwnd => sender.cwnd_bytes() as f64,
                                _ => to_secs(sender.rto()),
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
            // A name per column; UDP flows have no cwnd column.
            let names: Vec<Option<&str>> = match kind {
                SeriesKind::FlowThroughput => {
                    self.flows.iter().map(|f| Some(f.name.as_str())).collect()
                }
                SeriesKind::Cwnd | SeriesKind::Rto => self
                    .flows
                    .iter()
                    .map(|f| f.tcp.map(|_| f.name.as_str()))
                    .collect(),
                SeriesKind::QueueLength => self
                    .nodes
                    .iter()
                    .map(|n| n.bss.map(|_| n.name.as_str()))
                    .collect(),
            };
            let mut table: BTreeMap<String, Vec<f64>> = names
                .into_iter()
                .zip(columns)
                .filter_map(|(name, col)| Some((name?.to_string(), col.clone())))
                .collect();
            table.insert("t_s".into(), rec.t.clone());
            out.insert(kind.name().into(), table);
        }
        out
    }
}
