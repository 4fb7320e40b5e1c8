//! The one bridge between Python data and the core's serde types: settlements, records,
//! profiles, analyses and simulations go out as plain Python objects, and records and
//! operator overrides come in, through Python's json module (each is small and crosses once
//! per round or per report).

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::unwritable;

/// A serde value as Python objects (dicts, lists, numbers, strings).
pub(crate) fn to_python<'py, T: serde::Serialize>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value).map_err(|e| unwritable(&e))?;
    py.import("json")?.getattr("loads")?.call1((text,))
}

/// Python data as JSON text for the core to parse: a string is taken as that text already.
pub(crate) fn json_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    match value.cast::<PyString>() {
        Ok(text) => Ok(text.to_string()),
        Err(_) => value.py().import("json")?.getattr("dumps")?.call1((value,))?.extract(),
    }
}
