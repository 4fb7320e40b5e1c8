//! The box whose choices are valued: what stays fixed about it, its nets for each way a round
//! ends, the hand as imagined, and the choices after a dealer who does not qualify.

use crate::card::{Card, DECK_SIZE};
use crate::eval::{evaluator, HandValue};
use crate::profile::{Money, Profile};
use crate::round::{self, Action, LegalAction, Outcome, Round};

use super::Choice;

/// What stays fixed about the box while its hand is imagined changing.
pub(super) struct Player<'a> {
    pub(super) profile: &'a Profile,
    pub(super) index: usize,
    pub(super) ante: Money,
    pub(super) play_bet: Money,
    pub(super) bonus_stake: Money,
    /// The dealt hand, on which some bonuses are judged.
    pub(super) dealt: HandValue,
    /// The hand now.
    pub(super) hand: Hand,
    /// Insurance already taken (after the play bet).
    pub(super) insurance: Money,
}

impl<'a> Player<'a> {
    pub(super) fn new(round: &'a Round, index: usize) -> Player<'a> {
        let state = round.box_state(index);
        let profile = round.profile();
        Player {
            profile,
            index,
            ante: state.ante,
            play_bet: profile.play_bet(state.ante),
            bonus_stake: state.bonus_stake,
            dealt: evaluator().evaluate_unchecked(&state.dealt),
            hand: Hand::of(&state.cards),
            insurance: state.insurance,
        }
    }

    /// The bonus stake's net when the box ends with `hand` (jackpot awards count as nothing:
    /// the meter is the terminal's, and in the shipped profiles the jackpot hand plays anyway).
    pub(super) fn bonus(&self, hand: HandValue, forfeited: bool, folded: bool) -> Money {
        let judged = round::judged_hand(self.profile, self.dealt, hand);
        round::bonus_bet(self.profile, self.bonus_stake, forfeited, folded, || judged).0.net()
    }

    /// The ante and play bet's net for each way the round can end for `hand`.
    pub(super) fn nets(&self, hand: HandValue) -> HandNets {
        let net = |outcome| {
            let (_, ante, play) = round::main_bets(self.profile, hand, self.ante, self.play_bet, outcome);
            ante.net() + play.net()
        };
        HandNets {
            won: net(Outcome::Won),
            lost: net(Outcome::Lost),
            push: net(Outcome::Push),
            not_qualified: net(Outcome::DealerNotQualified),
            still_not_qualified: net(Outcome::DealerStillNotQualified),
        }
    }

    /// The choices after a dealer who does not qualify: his cards are known, only the card he
    /// would draw is not, one of the cards the player has not seen (each equally likely).
    /// Insurance settles on the hand he revealed whatever the box does.
    pub(super) fn purchases(&self, round: &Round) -> Vec<Choice> {
        let state = round.box_state(self.index);
        let hand = self.hand.value();
        let dealer: Vec<Card> = round.dealer_cards().to_vec();
        let nets = self.nets(hand);
        let bonus = self.bonus(hand, state.bonus_forfeited, false);
        let insurance_won = round::insurance_bet(self.insurance, false, true).net();
        let fixed = (bonus - state.fees + insurance_won) as f64;
        let mut choices = Vec::new();
        for legal in round.legal_actions(self.index) {
            let (action, price) = match legal {
                LegalAction::Decline => {
                    let ev = nets.not_qualified as f64 + fixed;
                    choices.push(Choice {
                        action: Action::Decline { box_index: self.index },
                        ev,
                        exact: true,
                    });
                    continue;
                }
                LegalAction::BuyGame { price } => (Action::BuyGame { box_index: self.index }, price),
                LegalAction::BuyDealerCard { price } => {
                    (Action::BuyDealerCard { box_index: self.index }, price)
                }
                _ => continue,
            };
            let seen = mask(&round.seen_cards());
            let mut kept = dealer.clone();
            kept.remove(round::dealer_discard(&dealer));
            let draws: Vec<Money> = unseen(seen)
                .map(|card| {
                    let mut again = kept.clone();
                    again.push(Card::from_code(card).expect("a deck card"));
                    let value = evaluator().evaluate_unchecked(&again);
                    nets.after_redraw(self.profile, hand, value)
                })
                .collect();
            let mean = draws.iter().sum::<Money>() as f64 / draws.len() as f64;
            choices.push(Choice { action, ev: mean + fixed - price as f64, exact: true });
        }
        choices
    }
}

/// The ante and play bet's net for each way the round can end for one hand.
#[derive(Clone, Copy, Debug)]
pub(super) struct HandNets {
    pub(super) won: Money,
    pub(super) lost: Money,
    pub(super) push: Money,
    pub(super) not_qualified: Money,
    pub(super) still_not_qualified: Money,
}

impl HandNets {
    /// A box that bought the dealer's redraw, against his hand after it.
    pub(super) fn after_redraw(&self, profile: &Profile, hand: HandValue, dealer: HandValue) -> Money {
        match round::played_outcome(profile, hand, dealer, true) {
            Outcome::Won => self.won,
            Outcome::Lost => self.lost,
            Outcome::Push => self.push,
            _ => self.still_not_qualified,
        }
    }
}

/// A box's hand as imagined: its cards and every card it drew from the unseen cards.
#[derive(Clone, Copy, Debug)]
pub(super) struct Hand {
    pub(super) cards: [u8; 6],
    pub(super) len: usize,
    /// Card bits of every card drawn on the way here, discarded again or not: none of them
    /// is among the dealer's hidden cards.
    pub(super) drawn: u64,
}

impl Hand {
    pub(super) fn of(cards: &[Card]) -> Hand {
        let mut codes = [0u8; 6];
        for (code, card) in codes.iter_mut().zip(cards) {
            *code = card.code();
        }
        Hand { cards: codes, len: cards.len(), drawn: 0 }
    }

    pub(super) fn value(&self) -> HandValue {
        let c = &self.cards;
        match self.len {
            5 => evaluator().eval5([c[0], c[1], c[2], c[3], c[4]]),
            _ => evaluator().eval6(*c),
        }
    }

    /// The hand with the cards at `positions` replaced by `new`, in order.
    pub(super) fn exchanged(&self, positions: &[usize], new: &[u8]) -> Hand {
        let mut hand = *self;
        for (&position, &card) in positions.iter().zip(new) {
            hand.cards[position] = card;
            hand.drawn |= 1 << card;
        }
        hand
    }

    pub(super) fn with_sixth(&self, card: u8) -> Hand {
        let mut hand = *self;
        hand.cards[5] = card;
        hand.len = 6;
        hand.drawn |= 1 << card;
        hand
    }
}

pub(super) fn mask(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |bits, card| bits | 1 << card.code())
}

/// The card codes whose bits are not in `seen`.
pub(super) fn unseen(seen: u64) -> impl Iterator<Item = u8> {
    (0..DECK_SIZE as u8).filter(move |&code| seen & (1 << code) == 0)
}
