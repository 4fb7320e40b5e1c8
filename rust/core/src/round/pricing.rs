//! What each bet and option of a round costs under a profile (RULES.md §2.7, §3): the bonus
//! stake, exchange fees, purchases, insurance limits and the credit a deal needs. The round,
//! the strategy, the simulation and the bindings all price through these functions.

use serde::Serialize;

use super::HAND;
use crate::eval::HandValue;
use crate::profile::{Bonus, BonusKind, ExchangeRound, Money, Profile, Purchase, Ratio, Redraw, MAX_AMOUNT};

/// Checks the bets of a deal against the profile and the credit (RULES.md §2.1, §2.7, §4):
/// the number of boxes, each ante, the bonus stakes (`bonus` may be empty: none) and a credit
/// that covers what the deal needs. Returns each box's bonus stake.
pub fn check_bets(
    profile: &Profile,
    antes: &[Money],
    bonus: &[Money],
    credit: Option<Money>,
) -> Result<Vec<Money>, String> {
    let boxes = &profile.boxes;
    if antes.is_empty() || antes.len() > boxes.max {
        return Err(format!("{} plays 1 to {} boxes, not {}", profile.id, boxes.max, antes.len()));
    }
    if !bonus.is_empty() && bonus.len() != antes.len() {
        return Err(format!("{} bonus stakes for {} boxes", bonus.len(), antes.len()));
    }
    for (i, &ante) in antes.iter().enumerate() {
        let t = &profile.table;
        if !profile.allows_ante(ante) {
            return Err(format!(
                "box {}: ante {ante} is not allowed: {} to {} in steps of {}",
                i + 1,
                t.ante_min,
                t.ante_max,
                t.ante_step
            ));
        }
        if let Some(least) = least_ante_on(profile, antes.len()).filter(|&least| ante < least) {
            return Err(format!("box {}: with several boxes the ante is at least {least}", i + 1));
        }
    }
    if boxes.identical_antes && antes.iter().any(|&a| a != antes[0]) {
        return Err("every box must have the same ante".into());
    }
    let bonus_stakes: Vec<Money> = if bonus.is_empty() { vec![0; antes.len()] } else { bonus.to_vec() };
    for (i, (&stake, &ante)) in bonus_stakes.iter().zip(antes).enumerate() {
        check_bonus_stake(profile, ante, stake).map_err(|reason| format!("box {}: {reason}", i + 1))?;
    }
    if let Some(credit) = credit {
        if !(0..=MAX_AMOUNT).contains(&credit) {
            return Err(format!("a credit is 0 to {MAX_AMOUNT}, not {credit}"));
        }
        let needs = deal_needs(profile, antes, &bonus_stakes);
        if credit < needs {
            return Err(format!(
                "not enough credit to deal: the antes, bonus stakes and play bets need {needs} and the \
                 credit is {credit}"
            ));
        }
    }
    Ok(bonus_stakes)
}

/// The least ante a box takes when `boxes` boxes are played, beyond the table's: several boxes
/// may ask for more (the profile's `min_ante_multi`).
fn least_ante_on(profile: &Profile, boxes: usize) -> Option<Money> {
    profile.boxes.min_ante_multi.filter(|_| boxes > 1)
}

/// Every ante each of `boxes` boxes may take, lowest first: the table's ante ladder, from
/// the profile's higher minimum when several boxes are played. `check_bets` refuses the others.
pub fn allowed_antes(profile: &Profile, boxes: usize) -> Vec<Money> {
    let least = least_ante_on(profile, boxes).unwrap_or(0);
    profile.allowed_antes().filter(|&ante| ante >= least).collect()
}

/// The antes at which a box's return per ante may be at its least or greatest, lowest first.
/// Every price is in antes and the maximum payout cuts more as the ante grows, so the return
/// per ante never rises with the ante, except where a fee is set for one ante (a privilege
/// fee's `fee_at_ante`): the table's least and greatest ante, each ante priced apart, and
/// the least ante priced in proportion.
pub fn extreme_antes(profile: &Profile) -> Vec<Money> {
    let priced_apart = profile.bonus.as_ref().map(|bonus| &bonus.fee_at_ante);
    let is_apart = |ante: &Money| priced_apart.is_some_and(|fees| fees.contains_key(ante));
    let t = &profile.table;
    let in_proportion = profile.allowed_antes().find(|ante| !is_apart(ante)).unwrap_or(t.ante_min);
    let mut antes: Vec<Money> = [t.ante_min, t.ante_max, in_proportion]
        .into_iter()
        .chain(priced_apart.into_iter().flat_map(|fees| fees.keys().copied()))
        .collect();
    antes.sort_unstable();
    antes.dedup();
    antes
}

/// What the deal takes from the credit: every ante and bonus stake (`bonus` may be empty:
/// none), and a blind box's play bet (it has no decision to make); the other play bets are
/// only kept in reserve (`deal_needs`).
pub fn placed_at_deal(profile: &Profile, antes: &[Money], bonus: &[Money]) -> Money {
    antes
        .iter()
        .zip(bonus.iter().chain(std::iter::repeat(&0)))
        .enumerate()
        .map(|(i, (&ante, &stake))| {
            ante + stake + if i >= profile.boxes.looked_at { profile.play_bet(ante) } else { 0 }
        })
        .sum()
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
            let (min, max, step) = stake_range(bonus);
            if !(min..=max).contains(&stake) || (stake - min) % step != 0 {
                return Err(format!("the bonus stake is {min} to {max} in steps of {step}, not {stake}"));
            }
        }
    }
    Ok(())
}

/// A fixed or odds bonus's stakes: the least, the greatest and the step between them.
fn stake_range(bonus: &Bonus) -> (Money, Money, Money) {
    (bonus.stake_min.unwrap_or_default(), bonus.stake_max.unwrap_or_default(), bonus.stake_step.unwrap_or(1))
}

/// Every bonus stake a box may take at an ante, least first: the privilege fee, the fixed
/// stake, or the odds stakes in the profile's steps; none without a bonus bet.
pub fn bonus_stakes(profile: &Profile, ante: Money) -> Vec<Money> {
    let Some(bonus) = &profile.bonus else {
        return Vec::new();
    };
    match bonus.kind {
        BonusKind::Privilege => privilege_fee(profile, ante).into_iter().collect(),
        BonusKind::Fixed | BonusKind::Odds => {
            let (min, max, step) = stake_range(bonus);
            (min..=max).step_by(usize::try_from(step).unwrap_or(usize::MAX)).collect()
        }
    }
}

/// The fee (in antes) of exchanging `count` cards in an exchange round, if it offers that
/// many: a box with the bonus pays the round's bonus price where it has one.
pub(crate) fn exchange_fee(round: &ExchangeRound, count: usize, has_bonus: bool) -> Option<Ratio> {
    let with_bonus = has_bonus.then(|| round.with_bonus.get(&count)).flatten();
    with_bonus.or_else(|| round.fees.get(&count)).copied()
}

/// The numbers of cards a box may exchange in an exchange round, fewest first: those
/// `exchange_fee` prices for it. With the bonus that is every count offered without it and
/// the bonus's own, so `has_bonus` true gives every count any box may exchange.
pub(crate) fn exchange_counts(round: &ExchangeRound, has_bonus: bool) -> Vec<usize> {
    (1..=HAND).filter(|&count| exchange_fee(round, count, has_bonus).is_some()).collect()
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

/// The fee of the dealer's redraw at an ante, if the profile sells one: what a box pays for
/// it wherever `redraw_fee` lets it buy.
pub(crate) fn redraw_price(profile: &Profile, ante: Money) -> Option<Money> {
    profile.dealer_redraw().and_then(|(_, purchase)| purchase.fee.of(ante))
}

/// Why an option is refused when the credit left after it would not cover the play bets
/// still to come (RULES.md §2.7).
pub(super) fn credit_kept_for_play(what: &str, price: Money, play_bets: Money, credit: Money) -> String {
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

/// One exchange of so many cards and what it costs a box without and with the bonus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ExchangeFee {
    pub count: usize,
    pub fee: Option<Money>,
    pub with_bonus: Option<Money>,
}

/// Every price a box with this ante meets, in money: what the help screen states, priced by
/// the functions the round charges with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PriceList {
    pub ante: Money,
    pub play_bet: Money,
    /// The least bonus stake, or the privilege fee at this ante.
    pub bonus: Option<Money>,
    /// Each exchange round in order, its fees by the number of cards.
    pub exchanges: Vec<Vec<ExchangeFee>>,
    pub sixth_card: Option<Money>,
    /// The dealer's redraw after a non-qualifying reveal (his card, or the game).
    pub redraw: Option<Money>,
}

/// The prices of a box at `ante`, if the profile allows that ante.
pub fn price_list(profile: &Profile, ante: Money) -> Option<PriceList> {
    if !profile.allows_ante(ante) {
        return None;
    }
    let in_money = |fee: Option<Ratio>| fee.map(|fee| fee.of(ante).expect("the profile checked every price"));
    let exchanges = profile.exchange.as_ref().map_or_else(Vec::new, |exchange| {
        exchange
            .rounds
            .iter()
            .map(|round| {
                exchange_counts(round, true)
                    .into_iter()
                    .map(|count| ExchangeFee {
                        count,
                        fee: in_money(exchange_fee(round, count, false)),
                        with_bonus: in_money(exchange_fee(round, count, true)),
                    })
                    .collect()
            })
            .collect()
    });
    Some(PriceList {
        ante,
        play_bet: profile.play_bet(ante),
        bonus: standard_bonus_stake(profile, ante),
        exchanges,
        sixth_card: in_money(profile.sixth_card.as_ref().map(|p| p.fee)),
        redraw: redraw_price(profile, ante),
    })
}
