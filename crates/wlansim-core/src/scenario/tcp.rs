//! The `[tcp]` table (scenario-wide defaults) and `[flows.tcp]` (per flow): a profile
//! (`standard` or `ns2-compat`, see [`TcpConfig`]) and field-by-field overrides. The flow's
//! table wins over the scenario's, which wins over the profile.
use super::units::{Bytes, Duration};
use crate::tcp::{DelayedAckPolicy, InitialSsthresh, TcpConfig, Variant, Window};
use schemars::JsonSchema;
use schemars::{json_schema, Schema, SchemaGenerator};
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TcpProfile {
    /// The standards' defaults ([`TcpConfig::default`]).
    #[default]
    Standard,
    /// ns-2.35's default parameters ([`TcpConfig::ns2_compat`]).
    Ns2Compat,
    /// ns-2.35's parameters and its retransmission-timer behaviour ([`TcpConfig::ns2`]).
    Ns2,
}

/// `tcp.variant`: growth rule, then the loss-recovery rule when it is not the growth
/// rule's usual one (see [`Variant`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TcpVariant {
    Tahoe,
    Reno,
    Newreno,
    Sack,
    Vegas,
    VegasSack,
    Cubic,
    CubicSack,
}

impl From<Variant> for TcpVariant {
    fn from(v: Variant) -> TcpVariant {
        match v {
            Variant::Tahoe => TcpVariant::Tahoe,
            Variant::Reno => TcpVariant::Reno,
            Variant::NewReno => TcpVariant::Newreno,
            Variant::Sack => TcpVariant::Sack,
            Variant::Vegas => TcpVariant::Vegas,
            Variant::VegasSack => TcpVariant::VegasSack,
            Variant::Cubic => TcpVariant::Cubic,
            Variant::CubicSack => TcpVariant::CubicSack,
        }
    }
}

impl From<TcpVariant> for Variant {
    fn from(v: TcpVariant) -> Variant {
        match v {
            TcpVariant::Tahoe => Variant::Tahoe,
            TcpVariant::Reno => Variant::Reno,
            TcpVariant::Newreno => Variant::NewReno,
            TcpVariant::Sack => Variant::Sack,
            TcpVariant::Vegas => Variant::Vegas,
            TcpVariant::VegasSack => Variant::VegasSack,
            TcpVariant::Cubic => Variant::Cubic,
            TcpVariant::CubicSack => Variant::CubicSack,
        }
    }
}

/// A receive window: an integer is a number of segments, a size string ("65535 B") bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowSpec(pub Window);

impl Serialize for WindowSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Window::Segments(n) => s.serialize_u64(n),
            Window::Bytes(b) => s.collect_str(&Bytes(b)),
        }
    }
}

impl<'de> Deserialize<'de> for WindowSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = WindowSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number of segments (42) or a size in bytes (\"65535 B\")")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<WindowSpec, E> {
                Ok(WindowSpec(Window::Segments(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<WindowSpec, E> {
                u64::try_from(v)
                    .map(|v| WindowSpec(Window::Segments(v)))
                    .map_err(|_| {
                        E::custom(format!("{v} is negative; a window is at least 1 segment"))
                    })
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<WindowSpec, E> {
                Bytes::parse(v)
                    .map(|b| WindowSpec(Window::Bytes(b.0)))
                    .map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}

/// `tcp.initial_ssthresh`: a number of segments, a size ("20000 B"), "rwnd" (the
/// advertised window, as ns-2 starts it) or "unlimited" (RFC 5681).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SsthreshSpec(pub InitialSsthresh);

impl Serialize for SsthreshSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            InitialSsthresh::Window(w) => WindowSpec(w).serialize(s),
            InitialSsthresh::Rwnd => s.serialize_str("rwnd"),
            InitialSsthresh::Unlimited => s.serialize_str("unlimited"),
        }
    }
}

impl<'de> Deserialize<'de> for SsthreshSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = SsthreshSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a number of segments (at least 2), a size in bytes (\"20000 B\"), \"rwnd\" \
                     or \"unlimited\"",
                )
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<SsthreshSpec, E> {
                Ok(SsthreshSpec(InitialSsthresh::Window(Window::Segments(v))))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<SsthreshSpec, E> {
                match u64::try_from(v) {
                    Ok(v) => self.visit_u64(v),
                    Err(_) => Err(E::custom(format!(
                        "{v} is negative; an initial ssthresh is at least 2 segments, a size, \
                         \"rwnd\" or \"unlimited\""
                    ))),
                }
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<SsthreshSpec, E> {
                match v.trim() {
                    "rwnd" => Ok(SsthreshSpec(InitialSsthresh::Rwnd)),
                    "unlimited" => Ok(SsthreshSpec(InitialSsthresh::Unlimited)),
                    _ => Bytes::parse(v)
                        .map(|b| SsthreshSpec(InitialSsthresh::Window(Window::Bytes(b.0))))
                        .map_err(|e| {
                            E::custom(format!(
                                "{e}; or \"rwnd\" (the advertised window) or \"unlimited\""
                            ))
                        }),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// `tcp.initial_window`: a number of segments, "d" (the delayed-ACK count) or "rfc3390"
/// (min(4·mss, max(2·mss, 4380 B)) bytes, the default: what `--resolve` writes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitialWindow {
    Segments(u32),
    D,
    Rfc3390,
}

impl Serialize for InitialWindow {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            InitialWindow::Segments(n) => s.serialize_u32(*n),
            InitialWindow::D => s.serialize_str("d"),
            InitialWindow::Rfc3390 => s.serialize_str("rfc3390"),
        }
    }
}

impl<'de> Deserialize<'de> for InitialWindow {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = InitialWindow;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a number of segments (at least 1), \"d\" (the delayed-ACK count) or \"rfc3390\"",
                )
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<InitialWindow, E> {
                u32::try_from(v)
                    .ok()
                    .filter(|&v| v >= 1)
                    .map(InitialWindow::Segments)
                    .ok_or_else(|| {
                        E::custom(format!(
                            "{v}: an initial window is 1 to 2^32 − 1 segments, or \"d\""
                        ))
                    })
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<InitialWindow, E> {
                match u64::try_from(v) {
                    Ok(v) => self.visit_u64(v),
                    Err(_) => Err(E::custom(format!(
                        "{v} is negative; an initial window is at least 1 segment, or \"d\""
                    ))),
                }
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<InitialWindow, E> {
                match v {
                    "d" => Ok(InitialWindow::D),
                    "rfc3390" => Ok(InitialWindow::Rfc3390),
                    _ => Err(E::custom(format!(
                        "\"{v}\": expected a number of segments, \"d\" or \"rfc3390\""
                    ))),
                }
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for InitialWindow {
    fn schema_name() -> Cow<'static, str> {
        "InitialWindow".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "An initial window: an integer number of segments (at least 1), \"d\" (the delayed-ACK count) or \"rfc3390\".",
            "anyOf": [
                { "type": "integer", "minimum": 1 },
                { "const": "d" },
                { "const": "rfc3390" }
            ]
        })
    }
}

/// TCP settings; every field is optional and overrides the profile's value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TcpSettings {
    /// Base defaults: `standard` (RFC values), `ns2-compat` (ns-2.35's parameters) or
    /// `ns2` (its parameters and retransmission timer); default: the top-level `profile`
    /// (`standard` under `ns3`, which changes no TCP rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<TcpProfile>,
    /// Congestion control (default: newreno).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<TcpVariant>,
    /// Payload bytes per full segment (standard 1460 B, ns2-compat 1000 B); headers +
    /// mss fit an MSDU (2304 B).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mss: Option<Bytes>,
    /// Advertised receive window (segments or bytes; standard 65535 B, ns2-compat 20
    /// segments); at most 2^30 bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rwnd: Option<WindowSpec>,
    /// Initial congestion window: segments, at least 1; "d", the delayed-ACK count (1 with
    /// the dynamic scheme), as miorandi2004 §4.3 sets it; or "rfc3390" (min(4·mss,
    /// max(2·mss, 4380 B)) bytes); standard "rfc3390", ns2-compat and ns2 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_window: Option<InitialWindow>,
    /// Initial slow-start threshold: segments (at least 2), a size ("20000 B"), "rwnd"
    /// (the advertised window: ns-2's `ssthresh_ = window_`) or "unlimited" (RFC 5681);
    /// standard "unlimited", ns2-compat and ns2 "rwnd".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_ssthresh: Option<SsthreshSpec>,
    /// RTO before any RTT sample (standard 1 s, ns2-compat 3 s); positive, ≤ max_rto.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_rto: Option<Duration>,
    /// Lower bound of the RTO (standard 1 s, ns2-compat 200 ms); ≤ max_rto.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rto: Option<Duration>,
    /// Upper bound of the RTO (60 s); positive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rto: Option<Duration>,
    /// Clock granularity G of RTT samples and the RTO (standard 1 ms, ns2-compat 10 ms); 0 = exact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_granularity: Option<Duration>,
    /// d: ACK every d in-order segments (d = 1 is pilosof2003's α = 1 ACK per packet);
    /// standard 2, ns2-compat 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub delayed_ack: Option<u32>,
    /// Dynamic delayed ACK of Altman & Jiménez (PWC 2003): d = 1, 2, 3, then 4 as the
    /// segments received pass the thresholds (replaces `delayed_ack`; default: off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dynamic_delayed_ack: Option<bool>,
    /// Thresholds [l1, l2, l3] of the dynamic delayed ACK, segments, non-decreasing
    /// (default [2, 5, 9]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dynamic_delayed_ack_thresholds: Option<[u64; 3]>,
    /// Delayed-ACK timer (standard 200 ms, ns2-compat 100 ms); positive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delayed_ack_timeout: Option<Duration>,
    /// RFC 7323 timestamps option (default: off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamps: Option<bool>,
    /// Duplicate ACKs that trigger fast retransmit (3); at least 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub dupack_threshold: Option<u32>,
    /// RFC 3042 limited transmit (default: on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limited_transmit: Option<bool>,
    /// Vegas α, β, γ (segments; Vegas variants).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vegas_alpha: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vegas_beta: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vegas_gamma: Option<f64>,
    /// CUBIC C (segments/s³), β_cubic and fast convergence (CUBIC variants).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cubic_c: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cubic_beta: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cubic_fast_convergence: Option<bool>,
    /// HyStart++ (RFC 9406) in the initial slow start (AIMD and CUBIC variants).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hystart: Option<bool>,
}

impl TcpSettings {
    /// The endpoint configuration: profile of the most specific table that names one,
    /// then the scenario's fields, then the flow's.
    pub fn config(
        global: Option<&TcpSettings>,
        flow: Option<&TcpSettings>,
        default: TcpProfile,
    ) -> TcpConfig {
        let profile = flow
            .and_then(|t| t.profile)
            .or(global.and_then(|t| t.profile))
            .unwrap_or(default);
        let mut cfg = match profile {
            TcpProfile::Standard => TcpConfig::default(),
            TcpProfile::Ns2Compat => TcpConfig::ns2_compat(),
            TcpProfile::Ns2 => TcpConfig::ns2(),
        };
        for t in [global, flow].into_iter().flatten() {
            t.apply(&mut cfg);
        }
        let iw = [flow, global]
            .into_iter()
            .flatten()
            .find_map(|t| t.initial_window);
        if iw == Some(InitialWindow::D) {
            cfg.initial_window = Some(
                cfg.delayed_ack_policy
                    .segments_per_ack(1, cfg.delayed_ack_count),
            );
        }
        cfg
    }

    /// Every setting written out from the configuration `cfg` of `profile` gives: what
    /// `wlansim run --resolve` shows. As a flow's or the scenario's table it gives `cfg`
    /// back (`config` applies each field over the profile's).
    pub fn written(profile: TcpProfile, cfg: &TcpConfig) -> TcpSettings {
        let d = |t| Some(Duration(t));
        let dynamic = match cfg.delayed_ack_policy {
            DelayedAckPolicy::Dynamic { thresholds } => Some(thresholds),
            DelayedAckPolicy::Fixed => None,
        };
        TcpSettings {
            profile: Some(profile),
            variant: Some(cfg.variant.into()),
            mss: Some(Bytes(cfg.mss.into())),
            rwnd: Some(WindowSpec(cfg.rwnd)),
            initial_window: Some(
                cfg.initial_window
                    .map_or(InitialWindow::Rfc3390, InitialWindow::Segments),
            ),
            initial_ssthresh: Some(SsthreshSpec(cfg.initial_ssthresh)),
            initial_rto: d(cfg.initial_rto),
            min_rto: d(cfg.min_rto),
            max_rto: d(cfg.max_rto),
            clock_granularity: d(cfg.clock_granularity),
            delayed_ack: Some(cfg.delayed_ack_count),
            dynamic_delayed_ack: Some(dynamic.is_some()),
            dynamic_delayed_ack_thresholds: dynamic,
            delayed_ack_timeout: d(cfg.delayed_ack_timeout),
            timestamps: Some(cfg.timestamps),
            dupack_threshold: Some(cfg.dupack_threshold),
            limited_transmit: Some(cfg.limited_transmit),
            vegas_alpha: Some(cfg.vegas.alpha),
            vegas_beta: Some(cfg.vegas.beta),
            vegas_gamma: Some(cfg.vegas.gamma),
            cubic_c: Some(cfg.cubic.c),
            cubic_beta: Some(cfg.cubic.beta),
            cubic_fast_convergence: Some(cfg.cubic.fast_convergence),
            hystart: Some(cfg.hystart),
        }
    }

    fn apply(&self, c: &mut TcpConfig) {
        if let Some(v) = self.variant {
            c.variant = v.into();
        }
        if let Some(v) = self.mss {
            c.mss = v.0.min(u32::MAX as u64) as u32;
        }
        if let Some(v) = self.rwnd {
            c.rwnd = v.0;
        }
        match self.initial_window {
            Some(InitialWindow::Segments(v)) => c.initial_window = Some(v),
            Some(InitialWindow::Rfc3390) => c.initial_window = None,
            Some(InitialWindow::D) | None => {}
        }
        if let Some(v) = self.initial_ssthresh {
            c.initial_ssthresh = v.0;
        }
        for (field, v) in [
            (&mut c.initial_rto, self.initial_rto),
            (&mut c.min_rto, self.min_rto),
            (&mut c.max_rto, self.max_rto),
            (&mut c.clock_granularity, self.clock_granularity),
            (&mut c.delayed_ack_timeout, self.delayed_ack_timeout),
        ] {
            if let Some(v) = v {
                *field = v.0;
            }
        }
        if let Some(v) = self.delayed_ack {
            c.delayed_ack_count = v;
        }
        if let Some(on) = self.dynamic_delayed_ack {
            c.delayed_ack_policy = if on {
                DelayedAckPolicy::Dynamic {
                    thresholds: DelayedAckPolicy::DYNAMIC_THRESHOLDS,
                }
            } else {
                DelayedAckPolicy::Fixed
            };
        }
        if let (Some(t), DelayedAckPolicy::Dynamic { thresholds }) = (
            self.dynamic_delayed_ack_thresholds,
            &mut c.delayed_ack_policy,
        ) {
            *thresholds = t;
        }
        if let Some(v) = self.timestamps {
            c.timestamps = v;
        }
        if let Some(v) = self.dupack_threshold {
            c.dupack_threshold = v;
        }
        if let Some(v) = self.limited_transmit {
            c.limited_transmit = v;
        }
        for (field, v) in [
            (&mut c.vegas.alpha, self.vegas_alpha),
            (&mut c.vegas.beta, self.vegas_beta),
            (&mut c.vegas.gamma, self.vegas_gamma),
            (&mut c.cubic.c, self.cubic_c),
            (&mut c.cubic.beta, self.cubic_beta),
        ] {
            if let Some(v) = v {
                *field = v;
            }
        }
        if let Some(v) = self.cubic_fast_convergence {
            c.cubic.fast_convergence = v;
        }
        if let Some(v) = self.hystart {
            c.hystart = v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(toml_text: &str) -> TcpSettings {
        toml::from_str(toml_text).unwrap()
    }

    #[test]
    fn written_settings_give_their_configuration_back() {
        for profile in [TcpProfile::Standard, TcpProfile::Ns2Compat, TcpProfile::Ns2] {
            for text in [
                "",
                "variant = \"cubic\"\nrwnd = \"100 kB\"\nmss = \"1448 B\"",
                "initial_window = \"d\"\ndelayed_ack = 3\ntimestamps = true",
                "dynamic_delayed_ack = true\ndynamic_delayed_ack_thresholds = [1, 4, 8]",
                "initial_window = 7\ninitial_ssthresh = \"20000 B\"\nvariant = \"vegas\"",
            ] {
                let given = settings(text);
                let cfg = TcpSettings::config(Some(&given), None, profile);
                let written = TcpSettings::written(profile, &cfg);
                // as the scenario's table, as a flow's over another scenario table, and
                // after a round trip through TOML
                assert_eq!(TcpSettings::config(Some(&written), None, profile), cfg);
                let other = settings("profile = \"ns2\"\nmss = \"500 B\"");
                let flow = TcpSettings::config(Some(&other), Some(&written), profile);
                assert_eq!(flow, cfg);
                let text = toml::to_string(&written).unwrap();
                assert_eq!(settings(&text), written, "{text}");
            }
        }
    }

    #[test]
    fn initial_window_d_follows_the_delayed_ack_count() {
        let g = settings("initial_window = \"d\"\ndelayed_ack = 3");
        assert_eq!(
            TcpSettings::config(Some(&g), None, TcpProfile::Standard).initial_window,
            Some(3)
        );
        // The flow's count wins, and so does the flow's explicit window.
        let f = settings("delayed_ack = 4");
        assert_eq!(
            TcpSettings::config(Some(&g), Some(&f), TcpProfile::Standard).initial_window,
            Some(4)
        );
        let f = settings("initial_window = 2");
        assert_eq!(
            TcpSettings::config(Some(&g), Some(&f), TcpProfile::Standard).initial_window,
            Some(2)
        );
        // The dynamic scheme starts with d = 1.
        let dynamic = settings("initial_window = \"d\"\ndynamic_delayed_ack = true");
        let cfg = TcpSettings::config(Some(&dynamic), None, TcpProfile::Standard);
        assert_eq!(cfg.initial_window, Some(1));
        assert_eq!(
            cfg.delayed_ack_policy,
            DelayedAckPolicy::Dynamic {
                thresholds: [2, 5, 9]
            }
        );
        let custom =
            settings("dynamic_delayed_ack = true\ndynamic_delayed_ack_thresholds = [3, 6, 12]");
        assert_eq!(
            TcpSettings::config(Some(&custom), None, TcpProfile::Standard).delayed_ack_policy,
            DelayedAckPolicy::Dynamic {
                thresholds: [3, 6, 12]
            }
        );
        for bad in [
            "initial_window = \"e\"",
            "initial_window = 0",
            "initial_window = -1",
        ] {
            assert!(toml::from_str::<TcpSettings>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn initial_ssthresh_takes_rwnd_segments_bytes_or_unlimited() {
        let cfg = |text: &str, profile| TcpSettings::config(Some(&settings(text)), None, profile);
        // The ns2 profiles follow rwnd (ns-2: ssthresh_ = window_), the standard is unlimited.
        assert_eq!(
            cfg("rwnd = 42", TcpProfile::Ns2).initial_ssthresh_bytes(),
            42_000
        );
        assert_eq!(
            cfg("rwnd = 42", TcpProfile::Ns2Compat).initial_ssthresh_bytes(),
            42_000
        );
        assert_eq!(
            cfg("", TcpProfile::Standard).initial_ssthresh_bytes(),
            u64::MAX
        );
        let pairs = [
            ("initial_ssthresh = \"rwnd\"\nrwnd = \"64 kB\"", 64_000),
            ("initial_ssthresh = 20\nrwnd = 42", 20_000),
            ("initial_ssthresh = \"30000 B\"", 30_000),
            ("initial_ssthresh = \"unlimited\"", u64::MAX),
        ];
        for (text, bytes) in pairs {
            assert_eq!(
                cfg(text, TcpProfile::Ns2).initial_ssthresh_bytes(),
                bytes,
                "{text}"
            );
        }
        for (bad, needle) in [
            ("initial_ssthresh = \"half\"", "\"rwnd\""),
            ("initial_ssthresh = -3", "negative"),
            ("initial_ssthresh = true", "\"unlimited\""),
        ] {
            let err = toml::from_str::<TcpSettings>(bad).unwrap_err().to_string();
            assert!(err.contains(needle), "{bad}: {err}");
        }
        // Below two segments: the configuration names the key, the value and the rule.
        let err = cfg("initial_ssthresh = 1", TcpProfile::Ns2)
            .validate()
            .unwrap_err();
        assert!(
            err.contains("tcp.initial_ssthresh") && err.contains("2 segments"),
            "{err}"
        );
    }
}
