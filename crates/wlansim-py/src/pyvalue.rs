//! Python objects in and out of the core without Python's `json` or `tomllib` (whose
//! imports cost a Python process more than its scenario's parsing: docs/benchmarks.md,
//! "A run's process without json or tomllib").
//!
//! In: a scenario dict becomes the canonical JSON text `json.dumps(scenario,
//! sort_keys=True)` writes, byte for byte (`scenario_text`), so that the core reads what
//! it read before and every message quoting it stays as it was; TOML text becomes the
//! objects `tomllib.loads` makes of it (`from_toml`). Out: an answer (the results, a
//! resolved scenario) becomes the objects `json.loads` made of its JSON text, serialised
//! straight into Python objects (`to_python`: no text, so every float is the core's own).
//!
//! Written here rather than with `pythonize` (the well-kept crate for serde <-> Python):
//! it gives a non-finite float as a Python float and a tuple as a tuple, where the
//! answers have always held None and lists (`json.loads`), and it writes no canonical
//! text on the way in, which every message of the scenario's validation quotes.
use pyo3::exceptions::{PyRecursionError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use pyo3::BoundObject;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Serialize;
use std::fmt;

/// The canonical JSON text of a scenario (`json.dumps(scenario, sort_keys=True)`); a value
/// `json` refuses (not plain data) is a ValueError saying so.
pub fn scenario_text(scenario: &Bound<'_, PyAny>) -> PyResult<String> {
    let mut writer = Writer {
        out: String::new(),
        open: Vec::new(),
    };
    match writer.value(scenario) {
        Ok(()) => Ok(writer.out),
        Err(e) if e.is_instance_of::<PyTypeError>(scenario.py()) => {
            Err(PyValueError::new_err(format!(
                "scenario holds a value that is not plain data: {}",
                e.value(scenario.py())
            )))
        }
        Err(e) => Err(e),
    }
}

/// How deeply `scenario_text` nests before a RecursionError, as Python's default recursion
/// limit stops `json.dumps` (callers check a scenario's depth, 32 levels, before).
const MAX_NESTING: usize = 1000;

/// `json`'s C encoder with `sort_keys=True` and its other defaults (", " and ": " between
/// items, ASCII output, NaN and the infinities written as `NaN`, `Infinity`).
struct Writer {
    out: String,
    /// The lists and dicts being written (a circular reference is refused).
    open: Vec<usize>,
}

impl Writer {
    fn value(&mut self, obj: &Bound<'_, PyAny>) -> PyResult<()> {
        if obj.is_none() {
            self.out.push_str("null");
        } else if let Ok(b) = obj.downcast::<PyBool>() {
            self.out
                .push_str(if b.is_true() { "true" } else { "false" });
        } else if let Ok(s) = obj.downcast::<PyString>() {
            self.string(s)?;
        } else if let Ok(i) = obj.downcast::<PyInt>() {
            self.int(i)?;
        } else if let Ok(f) = obj.downcast::<PyFloat>() {
            self.float(obj.py(), f.value())?;
        } else if let Ok(list) = obj.downcast::<PyList>() {
            self.array(obj, list.iter())?;
        } else if let Ok(tuple) = obj.downcast::<PyTuple>() {
            self.array(obj, tuple.iter())?;
        } else if let Ok(dict) = obj.downcast::<PyDict>() {
            self.object(obj, dict)?;
        } else {
            let name = obj.get_type().name()?;
            return Err(PyTypeError::new_err(format!(
                "Object of type {name} is not JSON serializable"
            )));
        }
        Ok(())
    }

    /// Enter a list or dict (`json`'s circular-reference check and recursion limit).
    fn enter(&mut self, obj: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = obj.as_ptr() as usize;
        if self.open.contains(&id) {
            return Err(PyValueError::new_err("Circular reference detected"));
        }
        if self.open.len() >= MAX_NESTING {
            return Err(PyRecursionError::new_err(
                "maximum recursion depth exceeded while encoding a JSON object",
            ));
        }
        self.open.push(id);
        Ok(())
    }

    fn array<'py>(
        &mut self,
        obj: &Bound<'py, PyAny>,
        items: impl ExactSizeIterator<Item = Bound<'py, PyAny>>,
    ) -> PyResult<()> {
        if items.len() == 0 {
            self.out.push_str("[]");
            return Ok(());
        }
        self.enter(obj)?;
        self.out.push('[');
        for (i, item) in items.enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.value(&item)?;
        }
        self.out.push(']');
        self.open.pop();
        Ok(())
    }

    fn object(&mut self, obj: &Bound<'_, PyAny>, dict: &Bound<'_, PyDict>) -> PyResult<()> {
        if dict.is_empty() {
            self.out.push_str("{}");
            return Ok(());
        }
        self.enter(obj)?;
        // `json` sorts the (key, value) pairs with Python's ordering: keys of types that do
        // not compare are its TypeError.
        let items = dict.items();
        items.sort()?;
        self.out.push('{');
        for (i, item) in items.iter().enumerate() {
            let (key, value): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
            if i > 0 {
                self.out.push_str(", ");
            }
            if let Ok(s) = key.downcast::<PyString>() {
                self.string(s)?;
            } else if key.is_instance_of::<PyFloat>()
                || key.is_instance_of::<PyBool>()
                || key.is_none()
                || key.is_instance_of::<PyInt>()
            {
                self.out.push('"');
                self.value(&key)?;
                self.out.push('"');
            } else {
                let name = key.get_type().name()?;
                return Err(PyTypeError::new_err(format!(
                    "keys must be str, int, float, bool or None, not {name}"
                )));
            }
            self.out.push_str(": ");
            self.value(&value)?;
        }
        self.out.push('}');
        self.open.pop();
        Ok(())
    }

    fn int(&mut self, i: &Bound<'_, PyInt>) -> PyResult<()> {
        if let Ok(v) = i.extract::<i64>() {
            self.out.push_str(&v.to_string());
        } else if let Ok(v) = i.extract::<u64>() {
            self.out.push_str(&v.to_string());
        } else {
            // `int.__repr__`, as `json` writes an int (and refuses one too long for text)
            let repr = i
                .py()
                .get_type::<PyInt>()
                .getattr("__repr__")?
                .call1((i,))?;
            self.out.push_str(&repr.downcast::<PyString>()?.to_cow()?);
        }
        Ok(())
    }

    fn float(&mut self, py: Python<'_>, v: f64) -> PyResult<()> {
        if v.is_nan() {
            self.out.push_str("NaN");
        } else if v.is_infinite() {
            self.out
                .push_str(if v > 0.0 { "Infinity" } else { "-Infinity" });
        } else {
            // `float.__repr__`, the shortest text that reads back as `v`
            self.out.push_str(&PyFloat::new(py, v).repr()?.to_cow()?);
        }
        Ok(())
    }

    /// A string in double quotes, escaped as `json`'s ASCII output does.
    fn string(&mut self, s: &Bound<'_, PyString>) -> PyResult<()> {
        self.out.push('"');
        match s.to_cow() {
            Ok(text) => text.chars().for_each(|c| self.char(c as u32)),
            // lone surrogates, which UTF-8 cannot hold: `json` writes them escaped
            Err(_) => {
                let units = s.call_method1("encode", ("utf-16-le", "surrogatepass"))?;
                for unit in units.downcast::<PyBytes>()?.as_bytes().chunks_exact(2) {
                    match u16::from_le_bytes([unit[0], unit[1]]) {
                        u @ 0xd800..=0xdfff => self.hex(u),
                        u => self.char(u32::from(u)),
                    }
                }
            }
        }
        self.out.push('"');
        Ok(())
    }

    fn char(&mut self, c: u32) {
        match c {
            0x22 => self.out.push_str("\\\""),
            0x5c => self.out.push_str("\\\\"),
            0x0a => self.out.push_str("\\n"),
            0x0d => self.out.push_str("\\r"),
            0x09 => self.out.push_str("\\t"),
            0x08 => self.out.push_str("\\b"),
            0x0c => self.out.push_str("\\f"),
            0x20..=0x7e => self.out.push(c as u8 as char),
            0x10000.. => {
                let v = c - 0x10000;
                self.hex(0xd800 | (v >> 10) as u16);
                self.hex(0xdc00 | (v & 0x3ff) as u16);
            }
            _ => self.hex(c as u16),
        }
    }

    /// One UTF-16 unit as `\uXXXX`.
    fn hex(&mut self, unit: u16) {
        self.out.push_str(&format!("\\u{unit:04x}"));
    }
}

/// TOML text as the objects `tomllib.loads` makes of it (tables as dicts in the order
/// their keys are written, dates and times as `datetime` objects, which a run refuses as
/// not plain data). A syntax error is a ValueError ending "(at line L, column C)".
pub fn from_toml(py: Python<'_>, text: &str) -> PyResult<PyObject> {
    PyValue(py)
        .deserialize(toml::Deserializer::new(text))
        .map_err(|e| {
            // one line (the crate's message may put what it expected on a line of its own)
            let message = match e.message().trim() {
                "" => "invalid value".to_string(),
                m => m.replace('\n', ": "),
            };
            let Some(span) = e.span() else {
                return PyValueError::new_err(message);
            };
            // the line and column where the error is; at the end of the text, where the text
            // ends, trailing blank lines aside (`parse_toml`'s rule before the core read TOML)
            let content = text.trim_end();
            let (at, end) = if span.start >= content.len() {
                (content.len(), ": the end of the text")
            } else {
                (span.start, "")
            };
            let before = &text[..at];
            let line = before.matches('\n').count() + 1;
            if message == "recursion limit exceeded" {
                // arrays or inline tables nested deeper than the crate reads (a scenario's
                // own limit, 32 levels, is checked on the dict: `check_depth`)
                return PyValueError::new_err(format!(
                    "arrays or inline tables nested too deeply near line {line}; a \
                     scenario's deepest keys are a few levels down"
                ));
            }
            let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
            PyValueError::new_err(format!("{message} (at line {line}, column {column}{end})"))
        })
}

/// The field under which the `toml` crate hands a date or time to a visitor
/// (`toml_datetime::__unstable::FIELD`).
const TOML_DATETIME: &str = "$__toml_private_datetime";

/// A Python object made from TOML's data (tables, arrays, strings, integers, floats,
/// booleans, dates and times).
struct PyValue<'py>(Python<'py>);

impl<'de> DeserializeSeed<'de> for PyValue<'_> {
    type Value = PyObject;
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<PyObject, D::Error> {
        de.deserialize_any(self)
    }
}

fn failed<E: serde::de::Error>(e: PyErr) -> E {
    E::custom(e)
}

impl<'de> Visitor<'de> for PyValue<'_> {
    type Value = PyObject;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("plain data")
    }
    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<PyObject, E> {
        Ok(PyBool::new(self.0, v).to_owned().into_any().unbind())
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<PyObject, E> {
        let Ok(int) = v.into_pyobject(self.0);
        Ok(int.into_any().unbind())
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<PyObject, E> {
        Ok(PyFloat::new(self.0, v).into_any().unbind())
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<PyObject, E> {
        Ok(PyString::new(self.0, v).into_any().unbind())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<PyObject, A::Error> {
        let list = PyList::empty(self.0);
        while let Some(item) = seq.next_element_seed(PyValue(self.0))? {
            list.append(item).map_err(failed)?;
        }
        Ok(list.into_any().unbind())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PyObject, A::Error> {
        let dict = PyDict::new(self.0);
        while let Some(key) = map.next_key::<String>()? {
            if key == TOML_DATETIME {
                return datetime(self.0, &map.next_value::<String>()?).map_err(failed);
            }
            let value = map.next_value_seed(PyValue(self.0))?;
            dict.set_item(key, value).map_err(failed)?;
        }
        Ok(dict.into_any().unbind())
    }
}

/// A TOML date, time or date-time (its RFC 3339 text) as `tomllib` gives it: a
/// `datetime.date`, `datetime.time` or `datetime.datetime`.
fn datetime(py: Python<'_>, text: &str) -> PyResult<PyObject> {
    let kind = match (text.contains('-'), text.contains(':')) {
        (true, false) => "date",
        (false, true) => "time",
        _ => "datetime",
    };
    let class = py.import("datetime")?.getattr(kind)?;
    Ok(class.call_method1("fromisoformat", (text,))?.unbind())
}

/// An answer as the objects `json.loads` makes of the JSON text `serde_json` writes of it
/// (structs and maps as dicts in their order, sequences and tuples as lists, integers as
/// ints, floats as floats with NaN and the infinities as None, as `serde_json` writes
/// them null; enums as `serde_json` writes them), without the text.
pub fn to_python<T: Serialize + ?Sized>(py: Python<'_>, answer: &T) -> PyResult<PyObject> {
    answer.serialize(PySer(py)).map_err(|e| e.0)
}

/// A Python error as serde's.
#[derive(Debug)]
pub struct SerError(PyErr);

impl fmt::Display for SerError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for SerError {}

impl serde::ser::Error for SerError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        SerError(PyValueError::new_err(msg.to_string()))
    }
}

impl From<PyErr> for SerError {
    fn from(e: PyErr) -> Self {
        SerError(e)
    }
}

type Made = Result<PyObject, SerError>;

#[derive(Clone, Copy)]
struct PySer<'py>(Python<'py>);

impl<'py> PySer<'py> {
    fn int(self, v: impl IntoPyObject<'py>) -> Made {
        Ok(v.into_pyobject(self.0)
            .map_err(Into::into)?
            .into_any()
            .unbind())
    }
    /// `{variant: value}`, as `serde_json` writes an enum's variant with data.
    fn variant(self, variant: &str, value: PyObject) -> Made {
        let dict = PyDict::new(self.0);
        dict.set_item(variant, value)?;
        Ok(dict.into_any().unbind())
    }
}

/// A list being filled (a sequence, a tuple; inside `{variant: [...]}` for a tuple variant).
struct ListSer<'py> {
    py: Python<'py>,
    list: Bound<'py, PyList>,
    variant: Option<&'static str>,
}

/// A dict being filled (a map, a struct; inside `{variant: {...}}` for a struct variant).
struct DictSer<'py> {
    py: Python<'py>,
    dict: Bound<'py, PyDict>,
    key: Option<PyObject>,
    variant: Option<&'static str>,
}

impl<'py> ListSer<'py> {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        Ok(self.list.append(value.serialize(PySer(self.py))?)?)
    }
    fn done(self) -> Made {
        let list = self.list.into_any().unbind();
        match self.variant {
            Some(v) => PySer(self.py).variant(v, list),
            None => Ok(list),
        }
    }
}

impl<'py> DictSer<'py> {
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), SerError> {
        Ok(self.dict.set_item(key, value.serialize(PySer(self.py))?)?)
    }
    fn done(self) -> Made {
        let dict = self.dict.into_any().unbind();
        match self.variant {
            Some(v) => PySer(self.py).variant(v, dict),
            None => Ok(dict),
        }
    }
}

impl<'py> serde::Serializer for PySer<'py> {
    type Ok = PyObject;
    type Error = SerError;
    type SerializeSeq = ListSer<'py>;
    type SerializeTuple = ListSer<'py>;
    type SerializeTupleStruct = ListSer<'py>;
    type SerializeTupleVariant = ListSer<'py>;
    type SerializeMap = DictSer<'py>;
    type SerializeStruct = DictSer<'py>;
    type SerializeStructVariant = DictSer<'py>;

    fn serialize_bool(self, v: bool) -> Made {
        Ok(PyBool::new(self.0, v).to_owned().into_any().unbind())
    }
    fn serialize_i8(self, v: i8) -> Made {
        self.int(v)
    }
    fn serialize_i16(self, v: i16) -> Made {
        self.int(v)
    }
    fn serialize_i32(self, v: i32) -> Made {
        self.int(v)
    }
    fn serialize_i64(self, v: i64) -> Made {
        self.int(v)
    }
    fn serialize_i128(self, v: i128) -> Made {
        self.int(v)
    }
    fn serialize_u8(self, v: u8) -> Made {
        self.int(v)
    }
    fn serialize_u16(self, v: u16) -> Made {
        self.int(v)
    }
    fn serialize_u32(self, v: u32) -> Made {
        self.int(v)
    }
    fn serialize_u64(self, v: u64) -> Made {
        self.int(v)
    }
    fn serialize_u128(self, v: u128) -> Made {
        self.int(v)
    }
    fn serialize_f32(self, v: f32) -> Made {
        // `serde_json` writes an f32's shortest text, which Python reads as the nearest f64
        let text = v.to_string();
        self.serialize_f64(text.parse().unwrap_or(f64::from(v)))
    }
    fn serialize_f64(self, v: f64) -> Made {
        if v.is_finite() {
            Ok(PyFloat::new(self.0, v).into_any().unbind())
        } else {
            Ok(self.0.None())
        }
    }
    fn serialize_char(self, v: char) -> Made {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Made {
        Ok(PyString::new(self.0, v).into_any().unbind())
    }
    fn serialize_bytes(self, v: &[u8]) -> Made {
        let mut list = ListSer {
            py: self.0,
            list: PyList::empty(self.0),
            variant: None,
        };
        v.iter().try_for_each(|b| list.push(b))?;
        list.done()
    }
    fn serialize_none(self) -> Made {
        Ok(self.0.None())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Made {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Made {
        Ok(self.0.None())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Made {
        Ok(self.0.None())
    }
    fn serialize_unit_variant(self, _name: &'static str, _i: u32, variant: &'static str) -> Made {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Made {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        value: &T,
    ) -> Made {
        self.variant(variant, value.serialize(self)?)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<ListSer<'py>, SerError> {
        Ok(ListSer {
            py: self.0,
            list: PyList::empty(self.0),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<ListSer<'py>, SerError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<ListSer<'py>, SerError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<ListSer<'py>, SerError> {
        Ok(ListSer {
            py: self.0,
            list: PyList::empty(self.0),
            variant: Some(variant),
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<DictSer<'py>, SerError> {
        Ok(DictSer {
            py: self.0,
            dict: PyDict::new(self.0),
            key: None,
            variant: None,
        })
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<DictSer<'py>, SerError> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<DictSer<'py>, SerError> {
        Ok(DictSer {
            py: self.0,
            dict: PyDict::new(self.0),
            key: None,
            variant: Some(variant),
        })
    }
}

// The four sequence forms serde has all become a list, as `json.loads` gave them.
macro_rules! list_forms {
    ($($form:ident::$method:ident),*) => {$(
        impl serde::ser::$form for ListSer<'_> {
            type Ok = PyObject;
            type Error = SerError;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
                self.push(value)
            }
            fn end(self) -> Made {
                self.done()
            }
        }
    )*};
}
list_forms!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl serde::ser::SerializeMap for DictSer<'_> {
    type Ok = PyObject;
    type Error = SerError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), SerError> {
        // `serde_json` writes a map's key as a string: a number as its digits
        let key = key.serialize(PySer(self.py))?.into_bound(self.py);
        let key = if key.is_instance_of::<PyString>() {
            key
        } else {
            key.str()?.into_any()
        };
        self.key = Some(key.unbind());
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        let key = self.key.take().expect("serde gives a key before its value");
        Ok(self.dict.set_item(key, value.serialize(PySer(self.py))?)?)
    }
    fn end(self) -> Made {
        self.done()
    }
}

// A struct and a struct variant's fields both become a dict's items.
macro_rules! struct_forms {
    ($($form:ident),*) => {$(
        impl serde::ser::$form for DictSer<'_> {
            type Ok = PyObject;
            type Error = SerError;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), SerError> {
                self.field(key, value)
            }
            fn end(self) -> Made {
                self.done()
            }
        }
    )*};
}
struct_forms!(SerializeStruct, SerializeStructVariant);
