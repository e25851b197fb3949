//! MAC limits that accept a number or a word: retry limits ("unlimited") and the RTS
//! threshold ("off", "always").
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
