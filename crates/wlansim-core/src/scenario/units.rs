//! Unit-bearing scenario values: durations ("10 ms"), rates ("11 Mb/s"), sizes ("1500 B"),
//! speeds ("4 m/s"), powers ("-82 dBm", "3.652e-10 W").
//!
//! Values are written with their unit so a scenario reads without the docs; sizes may also
//! be bare integers (bytes). Each type serialises back to a canonical string, which is what
//! the resolved scenario (and so a campaign's run key) contains.
use crate::sim::time::{Time, MS, NS, SECOND, US};
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Split "12.5 ms" into (12.5, "ms"); the space is optional.
fn split_number(text: &str) -> Option<(f64, &str)> {
    let text = text.trim();
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+' || c == 'e'))
        .unwrap_or(text.len());
    // "1e3 ms" is fine, but "1 ms" must not take the 'e' of a unit: retry without it.
    let (num, unit) = text.split_at(end);
    match num.parse::<f64>() {
        Ok(v) => Some((v, unit.trim())),
        Err(_) => {
            let end = text
                .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
                .unwrap_or(text.len());
            let (num, unit) = text.split_at(end);
            num.parse::<f64>().ok().map(|v| (v, unit.trim()))
        }
    }
}

fn canonical(value: u64, units: &[(u64, &str)]) -> String {
    for &(scale, name) in units {
        if value.is_multiple_of(scale) {
            return format!("{} {}", value / scale, name);
        }
    }
    unreachable!("the last unit has scale 1")
}

/// A duration (simulated time), stored in nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Duration(pub Time);

impl Duration {
    pub const ALLOWED: &'static str =
        "a duration with a unit: ns, us (or µs), ms, s, min; from 0 to 1e9 s";
    /// Largest duration a scenario may give: 10^9 s (about 31.7 years). Sums of a few
    /// such times still fit the nanosecond clock (u64, up to about 1.8e10 s).
    pub const MAX: Duration = Duration(1_000_000_000 * SECOND);

    pub fn parse(text: &str) -> Result<Duration, String> {
        let (value, unit) = split_number(text)
            .ok_or_else(|| format!("\"{text}\" is not a duration; expected {}", Self::ALLOWED))?;
        let scale = match unit {
            "ns" => NS,
            "us" | "µs" => US,
            "ms" => MS,
            "s" => SECOND,
            "min" => 60 * SECOND,
            _ => {
                return Err(format!(
                    "\"{text}\" has no valid unit; expected {}",
                    Self::ALLOWED
                ))
            }
        };
        if !(value >= 0.0 && value.is_finite()) {
            return Err(format!("\"{text}\" is negative; a duration must be ≥ 0"));
        }
        let ns = value * scale as f64;
        if ns > Self::MAX.0 as f64 {
            return Err(format!(
                "\"{text}\" is too long; a duration is at most 1e9 s (about 31.7 years)"
            ));
        }
        let ns = ns.round() as Time;
        if ns == 0 && value > 0.0 {
            return Err(format!(
                "\"{text}\" is shorter than the clock's resolution (1 ns); use 0 or at least 1 ns"
            ));
        }
        Ok(Duration(ns))
    }
}

impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let units = [(SECOND, "s"), (MS, "ms"), (US, "us"), (1, "ns")];
        f.write_str(&canonical(self.0, &units))
    }
}

/// A bit rate in bits per second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rate(pub u64);

impl Rate {
    pub const ALLOWED: &'static str =
        "a rate with a unit: b/s, kb/s, Mb/s, Gb/s (or bps, kbps, Mbps, Gbps); from 1 b/s to 1 Tb/s";
    /// Largest rate a scenario may give: 1 Tb/s.
    pub const MAX: Rate = Rate(1_000_000_000_000);

    pub fn parse(text: &str) -> Result<Rate, String> {
        let (value, unit) = split_number(text)
            .ok_or_else(|| format!("\"{text}\" is not a rate; expected {}", Self::ALLOWED))?;
        let scale = match unit {
            "b/s" | "bps" | "bit/s" => 1.0,
            "kb/s" | "kbps" | "kbit/s" => 1e3,
            "Mb/s" | "Mbps" | "Mbit/s" => 1e6,
            "Gb/s" | "Gbps" | "Gbit/s" => 1e9,
            _ => {
                return Err(format!(
                    "\"{text}\" has no valid unit; expected {}",
                    Self::ALLOWED
                ))
            }
        };
        if !(value > 0.0 && value.is_finite()) {
            return Err(format!(
                "\"{text}\" must be a positive rate; expected {}",
                Self::ALLOWED
            ));
        }
        let bps = (value * scale).round();
        if bps < 1.0 {
            return Err(format!(
                "\"{text}\" is below 1 b/s, the smallest rate; expected {}",
                Self::ALLOWED
            ));
        }
        if bps > Self::MAX.0 as f64 {
            return Err(format!(
                "\"{text}\" is above 1 Tb/s, the largest rate; expected {}",
                Self::ALLOWED
            ));
        }
        Ok(Rate(bps as u64))
    }

    pub fn mbps(self) -> f64 {
        self.0 as f64 / 1e6
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if !self.0.is_multiple_of(1_000_000) && self.0.is_multiple_of(100_000) {
            return write!(f, "{} Mb/s", self.0 as f64 / 1e6);
        }
        let units = [
            (1_000_000_000, "Gb/s"),
            (1_000_000, "Mb/s"),
            (1_000, "kb/s"),
            (1, "b/s"),
        ];
        f.write_str(&canonical(self.0, &units))
    }
}

/// A size in bytes: "1500 B", "1.5 kB", "2 KiB" or a bare integer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bytes(pub u64);

impl Bytes {
    pub const ALLOWED: &'static str =
        "a size: an integer number of bytes or a string with B, kB, KiB, MB, MiB, GB, GiB; from 0 to 2^53 B";
    /// Largest size a scenario may give: 2^53 B (every such integer is exact in a float).
    pub const MAX: Bytes = Bytes(1 << 53);

    pub fn parse(text: &str) -> Result<Bytes, String> {
        let (value, unit) = split_number(text)
            .ok_or_else(|| format!("\"{text}\" is not a size; expected {}", Self::ALLOWED))?;
        let scale = match unit {
            "B" | "" => 1.0,
            "kB" => 1e3,
            "KiB" => 1024.0,
            "MB" => 1e6,
            "MiB" => 1024.0 * 1024.0,
            "GB" => 1e9,
            "GiB" => 1024.0 * 1024.0 * 1024.0,
            _ => {
                return Err(format!(
                    "\"{text}\" has no valid unit; expected {}",
                    Self::ALLOWED
                ))
            }
        };
        let bytes = value * scale;
        if !(bytes >= 0.0 && bytes.is_finite() && bytes.fract() == 0.0) {
            return Err(format!(
                "\"{text}\" is not a whole, non-negative number of bytes; expected {}",
                Self::ALLOWED
            ));
        }
        if bytes > Self::MAX.0 as f64 {
            return Err(format!(
                "\"{text}\" is too large; a size is at most 2^53 B (9007199254740992 B)"
            ));
        }
        Ok(Bytes(bytes as u64))
    }
}

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} B", self.0)
    }
}

/// A speed in metres per second: "4 m/s" or "14.4 km/h".
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
pub struct Speed(pub f64);

impl Speed {
    pub const ALLOWED: &'static str = "a speed with a unit: m/s or km/h; above 0, at most 1000 m/s";

    pub fn parse(text: &str) -> Result<Speed, String> {
        let (value, unit) = split_number(text)
            .ok_or_else(|| format!("\"{text}\" is not a speed; expected {}", Self::ALLOWED))?;
        let scale = match unit {
            "m/s" => 1.0,
            "km/h" => 1.0 / 3.6,
            _ => {
                return Err(format!(
                    "\"{text}\" has no valid unit; expected {}",
                    Self::ALLOWED
                ))
            }
        };
        let v = value * scale;
        if !(v > 0.0 && v <= 1000.0) {
            return Err(format!(
                "\"{text}\" is out of range; expected {}",
                Self::ALLOWED
            ));
        }
        Ok(Speed(v))
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} m/s", self.0)
    }
}

impl Serialize for Speed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

// Written out, not by `string_unit_serde!`: a speed is a float and has no bare-number form.
impl<'de> Deserialize<'de> for Speed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(text) => Speed::parse(&text).map_err(de::Error::custom),
            other => Err(de::Error::custom(format!(
                "{other} has no unit; expected {}",
                Self::ALLOWED
            ))),
        }
    }
}

/// A received power (a threshold), stored in watts; written in dBm or W.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Power(pub f64);

impl Power {
    pub const ALLOWED: &'static str =
        "a power with a unit: dBm, mW or W (e.g. \"-82 dBm\", \"3.652e-10 W\"); from -200 to 60 dBm";

    pub fn parse(text: &str) -> Result<Power, String> {
        let bad = || format!("\"{text}\" is not a power; expected {}", Self::ALLOWED);
        let (value, unit) = split_number(text).ok_or_else(bad)?;
        let w = match unit {
            "dBm" => 10f64.powf((value - 30.0) / 10.0),
            "mW" => value * 1e-3,
            "W" => value,
            _ => {
                return Err(format!(
                    "\"{text}\" has no valid unit; expected {}",
                    Self::ALLOWED
                ))
            }
        };
        let dbm = 10.0 * w.log10() + 30.0;
        if !(w > 0.0 && (-200.0..=60.0).contains(&dbm)) {
            return Err(format!(
                "\"{text}\" is out of range; expected {}",
                Self::ALLOWED
            ));
        }
        Ok(Power(w))
    }

    pub fn dbm(self) -> f64 {
        10.0 * self.0.log10() + 30.0
    }
}

impl fmt::Display for Power {
    /// In watts, with the shortest exponent form that reads back to the same value.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{:e} W", self.0)
    }
}

impl Serialize for Power {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Power {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(text) => Power::parse(&text).map_err(de::Error::custom),
            other => Err(de::Error::custom(format!(
                "{other} has no unit; expected {}",
                Self::ALLOWED
            ))),
        }
    }
}

macro_rules! string_unit_serde {
    ($ty:ident, $expecting:literal, int_is_bytes = $int_ok:literal, zero_ok = $zero_ok:literal) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> de::Visitor<'de> for V {
                    type Value = $ty;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_str<E: de::Error>(self, v: &str) -> Result<$ty, E> {
                        $ty::parse(v).map_err(E::custom)
                    }
                    fn visit_u64<E: de::Error>(self, v: u64) -> Result<$ty, E> {
                        if $int_ok {
                            $ty::parse(&v.to_string()).map_err(E::custom)
                        } else if v == 0 && $zero_ok {
                            Ok($ty(0))
                        } else {
                            Err(E::custom(format!(
                                "{v} has no unit; expected {}",
                                $ty::ALLOWED
                            )))
                        }
                    }
                    fn visit_i64<E: de::Error>(self, v: i64) -> Result<$ty, E> {
                        if v >= 0 {
                            self.visit_u64(v as u64)
                        } else {
                            Err(E::custom(format!(
                                "{v} is negative; expected {}",
                                $ty::ALLOWED
                            )))
                        }
                    }
                    fn visit_f64<E: de::Error>(self, v: f64) -> Result<$ty, E> {
                        let what = if v.is_finite() {
                            "has no unit"
                        } else {
                            "is not a number"
                        };
                        Err(E::custom(format!("{v} {what}; expected {}", $ty::ALLOWED)))
                    }
                    fn visit_bool<E: de::Error>(self, v: bool) -> Result<$ty, E> {
                        Err(E::custom(format!(
                            "{v} is not allowed; expected {}",
                            $ty::ALLOWED
                        )))
                    }
                }
                d.deserialize_any(V)
            }
        }
    };
}

string_unit_serde!(
    Duration,
    "a duration such as \"10 ms\"",
    int_is_bytes = false,
    zero_ok = true
);
string_unit_serde!(
    Rate,
    "a rate such as \"11 Mb/s\"",
    int_is_bytes = false,
    zero_ok = false
);
string_unit_serde!(
    Bytes,
    "a size such as 1500 or \"1500 B\"",
    int_is_bytes = true,
    zero_ok = true
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_speeds() {
        assert_eq!(Speed::parse("4 m/s"), Ok(Speed(4.0)));
        assert!((Speed::parse("14.4 km/h").unwrap().0 - 4.0).abs() < 1e-12);
        for bad in ["4", "0 m/s", "-1 m/s", "4 mph", "2000 m/s"] {
            assert!(Speed::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn parses_powers() {
        assert!((Power::parse("-82 dBm").unwrap().dbm() + 82.0).abs() < 1e-9);
        assert_eq!(Power::parse("3.652e-10 W"), Ok(Power(3.652e-10)));
        assert!((Power::parse("1 mW").unwrap().0 - 1e-3).abs() < 1e-18);
        for bad in ["-82", "0 W", "-1 W", "-250 dBm", "3 dB"] {
            assert!(Power::parse(bad).is_err(), "{bad}");
        }
        let p = Power::parse("-62 dBm").unwrap();
        assert_eq!(Power::parse(&p.to_string()), Ok(p));
    }

    #[test]
    fn parses_durations() {
        assert_eq!(Duration::parse("10 ms").unwrap().0, 10 * MS);
        assert_eq!(Duration::parse("1.5s").unwrap().0, 1_500 * MS);
        assert_eq!(Duration::parse("20 µs").unwrap().0, 20 * US);
        assert_eq!(Duration::parse("2 min").unwrap().0, 120 * SECOND);
        assert!(Duration::parse("10").unwrap_err().contains("no valid unit"));
        assert!(Duration::parse("-1 s").unwrap_err().contains("negative"));
        assert!(Duration::parse("ten s").is_err());
    }

    #[test]
    fn parses_rates_and_sizes() {
        assert_eq!(Rate::parse("11 Mb/s").unwrap().0, 11_000_000);
        assert_eq!(Rate::parse("5.5Mbps").unwrap().0, 5_500_000);
        assert_eq!(Rate::parse("100 kb/s").unwrap().0, 100_000);
        assert!(Rate::parse("0 Mb/s").is_err());
        assert_eq!(Bytes::parse("1500 B").unwrap().0, 1500);
        assert_eq!(Bytes::parse("2 KiB").unwrap().0, 2048);
        assert!(Bytes::parse("1.5 B").is_err());
    }

    #[test]
    fn canonical_forms_round_trip() {
        for text in ["10 ms", "1 s", "250 us", "7 ns"] {
            assert_eq!(Duration::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(Rate::parse("5.5 Mb/s").unwrap().to_string(), "5.5 Mb/s");
        assert_eq!(Rate::parse("11 Mb/s").unwrap().to_string(), "11 Mb/s");
        let d: Duration = serde_json::from_str("\"100 s\"").unwrap();
        assert_eq!(serde_json::to_string(&d).unwrap(), "\"100 s\"");
        assert!(serde_json::from_str::<Duration>("5").is_err());
        assert_eq!(serde_json::from_str::<Bytes>("1500").unwrap().0, 1500);
    }
}
