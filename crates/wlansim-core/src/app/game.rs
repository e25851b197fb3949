//! Game traffic: one direction of a networked game, a message of `size` bytes every
//! `interval`, each fixed or drawn per message (`Draw`). A game is two flows: the client
//! events (station → server, `direction = "uplink"`) and the server's updates (server →
//! station, `"downlink"`). Defaults are janevski2009's (§3, after Palazzi et al.): client
//! events of 42 B every 60 ms, server updates of 200 B every 50 ms, constant (ns-2's CBR
//! with `random_` 0, the natural reading of the paper).
use super::udp::MAX_MESSAGE_BYTES;
use super::Draw;
use crate::sim::rng::Rng;
use crate::sim::time::Time;

#[derive(Clone, Debug)]
pub struct GameSource {
    /// Payload bytes per message.
    size: Draw,
    /// Time between messages, ns.
    interval: Draw,
}

impl GameSource {
    pub fn new(size: Draw, interval: Draw) -> Self {
        GameSource { size, interval }
    }

    /// The message sent now (bytes, 1 to [`MAX_MESSAGE_BYTES`]: a larger draw is cut)
    /// and the gap to the next one (at least 1 ns).
    pub fn next(&self, rng: &mut Rng) -> (u32, Time) {
        let bytes = self.size.sample_whole(rng, 1, MAX_MESSAGE_BYTES as u64) as u32;
        (bytes, self.interval.sample_whole(rng, 1, u64::MAX))
    }

    /// Mean message size (bytes, after the cut) and mean gap (ns): the source's offered
    /// load.
    pub fn means(&self) -> (f64, f64) {
        let size = self.size.mean_below(MAX_MESSAGE_BYTES as f64).max(1.0);
        (size, self.interval.mean_below(u64::MAX as f64).max(1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::StreamKind;
    use crate::sim::time::MS;

    #[test]
    fn fixed_messages_come_at_fixed_intervals() {
        let g = GameSource::new(Draw::Fixed(42.0), Draw::Fixed((60 * MS) as f64));
        let mut rng = Rng::named(1, StreamKind::Traffic, "g");
        assert_eq!(g.next(&mut rng), (42, 60 * MS));
        let drawn = GameSource::new(Draw::exponential(200.0).unwrap(), Draw::Fixed(1.0));
        let n = 20_000;
        let mean = (0..n).map(|_| drawn.next(&mut rng).0 as f64).sum::<f64>() / n as f64;
        assert!((mean - 200.0).abs() < 5.0, "{mean}");
    }
}
