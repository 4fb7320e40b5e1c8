//! Strategy: the expected value of every decision the current box may take, and the best one.
//!
//! Every expected value is the box's expected net at settlement ([`BoxSettlement::net`]:
//! ante, play bet, bonus and insurance results less every fee, the fees already paid
//! included), so the options of one decision compare directly; a fold is worth −ante (and
//! the bonus stake, where folding loses it). Only what the player has seen counts: the cards
//! and discards of the boxes looked at and the dealer's visible cards ([`Round::seen_cards`]).
//! Every other card, burnt ones included, is equally likely to be anywhere, so the
//! dealer's hidden cards and every replacement card are drawn without replacement from the
//! unseen cards, in whatever order the shoe deals them.
//!
//! How it is exact and fast (docs/strategy.md has the whole argument):
//! - The dealer's hidden four cards are enumerated once per question (C(46, 4) = 163 185
//!   hands with one box), their strengths with the up card sorted, and sorted again per
//!   unseen card and per pair of unseen cards. The dealer hands that share no card with the
//!   box's new cards are counted by inclusion–exclusion over those lists (triples and
//!   quadruples, rarely needed, are enumerated), each count a binary search: how many do not
//!   qualify, are lower than, equal to or higher than the box's hand. A hand's play value is
//!   then a sum of counts times the settlement of each case, taken from the round's own
//!   settlement functions, so the later options are exact too: insurance, the no-qualify
//!   ante rule, straight flush protection, the caps.
//! - The dealer's redraw (buying his card, or the game: he discards his highest card and
//!   draws one) is decided per dealer hand (the box sees it first), so it is counted per
//!   non-qualifying dealer hand, with each hand's qualifying draws sorted in
//!   advance; a bound skips the hands where buying cannot pay for the box's hand.
//! - Insurance is linear in its amount for every dealer hand, and the purchases after the
//!   reveal take a maximum of such linear functions, so the expected value is convex in the
//!   amount: its maximum over the allowed range is at one of its ends, and only "none", the
//!   least and the most are valued.
//! - An exchange averages the best next decision (fold, play, a further exchange) over its
//!   replacement cards: every replacement when that takes at most [`Effort::exact_work`]
//!   hand valuations (every 1- and 2-card exchange, and 3-card ones, with one exchange round),
//!   otherwise a seeded, reproducible sample of them, and the choice says it is not exact.

mod advisor;
mod dealer;
mod offers;
mod player;
mod redraw;

use serde::Serialize;

use crate::error::RoundError;
use crate::round::{Action, Phase, Round};

use advisor::Advisor;
use dealer::DealerTable;
use player::Player;

/// One decision with its expected value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choice {
    pub action: Action,
    /// The box's expected net at settlement after this decision and the best ones after it,
    /// in minor units.
    pub ev: f64,
    /// False when some replacement cards were sampled rather than all enumerated.
    pub exact: bool,
}

/// Every decision the box may take now, in the order `legal_actions` lists them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Advice {
    #[serde(rename = "box")]
    pub box_index: usize,
    pub choices: Vec<Choice>,
}

impl Advice {
    /// The choice with the highest expected value (the first listed among equals).
    pub fn best(&self) -> &Choice {
        &self.choices[self.best_index()]
    }

    /// Where the best choice is in `choices`.
    pub fn best_index(&self) -> usize {
        (1..self.choices.len())
            .fold(0, |best, i| if self.choices[i].ev > self.choices[best].ev { i } else { best })
    }
}

/// How much work an exchange may take before its replacement cards are sampled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Hand valuations one exchange may take to enumerate every replacement; beyond it the
    /// replacements are sampled, as many as this budget pays for and never fewer than
    /// [`MIN_SAMPLES`].
    pub exact_work: u64,
    /// Dealer hands sampled to value buying the dealer's card after a draw of two cards or
    /// more; after none or one every dealer hand counts.
    pub dealer_sample: usize,
    /// Seeds the samples, so the same question always gets the same answer.
    pub seed: u64,
}

/// The fewest replacement draws a sampled exchange averages.
pub const MIN_SAMPLES: u64 = 200;

impl Default for Effort {
    fn default() -> Effort {
        Effort { exact_work: 20_000, dealer_sample: 2048, seed: 0x6f61_7369_735f_6576 }
    }
}

/// Advice for the box whose turn it is, with the default effort.
pub fn advise(round: &Round, box_index: usize) -> Result<Advice, RoundError> {
    advise_with(round, box_index, Effort::default())
}

/// Advice for the box whose turn it is.
pub fn advise_with(round: &Round, box_index: usize, effort: Effort) -> Result<Advice, RoundError> {
    let turn = match round.phase() {
        Phase::Decision { box_index: b }
        | Phase::Insurance { box_index: b }
        | Phase::Purchase { box_index: b } => b,
        Phase::Settled => return Err(RoundError::Illegal("the round is settled".into())),
    };
    if turn != box_index {
        return Err(RoundError::Illegal(format!(
            "it is box {}'s turn, not box {}'s",
            turn + 1,
            box_index + 1
        )));
    }
    let choices = match round.phase() {
        Phase::Purchase { .. } => Player::new(round, box_index).purchases(round),
        phase => {
            let table = DealerTable::new(round, box_index, effort);
            let advisor = Advisor::new(Player::new(round, box_index), table, effort);
            match phase {
                Phase::Insurance { .. } => advisor.insurance(round),
                _ => advisor.decisions(round),
            }
        }
    };
    Ok(Advice { box_index, choices })
}
