//! The exact return of a profile without card exchanges or purchases, under optimal play.
//!
//! Every deal is counted: the player's five cards, the dealer's up card and his four hole
//! cards, C(52,5) × 47 × C(46,4) = 19 933 230 517 200 combinations, with card removal. For
//! each player hand and up card the player plays when the exact expectation of playing over
//! the C(46,4) = 163 185 hole-card sets is at least that of folding (−1 ante), comparing
//! integers, and every combination is counted under the outcome it ends in: the player wins
//! with a category (play bet paid by the paytable), the dealer does not qualify, a push, a
//! fold, the dealer wins. The payments are the round engine's, at one ante and with the
//! table's maximum payout applied, so the figures are the terminal's.
//!
//! How it is fast (docs/analysis.md): the player's hands are taken up to a permutation of
//! suits (134 459 classes, each weighted by the hands it stands for), and the dealer's hands
//! are counted, not dealt. For a set T of one to four cards, tables built once hold how many
//! five-card hands containing T fall below any strength (cumulative counts for one and two
//! cards, sorted strengths for three and four). The dealer's hands that hold the up card u
//! and none of the player's cards P are then, by inclusion–exclusion over the subsets S of P,
//! Σ (−1)^|S| · hands(u ∪ S): 31 table look-ups per player hand and up card instead of
//! 163 185 evaluations.

mod exact;
mod holding;
mod side_bet;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::fmt;

use crate::card::DECK_SIZE;
use crate::eval::HandValue;
use crate::profile::{BonusKind, Money, Profile};
use crate::progress::Progress;
use crate::round;

pub use exact::{ExactAnalysis, OutcomeRow};
pub use holding::DealerCounts;
pub use side_bet::{side_bet_bound, SideBetBound};

pub(crate) use exact::analyse;
pub(crate) use holding::HoldingTables;
pub(crate) use side_bet::category_counts;

/// Distinct strengths, and the length of a cumulative count over them (one more).
const STRENGTHS: usize = HandValue::COUNT as usize;
pub(crate) const CUMULATIVE: usize = STRENGTHS + 1;

/// C(n, k) for n ≤ 52 and k ≤ 5.
pub(crate) const BINOMIAL: [[u64; 6]; DECK_SIZE + 1] = {
    let mut table = [[0u64; 6]; DECK_SIZE + 1];
    let mut n = 0;
    while n <= DECK_SIZE {
        table[n][0] = 1;
        let mut k = 1;
        while k <= 5 {
            table[n][k] = if n == 0 { 0 } else { table[n - 1][k - 1] + table[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    table
};

/// Five-card hands that contain a given set of k cards: C(52 − k, 5 − k).
pub(crate) const HANDS_HOLDING: [usize; 6] = [2_598_960, 249_900, 19_600, 1_176, 48, 1];

/// Hole-card sets of the dealer for one player hand and up card: C(46, 4).
pub const HOLE_CARD_SETS: u64 = 163_185;
/// Player hands: C(52, 5).
pub const PLAYER_HANDS: u64 = 2_598_960;
/// Up cards for one player hand.
pub const UP_CARDS: u64 = 47;
/// Every deal of the player's hand, the up card and the hole cards.
pub const TOTAL_COMBINATIONS: u64 = PLAYER_HANDS * UP_CARDS * HOLE_CARD_SETS;

/// The place of a set of distinct cards, sorted ascending, among the sets of its size
/// (combinatorial number system: Σ C(cᵢ, i + 1)).
#[inline(always)]
pub(crate) fn subset_rank(cards: &[u8]) -> usize {
    cards.iter().enumerate().map(|(i, &c)| BINOMIAL[c as usize][i + 1] as usize).sum()
}

/// Why a profile cannot be analysed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnalysisError {
    /// The profile has decisions the exact analysis does not cover.
    Unsupported {
        profile: String,
        features: Vec<&'static str>,
    },
    /// An ante the table does not allow.
    Ante {
        profile: String,
        ante: Money,
    },
    Cancelled,
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::Unsupported { profile, features } => write!(
                f,
                "{profile}: the exact analysis covers profiles whose only decision is to play or fold; \
                 this one also has {}",
                features.join(", ")
            ),
            AnalysisError::Ante { profile, ante } => {
                write!(f, "{profile}: {ante} is not an ante the table allows")
            }
            AnalysisError::Cancelled => f.write_str("the analysis was cancelled"),
        }
    }
}

impl std::error::Error for AnalysisError {}

/// The options of a profile beyond playing or folding, which the exact analysis refuses.
pub fn unsupported_features(profile: &Profile) -> Vec<&'static str> {
    [
        (profile.exchange.is_some(), "card exchange"),
        (profile.sixth_card.is_some(), "a sixth card"),
        (profile.buy_game.is_some(), "buying the game"),
        (profile.buy_dealer_card.is_some(), "buying the dealer's card"),
        (profile.insurance.is_some(), "insurance"),
        (profile.protection.is_some(), "straight flush protection"),
        (profile.bonus.as_ref().is_some_and(|b| b.kind == BonusKind::Privilege), "a privilege fee"),
    ]
    .into_iter()
    .filter_map(|(has, name)| has.then_some(name))
    .collect()
}

/// How the box of a figure is bet and played. The main game's return differs between them:
/// a bonus that folding or an exchange forfeits keeps some hands playing, a profile may price
/// its options otherwise for a box with the bonus (RULES.md §3.6), and a blind box never
/// decides (§3.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BoxPlay {
    /// The standard bonus stake (the least, or the privilege fee), weighed with the main game
    /// as a player who bets it would: the figure of the paytable's player.
    #[default]
    Standard,
    /// No bonus bet, and no privilege fee.
    WithoutBonus,
    /// The standard stake, each decision made for the main game alone: the most the main game
    /// returns to a box with the bonus placed, whatever its stake.
    ForMain,
    /// A blind box: ante and play bet up front, the standard bonus stake, no exchange, no
    /// fold, no decision at all.
    Blind,
}

impl BoxPlay {
    pub const ALL: [BoxPlay; 4] =
        [BoxPlay::Standard, BoxPlay::WithoutBonus, BoxPlay::ForMain, BoxPlay::Blind];

    pub fn name(self) -> &'static str {
        match self {
            BoxPlay::Standard => "standard",
            BoxPlay::WithoutBonus => "without_bonus",
            BoxPlay::ForMain => "for_main",
            BoxPlay::Blind => "blind",
        }
    }

    pub fn from_name(name: &str) -> Option<BoxPlay> {
        BoxPlay::ALL.into_iter().find(|play| play.name() == name)
    }

    /// The bonus stake of a box at `ante` (0: none).
    pub fn stake(self, profile: &Profile, ante: Money) -> Money {
        match self {
            BoxPlay::WithoutBonus => 0,
            _ => round::standard_bonus_stake(profile, ante).unwrap_or(0),
        }
    }

    /// Whether the bonus's net weighs in the player's decisions.
    pub fn weighs_bonus(self) -> bool {
        self == BoxPlay::Standard
    }
}

/// The exact analysis of `profile` at `ante` (the table's maximum ante if `None`, where a
/// maximum payout cuts most).
pub fn exact_analysis(profile: &Profile, ante: Option<Money>) -> Result<ExactAnalysis, AnalysisError> {
    exact_analysis_with_progress(profile, ante, BoxPlay::Standard, &Progress::new())
}

/// [`exact_analysis`], reporting to `progress` and stopping when it is cancelled.
pub fn exact_analysis_with_progress(
    profile: &Profile,
    ante: Option<Money>,
    play: BoxPlay,
    progress: &Progress,
) -> Result<ExactAnalysis, AnalysisError> {
    let profile = &*counted_profile(profile, play);
    let features = unsupported_features(profile);
    if !features.is_empty() {
        return Err(AnalysisError::Unsupported { profile: profile.id.clone(), features });
    }
    let ante = ante.unwrap_or(profile.table.ante_max);
    if !profile.allows_ante(ante) {
        return Err(AnalysisError::Ante { profile: profile.id.clone(), ante });
    }
    analyse(profile, ante, play, &HoldingTables::build(profile.game.qualifier), progress)
}

/// The profile the exact analysis counts for a box played so: the round offers a blind box
/// no exchange, no sixth card, no insurance and no redraw to buy.
pub fn counted_profile(profile: &Profile, play: BoxPlay) -> Cow<'_, Profile> {
    match play {
        BoxPlay::Blind => Cow::Owned(Profile {
            exchange: None,
            sixth_card: None,
            insurance: None,
            buy_game: None,
            buy_dealer_card: None,
            ..profile.clone()
        }),
        _ => Cow::Borrowed(profile),
    }
}

/// The play-or-fold game of a profile: its table, paytable and dealer, without its exchanges,
/// purchases, insurance, protection and bonus. The exact analysis counts it for any profile,
/// and the simulation plays it beside the profile on the same deals (its control variate).
pub fn base_game(profile: &Profile) -> Profile {
    Profile {
        exchange: None,
        bonus: None,
        sixth_card: None,
        buy_game: None,
        buy_dealer_card: None,
        insurance: None,
        protection: None,
        ..profile.clone()
    }
}
