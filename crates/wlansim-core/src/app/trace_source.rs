//! Trace-driven video: a source that sends the frames of a frame-size trace, each frame
//! at its time as one message (the world fragments it into packets of at most the flow's
//! `packet_size`), and loops when the trace ends. As ns-2's `Application/Traffic/Trace`
//! (`trace/traffictrace.cc`), it may start at a random frame of the trace.
//!
//! Formats read (`parse`):
//! - `frames`: the verbose text traces of the TKN (TU Berlin) and ASU video trace
//!   libraries: one frame per line, whitespace-separated `number time_ms type size_bytes`
//!   (further columns ignored); lines starting with `#` and a header line that does not
//!   start with a number are skipped. A frame's gap is the time to the next frame's; the
//!   last frame's is the trace's mean gap.
//! - `sizes`: one frame size in bytes per line (the libraries' terse traces), at
//!   `frame_rate` frames per second.
//! - `ns2`: ns-2's binary trace (records of two big-endian u32: the time to the next
//!   record in µs, then the size in bytes).
use crate::sim::time::{Time, SECOND, US};
use std::sync::Arc;

/// One frame of a trace: its size and the time until the next frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub bytes: u32,
    pub gap: Time,
}

/// The trace formats.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Format {
    Frames,
    Sizes { frame_rate: f64 },
    Ns2,
}

/// The frames of a trace file's content; an error says which line or record is wrong.
pub fn parse(content: &[u8], format: Format) -> Result<Vec<Frame>, String> {
    let frames = match format {
        Format::Ns2 => ns2_records(content)?,
        Format::Frames | Format::Sizes { .. } => {
            let text = std::str::from_utf8(content).map_err(|e| {
                format!("not UTF-8 text ({e}); a binary ns-2 trace needs format = \"ns2\"")
            })?;
            text_frames(text, format)?
        }
    };
    if frames.is_empty() {
        return Err("no frames".into());
    }
    if frames.iter().all(|f| f.gap == 0) {
        return Err("every frame at the same time: the trace must advance in time".into());
    }
    Ok(frames)
}

fn text_frames(text: &str, format: Format) -> Result<Vec<Frame>, String> {
    // (time, size) per frame; the gaps come from the times.
    let mut rows: Vec<(f64, u32)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let at = |k: usize, what: &str| -> Result<f64, String> {
            let v = fields.get(k).ok_or_else(|| {
                format!(
                    "line {}: \"{line}\" has no {what} (column {})",
                    i + 1,
                    k + 1
                )
            })?;
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("line {}: {what} \"{v}\" is not a number ≥ 0", i + 1))
        };
        // A header line (column names) is skipped where the first field is not a number.
        if rows.is_empty() && fields[0].parse::<f64>().is_err() {
            continue;
        }
        let (time_s, size) = match format {
            Format::Sizes { frame_rate } => (rows.len() as f64 / frame_rate, at(0, "size")?),
            _ => (at(1, "time (ms)")? / 1e3, at(3, "size (bytes)")?),
        };
        if size.fract() != 0.0 || size > u32::MAX as f64 {
            return Err(format!(
                "line {}: size {size} is not a whole number of bytes",
                i + 1
            ));
        }
        if let Some(&(last, _)) = rows.last() {
            if time_s < last {
                return Err(format!(
                    "line {}: time {} ms is before the previous frame's ({} ms)",
                    i + 1,
                    time_s * 1e3,
                    last * 1e3
                ));
            }
        }
        rows.push((time_s, size as u32));
    }
    let n = rows.len();
    let mean_gap = if n > 1 {
        (rows[n - 1].0 - rows[0].0) / (n - 1) as f64
    } else {
        match format {
            Format::Sizes { frame_rate } => 1.0 / frame_rate,
            _ => 0.0,
        }
    };
    Ok((0..n)
        .map(|k| {
            let gap = if k + 1 < n {
                rows[k + 1].0 - rows[k].0
            } else {
                mean_gap
            };
            Frame {
                bytes: rows[k].1,
                gap: (gap * SECOND as f64).round() as Time,
            }
        })
        .collect())
}

fn ns2_records(content: &[u8]) -> Result<Vec<Frame>, String> {
    if !content.len().is_multiple_of(8) {
        return Err(format!(
            "{} bytes: an ns-2 binary trace is a sequence of 8-byte records",
            content.len()
        ));
    }
    Ok(content
        .chunks_exact(8)
        .map(|r| Frame {
            gap: u32::from_be_bytes([r[0], r[1], r[2], r[3]]) as Time * US,
            bytes: u32::from_be_bytes([r[4], r[5], r[6], r[7]]),
        })
        .collect())
}

/// A source playing a trace from frame `cursor`, looping.
pub struct TraceSource {
    frames: Arc<[Frame]>,
    cursor: usize,
}

impl TraceSource {
    /// Starting at frame `first` (taken modulo the trace's length).
    pub fn new(frames: Arc<[Frame]>, first: usize) -> Self {
        let cursor = first % frames.len();
        TraceSource { frames, cursor }
    }

    /// The frame sent now (bytes) and the time to the next.
    pub fn next_frame(&mut self) -> (u32, Time) {
        let f = self.frames[self.cursor];
        self.cursor = (self.cursor + 1) % self.frames.len();
        (f.bytes, f.gap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::MS;

    #[test]
    fn reads_the_three_formats() {
        let verbose =
            "# Star Wars IV\nFrame Time Type Size\n0 0.0 I 1000\n1 40.0 B 300 33.1\n2 80 P 500\n";
        let f = parse(verbose.as_bytes(), Format::Frames).unwrap();
        let gaps: Vec<Time> = f.iter().map(|x| x.gap).collect();
        assert_eq!(
            f.iter().map(|x| x.bytes).collect::<Vec<_>>(),
            [1000, 300, 500]
        );
        assert_eq!(gaps, [40 * MS, 40 * MS, 40 * MS]);
        let terse = parse(b"1000\n300\n", Format::Sizes { frame_rate: 25.0 }).unwrap();
        assert_eq!(
            terse[0],
            Frame {
                bytes: 1000,
                gap: 40 * MS
            }
        );
        assert_eq!(terse[1].gap, 40 * MS);
        let mut bin = Vec::new();
        for (us, size) in [(40_000u32, 1200u32), (40_000, 80)] {
            bin.extend(us.to_be_bytes());
            bin.extend(size.to_be_bytes());
        }
        assert_eq!(
            parse(&bin, Format::Ns2).unwrap()[1],
            Frame {
                bytes: 80,
                gap: 40 * MS
            }
        );
    }

    #[test]
    fn bad_traces_say_where() {
        let e = parse(b"0 0 I 10\n1 x P 20\n", Format::Frames).unwrap_err();
        assert!(e.contains("line 2") && e.contains("time"), "{e}");
        let e = parse(b"0 40 I 10\n1 0 P 20\n", Format::Frames).unwrap_err();
        assert!(e.contains("before the previous"), "{e}");
        assert!(parse(b"# nothing\n", Format::Frames)
            .unwrap_err()
            .contains("no frames"));
        assert!(parse(&[0; 7], Format::Ns2).unwrap_err().contains("8-byte"));
        assert!(parse(&[0xff, 0xfe], Format::Frames)
            .unwrap_err()
            .contains("ns2"));
    }

    #[test]
    fn plays_from_its_first_frame_and_loops() {
        let frames: Arc<[Frame]> = (1..=3)
            .map(|b| Frame { bytes: b, gap: MS })
            .collect::<Vec<_>>()
            .into();
        let mut s = TraceSource::new(frames, 4);
        let sizes: Vec<u32> = (0..4).map(|_| s.next_frame().0).collect();
        assert_eq!(sizes, [2, 3, 1, 2]);
    }
}
