//! `[ap] delay_injection = { ... }` (also per `[[aps]]` entry): fotiadis2005's Algorithm 1
//! at that AP (`ap::delay_injection`). `{}` runs the paper's parameters; each can be
//! overridden, and `scope` says whose state it keeps (per flow by default, or the AP's). It reads pdelay from the ACKs' timestamp echo, so every TCP flow needs
//! `tcp.timestamps = true`.
use super::{Scenario, ScenarioError};
use crate::ap::delay_injection::{Params, Scope};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DelayInjectionConfig {
    /// Gain of the smoothed pdelay S (eq 1), in (0, 1]; 1/8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a: Option<f64>,
    /// Gain of its deviation V (eq 2), in (0, 1]; 1/4.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b: Option<f64>,
    /// dthresh = S + c·V (eq 3), c ≥ 0; 4.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub c: Option<f64>,
    /// D = (pdelay − S)/delay_factor on a spike, > 0; 1.5 (§IV.C).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_factor: Option<f64>,
    /// subthresh = D/(subthresh_packets · pkt_count), > 0; 5 (§IV.C).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subthresh_packets: Option<f64>,
    /// Whose state (S, V, D, subthresh, pkt_count) the algorithm keeps: `flow` (one per
    /// TCP flow, the default) or `ap` (one for every ACK the AP forwards, as Algorithm 1
    /// is written: no flow index).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<StateScope>,
}

/// `delay_injection.scope`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum StateScope {
    Flow,
    Ap,
}

impl DelayInjectionConfig {
    pub fn params(&self) -> Params {
        let d = Params::default();
        Params {
            a: self.a.unwrap_or(d.a),
            b: self.b.unwrap_or(d.b),
            c: self.c.unwrap_or(d.c),
            delay_factor: self.delay_factor.unwrap_or(d.delay_factor),
            subthresh_packets: self.subthresh_packets.unwrap_or(d.subthresh_packets),
            scope: match self.scope {
                None => d.scope,
                Some(StateScope::Flow) => Scope::Flow,
                Some(StateScope::Ap) => Scope::Ap,
            },
        }
    }
}

/// Parameters in range; TCP timestamps on for every TCP flow when an AP injects delay.
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    let mut any = None;
    for (i, ap) in s.aps.iter().enumerate() {
        let Some(c) = &ap.delay_injection else {
            continue;
        };
        any.get_or_insert(i);
        let at = |k: &str| format!("aps[{i}].delay_injection.{k}");
        let p = c.params();
        for (k, v, ok, allowed) in [
            ("a", p.a, p.a > 0.0 && p.a <= 1.0, "a gain in (0, 1]"),
            ("b", p.b, p.b > 0.0 && p.b <= 1.0, "a gain in (0, 1]"),
            ("c", p.c, p.c >= 0.0, "a factor ≥ 0"),
            (
                "delay_factor",
                p.delay_factor,
                p.delay_factor > 0.0,
                "a factor > 0",
            ),
            (
                "subthresh_packets",
                p.subthresh_packets,
                p.subthresh_packets > 0.0,
                "a number > 0",
            ),
        ] {
            if !ok || !v.is_finite() {
                return Err(ScenarioError::new(at(k), format!("{v}: {allowed}")));
            }
        }
    }
    if let Some(i) = any {
        for (f, flow) in s.flows.iter().enumerate() {
            if flow.protocol == super::Protocol::Tcp && !s.tcp_config(f).timestamps {
                return Err(ScenarioError::new(
                    format!("aps[{i}].delay_injection"),
                    format!(
                        "reads pdelay from the ACKs' timestamp echo: TCP flow \"{}\" needs tcp.timestamps = true",
                        flow.name
                    ),
                ));
            }
        }
    }
    Ok(())
}
