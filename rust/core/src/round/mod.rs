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

use serde::Serialize;

use crate::card::Card;
use crate::error::RoundError;
use crate::eval::{evaluator, HandValue};
use crate::profile::{Money, Profile, Redraw};
use crate::shuffle::{check_complete_deck, os_seed, Seed, Shoe};

mod actions;
mod pricing;
mod record;
mod settle;

use actions::{action_name, phase_text};
pub(crate) use record::hex;
use record::unhex;

use pricing::credit_kept_for_play;
use settle::{settle_box, void_box};

pub use actions::{offered_actions, Action, ActionKind, LegalAction, Phase};
pub use pricing::{
    allowed_antes, bonus_stakes, check_bets, deal_needs, extreme_antes, placed_at_deal, price_list,
    privilege_fee, standard_bonus_stake, ExchangeFee, PriceList,
};
pub(crate) use pricing::{
    exchange_counts, exchange_fee, insurance_limits, purchase_fee, redraw_fee, redraw_price,
};
pub use record::{DeckSource, RoundRecord};
pub(crate) use settle::{
    bonus_bet, box_result, insurance_bet, judged_hand, main_bets, played_outcome, qualifies, BoxFacts,
};
pub use settle::{outcome_name, BetResult, BoxSettlement, JackpotWin, Outcome, Settlement};

/// Cards in a box or a dealer's hand as dealt.
pub const HAND: usize = 5;

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
        let bonus_stakes = check_bets(&profile, antes, bonus, credit).map_err(RoundError::Setup)?;
        let upfront = placed_at_deal(&profile, antes, &bonus_stakes);
        let boxes = &profile.boxes;
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
        self.check_turn(&action)?;
        let box_index = action.box_index();
        let illegal = |reason: String| Err(RoundError::Illegal(reason));
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
            Action::Exchange { positions, .. } => self.exchange(box_index, positions)?,
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

    /// Refuses an action for a box that is not in the round, or that is not its turn for it.
    fn check_turn(&self, action: &Action) -> Result<(), RoundError> {
        let box_index = action.box_index();
        let illegal = |reason: String| Err(RoundError::Illegal(reason));
        if box_index >= self.boxes.len() {
            return illegal(format!("there is no box {} in this round", box_index + 1));
        }
        match (action, self.phase) {
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
                return illegal(format!("{} is not possible now: {}", action_name(action), phase_text(phase)))
            }
        }
        Ok(())
    }

    /// Replaces the cards at `positions` of the box's hand, a burnt card first where the
    /// profile burns; the fee is paid and, where the profile says so, the bonus forfeited.
    fn exchange(&mut self, box_index: usize, positions: &[usize]) -> Result<(), RoundError> {
        // The positions first: repeated ones are named so, not priced as a count of cards.
        if positions.is_empty() {
            return Err(RoundError::Illegal("an exchange takes at least one card".into()));
        }
        let mut sorted = positions.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != positions.len() || sorted.iter().any(|&p| p >= self.boxes[box_index].cards.len()) {
            return Err(RoundError::Illegal(format!(
                "positions {positions:?} are not distinct positions 0 to 4 of the hand"
            )));
        }
        let price = self.exchange_price(box_index, positions.len()).map_err(RoundError::Illegal)?;
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
            let offered: Vec<String> =
                exchange_counts(round, state.has_bonus()).iter().map(|n| n.to_string()).collect();
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
            dealer_revealed: self.revealed.filter(|_| !self.dealer_discarded.is_empty()),
            void,
            collected: self.collected,
            paid,
        });
    }
}

/// The card the dealer discards when he redraws: his highest. He does not qualify, so he
/// holds no pair (the profile checks its qualifier); among equal ranks the first dealt goes.
pub(crate) fn dealer_discard(dealer: &[Card]) -> usize {
    (0..dealer.len())
        .max_by_key(|&i| (dealer[i].rank(), std::cmp::Reverse(i)))
        .expect("the dealer holds cards")
}
