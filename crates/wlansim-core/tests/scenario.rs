//! The scenario loader: defaults, resolution, and errors that name key, value and rule.
use wlansim_core::Scenario;

const MINIMAL: &str = r#"
duration = "10 s"
[[stations]]
name = "sta"
"#;

fn error_of(toml: &str) -> String {
    Scenario::from_toml(toml).expect_err("invalid").to_string()
}

#[test]
fn minimal_scenario_gets_standard_defaults() {
    let s = Scenario::from_toml(MINIMAL).unwrap();
    let phy = s.phy();
    assert_eq!(
        (phy.cw_min, phy.cw_max, phy.data_rate),
        (31, 1023, 11_000_000)
    );
    assert_eq!(s.mac.short_retry_limit.0, Some(7));
    assert_eq!(s.mac.long_retry_limit.0, Some(4));
    let resolved = serde_json::to_value(s.resolved()).unwrap();
    assert_eq!(resolved["phy"]["difs"], "50 us");
    assert_eq!(resolved["mac"]["rts_threshold"], "off");
    assert_eq!(resolved["stations"][0]["queue"], 50);
    // The resolved form is itself a valid scenario describing the same run.
    let again = Scenario::from_json(&resolved.to_string()).unwrap();
    assert_eq!(again.phy(), phy);
}

#[test]
fn overriding_slot_or_sifs_rederives_difs() {
    let s = Scenario::from_toml(&format!(
        "{MINIMAL}\n[phy]\nstandard = \"802.11b\"\nslot = \"9 us\""
    ))
    .unwrap();
    assert_eq!(s.phy().difs, 28_000);
}

#[test]
fn errors_name_the_key_path_the_value_and_the_rule() {
    let cases = [
        ("duration = \"0 s\"\n[[stations]]\nname = \"s\"", "`duration`: 0 s"),
        ("duration = 10\n[[stations]]\nname = \"s\"", "no unit"),
        (
            "duration = \"1 s\"\ncolour = 1\n[[stations]]\nname = \"s\"",
            "unknown field `colour`",
        ),
        ("duration = \"1 s\"\n[[stations]]\nname = \"s\"\ncount = 0", "`stations[0].count`: 0"),
        ("duration = \"1 s\"\n[[stations]]\nname = \"s\"\ncount = -2", "`stations[0].count`"),
        (
            "duration = \"1 s\"\n[phy]\nstandard = \"802.11a\"\ndata_rate = \"11 Mb/s\"\n[[stations]]\nname = \"s\"",
            "not a rate of 802.11a",
        ),
        (
            "duration = \"1 s\"\n[phy]\nstandard = \"802.11b\"\npreamble = \"short\"\ncontrol_rate = \"1 Mb/s\"\n[[stations]]\nname = \"s\"",
            "short preamble",
        ),
        (
            "duration = \"1 s\"\n[phy]\nstandard = \"802.11b\"\ncw_min = 64\n[[stations]]\nname = \"s\"",
            "2^k − 1",
        ),
        (
            "duration = \"1 s\"\n[mac]\nshort_retry_limit = \"never\"\n[[stations]]\nname = \"s\"",
            "\"unlimited\"",
        ),
        (
            "duration = \"1 s\"\n[[stations]]\nname = \"s\"\n[[stations]]\nname = \"s\"",
            "used twice",
        ),
        (
            "duration = \"1 s\"\n[[stations]]\nname = \"s\"\n[[flows]]\nname = \"f\"\ndirection = \"sideways\"\nstations = \"s\"",
            "`flows[0].direction`",
        ),
        (
            "duration = \"1 s\"\n[[stations]]\nname = \"s\"\n[[flows]]\nname = \"f\"\ndirection = \"uplink\"\nstations = \"s\"\nstart = \"2 s\"",
            "before the end of the run",
        ),
        (
            "duration = \"1 s\"\n[[stations]]\nname = \"s\"\n[output]\nseries = [\"colour\"]",
            "`output.series[0]`",
        ),
    ];
    for (toml, expected) in cases {
        let message = error_of(toml);
        assert!(
            message.contains(expected),
            "{message:?} should contain {expected:?}"
        );
    }
}
