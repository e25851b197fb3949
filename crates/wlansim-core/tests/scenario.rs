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

/// `[channel]`: a default frame error rate, per-group overrides, and a group's own `fer`
/// keys as sugar for a `[[channel.links]]` entry (same run, same numbers).
#[test]
fn channel_table_defaults_overrides_and_sugar() {
    let base = |extra: &str, group: &str| {
        Scenario::from_toml(&format!(
            "duration = \"5 s\"\n{extra}\n[[stations]]\nname = \"near\"\n[[stations]]\nname = \"far\"\n{group}\n[[flows]]\nname = \"up\"\ndirection = \"uplink\"\nstations = \"far\"\n"
        ))
        .unwrap()
    };
    let sugar = base("", "fer_uplink = 0.3");
    let table = base(
        "[channel]\n[[channel.links]]\nstations = \"far\"\nfer_uplink = 0.3",
        "",
    );
    let (a, b) = (
        wlansim_core::simulate(&sugar, None).unwrap(),
        wlansim_core::simulate(&table, None).unwrap(),
    );
    assert_eq!(a.flows, b.flows);
    assert!(a.nodes[2].mac.frame_errors > 0 && a.nodes[1].mac.frame_errors == 0);
    let g = &table.stations[1];
    assert_eq!(table.channel.group_fer(g), (0.3, 0.0));
    let dflt = base("[channel]\nfer = 0.1", "fer_downlink = 0.5");
    assert_eq!(dflt.channel.group_fer(&dflt.stations[0]), (0.1, 0.1));
    assert_eq!(dflt.channel.group_fer(&dflt.stations[1]), (0.1, 0.5));
    let err = |extra: &str, group: &str| {
        Scenario::from_toml(&format!(
            "duration = \"5 s\"\n{extra}\n[[stations]]\nname = \"far\"\n{group}\n"
        ))
        .unwrap_err()
        .to_string()
    };
    let e = err("[channel]\nfer = 1.0", "");
    assert!(e.contains("`channel.fer`") && e.contains("[0, 1)"), "{e}");
    let e = err(
        "[[channel.links]]\nstations = \"far\"\nfer = 0.1",
        "fer = 0.2",
    );
    assert!(
        e.contains("channel.links[0].stations") && e.contains("keep one"),
        "{e}"
    );
    let e = err("[[channel.links]]\nstations = \"nowhere\"", "");
    assert!(
        e.contains("channel.links[0].stations") && e.contains("far"),
        "{e}"
    );
    let e = err("", "fer_uplink = -0.1");
    assert!(e.contains("stations[0].fer_uplink"), "{e}");
}

/// `[channel.propagation] model = "two-ray-ground"` has its own keys and refuses the
/// shadowing model's; under ns-2's profile, nodes that all have a position get ns-2's
/// two-ray ground model and its capture rule without asking, and the standard's profile
/// neither.
#[test]
fn two_ray_ground_its_keys_and_the_ns2_profile_defaults() {
    use wlansim_core::channel::receiver::Rule;
    use wlansim_core::scenario::propagation::PropagationModel;
    let placed = |profile: &str, extra: &str| {
        format!(
            "{profile}duration = \"1 s\"\n[ap]\nposition = [0, 0]\n[[stations]]\nname = \"s\"\n\
             position = [30, 0]\n{extra}"
        )
    };
    let message = error_of(&placed(
        "",
        "[channel.propagation]\nmodel = \"two-ray-ground\"\nsigma_db = 4",
    ));
    assert!(
        message.contains("channel.propagation.sigma_db") && message.contains("antenna_height_m"),
        "{message}"
    );
    let message = error_of(&placed(
        "",
        "[channel.propagation]\nmodel = \"shadowing\"\nantenna_height_m = 2",
    ));
    assert!(
        message.contains("not a key of model = \"shadowing\""),
        "{message}"
    );
    let message = error_of(&placed(
        "",
        "[channel.propagation]\nmodel = \"two-ray-ground\"\nantenna_height_m = 0",
    ));
    assert!(message.contains("antenna_height_m`: 0"), "{message}");

    let ns2 = Scenario::from_toml(&placed("profile = \"ns2\"\n", "")).unwrap();
    let p = ns2.propagation().expect("ns-2's model");
    assert_eq!(p.model, PropagationModel::TwoRayGround);
    assert_eq!(
        ns2.reception_rule(),
        Rule::Threshold {
            ratio: 10f64.powf(1.0)
        }
    );
    let standard = Scenario::from_toml(&placed("", "")).unwrap();
    assert!(standard.propagation().is_none());
    assert_eq!(standard.reception_rule(), Rule::Overlap);
    // A reception table states the model, whatever the profile.
    let told = Scenario::from_toml(&placed(
        "profile = \"ns2\"\n",
        "[channel.reception]\nmodel = \"none\"",
    ))
    .unwrap();
    assert_eq!(told.reception_rule(), Rule::Overlap);
    // Without positions the ns2 profile has no propagation model.
    let unplaced = Scenario::from_toml(&format!("profile = \"ns2\"\n{MINIMAL}")).unwrap();
    assert!(unplaced.propagation().is_none());
}
