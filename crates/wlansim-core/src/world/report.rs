//! End of run: the packet-accounting check and the results tables.
use super::{Role, SimError, World};
use crate::mac::MacStats;
use crate::results::{AcResult, FlowResult, Meta, NodeResult, Results};
use crate::sim::time::to_secs;

impl World {
    /// DESIGN.md: every packet is accounted for. Per flow, generated = delivered + dropped
    /// (queue overflow, retry limit) + in flight (still queued, counted independently here).
    pub(super) fn check_accounting(&self) -> Result<(), SimError> {
        let mut in_flight = vec![0u64; self.flows.len()];
        for e in &self.entities {
            for p in e.queue.iter() {
                in_flight[p.flow as usize] += 1;
            }
        }
        for (f, queued) in self.flows.iter().zip(in_flight) {
            let a = &f.acct;
            let settled = a.delivered + a.dropped_queue + a.dropped_retry + queued;
            if a.generated != settled {
                return Err(SimError::Invariant(format!(
                    "packet accounting of flow {}: generated {} ≠ delivered {} + queue drops {} + retry drops {} + in flight {}",
                    f.name, a.generated, a.delivered, a.dropped_queue, a.dropped_retry, queued
                )));
            }
        }
        Ok(())
    }

    pub(super) fn report(&self, wall_s: f64) -> Results {
        let measured = to_secs(self.end - self.warmup);
        let name = |id: u32| self.nodes[id as usize].name.clone();
        let flows = self
            .flows
            .iter()
            .map(|f| {
                let s = &f.stats;
                FlowResult {
                    name: f.name.clone(),
                    protocol: "udp",
                    direction: f.direction,
                    src: name(f.src),
                    dst: name(f.dst),
                    offered_packets: s.offered_packets,
                    offered_bytes: s.offered_bytes,
                    delivered_packets: s.delivered_packets,
                    delivered_bytes: s.delivered_bytes,
                    dropped_queue: s.dropped_queue,
                    dropped_retry: s.dropped_retry,
                    throughput_bps: s.delivered_bytes as f64 * 8.0 / measured,
                    delay_mean_s: s.delay.mean().map(|ns| ns / 1e9),
                    delay_p95_s: s.delay.quantile(0.95).map(|ns| ns / 1e9),
                }
            })
            .collect();
        let nodes = self
            .nodes
            .iter()
            .map(|n| {
                let mut mac = MacStats::default();
                for e in n.entities_in(&self.entities) {
                    mac.add(&e.stats);
                }
                NodeResult {
                    name: n.name.clone(),
                    role: match n.role {
                        Role::AccessPoint => "ap",
                        Role::Station => "station",
                    },
                    collision_probability: collision_probability(&mac),
                    mac,
                }
            })
            .collect();
        let access_categories = self
            .entities
            .iter()
            .filter_map(|e| {
                e.ac.map(|ac| AcResult {
                    node: name(e.node),
                    ac: ac.name(),
                    mac: e.stats,
                    collision_probability: collision_probability(&e.stats),
                })
            })
            .collect();
        Results {
            flows,
            nodes,
            access_categories,
            series: self.series_table(),
            meta: Meta {
                events: self.events.processed(),
                sim_time_s: to_secs(self.end),
                warmup_s: to_secs(self.warmup),
                measured_s: measured,
                wall_s,
                seed: self.seed,
                version: env!("CARGO_PKG_VERSION"),
            },
        }
    }
}

/// Measured conditional collision probability: collisions / attempts.
fn collision_probability(mac: &MacStats) -> Option<f64> {
    (mac.attempts > 0).then(|| mac.collisions as f64 / mac.attempts as f64)
}
