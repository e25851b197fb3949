//! Named EDCA presets: `[qos] preset = "…"` writes a published parameter scheme into the
//! scenario before it is checked, so it applies to any scenario. Values the scenario sets
//! itself (an `edca` key of a node group, a classifier rule) are kept.
//!
//! `ng2005-table2`: the TCP fairness scheme of ng2005 Table 2 (after Leith & Clifford,
//! WiOpt 2005). TCP pure ACKs get their own class (AC_VO) at every node; every other
//! packet stays in AC_BE. ng2005 counts AIFS in slots beyond DIFS and CWmin as the size
//! of the drawing range [0, CW − 1], so AIFSN = 2 + slots and CWmin = ng2005's − 1:
//!
//! | node    | class          | ng2005 AIFS, CWmin, TXOP | AIFSN | CWmin | TXOP limit       |
//! |---------|----------------|--------------------------|-------|-------|------------------|
//! | AP      | upload ACKs    | 0, 4, 1 packet           | 2     | 3     | 0                |
//! | AP      | download data  | 4, 32, n_d packets       | 6     | 31    | n_d exchanges    |
//! | station | download ACKs  | 0, 32, 1 packet          | 2     | 31    | 0                |
//! | station | upload data    | 4, 32, 1 packet          | 6     | 31    | 0                |
//!
//! CWmax is the PHY's aCWmax (Table 2 leaves it at the 802.11b value). n_d is the number
//! of TCP download flows; the TXOP limit is the time n_d exchanges of a full-size segment
//! take, back to back with SIFS between them, rounded up to the 32 µs unit of the EDCA
//! Parameter Set element (802.11-2012 8.4.2.31).
use super::{AcConfig, Direction, Duration, EdcaConfig, Protocol, RuleConfig, Scenario};
use crate::mac::AccessCategory;
use crate::sim::time::{Time, US};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum EdcaPreset {
    /// ng2005 Table 2: TCP ACKs prioritised, TXOP = n_d data packets at the AP.
    #[serde(rename = "ng2005-table2")]
    Ng2005Table2,
}

/// Writes the scenario's preset (if any) into its node groups and classifier.
pub fn apply(s: &mut Scenario) {
    match s.qos.preset {
        None => {}
        Some(EdcaPreset::Ng2005Table2) => ng2005_table2(s),
    }
}

fn ng2005_table2(s: &mut Scenario) {
    let cw_max = s.phy().cw_max;
    let ac = |aifsn, cw_min, txop| AcConfig {
        aifsn: Some(aifsn),
        cw_min: Some(cw_min),
        cw_max: Some(cw_max),
        txop: Some(Duration(txop)),
        ..AcConfig::default()
    };
    for i in 0..s.aps.len() {
        let txop = download_txop(s, &s.aps[i].name);
        let ap = &mut s.aps[i];
        ap.qos = true;
        fill(&mut ap.edca, ac(2, 3, 0), ac(6, 31, txop));
    }
    for g in &mut s.stations {
        g.qos = true;
        fill(&mut g.edca, ac(2, 31, 0), ac(6, 31, 0));
    }
    let ack_rule = RuleConfig {
        ac: AccessCategory::Vo,
        min_size: None,
        max_size: None,
        flow: None,
        dscp: None,
        tcp_ack: Some(true),
    };
    if !s.qos.classifier.contains(&ack_rule) {
        s.qos.classifier.insert(0, ack_rule);
    }
}

/// A node's `edca` with the preset's ACK class (AC_VO) and data class (AC_BE) under the
/// keys the scenario leaves unset.
fn fill(edca: &mut Option<EdcaConfig>, ack: AcConfig, data: AcConfig) {
    let e = edca.get_or_insert_with(EdcaConfig::default);
    for (slot, preset) in [(&mut e.vo, ack), (&mut e.be, data)] {
        let c = slot.get_or_insert_with(AcConfig::default);
        c.aifsn = c.aifsn.or(preset.aifsn);
        c.cw_min = c.cw_min.or(preset.cw_min);
        c.cw_max = c.cw_max.or(preset.cw_max);
        c.txop = c.txop.or(preset.txop);
    }
}

/// TXOP limit of the download data of AP `ap`: n_d exchanges of the largest download
/// segment, n_d = the TCP downloads to its stations (0 = one exchange when n_d ≤ 1).
fn download_txop(s: &Scenario, ap: &str) -> Time {
    let mut n_d = 0;
    let mut ip_bytes = 0;
    let mut download_groups = Vec::new();
    for (i, f) in s.flows.iter().enumerate() {
        if f.protocol != Protocol::Tcp || f.direction != Direction::Downlink {
            continue;
        }
        let g = s
            .stations
            .iter()
            .find(|g| g.name == f.stations)
            .expect("validated before the preset is applied: the group exists");
        if s.ap_of(g) != ap {
            continue;
        }
        n_d += g.count as Time;
        download_groups.push(g);
        let cfg = s.tcp_config(i);
        ip_bytes = ip_bytes.max(cfg.mss + crate::tcp::header_bytes(&cfg));
    }
    if n_d <= 1 {
        return 0;
    }
    let phy = s.phy();
    let exchange = download_groups
        .iter()
        .map(|g| {
            let link = crate::phy::LinkTimes::new(&phy, s.link_rates(&phy, g));
            crate::mac::exchange_times(&phy, &link, s.mac.rts_threshold.bytes(), ip_bytes).end
        })
        .max()
        .unwrap_or(0);
    let burst = n_d * exchange + (n_d - 1) * phy.sifs;
    burst.div_ceil(32 * US) * 32 * US
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = r#"
duration = "10 s"
[qos]
preset = "ng2005-table2"
[[stations]]
name = "up"
count = 2
[[stations]]
name = "down"
count = 3
[stations.edca.be]
cw_min = 63
[[servers]]
name = "srv"
[[flows]]
name = "u"
protocol = "tcp"
direction = "uplink"
stations = "up"
server = "srv"
[[flows]]
name = "d"
protocol = "tcp"
direction = "downlink"
stations = "down"
server = "srv"
"#;

    #[test]
    fn table2_values_with_the_scenario_own_keys_kept() {
        let s = Scenario::from_toml(BASE).unwrap();
        assert!(s.aps[0].qos && s.stations.iter().all(|g| g.qos));
        let ap = s.aps[0].edca.as_ref().unwrap();
        let vo = ap.vo.as_ref().unwrap();
        assert_eq!(
            (vo.aifsn, vo.cw_min, vo.cw_max),
            (Some(2), Some(3), Some(1023))
        );
        let be = ap.be.as_ref().unwrap();
        assert_eq!((be.aifsn, be.cw_min), (Some(6), Some(31)));
        let up = s.stations[0].edca.as_ref().unwrap();
        assert_eq!(up.vo.as_ref().unwrap().cw_min, Some(31));
        assert_eq!(up.be.as_ref().unwrap().aifsn, Some(6));
        let down_be = s.stations[1].edca.as_ref().unwrap().be.as_ref().unwrap();
        assert_eq!(down_be.cw_min, Some(63), "the scenario's own value wins");
        assert_eq!(down_be.aifsn, Some(6));
        assert_eq!(s.qos.classifier[0].tcp_ack, Some(true));
        assert_eq!(s.qos.classifier.len(), 1);
    }

    #[test]
    fn ap_txop_holds_exactly_n_d_full_size_exchanges() {
        let s = Scenario::from_toml(BASE).unwrap();
        let txop = s.aps[0]
            .edca
            .as_ref()
            .unwrap()
            .be
            .as_ref()
            .unwrap()
            .txop
            .unwrap()
            .0;
        let phy = s.phy();
        let cfg = s.tcp_config(1);
        let ip = cfg.mss + crate::tcp::header_bytes(&cfg);
        let (_, ex) = phy.exchange_offsets(&phy.fixed_link(), false, ip);
        // 3 downloads: three exchanges and two SIFS fit, a fourth exchange does not.
        assert!(txop >= 3 * ex + 2 * phy.sifs, "{txop}");
        assert!(txop < 4 * ex + 3 * phy.sifs, "{txop}");
        assert_eq!(txop % (32 * US), 0);
    }

    #[test]
    fn applying_twice_changes_nothing() {
        let s = Scenario::from_toml(BASE).unwrap();
        let again = Scenario::from_json(&serde_json::to_string(&s.resolved()).unwrap()).unwrap();
        assert_eq!(
            serde_json::to_value(s.resolved()).unwrap(),
            serde_json::to_value(again.resolved()).unwrap()
        );
    }

    #[test]
    fn unknown_preset_names_the_key_and_the_allowed_names() {
        let e = Scenario::from_toml(&BASE.replace("ng2005-table2", "fair"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("qos.preset") && e.contains("ng2005-table2"),
            "{e}"
        );
    }
}
