//! MAC limits that accept a number or a word: retry limits ("unlimited"), the RTS
//! threshold ("off", "always") and the MSDU lifetime (a duration, or "unlimited").
use super::units::Duration;
use crate::sim::time::Time;
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Maximum number of transmission attempts of one frame (802.11-2012 9.3.4:
/// dot11ShortRetryLimit / dot11LongRetryLimit count attempts), or unlimited
/// (Bianchi's model; fotiadis2005's "infinite retry limit").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryLimit(pub Option<u32>);

impl RetryLimit {
    pub fn short_default() -> Self {
        RetryLimit(Some(7))
    }
    pub fn long_default() -> Self {
        RetryLimit(Some(4))
    }
}

/// How long after the MAC accepted an MSDU it may still be sent (dot11EDCATableMSDULifetime
/// under EDCA, dot11MaxTransmitMSDULifetime under DCF: the rule and its clause are in
/// `mac/lifetime.rs`), or unlimited (the default: ns-2.35, the seeds' simulator, has no
/// lifetime).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lifetime(pub Option<Time>);

impl Lifetime {
    pub const ALLOWED: &'static str =
        "a duration above 0 with a unit (ns, us, ms, s, min; at most 1e9 s), or \"unlimited\"";

    pub fn is_unlimited(&self) -> bool {
        self.0.is_none()
    }
}

impl Serialize for Lifetime {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(ns) => s.collect_str(&Duration(ns)),
            None => s.serialize_str("unlimited"),
        }
    }
}

impl<'de> Deserialize<'de> for Lifetime {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = Lifetime;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(Lifetime::ALLOWED)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Lifetime, E> {
                if v == "unlimited" {
                    return Ok(Lifetime(None));
                }
                let d = Duration::parse(v).map_err(|e| {
                    // (The duration's own "expected …" gives way to the lifetime's.)
                    let what = e.split("; expected").next().unwrap_or(&e);
                    E::custom(format!("{what}; expected {}", Lifetime::ALLOWED))
                })?;
                if d.0 == 0 {
                    return Err(E::custom(format!(
                        "\"{v}\" is not allowed: every frame would be discarded; expected {}",
                        Lifetime::ALLOWED
                    )));
                }
                Ok(Lifetime(Some(d.0)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Lifetime, E> {
                Err(E::custom(format!(
                    "{v} is not allowed; expected {}",
                    Lifetime::ALLOWED
                )))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Lifetime, E> {
                self.visit_f64(v as f64)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Lifetime, E> {
                Err(E::custom(format!(
                    "{v} is not allowed; expected {}",
                    Lifetime::ALLOWED
                )))
            }
        }
        d.deserialize_any(V)
    }
}

/// MPDU length above which RTS/CTS precedes the frame; `Off` = never.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RtsThreshold {
    #[default]
    Off,
    Bytes(u32),
}

impl RtsThreshold {
    /// The threshold in MPDU bytes; None when off (the rule: `mac::exchange::uses_rts`).
    pub fn bytes(self) -> Option<u32> {
        match self {
            RtsThreshold::Off => None,
            RtsThreshold::Bytes(t) => Some(t),
        }
    }
}

impl Serialize for RetryLimit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(n) => s.serialize_u32(n),
            None => s.serialize_str("unlimited"),
        }
    }
}

impl Serialize for RtsThreshold {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RtsThreshold::Bytes(n) => s.serialize_u32(*n),
            RtsThreshold::Off => s.serialize_str("off"),
        }
    }
}

/// A visitor for "an integer, or one of these words".
struct IntOrWord<T> {
    expecting: &'static str,
    word: fn(&str) -> Option<T>,
    int: fn(u64) -> Result<T, String>,
}

impl<'de, T> de::Visitor<'de> for IntOrWord<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.expecting)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        (self.word)(v).ok_or_else(|| {
            E::custom(format!(
                "\"{v}\" is not allowed; expected {}",
                self.expecting
            ))
        })
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        (self.int)(v).map_err(E::custom)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(E::custom(format!(
                "{v} is not allowed; expected {}",
                self.expecting
            ))),
        }
    }
}

impl<'de> Deserialize<'de> for RetryLimit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(IntOrWord {
            expecting: "a number of attempts ≥ 1, or \"unlimited\"",
            word: |w| (w == "unlimited").then_some(RetryLimit(None)),
            int: |n| match u32::try_from(n) {
                Ok(n) if n >= 1 => Ok(RetryLimit(Some(n))),
                _ => Err(format!(
                    "{n} is not allowed; expected a number of attempts ≥ 1, or \"unlimited\""
                )),
            },
        })
    }
}

impl<'de> Deserialize<'de> for RtsThreshold {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(IntOrWord {
            expecting:
                "an MPDU length in bytes (0 = RTS before every frame), \"always\" or \"off\"",
            word: |w| match w {
                "off" => Some(RtsThreshold::Off),
                "always" => Some(RtsThreshold::Bytes(0)),
                _ => None,
            },
            int: |n| {
                u32::try_from(n)
                    .map(RtsThreshold::Bytes)
                    .map_err(|_| format!("{n} is too large for an RTS threshold"))
            },
        })
    }
}
