//! The exact analysis itself: the payments at one ante, every player hand class and up card
//! counted against the dealer's hands, and the return table it ends in.

use rayon::prelude::*;
use serde::ser::{SerializeMap, SerializeStruct, Serializer};
use serde::Serialize;

use crate::card::DECK_SIZE;
use crate::eval::{evaluator, Category, HandValue};
use crate::profile::{BonusKind, Money, Profile};
use crate::progress::Progress;
use crate::round::{self, Outcome};

use super::holding::{player_classes, DealerCounts, HoldingTables};
use super::{AnalysisError, BoxPlay, HOLE_CARD_SETS, PLAYER_HANDS, TOTAL_COMBINATIONS, UP_CARDS};

/// One row of the return table.
#[derive(Clone, Debug, PartialEq)]
pub struct OutcomeRow {
    /// `won_<Category>`, `dealer_not_qualified`, `push`, `folded`, `lost`.
    pub name: String,
    /// Combinations that end so.
    pub combinations: u64,
    /// The player's net over ante and play bet, in minor units at the analysed ante.
    pub net: Money,
}

/// The exact return of a profile (see the module's documentation). Serialised with the
/// return table as two maps in table order, `outcomes` (name → combinations) and `net`
/// (name → the player's net in minor units at the analysed ante).
#[derive(Clone, Debug, PartialEq)]
pub struct ExactAnalysis {
    pub profile: String,
    pub profile_digest: String,
    /// The ante the payments are computed at (they scale with it unless the cap binds).
    pub ante: Money,
    pub play_multiple: u32,
    /// Categories whose payment the table's maximum payout cuts at this ante.
    pub cap_binds: Vec<Category>,
    pub total_combinations: u64,
    /// The return table: combinations and net per outcome.
    pub outcomes: Vec<OutcomeRow>,
    /// The player's net over all combinations, in minor units at the analysed ante.
    pub player_net: i128,
    /// The house's expected win per ante (positive when the house wins).
    pub house_edge: f64,
    /// The house's expected win per unit wagered (ante plus play bet).
    pub element_of_risk: f64,
    /// The share of deals in which the player plays.
    pub play_fraction: f64,
    /// Ante plus the expected play bet, in antes.
    pub average_wager: f64,
    /// Standard deviation of the player's net per round, in antes.
    pub standard_deviation: f64,
    /// Player hand and up card situations, and those in which optimal play plays.
    pub situations: u64,
    pub situations_played: u64,
    /// Player-hand classes analysed (hands up to a permutation of suits).
    pub player_classes: u64,
    /// Memory of the counting tables, in bytes.
    pub table_bytes: u64,
    /// How the box is bet and played.
    pub play: BoxPlay,
    /// The side bet (a fixed or odds bonus) at its standard stake, if the profile has one and
    /// it is bet: the stake and its return per unit staked (its net; jackpot awards not
    /// included).
    pub bonus_stake: Money,
    pub bonus_return_per_stake: Option<f64>,
}

/// The return table's rows as a map in table order, of one column.
struct Column<'a, T: Serialize>(&'a [OutcomeRow], fn(&OutcomeRow) -> T);

impl<T: Serialize> Serialize for Column<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for row in self.0 {
            map.serialize_entry(&row.name, &(self.1)(row))?;
        }
        map.end()
    }
}

impl Serialize for ExactAnalysis {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("ExactAnalysis", 21)?;
        out.serialize_field("profile", &self.profile)?;
        out.serialize_field("profile_digest", &self.profile_digest)?;
        out.serialize_field("ante", &self.ante)?;
        out.serialize_field("play_multiple", &self.play_multiple)?;
        out.serialize_field("cap_binds", &self.cap_binds)?;
        out.serialize_field("total_combinations", &self.total_combinations)?;
        out.serialize_field("outcomes", &Column(&self.outcomes, |row| row.combinations))?;
        out.serialize_field("net", &Column(&self.outcomes, |row| row.net))?;
        out.serialize_field("player_net", &self.player_net)?;
        out.serialize_field("house_edge", &self.house_edge)?;
        out.serialize_field("element_of_risk", &self.element_of_risk)?;
        out.serialize_field("play_fraction", &self.play_fraction)?;
        out.serialize_field("average_wager", &self.average_wager)?;
        out.serialize_field("standard_deviation", &self.standard_deviation)?;
        out.serialize_field("situations", &self.situations)?;
        out.serialize_field("situations_played", &self.situations_played)?;
        out.serialize_field("player_classes", &self.player_classes)?;
        out.serialize_field("table_bytes", &self.table_bytes)?;
        out.serialize_field("play", self.play.name())?;
        out.serialize_field("bonus_stake", &self.bonus_stake)?;
        out.serialize_field("bonus_return_per_stake", &self.bonus_return_per_stake)?;
        out.end()
    }
}

impl ExactAnalysis {
    /// The combinations of an outcome by name (0 if there is no such row).
    pub fn combinations(&self, name: &str) -> u64 {
        self.outcomes.iter().find(|row| row.name == name).map_or(0, |row| row.combinations)
    }
}

/// What one class of player hands contributes, weighted by the hands in the class.
#[derive(Clone, Copy, Default)]
struct CombinationTally {
    won: [u64; 11],
    not_qualified: u64,
    push: u64,
    folded: u64,
    lost: u64,
    situations_played: u64,
    /// The side bet's net over the combinations, in minor units.
    bonus_net: i128,
}

impl CombinationTally {
    fn add(mut self, other: CombinationTally) -> CombinationTally {
        for (mine, theirs) in self.won.iter_mut().zip(other.won) {
            *mine += theirs;
        }
        self.not_qualified += other.not_qualified;
        self.push += other.push;
        self.folded += other.folded;
        self.bonus_net += other.bonus_net;
        self.lost += other.lost;
        self.situations_played += other.situations_played;
        self
    }
}

/// The player's net over ante and play bet at one ante, in minor units, for each way a
/// round ends: the round engine's own settlement (`round::main_bets`), cap included.
pub(super) struct Payments {
    pub(super) ante: Money,
    pub(super) play: Money,
    /// Beating a qualifying dealer, by the player's category (0 where there is no row).
    pub(super) won: [Money; 11],
    pub(super) not_qualified: Money,
    pub(super) push: Money,
    pub(super) folded: Money,
    pub(super) lost: Money,
}

impl Payments {
    pub(super) fn new(profile: &Profile, ante: Money) -> Payments {
        let play = profile.play_bet(ante);
        // The settlement looks at the hand's category only (its odds).
        let net = |category: Category, outcome| {
            let (_, ante, play) = round::main_bets(profile, category.lowest(), ante, play, outcome);
            ante.net() + play.net()
        };
        let won = Category::ALL.map(|c| if profile.odds(c).is_some() { net(c, Outcome::Won) } else { 0 });
        Payments {
            ante,
            play,
            won,
            not_qualified: net(Category::HighCard, Outcome::DealerNotQualified),
            push: net(Category::HighCard, Outcome::Push),
            folded: net(Category::HighCard, Outcome::Folded),
            lost: net(Category::HighCard, Outcome::Lost),
        }
    }

    /// The categories whose payment the maximum payout cuts.
    pub(super) fn cut_by_cap(&self, profile: &Profile) -> Vec<Category> {
        Category::ALL
            .into_iter()
            .filter(|&c| {
                profile.odds(c).is_some_and(|odds| self.won[c as usize] < self.ante + self.play * odds)
            })
            .collect()
    }

    /// The player's net from playing, summed over the dealer's hole-card sets.
    pub(super) fn play_total(&self, dealer: DealerCounts, category: Category) -> i128 {
        i128::from(dealer.not_qualified) * i128::from(self.not_qualified)
            + i128::from(dealer.lower) * i128::from(self.won[category as usize])
            + i128::from(dealer.equal) * i128::from(self.push)
            + i128::from(dealer.higher) * i128::from(self.lost)
    }

    /// True when playing is worth at least folding (exact: every amount is an integer), a side
    /// bet that playing keeps and folding forfeits being worth `bonus_kept` more.
    pub(super) fn plays(&self, dealer: DealerCounts, category: Category, bonus_kept: i128) -> bool {
        let sets = i128::from(HOLE_CARD_SETS);
        self.play_total(dealer, category) + sets * bonus_kept >= sets * i128::from(self.folded)
    }
}

/// The exact analysis of a profile without options at an ante it allows, with its
/// qualifier's counting tables already built.
// Long: the count over every deal and the return table made from it share its payments and tally.
pub(crate) fn analyse(
    profile: &Profile,
    ante: Money,
    play: BoxPlay,
    tables: &HoldingTables,
    progress: &Progress,
) -> Result<ExactAnalysis, AnalysisError> {
    assert_eq!(tables.qualifier, profile.game.qualifier.lowest().strength());
    let payments = Payments::new(profile, ante);
    let bonus_stake = match profile.bonus.as_ref().map(|b| b.kind) {
        Some(BonusKind::Fixed | BonusKind::Odds) => play.stake(profile, ante),
        _ => 0,
    };
    let bonus_net = |value: HandValue, folded: bool| -> i128 {
        match bonus_stake {
            0 => 0,
            stake => i128::from(round::bonus_bet(profile, stake, false, folded, || value).0.net()),
        }
    };
    let classes = player_classes();
    progress.start(classes.len() as u64);
    let eval = evaluator();
    let tally = classes
        .par_iter()
        .map(|&(player, weight)| {
            if progress.is_cancelled() {
                return CombinationTally::default();
            }
            let weight = u64::from(weight);
            let value = eval.eval5(player);
            let category = value.category();
            let mut tally = CombinationTally::default();
            for up in (0..DECK_SIZE as u8).filter(|c| !player.contains(c)) {
                let dealer = tables.dealer_counts(&player, up, value.strength());
                // A fold that forfeits the side bet weighs its loss too, as a player who bets it
                // would; the main game's own best play does not.
                let kept = match play.weighs_bonus() {
                    true => bonus_net(value, false) - bonus_net(value, true),
                    false => 0,
                };
                let plays = play == BoxPlay::Blind || payments.plays(dealer, category, kept);
                tally.bonus_net += i128::from(weight * HOLE_CARD_SETS) * bonus_net(value, !plays);
                if plays {
                    tally.won[category as usize] += weight * dealer.lower;
                    tally.not_qualified += weight * dealer.not_qualified;
                    tally.push += weight * dealer.equal;
                    tally.lost += weight * dealer.higher;
                    tally.situations_played += weight;
                } else {
                    tally.folded += weight * HOLE_CARD_SETS;
                }
            }
            progress.advance(1);
            tally
        })
        .reduce(CombinationTally::default, CombinationTally::add);
    if progress.is_cancelled() {
        return Err(AnalysisError::Cancelled);
    }

    let mut outcomes: Vec<OutcomeRow> = Category::ALL
        .iter()
        .rev()
        .filter(|&&category| profile.odds(category).is_some())
        .map(|&category| OutcomeRow {
            name: round::outcome_name(Outcome::Won, category),
            combinations: tally.won[category as usize],
            net: payments.won[category as usize],
        })
        .collect();
    outcomes.extend(
        [
            (Outcome::DealerNotQualified, tally.not_qualified, payments.not_qualified),
            (Outcome::Push, tally.push, payments.push),
            (Outcome::Folded, tally.folded, payments.folded),
            (Outcome::Lost, tally.lost, payments.lost),
        ]
        .map(|(outcome, combinations, net)| OutcomeRow {
            name: outcome.name().into(),
            combinations,
            net,
        }),
    );
    let total_combinations: u64 = outcomes.iter().map(|row| row.combinations).sum();
    assert_eq!(total_combinations, TOTAL_COMBINATIONS, "every combination is counted once");

    let player_net: i128 =
        outcomes.iter().map(|row| i128::from(row.combinations) * i128::from(row.net)).sum();
    let total = total_combinations as f64;
    let mean = player_net as f64 / (ante as f64 * total);
    let square: f64 = outcomes
        .iter()
        .map(|row| row.combinations as f64 * (row.net as f64 / ante as f64).powi(2))
        .sum::<f64>()
        / total;
    let play_fraction = (total_combinations - tally.folded) as f64 / total;
    let average_wager = 1.0 + f64::from(profile.game.play_multiple) * play_fraction;
    Ok(ExactAnalysis {
        profile: profile.id.clone(),
        profile_digest: profile.digest(),
        ante,
        play_multiple: profile.game.play_multiple,
        cap_binds: payments.cut_by_cap(profile),
        total_combinations,
        outcomes,
        player_net,
        house_edge: -mean,
        element_of_risk: -mean / average_wager,
        play_fraction,
        average_wager,
        standard_deviation: (square - mean * mean).sqrt(),
        situations: PLAYER_HANDS * UP_CARDS,
        situations_played: tally.situations_played,
        player_classes: classes.len() as u64,
        table_bytes: tables.bytes() as u64,
        play,
        bonus_stake,
        bonus_return_per_stake: (bonus_stake > 0)
            .then(|| tally.bonus_net as f64 / (total * bonus_stake as f64)),
    })
}
