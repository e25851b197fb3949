//! Files sent one after another over TCP, the on/off (HTTP-like) workload of miorandi2004
//! §4: each file is requested (the session starts), written to the connection (a fresh
//! one with its three-way handshake, or the same one), and done when its last byte is
//! acknowledged (the session ends: what eq 14 counts); the next file is requested a think
//! time later. Sizes come from a list (in order) or are drawn from a distribution, up to a
//! number of files or without end; think times are fixed or drawn
//! ([`super::distributions`]). Connection teardown (FIN) is not modelled: the paper
//! neglects it too (its §4.1 and footnote 1).
use super::distributions::Draw;
use crate::sim::rng::{Rng, StreamKind};
use crate::sim::time::Time;

/// The largest file: 2^53 bytes, the largest size a scenario can give (`Bytes`); a drawn
/// size above it is cut to it. Padded to whole segments it still fits in a u64.
pub const MAX_FILE_BYTES: u64 = 1 << 53;

/// One file's transfer: requested at `start`, last byte acknowledged at `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Session {
    /// Position of the file in the sequence (from 0).
    pub index: u32,
    /// The file's size (before any padding).
    pub bytes: u64,
    pub start: Time,
    pub end: Time,
    /// The file opened a fresh connection (its time includes the handshake).
    pub new_connection: bool,
    /// From the request to the connection established (0 on a connection already open).
    pub setup: Time,
    /// Retransmission timeouts of the sender during the session.
    pub timeouts: u64,
}

/// Where the files' sizes come from.
#[derive(Clone, Debug)]
pub enum FileSizes {
    /// These sizes, in order.
    List(Vec<u64>),
    /// Drawn sizes (bytes, 1 to [`MAX_FILE_BYTES`]), `count` files or without end.
    Drawn { draw: Draw, count: Option<u64> },
}

/// The file in transfer.
#[derive(Clone, Copy, Debug)]
struct Current {
    index: u32,
    bytes: u64,
    start: Time,
    fresh: bool,
    setup: Option<Time>,
    /// The sender's timeout counter when the session started.
    timeouts_base: u64,
}

#[derive(Clone, Debug)]
pub struct FileSequence {
    sizes: FileSizes,
    /// Time from one file's completion to the next file's request (nanoseconds).
    think: Draw,
    /// Every file on a fresh connection (else one persistent connection).
    pub new_connection: bool,
    /// The first request waits a think time too.
    pub think_first: bool,
    /// Bytes written per file are rounded up to a multiple of this (ns-2 pads the last
    /// segment to a full MSS: miorandi2004 footnote 1); 1 = no padding.
    pad_to: u64,
    size_rng: Rng,
    think_rng: Rng,
    requested: u64,
    current: Option<Current>,
    /// Finished sessions, in order.
    pub sessions: Vec<Session>,
}

impl FileSequence {
    /// Random streams: `<name>/file-size` and `<name>/think` under `seed`.
    pub fn new(
        sizes: FileSizes,
        think: Draw,
        new_connection: bool,
        pad_to: u64,
        seed: u64,
        name: &str,
    ) -> Self {
        FileSequence {
            sizes,
            think,
            new_connection,
            think_first: false,
            pad_to: pad_to.max(1),
            size_rng: Rng::named(seed, StreamKind::Traffic, &format!("{name}/file-size")),
            think_rng: Rng::named(seed, StreamKind::Traffic, &format!("{name}/think")),
            requested: 0,
            current: None,
            sessions: Vec::new(),
        }
    }

    /// Request the next file at `now`, with the sender's timeout counter `timeouts`: the
    /// bytes to write (padded) and whether it needs a fresh connection (always the first
    /// file), or None when every file was sent.
    pub fn request(&mut self, now: Time, timeouts: u64) -> Option<(u64, bool)> {
        debug_assert!(self.current.is_none(), "one file at a time");
        let bytes = match &self.sizes {
            FileSizes::List(v) => *v.get(self.requested as usize)?,
            FileSizes::Drawn { draw, count } => {
                if count.is_some_and(|c| self.requested >= c) {
                    return None;
                }
                draw.sample_whole(&mut self.size_rng, 1, MAX_FILE_BYTES)
            }
        };
        let fresh = self.new_connection || self.requested == 0;
        self.current = Some(Current {
            index: self.requested.min(u32::MAX as u64) as u32,
            bytes,
            start: now,
            fresh,
            setup: (!fresh).then_some(0),
            timeouts_base: if fresh { 0 } else { timeouts },
        });
        self.requested += 1;
        Some((bytes.div_ceil(self.pad_to) * self.pad_to, fresh))
    }

    /// Whether a file is in transfer.
    pub fn busy(&self) -> bool {
        self.current.is_some()
    }

    /// The connection of the file in transfer is established at `now` (the first call
    /// after the request counts).
    pub fn connected(&mut self, now: Time) {
        if let Some(c) = &mut self.current {
            c.setup.get_or_insert(now - c.start);
        }
    }

    /// The file in transfer was acknowledged completely at `now`; `timeouts`: the
    /// sender's timeout counter.
    pub fn complete(&mut self, now: Time, timeouts: u64) -> Session {
        let c = self.current.take().expect("a file in transfer");
        let s = Session {
            index: c.index,
            bytes: c.bytes,
            start: c.start,
            end: now,
            new_connection: c.fresh,
            setup: c.setup.unwrap_or(now - c.start),
            timeouts: timeouts - c.timeouts_base,
        };
        self.sessions.push(s);
        s
    }

    /// The think time before the next request.
    pub fn think(&mut self) -> Time {
        self.think.sample_whole(&mut self.think_rng, 0, u64::MAX)
    }

    /// Files not finished: in transfer, or (with a list or a count) not yet requested.
    pub fn unfinished(&self) -> usize {
        let done = self.sessions.len();
        match &self.sizes {
            FileSizes::List(v) => v.len() - done,
            FileSizes::Drawn { count: Some(c), .. } => *c as usize - done,
            FileSizes::Drawn { count: None, .. } => self.busy() as usize,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(sizes: Vec<u64>, gap: Time, new_connection: bool) -> FileSequence {
        FileSequence::new(
            FileSizes::List(sizes),
            Draw::Fixed(gap as f64),
            new_connection,
            1,
            1,
            "f",
        )
    }

    #[test]
    fn files_in_order_first_on_a_fresh_connection() {
        let mut f = list(vec![10, 20], 5, false);
        assert_eq!(f.request(0, 0), Some((10, true)));
        assert!(f.busy());
        f.connected(3);
        f.connected(4);
        let s = f.complete(7, 2);
        assert_eq!((s.index, s.bytes, s.start, s.end), (0, 10, 0, 7));
        assert_eq!((s.setup, s.timeouts), (3, 2));
        assert_eq!(f.think(), 5);
        assert_eq!(f.request(12, 2), Some((20, false)));
        let s = f.complete(30, 3);
        assert_eq!((s.setup, s.timeouts), (0, 1));
        assert_eq!(f.request(35, 3), None);
        assert_eq!(f.unfinished(), 0);
        let mut g = list(vec![1, 2], 0, true);
        g.request(0, 0);
        g.complete(1, 0);
        assert_eq!(g.request(1, 0), Some((2, true)));
        assert_eq!(g.unfinished(), 1);
    }

    #[test]
    fn drawn_sizes_stop_at_the_count_and_padding_rounds_up() {
        let mut f = FileSequence::new(
            FileSizes::Drawn {
                draw: Draw::Fixed(2500.0),
                count: Some(2),
            },
            Draw::exponential(1e9).unwrap(),
            true,
            1000,
            1,
            "f",
        );
        assert_eq!(f.request(0, 0), Some((3000, true)));
        assert_eq!(f.complete(5, 0).bytes, 2500);
        assert_eq!(f.unfinished(), 1);
        assert_eq!(f.request(9, 0), Some((3000, true)));
        f.complete(10, 0);
        assert_eq!(f.request(11, 0), None);
        assert_eq!(f.unfinished(), 0);
    }
}
