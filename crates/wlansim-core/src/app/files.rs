//! Files sent one after another over TCP: each file is requested (the session starts),
//! written to the connection (a fresh one with its handshake, or the same one), and done
//! when its last byte is acknowledged (the session ends); the next file is requested
//! `gap` later.
use crate::sim::time::Time;

/// One file's transfer: requested at `start`, last byte acknowledged at `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Session {
    /// Position of the file in the sequence (from 0).
    pub index: u32,
    pub bytes: u64,
    pub start: Time,
    pub end: Time,
    /// The file opened a fresh connection (its time includes the handshake).
    pub new_connection: bool,
}

#[derive(Clone, Debug)]
pub struct FileSequence {
    sizes: Vec<u64>,
    /// Time from one file's completion to the next file's request.
    pub gap: Time,
    /// Every file on a fresh connection (else one persistent connection).
    pub new_connection: bool,
    next: usize,
    /// The file in transfer: (index, bytes, requested at, on a fresh connection).
    current: Option<(u32, u64, Time, bool)>,
    /// Finished sessions, in order.
    pub sessions: Vec<Session>,
}

impl FileSequence {
    pub fn new(sizes: Vec<u64>, gap: Time, new_connection: bool) -> Self {
        FileSequence {
            sizes,
            gap,
            new_connection,
            next: 0,
            current: None,
            sessions: Vec::new(),
        }
    }

    /// Request the next file at `now`: its size and whether it needs a fresh connection
    /// (always the first file), or None when every file was sent.
    pub fn request(&mut self, now: Time) -> Option<(u64, bool)> {
        debug_assert!(self.current.is_none(), "one file at a time");
        let bytes = *self.sizes.get(self.next)?;
        let fresh = self.new_connection || self.next == 0;
        self.current = Some((self.next as u32, bytes, now, fresh));
        self.next += 1;
        Some((bytes, fresh))
    }

    /// Whether a file is in transfer.
    pub fn busy(&self) -> bool {
        self.current.is_some()
    }

    /// The file in transfer was acknowledged completely at `now`.
    pub fn complete(&mut self, now: Time) -> Session {
        let (index, bytes, start, new_connection) =
            self.current.take().expect("a file in transfer");
        let s = Session {
            index,
            bytes,
            start,
            end: now,
            new_connection,
        };
        self.sessions.push(s);
        s
    }

    /// Files not yet finished (in transfer or not yet requested).
    pub fn unfinished(&self) -> usize {
        self.sizes.len() - self.sessions.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_in_order_first_on_a_fresh_connection() {
        let mut f = FileSequence::new(vec![10, 20], 5, false);
        assert_eq!(f.request(0), Some((10, true)));
        assert!(f.busy());
        let s = f.complete(7);
        assert_eq!((s.index, s.bytes, s.start, s.end), (0, 10, 0, 7));
        assert_eq!(f.request(12), Some((20, false)));
        f.complete(30);
        assert_eq!(f.request(35), None);
        assert_eq!(f.unfinished(), 0);
        let mut g = FileSequence::new(vec![1, 2], 0, true);
        g.request(0);
        g.complete(1);
        assert_eq!(g.request(1), Some((2, true)));
        assert_eq!(g.unfinished(), 1);
    }
}
