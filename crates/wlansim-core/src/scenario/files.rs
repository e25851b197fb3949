//! `flows.files`: the on/off (HTTP-like) workload of a TCP flow: file sizes (a list, or a
//! distribution and an optional count per station) and think times (fixed `gap` or a
//! `think` distribution). [`FilesConfig::sequence`] both validates the table (errors name
//! the key) and builds what [`FileSequence`](crate::app::FileSequence) draws from.
use super::checks::err;
use super::units::{Bytes, Duration};
use super::ScenarioError;
use crate::app::files::MAX_FILE_BYTES;
use crate::app::{distributions::parse_values, Draw, FileSizes};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Files sent one after another over TCP: each is requested a think time after the
/// previous one was acknowledged completely, on the same connection or on a fresh one.
/// Give the sizes as a list (`sizes`) or as a distribution (`size`, with `count`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FilesConfig {
    /// The files' sizes, in order (at least one, each at least 1 byte).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizes: Option<Vec<Bytes>>,
    /// The distribution each file's size is drawn from (bytes, rounded, at least 1 B):
    /// `{ distribution = "fixed", value }`, `"exponential"` (`mean`), `"pareto"` (`shape`
    /// and `mean` or `scale`), `"log-normal"` (`mean`, `sigma`) or `"empirical"` (`csv`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<SizeDistribution>,
    /// With `size`: files per station (miorandi2004: 300, or 10000); without end when
    /// absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub count: Option<u64>,
    /// Fixed think time: from one file's last acknowledged byte to the next file's
    /// request.
    #[serde(default)]
    pub gap: Duration,
    /// Random think time instead of `gap` (miorandi2004: exponential, mean 10 s):
    /// `{ distribution = "fixed", value }`, `"exponential"` (`mean`) or `"empirical"`
    /// (`csv`, seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub think: Option<ThinkDistribution>,
    /// Each station starts with a think time instead of requesting its first file at the
    /// flow's start (the on/off cycle then starts desynchronised across stations).
    #[serde(default)]
    pub think_first: bool,
    /// Every file on a fresh connection (with its three-way handshake); else one
    /// persistent connection. Teardown (FIN) is not modelled.
    #[serde(default)]
    pub new_connection: bool,
    /// Pad each file to a whole number of segments, as ns-2 does (miorandi2004 footnote
    /// 1); sessions still report the file's own size.
    #[serde(default)]
    pub pad_last_segment: bool,
}

/// A file-size distribution, `{ distribution = "...", ... }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "distribution", rename_all = "kebab-case", deny_unknown_fields)]
pub enum SizeDistribution {
    /// Every file has `value` bytes.
    Fixed { value: Bytes },
    /// Exponential with this mean.
    Exponential { mean: Bytes },
    /// Pareto with `shape` β and either `mean` (needs β > 1; scale = mean·(β−1)/β) or
    /// `scale` (the least size x_m).
    Pareto {
        shape: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mean: Option<Bytes>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scale: Option<Bytes>,
    },
    /// Log-normal with this mean and `sigma`, the standard deviation of ln(size).
    LogNormal { mean: Bytes, sigma: f64 },
    /// Sizes in bytes drawn uniformly from a CSV file (one column, optional header; a
    /// relative path is relative to the scenario file's directory, or to the working
    /// directory for scenario text).
    Empirical { csv: String },
}

/// A think-time distribution, `{ distribution = "...", ... }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "distribution", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ThinkDistribution {
    Fixed {
        value: Duration,
    },
    /// Exponential with this mean.
    Exponential {
        mean: Duration,
    },
    /// Think times in seconds drawn uniformly from a CSV file (one column, optional
    /// header; a relative path is relative to the scenario file's directory, or to the
    /// working directory for scenario text).
    Empirical {
        csv: String,
    },
}

/// Values of the CSV file at `path` (key `at`), each at most `max`.
fn csv_values(path: &str, at: String, max: f64) -> Result<Vec<f64>, ScenarioError> {
    let content = super::inputs::read(path, &at)?;
    let located = |m: String| ScenarioError::new(at.clone(), format!("\"{path}\": {m}"));
    let text = std::str::from_utf8(&content).map_err(|e| {
        located(format!(
            "not UTF-8 text ({e}); expected numbers, one per line"
        ))
    })?;
    let values = parse_values(text).map_err(located)?;
    if let Some(v) = values.iter().find(|&&v| v > max) {
        return Err(located(format!(
            "the value {v} is above the maximum, {max}"
        )));
    }
    Ok(values)
}

fn positive(v: u64, at: String, what: &str) -> Result<f64, ScenarioError> {
    if v == 0 {
        return err(at, format!("0: a {what} is positive"));
    }
    Ok(v as f64)
}

impl FilesConfig {
    /// Check the table (`at` is its path, `flows[i].files`) and build its sizes and think
    /// time (nanoseconds).
    pub fn sequence(&self, at: &str) -> Result<(FileSizes, Draw), ScenarioError> {
        let key = |k: &str| format!("{at}.{k}");
        let sizes = match (&self.sizes, &self.size) {
            (Some(_), Some(_)) => {
                return err(
                    key("size"),
                    "give `sizes` (a list) or `size` (a distribution), not both",
                )
            }
            (None, None) => {
                return err(
                    key("sizes"),
                    "missing: give the files' `sizes` (a list) or a `size` distribution",
                )
            }
            (Some(list), None) => {
                if self.count.is_some() {
                    return err(
                        key("count"),
                        "only with a `size` distribution (a list gives its own count)",
                    );
                }
                if list.is_empty() {
                    return err(key("sizes"), "empty: give at least one file size");
                }
                if let Some(k) = list.iter().position(|b| b.0 == 0) {
                    return err(
                        format!("{at}.sizes[{k}]"),
                        "0 B: a file has at least 1 byte",
                    );
                }
                FileSizes::List(list.iter().map(|b| b.0).collect())
            }
            (None, Some(d)) => {
                if self.count == Some(0) {
                    return err(key("count"), "0: at least 1 file (remove it for no limit)");
                }
                FileSizes::Drawn {
                    draw: size_draw(d, &key("size"), MAX_FILE_BYTES, "a file")?,
                    count: self.count,
                }
            }
        };
        let think = match &self.think {
            None => Draw::Fixed(self.gap.0 as f64),
            Some(_) if self.gap.0 > 0 => {
                return err(
                    key("think"),
                    "give a fixed `gap` or a `think` distribution, not both",
                )
            }
            Some(d) => time_draw(d, &key("think"), "think time")?,
        };
        Ok((sizes, think))
    }
}

/// The draw (nanoseconds) of a duration distribution at key `at`; `what` names the
/// quantity in errors.
pub(super) fn time_draw(
    d: &ThinkDistribution,
    at: &str,
    what: &str,
) -> Result<Draw, ScenarioError> {
    let key = |k: &str| format!("{at}.{k}");
    Ok(match d {
        ThinkDistribution::Fixed { value } => Draw::Fixed(value.0 as f64),
        ThinkDistribution::Exponential { mean } => {
            let m = positive(mean.0, key("mean"), &format!("mean {what}"))?;
            Draw::exponential(m).map_err(|e| ScenarioError::new(key("mean"), e))?
        }
        ThinkDistribution::Empirical { csv } => {
            let secs = csv_values(csv, key("csv"), f64::MAX)?;
            let ns = secs.iter().map(|s| s * 1e9).collect();
            Draw::empirical(ns).map_err(|e| ScenarioError::new(key("csv"), e))?
        }
    })
}

/// The largest σ of a log-normal size: at σ = 10 the median is e^-50 of the mean, and
/// beyond it the draws underflow to nothing or overflow to infinity.
const MAX_LOG_NORMAL_SIGMA: f64 = 10.0;

/// The draw (bytes) of a size distribution at key `at`; `what` (e.g. "a file") has at
/// most `max` bytes: a parameter above it is refused, a draw above it is cut (by the
/// component that draws).
pub(super) fn size_draw(
    d: &SizeDistribution,
    at: &str,
    max: u64,
    what: &str,
) -> Result<Draw, ScenarioError> {
    let key = |k: &str| format!("{at}.{k}");
    let located = |k: &str| {
        let path = key(k);
        move |m: String| ScenarioError::new(path, m)
    };
    let at_most = |b: Bytes, k: &str| -> Result<f64, ScenarioError> {
        if b.0 > max {
            return err(key(k), format!("{b}: {what} has at most {}", Bytes(max)));
        }
        positive(b.0, key(k), if k == "value" { "size" } else { "mean size" })
    };
    match d {
        SizeDistribution::Fixed { value } => Ok(Draw::Fixed(at_most(*value, "value")?)),
        SizeDistribution::Exponential { mean } => {
            Draw::exponential(at_most(*mean, "mean")?).map_err(located("mean"))
        }
        SizeDistribution::Pareto { shape, mean, scale } => {
            if !(shape.is_finite() && *shape > 0.0) {
                return err(
                    key("shape"),
                    format!("{shape}: a Pareto shape is a finite number > 0"),
                );
            }
            let scale = match (mean, scale) {
                (Some(_), Some(_)) => return err(key("scale"), "give `mean` or `scale`, not both"),
                (None, None) => {
                    return err(key("mean"), "missing: give the Pareto `mean` or `scale`")
                }
                (None, Some(s)) => {
                    if s.0 > max {
                        return err(
                            key("scale"),
                            format!("{s}: the least size of {what} is at most {}", Bytes(max)),
                        );
                    }
                    positive(s.0, key("scale"), "Pareto scale")?
                }
                (Some(m), None) => {
                    if *shape <= 1.0 {
                        return err(
                            key("shape"),
                            format!("{shape}: a Pareto mean exists only for shape > 1; give `scale` instead of `mean`"),
                        );
                    }
                    Draw::pareto_scale(*shape, at_most(*m, "mean")?)
                }
            };
            Draw::pareto(*shape, scale).map_err(located("shape"))
        }
        SizeDistribution::LogNormal { mean, sigma } => {
            if !(sigma.is_finite() && (0.0..=MAX_LOG_NORMAL_SIGMA).contains(sigma)) {
                return err(
                    key("sigma"),
                    format!(
                        "{sigma}: sigma (of ln size) is a number from 0 to {MAX_LOG_NORMAL_SIGMA}"
                    ),
                );
            }
            Draw::log_normal(at_most(*mean, "mean")?, *sigma).map_err(located("sigma"))
        }
        SizeDistribution::Empirical { csv } => {
            Draw::empirical(csv_values(csv, key("csv"), max as f64)?).map_err(located("csv"))
        }
    }
}
