//! `oasis_kiosk._core`: thin Python bindings of `oasis-core`.
//!
//! Nothing here decides a rule: it converts arguments, calls the core and maps the core's
//! errors to Python exceptions in one place (`errors::to_py_err`).

use oasis_core::card::Card;
use oasis_core::error::CardError as CoreCardError;
use oasis_core::eval::{batch_len, evaluator, Category, HandValue as CoreHandValue};
use oasis_core::shuffle::{self, Seed};
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

mod analysis;
mod background;
mod errors;
mod game;
mod json;
mod simulation;
mod whole;

use errors::{to_py_err, wrong_type, CARD_ERROR};

/// The strength of a poker hand: compare two values to compare the hands.
#[pyclass(frozen, eq, ord, hash, module = "oasis_kiosk._core")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct HandValue(pub(crate) CoreHandValue);

#[pymethods]
impl HandValue {
    /// Rebuilds a value from its strength (0..7461).
    #[new]
    fn new(strength: i64) -> PyResult<Self> {
        u16::try_from(strength)
            .ok()
            .and_then(CoreHandValue::from_strength)
            .map(HandValue)
            .ok_or_else(|| CARD_ERROR.err(format!("a hand strength is 0..7461, not {strength}")))
    }

    /// The category's name, e.g. "AceKing".
    #[getter]
    fn category(&self) -> &'static str {
        self.0.category().name()
    }

    /// The strength: 0 (the weakest hand) to 7461 (a royal flush).
    #[getter]
    fn strength(&self) -> u16 {
        self.0.strength()
    }

    fn __int__(&self) -> u16 {
        self.0.strength()
    }

    fn __repr__(&self) -> String {
        format!("HandValue(category='{}', strength={})", self.category(), self.strength())
    }
}

/// Reads one card from a string ("As", "10d") or a code (0..51).
pub(crate) fn card_of(item: &Bound<'_, PyAny>) -> PyResult<Card> {
    if let Ok(text) = item.cast::<PyString>() {
        return text.to_str()?.parse::<Card>().map_err(to_py_err);
    }
    match item.extract::<i64>() {
        Ok(code) => u8::try_from(code)
            .map_err(|_| CoreCardError::BadCode(code))
            .and_then(Card::from_code)
            .map_err(to_py_err),
        Err(_) => Err(wrong_type(format!(
            "a card is a string such as 'As' or a code 0..51, not {}",
            item.get_type().name()?
        ))),
    }
}

/// Reads cards from one string ("As Kd Qh") or a sequence of strings or codes.
fn cards_of(cards: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    if let Ok(text) = cards.cast::<PyString>() {
        return oasis_core::parse_cards(text.to_str()?).map_err(to_py_err);
    }
    let cards = cards
        .try_iter()
        .map_err(|_| wrong_type("cards are a string or a sequence of card strings or codes"))?
        .map(|item| card_of(&item?))
        .collect::<PyResult<Vec<Card>>>()?;
    oasis_core::card::check_distinct(&cards).map_err(to_py_err)?;
    Ok(cards)
}

pub(crate) fn names(cards: &[Card]) -> Vec<String> {
    cards.iter().map(Card::to_string).collect()
}

/// Evaluates a hand of 5, 6 or 7 cards (the best five count).
#[pyfunction]
fn evaluate(cards: &Bound<'_, PyAny>) -> PyResult<HandValue> {
    let cards = cards_of(cards)?;
    evaluator().evaluate(&cards).map(HandValue).map_err(to_py_err)
}

/// Hands copied and evaluated per step of `evaluate_many`: small enough to stay in the
/// cache, large enough that releasing and taking the GIL per step costs nothing.
const HANDS_PER_STEP: usize = 1 << 14;

/// Evaluates a flat buffer of card codes, `hand_size` per hand, with the GIL released.
///
/// Returns an `array('I')` of strengths, or a numpy `uint32` array when given a numpy array.
#[pyfunction]
#[pyo3(signature = (codes, hand_size = 5))]
fn evaluate_many<'py>(codes: &Bound<'py, PyAny>, hand_size: usize) -> PyResult<Bound<'py, PyAny>> {
    let py = codes.py();
    let input = PyBuffer::<u8>::get(codes).map_err(|_| {
        wrong_type(
            "evaluate_many takes a buffer of card codes: bytes, bytearray, array('B') or a numpy uint8 array",
        )
    })?;
    let hands = batch_len(input.item_count(), hand_size).map_err(to_py_err)?;

    let array = py.import("array")?.getattr("array")?.call1(("I", [0u32]))?.mul(hands)?;
    let output = PyBuffer::<u32>::get(&array)?;
    // SAFETY: `array` is new and referenced only here until it is returned, so nothing else
    // reads or writes its memory, which its export in `output` keeps in place.
    let strengths = unsafe { &mut *output.as_slice_ptr().expect("a new array is contiguous").as_ptr() };

    if let Ok(bytes) = codes.cast::<PyBytes>() {
        // bytes cannot change: evaluated in place, all at once.
        let all = bytes.as_bytes();
        py.detach(|| evaluator().evaluate_batch_into(all, hand_size, strengths)).map_err(to_py_err)?;
    } else {
        evaluate_mutable(py, &input, hand_size, strengths)?;
    }
    drop(output);

    if codes.get_type().module()?.to_str()? == "numpy" {
        let numpy = py.import("numpy")?;
        return numpy.getattr("frombuffer")?.call1((array, numpy.getattr("uint32")?));
    }
    Ok(array)
}

/// Evaluates a buffer that other threads may change: each step's codes are copied while
/// the GIL is held, then evaluated with the GIL released.
fn evaluate_mutable(
    py: Python<'_>,
    input: &PyBuffer<u8>,
    hand_size: usize,
    strengths: &mut [u32],
) -> PyResult<()> {
    // A strided view is copied whole once; a contiguous buffer is copied step by step.
    let strided = match input.as_slice_ptr() {
        Some(_) => None,
        None => Some(input.to_vec(py)?),
    };
    let mut step_codes = Vec::with_capacity(HANDS_PER_STEP * hand_size);
    for first in (0..strengths.len()).step_by(HANDS_PER_STEP) {
        let last = (first + HANDS_PER_STEP).min(strengths.len());
        let span = first * hand_size..last * hand_size;
        step_codes.clear();
        match (&strided, input.as_slice_ptr()) {
            (Some(copy), _) => step_codes.extend_from_slice(&copy[span]),
            // SAFETY: the buffer is contiguous and exported (so neither freed nor resized) while
            // `input` lives, and it is read only here, with the GIL held.
            (None, Some(ptr)) => step_codes.extend_from_slice(unsafe { &ptr.as_ref()[span] }),
            (None, None) => unreachable!("contiguity does not change"),
        }
        let out = &mut strengths[first..last];
        py.detach(|| evaluator().evaluate_batch_into(&step_codes, hand_size, out))
            .map_err(|error| to_py_err(renumbered(error, first)))?;
    }
    Ok(())
}

/// An error in a step of a batch, numbered as a hand of the whole batch.
fn renumbered(error: CoreCardError, first: usize) -> CoreCardError {
    match error {
        CoreCardError::InBatch { hand, error } => CoreCardError::InBatch { hand: first + hand, error },
        other => other,
    }
}

pub(crate) fn seed_or_fresh(seed: Option<&[u8]>) -> PyResult<Seed> {
    match seed {
        Some(bytes) => shuffle::seed_from_slice(bytes).map_err(to_py_err),
        None => shuffle::os_seed().map_err(to_py_err),
    }
}

/// A freshly shuffled 52-card deck, first card first; pass a 32-byte seed to replay one.
#[pyfunction]
#[pyo3(signature = (seed = None))]
fn shuffled_deck(seed: Option<&[u8]>) -> PyResult<Vec<String>> {
    Ok(names(&shuffle::shuffled_deck(&seed_or_fresh(seed)?)))
}

/// One round's shoe: a fresh shuffled deck dealt from the top.
#[pyclass(module = "oasis_kiosk._core")]
struct Shoe(shuffle::Shoe);

#[pymethods]
impl Shoe {
    /// Shuffles from the operating system's random source, or replays a 32-byte seed.
    #[new]
    #[pyo3(signature = (seed = None))]
    fn new(seed: Option<&[u8]>) -> PyResult<Self> {
        Ok(Shoe(shuffle::Shoe::new(seed_or_fresh(seed)?)))
    }

    /// The 32-byte seed that shuffled this shoe.
    #[getter]
    fn seed<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.0.seed().expect("a shoe made from Python is always seeded"))
    }

    /// Deals `count` cards, or raises `ShoeError` and deals none if fewer remain.
    #[pyo3(signature = (count = 1))]
    fn deal(&mut self, count: usize) -> PyResult<Vec<String>> {
        self.0.deal(count).map(names).map_err(to_py_err)
    }

    /// Cards left in the shoe.
    #[getter]
    fn remaining(&self) -> usize {
        self.0.remaining()
    }

    /// The cards dealt so far, in order.
    #[getter]
    fn dealt(&self) -> Vec<String> {
        names(self.0.dealt())
    }

    fn __repr__(&self) -> String {
        format!("Shoe(dealt={}, remaining={})", self.0.dealt().len(), self.0.remaining())
    }
}

/// The code 0..51 of a card written as text ("As" is 51).
#[pyfunction]
fn card_code(card: &Bound<'_, PyAny>) -> PyResult<u8> {
    card_of(card).map(Card::code)
}

/// The text of a card ("As") from its code or its text in any accepted spelling.
#[pyfunction]
fn card_name(card: &Bound<'_, PyAny>) -> PyResult<String> {
    card_of(card).map(|c| c.to_string())
}

#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add_class::<HandValue>()?;
    module.add_class::<Shoe>()?;
    module.add_function(wrap_pyfunction!(evaluate, module)?)?;
    module.add_function(wrap_pyfunction!(evaluate_many, module)?)?;
    module.add_function(wrap_pyfunction!(shuffled_deck, module)?)?;
    module.add_function(wrap_pyfunction!(card_code, module)?)?;
    module.add_function(wrap_pyfunction!(card_name, module)?)?;
    errors::register(module)?;
    game::register(module)?;
    analysis::register(module)?;
    simulation::register(module)?;
    let categories: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
    module.add("CATEGORIES", pyo3::types::PyTuple::new(py, categories)?)?;
    module.add("SHIPPED_PROFILES", pyo3::types::PyTuple::new(py, oasis_core::profile::SHIPPED_PROFILES)?)?;
    Ok(())
}
