//! Whole numbers from Python as the core takes them. An int that the core's type cannot hold
//! (a negative card position, an ante beyond any money) is refused with the error the call
//! gives for a number it can hold but does not allow, naming the value: Python's own
//! OverflowError is no `OasisError`, and a caller catching those would crash on it.

use oasis_core::error::RoundError;
use oasis_core::profile::Money;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

use crate::errors::to_py_err;

/// `value` as a `T`, or the caller's `refused` error naming `what` when it is an int out of
/// `T`'s range; any other type is pyo3's TypeError, as for every argument, and so is a bool
/// (an int to Python: `exchange([True])` had exchanged the card at position 1).
pub(crate) fn whole<'py, T>(
    value: &Bound<'py, PyAny>,
    what: &str,
    refused: impl FnOnce(String) -> PyErr,
) -> PyResult<T>
where
    T: for<'a> FromPyObject<'a, 'py, Error = PyErr>,
{
    if value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!("{what} is a whole number, not {value}")));
    }
    match value.extract::<T>() {
        Ok(number) => Ok(number),
        Err(_) if value.is_instance_of::<PyInt>() => Err(refused(format!("{what} {value} is out of range"))),
        Err(error) => Err(error),
    }
}

/// A number of a bet out of range, refused as bets the table does not allow: a `BetError`.
pub(crate) fn bet_refused(message: String) -> PyErr {
    to_py_err(RoundError::Setup(message))
}

macro_rules! whole_number {
    ($(#[$doc:meta])* $name:ident($inner:ty), $what:literal, $refusal:path) => {
        $(#[$doc])*
        pub(crate) struct $name(pub $inner);

        impl<'a, 'py> FromPyObject<'a, 'py> for $name {
            type Error = PyErr;

            fn extract(value: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
                whole(&value, $what, |message| to_py_err($refusal(message))).map($name)
            }
        }
    };
}

whole_number!(
    /// A box of a round (0-based): out of range is an `IllegalAction`, as a box the round lacks.
    BoxIndex(usize), "box index", RoundError::Illegal
);
whole_number!(
    /// A card's position in a hand (0 to 4): out of range is an `IllegalAction`.
    Position(usize), "card position", RoundError::Illegal
);
whole_number!(
    /// An amount an action stakes (insurance): out of range is an `IllegalAction`.
    ActionAmount(Money), "amount", RoundError::Illegal
);
whole_number!(
    /// An ante: out of range is a `BetError`, as an ante the table does not allow.
    Ante(Money), "ante", RoundError::Setup
);
whole_number!(
    /// A number of boxes: out of range is a `BetError`.
    BoxCount(usize), "number of boxes", RoundError::Setup
);
