//! Python bindings of wlansim-core: a scenario dict in, the results out as Python objects
//! (through the canonical JSON text the core reads and writes: `pyvalue.rs`), and TOML
//! text parsed into a dict. No model logic here. Every error becomes a Python exception;
//! a Rust panic is caught and reported as a RuntimeError instead of unwinding into Python.
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use wlansim_core::{simulate_with, Scenario, SimError};

mod pyvalue;

/// Run `f` with the GIL released, turning a panic into a RuntimeError.
fn guarded<T: Send>(py: Python<'_>, f: impl FnOnce() -> PyResult<T> + Send) -> PyResult<T> {
    py.allow_threads(|| {
        catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            Err(PyRuntimeError::new_err(format!(
                "internal error in the simulator (please report): {msg}"
            )))
        })
    })
}

fn parse(scenario_json: &str) -> PyResult<Scenario> {
    Scenario::from_json(scenario_json).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Simulate a scenario (a dict); returns the results (dicts and lists).
///
/// Every few milliseconds of work the run checks for signals (Ctrl-C raises
/// KeyboardInterrupt) and calls `progress(fraction_of_simulated_time_done)` when given;
/// an exception raised by `progress` stops the run and propagates.
#[pyfunction]
#[pyo3(signature = (scenario, seed=None, progress=None))]
fn run(
    py: Python<'_>,
    scenario: &Bound<'_, PyAny>,
    seed: Option<u64>,
    progress: Option<PyObject>,
) -> PyResult<PyObject> {
    let scenario_json = pyvalue::scenario_text(scenario)?;
    let answer = guarded(py, move || {
        let scenario = parse(&scenario_json)?;
        let mut stopped: Option<PyErr> = None;
        let mut hook = |fraction: f64| {
            Python::with_gil(|py| {
                let outcome = py.check_signals().and_then(|()| match &progress {
                    Some(callback) => callback.call1(py, (fraction,)).map(drop),
                    None => Ok(()),
                });
                match outcome {
                    Ok(()) => true,
                    Err(e) => {
                        stopped = Some(e);
                        false
                    }
                }
            })
        };
        match simulate_with(&scenario, seed, &mut hook) {
            Ok(results) => Ok(results),
            Err(SimError::Scenario(e)) => Err(PyValueError::new_err(e.to_string())),
            Err(SimError::Interrupted) => {
                Err(stopped.unwrap_or_else(|| PyRuntimeError::new_err("the run was interrupted")))
            }
            Err(e @ SimError::Invariant(_)) => Err(PyRuntimeError::new_err(e.to_string())),
        }
    })?;
    pyvalue::to_python(py, &answer)
}

/// The nodes `wlansim emulate` makes real hosts (a list of dicts: id, name, group, index,
/// role, ip, device).
#[pyfunction]
fn emulated_nodes(py: Python<'_>, scenario: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let scenario_json = pyvalue::scenario_text(scenario)?;
    let answer = guarded(py, move || {
        let scenario = parse(&scenario_json)?;
        scenario
            .validate()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let nodes = wlansim_core::emulation::emulated_nodes(&scenario)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(nodes)
    })?;
    pyvalue::to_python(py, &answer)
}

/// Emulate a scenario in real time (Linux, as root): create a TUN device for each
/// emulated node in the network namespace `netns_dir/PREFIX<node>`, call `ready()` (the
/// caller configures the devices), then run, calling `progress(simulated_seconds, False)`
/// about every 20 ms: it returns False to end the run (the applications are done) or
/// raises to stop it; `progress(t, True)` comes last, the devices still there. Returns a
/// dict: {"results": ..., "realtime": ...}.
#[pyfunction]
#[pyo3(signature = (scenario, netns_dir, prefix, ready, progress, seed=None))]
fn emulate(
    py: Python<'_>,
    scenario: &Bound<'_, PyAny>,
    netns_dir: String,
    prefix: String,
    ready: PyObject,
    progress: PyObject,
    seed: Option<u64>,
) -> PyResult<PyObject> {
    let scenario_json = pyvalue::scenario_text(scenario)?;
    #[cfg(target_os = "linux")]
    {
        use wlansim_core::emulation::{EmulationError, Emulator};
        let answer = guarded(py, move || {
            let scenario = parse(&scenario_json)?;
            let failed = |e: EmulationError| match e {
                EmulationError::Scenario(e) => PyValueError::new_err(e.to_string()),
                e => PyRuntimeError::new_err(e.to_string()),
            };
            let emulator =
                Emulator::new(&scenario, seed, netns_dir.as_ref(), &prefix).map_err(failed)?;
            Python::with_gil(|py| ready.call0(py).map(drop))?;
            let mut stopped: Option<PyErr> = None;
            let mut hook = |t: f64, last: bool| {
                Python::with_gil(|py| {
                    let outcome = py
                        .check_signals()
                        .and_then(|()| progress.call1(py, (t, last)))
                        .and_then(|r| r.is_truthy(py));
                    outcome.map_err(|e| stopped = Some(e))
                })
            };
            match emulator.run(&mut hook) {
                Ok(answer) => Ok(answer),
                Err(EmulationError::Interrupted) => Err(stopped
                    .unwrap_or_else(|| PyRuntimeError::new_err("the emulation was interrupted"))),
                Err(e) => Err(failed(e)),
            }
        })?;
        let (results, realtime) = answer;
        let dict = pyo3::types::PyDict::new(py);
        dict.set_item("results", pyvalue::to_python(py, &results)?)?;
        dict.set_item("realtime", pyvalue::to_python(py, &realtime)?)?;
        Ok(dict.into_any().unbind())
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (py, scenario_json, netns_dir, prefix, ready, progress, seed);
        Err(PyRuntimeError::new_err(
            "emulation needs Linux (network namespaces and TUN devices)",
        ))
    }
}

/// The JSON Schema of scenario files (JSON text).
#[pyfunction]
fn schema() -> String {
    serde_json::to_string_pretty(&wlansim_core::scenario::schema::json_schema())
        .expect("the schema serialises")
}

/// Validate a scenario (a dict) and return it with every default written out (a dict).
#[pyfunction]
fn resolve(py: Python<'_>, scenario: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let scenario_json = pyvalue::scenario_text(scenario)?;
    let answer = guarded(py, move || Ok(parse(&scenario_json)?.resolved()))?;
    pyvalue::to_python(py, &answer)
}

/// PHY timing of a scenario's `[phy]` table (given inside a minimal scenario, a dict) on
/// its first station group's link, for a UDP payload of `payload_bytes`; returns a dict.
#[pyfunction]
fn phy_timing(
    py: Python<'_>,
    scenario: &Bound<'_, PyAny>,
    payload_bytes: u32,
) -> PyResult<PyObject> {
    let scenario_json = pyvalue::scenario_text(scenario)?;
    let answer = guarded(py, move || Ok(parse(&scenario_json)?.timing(payload_bytes)))?;
    pyvalue::to_python(py, &answer)
}

/// TOML text as a dict, as `tomllib.loads` reads it (dates and times as `datetime`
/// objects); a syntax error is a ValueError ending "(at line L, column C)".
#[pyfunction]
fn parse_toml(py: Python<'_>, text: &str) -> PyResult<PyObject> {
    pyvalue::from_toml(py, text)
}

/// A quantity written as the scenario writes it, through the scenario's own parser:
/// `kind` is "duration" (returns seconds), "rate" (b/s), "size" (bytes) or "power"
/// (watts; "dBm", "mW" or "W"). A bad value is a ValueError saying what is allowed.
#[pyfunction]
fn parse_quantity(kind: &str, text: &str) -> PyResult<f64> {
    use wlansim_core::scenario::{Bytes, Duration, Power, Rate};
    let value = match kind {
        "duration" => Duration::parse(text).map(|d| d.0 as f64 / 1e9),
        "rate" => Rate::parse(text).map(|r| r.0 as f64),
        "size" => Bytes::parse(text).map(|b| b.0 as f64),
        "power" => Power::parse(text).map(|p| p.0),
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown kind of quantity {kind:?}: duration, rate, size or power"
            )))
        }
    };
    value.map_err(PyValueError::new_err)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(parse_quantity, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(phy_timing, m)?)?;
    m.add_function(wrap_pyfunction!(parse_toml, m)?)?;
    m.add_function(wrap_pyfunction!(emulated_nodes, m)?)?;
    m.add_function(wrap_pyfunction!(emulate, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("BUILD", wlansim_core::BUILD)?;
    Ok(())
}
