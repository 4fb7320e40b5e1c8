//! What a fixed or odds bonus gives back at most, from the counts of the hand categories.

use serde::Serialize;

use crate::card::for_each_hand;
use crate::eval::{evaluator, Category};
use crate::profile::{BonusKind, JudgedOn, Money, Profile};
use crate::round;

use super::PLAYER_HANDS;

/// The most a fixed or odds bonus can give back, whatever the player does (see
/// [`side_bet_bound`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SideBetBound {
    pub stake: Money,
    /// The bonus's net per unit staked when it is never forfeited (jackpot awards not included).
    pub return_per_stake: f64,
    /// The share of rounds whose bonus hand wins a jackpot award when it is never forfeited.
    pub jackpot_frequency: f64,
}

/// How many of the C(52, 5) hands fall in each category.
pub(crate) fn category_counts() -> &'static [u64; 11] {
    static COUNTS: std::sync::OnceLock<[u64; 11]> = std::sync::OnceLock::new();
    COUNTS.get_or_init(|| {
        let mut counts = [0u64; 11];
        for_each_hand::<5>(|hand| counts[evaluator().eval5(hand).category() as usize] += 1);
        counts
    })
}

/// The most a fixed or odds bonus at `stake` returns to any player, exactly: the bonus kept on
/// every hand and judged on the hand as dealt. Folding or exchanging can only forfeit it, so
/// no strategy does better, unless the bonus is judged on the final hand and an exchange or a
/// sixth card improves that hand without forfeiting it: then `None` (not bounded here).
pub fn side_bet_bound(profile: &Profile, stake: Money) -> Option<SideBetBound> {
    let bonus = profile.bonus.as_ref().filter(|b| b.kind != BonusKind::Privilege && stake > 0)?;
    let improvable =
        profile.exchange.as_ref().is_some_and(|e| !e.forfeits_bonus) || profile.sixth_card.is_some();
    if bonus.judged_on == JudgedOn::Final && improvable {
        return None;
    }
    let mut net: i128 = 0;
    let mut jackpots = 0u64;
    for (&count, category) in category_counts().iter().zip(Category::ALL) {
        let (bet, jackpot) = round::bonus_bet(profile, stake, false, false, || category.lowest());
        net += i128::from(count) * i128::from(bet.net());
        jackpots += if jackpot.is_some() { count } else { 0 };
    }
    let hands = PLAYER_HANDS as f64;
    Some(SideBetBound {
        stake,
        return_per_stake: net as f64 / (hands * stake as f64),
        jackpot_frequency: jackpots as f64 / hands,
    })
}
