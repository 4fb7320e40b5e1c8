//! The one place where the core's errors become Python exceptions.
//!
//! Every class derives from `OasisError`, so a caller can catch any refusal of the core in one
//! clause, and keeps the built-in base it has always had (`ValueError` for bad input, `OSError`
//! for the random source), so code that catches those still does. The classes are made at
//! import with `type(name, (base, OasisError), ...)`: a class with two bases is what
//! `create_exception!` cannot make.

use oasis_core::error::{Error, RoundError};
use pyo3::exceptions::{PyException, PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

pyo3::create_exception!(oasis_kiosk._core, OasisError, PyException, "Every error the kiosk reports.");

/// An exception class of the core: its name, its built-in base and what it means.
pub(crate) struct Kind {
    name: &'static str,
    /// The built-in class it also derives from, if any beside `OasisError`.
    base: Option<fn(Python<'_>) -> Bound<'_, PyType>>,
    doc: &'static str,
    class: PyOnceLock<Py<PyType>>,
}

impl Kind {
    const fn new(
        name: &'static str,
        base: Option<fn(Python<'_>) -> Bound<'_, PyType>>,
        doc: &'static str,
    ) -> Kind {
        Kind { name, base, doc, class: PyOnceLock::new() }
    }

    fn class<'py>(&self, py: Python<'py>) -> PyResult<&Bound<'py, PyType>> {
        self.class
            .get_or_try_init(py, || {
                let oasis = py.get_type::<OasisError>();
                let bases = match self.base {
                    Some(base) => PyTuple::new(py, [base(py), oasis])?,
                    None => PyTuple::new(py, [oasis])?,
                };
                let namespace = PyDict::new(py);
                namespace.set_item("__module__", "oasis_kiosk._core")?;
                namespace.set_item("__doc__", self.doc)?;
                let class = py.get_type::<PyType>().call1((self.name, bases, namespace))?;
                Ok(class.cast_into::<PyType>()?.unbind())
            })
            .map(|class| class.bind(py))
    }

    /// This kind of error with a message.
    pub(crate) fn err(&self, message: impl Into<String>) -> PyErr {
        let message = message.into();
        Python::attach(|py| match self.class(py) {
            Ok(class) => PyErr::from_type(class.clone(), message),
            Err(error) => error,
        })
    }
}

fn value_error(py: Python<'_>) -> Bound<'_, PyType> {
    py.get_type::<PyValueError>()
}

fn os_error(py: Python<'_>) -> Bound<'_, PyType> {
    py.get_type::<PyOSError>()
}

pub(crate) static CARD_ERROR: Kind =
    Kind::new("CardError", Some(value_error), "A card, hand or card buffer that is not valid.");
pub(crate) static SHOE_ERROR: Kind =
    Kind::new("ShoeError", Some(value_error), "A seed or a deal the shoe cannot serve.");
pub(crate) static ENTROPY_ERROR: Kind =
    Kind::new("EntropyError", Some(os_error), "The operating system's random source failed.");
pub(crate) static PROFILE_ERROR: Kind =
    Kind::new("ProfileError", Some(value_error), "A rule profile that cannot be loaded.");
pub(crate) static BET_ERROR: Kind =
    Kind::new("BetError", Some(value_error), "Bets or credit that cannot start a round.");
pub(crate) static ILLEGAL_ACTION: Kind =
    Kind::new("IllegalAction", None, "An action the rules do not allow now; the round is unchanged.");
pub(crate) static RECORD_ERROR: Kind =
    Kind::new("RecordError", Some(value_error), "A round record that does not replay.");
pub(crate) static ANALYSIS_ERROR: Kind =
    Kind::new("AnalysisError", Some(value_error), "A profile or ante the exact analysis does not cover.");
pub(crate) static SIMULATION_ERROR: Kind = Kind::new(
    "SimulationError",
    Some(value_error),
    "A simulation that cannot run: no rounds, an ante or a way of playing the profile does not allow.",
);

const KINDS: [&Kind; 9] = [
    &CARD_ERROR,
    &SHOE_ERROR,
    &ENTROPY_ERROR,
    &PROFILE_ERROR,
    &BET_ERROR,
    &ILLEGAL_ACTION,
    &RECORD_ERROR,
    &ANALYSIS_ERROR,
    &SIMULATION_ERROR,
];

/// The Python exception of a core error.
pub(crate) fn to_py_err(error: impl Into<Error>) -> PyErr {
    let error = error.into();
    let kind = match &error {
        Error::Card(_) => &CARD_ERROR,
        Error::Shoe(_) => &SHOE_ERROR,
        Error::Entropy(_) => &ENTROPY_ERROR,
        Error::Profile(_) => &PROFILE_ERROR,
        Error::Round(RoundError::Setup(_)) => &BET_ERROR,
        Error::Round(RoundError::Illegal(_)) => &ILLEGAL_ACTION,
        Error::Round(RoundError::Record(_)) => &RECORD_ERROR,
        Error::Analysis(_) => &ANALYSIS_ERROR,
        Error::Simulation(_) => &SIMULATION_ERROR,
    };
    kind.err(error.to_string())
}

/// A value of the core that serde could not write as JSON for Python: a fault of the core,
/// never of the caller's input, so the base class alone.
pub(crate) fn unwritable(error: &serde_json::Error) -> PyErr {
    OasisError::new_err(format!("the core could not write a value for Python: {error}"))
}

/// An argument of a type the bindings do not read: Python's own `TypeError`, as a built-in
/// function raises, since no rule of the core was asked.
pub(crate) fn wrong_type(message: impl Into<String>) -> PyErr {
    PyTypeError::new_err(message.into())
}

/// A worker thread that ended without sending its result (it panicked): Python's
/// `RuntimeError`, a fault of the bindings rather than a refusal of the core.
pub(crate) fn worker_stopped(what: &str) -> PyErr {
    PyRuntimeError::new_err(format!("the {what} stopped without a result"))
}

pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("OasisError", py.get_type::<OasisError>())?;
    for kind in KINDS {
        module.add(kind.name, kind.class(py)?)?;
    }
    Ok(())
}
