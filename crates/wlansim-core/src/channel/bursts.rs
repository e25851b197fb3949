//! Burst models per link and direction (`[channel] bursts`, `[[channel.links]] bursts*`):
//! each station's uplink (its data frames to the AP) and downlink (the AP's to it) with a
//! burst model has its own state, its own random stream (`<station>/uplink`,
//! `<station>/downlink`) and its own loss counters (whole run). With `shared = true` the
//! links of a station group in that direction draw from one process instead (stream
//! `<group>/uplink/shared`): every station's attempt moves the one pattern, as one error
//! model at the AP's receiver would; each link keeps its own counters. The models are
//! [`GilbertElliott`] and the consecutive bursts of fotiadis2005 ([`Periodic`],
//! [`Bernoulli`]); dispatch is an enum match.
use super::consecutive_burst::{Bernoulli, Periodic, Phase};
use super::gilbert_elliott::GilbertElliott;
use crate::net::NodeId;
use crate::sim::rng::{Rng, StreamKind};

/// A link direction's burst model with its parameters resolved (`scenario/channel.rs`
/// `BurstLoss::params` fills the defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BurstParams {
    /// Gilbert–Elliott from a long-run frame error rate and a mean burst length.
    GilbertElliottPer { per: f64, burst_length: f64 },
    /// Gilbert–Elliott from each state's frame error rate and mean sojourn (attempts).
    GilbertElliott {
        good_fer: f64,
        bad_fer: f64,
        good_frames: f64,
        bad_frames: f64,
    },
    /// fotiadis2005's runs of `burst_length` losses, one per period, at a random phase
    /// drawn as `phase` says.
    Periodic {
        per: f64,
        burst_length: u64,
        phase: Phase,
    },
    /// Runs of `burst_length` losses starting at random (long-run rate `per`).
    Bernoulli { per: f64, burst_length: u64 },
}

#[derive(Clone, Debug)]
enum Model {
    GilbertElliott(GilbertElliott),
    Periodic(Periodic),
    Bernoulli(Bernoulli),
}

/// A link direction's burst model and whether it is its own or its group's (`shared`: the
/// name of the process every link of the group in this direction draws from).
#[derive(Clone, Debug, PartialEq)]
pub struct BurstSpec {
    pub params: BurstParams,
    pub shared: Option<String>,
}

/// One loss process: a model with its random stream.
#[derive(Clone, Debug)]
struct Process {
    model: Model,
    rng: Rng,
}

impl Process {
    /// The process called `name` with the model `b`.
    fn new(seed: u64, name: &str, b: BurstParams) -> Self {
        let mut rng = Rng::named(seed, StreamKind::Channel, name);
        let model = match b {
            BurstParams::GilbertElliottPer { per, burst_length } => {
                Model::GilbertElliott(GilbertElliott::from_per(per, burst_length, &mut rng))
            }
            BurstParams::GilbertElliott {
                good_fer,
                bad_fer,
                good_frames,
                bad_frames,
            } => Model::GilbertElliott(GilbertElliott::new(
                good_fer,
                bad_fer,
                good_frames,
                bad_frames,
                &mut rng,
            )),
            BurstParams::Periodic {
                per,
                burst_length,
                phase,
            } => Model::Periodic(Periodic::new(per, burst_length, phase, &mut rng)),
            BurstParams::Bernoulli { per, burst_length } => {
                Model::Bernoulli(Bernoulli::new(per, burst_length))
            }
        };
        Process { model, rng }
    }

    #[inline]
    fn frame_lost(&mut self) -> bool {
        match &mut self.model {
            Model::GilbertElliott(m) => m.frame_lost(&mut self.rng),
            Model::Periodic(m) => m.frame_lost(),
            Model::Bernoulli(m) => m.frame_lost(&mut self.rng),
        }
    }
}

/// A link direction with a burst model: the process it draws from, and its counters.
#[derive(Clone, Copy, Debug)]
pub struct BurstLink {
    process: usize,
    /// Data frame attempts on the link, and those lost.
    pub frames: u64,
    pub losses: u64,
}

/// Per node: the burst model of the link whose data frames it sends to its AP (`up`, a
/// station's uplink) and of the link whose frames it receives from its AP (`down`).
#[derive(Default)]
pub struct BurstLinks {
    processes: Vec<Process>,
    pub up: Vec<Option<BurstLink>>,
    pub down: Vec<Option<BurstLink>>,
}

impl BurstLinks {
    /// The links of nodes given as (name, uplink spec, downlink spec): a link's own
    /// process is named `<node>/<direction>`, a shared one `<shared>` (one per name).
    pub fn new<'a>(
        seed: u64,
        nodes: impl Iterator<Item = (&'a str, Option<&'a BurstSpec>, Option<&'a BurstSpec>)>,
    ) -> Self {
        let mut links = BurstLinks::default();
        // The shared processes made so far: (name, index in `processes`).
        let mut shared: Vec<(&str, usize)> = Vec::new();
        for (node, up, down) in nodes {
            let mut link = |spec: Option<&'a BurstSpec>, dir: &str| {
                let spec = spec?;
                let known = spec
                    .shared
                    .as_deref()
                    .and_then(|name| shared.iter().find(|(n, _)| *n == name));
                let process = match (known, &spec.shared) {
                    (Some(&(_, i)), _) => i,
                    (None, Some(name)) => {
                        shared.push((name, links.processes.len()));
                        links.processes.push(Process::new(seed, name, spec.params));
                        links.processes.len() - 1
                    }
                    (None, None) => {
                        let name = format!("{node}/{dir}");
                        links.processes.push(Process::new(seed, &name, spec.params));
                        links.processes.len() - 1
                    }
                };
                Some(BurstLink {
                    process,
                    frames: 0,
                    losses: 0,
                })
            };
            let (u, d) = (link(up, "uplink"), link(down, "downlink"));
            links.up.push(u);
            links.down.push(d);
        }
        links
    }

    /// Whether the data frame `src` → `dst` is lost to a burst (either end's model).
    #[inline]
    pub fn frame_lost(&mut self, src: NodeId, dst: NodeId) -> bool {
        let processes = &mut self.processes;
        let mut draw = |link: &mut Option<BurstLink>| {
            link.as_mut().is_some_and(|l| {
                let lost = processes[l.process].frame_lost();
                l.frames += 1;
                l.losses += lost as u64;
                lost
            })
        };
        let up = draw(&mut self.up[src as usize]);
        let down = draw(&mut self.down[dst as usize]);
        up | down
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::consecutive_burst::tests::loss_runs;

    /// Two stations (nodes 0, 1; node 2 the AP) taking turns on the air, each uplink with
    /// fotiadis2005's periodic bursts (PER 10 %, runs of 10): with their own processes
    /// each link loses whole runs of 10; with one shared process the pattern runs over
    /// their attempts together, so the interleaved sequence has the runs of 10 and each
    /// link sees runs of 5. The links' counters add up either way.
    #[test]
    fn a_shared_process_runs_one_pattern_over_the_group_s_attempts() {
        let periodic = BurstParams::Periodic {
            per: 0.1,
            burst_length: 10,
            phase: Phase::Uniform,
        };
        for shared in [false, true] {
            let spec = BurstSpec {
                params: periodic,
                shared: shared.then(|| "mob/uplink/shared".to_string()),
            };
            let nodes = [("mob-0", Some(&spec)), ("mob-1", Some(&spec)), ("ap", None)];
            let mut links = BurstLinks::new(7, nodes.iter().map(|&(n, s)| (n, s, None)));
            let (mut all, mut own) = (Vec::new(), [Vec::new(), Vec::new()]);
            for i in 0..2000 {
                let lost = links.frame_lost(i % 2, 2);
                all.push(lost);
                own[i as usize % 2].push(lost);
            }
            let whole = |fates: &[bool]| {
                let runs = loss_runs(fates);
                runs[1..runs.len() - 1].to_vec()
            };
            let each = if shared { 5 } else { 10 };
            for fates in &own {
                assert!(whole(fates).iter().all(|&r| r == each), "{shared}");
            }
            if shared {
                assert!(whole(&all).iter().all(|&r| r == 10));
            }
            let counts: Vec<_> = links
                .up
                .iter()
                .flatten()
                .map(|l| (l.frames, l.losses))
                .collect();
            assert_eq!(counts.iter().map(|c| c.0).sum::<u64>(), 2000);
            assert_eq!(counts.iter().map(|c| c.1).sum::<u64>(), 200);
        }
    }
}
