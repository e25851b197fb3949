//! End of run: the packet-accounting check and the results tables.
use super::{Role, SimError, World};
use crate::mac::MacStats;
use crate::net::NodeId;
use crate::results::{AcResult, BssResult, FlowResult, Meta, NodeResult, Results, TcpFlowResult};
use crate::results::{LinkResult, PacketHopRow, PacketRow, SessionRow};
use crate::scenario::Direction;
use crate::sim::time::{to_secs, Time};
use crate::trace::Trace;

impl World {
    /// DESIGN.md: every packet is accounted for. Per flow and direction, generated =
    /// delivered + dropped (queue overflow, retry limit, scripted) + in flight (in a MAC queue, a
    /// wired link's queue or on the wire, held by an AP, or handed down to a MAC and not yet
    /// queued; counted independently here).
    pub(super) fn check_accounting(&self) -> Result<(), SimError> {
        let mut in_flight = vec![[0u64; 2]; self.flows.len()];
        let queued = self
            .mac
            .store
            .entities
            .iter()
            .filter(|e| e.beacon.is_none())
            .flat_map(|e| e.queue.entries());
        let held = self
            .delay_injection
            .iter()
            .flatten()
            .flat_map(|d| d.held.iter().map(|(_, p)| p));
        let elsewhere = self
            .mac
            .in_windows()
            .chain(self.wires.in_flight())
            .chain(held)
            .chain(self.hand_down.pending.iter().map(|(_, p)| p))
            .map(|p| (p, 1));
        for (p, n) in queued.chain(elsewhere) {
            in_flight[p.flow as usize][p.reverse as usize] += n as u64;
        }
        // A head-of-line frame whose ACK was lost is delivered already: its copy in the
        // queue is not in flight.
        for e in &self.mac.store.entities {
            if e.head.is_some_and(|h| h.delivered) {
                let p = e.queue.head().expect("a head frame is queued");
                in_flight[p.flow as usize][p.reverse as usize] -= 1;
            }
        }
        for (f, in_flight) in self.flows.iter().zip(in_flight) {
            for (dir, (a, queued)) in f.acct.iter().zip(in_flight).enumerate() {
                let settled = a.delivered
                    + a.dropped_queue
                    + a.dropped_retry
                    + a.dropped_scripted
                    + a.dropped_lifetime
                    + queued;
                if a.generated != settled {
                    let dir = ["forward", "reverse"][dir];
                    return Err(SimError::Invariant(format!(
                        "packet accounting of flow {} ({dir}): generated {} ≠ delivered {} + queue drops {} + retry drops {} + scripted drops {} + lifetime drops {} + in flight {}",
                        f.name, a.generated, a.delivered, a.dropped_queue, a.dropped_retry, a.dropped_scripted, a.dropped_lifetime, queued
                    )));
                }
            }
        }
        Ok(())
    }

    /// The TCP columns of flow `f` over the measurement window.
    fn tcp_result(&self, f: &super::Flow, measured: f64) -> Option<TcpFlowResult> {
        let c = &self.conns[f.tcp? as usize];
        let t = c.totals();
        Some(TcpFlowResult {
            goodput_bps: t.delivered_bytes as f64 * 8.0 / measured,
            rtt_mean_s: (t.rtt_samples > 0).then(|| t.rtt_sum as f64 / t.rtt_samples as f64 / 1e9),
            retransmissions: t.retransmissions,
            fast_retransmits: t.fast_retransmits,
            timeouts: t.timeouts,
            spurious_timeouts: t.spurious_timeouts,
            acks_sent: t.acks_sent,
            cwnd_bytes: c.sender.cwnd_bytes(),
            completed_s: c.completed.map(to_secs),
        })
    }

    pub(super) fn report(&self, wall_s: f64) -> Results {
        let measured = to_secs(self.end - self.warmup);
        let flows: Vec<FlowResult> = self
            .flows
            .iter()
            .map(|f| {
                let s = &f.stats;
                FlowResult {
                    name: f.name.clone(),
                    protocol: World::protocol(f),
                    direction: f.direction,
                    src: self.nodes[f.src as usize].name.clone(),
                    dst: self.nodes[f.dst as usize].name.clone(),
                    counts: s.counts,
                    throughput_bps: s.counts.delivered_bytes as f64 * 8.0 / measured,
                    delay_mean_s: s.delay.mean().map(|ns| ns / 1e9),
                    jitter_s: s.jitter.mean().map(|ns| ns / 1e9),
                    delay_p95_s: s.delay.quantile(0.95).map(|ns| ns / 1e9),
                    tcp: self.tcp_result(f, measured),
                }
            })
            .collect();
        // The wireless nodes (APs and stations); wired nodes have no MAC.
        let nodes = self
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.bss.is_some())
            .map(|(id, n)| {
                let mut mac = MacStats::default();
                for e in n.entities_in(&self.mac.store.entities) {
                    mac.add(&e.stats);
                }
                let (busy, nav_deferrals) = self.mac.node_counters(id as NodeId);
                NodeResult {
                    name: n.name.clone(),
                    role: n.role.name(),
                    mac_address: crate::trace::pcap::mac_string(id as NodeId),
                    ip_address: crate::trace::pcap::ip_string(id as NodeId),
                    collision_probability: collision_probability(&mac),
                    mac,
                    channel: self.channels[id],
                    cs_busy_s: to_secs(busy),
                    nav_deferrals,
                    mean_data_rate_bps: self.mac.store.rate.as_ref().and_then(|r| {
                        let t = r.tally[id];
                        (t.attempts > 0).then(|| t.rate_sum / t.attempts as f64)
                    }),
                }
            })
            .collect();
        let access_categories = self
            .mac
            .store
            .entities
            .iter()
            .filter_map(|e| {
                e.ac.map(|ac| AcResult {
                    node: self.nodes[e.node as usize].name.clone(),
                    ac: ac.name(),
                    mac: e.stats,
                    collision_probability: collision_probability(&e.stats),
                })
            })
            .collect();
        let (packets, packet_hops) = self.packet_tables();
        let (sessions, unfinished_sessions) = self.session_tables();
        Results {
            sessions,
            unfinished_sessions,
            packets,
            packet_hops,
            bss: self.bss_table(&flows),
            flows,
            nodes,
            access_categories,
            links: self.link_table(),
            series: self.series_table(),
            meta: Meta {
                events: self.events.processed(),
                sim_time_s: to_secs(self.end),
                warmup_s: to_secs(self.warmup),
                measured_s: measured,
                wall_s,
                seed: self.seed,
                version: env!("CARGO_PKG_VERSION"),
                build: crate::results::BUILD,
                medium: self.mac.medium_name(),
            },
        }
    }
}

impl World {
    /// The loss counters of the link directions with a burst model, by station.
    fn link_table(&self) -> Vec<LinkResult> {
        let Some(b) = &self.channel.bursts else {
            return Vec::new();
        };
        let mut rows = Vec::new();
        for (id, node) in self.nodes.iter().enumerate() {
            for (direction, link) in [("uplink", &b.up[id]), ("downlink", &b.down[id])] {
                if let Some(l) = link {
                    rows.push(LinkResult {
                        station: node.name.clone(),
                        direction,
                        frames: l.frames,
                        losses: l.losses,
                    });
                }
            }
        }
        rows
    }

    /// Every finished file of every file sequence, and the unfinished count per flow.
    #[allow(clippy::type_complexity)]
    fn session_tables(&self) -> (Vec<SessionRow>, Vec<(String, u64)>) {
        let (mut rows, mut unfinished) = (Vec::new(), Vec::new());
        for f in &self.flows {
            let Some(files) = f.tcp.and_then(|c| self.conns[c as usize].files.as_ref()) else {
                continue;
            };
            let station = match f.direction {
                Direction::Uplink => f.src,
                Direction::Downlink => f.dst,
            };
            for s in &files.sessions {
                rows.push(SessionRow {
                    station: self.nodes[station as usize].name.clone(),
                    flow: f.name.clone(),
                    file: s.index,
                    bytes: s.bytes,
                    start_s: to_secs(s.start),
                    end_s: to_secs(s.end),
                    delay_s: to_secs(s.end - s.start),
                    new_connection: s.new_connection,
                    setup_s: to_secs(s.setup),
                    timeouts: s.timeouts,
                });
            }
            unfinished.push((f.name.clone(), files.unfinished() as u64));
        }
        (rows, unfinished)
    }

    /// The per-packet records, as a packet table and a hop table.
    fn packet_tables(&self) -> (Vec<PacketRow>, Vec<PacketHopRow>) {
        let (mut packets, mut hops) = (Vec::new(), Vec::new());
        let Some(Trace {
            packets: Some(rec), ..
        }) = &self.trace
        else {
            return (packets, hops);
        };
        let name = |node: NodeId| self.nodes[node as usize].name.clone();
        let secs = |t: Option<Time>| t.map(to_secs);
        for r in &rec.done {
            let flow = self.flows[r.flow as usize].name.clone();
            let direction = if r.reverse { "reverse" } else { "forward" };
            packets.push(PacketRow {
                flow: flow.clone(),
                direction,
                seq: r.seq,
                ip_bytes: r.ip_bytes,
                payload_bytes: r.payload_bytes,
                tcp_seq: r.tcp_seq,
                tcp_ack: r.tcp_ack,
                created_s: to_secs(r.created),
                delivered_s: secs(r.delivered),
                delay_s: r.delivered.map(|t| to_secs(t - r.created)),
                dropped: r.dropped.map(|(reason, _)| reason.name()),
                dropped_at: r.dropped.map(|(_, node)| name(node)),
                hops: r.hops.len() as u32,
                attempts: r.hops.iter().map(|h| h.attempts).sum(),
            });
            for (i, h) in r.hops.iter().enumerate() {
                hops.push(PacketHopRow {
                    flow: flow.clone(),
                    direction,
                    seq: r.seq,
                    hop: i as u32,
                    node: name(h.node),
                    enqueued_s: to_secs(h.enqueued),
                    tx_start_s: secs(h.tx_start),
                    attempts: h.attempts,
                    received_s: secs(h.received),
                });
            }
        }
        (packets, hops)
    }

    /// One row per AP: its BSS's counters and throughputs.
    fn bss_table(&self, flows: &[FlowResult]) -> Vec<BssResult> {
        let mut rows: Vec<BssResult> = self
            .nodes
            .iter()
            .zip(&self.ssids)
            .filter(|(n, _)| n.role == Role::AccessPoint)
            .enumerate()
            .map(|(id, (n, ssid))| {
                let di = self.delay_injection[id].as_ref();
                BssResult {
                    ap: n.name.clone(),
                    ssid: ssid.clone(),
                    stations: 0,
                    uplink_bps: 0.0,
                    downlink_bps: 0.0,
                    mac: MacStats::default(),
                    acks_delayed: di.map(|d| d.acks_delayed),
                    injected_delay_s: di.map(|d| to_secs(d.injected)),
                    delay_spikes: di.map(|d| d.spikes),
                    beacons: None,
                    beacon_collisions: None,
                    beacon_airtime_share: None,
                }
            })
            .collect();
        let measured = to_secs(self.end - self.warmup);
        for &(ap, entity, _) in &self.beacons {
            let e = &self.mac.store.entities[entity as usize];
            let airtime = to_secs(e.beacon.expect("a beacon entity").first_frame);
            let row = &mut rows[ap as usize];
            row.beacons = Some(e.stats.attempts);
            row.beacon_collisions = Some(e.stats.collisions);
            row.beacon_airtime_share = Some(e.stats.attempts as f64 * airtime / measured);
        }
        for n in &self.nodes {
            let Some(ap) = n.bss else { continue };
            let row = &mut rows[ap as usize];
            row.stations += (n.role == Role::Station) as u32;
            for e in n.entities_in(&self.mac.store.entities) {
                row.mac.add(&e.stats);
            }
        }
        for (f, r) in self.flows.iter().zip(flows) {
            let rate = r.tcp.as_ref().map_or(r.throughput_bps, |t| t.goodput_bps);
            let bss = |node: u32| {
                let n = &self.nodes[node as usize];
                (n.role == Role::Station).then(|| n.bss.expect("a station's AP") as usize)
            };
            if let Some(b) = bss(f.src) {
                rows[b].uplink_bps += rate;
            }
            if let Some(b) = bss(f.dst) {
                rows[b].downlink_bps += rate;
            }
        }
        rows
    }
}

/// Measured conditional collision probability: collisions / attempts.
fn collision_probability(mac: &MacStats) -> Option<f64> {
    (mac.attempts > 0).then(|| mac.collisions as f64 / mac.attempts as f64)
}
