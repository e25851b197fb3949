//! Checks shared by the validators of several tables (`validate`, `qos`, `channel`,
//! `drops`): each failure names its key path, the value and what is allowed.
use super::ScenarioError;

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
