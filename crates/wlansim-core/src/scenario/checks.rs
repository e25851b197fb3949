//! Checks shared by the validators of several tables (`validate`, `qos`, `channel`,
//! `drops`, `rates`): each failure names its key path, the value and what is allowed.
use super::ScenarioError;
use crate::phy::Standard;

fn err<T>(path: impl Into<String>, message: impl Into<String>) -> Result<T, ScenarioError> {
    Err(ScenarioError::new(path, message))
}

/// A contention window key (`phy.cw_min`, an AC's `cw_max`, …).
pub(super) fn contention_window(at: String, cw: u32) -> Result<(), ScenarioError> {
    if crate::mac::backoff::is_contention_window(cw) {
        return Ok(());
    }
    err(
        at,
        format!("{cw}: a contention window is 2^k − 1 (0, 1, 3, 7, …, 1023, …, 32767)"),
    )
}

/// `name` must be one of `allowed` (what `key` may refer to, described by `what`).
pub(super) fn reference(
    at: String,
    name: &str,
    what: &str,
    allowed: &[&str],
) -> Result<(), ScenarioError> {
    if allowed.contains(&name) {
        return Ok(());
    }
    err(
        at,
        format!(
            "\"{name}\" is not {what}; defined: {}",
            if allowed.is_empty() {
                "none".to_string()
            } else {
                allowed.join(", ")
            }
        ),
    )
}

fn rates_text(standard: Standard) -> String {
    let list: Vec<String> = standard
        .rates()
        .iter()
        .map(|r| format!("{}", *r as f64 / 1e6))
        .collect();
    format!("{} Mb/s", list.join(", "))
}

/// `rate` is one of the standard's rates.
pub(super) fn standard_rate(
    standard: Standard,
    path: &str,
    rate: super::Rate,
) -> Result<(), ScenarioError> {
    if standard.rates().contains(&rate.0) {
        return Ok(());
    }
    err(
        path,
        format!(
            "{rate} is not a rate of {}; allowed: {}",
            standard.name(),
            rates_text(standard)
        ),
    )
}

/// 17.2.2.3: the short PLCP cannot carry 1 Mb/s.
pub(super) fn short_preamble_rate(path: &str, rate: u64) -> Result<(), ScenarioError> {
    if rate == 1_000_000 {
        return err(
            path,
            "1 Mb/s cannot be sent with the short preamble (802.11b); use 2 Mb/s or more, or preamble = \"long\"",
        );
    }
    Ok(())
}
