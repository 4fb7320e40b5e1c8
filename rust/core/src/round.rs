//! One round of Oasis Stud Poker under a rule profile, from the deal to the settlement.
//!
//! The round is a state machine: `phase()` says whose decision it is, `legal_actions()`
//! what may be done and at what price, and each action either applies whole or is refused
//! with [`RoundError::Illegal`] leaving the round unchanged. Every amount is an integer in
//! minor units. A round is rebuilt exactly from its [`RoundRecord`] (the deck's seed, the
//! bets and the actions), which is what the terminal journals.
//!
//! Deal order: five cards to each box in order, then five to the dealer, whose fifth card is
//! the up card. Replacement cards come from the top of the shoe, after a burnt card when the
//! profile burns.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::error::RoundError;
use crate::eval::{evaluator, Category, HandValue};
use crate::profile::{
    BonusKind, Cap, ExchangeRound, JudgedOn, Money, NoQualifyAnte, Profile, Purchase, Ratio, Redraw,
    MAX_AMOUNT,
};
use crate::shuffle::{check_complete_deck, os_seed, Seed, Shoe};

/// Cards in a box or a dealer's hand as dealt.
pub const HAND: usize = 5;

/// Whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The box decides: fold, play, exchange, buy a sixth card.
    Decision {
        #[serde(rename = "box")]
        box_index: usize,
    },
    /// The box that just played may insure its hand.
    Insurance {
        #[serde(rename = "box")]
        box_index: usize,
    },
    /// The dealer did not qualify: the box may buy the dealer's card or the game.
    Purchase {
        #[serde(rename = "box")]
        box_index: usize,
    },
    /// Nothing more to decide: see the settlement.
    Settled,
}

/// What a player does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    Fold {
        #[serde(rename = "box")]
        box_index: usize,
    },
    Play {
        #[serde(rename = "box")]
        box_index: usize,
    },
    /// Exchange the cards at these positions (0-based) of the box's hand.
    Exchange {
        #[serde(rename = "box")]
        box_index: usize,
        positions: Vec<usize>,
    },
    BuySixthCard {
        #[serde(rename = "box")]
        box_index: usize,
    },
    Insure {
        #[serde(rename = "box")]
        box_index: usize,
        amount: Money,
    },
    /// Decline insurance or a purchase after the reveal.
    Decline {
        #[serde(rename = "box")]
        box_index: usize,
    },
    BuyDealerCard {
        #[serde(rename = "box")]
        box_index: usize,
    },
    BuyGame {
        #[serde(rename = "box")]
        box_index: usize,
    },
}

impl Action {
    /// The box the action is for.
    pub fn box_index(&self) -> usize {
        match *self {
            Action::Fold { box_index }
            | Action::Play { box_index }
            | Action::Exchange { box_index, .. }
            | Action::BuySixthCard { box_index }
            | Action::Insure { box_index, .. }
            | Action::Decline { box_index }
            | Action::BuyDealerCard { box_index }
            | Action::BuyGame { box_index } => box_index,
        }
    }
}

/// An action that is legal now, with its price.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum LegalAction {
    Fold,
    Play {
        price: Money,
    },
    /// Fees by number of cards; `remaining` cards are left to draw from.
    Exchange {
        prices: Vec<(usize, Money)>,
    },
    BuySixthCard {
        price: Money,
    },
    /// Any amount from `min` to `max`.
    Insure {
        min: Money,
        max: Money,
    },
    Decline,
    BuyDealerCard {
        price: Money,
    },
    BuyGame {
        price: Money,
    },
}

/// Where the round's deck comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeckSource {
    /// A shuffle from this seed (hexadecimal).
    Seed(String),
    /// A stacked deck for tests and analysis: these cards on top, then the rest in code order.
    Stacked(Vec<String>),
}

/// Everything needed to rebuild a round: journal this.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRecord {
    pub profile: String,
    pub profile_digest: String,
    pub deck: DeckSource,
    pub antes: Vec<Money>,
    pub bonus: Vec<Money>,
    pub credit: Option<Money>,
    pub actions: Vec<Action>,
}

/// One bet's stake and what came back of it at settlement (stake included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct BetResult {
    pub stake: Money,
    pub returned: Money,
}

impl BetResult {
    fn lost(stake: Money) -> BetResult {
        BetResult { stake, returned: 0 }
    }
    fn push(stake: Money) -> BetResult {
        BetResult { stake, returned: stake }
    }
    fn won(stake: Money, win: Money) -> BetResult {
        BetResult { stake, returned: stake + win }
    }
    /// What the bet won (positive) or lost (negative).
    pub fn net(self) -> Money {
        self.returned - self.stake
    }
}

/// How a box's main bets ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Folded,
    DealerNotQualified,
    /// The box bought the dealer's redraw (his card, or the game) and he still did not qualify.
    DealerStillNotQualified,
    Won,
    Lost,
    Push,
    /// Straight flush protection paid half the expected payment.
    Protected,
    /// The round was void: everything returned.
    Void,
}

/// A bonus hand that wins a share of the progressive jackpot; the terminal pays the amount.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct JackpotWin {
    pub category: Category,
    pub share: Ratio,
}

/// One box's settlement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoxSettlement {
    #[serde(rename = "box")]
    pub box_index: usize,
    pub cards: Vec<Card>,
    pub hand: HandValue,
    pub outcome: Outcome,
    pub ante: BetResult,
    pub play: BetResult,
    pub bonus: BetResult,
    pub insurance: BetResult,
    /// Exchange fees, sixth card, the dealer's card, the game: never returned.
    pub fees: Money,
    pub jackpot: Option<JackpotWin>,
    pub net: Money,
}

/// The settlement of a whole round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Settlement {
    pub boxes: Vec<BoxSettlement>,
    pub dealer_cards: Vec<Card>,
    pub dealer_hand: HandValue,
    pub dealer_qualifies: bool,
    /// Why the round is void (every stake returned), if it is.
    pub void: Option<String>,
    /// Everything the player paid in during the round.
    pub collected: Money,
    /// Everything paid back at settlement (stakes returned and wins; not jackpot amounts).
    pub paid: Money,
    pub net: Money,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decision {
    Pending,
    Played,
    Folded,
}

#[derive(Clone, Debug)]
pub(crate) struct BoxState {
    pub(crate) ante: Money,
    pub(crate) bonus_stake: Money,
    pub(crate) bonus_forfeited: bool,
    pub(crate) blind: bool,
    pub(crate) dealt: Vec<Card>,
    pub(crate) cards: Vec<Card>,
    pub(crate) discarded: Vec<Card>,
    pub(crate) exchanges: usize,
    pub(crate) sixth_card: bool,
    pub(crate) decision: Decision,
    pub(crate) play_bet: Money,
    pub(crate) insurance: Money,
    pub(crate) fees: Money,
    /// The box paid for the dealer's redraw after a non-qualifying reveal.
    pub(crate) bought_redraw: bool,
}

impl BoxState {
    pub(crate) fn hand(&self) -> HandValue {
        evaluator().evaluate_unchecked(&self.cards)
    }

    pub(crate) fn has_bonus(&self) -> bool {
        self.bonus_stake > 0 && !self.bonus_forfeited
    }
}

/// The stakes on a box's spots (`Round::stakes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Stakes {
    pub ante: Money,
    pub play: Money,
    pub bonus: Money,
    pub insurance: Money,
}

/// A round in play.
#[derive(Clone, Debug)]
pub struct Round {
    profile: Arc<Profile>,
    deck: DeckSource,
    shoe: Shoe,
    boxes: Vec<BoxState>,
    dealer: Vec<Card>,
    dealer_discarded: Vec<Card>,
    /// The dealer's hand as he revealed it, before any redraw: what insurance and the boxes
    /// that do not buy settle against.
    revealed: Option<HandValue>,
    burnt: Vec<Card>,
    phase: Phase,
    initial_credit: Option<Money>,
    credit: Option<Money>,
    collected: Money,
    actions: Vec<Action>,
    settlement: Option<Settlement>,
}

impl Round {
    /// Deals a round from a fresh operating-system seed, or from `seed` to replay one.
    /// `bonus` holds each box's bonus stake (0 for none; may be empty). `credit` is the
    /// player's credit before the round (None: unlimited, for analysis): the round refuses
    /// stakes and actions it cannot pay for.
    pub fn new(
        profile: Arc<Profile>,
        antes: &[Money],
        bonus: &[Money],
        seed: Option<Seed>,
        credit: Option<Money>,
    ) -> Result<Round, RoundError> {
        let seed = match seed {
            Some(seed) => seed,
            None => os_seed().map_err(|e| RoundError::Setup(e.to_string()))?,
        };
        let deck = DeckSource::Seed(hex(&seed));
        Round::deal(profile, antes, bonus, Shoe::new(seed), deck, credit)
    }

    /// Deals a round from a stacked deck: `top` first, then the other cards in code order.
    pub fn stacked(
        profile: Arc<Profile>,
        antes: &[Money],
        bonus: &[Money],
        top: &[Card],
        credit: Option<Money>,
    ) -> Result<Round, RoundError> {
        let deck = DeckSource::Stacked(top.iter().map(Card::to_string).collect());
        Round::deal(profile, antes, bonus, Shoe::stacked(top), deck, credit)
    }

    /// Rebuilds a round from its record under the same profile.
    pub fn replay(profile: Arc<Profile>, record: &RoundRecord) -> Result<Round, RoundError> {
        let bad = |reason: String| RoundError::Record(reason);
        if record.profile != profile.id || record.profile_digest != profile.digest() {
            return Err(bad(format!(
                "the record was played under profile {} ({}), not {} ({})",
                record.profile,
                record.profile_digest,
                profile.id,
                profile.digest()
            )));
        }
        let mut round = match &record.deck {
            DeckSource::Seed(text) => {
                let seed =
                    unhex(text).ok_or_else(|| bad(format!("{text:?} is not a 32-byte hexadecimal seed")))?;
                Round::new(profile, &record.antes, &record.bonus, Some(seed), record.credit)
            }
            DeckSource::Stacked(names) => {
                let top = names
                    .iter()
                    .map(|name| name.parse::<Card>())
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| bad(e.to_string()))?;
                Round::stacked(profile, &record.antes, &record.bonus, &top, record.credit)
            }
        }
        .map_err(|e| bad(format!("the bets do not deal: {e}")))?;
        for (i, action) in record.actions.iter().enumerate() {
            round.act(action.clone()).map_err(|e| {
                bad(format!(
                    "action {} ({}, box {}) does not replay: {e}",
                    i + 1,
                    action_name(action),
                    action.box_index() + 1
                ))
            })?;
        }
        Ok(round)
    }

    fn deal(
        profile: Arc<Profile>,
        antes: &[Money],
        bonus: &[Money],
        mut shoe: Shoe,
        deck: DeckSource,
        credit: Option<Money>,
    ) -> Result<Round, RoundError> {
        let setup = |reason: String| Err(RoundError::Setup(reason));
        let boxes = &profile.boxes;
        if antes.is_empty() || antes.len() > boxes.max {
            return setup(format!("{} plays 1 to {} boxes, not {}", profile.id, boxes.max, antes.len()));
        }
        if !bonus.is_empty() && bonus.len() != antes.len() {
            return setup(format!("{} bonus stakes for {} boxes", bonus.len(), antes.len()));
        }
        for (i, &ante) in antes.iter().enumerate() {
            let t = &profile.table;
            if !profile.allows_ante(ante) {
                return setup(format!(
                    "box {}: ante {ante} is not allowed: {} to {} in steps of {}",
                    i + 1,
                    t.ante_min,
                    t.ante_max,
                    t.ante_step
                ));
            }
            if antes.len() > 1 && boxes.min_ante_multi.is_some_and(|min| ante < min) {
                return setup(format!(
                    "box {}: with several boxes the ante is at least {}",
                    i + 1,
                    boxes.min_ante_multi.unwrap_or_default()
                ));
            }
        }
        if boxes.identical_antes && antes.iter().any(|&a| a != antes[0]) {
            return setup("every box must have the same ante".into());
        }
        let bonus_stakes: Vec<Money> = if bonus.is_empty() { vec![0; antes.len()] } else { bonus.to_vec() };
        for (i, (&stake, &ante)) in bonus_stakes.iter().zip(antes).enumerate() {
            check_bonus_stake(&profile, ante, stake)
                .map_err(|reason| RoundError::Setup(format!("box {}: {reason}", i + 1)))?;
        }
        let upfront: Money = antes
            .iter()
            .zip(&bonus_stakes)
            .enumerate()
            .map(|(i, (&ante, &stake))| {
                ante + stake + if i >= boxes.looked_at { profile.play_bet(ante) } else { 0 }
            })
            .sum();
        if let Some(credit) = credit {
            if !(0..=MAX_AMOUNT).contains(&credit) {
                return setup(format!("a credit is 0 to {MAX_AMOUNT}, not {credit}"));
            }
            let needs = deal_needs(&profile, antes, &bonus_stakes);
            if credit < needs {
                return setup(format!(
                    "not enough credit to deal: the antes, bonus stakes and play bets need {needs} and the \
                     credit is {credit}"
                ));
            }
        }

        let mut states = Vec::with_capacity(antes.len());
        for (i, (&ante, &bonus_stake)) in antes.iter().zip(&bonus_stakes).enumerate() {
            let dealt = shoe.deal(HAND).map_err(|e| RoundError::Setup(e.to_string()))?.to_vec();
            let blind = i >= boxes.looked_at;
            states.push(BoxState {
                ante,
                bonus_stake,
                bonus_forfeited: false,
                blind,
                cards: dealt.clone(),
                dealt,
                discarded: Vec::new(),
                exchanges: 0,
                sixth_card: false,
                decision: if blind { Decision::Played } else { Decision::Pending },
                play_bet: if blind { profile.play_bet(ante) } else { 0 },
                insurance: 0,
                fees: 0,
                bought_redraw: false,
            });
        }
        let dealer = shoe.deal(HAND).map_err(|e| RoundError::Setup(e.to_string()))?.to_vec();
        Ok(Round {
            profile,
            deck,
            shoe,
            boxes: states,
            dealer,
            dealer_discarded: Vec::new(),
            revealed: None,
            burnt: Vec::new(),
            phase: Phase::Decision { box_index: 0 },
            initial_credit: credit,
            credit: credit.map(|c| c - upfront),
            collected: upfront,
            actions: Vec::new(),
            settlement: None,
        })
    }

    /// The profile the round is played under.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The profile, shared.
    pub fn shared_profile(&self) -> Arc<Profile> {
        Arc::clone(&self.profile)
    }

    /// Whose decision it is.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Number of boxes in play.
    pub fn box_count(&self) -> usize {
        self.boxes.len()
    }

    /// The player's credit now (None: unlimited).
    pub fn credit(&self) -> Option<Money> {
        self.credit
    }

    /// Everything the player has paid in so far.
    pub fn collected(&self) -> Money {
        self.collected
    }

    /// The antes, one per box.
    pub fn antes(&self) -> Vec<Money> {
        self.boxes.iter().map(|b| b.ante).collect()
    }

    /// The cards of a box as the player may see them now: none for a box not yet looked at
    /// (a later box, or a blind box before the reveal).
    pub fn visible_box_cards(&self, box_index: usize) -> Option<&[Card]> {
        let state = self.boxes.get(box_index)?;
        let looked_at = match self.phase {
            Phase::Decision { box_index: current } | Phase::Insurance { box_index: current } => {
                !state.blind && box_index <= current
            }
            Phase::Purchase { .. } | Phase::Settled => true,
        };
        looked_at.then_some(state.cards.as_slice())
    }

    /// The dealer's cards as the player may see them: the up card until the reveal.
    pub fn visible_dealer_cards(&self) -> Vec<Option<Card>> {
        let revealed = matches!(self.phase, Phase::Purchase { .. } | Phase::Settled);
        self.dealer.iter().enumerate().map(|(i, &card)| (revealed || i == HAND - 1).then_some(card)).collect()
    }

    /// What stands on a box's bet spots now: the ante, the play bet (once played, or up
    /// front on a blind box), the bonus stake while it is not forfeited, the insurance. None
    /// for a box the round does not have.
    pub fn stakes(&self, box_index: usize) -> Option<Stakes> {
        let state = self.boxes.get(box_index)?;
        Some(Stakes {
            ante: state.ante,
            play: state.play_bet,
            bonus: if state.has_bonus() { state.bonus_stake } else { 0 },
            insurance: state.insurance,
        })
    }

    /// The best hand a box holds now (for hints and display); None while it is hidden.
    pub fn visible_hand(&self, box_index: usize) -> Option<HandValue> {
        self.visible_box_cards(box_index).map(|_| self.boxes[box_index].hand())
    }

    /// Every card the player has seen now: the cards and discards of the boxes looked at
    /// and the dealer's visible cards. Burnt cards are dealt face down and never seen.
    pub fn seen_cards(&self) -> Vec<Card> {
        let boxes = (0..self.boxes.len()).filter_map(|i| {
            self.visible_box_cards(i).map(|cards| cards.iter().chain(&self.boxes[i].discarded))
        });
        boxes.flatten().copied().chain(self.visible_dealer_cards().into_iter().flatten()).collect()
    }

    pub(crate) fn box_state(&self, box_index: usize) -> &BoxState {
        &self.boxes[box_index]
    }

    /// The dealer's five cards, face down or not.
    pub(crate) fn dealer_cards(&self) -> &[Card] {
        &self.dealer
    }

    pub(crate) fn shoe_remaining(&self) -> usize {
        self.shoe.remaining()
    }

    /// The record that rebuilds this round.
    pub fn record(&self) -> RoundRecord {
        RoundRecord {
            profile: self.profile.id.clone(),
            profile_digest: self.profile.digest(),
            deck: self.deck.clone(),
            antes: self.antes(),
            bonus: self.boxes.iter().map(|b| b.bonus_stake).collect(),
            credit: self.initial_credit,
            actions: self.actions.clone(),
        }
    }

    /// The settlement, once the phase is `Settled`.
    pub fn settlement(&self) -> Option<&Settlement> {
        self.settlement.as_ref()
    }

    /// What the box may do now; empty when it is not the box's turn.
    pub fn legal_actions(&self, box_index: usize) -> Vec<LegalAction> {
        let mut legal = Vec::new();
        match self.phase {
            Phase::Decision { box_index: current } if current == box_index => {
                let state = &self.boxes[box_index];
                if !(state.exchanges > 0 && self.exchange_rules_must_play()) {
                    legal.push(LegalAction::Fold);
                }
                let price = self.profile.play_bet(state.ante);
                if self.affordable(price) {
                    legal.push(LegalAction::Play { price });
                }
                let prices: Vec<(usize, Money)> = (1..=HAND)
                    .filter_map(|n| self.exchange_price(box_index, n).ok().map(|price| (n, price)))
                    .collect();
                if !prices.is_empty() {
                    legal.push(LegalAction::Exchange { prices });
                }
                if let Ok(price) = self.sixth_card_price(box_index) {
                    legal.push(LegalAction::BuySixthCard { price });
                }
            }
            Phase::Insurance { box_index: current } if current == box_index => {
                if let Ok((min, max)) = self.insurance_range(box_index) {
                    legal.push(LegalAction::Insure { min, max });
                }
                legal.push(LegalAction::Decline);
            }
            Phase::Purchase { box_index: current } if current == box_index => {
                if let Some((redraw, _)) = self.profile.dealer_redraw() {
                    if let Ok(price) = self.redraw_price(box_index, redraw) {
                        legal.push(match redraw {
                            Redraw::DealerCard => LegalAction::BuyDealerCard { price },
                            Redraw::Game => LegalAction::BuyGame { price },
                        });
                    }
                }
                legal.push(LegalAction::Decline);
            }
            _ => {}
        }
        legal
    }

    /// Applies an action, or refuses it and changes nothing.
    pub fn act(&mut self, action: Action) -> Result<(), RoundError> {
        let box_index = action.box_index();
        let illegal = |reason: String| Err(RoundError::Illegal(reason));
        if box_index >= self.boxes.len() {
            return illegal(format!("there is no box {} in this round", box_index + 1));
        }
        match (&action, self.phase) {
            (_, Phase::Settled) => return illegal("the round is settled".into()),
            (
                Action::Fold { .. }
                | Action::Play { .. }
                | Action::Exchange { .. }
                | Action::BuySixthCard { .. },
                Phase::Decision { box_index: current },
            )
            | (Action::Insure { .. } | Action::Decline { .. }, Phase::Insurance { box_index: current })
            | (
                Action::BuyDealerCard { .. } | Action::BuyGame { .. } | Action::Decline { .. },
                Phase::Purchase { box_index: current },
            ) => {
                if current != box_index {
                    return illegal(format!("it is box {}'s turn, not box {}'s", current + 1, box_index + 1));
                }
            }
            (_, phase) => {
                return illegal(format!(
                    "{} is not possible now: {}",
                    action_name(&action),
                    phase_text(phase)
                ))
            }
        }
        match &action {
            Action::Fold { .. } => {
                if self.boxes[box_index].exchanges > 0 && self.exchange_rules_must_play() {
                    return illegal("after an exchange the play bet is compulsory".into());
                }
                self.boxes[box_index].decision = Decision::Folded;
                self.next_box(box_index);
            }
            Action::Play { .. } => {
                let price = self.profile.play_bet(self.boxes[box_index].ante);
                self.check_affordable(price)?;
                self.pay(price);
                let state = &mut self.boxes[box_index];
                state.play_bet = price;
                state.decision = Decision::Played;
                if self.insurance_range(box_index).is_ok() {
                    self.phase = Phase::Insurance { box_index };
                } else {
                    self.next_box(box_index);
                }
            }
            Action::Exchange { positions, .. } => {
                let price = self.exchange_price(box_index, positions.len()).map_err(RoundError::Illegal)?;
                let mut sorted = positions.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if sorted.len() != positions.len()
                    || sorted.iter().any(|&p| p >= self.boxes[box_index].cards.len())
                {
                    return illegal(format!(
                        "positions {positions:?} are not distinct positions 0 to 4 of the hand"
                    ));
                }
                self.pay(price);
                if self.burns() {
                    let burnt = self.draw(1);
                    self.burnt.extend(burnt);
                }
                let replacements = self.draw(sorted.len());
                let forfeits = self.profile.exchange.as_ref().is_some_and(|e| e.forfeits_bonus);
                let state = &mut self.boxes[box_index];
                for (&position, card) in sorted.iter().zip(replacements) {
                    state.discarded.push(std::mem::replace(&mut state.cards[position], card));
                }
                state.exchanges += 1;
                state.fees += price;
                state.bonus_forfeited |= forfeits;
            }
            Action::BuySixthCard { .. } => {
                let price = self.sixth_card_price(box_index).map_err(RoundError::Illegal)?;
                self.pay(price);
                let card = self.draw(1);
                let state = &mut self.boxes[box_index];
                state.cards.extend(card);
                state.sixth_card = true;
                state.fees += price;
            }
            Action::Insure { amount, .. } => {
                let (min, max) = self.insurance_range(box_index).map_err(RoundError::Illegal)?;
                if !(min..=max).contains(amount) {
                    return illegal(format!("insurance is {min} to {max}, not {amount}"));
                }
                self.pay(*amount);
                self.boxes[box_index].insurance = *amount;
                self.next_box(box_index);
            }
            Action::Decline { .. } => match self.phase {
                Phase::Insurance { .. } => self.next_box(box_index),
                _ => self.next_purchase(box_index),
            },
            Action::BuyDealerCard { .. } | Action::BuyGame { .. } => {
                let asked = match action {
                    Action::BuyGame { .. } => Redraw::Game,
                    _ => Redraw::DealerCard,
                };
                let price = self.redraw_price(box_index, asked).map_err(RoundError::Illegal)?;
                self.pay(price);
                let state = &mut self.boxes[box_index];
                state.bought_redraw = true;
                state.fees += price;
                self.next_purchase(box_index);
            }
        }
        self.actions.push(action);
        Ok(())
    }

    fn exchange_rules_must_play(&self) -> bool {
        self.profile.exchange.as_ref().is_some_and(|e| e.must_play_after)
    }

    fn affordable(&self, price: Money) -> bool {
        self.credit.is_none_or(|credit| credit >= price)
    }

    fn check_affordable(&self, price: Money) -> Result<(), RoundError> {
        match self.credit {
            Some(credit) if credit < price => {
                Err(RoundError::Illegal(format!("that costs {price} and the credit is {credit}")))
            }
            _ => Ok(()),
        }
    }

    fn pay(&mut self, amount: Money) {
        if let Some(credit) = &mut self.credit {
            *credit -= amount;
        }
        self.collected += amount;
    }

    /// Deals from the shoe; callers have checked that enough cards remain.
    fn draw(&mut self, n: usize) -> Vec<Card> {
        self.shoe.deal(n).expect("checked before drawing").to_vec()
    }

    fn exchange_price(&self, box_index: usize, count: usize) -> Result<Money, String> {
        let Some(exchange) = &self.profile.exchange else {
            return Err(format!("{} has no card exchange", self.profile.id));
        };
        let state = &self.boxes[box_index];
        if state.sixth_card {
            return Err("a box that bought a sixth card cannot also exchange".into());
        }
        let Some(round) = exchange.rounds.get(state.exchanges) else {
            return Err(format!("{} allows {} exchange(s) per box", self.profile.id, exchange.rounds.len()));
        };
        let Some(fee) = exchange_fee(round, count, state.has_bonus()) else {
            let offered: Vec<String> = round.fees.keys().map(|n| n.to_string()).collect();
            return Err(format!(
                "an exchange of {count} card(s) is not offered now (offered: {})",
                offered.join(", ")
            ));
        };
        if self.boxes.len() > 1 && self.profile.boxes.max_exchange_multi.is_some_and(|max| count > max) {
            return Err(format!(
                "with several boxes an exchange takes at most {} cards",
                self.profile.boxes.max_exchange_multi.unwrap_or_default()
            ));
        }
        let needed = count + usize::from(exchange.burn);
        if needed > self.shoe.remaining() {
            return Err(format!("only {} card(s) remain in the shoe", self.shoe.remaining()));
        }
        let price = fee.of(state.ante).expect("the profile checked every price at every ante");
        self.keeps_play_bets("an exchange", price, self.play_bets_to_come(box_index))?;
        Ok(price)
    }

    /// The play bets still to come after box `box_index` has played: those of the later boxes
    /// looked at (a blind box's is placed with its ante).
    pub(crate) fn play_bets_after(&self, box_index: usize) -> Money {
        self.boxes[box_index + 1..]
            .iter()
            .filter(|b| b.decision == Decision::Pending)
            .map(|b| self.profile.play_bet(b.ante))
            .sum()
    }

    /// The play bets still to come while box `box_index` decides: its own and the later ones.
    pub(crate) fn play_bets_to_come(&self, box_index: usize) -> Money {
        self.profile.play_bet(self.boxes[box_index].ante) + self.play_bets_after(box_index)
    }

    /// An option costing `price` is offered only while the credit left after it still covers
    /// the play bets to come (RULES.md §2.7).
    fn keeps_play_bets(&self, what: &str, price: Money, play_bets: Money) -> Result<(), String> {
        match self.credit {
            Some(credit) if credit < price + play_bets => {
                Err(credit_kept_for_play(what, price, play_bets, credit))
            }
            _ => Ok(()),
        }
    }

    fn sixth_card_price(&self, box_index: usize) -> Result<Money, String> {
        let state = &self.boxes[box_index];
        if state.sixth_card || state.exchanges > 0 {
            return Err("a box buys a sixth card or exchanges, once, not both".into());
        }
        let shoe = (1, self.shoe.remaining());
        let price = purchase_fee(
            &self.profile,
            self.profile.sixth_card.as_ref(),
            "the sixth card",
            state.ante,
            state.has_bonus(),
            shoe,
            None,
        )?;
        self.keeps_play_bets("a sixth card", price, self.play_bets_to_come(box_index))?;
        Ok(price)
    }

    fn insurance_range(&self, box_index: usize) -> Result<(Money, Money), String> {
        let state = &self.boxes[box_index];
        let kept = self.play_bets_after(box_index);
        insurance_limits(&self.profile, state.hand(), state.ante, state.play_bet, self.credit, kept)
    }

    /// The price of the dealer's redraw for this box, asked for under the house's name.
    fn redraw_price(&self, box_index: usize, asked: Redraw) -> Result<Money, String> {
        let state = &self.boxes[box_index];
        let shoe = self.shoe.remaining();
        match redraw_fee(&self.profile, state.hand(), state.ante, state.has_bonus(), shoe, self.credit)? {
            (redraw, price) if redraw == asked => Ok(price),
            _ => Err(format!("{} does not offer {}", self.profile.id, asked.what())),
        }
    }

    /// Does a replacement card come after a burnt one?
    pub(crate) fn burns(&self) -> bool {
        self.profile.exchange.as_ref().is_some_and(|e| e.burn)
    }

    /// After box `box_index` has decided: the next box looked at, or the dealer's reveal.
    fn next_box(&mut self, box_index: usize) {
        let next = box_index + 1;
        if next < self.boxes.len() && !self.boxes[next].blind {
            self.phase = Phase::Decision { box_index: next };
        } else {
            self.reveal();
        }
    }

    fn dealer_hand(&self) -> HandValue {
        evaluator().evaluate_unchecked(&self.dealer)
    }

    fn dealer_qualifies(&self) -> bool {
        qualifies(&self.profile, self.dealer_hand())
    }

    /// The dealer turns his cards. If he does not qualify, the boxes that played may buy his
    /// redraw, from the last box to the first (seed 000).
    fn reveal(&mut self) {
        self.revealed = Some(self.dealer_hand());
        if self.dealer_qualifies() {
            return self.finish();
        }
        self.next_purchase(self.boxes.len());
    }

    /// The next box before `before`, counting down, that played and may buy the redraw; when
    /// none is left, the dealer redraws once for every box that bought (RULES.md §3.4).
    fn next_purchase(&mut self, before: usize) {
        let buyer = (0..before).rev().find(|&i| {
            let state = &self.boxes[i];
            !state.blind
                && state.decision == Decision::Played
                && self
                    .profile
                    .dealer_redraw()
                    .is_some_and(|(redraw, _)| self.redraw_price(i, redraw).is_ok())
        });
        match buyer {
            Some(box_index) => self.phase = Phase::Purchase { box_index },
            None => {
                if self.boxes.iter().any(|b| b.bought_redraw) {
                    // No burnt card: the burn belongs to the player's exchange (RULES.md §3.4).
                    let highest = dealer_discard(&self.dealer);
                    let card = self.draw(1)[0];
                    self.dealer_discarded.push(std::mem::replace(&mut self.dealer[highest], card));
                }
                self.finish();
            }
        }
    }

    fn finish(&mut self) {
        self.phase = Phase::Settled;
        let every_card = self
            .boxes
            .iter()
            .flat_map(|b| b.cards.iter().chain(&b.discarded))
            .chain(&self.dealer)
            .chain(&self.dealer_discarded)
            .chain(&self.burnt)
            .chain(self.shoe.undealt())
            .copied();
        let void = check_complete_deck(every_card).err().map(|e| e.to_string());
        let dealer_hand = self.dealer_hand();
        let dealer_qualifies = self.dealer_qualifies();
        let revealed = self.revealed.unwrap_or(dealer_hand);
        let boxes: Vec<BoxSettlement> = self
            .boxes
            .iter()
            .enumerate()
            .map(|(i, state)| match &void {
                Some(_) => void_box(i, state),
                None => settle_box(&self.profile, i, state, revealed, dealer_hand),
            })
            .collect();
        let paid: Money = boxes
            .iter()
            .map(|b| b.ante.returned + b.play.returned + b.bonus.returned + b.insurance.returned)
            .sum::<Money>()
            + if void.is_some() { boxes.iter().map(|b| b.fees).sum() } else { 0 };
        if let Some(credit) = &mut self.credit {
            *credit += paid;
        }
        self.settlement = Some(Settlement {
            net: paid - self.collected,
            boxes,
            dealer_cards: self.dealer.clone(),
            dealer_hand,
            dealer_qualifies,
            void,
            collected: self.collected,
            paid,
        });
    }
}

/// Checks a box's bonus stake: 0 for none, else what the profile's bonus kind requires.
fn check_bonus_stake(profile: &Profile, ante: Money, stake: Money) -> Result<(), String> {
    if stake == 0 {
        return Ok(());
    }
    let Some(bonus) = &profile.bonus else {
        return Err(format!("{} has no bonus bet", profile.id));
    };
    match bonus.kind {
        BonusKind::Privilege => {
            let fee = privilege_fee(profile, ante).expect("a privilege bonus has a fee");
            if stake != fee {
                return Err(format!("the bonus fee at an ante of {ante} is {fee}, not {stake}"));
            }
        }
        BonusKind::Fixed | BonusKind::Odds => {
            let (min, max) = (bonus.stake_min.unwrap_or_default(), bonus.stake_max.unwrap_or_default());
            let step = bonus.stake_step.unwrap_or(1);
            if !(min..=max).contains(&stake) || (stake - min) % step != 0 {
                return Err(format!("the bonus stake is {min} to {max} in steps of {step}, not {stake}"));
            }
        }
    }
    Ok(())
}

/// The fee (in antes) of exchanging `count` cards in an exchange round, if it offers that
/// many: a box with the bonus pays the round's bonus price where it has one.
pub(crate) fn exchange_fee(round: &ExchangeRound, count: usize, has_bonus: bool) -> Option<Ratio> {
    let with_bonus = has_bonus.then(|| round.with_bonus.get(&count)).flatten();
    with_bonus.or_else(|| round.fees.get(&count)).copied()
}

/// The privilege bonus fee at an ante, exceptions first.
pub fn privilege_fee(profile: &Profile, ante: Money) -> Option<Money> {
    let bonus = profile.bonus.as_ref().filter(|b| b.kind == BonusKind::Privilege)?;
    bonus.fee_at_ante.get(&ante).copied().or_else(|| bonus.fee?.of(ante))
}

/// The standard bonus stake for an ante: the fixed stake, the least odds stake, or the privilege fee.
pub fn standard_bonus_stake(profile: &Profile, ante: Money) -> Option<Money> {
    let bonus = profile.bonus.as_ref()?;
    match bonus.kind {
        BonusKind::Privilege => privilege_fee(profile, ante),
        BonusKind::Fixed | BonusKind::Odds => bonus.stake_min,
    }
}

/// The fee of a purchase priced in antes (the sixth card, the dealer's redraw), if the
/// profile offers it to a box with this ante and bonus, the shoe holds the cards it needs
/// (`shoe`: needed, remaining) and the credit pays for it.
pub(crate) fn purchase_fee(
    profile: &Profile,
    purchase: Option<&Purchase>,
    what: &str,
    ante: Money,
    has_bonus: bool,
    (cards_needed, remaining): (usize, usize),
    credit: Option<Money>,
) -> Result<Money, String> {
    let Some(purchase) = purchase else {
        return Err(format!("{} does not offer {what}", profile.id));
    };
    if purchase.needs_bonus && !has_bonus {
        return Err(format!("{what} needs the bonus bet"));
    }
    if cards_needed > remaining {
        return Err(format!("{what} needs {cards_needed} card(s) and {remaining} remain"));
    }
    let price = purchase.fee.of(ante).expect("the profile checked every price at every ante");
    match credit {
        Some(credit) if credit < price => Err(format!("that costs {price} and the credit is {credit}")),
        _ => Ok(price),
    }
}

/// The dealer's redraw a box holding `hand` may buy after a non-qualifying reveal (RULES.md
/// §3.2, §3.4), under the profile's name for it, and its fee: one mechanism for buying the
/// dealer's card and buying the game, its fee and the hands that may buy from the profile.
/// The dealer draws one card, never a burnt one; every play bet is placed by then, and no
/// win is paid before the settlement, so the credit left is what the fee must fit in.
pub(crate) fn redraw_fee(
    profile: &Profile,
    hand: HandValue,
    ante: Money,
    has_bonus: bool,
    remaining: usize,
    credit: Option<Money>,
) -> Result<(Redraw, Money), String> {
    let Some((redraw, purchase)) = profile.dealer_redraw() else {
        return Err(format!("{} sells no redraw of the dealer's card", profile.id));
    };
    if let Some(least) = purchase.min_category.filter(|&least| hand.category() < least) {
        return Err(format!(
            "{} is offered to {} or better, not to {}",
            redraw.what(),
            least.name(),
            hand.category().name()
        ));
    }
    let fee = purchase_fee(profile, Some(purchase), redraw.what(), ante, has_bonus, (1, remaining), credit)?;
    Ok((redraw, fee))
}

/// The card the dealer discards when he redraws: his highest. He does not qualify, so he
/// holds no pair (the profile checks its qualifier); among equal ranks the first dealt goes.
pub(crate) fn dealer_discard(dealer: &[Card]) -> usize {
    (0..dealer.len())
        .max_by_key(|&i| (dealer[i].rank(), std::cmp::Reverse(i)))
        .expect("the dealer holds cards")
}

/// Why an option is refused when the credit left after it would not cover the play bets
/// still to come (RULES.md §2.7).
fn credit_kept_for_play(what: &str, price: Money, play_bets: Money, credit: Money) -> String {
    format!(
        "not enough credit to play after {what}: it costs {price}, the play bets to come need {play_bets} \
         and the credit is {credit}"
    )
}

/// The least and most insurance a box that played `hand` may take (RULES.md §3.5), the
/// credit (if kept) still covering the `kept` play bets of the boxes to come (§2.7).
pub(crate) fn insurance_limits(
    profile: &Profile,
    hand: HandValue,
    ante: Money,
    play_bet: Money,
    credit: Option<Money>,
    kept: Money,
) -> Result<(Money, Money), String> {
    let Some(insurance) = &profile.insurance else {
        return Err(format!("{} has no insurance", profile.id));
    };
    if hand.category() < insurance.min_category {
        return Err(format!("only {} or better may be insured", insurance.min_category.name()));
    }
    let Some(odds) = profile.odds(hand.category()) else {
        return Err(format!("{} has no paytable row to insure", hand.category().name()));
    };
    let max = (play_bet * odds).min(profile.table.max_payout);
    let max = credit.map_or(max, |credit| max.min(credit - kept));
    if max < ante {
        return Err(match credit {
            Some(credit) if kept > 0 => credit_kept_for_play("insurance", ante, kept, credit),
            _ => format!("insurance starts at one ante ({ante}), more than the credit"),
        });
    }
    Ok((ante, max))
}

/// What a deal of these bets needs in credit (RULES.md §2.7): every box's ante, bonus stake
/// (`bonus` may be empty: none) and play bet, a blind box's placed with its ante and the
/// others kept in reserve.
pub fn deal_needs(profile: &Profile, antes: &[Money], bonus: &[Money]) -> Money {
    let stakes: Money = bonus.iter().sum();
    antes.iter().map(|&ante| ante + profile.play_bet(ante)).sum::<Money>() + stakes
}

fn void_box(box_index: usize, state: &BoxState) -> BoxSettlement {
    BoxSettlement {
        box_index,
        cards: state.cards.clone(),
        hand: state.hand(),
        outcome: Outcome::Void,
        ante: BetResult::push(state.ante),
        play: BetResult::push(state.play_bet),
        bonus: BetResult::push(state.bonus_stake),
        insurance: BetResult::push(state.insurance),
        fees: state.fees,
        jackpot: None,
        net: 0,
    }
}

/// Wins of the main game after the table's maximum payout (RULES.md §2.6).
fn capped(profile: &Profile, ante_win: Money, play_win: Money) -> (Money, Money) {
    let max = profile.table.max_payout;
    match profile.game.cap {
        Cap::Play => (ante_win, play_win.min(max)),
        Cap::Total => {
            let total = (ante_win + play_win).min(max);
            let ante_win = ante_win.min(total);
            (ante_win, total - ante_win)
        }
    }
}

/// Settles a box: a box that bought the redraw against the dealer's hand now, any other
/// and the insurance against the hand he revealed (RULES.md §3.4).
fn settle_box(
    profile: &Profile,
    box_index: usize,
    state: &BoxState,
    revealed: HandValue,
    dealer_now: HandValue,
) -> BoxSettlement {
    let hand = state.hand();
    let outcome = match state.decision {
        Decision::Folded | Decision::Pending => Outcome::Folded,
        Decision::Played if state.bought_redraw => played_outcome(profile, hand, dealer_now, true),
        Decision::Played => played_outcome(profile, hand, revealed, false),
    };
    let (outcome, ante_result, play_result) = main_bets(profile, hand, state.ante, state.play_bet, outcome);
    let insurance = insurance_bet(state.insurance, qualifies(profile, revealed), hand > revealed);
    let (bonus, jackpot) = settle_bonus(profile, state);
    let fees = state.fees;
    let net = ante_result.net() + play_result.net() + bonus.net() + insurance.net() - fees;
    BoxSettlement {
        box_index,
        cards: state.cards.clone(),
        hand,
        outcome,
        ante: ante_result,
        play: play_result,
        bonus,
        insurance,
        fees,
        jackpot,
        net,
    }
}

/// Does the dealer qualify with this hand?
pub(crate) fn qualifies(profile: &Profile, dealer: HandValue) -> bool {
    dealer.category() >= profile.game.qualifier
}

/// How a box that played `hand` ends against `dealer`: the hand he revealed, or for a box
/// that bought the redraw (`bought_redraw`) his hand after it (RULES.md §2.5, §3.2, §3.4).
pub(crate) fn played_outcome(
    profile: &Profile,
    hand: HandValue,
    dealer: HandValue,
    bought_redraw: bool,
) -> Outcome {
    match (qualifies(profile, dealer), bought_redraw) {
        (false, true) => Outcome::DealerStillNotQualified,
        (false, false) => Outcome::DealerNotQualified,
        (true, _) => match hand.cmp(&dealer) {
            std::cmp::Ordering::Greater => Outcome::Won,
            std::cmp::Ordering::Less => Outcome::Lost,
            std::cmp::Ordering::Equal => Outcome::Push,
        },
    }
}

/// How the ante and the play bet of a box holding `hand` end when the round ends for it as
/// `outcome` (never `Protected` or `Void`): the outcome after the straight flush protection,
/// and the two bets' results.
pub(crate) fn main_bets(
    profile: &Profile,
    hand: HandValue,
    ante: Money,
    play: Money,
    outcome: Outcome,
) -> (Outcome, BetResult, BetResult) {
    let odds = profile.odds(hand.category()).unwrap_or(0);
    let protected = profile.protection.as_ref().is_some_and(|p| p.categories.contains(&hand.category()))
        && matches!(
            outcome,
            Outcome::DealerNotQualified | Outcome::DealerStillNotQualified | Outcome::Lost | Outcome::Push
        );
    if protected {
        let half = (ante + play * odds) / 2;
        return (
            Outcome::Protected,
            BetResult::push(ante),
            BetResult::won(play, half.min(profile.table.max_payout)),
        );
    }
    let (ante_result, play_result) = match outcome {
        Outcome::Folded => (BetResult::lost(ante), BetResult::default()),
        Outcome::DealerStillNotQualified | Outcome::Push => (BetResult::push(ante), BetResult::push(play)),
        Outcome::DealerNotQualified => match profile.game.no_qualify_ante {
            NoQualifyAnte::Pays => {
                let (ante_win, _) = capped(profile, ante, 0);
                (BetResult::won(ante, ante_win), BetResult::push(play))
            }
            NoQualifyAnte::Returned => (BetResult::push(ante), BetResult::push(play)),
        },
        Outcome::Won => {
            let (ante_win, play_win) = capped(profile, ante, play * odds);
            (BetResult::won(ante, ante_win), BetResult::won(play, play_win))
        }
        Outcome::Lost => (BetResult::lost(ante), BetResult::lost(play)),
        Outcome::Protected | Outcome::Void => {
            unreachable!("main_bets decides protection; a void box is not settled")
        }
    };
    (outcome, ante_result, play_result)
}

/// Insurance pays against a dealer who does not qualify (RULES.md §3.5): lost when the box
/// beats a qualifying dealer, returned when a qualifying dealer ties or holds more.
pub(crate) fn insurance_bet(amount: Money, dealer_qualifies: bool, box_beats_dealer: bool) -> BetResult {
    match amount {
        0 => BetResult::default(),
        amount if !dealer_qualifies => BetResult::won(amount, amount),
        amount if box_beats_dealer => BetResult::lost(amount),
        amount => BetResult::push(amount),
    }
}

fn settle_bonus(profile: &Profile, state: &BoxState) -> (BetResult, Option<JackpotWin>) {
    let folded = state.decision == Decision::Folded;
    let judged = || match profile.bonus.as_ref().map(|b| b.judged_on) {
        Some(JudgedOn::Dealt) => evaluator().evaluate_unchecked(&state.dealt),
        _ => state.hand(),
    };
    bonus_bet(profile, state.bonus_stake, state.bonus_forfeited, folded, judged)
}

/// The bonus stake's result for a box whose bonus was or was not forfeited by an exchange,
/// that folded or not, judged on the hand `judged` gives (dealt or final, as the profile says).
pub(crate) fn bonus_bet(
    profile: &Profile,
    stake: Money,
    forfeited: bool,
    folded: bool,
    judged: impl FnOnce() -> HandValue,
) -> (BetResult, Option<JackpotWin>) {
    let Some(bonus) = profile.bonus.as_ref().filter(|_| stake > 0) else {
        return (BetResult::default(), None);
    };
    if bonus.kind == BonusKind::Privilege || forfeited || (folded && bonus.forfeited_by_fold) {
        return (BetResult::lost(stake), None);
    }
    let category = judged().category();
    if let Some(award) = bonus.jackpot.iter().find(|a| a.category == category) {
        return (BetResult::lost(stake), Some(JackpotWin { category, share: award.share }));
    }
    let result = match (bonus.kind, bonus.pays.get(&category)) {
        (_, None) => BetResult::lost(stake),
        (BonusKind::Fixed, Some(&amount)) => BetResult { stake, returned: amount },
        (_, Some(&odds)) => BetResult::won(stake, stake * odds),
    };
    (result, None)
}

fn action_name(action: &Action) -> &'static str {
    match action {
        Action::Fold { .. } => "fold",
        Action::Play { .. } => "play",
        Action::Exchange { .. } => "exchange",
        Action::BuySixthCard { .. } => "buying a sixth card",
        Action::Insure { .. } => "insurance",
        Action::Decline { .. } => "declining",
        Action::BuyDealerCard { .. } => "buying the dealer's card",
        Action::BuyGame { .. } => "buying the game",
    }
}

fn phase_text(phase: Phase) -> String {
    match phase {
        Phase::Decision { box_index } => {
            format!("box {} is to fold, play or change its cards", box_index + 1)
        }
        Phase::Insurance { box_index } => format!("box {} is to insure or decline", box_index + 1),
        Phase::Purchase { box_index } => {
            format!("box {} is to buy after the reveal or decline", box_index + 1)
        }
        Phase::Settled => "the round is settled".into(),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Seed> {
    if text.len() != 64 || !text.is_ascii() {
        return None;
    }
    let mut seed = [0u8; 32];
    for (i, byte) in seed.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(seed)
}
