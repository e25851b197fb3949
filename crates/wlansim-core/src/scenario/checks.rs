//! Checks shared by the validators of several tables (`validate`, `qos`, `channel`,
//! `drops`, `rates`): each failure names its key path, the value and what is allowed.
use super::ScenarioError;
use crate::phy::Standard;

/// The error at key path `path`: the value and what is allowed (`message`).
pub(super) fn err<T>(
    path: impl Into<String>,
    message: impl Into<String>,
) -> Result<T, ScenarioError> {
    Err(ScenarioError::new(path, message))
}

/// `key = value`, a rule of the exchanges under a Block Ack agreement (`what`), in a run
/// without A-MPDUs, which set the agreements up: the error, with what is allowed.
pub(super) fn needs_ampdus<T>(
    key: &str,
    value: impl std::fmt::Display,
    what: &str,
    allowed: &str,
) -> Result<T, ScenarioError> {
    err(
        key,
        format!("{value}: {what} needs A-MPDUs, and this scenario has none (mac.ampdu_max_bytes = 0); allowed: {allowed}"),
    )
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

/// `rate` is one of the standard's rates, or, under `phy.nonstandard_rate`, a rate the
/// standard's modulation can time: DSSS any rate from 100 kb/s to 1 Gb/s (the PSDU lasts
/// its bits over the rate, rounded up to 1 µs, 17.2.3.5), OFDM a multiple of 250 kb/s up
/// to 1 Gb/s (a whole number of data bits per 4 µs symbol, 18.4.3).
pub(super) fn standard_rate(
    phy: &super::PhyConfig,
    path: &str,
    rate: super::Rate,
) -> Result<(), ScenarioError> {
    let standard = phy.standard;
    if standard.rates().contains(&rate.0) {
        return Ok(());
    }
    if phy.nonstandard_rate {
        let ofdm = standard != Standard::Ieee80211b;
        let step = if ofdm { 250_000 } else { 1 };
        if (100_000..=1_000_000_000).contains(&rate.0) && rate.0.is_multiple_of(step) {
            return Ok(());
        }
        return err(
            path,
            format!(
                "{rate}: with nonstandard_rate, a {} rate from 100 kb/s to 1 Gb/s{}",
                standard.name(),
                if ofdm {
                    ", a multiple of 250 kb/s (whole data bits per 4 µs OFDM symbol)"
                } else {
                    ""
                }
            ),
        );
    }
    err(
        path,
        format!(
            "{rate} is not a rate of {}; allowed: {} (or set phy.nonstandard_rate = true for another rate with {}'s timing)",
            standard.name(),
            rates_text(standard),
            standard.name()
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
