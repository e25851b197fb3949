//! The JSON Schema of the scenario format, generated from the scenario types (their doc
//! comments are the descriptions). The unit-bearing types have hand-written schemas: a
//! string with a pattern, or a number where one is accepted. The same schema tells an
//! error message what a key allows.
use super::limits::{Lifetime, RetryLimit, RtsThreshold};
use super::tcp::{SsthreshSpec, WindowSpec};
use super::units::{Bytes, Duration, Power, Rate, Speed};
use super::Scenario;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde_json::Value;
use std::borrow::Cow;
use std::sync::OnceLock;

/// A number as the unit strings write it: "10", "1.5", ".5", "1e3" (no sign but '+').
const NUMBER: &str = r"\+?([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?";

fn pattern(units: &str) -> String {
    format!(r"^\s*{NUMBER}\s*({units})\s*$")
}

impl JsonSchema for Duration {
    fn schema_name() -> Cow<'static, str> {
        "Duration".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": format!("Duration: {}. A bare 0 is allowed.", Duration::ALLOWED),
            "x-unit": "duration",
            "anyOf": [
                { "type": "string", "pattern": pattern("ns|us|µs|ms|s|min"), "examples": ["10 ms", "1.5 s"] },
                { "const": 0 }
            ]
        })
    }
}

impl JsonSchema for Rate {
    fn schema_name() -> Cow<'static, str> {
        "Rate".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": format!("Rate: {}.", Rate::ALLOWED),
            "x-unit": "rate",
            "type": "string",
            "pattern": pattern("b/s|bps|bit/s|kb/s|kbps|kbit/s|Mb/s|Mbps|Mbit/s|Gb/s|Gbps|Gbit/s"),
            "examples": ["11 Mb/s", "64 kb/s"]
        })
    }
}

impl JsonSchema for Speed {
    fn schema_name() -> Cow<'static, str> {
        "Speed".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": format!("Speed: {}.", Speed::ALLOWED),
            "x-unit": "speed",
            "type": "string",
            "pattern": pattern("m/s|km/h"),
            "examples": ["4 m/s", "14.4 km/h"]
        })
    }
}

impl JsonSchema for Power {
    fn schema_name() -> Cow<'static, str> {
        "Power".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": format!("Power: {}.", Power::ALLOWED),
            "x-unit": "power",
            "type": "string",
            "pattern": format!(r"^\s*[+-]?{NUMBER}\s*(dBm|mW|W)\s*$"),
            "examples": ["-82 dBm", "3.652e-10 W"]
        })
    }
}

fn bytes_pattern() -> String {
    pattern("B|kB|KiB|MB|MiB|GB|GiB|")
}

impl JsonSchema for Bytes {
    fn schema_name() -> Cow<'static, str> {
        "Bytes".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": format!("Size: {}.", Bytes::ALLOWED),
            "x-unit": "size",
            "anyOf": [
                { "type": "integer", "minimum": 0, "maximum": Bytes::MAX.0 },
                { "type": "string", "pattern": bytes_pattern(), "examples": ["1500 B", "64 KiB"] }
            ]
        })
    }
}

impl JsonSchema for RetryLimit {
    fn schema_name() -> Cow<'static, str> {
        "RetryLimit".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Attempts of one frame: a number from 1 to 4294967295, or \"unlimited\".",
            "x-unit": "attempts",
            "anyOf": [
                { "type": "integer", "minimum": 1, "maximum": u32::MAX },
                { "const": "unlimited" }
            ]
        })
    }
}

impl JsonSchema for Lifetime {
    fn schema_name() -> Cow<'static, str> {
        "Lifetime".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": format!("Lifetime: {}.", Lifetime::ALLOWED),
            "x-unit": "duration",
            "anyOf": [
                { "type": "string", "pattern": pattern("ns|us|µs|ms|s|min"), "examples": ["500 ms"] },
                { "const": "unlimited" }
            ]
        })
    }
}

impl JsonSchema for RtsThreshold {
    fn schema_name() -> Cow<'static, str> {
        "RtsThreshold".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "An MPDU length in bytes from 0 to 4294967295 (0 = RTS before every frame), \"always\" (= 0) or \"off\".",
            "x-unit": "bytes",
            "anyOf": [
                { "type": "integer", "minimum": 0, "maximum": u32::MAX },
                { "enum": ["off", "always"] }
            ]
        })
    }
}

impl JsonSchema for WindowSpec {
    fn schema_name() -> Cow<'static, str> {
        "Window".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A window: an integer number of segments, or a size string (\"65535 B\"); from 1 byte to 2^30 bytes.",
            "x-unit": "segments or size",
            "anyOf": [
                { "type": "integer", "minimum": 1 },
                { "type": "string", "pattern": bytes_pattern() }
            ]
        })
    }
}

impl JsonSchema for SsthreshSpec {
    fn schema_name() -> Cow<'static, str> {
        "InitialSsthresh".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "An initial slow-start threshold: an integer number of segments (at least 2), a size string (\"20000 B\"), \"rwnd\" (the advertised window) or \"unlimited\".",
            "x-unit": "segments or size",
            "anyOf": [
                { "type": "integer", "minimum": 2 },
                { "type": "string", "pattern": bytes_pattern() },
                { "enum": ["rwnd", "unlimited"] }
            ]
        })
    }
}

/// The access categories as scenario files name them (the schema of
/// [`AccessCategory`](crate::mac::AccessCategory)).
#[derive(JsonSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub(super) enum AcName {
    /// AC_BK, background.
    Bk,
    /// AC_BE, best effort (unclassified traffic).
    Be,
    /// AC_VI, video.
    Vi,
    /// AC_VO, voice.
    Vo,
}

/// The JSON Schema (draft 2020-12) of a scenario file.
pub fn json_schema() -> Value {
    let mut schema = schemars::schema_for!(Scenario).to_value();
    if let Some(root) = schema.as_object_mut() {
        root.insert("title".into(), "wlansim scenario".into());
    }
    schema
}

/// The schema of the value at `path` (`stations[0].count`), following references; a key
/// of a tagged choice of tables (`{ distribution = "...", ... }`) is looked up in each
/// alternative, and a tag key gives the choice of its constants.
fn node_at(root: &Value, path: &str) -> Option<Value> {
    let mut node = resolve(root, root).clone();
    for part in split_path(path) {
        let next = match part {
            Part::Key(k) => match node.get("properties").and_then(|p| p.get(k)) {
                Some(n) => n.clone(),
                None => in_alternatives(root, &node, k)?,
            },
            Part::Index(_) => node.get("items")?.clone(),
        };
        node = resolve(root, &next).clone();
    }
    Some(node)
}

/// Key `k` of the tables a `oneOf` offers: its schema in the first that has it, or, for
/// the tag (a constant in each), the choice of the constants.
fn in_alternatives(root: &Value, node: &Value, k: &str) -> Option<Value> {
    let alts = node
        .get("oneOf")
        .or_else(|| node.get("anyOf"))?
        .as_array()?;
    let found: Vec<&Value> = alts
        .iter()
        .filter_map(|a| resolve(root, a).get("properties")?.get(k))
        .collect();
    let consts: Vec<Value> = found
        .iter()
        .filter_map(|n| n.get("const").cloned())
        .collect();
    if !consts.is_empty() && consts.len() == found.len() {
        return Some(serde_json::json!({ "enum": consts }));
    }
    found.first().map(|n| (*n).clone())
}

/// "a table with `tag` one of ..." for a tagged choice of tables.
fn tagged_tables(node: &Value) -> Option<String> {
    let alts = node.get("oneOf")?.as_array()?;
    let first = alts.first()?.get("properties")?.as_object()?;
    let (tag, _) = first.iter().find(|(_, v)| v.get("const").is_some())?;
    let names: Vec<String> = alts
        .iter()
        .filter_map(|a| Some(a.get("properties")?.get(tag)?.get("const")?.to_string()))
        .collect();
    Some(format!(
        "a table {{ {tag} = ... }} with {tag} one of {}",
        names.join(", ")
    ))
}

enum Part<'a> {
    Key(&'a str),
    /// An array element (its index, when the path gives a number).
    Index(Option<usize>),
}

fn split_path(path: &str) -> Vec<Part<'_>> {
    let mut parts = Vec::new();
    for piece in path.split('.').filter(|p| !p.is_empty() && *p != "?") {
        let (key, indices) = piece
            .split_once('[')
            .map_or((piece, ""), |(k, _)| (k, &piece[k.len()..]));
        if !key.is_empty() {
            parts.push(Part::Key(key));
        }
        for index in indices.split('[').filter(|i| !i.is_empty()) {
            parts.push(Part::Index(index.trim_end_matches(']').parse().ok()));
        }
    }
    parts
}

/// Follow `$ref`, and of an optional value (`anyOf` with null) take the non-null schema.
fn resolve<'a>(root: &'a Value, mut node: &'a Value) -> &'a Value {
    for _ in 0..8 {
        if let Some(r) = node.get("$ref").and_then(Value::as_str) {
            let name = r.rsplit('/').next().unwrap_or_default();
            match root.get("$defs").and_then(|d| d.get(name)) {
                Some(def) => node = def,
                None => return node,
            }
            continue;
        }
        if let Some(alts) = node.get("anyOf").and_then(Value::as_array) {
            let non_null: Vec<&Value> = alts
                .iter()
                .filter(|a| a.get("type").and_then(Value::as_str) != Some("null"))
                .collect();
            if non_null.len() == 1 && non_null.len() < alts.len() {
                node = non_null[0];
                continue;
            }
        }
        break;
    }
    node
}

/// "one of `a`, `b`" for a schema of string constants.
fn choices(node: &Value) -> Option<String> {
    let mut names = Vec::new();
    if let Some(e) = node.get("enum").and_then(Value::as_array) {
        names.extend(e.iter().map(|v| v.to_string()));
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(alts) = node.get(key).and_then(Value::as_array) {
            for a in alts {
                if let Some(c) = a.get("const") {
                    names.push(c.to_string());
                } else if let Some(e) = a.get("enum").and_then(Value::as_array) {
                    names.extend(e.iter().map(|v| v.to_string()));
                } else {
                    return None;
                }
            }
        }
    }
    (!names.is_empty()).then(|| format!("one of {}", names.join(", ")))
}

fn schema_root() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(json_schema)
}

/// What the value at `path` of a scenario document is when it is an array or a table
/// (a scalar is quoted from the text instead: the document may have rounded it, e.g.
/// 2^64 to 1.8446744073709552e+19).
fn kind_at(doc: &Value, path: &str) -> Option<&'static str> {
    let mut v = doc;
    for part in split_path(path) {
        v = match part {
            Part::Key(k) => v.get(k)?,
            Part::Index(i) => v.get(i?)?,
        };
    }
    match v {
        Value::Array(_) => Some("an array"),
        Value::Object(_) => Some("a table"),
        _ => None,
    }
}

/// Whether the schema `node` takes an array.
fn accepts_array(root: &Value, node: &Value) -> bool {
    let node = resolve(root, node);
    let typed = |t: &Value| {
        t == "array"
            || t.as_array()
                .is_some_and(|ts| ts.iter().any(|t| t == "array"))
    };
    node.get("items").is_some()
        || node.get("type").is_some_and(typed)
        || ["oneOf", "anyOf"].iter().any(|k| {
            node.get(*k)
                .and_then(Value::as_array)
                .is_some_and(|alts| alts.iter().any(|a| accepts_array(root, a)))
        })
}

/// The key at which `path` steps into an array where the schema takes none (`phy[0]` of
/// `phy = [1]`): the deserialiser then reports the array's first element, where the
/// mistake is the array itself.
fn array_in_place_of(path: &str) -> Option<String> {
    let root = schema_root();
    let mut node = resolve(root, root).clone();
    let mut at = String::new();
    for part in split_path(path) {
        match part {
            Part::Key(k) => {
                let next = match node.get("properties").and_then(|p| p.get(k)) {
                    Some(n) => n.clone(),
                    None => in_alternatives(root, &node, k)?,
                };
                node = resolve(root, &next).clone();
                at = if at.is_empty() {
                    k.to_string()
                } else {
                    format!("{at}.{k}")
                };
            }
            Part::Index(i) => {
                if !accepts_array(root, &node) {
                    return (!at.is_empty()).then_some(at);
                }
                node = resolve(root, node.get("items")?).clone();
                at = format!("{at}[{}]", i?);
            }
        }
    }
    None
}

/// A deserialiser's error at `path` as (key path, message): the value given (found in
/// `doc`, the document, when it parses; else `token`, the text there) and what the key
/// allows, from the schema.
pub fn parse_error(
    path: &str,
    message: &str,
    doc: Option<&Value>,
    token: Option<&str>,
) -> (String, String) {
    if let Some(at) = array_in_place_of(path) {
        let expected = allowed_at(&at).unwrap_or_else(|| "a single value".into());
        return (at, format!("an array is not allowed; expected {expected}"));
    }
    if let Some(found) = missing(path, message) {
        return found;
    }
    let given = doc.and_then(|d| kind_at(d, path)).or(token);
    (path.to_string(), explain(path, message, given))
}

/// What the schema allows at `path`, in words (None when the path is not in the schema).
pub fn allowed_at(path: &str) -> Option<String> {
    let root = schema_root();
    allowed(root, &node_at(root, path)?)
}

/// What the schema `node` allows, in words.
fn allowed(root: &Value, node: &Value) -> Option<String> {
    let node = resolve(root, node);
    if node.get("x-unit").is_some() {
        let d = node.get("description")?.as_str()?;
        let d = d.split_once(": ").map_or(d, |(_, rest)| rest);
        let mut d = d.trim_end_matches('.').to_string();
        if let Some(first) = d.get(..1) {
            d.replace_range(..1, &first.to_lowercase());
        }
        return Some(d);
    }
    if let Some(c) = choices(node)
        .or_else(|| tagged_tables(node))
        .or_else(|| alternatives(root, node))
    {
        return Some(c);
    }
    // An optional value's type is ["integer", "null"]: the first non-null one counts.
    let ty = match node.get("type")? {
        Value::String(t) => t.as_str(),
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null")?,
        _ => return None,
    };
    Some(match ty {
        "integer" => {
            let min = node.get("minimum").and_then(Value::as_u64).unwrap_or(0);
            let max = node.get("maximum").and_then(Value::as_u64).or(
                match node.get("format").and_then(Value::as_str) {
                    Some("uint8") => Some(u8::MAX as u64),
                    Some("uint16") => Some(u16::MAX as u64),
                    Some("uint32") => Some(u32::MAX as u64),
                    Some("uint64") => Some(u64::MAX),
                    _ => None,
                },
            );
            match max {
                Some(max) => format!("a whole number from {min} to {max}"),
                None => format!("a whole number ≥ {min}"),
            }
        }
        "number" => "a finite number".into(),
        "boolean" => "true or false".into(),
        "string" => "a string".into(),
        "array" => "an array".into(),
        "object" => "a table".into(),
        other => other.to_string(),
    })
}

/// Alternatives of different kinds (`anyOf`/`oneOf` that are not all constants: a number
/// of segments or "d"), each in words, joined by "or"; None unless every one has words.
fn alternatives(root: &Value, node: &Value) -> Option<String> {
    let alts = node
        .get("anyOf")
        .or_else(|| node.get("oneOf"))?
        .as_array()?;
    let words = alts
        .iter()
        .filter(|a| a.get("type").and_then(Value::as_str) != Some("null"))
        .map(|a| match a.get("const") {
            Some(c) => Some(c.to_string()),
            None => allowed(root, a),
        })
        .collect::<Option<Vec<String>>>()?;
    (!words.is_empty()).then(|| words.join(" or "))
}

/// The value of a serde "invalid type/value" description: "floating point `1.5`" → 1.5,
/// "string \"x\"" → "x", "map" → a table.
fn unexpected_value(what: &str) -> String {
    if let (Some(a), Some(b)) = (what.find('`'), what.rfind('`')) {
        if b > a {
            return what[a + 1..b].to_string();
        }
    }
    if let Some(rest) = what.strip_prefix("string ") {
        return rest.to_string();
    }
    match what {
        "map" => "a table".into(),
        "sequence" => "an array".into(),
        "unit value" | "null" => "null".into(),
        other => other.to_string(),
    }
}

/// A deserialiser's name of a Rust type in words (where the schema has no answer, e.g.
/// a table given as an array).
fn in_words(expected: &str) -> String {
    let range = |max: u64| format!("a whole number from 0 to {max}");
    match expected.trim() {
        "u8" => range(u8::MAX as u64),
        "u16" => range(u16::MAX as u64),
        "u32" => range(u32::MAX as u64),
        "u64" => range(u64::MAX),
        "i64" => "a whole number".into(),
        "f64" | "f32" => "a finite number".into(),
        e if e.starts_with("struct ") || e.starts_with("map") => "a table".into(),
        e if e.starts_with("a sequence") => "an array".into(),
        e => e.to_string(),
    }
}

/// A deserialiser's message rewritten so it names the value given (`given`, when the
/// caller knows its text) and what the key allows (from the schema).
pub fn explain(path: &str, message: &str, given: Option<&str>) -> String {
    let allowed = || allowed_at(path);
    let mut lines: Vec<String> = message.lines().map(str::to_string).collect();
    for line in &mut lines {
        let l = line.trim();
        let start = l
            .find("invalid type: ")
            .or_else(|| l.find("invalid value: "));
        if let Some(start) = start {
            let body = &l[start..];
            let body = body.split_once(": ").map_or(body, |(_, b)| b);
            let (what, expected) = body.split_once(", expected ").unwrap_or((body, ""));
            // A table or an array is named by its kind, a string as the deserialiser
            // quotes it; another scalar by its source text when known (the deserialiser
            // may have rounded it, e.g. 2^64 to 1.8446744073709552e+19).
            let structured = what == "map" || what == "sequence" || what.starts_with("string ");
            let value = match given {
                Some(g) if !structured => g.to_string(),
                _ => unexpected_value(what),
            };
            let note = not_finite(Some(&value));
            let expected = allowed().unwrap_or_else(|| in_words(expected));
            *line = format!("{value} is not allowed{note}; expected {expected}");
        } else if ["expected value", "invalid number"]
            .iter()
            .any(|m| l == *m || l.starts_with(&format!("{m} at")))
        {
            let value = given.unwrap_or("this value");
            let note = not_finite(given);
            let expected = allowed().unwrap_or_else(|| "another value".into());
            *line = format!("{value} is not allowed{note}; expected {expected}");
        } else if l.starts_with("recursion limit exceeded") {
            *line = "arrays or tables nested too deeply (a scenario needs a few levels)".into();
        } else if l == "wanted string or table" || l == "wanted exactly 1 element" {
            let expected = allowed().unwrap_or_else(|| "a string".into());
            let value = given.unwrap_or("this value");
            *line = format!("{value} is not allowed; expected {expected}");
        }
    }
    lines.join("\n")
}

/// " (not a finite number)" after NaN or an infinity, as `given` names them.
fn not_finite(given: Option<&str>) -> &'static str {
    match given.map(|g| g.trim_start_matches('-')) {
        Some("NaN" | "Infinity") => " (not a finite number)",
        _ => "",
    }
}

/// A missing required key: its full path and a message saying what it takes.
pub fn missing(path: &str, message: &str) -> Option<(String, String)> {
    let key = message
        .lines()
        .find_map(|l| l.trim().strip_prefix("missing field `"))?
        .split('`')
        .next()?;
    let full = if path.is_empty() || path == "." {
        key.to_string()
    } else {
        format!("{path}.{key}")
    };
    let expected = allowed_at(&full).unwrap_or_else(|| "a value".into());
    Some((
        full,
        format!("missing field `{key}`: a required key; expected {expected}"),
    ))
}

/// The JSON token starting at (1-based) `line`, `column` of `text`, or ending there.
pub fn json_token_at(text: &str, line: usize, column: usize) -> Option<String> {
    let l = text.lines().nth(line.checked_sub(1)?)?;
    let chars: Vec<char> = l.chars().collect();
    let col = column.min(chars.len());
    let is_tok = |c: char| c.is_ascii_alphanumeric() || "+-._\"".contains(c);
    // serde_json points at the token's first character or just after its last.
    let mut start = col.saturating_sub(1);
    if start < chars.len() && !is_tok(chars[start]) && start > 0 && is_tok(chars[start - 1]) {
        start -= 1;
    }
    match chars.get(start) {
        Some('[') => return Some("an array".into()),
        Some('{') => return Some("a table".into()),
        Some(&c) if is_tok(c) => {}
        _ => return None,
    }
    let mut a = start;
    while a > 0 && is_tok(chars[a - 1]) {
        a -= 1;
    }
    let mut b = start;
    while b < chars.len() && is_tok(chars[b]) {
        b += 1;
    }
    let token: String = chars[a..b].iter().collect();
    (!token.is_empty()).then_some(token)
}
