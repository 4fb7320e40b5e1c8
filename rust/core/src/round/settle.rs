//! How a box's bets end (RULES.md §2.5, §2.6, §3.4, §3.5): the outcome against the dealer,
//! the table's cap, straight flush protection, insurance and the bonus. The round settles
//! with these functions and the strategy, the analysis and the simulation value with them.

use serde::Serialize;

use crate::card::Card;
use crate::eval::{evaluator, Category, HandValue};
use crate::profile::{BonusKind, Cap, JudgedOn, Money, NoQualifyAnte, Profile, Ratio};

use super::{BoxState, Decision};

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

/// How a box's main bets ended; written by its `name`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

impl Outcome {
    /// The outcome's name in settlements, records and reports.
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Folded => "folded",
            Outcome::DealerNotQualified => "dealer_not_qualified",
            Outcome::DealerStillNotQualified => "dealer_still_not_qualified",
            Outcome::Won => "won",
            Outcome::Lost => "lost",
            Outcome::Push => "push",
            Outcome::Protected => "protected",
            Outcome::Void => "void",
        }
    }
}

impl Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// An outcome as the analysis and the simulation tally it: a win under the category of the
/// hand that won it (`won_Flush`), any other outcome by its name (`hand` unused).
pub fn outcome_name(outcome: Outcome, hand: Category) -> String {
    match outcome {
        Outcome::Won => format!("{}_{}", outcome.name(), hand.name()),
        _ => outcome.name().into(),
    }
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
    /// The hand the dealer revealed, where a box bought his redraw (RULES.md §3.4): the boxes
    /// that declined it settled against this one, those that bought against `dealer_hand`.
    pub dealer_revealed: Option<HandValue>,
    /// Why the round is void (every stake returned), if it is.
    pub void: Option<String>,
    /// Everything the player paid in during the round.
    pub collected: Money,
    /// Everything paid back at settlement (stakes returned and wins; not jackpot amounts).
    pub paid: Money,
    pub net: Money,
}

pub(super) fn void_box(box_index: usize, state: &BoxState) -> BoxSettlement {
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

/// Settles a box: its facts as the round left them, judged by [`box_result`].
pub(super) fn settle_box(
    profile: &Profile,
    box_index: usize,
    state: &BoxState,
    revealed: HandValue,
    dealer_now: HandValue,
) -> BoxSettlement {
    let hand = state.hand();
    let facts = BoxFacts {
        hand,
        dealt: evaluator().evaluate_unchecked(&state.dealt),
        // Only a box that played meets the dealer (every box has decided by the reveal).
        played: state.decision == Decision::Played,
        bought_redraw: state.bought_redraw,
        ante: state.ante,
        play_bet: state.play_bet,
        bonus_stake: state.bonus_stake,
        bonus_forfeited: state.bonus_forfeited,
        insurance: state.insurance,
        fees: state.fees,
    };
    let result = box_result(profile, &facts, revealed, dealer_now);
    BoxSettlement {
        box_index,
        cards: state.cards.clone(),
        hand,
        outcome: result.outcome,
        ante: result.ante,
        play: result.play,
        bonus: result.bonus,
        insurance: result.insurance,
        fees: facts.fees,
        jackpot: result.jackpot,
        net: result.net,
    }
}

/// What settles a box once the dealer has shown his hand: the round's box and the
/// simulation's fast path alike describe it so.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoxFacts {
    /// The hand it ended with.
    pub(crate) hand: HandValue,
    /// The hand it was dealt, on which some bonuses are judged.
    pub(crate) dealt: HandValue,
    /// It played (otherwise it folded).
    pub(crate) played: bool,
    /// It bought the dealer's redraw after a reveal that did not qualify.
    pub(crate) bought_redraw: bool,
    pub(crate) ante: Money,
    pub(crate) play_bet: Money,
    pub(crate) bonus_stake: Money,
    /// An exchange forfeited its bonus.
    pub(crate) bonus_forfeited: bool,
    pub(crate) insurance: Money,
    /// Exchange fees, sixth card, the dealer's card, the game: never returned.
    pub(crate) fees: Money,
}

/// How a box's bets ended ([`box_result`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoxResult {
    pub(crate) outcome: Outcome,
    pub(crate) ante: BetResult,
    pub(crate) play: BetResult,
    pub(crate) bonus: BetResult,
    pub(crate) insurance: BetResult,
    /// The hand the bonus was judged on ([`judged_hand`]).
    pub(crate) judged: HandValue,
    pub(crate) jackpot: Option<JackpotWin>,
    /// Every bet's net less the fees.
    pub(crate) net: Money,
}

/// How a box's bets end: one that bought the redraw against the dealer's hand now
/// (`dealer_now`), any other and the insurance against the hand he revealed (RULES.md §3.4);
/// the bonus on the hand [`judged_hand`] names.
#[inline]
pub(crate) fn box_result(
    profile: &Profile,
    facts: &BoxFacts,
    revealed: HandValue,
    dealer_now: HandValue,
) -> BoxResult {
    let hand = facts.hand;
    let outcome = match (facts.played, facts.bought_redraw) {
        (false, _) => Outcome::Folded,
        (true, true) => played_outcome(profile, hand, dealer_now, true),
        (true, false) => played_outcome(profile, hand, revealed, false),
    };
    let (outcome, ante, play) = main_bets(profile, hand, facts.ante, facts.play_bet, outcome);
    let insurance = insurance_bet(facts.insurance, qualifies(profile, revealed), hand > revealed);
    let judged = judged_hand(profile, facts.dealt, hand);
    let (bonus, jackpot) =
        bonus_bet(profile, facts.bonus_stake, facts.bonus_forfeited, !facts.played, || judged);
    let net = ante.net() + play.net() + bonus.net() + insurance.net() - facts.fees;
    BoxResult { outcome, ante, play, bonus, insurance, judged, jackpot, net }
}

/// The hand the bonus is judged on: the box's hand as dealt or as it ended, as the profile
/// says (RULES.md §3.6). Any view of a hand will do (a value, a category), the same for both.
#[inline]
pub(crate) fn judged_hand<T>(profile: &Profile, dealt: T, last: T) -> T {
    match profile.bonus.as_ref().map(|b| b.judged_on) {
        Some(JudgedOn::Dealt) => dealt,
        _ => last,
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

/// The bonus stake's result for a box whose bonus was or was not forfeited by an exchange,
/// that folded or not, judged on the hand `judged` gives ([`judged_hand`] chooses it).
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
