//! `[flows.trace]`: a video trace played by a UDP flow (`traffic = "trace"`,
//! `app/trace_source.rs`, which documents the formats). Each frame is sent as packets of
//! at most the flow's `packet_size`.
//!
//! ```toml
//! [[flows]]
//! name = "movie"
//! direction = "downlink"
//! stations = "n0"
//! traffic = "trace"
//! packet_size = "1000 B"      # ns-2's UDP packetSize_
//! trace = { file = "traces/starwars4-mpeg4-high-synthetic.txt", start = "random" }
//! ```
use super::ScenarioError;
use crate::app::trace_source::{parse, Format, Frame};
use crate::app::udp::MAX_MESSAGE_BYTES;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The trace file formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TraceFormat {
    /// Text, one frame per line: `number time_ms type size_bytes` (the verbose traces of
    /// the TKN and ASU video trace libraries; `#` lines and a header skipped).
    #[default]
    Frames,
    /// Text, one frame size in bytes per line, at `frame_rate` (the terse traces).
    Sizes,
    /// ns-2's binary trace: records of (u32 µs to the next record, u32 bytes), big-endian.
    Ns2,
}

/// Where in the trace each flow starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TraceStart {
    /// At the first frame.
    #[default]
    First,
    /// At a frame drawn uniformly from the flow's own stream (ns-2's
    /// `Application/Traffic/Trace` starts at a random record).
    Random,
}

/// A frame-size trace and how to play it; the trace loops at its end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TraceConfig {
    /// The trace file (a relative path is relative to the scenario file's directory, or
    /// to the working directory for scenario text).
    pub file: String,
    #[serde(default)]
    pub format: TraceFormat,
    /// Frames per second of a `sizes` trace (the libraries' traces: 25 or 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_rate: Option<f64>,
    #[serde(default)]
    pub start: TraceStart,
}

impl TraceConfig {
    /// The frames of the file, checked (`at` is the key of this table, `flows[i].trace`).
    pub fn frames(&self, at: &str) -> Result<Arc<[Frame]>, ScenarioError> {
        let key = |k: &str| format!("{at}.{k}");
        let format = match (self.format, self.frame_rate) {
            (TraceFormat::Sizes, Some(r)) if r > 0.0 && r.is_finite() && r <= 1000.0 => {
                Format::Sizes { frame_rate: r }
            }
            (TraceFormat::Sizes, Some(r)) => {
                return Err(ScenarioError::new(
                    key("frame_rate"),
                    format!("{r}: frames per second, above 0 and at most 1000"),
                ))
            }
            (TraceFormat::Sizes, None) => {
                return Err(ScenarioError::new(
                    key("frame_rate"),
                    "missing: a `sizes` trace needs its frames per second (e.g. 25)",
                ))
            }
            (_, Some(_)) => {
                return Err(ScenarioError::new(
                    key("frame_rate"),
                    "only for format = \"sizes\" (the other formats give each frame's time)",
                ))
            }
            (TraceFormat::Frames, None) => Format::Frames,
            (TraceFormat::Ns2, None) => Format::Ns2,
        };
        let content = super::inputs::read(&self.file, &key("file"))?;
        if let Some(frames) = recall(&content, format) {
            return Ok(frames);
        }
        let located =
            |m: String| ScenarioError::new(key("file"), format!("\"{}\": {m}", self.file));
        let frames = parse(&content, format).map_err(located)?;
        if let Some((k, f)) = frames
            .iter()
            .enumerate()
            .find(|(_, f)| f.bytes > MAX_MESSAGE_BYTES)
        {
            return Err(located(format!(
                "frame {} has {} B; a frame is at most {MAX_MESSAGE_BYTES} B (16 MiB)",
                k + 1,
                f.bytes
            )));
        }
        let frames: Arc<[Frame]> = frames.into();
        keep(content, format, frames.clone());
        Ok(frames)
    }
}

/// How many parsed traces a thread keeps ([`PARSED`]).
const KEPT: usize = 4;

/// A parsed trace: the format and bytes it was parsed from, and its frames.
type Kept = (Format, Vec<u8>, Arc<[Frame]>);

thread_local! {
    /// The traces this thread parsed last, by content and format: a run reads its traces
    /// when it is validated and again when it is resolved, and a campaign's worker runs
    /// one scenario after another with the same files. Parsing is a function of the bytes
    /// and the format alone, so a file whose bytes are the ones parsed before gives the
    /// frames parsed then (the file is read anew every time: an edited one is parsed
    /// again).
    static PARSED: std::cell::RefCell<Vec<Kept>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The frames of `content` in `format`, if this thread parsed them lately.
fn recall(content: &[u8], format: Format) -> Option<Arc<[Frame]>> {
    PARSED.with_borrow(|kept| {
        kept.iter()
            .find(|(f, c, _)| *f == format && c.as_slice() == content)
            .map(|(_, _, frames)| frames.clone())
    })
}

/// Keep the frames parsed from `content` in `format` (the oldest of [`KEPT`] goes).
fn keep(content: Vec<u8>, format: Format, frames: Arc<[Frame]>) {
    PARSED.with_borrow_mut(|kept| {
        if kept.len() == KEPT {
            kept.remove(0);
        }
        kept.push((format, content, frames));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same bytes give the frames parsed before; an edited file is parsed again.
    #[test]
    fn a_trace_is_parsed_again_only_when_its_bytes_change() {
        let path = std::env::temp_dir().join(format!("wlansim-trace-{}.txt", std::process::id()));
        let file = path.to_str().expect("a UTF-8 path").to_string();
        let config = TraceConfig {
            file,
            format: TraceFormat::Sizes,
            frame_rate: Some(25.0),
            start: TraceStart::First,
        };
        std::fs::write(&path, "100\n200\n").unwrap();
        let first = config.frames("t").unwrap();
        let again = config.frames("t").unwrap();
        assert!(
            Arc::ptr_eq(&first, &again),
            "the same bytes: the frames parsed before"
        );
        std::fs::write(&path, "100\n300\n").unwrap();
        let edited = config.frames("t").unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(!Arc::ptr_eq(&first, &edited));
        assert_eq!(edited[1].bytes, 300);
        assert_eq!(first[1].bytes, 200);
    }
}
