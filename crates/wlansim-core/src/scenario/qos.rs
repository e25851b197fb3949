//! Scenario keys of 802.11e EDCA: the `[qos]` table (classifier rules), a node group's
//! `qos`/`edca` keys; their checks, and their translation into MAC parameters.
//!
//! ```toml
//! [qos]
//! classifier = [{ ac = "vo", tcp_ack = true }, { ac = "vi", flow = "video" }]
//! [[stations]]
//! name = "sta"
//! qos = true
//! [stations.edca.be]          # any of: aifsn, cw_min, cw_max, txop, *_retry_limit
//! aifsn = 4
//! txop = "3 ms"
//! ```
use super::checks::err;
use super::presets::EdcaPreset;
use super::{Bytes, Duration, Lifetime, MacConfig, RetryLimit, Scenario, ScenarioError};
use crate::mac::classifier::Rule;
use crate::mac::{AccessCategory, AccessParams, Classifier, EdcaParams};
use crate::phy::Phy;
use crate::sim::time::US;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Largest TXOP limit the EDCA Parameter Set element can carry: 16 bits of 32 µs
/// (802.11-2012 8.4.2.31).
const MAX_TXOP_US: u64 = 65535 * 32;
/// AIFSN is a 4-bit field (8.4.2.31); the minimum is 2 for a non-AP STA and 1 for an AP
/// (9.19.2.2, Table 8-105 note).
const MAX_AIFSN: u32 = 15;
/// Largest AIFSN accepted with `qos.nonstandard_edca` (AIFS stays far below a second).
const MAX_NONSTANDARD_AIFSN: u32 = 1023;
/// Largest IP datagram (the classifier's size bounds).
const MAX_IP_BYTES: u64 = 65535;

/// Scenario-wide QoS settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QosConfig {
    /// Ordered rules mapping packets to access categories; first match wins, AC_BE else.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classifier: Vec<RuleConfig>,
    /// Accept EDCA values outside the standard's ranges (AIFSN below the minimum or above
    /// 15, TXOP above 2.097 s). AIFSN is 1 (AIFS must exceed SIFS) to 1023 always.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nonstandard_edca: bool,
    /// A named EDCA parameter scheme written into every node (see `presets`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<EdcaPreset>,
}

impl QosConfig {
    pub fn is_default(&self) -> bool {
        *self == QosConfig::default()
    }

    /// The classifier, its rules' flow names resolved to indices into `flows`.
    pub fn classifier(&self, flows: &[super::FlowConfig]) -> Classifier {
        Classifier {
            rules: self
                .classifier
                .iter()
                .map(|r| Rule {
                    ac: r.ac,
                    size: (r.min_size.is_some() || r.max_size.is_some()).then(|| {
                        (
                            r.min_size.map_or(0, |b| b.0 as u32),
                            r.max_size.map_or(u32::MAX, |b| b.0 as u32),
                        )
                    }),
                    flow: r.flow.as_ref().map(|name| {
                        flows
                            .iter()
                            .position(|f| &f.name == name)
                            .expect("validated: the flow exists") as u32
                    }),
                    dscp: r.dscp,
                    tcp_ack: r.tcp_ack,
                })
                .collect(),
        }
    }
}

/// A classifier rule: the AC and at least one criterion; all given criteria must hold.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuleConfig {
    /// The access category of matching packets.
    #[schemars(with = "super::schema::AcName")]
    pub ac: AccessCategory,
    /// IP datagram sizes from `min_size` to `max_size` (inclusive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_size: Option<Bytes>,
    /// Upper bound of the IP datagram size (at most 65535 B).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_size: Option<Bytes>,
    /// A flow name of `[[flows]]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flow: Option<String>,
    /// A DSCP (0–63) set by a flow's `dscp` key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = 63))]
    pub dscp: Option<u8>,
    /// `true`: TCP segments without payload (pure ACKs, SYN, SYN-ACK); `false`: all else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp_ack: Option<bool>,
}

/// Per-AC overrides of the default EDCA parameter set of a node group.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EdcaConfig {
    /// AC_BK (background).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bk: Option<AcConfig>,
    /// AC_BE (best effort).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub be: Option<AcConfig>,
    /// AC_VI (video).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vi: Option<AcConfig>,
    /// AC_VO (voice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vo: Option<AcConfig>,
}

impl EdcaConfig {
    pub fn get(&self, ac: AccessCategory) -> Option<&AcConfig> {
        match ac {
            AccessCategory::Bk => self.bk.as_ref(),
            AccessCategory::Be => self.be.as_ref(),
            AccessCategory::Vi => self.vi.as_ref(),
            AccessCategory::Vo => self.vo.as_ref(),
        }
    }
}

/// The parameters of one AC; each absent key keeps the standard's default.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AcConfig {
    /// AIFSN: 2 to 15 at a station, 1 to 15 at the AP (1 to 1023 with
    /// `qos.nonstandard_edca`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1023))]
    pub aifsn: Option<u32>,
    /// CWmin of the AC: 2^k − 1, from 0 to 32767.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = 32767))]
    pub cw_min: Option<u32>,
    /// CWmax of the AC: 2^k − 1, from 0 to 32767, at least CWmin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = 32767))]
    pub cw_max: Option<u32>,
    /// TXOP limit; "0 s" = one frame exchange per access.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub txop: Option<Duration>,
    /// Retry limit of frames sent without RTS (default: `mac.short_retry_limit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short_retry_limit: Option<RetryLimit>,
    /// Retry limit of frames sent after RTS/CTS (default: `mac.long_retry_limit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long_retry_limit: Option<RetryLimit>,
    /// dot11EDCATableMSDULifetime of the AC (default: `mac.msdu_lifetime`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub msdu_lifetime: Option<Lifetime>,
}

/// The resolved EDCA parameters of `ac` for a node with overrides `edca`.
pub fn edca_params(edca: Option<&EdcaConfig>, ac: AccessCategory, phy: &Phy) -> EdcaParams {
    let d = EdcaParams::default_for(ac, phy);
    let c = edca.and_then(|e| e.get(ac));
    let c = c.cloned().unwrap_or_default();
    EdcaParams {
        aifsn: c.aifsn.unwrap_or(d.aifsn),
        cw_min: c.cw_min.unwrap_or(d.cw_min),
        cw_max: c.cw_max.unwrap_or(d.cw_max),
        txop_limit: c.txop.map_or(d.txop_limit, |t| t.0),
    }
}

/// The channel-access parameters of a node's entity: the DCF's (`ac` None: the PHY's DIFS
/// and CW bounds, no TXOP) or the EDCAF's of `ac`; retry limits and the MSDU lifetime: the
/// AC's, else `[mac]`'s. The one place where they become access parameters.
pub fn access_params(
    edca: Option<&EdcaConfig>,
    ac: Option<AccessCategory>,
    phy: &Phy,
    mac: &MacConfig,
) -> AccessParams {
    let (aifs, cw_min, cw_max, txop_limit) = match ac {
        Some(ac) => {
            let p = edca_params(edca, ac, phy);
            (p.aifs(phy), p.cw_min, p.cw_max, p.txop_limit)
        }
        None => (phy.difs, phy.cw_min, phy.cw_max, 0),
    };
    let c = ac.and_then(|ac| edca.and_then(|e| e.get(ac)));
    AccessParams {
        aifs,
        cw_min,
        cw_max,
        short_retry_limit: c
            .and_then(|c| c.short_retry_limit)
            .unwrap_or(mac.short_retry_limit)
            .0,
        long_retry_limit: c
            .and_then(|c| c.long_retry_limit)
            .unwrap_or(mac.long_retry_limit)
            .0,
        msdu_lifetime: c
            .and_then(|c| c.msdu_lifetime)
            .unwrap_or(mac.msdu_lifetime)
            .0,
        txop_limit,
    }
}

/// Checks of every QoS and channel key.
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    let phy = s.phy();
    let nonstandard = s.qos.nonstandard_edca;
    // A preset makes every node a QoS node when it is applied (after a first check).
    let preset = s.qos.preset.is_some();
    for (i, ap) in s.aps.iter().enumerate() {
        let at = format!("aps[{i}]");
        node_edca(
            &at,
            s.qos_node(ap.qos) || preset,
            ap.edca.as_ref(),
            1,
            &phy,
            nonstandard,
        )?;
    }
    for (i, g) in s.stations.iter().enumerate() {
        let at = format!("stations[{i}]");
        node_edca(
            &at,
            s.qos_node(g.qos) || preset,
            g.edca.as_ref(),
            2,
            &phy,
            nonstandard,
        )?;
    }
    for (i, f) in s.flows.iter().enumerate() {
        if let Some(d) = f.dscp {
            if d > 63 {
                return err(
                    format!("flows[{i}].dscp"),
                    format!("{d}: a DSCP is a 6-bit value, 0 to 63"),
                );
            }
        }
    }
    for (i, r) in s.qos.classifier.iter().enumerate() {
        rule(s, i, r)?;
    }
    Ok(())
}

fn node_edca(
    at: &str,
    qos: bool,
    edca: Option<&EdcaConfig>,
    min_aifsn: u32,
    phy: &Phy,
    nonstandard: bool,
) -> Result<(), ScenarioError> {
    if edca.is_some() && !qos {
        return err(
            format!("{at}.edca"),
            "EDCA parameters on a non-QoS node (DCF); add qos = true or remove edca",
        );
    }
    for ac in AccessCategory::ALL {
        let Some(c) = edca.and_then(|e| e.get(ac)) else {
            continue;
        };
        let key = |k: &str| format!("{at}.edca.{}.{k}", ac.key());
        let p = edca_params(edca, ac, phy);
        for (k, cw) in [("cw_min", c.cw_min), ("cw_max", c.cw_max)] {
            if let Some(cw) = cw {
                super::checks::contention_window(key(k), cw)?;
            }
        }
        if p.cw_min > p.cw_max {
            let k = if c.cw_min.is_some() {
                "cw_min"
            } else {
                "cw_max"
            };
            return err(
                key(k),
                format!(
                    "CWmin {} > CWmax {} for {}; CWmin ≤ CWmax",
                    p.cw_min,
                    p.cw_max,
                    ac.name()
                ),
            );
        }
        if let Some(a) = c.aifsn {
            let (lo, hi) = if nonstandard {
                (1, MAX_NONSTANDARD_AIFSN)
            } else {
                (min_aifsn, MAX_AIFSN)
            };
            if !(lo..=hi).contains(&a) {
                let rule = if nonstandard {
                    format!("with nonstandard_edca, AIFSN is 1 (AIFS must exceed SIFS) to {MAX_NONSTANDARD_AIFSN}")
                } else {
                    let who = if min_aifsn == 1 { "an AP" } else { "a station" };
                    format!(
                        "the standard allows AIFSN {min_aifsn} to {MAX_AIFSN} for {who} (9.19.2.2); set qos.nonstandard_edca = true to go beyond"
                    )
                };
                return err(key("aifsn"), format!("{a}: {rule}"));
            }
        }
        if let Some(t) = c.txop {
            if !nonstandard && t.0 > MAX_TXOP_US * US {
                return err(
                    key("txop"),
                    format!(
                        "{t}: the TXOP limit field holds at most {MAX_TXOP_US} µs (65535 × 32 µs); set qos.nonstandard_edca = true to go beyond"
                    ),
                );
            }
        }
    }
    Ok(())
}

fn rule(s: &Scenario, i: usize, r: &RuleConfig) -> Result<(), ScenarioError> {
    let at = |k: &str| format!("qos.classifier[{i}].{k}");
    if r.min_size.is_none()
        && r.max_size.is_none()
        && r.flow.is_none()
        && r.dscp.is_none()
        && r.tcp_ack.is_none()
    {
        return err(
            format!("qos.classifier[{i}]"),
            "a rule needs at least one of min_size, max_size, flow, dscp, tcp_ack",
        );
    }
    for (k, size) in [("min_size", r.min_size), ("max_size", r.max_size)] {
        if let Some(b) = size.filter(|b| b.0 > MAX_IP_BYTES) {
            return err(
                at(k),
                format!("{b}: an IP datagram is at most {MAX_IP_BYTES} B"),
            );
        }
    }
    if let (Some(lo), Some(hi)) = (r.min_size, r.max_size) {
        if lo > hi {
            return err(
                at("min_size"),
                format!("{lo} is larger than max_size ({hi})"),
            );
        }
    }
    if let Some(f) = &r.flow {
        if !s.flows.iter().any(|x| &x.name == f) {
            return err(at("flow"), format!("\"{f}\" is not a flow of the scenario"));
        }
    }
    if let Some(d) = r.dscp {
        if d > 63 {
            return err(at("dscp"), format!("{d}: a DSCP is 0 to 63"));
        }
    }
    Ok(())
}
