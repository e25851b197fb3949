//! The rate controllers of the stations' links (`mac.rate_control`,
//! `stations[].rate_control`; the controllers: `mac/rate/`), built from the resolved model: one
//! ladder per adapted station group, a controller per station and direction.
use crate::channel::power::watts;
use crate::channel::Channel;
use crate::mac::rate::{first_reports, Direction, Ladder, LinkSpec, RateControl};
use crate::phy::LinkTimes;
use crate::scenario::{Model, ScenarioError};
use crate::sim::rng::{Rng, StreamKind};

/// The controllers of the run's adapted links; None when every link keeps its rate.
/// `spatial`: the run's medium is the spatial one, which has no rate adaptation yet.
pub(super) fn rate_control(
    m: &Model,
    channel: &Channel,
    spatial: bool,
    seed: u64,
) -> Result<Option<RateControl>, ScenarioError> {
    let Some(first) = m.rate.first() else {
        return Ok(None);
    };
    if spatial {
        return Err(ScenarioError::new(
            first.key,
            format!(
                "\"{}\": this scenario runs on the spatial medium (channel.medium = \"spatial\", or positions where not every node hears every other), which has no rate adaptation yet; it needs the shared medium",
                first.algorithm.name()
            ),
        ));
    }
    let noise_dbm = m
        .reception
        .as_ref()
        .expect("validated: sinr")
        .noise_floor_dbm;
    let noise = watts(noise_dbm);
    let mut ladders = Vec::new();
    let mut specs = Vec::new();
    let mut starts = Vec::new();
    for g in &m.rate {
        let rungs = g.rungs.iter().map(|&r| LinkTimes::new(&m.phy, r)).collect();
        ladders.push(Ladder::new(&m.phy, rungs, g.airtime));
        let ap = g.ap;
        for &sta in &g.stations {
            for (direction, tx, rx) in [(Direction::Up, sta, ap), (Direction::Down, ap, sta)] {
                let stream = format!(
                    "{}>{}/rate",
                    m.nodes[tx as usize].name, m.nodes[rx as usize].name
                );
                if direction == Direction::Up && g.first_reports {
                    starts.push((
                        tx,
                        rx,
                        Rng::named(seed, StreamKind::Rate, &format!("{stream}/first")),
                    ));
                }
                specs.push(LinkSpec {
                    direction,
                    tx,
                    rx,
                    ladder: ladders.len() - 1,
                    algorithm: g.algorithm,
                    // What the transmitter hears of its peer (the ACKs).
                    snr: channel.power_w(rx, tx, 0) / noise,
                    rng: Rng::named(seed, StreamKind::Rate, &stream),
                });
            }
        }
    }
    let mut control = RateControl::new(m.nodes.len(), ladders, specs);
    if !starts.is_empty() {
        let reception = channel.reception.as_ref().expect("validated: sinr");
        let format = m.phy.ht.expect("validated: 802.11n/ac").format;
        for (tx, rx, mut rng) in starts {
            let (forward, back) = (channel.power_w(tx, rx, 0), channel.power_w(rx, tx, 0));
            first_reports::run(
                &mut control,
                (tx, rx),
                first_reports::ns3_start(format),
                &mut rng,
                |frame, ack| {
                    reception.clear_success(frame, forward) * reception.clear_success(ack, back)
                },
            );
        }
    }
    Ok(Some(control))
}
