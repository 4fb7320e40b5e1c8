//! Whose turn it is in a round, what a player may do and what is legal now, with its price.

use serde::{Deserialize, Serialize};

use crate::profile::{Money, Profile, Redraw};

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

impl Phase {
    /// The phase's name, as the bindings give it.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Decision { .. } => "decision",
            Phase::Insurance { .. } => "insurance",
            Phase::Purchase { .. } => "purchase",
            Phase::Settled => "settled",
        }
    }
}

/// What kind of action a player's is, whatever its box and amounts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    Fold,
    Play,
    Exchange,
    BuySixthCard,
    Insure,
    Decline,
    BuyDealerCard,
    BuyGame,
}

impl ActionKind {
    /// The action's name, as the bindings give it (the keys of the legal actions).
    pub fn key(self) -> &'static str {
        match self {
            ActionKind::Fold => "fold",
            ActionKind::Play => "play",
            ActionKind::Exchange => "exchange",
            ActionKind::BuySixthCard => "buy_sixth_card",
            ActionKind::Insure => "insure",
            ActionKind::Decline => "decline",
            ActionKind::BuyDealerCard => "buy_dealer_card",
            ActionKind::BuyGame => "buy_game",
        }
    }
}

/// The actions a box may be offered in each phase it may be asked in under `profile`, in
/// the order its buttons show them, whatever its cards and the credit (`Round::legal_actions`
/// says which of them are legal now); a phase the profile never asks in is left out. Each
/// phase is given for the first box: it is every box's.
pub fn offered_actions(profile: &Profile) -> Vec<(Phase, Vec<ActionKind>)> {
    let mut decision = vec![ActionKind::Fold, ActionKind::Play];
    if profile.exchange.is_some() {
        decision.push(ActionKind::Exchange);
    }
    if profile.sixth_card.is_some() {
        decision.push(ActionKind::BuySixthCard);
    }
    let mut phases = vec![(Phase::Decision { box_index: 0 }, decision)];
    if profile.insurance.is_some() {
        phases.push((Phase::Insurance { box_index: 0 }, vec![ActionKind::Insure, ActionKind::Decline]));
    }
    if let Some((redraw, _)) = profile.dealer_redraw() {
        let buy = match redraw {
            Redraw::DealerCard => ActionKind::BuyDealerCard,
            Redraw::Game => ActionKind::BuyGame,
        };
        phases.push((Phase::Purchase { box_index: 0 }, vec![buy, ActionKind::Decline]));
    }
    phases
}

impl Action {
    /// What kind of action it is.
    pub fn kind(&self) -> ActionKind {
        match self {
            Action::Fold { .. } => ActionKind::Fold,
            Action::Play { .. } => ActionKind::Play,
            Action::Exchange { .. } => ActionKind::Exchange,
            Action::BuySixthCard { .. } => ActionKind::BuySixthCard,
            Action::Insure { .. } => ActionKind::Insure,
            Action::Decline { .. } => ActionKind::Decline,
            Action::BuyDealerCard { .. } => ActionKind::BuyDealerCard,
            Action::BuyGame { .. } => ActionKind::BuyGame,
        }
    }

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

impl LegalAction {
    /// What kind of action it is.
    pub fn kind(&self) -> ActionKind {
        match self {
            LegalAction::Fold => ActionKind::Fold,
            LegalAction::Play { .. } => ActionKind::Play,
            LegalAction::Exchange { .. } => ActionKind::Exchange,
            LegalAction::BuySixthCard { .. } => ActionKind::BuySixthCard,
            LegalAction::Insure { .. } => ActionKind::Insure,
            LegalAction::Decline => ActionKind::Decline,
            LegalAction::BuyDealerCard { .. } => ActionKind::BuyDealerCard,
            LegalAction::BuyGame { .. } => ActionKind::BuyGame,
        }
    }
}

pub(super) fn action_name(action: &Action) -> &'static str {
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

pub(super) fn phase_text(phase: Phase) -> String {
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
