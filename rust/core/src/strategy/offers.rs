//! What the round's rules offer a box at a decision, and after every choice it may make.

use crate::profile::Money;
use crate::round::{Action, LegalAction, Round, HAND};

/// What the round's own rules allow a box at one decision, as the engine says, with the box's
/// money then: the choices after an imagined exchange come from the engine's round after the
/// same exchange (the prices depend on how many cards, not which).
pub(super) struct Offers {
    pub(super) fold: bool,
    pub(super) play: bool,
    /// Card count and the decision after (whose fees include the exchange's).
    pub(super) exchanges: Vec<(usize, Offers)>,
    /// The decision after buying a sixth card.
    pub(super) sixth_card: Option<Box<Offers>>,
    pub(super) fees: Money,
    pub(super) bonus_forfeited: bool,
    pub(super) has_bonus: bool,
    pub(super) credit: Option<Money>,
    /// The play bets of the later boxes, which the credit must keep after this box plays.
    pub(super) play_bets_after: Money,
    pub(super) remaining: usize,
}

impl Offers {
    pub(super) fn new(round: &Round, box_index: usize) -> Offers {
        let state = round.box_state(box_index);
        let mut node = Offers {
            fold: false,
            play: false,
            exchanges: Vec::new(),
            sixth_card: None,
            fees: state.fees,
            bonus_forfeited: state.bonus_forfeited,
            has_bonus: state.has_bonus(),
            credit: round.credit(),
            play_bets_after: round.play_bets_after(box_index),
            remaining: round.shoe_remaining(),
        };
        let after = |action: Action| {
            let mut next = round.clone();
            next.act(action).expect("the engine offered it");
            Offers::new(&next, box_index)
        };
        for legal in round.legal_actions(box_index) {
            match legal {
                LegalAction::Fold => node.fold = true,
                LegalAction::Play { .. } => node.play = true,
                LegalAction::Exchange { prices } => {
                    for (count, _) in prices {
                        let positions = (0..count).collect();
                        node.exchanges.push((count, after(Action::Exchange { box_index, positions })));
                    }
                }
                LegalAction::BuySixthCard { .. } => {
                    node.sixth_card = Some(Box::new(after(Action::BuySixthCard { box_index })));
                }
                _ => {}
            }
        }
        node
    }

    /// Hand valuations needed to value every choice here exactly, with `unseen` cards left.
    pub(super) fn work(&self, unseen: u64) -> u64 {
        let exchanges: u64 = self
            .exchanges
            .iter()
            .map(|(count, next)| binomial(HAND as u64, *count as u64) * exchange_work(*count, next, unseen))
            .sum();
        let sixth = self.sixth_card.as_ref().map_or(0, |next| exchange_work(1, next, unseen));
        1 + exchanges + sixth
    }
}

/// Hand valuations needed to value one exchange of `count` cards exactly.
pub(super) fn exchange_work(count: usize, next: &Offers, unseen: u64) -> u64 {
    binomial(unseen, count as u64).saturating_mul(next.work(unseen.saturating_sub(count as u64)))
}

pub(super) fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |product, i| product * (n - i) / (i + 1))
}
