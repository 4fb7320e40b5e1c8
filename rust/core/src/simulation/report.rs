//! What a simulation reports: the types serialised for the kiosk and the PAR sheets, and the
//! report made from the tallies.

use indexmap::IndexMap;
use serde::Serialize;

use crate::eval::Category;
use crate::profile::{BonusKind, Money, Redraw};
use crate::round::{self, Outcome};

use super::fast::{Anchors, FastPlayer};
use super::play::{FOLDED, LOST, NOT_QUALIFIED, PROTECTED, PUSH, STILL_NOT_QUALIFIED};
use super::tally::{mean_estimate, stratified, Tally, Z95};
use super::SimulationOptions;

/// A map serialised in the order its entries were made (the table's order, not the keys').
pub type Ordered<T> = IndexMap<String, T>;

/// A mean with the half-width of its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub value: f64,
    pub ci95: f64,
}

/// How the main game's return is estimated: the exact return of the profile's play-or-fold
/// game on the same deals plus the mean difference of the two games' conditional nets.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ControlVariate {
    pub base_return_per_ante: f64,
    /// The plain estimate's variance over this one's: how many times fewer rounds it needs
    /// (none where this one varied in no round).
    pub variance_reduction: Option<f64>,
}

/// One option of the profile: how often the box took it and what it brought.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionFigures {
    /// Rounds in which it was taken.
    pub taken: u64,
    pub frequency: f64,
    /// Fees (or stakes, for insurance) paid for it, in antes per round.
    pub paid: f64,
    /// Its net contribution to the return, in antes per round: the box's net with it, less
    /// the net the box would have had without it on the same cards (see docs/simulation.md).
    pub contribution: f64,
}

/// A bonus award's hits.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BonusHit {
    pub hits: u64,
    pub frequency: f64,
    /// Fixed amount (minor units) or odds (N:1); for a jackpot award its share of the meter.
    pub pays: String,
}

/// The bonus bet's figures (a separate bet, not in the main game's return).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BonusFigures {
    pub kind: String,
    pub stake: Money,
    /// The side bet's return per unit staked (without jackpot awards), with its interval.
    pub return_per_stake: Estimate,
    /// Hits by hand: fixed or odds awards.
    pub hits: Ordered<BonusHit>,
    /// Jackpot hits by hand, each a share of the progressive meter, whose money is not in
    /// any return here.
    pub jackpot_hits: Ordered<BonusHit>,
}

/// A simulation's result. Amounts in minor units at `ante`; returns in antes or fractions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Simulation {
    pub profile: String,
    pub profile_digest: String,
    pub ante: Money,
    /// How the box is bet and played ([`BoxPlay::name`](crate::analysis::BoxPlay::name)).
    pub play: &'static str,
    pub bonus_stake: Money,
    pub seed: String,
    pub rounds: u64,
    pub method: &'static str,
    /// Categories whose win the maximum payout cuts at this ante.
    pub cap_binds: Vec<Category>,
    /// The house's expected win per ante in the main game (ante, play bet, fees, insurance,
    /// the privilege fee; not the side bet), positive when the house wins.
    pub house_edge: f64,
    pub house_edge_ci95: f64,
    /// The estimate's anchor and what it gained over the plain mean of the rounds' nets.
    pub control_variate: ControlVariate,
    /// The plain mean of the rounds' main-game nets per ante (the return table's total).
    pub monte_carlo_return_per_ante: Estimate,
    pub return_per_ante: Estimate,
    /// The main game's net per unit wagered (ante, play bet, fees, insurance).
    pub return_per_wager: Estimate,
    pub element_of_risk: f64,
    pub element_of_risk_ci95: f64,
    pub average_wager: f64,
    pub standard_deviation: f64,
    pub play_fraction: f64,
    pub play_fraction_ci95: f64,
    /// The box's whole net per ante, the side bet included.
    pub return_with_bonus: Estimate,
    /// Rounds by how they ended.
    pub outcomes: Ordered<u64>,
    /// Each outcome's share of the return, in antes per round.
    pub outcome_return: Ordered<f64>,
    pub bonus: Option<BonusFigures>,
    pub options: Ordered<OptionFigures>,
    /// Exchanges by exchange round and card count: rounds in which the box exchanged so many.
    pub exchanges: Ordered<u64>,
    /// The distribution of the main game's net per round: (net in antes, rounds), ascending.
    pub distribution: Vec<(f64, u64)>,
}

/// The name of a tally's outcome slot: a category's slot counts the wins with it.
fn outcome_name(slot: usize) -> String {
    let outcome = match slot {
        NOT_QUALIFIED => Outcome::DealerNotQualified,
        STILL_NOT_QUALIFIED => Outcome::DealerStillNotQualified,
        PUSH => Outcome::Push,
        PROTECTED => Outcome::Protected,
        FOLDED => Outcome::Folded,
        LOST => Outcome::Lost,
        won => return round::outcome_name(Outcome::Won, Category::ALL[won]),
    };
    outcome.name().into()
}

/// The report of a simulation from its tally, at the player's ante and stake.
// Long: as the report is, each of its figures takes a few lines from the tally.
pub(super) fn report(
    player: &FastPlayer<'_>,
    options: &SimulationOptions,
    anchors: Anchors,
    t: Tally,
) -> Simulation {
    let (profile, ante, stake) = (player.profile, player.ante, player.bonus_stake);
    let n = t.rounds;
    let n_f = n as f64;
    let a = ante as f64;
    let monte_carlo = mean_estimate(t.net, t.net_sq, n, a);
    let controlled = stratified(&t.controlled);
    let per_ante = Estimate { value: anchors.base_return + controlled.value, ci95: controlled.ci95 };
    let wager = mean_estimate(t.wager, t.wager_sq, n, a);
    // The ratio of two estimates, with the delta method's interval (their covariance left out).
    let ratio = per_ante.value / wager.value;
    let ratio_ci = (per_ante.ci95.powi(2) + (ratio * wager.ci95).powi(2)).sqrt() / wager.value;
    let mean_wager = t.wager as f64 / n_f;
    let play_fraction = t.played as f64 / n_f;
    let play_bet = profile.play_bet(ante);
    let cap_binds = Category::ALL
        .into_iter()
        .filter(|&c| {
            profile.odds(c).is_some_and(|odds| {
                let (_, a, p) = round::main_bets(profile, c.lowest(), ante, play_bet, Outcome::Won);
                a.net() + p.net() < ante + play_bet * odds
            })
        })
        .collect();
    let mut order: Vec<usize> = (0..11).rev().filter(|&c| profile.odds(Category::ALL[c]).is_some()).collect();
    order.extend([NOT_QUALIFIED, STILL_NOT_QUALIFIED, PUSH, PROTECTED, FOLDED, LOST]);
    let order: Vec<usize> = order
        .into_iter()
        .filter(|&slot| match slot {
            STILL_NOT_QUALIFIED => profile.dealer_redraw().is_some(),
            PROTECTED => profile.protection.is_some(),
            _ => true,
        })
        .collect();
    let outcomes: Ordered<u64> = order.iter().map(|&s| (outcome_name(s), t.outcomes[s])).collect();
    let outcome_return: Ordered<f64> =
        order.iter().map(|&s| (outcome_name(s), t.outcome_net[s] as f64 / n_f / a)).collect();
    let side_controlled = stratified(&t.side_controlled);
    let side = match profile.bonus.as_ref().map(|b| b.kind) {
        Some(BonusKind::Fixed | BonusKind::Odds) if stake > 0 => {
            Estimate { value: anchors.side_return + side_controlled.value, ci95: side_controlled.ci95 }
        }
        _ => Estimate { value: 0.0, ci95: 0.0 },
    };
    let bonus = profile.bonus.as_ref().filter(|_| stake > 0).map(|b| {
        let hit = |hits: u64, pays: String| BonusHit { hits, frequency: hits as f64 / n_f, pays };
        let hits: Ordered<BonusHit> = b
            .pays
            .iter()
            .rev()
            .filter(|(c, _)| !b.jackpot.iter().any(|j| j.category == **c))
            .map(|(&c, &pays)| {
                let pays = match b.kind {
                    BonusKind::Fixed => format!("{pays}"),
                    _ => format!("{pays}:1"),
                };
                (c.name().to_string(), hit(t.bonus_hits[c as usize], pays))
            })
            .collect();
        let jackpot_hits: Ordered<BonusHit> = b
            .jackpot
            .iter()
            .map(|j| {
                (j.category.name().to_string(), hit(t.jackpot_hits[j.category as usize], j.share.to_string()))
            })
            .collect();
        BonusFigures {
            kind: match b.kind {
                BonusKind::Fixed => "fixed",
                BonusKind::Odds => "odds",
                BonusKind::Privilege => "privilege",
            }
            .into(),
            stake,
            return_per_stake: if b.kind == BonusKind::Privilege {
                Estimate { value: -1.0, ci95: 0.0 }
            } else {
                side
            },
            hits,
            jackpot_hits,
        }
    });
    let figures = |taken: u64, paid: i128, gain: i128| OptionFigures {
        taken,
        frequency: taken as f64 / n_f,
        paid: paid as f64 / n_f / a,
        contribution: gain as f64 / n_f / a,
    };
    let mut option_rows = Vec::new();
    if profile.exchange.is_some() {
        option_rows
            .push(("exchange".to_string(), figures(t.exchanged_rounds, t.exchange_fees, t.exchange_gain)));
    }
    if profile.sixth_card.is_some() {
        option_rows.push(("sixth_card".to_string(), figures(t.sixth, t.sixth_fees, t.sixth_gain)));
    }
    if profile.insurance.is_some() {
        option_rows
            .push(("insurance".to_string(), figures(t.insurance, t.insurance_staked, t.insurance_net)));
    }
    if let Some((redraw, _)) = profile.dealer_redraw() {
        let fee = i128::from(round::redraw_price(profile, ante).unwrap_or(0));
        let name = match redraw {
            Redraw::DealerCard => "buy_dealer_card",
            Redraw::Game => "buy_game",
        };
        option_rows.push((name.to_string(), figures(t.redraw, fee * i128::from(t.redraw), t.redraw_gain)));
    }
    let mut exchanges = Vec::new();
    if let Some(e) = &profile.exchange {
        for (r, exchange_round) in e.rounds.iter().enumerate().take(2) {
            for k in round::exchange_counts(exchange_round, true) {
                exchanges.push((format!("round_{}_cards_{k}", r + 1), t.exchanges[r][k]));
            }
        }
    }
    let mut distribution: Vec<(f64, u64)> =
        t.histogram.iter().map(|(&net, &count)| (net as f64 / a, count)).collect();
    distribution.sort_by(|x, y| x.0.total_cmp(&y.0));
    let variance = (t.net_sq as f64 - t.net as f64 * (t.net as f64 / n_f)) / (n_f - 1.0).max(1.0);
    Simulation {
        profile: profile.id.clone(),
        profile_digest: profile.digest(),
        ante,
        play: options.play.name(),
        bonus_stake: stake,
        seed: round::hex(&options.seed),
        rounds: n,
        method: "monte carlo, stratified by the up card's rank, fast near-optimal strategy",
        cap_binds,
        house_edge: -per_ante.value,
        house_edge_ci95: per_ante.ci95,
        control_variate: ControlVariate {
            base_return_per_ante: anchors.base_return,
            variance_reduction: (per_ante.ci95 > 0.0).then(|| (monte_carlo.ci95 / per_ante.ci95).powi(2)),
        },
        monte_carlo_return_per_ante: monte_carlo,
        return_with_bonus: Estimate {
            value: per_ante.value + side.value * stake as f64 / a,
            ci95: per_ante.ci95 + side.ci95 * stake as f64 / a,
        },
        return_per_ante: per_ante,
        return_per_wager: Estimate { value: ratio, ci95: ratio_ci },
        element_of_risk: -ratio,
        element_of_risk_ci95: ratio_ci,
        average_wager: mean_wager / a,
        standard_deviation: variance.max(0.0).sqrt() / a,
        play_fraction,
        play_fraction_ci95: Z95 * (play_fraction * (1.0 - play_fraction) / n_f).sqrt(),
        outcomes,
        outcome_return,
        bonus,
        options: option_rows.into_iter().collect(),
        exchanges: exchanges.into_iter().collect(),
        distribution,
    }
}
