//! Profiles and rounds for Python: `Profile`, `Round`.

use std::sync::Arc;

use oasis_core::card::Card;
use oasis_core::error::{ProfileError as CoreProfileError, RoundError};
use oasis_core::profile::Money;
use oasis_core::round::{self, Action, LegalAction, Phase, RoundRecord};
use oasis_core::strategy;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyString};

use crate::errors::to_py_err;
use crate::json::{json_text, to_python};
use crate::whole::{bet_refused, whole, ActionAmount, Ante, BoxCount, BoxIndex, Position};
use crate::{names, seed_or_fresh, HandValue};

/// A validated rule profile (RULES.md): load one with `oasis_kiosk.load_profile`.
#[pyclass(frozen, module = "oasis_kiosk._core")]
pub struct Profile(pub Arc<oasis_core::Profile>);

#[pymethods]
impl Profile {
    /// Parses and validates profile TOML; `source` names it in errors; `overrides` (TOML
    /// text, or a table as read from a configuration file) is merged over it first: an
    /// operator's derived profile.
    #[staticmethod]
    #[pyo3(signature = (text, source = "<profile>", overrides = None))]
    fn from_toml(text: &str, source: &str, overrides: Option<&Bound<'_, PyAny>>) -> PyResult<Profile> {
        let profile = match overrides {
            None => oasis_core::Profile::from_toml(text, source, None),
            Some(o) => match o.cast::<PyString>() {
                Ok(o) => oasis_core::Profile::from_toml(text, source, Some(o.to_str()?)),
                Err(_) => {
                    let table: toml::Table = serde_json::from_str(&json_text(o)?)
                        .map_err(|e| to_py_err(CoreProfileError::new(source, "overrides", e.to_string())))?;
                    oasis_core::Profile::from_toml_table(text, source, Some(table))
                }
            },
        };
        profile.map(|p| Profile(Arc::new(p))).map_err(to_py_err)
    }

    #[getter]
    fn id(&self) -> &str {
        &self.0.id
    }

    #[getter]
    fn name(&self) -> &str {
        &self.0.name
    }

    /// A fingerprint of the rules, journaled with every round.
    #[getter]
    fn digest(&self) -> String {
        self.0.digest()
    }

    /// Every ante each of `boxes` boxes may take, lowest first: with several boxes the
    /// profile may ask for a higher minimum.
    #[pyo3(signature = (boxes = BoxCount(1)), text_signature = "($self, boxes=1)")]
    fn allowed_antes(&self, boxes: BoxCount) -> Vec<Money> {
        round::allowed_antes(&self.0, boxes.0)
    }

    /// The antes at which a box's return per ante may be at its least or greatest, lowest
    /// first: the table's least and greatest, each ante with a fee of its own, and the least
    /// ante priced in proportion (the antes a PAR sheet gives figures at).
    fn extreme_antes(&self) -> Vec<Money> {
        round::extreme_antes(&self.0)
    }

    /// The actions a box may be offered in each phase it may be asked in, by the phase's
    /// name, in the order its buttons show them, whatever its cards and the credit
    /// (`Round.legal_actions` says which of them are legal now).
    fn offered_actions(&self) -> Vec<(&'static str, Vec<&'static str>)> {
        round::offered_actions(&self.0)
            .into_iter()
            .map(|(phase, actions)| (phase.name(), actions.into_iter().map(|kind| kind.key()).collect()))
            .collect()
    }

    /// The bonus stake a box takes at this ante when the player switches the bonus on.
    fn standard_bonus_stake(&self, ante: Ante) -> Option<Money> {
        round::standard_bonus_stake(&self.0, ante.0)
    }

    /// Every bonus stake a box may take at this ante, least first; empty without a bonus.
    fn bonus_stakes(&self, ante: Ante) -> Vec<Money> {
        round::bonus_stakes(&self.0, ante.0)
    }

    /// The credit a deal of these bets needs (RULES.md §2.7): every box's ante, bonus stake
    /// and play bet, the play bets of the boxes looked at kept in reserve. `antes` and `bonus`
    /// as for `Round`.
    #[pyo3(signature = (antes, bonus = None))]
    fn deal_needs(&self, antes: &Bound<'_, PyAny>, bonus: Option<&Bound<'_, PyAny>>) -> PyResult<Money> {
        let (antes, bonus) = self.bets(antes, bonus)?;
        Ok(round::deal_needs(&self.0, &antes, &bonus))
    }

    /// What a deal of these bets takes from the credit at once: every ante and bonus stake,
    /// and a blind box's play bet; the other play bets are kept in reserve (`deal_needs`).
    #[pyo3(signature = (antes, bonus = None))]
    fn placed_at_deal(&self, antes: &Bound<'_, PyAny>, bonus: Option<&Bound<'_, PyAny>>) -> PyResult<Money> {
        let (antes, bonus) = self.bets(antes, bonus)?;
        Ok(round::placed_at_deal(&self.0, &antes, &bonus))
    }

    /// Every price a box with this ante meets, in minor units (the help screen's fees).
    fn prices<'py>(&self, py: Python<'py>, ante: Ante) -> PyResult<Bound<'py, PyAny>> {
        let ante = ante.0;
        let prices = round::price_list(&self.0, ante).ok_or_else(|| {
            to_py_err(RoundError::Setup(format!("{} does not allow an ante of {ante}", self.0.id)))
        })?;
        to_python(py, &prices)
    }

    /// The whole profile as plain data (for help screens and reports).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &*self.0)
    }

    fn __repr__(&self) -> String {
        format!("Profile(id='{}', digest='{}')", self.0.id, self.0.digest())
    }
}

impl Profile {
    /// The antes and the bonus stakes per box of bets given as `Round` takes them.
    fn bets(
        &self,
        antes: &Bound<'_, PyAny>,
        bonus: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Vec<Money>, Vec<Money>)> {
        let antes = antes_of(antes)?;
        let bonus = match bonus {
            Some(bonus) => bonus_stakes(&self.0, &antes, bonus)?,
            None => Vec::new(),
        };
        // Priced only for bets a round would take: an ante the table refuses has no price.
        let bonus = round::check_bets(&self.0, &antes, &bonus, None)
            .map_err(|reason| to_py_err(RoundError::Setup(reason)))?;
        Ok((antes, bonus))
    }
}

/// The antes per box from one ante or a sequence of them.
fn antes_of(antes: &Bound<'_, PyAny>) -> PyResult<Vec<Money>> {
    if antes.is_instance_of::<PyInt>() {
        return Ok(vec![whole(antes, "ante", bet_refused)?]);
    }
    Ok(antes.extract::<Vec<Ante>>()?.into_iter().map(|ante| ante.0).collect())
}

/// Bonus stakes per box from `False`/`True`/an amount, or a sequence of those.
fn bonus_stakes(
    profile: &oasis_core::Profile,
    antes: &[Money],
    bonus: &Bound<'_, PyAny>,
) -> PyResult<Vec<Money>> {
    let stake = |item: &Bound<'_, PyAny>, ante: Money| -> PyResult<Money> {
        if let Ok(flag) = item.cast::<pyo3::types::PyBool>() {
            return Ok(match flag.is_true() {
                false => 0,
                true => round::standard_bonus_stake(profile, ante).ok_or_else(|| {
                    to_py_err(RoundError::Setup(format!("{} has no bonus bet", profile.id)))
                })?,
            });
        }
        whole(item, "bonus stake", bet_refused)
    };
    match bonus.try_iter() {
        Ok(items) => {
            let items: Vec<Bound<'_, PyAny>> = items.collect::<PyResult<_>>()?;
            if items.len() != antes.len() {
                return Err(to_py_err(RoundError::Setup(format!(
                    "{} bonus stakes for {} boxes",
                    items.len(),
                    antes.len()
                ))));
            }
            items.iter().zip(antes).map(|(item, &ante)| stake(item, ante)).collect()
        }
        Err(_) => antes.iter().map(|&ante| stake(bonus, ante)).collect(),
    }
}

/// One decision a box may take and its expected value (see `Round.advice`).
#[pyclass(frozen, module = "oasis_kiosk._core")]
pub struct Choice {
    action: Action,
    ev: f64,
    exact: bool,
}

#[pymethods]
impl Choice {
    /// The action's name, as `Round.legal_actions` names it: "fold", "play", "exchange", ...
    #[getter]
    fn action(&self) -> &'static str {
        self.action.kind().key()
    }

    /// The positions to exchange (0 to 4), for an exchange.
    #[getter]
    fn positions(&self) -> Option<Vec<usize>> {
        match &self.action {
            Action::Exchange { positions, .. } => Some(positions.clone()),
            _ => None,
        }
    }

    /// The amount to insure, for insurance.
    #[getter]
    fn amount(&self) -> Option<Money> {
        match self.action {
            Action::Insure { amount, .. } => Some(amount),
            _ => None,
        }
    }

    /// The box's expected net at settlement after this choice and the best ones after it, in
    /// minor units (a fold is worth minus the ante, and the bonus stake it loses).
    #[getter]
    fn ev(&self) -> f64 {
        self.ev
    }

    /// False when some replacement cards or dealer hands were sampled, not all counted.
    #[getter]
    fn exact(&self) -> bool {
        self.exact
    }

    fn __repr__(&self) -> String {
        let detail = match &self.action {
            Action::Exchange { positions, .. } => format!(", positions={positions:?}"),
            Action::Insure { amount, .. } => format!(", amount={amount}"),
            _ => String::new(),
        };
        format!("Choice(action='{}'{detail}, ev={:.2}, exact={})", self.action(), self.ev, self.exact)
    }
}

/// Every choice the box may take now with its expected value, and the best of them.
#[pyclass(frozen, module = "oasis_kiosk._core")]
pub struct Advice {
    box_index: usize,
    choices: Vec<Py<Choice>>,
    best: usize,
}

#[pymethods]
impl Advice {
    /// The box advised (0-based).
    #[getter]
    fn box_index(&self) -> usize {
        self.box_index
    }

    /// The choices in the order `Round.legal_actions` lists the actions.
    #[getter]
    fn choices(&self, py: Python<'_>) -> Vec<Py<Choice>> {
        self.choices.iter().map(|c| c.clone_ref(py)).collect()
    }

    /// The choice with the highest expected value (the first listed among equals).
    #[getter]
    fn best(&self, py: Python<'_>) -> Py<Choice> {
        self.choices[self.best].clone_ref(py)
    }

    fn __repr__(&self) -> String {
        format!("Advice(box_index={}, best={})", self.box_index, self.choices[self.best].get().__repr__())
    }
}

/// One round of the game: deal, decide box by box, settle.
#[pyclass(module = "oasis_kiosk._core")]
pub struct Round(round::Round);

impl Round {
    fn current(&self, box_index: Option<usize>) -> PyResult<usize> {
        match (box_index, self.0.phase()) {
            (Some(b), _) => Ok(b),
            (
                None,
                Phase::Decision { box_index }
                | Phase::Insurance { box_index }
                | Phase::Purchase { box_index },
            ) => Ok(box_index),
            (None, Phase::Settled) => Err(to_py_err(RoundError::Illegal("the round is settled".into()))),
        }
    }

    fn act(&mut self, action: Action) -> PyResult<()> {
        self.0.act(action).map_err(to_py_err)
    }
}

#[pymethods]
impl Round {
    /// Deals a round. `antes`: one ante or one per box (minor units). `bonus`: False, True
    /// (the profile's standard stake), an amount, or one of those per box. `seed`: 32 bytes
    /// to replay a deal (default: a fresh seed from the OS). `credit`: the player's credit
    /// before the round, so that the round refuses what it cannot pay for (default: none
    /// kept). `deck`: a stacked deck for tests, top card first (then the rest in code order).
    #[new]
    #[pyo3(signature = (profile, antes, bonus = None, seed = None, credit = None, *, deck = None))]
    fn new(
        py: Python<'_>,
        profile: &Bound<'_, PyAny>,
        antes: &Bound<'_, PyAny>,
        bonus: Option<&Bound<'_, PyAny>>,
        seed: Option<&[u8]>,
        credit: Option<&Bound<'_, PyAny>>,
        deck: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let credit: Option<Money> = credit.map(|credit| whole(credit, "credit", bet_refused)).transpose()?;
        let profile = match profile.cast::<Profile>() {
            Ok(profile) => profile.get().0.clone(),
            Err(_) => {
                let name = profile.cast::<PyString>()?;
                let loaded = py.import("oasis_kiosk.rules")?.getattr("load_profile")?.call1((name,))?;
                loaded.cast::<Profile>()?.get().0.clone()
            }
        };
        let antes = antes_of(antes)?;
        let bonus = match bonus {
            Some(bonus) => bonus_stakes(&profile, &antes, bonus)?,
            None => Vec::new(),
        };
        let round = match deck {
            Some(deck) => {
                if seed.is_some() {
                    return Err(to_py_err(RoundError::Setup(
                        "give a seed or a stacked deck, not both".into(),
                    )));
                }
                let top = stacked_cards(deck)?;
                round::Round::stacked(profile, &antes, &bonus, &top, credit)
            }
            None => round::Round::new(profile, &antes, &bonus, Some(seed_or_fresh(seed)?), credit),
        };
        round.map(Round).map_err(to_py_err)
    }

    /// The profile the round is played under.
    #[getter]
    fn profile(&self) -> Profile {
        Profile(self.0.shared_profile())
    }

    /// "decision", "insurance", "purchase" or "settled".
    #[getter]
    fn phase(&self) -> &'static str {
        self.0.phase().name()
    }

    /// The box whose turn it is (0-based), or None when settled.
    #[getter]
    fn current_box(&self) -> Option<usize> {
        self.current(None).ok()
    }

    #[getter]
    fn box_count(&self) -> usize {
        self.0.box_count()
    }

    /// The antes, one per box.
    #[getter]
    fn antes(&self) -> Vec<Money> {
        self.0.antes()
    }

    /// The player's credit now (None when the round keeps none).
    #[getter]
    fn credit(&self) -> Option<Money> {
        self.0.credit()
    }

    /// Everything paid in so far: stakes, play bets, fees, insurance.
    #[getter]
    fn collected(&self) -> Money {
        self.0.collected()
    }

    /// A box's cards as the player may see them now, or None while hidden.
    fn box_cards(&self, box_index: BoxIndex) -> Option<Vec<String>> {
        self.0.visible_box_cards(box_index.0).map(names)
    }

    /// What stands on a box's bet spots now: {"ante", "play", "bonus", "insurance"} (a
    /// forfeited bonus is 0), or None for a box the round does not have.
    fn stakes<'py>(&self, py: Python<'py>, box_index: BoxIndex) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.0.stakes(box_index.0).map(|stakes| to_python(py, &stakes)).transpose()
    }

    /// The best hand a box holds now, or None while hidden.
    fn hand(&self, box_index: BoxIndex) -> Option<HandValue> {
        self.0.visible_hand(box_index.0).map(HandValue)
    }

    /// The dealer's cards, None for each card still face down.
    #[getter]
    fn dealer_cards(&self) -> Vec<Option<String>> {
        self.0.visible_dealer_cards().into_iter().map(|c| c.map(|c| c.to_string())).collect()
    }

    /// What a box (default: the current one) may do now, with prices:
    /// {"fold": 0, "play": 2000, "exchange": {1: 1000}, "buy_sixth_card": 1000,
    ///  "insure": {"min": 1000, "max": 6000}, "decline": 0, "buy_dealer_card": ..., "buy_game": ...}
    #[pyo3(signature = (box_index = None))]
    fn legal_actions<'py>(
        &self,
        py: Python<'py>,
        box_index: Option<BoxIndex>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let legal = PyDict::new(py);
        let Ok(box_index) = self.current(box_index.map(|index| index.0)) else {
            return Ok(legal);
        };
        for action in self.0.legal_actions(box_index) {
            let key = action.kind().key();
            match action {
                LegalAction::Fold | LegalAction::Decline => legal.set_item(key, 0)?,
                LegalAction::Play { price }
                | LegalAction::BuySixthCard { price }
                | LegalAction::BuyDealerCard { price }
                | LegalAction::BuyGame { price } => legal.set_item(key, price)?,
                LegalAction::Exchange { prices } => {
                    legal.set_item(key, prices.into_iter().collect::<std::collections::BTreeMap<_, _>>())?
                }
                LegalAction::Insure { min, max } => {
                    let range = PyDict::new(py);
                    range.set_item("min", min)?;
                    range.set_item("max", max)?;
                    legal.set_item(key, range)?
                }
            }
        }
        Ok(legal)
    }

    /// The expected value of every choice a box (default: the current one) may take now,
    /// and the best: docs/strategy.md says how. Computed with the GIL released.
    #[pyo3(signature = (box_index = None))]
    fn advice(&self, py: Python<'_>, box_index: Option<BoxIndex>) -> PyResult<Advice> {
        let box_index = self.current(box_index.map(|index| index.0))?;
        let round = &self.0;
        let advice = py.detach(|| strategy::advise(round, box_index)).map_err(to_py_err)?;
        let best = advice.best_index();
        let choices = advice
            .choices
            .into_iter()
            .map(|c| Py::new(py, Choice { action: c.action, ev: c.ev, exact: c.exact }))
            .collect::<PyResult<_>>()?;
        Ok(Advice { box_index, choices, best })
    }

    #[pyo3(signature = (box_index = None))]
    fn fold(&mut self, box_index: Option<BoxIndex>) -> PyResult<()> {
        let box_index = self.current(box_index.map(|index| index.0))?;
        self.act(Action::Fold { box_index })
    }

    #[pyo3(signature = (box_index = None))]
    fn play(&mut self, box_index: Option<BoxIndex>) -> PyResult<()> {
        let box_index = self.current(box_index.map(|index| index.0))?;
        self.act(Action::Play { box_index })
    }

    /// Exchanges the cards at these positions (0 to 4) of the box's hand.
    #[pyo3(signature = (positions, box_index = None))]
    fn exchange(&mut self, positions: Vec<Position>, box_index: Option<BoxIndex>) -> PyResult<()> {
        let box_index = self.current(box_index.map(|index| index.0))?;
        let positions = positions.into_iter().map(|position| position.0).collect();
        self.act(Action::Exchange { box_index, positions })
    }

    #[pyo3(signature = (box_index = None))]
    fn buy_sixth_card(&mut self, box_index: Option<BoxIndex>) -> PyResult<()> {
        let box_index = self.current(box_index.map(|index| index.0))?;
        self.act(Action::BuySixthCard { box_index })
    }

    #[pyo3(signature = (amount, box_index = None))]
    fn insure(&mut self, amount: ActionAmount, box_index: Option<BoxIndex>) -> PyResult<()> {
        let box_index = self.current(box_index.map(|index| index.0))?;
        self.act(Action::Insure { box_index, amount: amount.0 })
    }

    /// Declines insurance, or a purchase after the dealer's reveal.
    #[pyo3(signature = (box_index = None))]
    fn decline(&mut self, box_index: Option<BoxIndex>) -> PyResult<()> {
        let box_index = self.current(box_index.map(|index| index.0))?;
        self.act(Action::Decline { box_index })
    }

    #[pyo3(signature = (box_index = None))]
    fn buy_dealer_card(&mut self, box_index: Option<BoxIndex>) -> PyResult<()> {
        let box_index = self.current(box_index.map(|index| index.0))?;
        self.act(Action::BuyDealerCard { box_index })
    }

    #[pyo3(signature = (box_index = None))]
    fn buy_game(&mut self, box_index: Option<BoxIndex>) -> PyResult<()> {
        let box_index = self.current(box_index.map(|index| index.0))?;
        self.act(Action::BuyGame { box_index })
    }

    /// The settlement as plain data; raises IllegalAction before the round is settled.
    fn settlement<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.0.settlement() {
            Some(settlement) => to_python(py, settlement),
            None => Err(to_py_err(RoundError::Illegal("the round is not settled yet".into()))),
        }
    }

    /// The record that rebuilds this round, as plain data (it round-trips through JSON).
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.0.record())
    }

    /// Rebuilds a round from its record (a dict or its JSON text) under the same profile.
    #[staticmethod]
    fn replay(profile: &Profile, record: &Bound<'_, PyAny>) -> PyResult<Round> {
        let record: RoundRecord = serde_json::from_str(&json_text(record)?)
            .map_err(|e| to_py_err(RoundError::Record(format!("not a round record: {e}"))))?;
        round::Round::replay(profile.0.clone(), &record).map(Round).map_err(to_py_err)
    }

    fn __repr__(&self) -> String {
        format!("Round(profile='{}', phase='{}')", self.0.profile().id, self.phase())
    }
}

fn stacked_cards(deck: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    // A stacked deck may repeat a card on purpose (a misdeal), so no distinctness check.
    match deck.cast::<PyString>() {
        Ok(text) => text
            .to_str()?
            .split(|c: char| c.is_whitespace() || c == ',' || c == '/')
            .filter(|t| !t.is_empty())
            .map(|t| t.parse::<Card>().map_err(to_py_err))
            .collect(),
        Err(_) => deck.try_iter()?.map(|item| crate::card_of(&item?)).collect(),
    }
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Profile>()?;
    module.add_class::<Round>()?;
    module.add_class::<Advice>()?;
    module.add_class::<Choice>()?;
    Ok(())
}
