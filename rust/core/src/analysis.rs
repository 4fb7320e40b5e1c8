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

use crate::progress::Progress;
use std::borrow::Cow;
use std::fmt;

use rayon::prelude::*;
use serde::ser::{SerializeMap, SerializeStruct, Serializer};
use serde::Serialize;

use crate::card::{for_each_hand, DECK_SIZE};
use crate::eval::{evaluator, Category, HandValue};
use crate::profile::{BonusKind, JudgedOn, Money, Profile};
use crate::round::{self, Outcome};

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

/// Calls `visit` with every K-element subset of `0..n`, ascending.
fn for_each_combination<const K: usize>(n: usize, mut visit: impl FnMut([u8; K])) {
    if n < K {
        return;
    }
    let mut index: [u8; K] = std::array::from_fn(|i| i as u8);
    loop {
        visit(index);
        let Some(i) = (0..K).rev().find(|&i| usize::from(index[i]) < n - K + i) else {
            return;
        };
        index[i] += 1;
        for j in i + 1..K {
            index[j] = index[j - 1] + 1;
        }
    }
}

/// Every K-card set in the order of [`subset_rank`].
fn subsets_by_rank<const K: usize>() -> Vec<[u8; K]> {
    let mut subsets = vec![[0u8; K]; BINOMIAL[DECK_SIZE][K] as usize];
    for_each_hand::<K>(|set| subsets[subset_rank(&set)] = set);
    subsets
}

/// The strengths of every five-card hand that holds the cards of `held`.
fn for_each_hand_holding<const K: usize, const REST: usize>(held: [u8; K], mut visit: impl FnMut(u16)) {
    let others: Vec<u8> = (0..DECK_SIZE as u8).filter(|c| !held.contains(c)).collect();
    let eval = evaluator();
    for_each_combination::<REST>(others.len(), |picked| {
        let mut hand = [0u8; 5];
        hand[..K].copy_from_slice(&held);
        for (slot, &i) in hand[K..].iter_mut().zip(&picked) {
            *slot = others[usize::from(i)];
        }
        visit(eval.eval5(hand).strength());
    });
}

/// For every set of one to four cards, the strengths of the five-card hands that hold it.
pub(crate) struct HoldingTables {
    /// Per card (52): how many hands holding it are below each strength (cumulative).
    pub(crate) one: Vec<u32>,
    /// Per pair (1 326), cumulative as for one card.
    two: Vec<u16>,
    /// Per three cards (22 100): the 1 176 strengths, sorted.
    three: Vec<u16>,
    /// Per four cards (270 725): the 48 strengths, sorted.
    four: Vec<u16>,
    /// The least strength that qualifies the dealer.
    pub(crate) qualifier: u16,
    /// Per three and per four cards: how many of their hands do not qualify.
    three_unqualified: Vec<u16>,
    four_unqualified: Vec<u8>,
}

/// Running totals of `counts` into `out` (one longer): `out[x]` counts strengths below `x`.
fn cumulative<T>(counts: &[u32], out: &mut [T], convert: fn(u32) -> T) {
    let mut running = 0u32;
    out[0] = convert(0);
    for (strength, &count) in counts.iter().enumerate() {
        running += count;
        out[strength + 1] = convert(running);
    }
}

impl HoldingTables {
    pub(crate) fn build(qualifier: Category) -> HoldingTables {
        fn counted<const K: usize, const REST: usize, T: Copy + Default + Send>(
            subsets: &[[u8; K]],
            convert: fn(u32) -> T,
        ) -> Vec<T> {
            let mut table = vec![T::default(); subsets.len() * CUMULATIVE];
            table.par_chunks_mut(CUMULATIVE).zip(subsets).for_each(|(out, &held)| {
                let mut counts = vec![0u32; STRENGTHS];
                for_each_hand_holding::<K, REST>(held, |s| counts[usize::from(s)] += 1);
                cumulative(&counts, out, convert);
            });
            table
        }
        fn sorted<const K: usize, const REST: usize>(subsets: &[[u8; K]]) -> Vec<u16> {
            let per = HANDS_HOLDING[K];
            let mut table = vec![0u16; subsets.len() * per];
            table.par_chunks_mut(per).zip(subsets).for_each(|(out, &held)| {
                let mut next = 0;
                for_each_hand_holding::<K, REST>(held, |s| {
                    out[next] = s;
                    next += 1;
                });
                out.sort_unstable();
            });
            table
        }
        let three = sorted::<3, 2>(&subsets_by_rank::<3>());
        let four = sorted::<4, 1>(&subsets_by_rank::<4>());
        let qualifier = qualifier.lowest().strength();
        let unqualified = |hands: &[u16]| hands.partition_point(|&s| s < qualifier);
        HoldingTables {
            one: counted::<1, 4, u32>(&subsets_by_rank::<1>(), |n| n),
            // At most 19 600 hands hold two given cards.
            two: counted::<2, 3, u16>(&subsets_by_rank::<2>(), |n| n as u16),
            three_unqualified: three.par_chunks(HANDS_HOLDING[3]).map(|h| unqualified(h) as u16).collect(),
            four_unqualified: four.par_chunks(HANDS_HOLDING[4]).map(|h| unqualified(h) as u8).collect(),
            three,
            four,
            qualifier,
        }
    }

    /// The memory the tables take, in bytes.
    fn bytes(&self) -> usize {
        4 * self.one.len()
            + 2 * (self.two.len() + self.three.len() + self.four.len() + self.three_unqualified.len())
            + self.four_unqualified.len()
    }

    /// Of the five-card hands holding the sorted cards `held` (one to five): how many do
    /// not qualify, and, for a player hand of strength `player` that a qualifying dealer can
    /// lose to, how many are below it and how many not above it.
    #[inline]
    pub(crate) fn count(&self, held: &[u8], player: Option<u16>) -> [i64; 3] {
        let rank = subset_rank(held);
        let q = usize::from(self.qualifier);
        let list = |table: &[u16], unqualified: usize| {
            let per = HANDS_HOLDING[held.len()];
            let hands = &table[rank * per..(rank + 1) * per];
            match player {
                None => [unqualified as i64; 3],
                Some(s) => {
                    let below = unqualified + hands[unqualified..].partition_point(|&v| v < s);
                    let equal = hands[below..].iter().take_while(|&&v| v == s).count();
                    [unqualified as i64, below as i64, (below + equal) as i64]
                }
            }
        };
        match held.len() {
            1 => row(&self.one[rank * CUMULATIVE..(rank + 1) * CUMULATIVE], q, player),
            2 => row(&self.two[rank * CUMULATIVE..(rank + 1) * CUMULATIVE], q, player),
            3 => list(&self.three, usize::from(self.three_unqualified[rank])),
            4 => list(&self.four, usize::from(self.four_unqualified[rank])),
            5 => {
                let strength = evaluator().eval5(held.try_into().expect("five cards")).strength();
                let s = player.unwrap_or(self.qualifier);
                [strength < self.qualifier, strength < s, strength <= s].map(i64::from)
            }
            n => unreachable!("{n} cards held"),
        }
    }
}

/// [`HoldingTables::count`] from a row of cumulative counts.
#[inline(always)]
fn row<T: Copy + Into<i64>>(below: &[T], qualifier: usize, player: Option<u16>) -> [i64; 3] {
    match player {
        None => [below[qualifier].into(); 3],
        Some(s) => [below[qualifier], below[usize::from(s)], below[usize::from(s) + 1]].map(Into::into),
    }
}

/// The dealer's hands for one player hand and up card, by how they end against the player
/// who plays: counts of hole-card sets (they add up to [`HOLE_CARD_SETS`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DealerCounts {
    pub not_qualified: u64,
    /// Qualifies with a lower hand than the player's.
    pub lower: u64,
    pub equal: u64,
    pub higher: u64,
}

impl HoldingTables {
    /// The dealer's hands holding `up` and none of `player`'s cards, counted by
    /// inclusion–exclusion over the subsets of the player's cards.
    fn dealer_counts(&self, player: &[u8; 5], up: u8, strength: u16) -> DealerCounts {
        let player_strength = (strength >= self.qualifier).then_some(strength);
        let mut sums = [0i64; 3];
        let mut held = [0u8; 5];
        for subset in 0u32..31 {
            // 31 = 0b11111 would hold six cards: no five-card hand does.
            let mut len = 0;
            let mut placed = false;
            for (i, &card) in player.iter().enumerate() {
                if subset >> i & 1 == 1 {
                    if !placed && up < card {
                        held[len] = up;
                        len += 1;
                        placed = true;
                    }
                    held[len] = card;
                    len += 1;
                }
            }
            if !placed {
                held[len] = up;
                len += 1;
            }
            let sign = if subset.count_ones() % 2 == 0 { 1 } else { -1 };
            for (sum, count) in sums.iter_mut().zip(self.count(&held[..len], player_strength)) {
                *sum += sign * count;
            }
        }
        let [below_qualifier, below_player, not_above_player] = sums;
        let count = |n: i64| u64::try_from(n).expect("inclusion–exclusion counts are never negative");
        DealerCounts {
            not_qualified: count(below_qualifier),
            lower: count(below_player - below_qualifier),
            equal: count(not_above_player - below_player),
            higher: count(HOLE_CARD_SETS as i64 - not_above_player),
        }
    }
}

/// One player hand in each class of hands equal up to a permutation of suits, with the
/// number of hands of its class.
fn player_classes() -> Vec<([u8; 5], u8)> {
    const PERMUTATIONS: [[u8; 4]; 24] = {
        let mut all = [[0u8; 4]; 24];
        let mut n = 0;
        let mut code = 0;
        while code < 256 {
            let p = [code as u8 & 3, (code >> 2) as u8 & 3, (code >> 4) as u8 & 3, (code >> 6) as u8 & 3];
            if p[0] != p[1] && p[0] != p[2] && p[0] != p[3] && p[1] != p[2] && p[1] != p[3] && p[2] != p[3] {
                all[n] = p;
                n += 1;
            }
            code += 1;
        }
        all
    };
    /// One bit per rank at the clubs position (code 4 × rank).
    const CLUBS: u64 = 0x1_1111_1111_1111;
    let mut classes = Vec::new();
    for_each_hand::<5>(|hand| {
        let mask = hand.iter().fold(0u64, |m, &c| m | 1 << c);
        let mut same = 0u8;
        for permutation in PERMUTATIONS {
            let image = (0..4).fold(0u64, |m, suit| m | ((mask >> suit) & CLUBS) << permutation[suit]);
            if image < mask {
                return; // another hand of the class stands for it
            }
            same += u8::from(image == mask);
        }
        classes.push((hand, 24 / same));
    });
    classes
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
struct Tally {
    won: [u64; 11],
    not_qualified: u64,
    push: u64,
    folded: u64,
    lost: u64,
    situations_played: u64,
    /// The side bet's net over the combinations, in minor units.
    bonus_net: i128,
}

impl Tally {
    fn add(mut self, other: Tally) -> Tally {
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
struct Payments {
    ante: Money,
    play: Money,
    /// Beating a qualifying dealer, by the player's category (0 where there is no row).
    won: [Money; 11],
    not_qualified: Money,
    push: Money,
    folded: Money,
    lost: Money,
}

impl Payments {
    fn new(profile: &Profile, ante: Money) -> Payments {
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
    fn cut_by_cap(&self, profile: &Profile) -> Vec<Category> {
        Category::ALL
            .into_iter()
            .filter(|&c| {
                profile.odds(c).is_some_and(|odds| self.won[c as usize] < self.ante + self.play * odds)
            })
            .collect()
    }

    /// The player's net from playing, summed over the dealer's hole-card sets.
    fn play_total(&self, dealer: DealerCounts, category: Category) -> i128 {
        i128::from(dealer.not_qualified) * i128::from(self.not_qualified)
            + i128::from(dealer.lower) * i128::from(self.won[category as usize])
            + i128::from(dealer.equal) * i128::from(self.push)
            + i128::from(dealer.higher) * i128::from(self.lost)
    }

    /// True when playing is worth at least folding (exact: every amount is an integer), a side
    /// bet that playing keeps and folding forfeits being worth `bonus_kept` more.
    fn plays(&self, dealer: DealerCounts, category: Category, bonus_kept: i128) -> bool {
        let sets = i128::from(HOLE_CARD_SETS);
        self.play_total(dealer, category) + sets * bonus_kept >= sets * i128::from(self.folded)
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

/// The exact analysis of a profile without options at an ante it allows, with its
/// qualifier's counting tables already built.
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
                return Tally::default();
            }
            let weight = u64::from(weight);
            let value = eval.eval5(player);
            let category = value.category();
            let mut tally = Tally::default();
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
        .reduce(Tally::default, Tally::add);
    if progress.is_cancelled() {
        return Err(AnalysisError::Cancelled);
    }

    let mut outcomes: Vec<OutcomeRow> = Category::ALL
        .iter()
        .rev()
        .filter(|&&category| profile.odds(category).is_some())
        .map(|&category| OutcomeRow {
            name: format!("won_{}", category.name()),
            combinations: tally.won[category as usize],
            net: payments.won[category as usize],
        })
        .collect();
    outcomes.extend([
        OutcomeRow {
            name: "dealer_not_qualified".into(),
            combinations: tally.not_qualified,
            net: payments.not_qualified,
        },
        OutcomeRow { name: "push".into(), combinations: tally.push, net: payments.push },
        OutcomeRow { name: "folded".into(), combinations: tally.folded, net: payments.folded },
        OutcomeRow { name: "lost".into(), combinations: tally.lost, net: payments.lost },
    ]);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::shipped_profile_text;
    use std::collections::HashSet;

    #[test]
    fn subsets_are_ranked_densely() {
        let mut seen = vec![false; BINOMIAL[DECK_SIZE][3] as usize];
        for_each_hand::<3>(|set| {
            let rank = subset_rank(&set);
            assert!(!seen[rank], "{set:?} shares rank {rank}");
            seen[rank] = true;
        });
        assert!(seen.iter().all(|&s| s));
        assert_eq!(BINOMIAL[52][5], PLAYER_HANDS);
        assert_eq!(BINOMIAL[46][4], HOLE_CARD_SETS);
        for k in 1..=5 {
            assert_eq!(HANDS_HOLDING[k] as u64, BINOMIAL[52 - k][5 - k]);
        }
        let mut count = 0;
        for_each_combination::<2>(5, |pair| {
            assert!(pair[0] < pair[1] && pair[1] < 5);
            count += 1;
        });
        assert_eq!(count, 10);
    }

    /// The classes of hands up to suits, found the slow way: each hand's smallest image under
    /// the 24 suit permutations, as a sorted list of codes.
    #[test]
    fn player_classes_cover_every_hand_once() {
        let classes = player_classes();
        assert_eq!(classes.iter().map(|&(_, w)| u64::from(w)).sum::<u64>(), PLAYER_HANDS);
        let mut naive = HashSet::new();
        let permutations: Vec<[u8; 4]> = (0..256u32)
            .map(|c| [c as u8 & 3, (c >> 2) as u8 & 3, (c >> 4) as u8 & 3, (c >> 6) as u8 & 3])
            .filter(|p| p.iter().collect::<HashSet<_>>().len() == 4)
            .collect();
        assert_eq!(permutations.len(), 24);
        for_each_hand::<5>(|hand| {
            let smallest = permutations
                .iter()
                .map(|p| {
                    let mut image = hand.map(|c| c & !3 | p[usize::from(c & 3)]);
                    image.sort_unstable();
                    image
                })
                .min()
                .unwrap();
            naive.insert(smallest);
        });
        // 134 459: the number of five-card hands up to suit isomorphism.
        assert_eq!(naive.len(), 134_459);
        assert_eq!(classes.len(), naive.len());
    }

    /// The dealer's counts for one player hand and up card, dealing all C(46, 4) hole-card sets.
    fn brute_force(player: [u8; 5], up: u8, qualifier: u16) -> DealerCounts {
        let strength = evaluator().eval5(player).strength();
        let rest: Vec<u8> = (0..52).filter(|c| !player.contains(c) && *c != up).collect();
        let mut counts = DealerCounts::default();
        for_each_combination::<4>(rest.len(), |hole| {
            let dealer = [
                up,
                rest[hole[0] as usize],
                rest[hole[1] as usize],
                rest[hole[2] as usize],
                rest[hole[3] as usize],
            ];
            let dealer = evaluator().eval5(dealer).strength();
            if dealer < qualifier {
                counts.not_qualified += 1;
            } else if dealer < strength {
                counts.lower += 1;
            } else if dealer == strength {
                counts.equal += 1;
            } else {
                counts.higher += 1;
            }
        });
        counts
    }

    /// Pseudo-random player hands (sorted) and up cards, from a fixed linear congruential sequence.
    fn deals() -> impl Iterator<Item = ([u8; 5], u8)> {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        std::iter::repeat_with(move || {
            let mut deck: Vec<u8> = (0..52).collect();
            for i in 0..6 {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let j = i + (state >> 33) as usize % (52 - i);
                deck.swap(i, j);
            }
            let mut player: [u8; 5] = deck[..5].try_into().unwrap();
            player.sort_unstable();
            (player, deck[5])
        })
    }

    #[test]
    fn counting_by_inclusion_exclusion_equals_dealing_every_hole_card_set() {
        let cards = |text: &str| {
            let mut codes: [u8; 5] = crate::card::parse_cards(text)
                .unwrap()
                .iter()
                .map(|c| c.code())
                .collect::<Vec<_>>()
                .try_into()
                .unwrap();
            codes.sort_unstable();
            codes
        };
        let card = |text: &str| text.parse::<crate::card::Card>().unwrap().code();
        let mut cases = vec![
            (cards("As Ks Qs Js Ts"), card("Ah")), // royal flush, up card of its rank
            (cards("Ah Kd 9c 7s 4h"), card("2c")), // ace-king, the lowest up card
            (cards("Ah Kd 9c 7s 4h"), card("As")), // ace-king, up card pairing the ace
            (cards("Qh Qd 8c 5s 3d"), card("Qs")), // a pair matched by the up card
            (cards("9h 7d 6c 4s 2h"), card("Kd")), // a high card that never beats a qualifier
            (cards("2c 3c 4c 5c 7d"), card("6c")), // up card completing what the player lacks
            (cards("5h 5d 5c 9s 9d"), card("9h")),
        ];
        // And pseudo-random deals (a fixed linear congruential sequence).
        let mut deals = deals();
        while cases.len() < 40 {
            cases.push(deals.next().unwrap());
        }
        for qualifier in [Category::AceKing, Category::OnePair, Category::HighCard] {
            let tables = HoldingTables::build(qualifier);
            let q = qualifier.lowest().strength();
            for &(player, up) in &cases {
                let strength = evaluator().eval5(player).strength();
                let counted = tables.dealer_counts(&player, up, strength);
                assert_eq!(counted, brute_force(player, up, q), "{player:?} up {up}, {qualifier:?}");
                let sum = counted.not_qualified + counted.lower + counted.equal + counted.higher;
                assert_eq!(sum, HOLE_CARD_SETS);
            }
        }
    }

    fn shipped(id: &str, overrides: &str) -> Profile {
        Profile::from_toml(&shipped_profile_text(id), id, Some(overrides)).unwrap()
    }

    #[test]
    fn payments_are_the_round_engines_with_the_cap() {
        let free = shipped("caribbean", "");
        let payments = Payments::new(&free, 10_000);
        assert_eq!(payments.won[Category::RoyalFlush as usize], 10_000 + 20_000 * 100);
        assert_eq!(payments.won[Category::AceKing as usize], 30_000);
        assert_eq!(payments.not_qualified, 10_000);
        assert_eq!((payments.push, payments.folded, payments.lost), (0, -10_000, -30_000));
        assert!(payments.cut_by_cap(&free).is_empty());

        // A 2 000.00 cap on ante and play-bet wins cuts quads (4 100.00) and above, not a full house.
        let capped =
            shipped("caribbean", "[table]\nmax_payout = 200000\n[game]\nno_qualify_ante = \"returned\"");
        let payments = Payments::new(&capped, 10_000);
        assert_eq!(payments.won[Category::RoyalFlush as usize], 200_000);
        assert_eq!(payments.won[Category::FullHouse as usize], 10_000 + 20_000 * 7);
        assert_eq!(payments.not_qualified, 0);
        let cut = vec![Category::FourOfAKind, Category::StraightFlush, Category::RoyalFlush];
        assert_eq!(payments.cut_by_cap(&capped), cut);
        // A cap on the play bet alone leaves the ante's win whole.
        let play_cap = shipped("caribbean", "[table]\nmax_payout = 200000\n[game]\ncap = \"play\"");
        assert_eq!(Payments::new(&play_cap, 10_000).won[Category::RoyalFlush as usize], 210_000);
    }

    /// Folding costs one ante; playing is exact integer arithmetic on the counts, so a hand
    /// exactly as good to play as to fold plays.
    #[test]
    fn the_player_plays_when_playing_is_worth_at_least_folding() {
        let payments = Payments::new(&shipped("caribbean", ""), 1_000);
        // Playing a hand no qualifying dealer loses to: +1 ante per dealer who does not
        // qualify, −3 per dealer who does; worth folding's −163 185 from 81 593 such dealers.
        let short = DealerCounts { not_qualified: 81_592, lower: 0, equal: 0, higher: 81_593 };
        assert!(!payments.plays(short, Category::HighCard, 0), "81 592 − 3 × 81 593 = −163 187");
        let enough = DealerCounts { not_qualified: 81_593, lower: 0, equal: 0, higher: 81_592 };
        assert!(payments.plays(enough, Category::HighCard, 0), "81 593 − 3 × 81 592 = −163 183");
        let ace_king = DealerCounts { not_qualified: 40_797, lower: 40_796, equal: 0, higher: 81_592 };
        // 40 797 + 3 × 40 796 − 3 × 81 592 = −81 591: plays.
        assert!(payments.plays(ace_king, Category::AceKing, 0));
        let tie = DealerCounts { not_qualified: 0, lower: 0, equal: 108_790, higher: 54_395 };
        // −3 × 54 395 = −163 185 = folding: a tie of expectations plays.
        assert!(payments.plays(tie, Category::OnePair, 0));
        let worse = DealerCounts { not_qualified: 0, lower: 0, equal: 108_789, higher: 54_396 };
        assert!(!payments.plays(worse, Category::OnePair, 0));
    }

    /// The strategy module (`strategy::advise`) values the same decisions its own way, from a
    /// dealt round: both must agree on every expected value and so on every decision.
    #[test]
    fn the_decisions_agree_with_the_strategy_modules_advice() {
        use crate::card::Card;
        use crate::round::{Action, Round};
        let profile = std::sync::Arc::new(shipped("caribbean", ""));
        let tables = HoldingTables::build(profile.game.qualifier);
        let ante = 1_000;
        let payments = Payments::new(&profile, ante);
        // Ace-king hands are where the decision turns on the up card; some others beside them.
        let (mut ace_king, mut others) = (0, 0);
        let mut played = 0;
        for (player, up) in deals() {
            let value = evaluator().eval5(player);
            let category = value.category();
            if category == Category::AceKing && ace_king < 40 {
                ace_king += 1;
            } else if category != Category::AceKing && others < 20 {
                others += 1;
            } else if ace_king == 40 && others == 20 {
                break;
            } else {
                continue;
            }
            let dealer = tables.dealer_counts(&player, up, value.strength());
            let play_ev = payments.play_total(dealer, category) as f64 / HOLE_CARD_SETS as f64;
            let hidden = (0..52u8).filter(|c| !player.contains(c) && *c != up).take(4);
            let top: Vec<Card> = player
                .into_iter()
                .chain(hidden)
                .chain([up])
                .map(|code| Card::from_code(code).unwrap())
                .collect();
            let round = Round::stacked(profile.clone(), &[ante], &[], &top, None).unwrap();
            let advice = crate::strategy::advise(&round, 0).unwrap();
            let ev = |wanted: Action| advice.choices.iter().find(|c| c.action == wanted).unwrap().ev;
            assert!((ev(Action::Play { box_index: 0 }) - play_ev).abs() < 1e-6, "{player:?} up {up}");
            assert_eq!(ev(Action::Fold { box_index: 0 }), payments.folded as f64);
            let plays = payments.plays(dealer, category, 0);
            assert_eq!(advice.best().action == (Action::Play { box_index: 0 }), plays, "{player:?} up {up}");
            played += usize::from(plays && category == Category::AceKing);
        }
        assert!(0 < played && played < 40, "some ace-king hands play and some fold: {played}");
    }

    #[test]
    fn profiles_with_more_decisions_are_refused() {
        let profile = shipped("standard", "");
        let error = exact_analysis(&profile, None).unwrap_err();
        assert_eq!(
            error.to_string(),
            "standard: the exact analysis covers profiles whose only decision is to play or fold; \
             this one also has card exchange"
        );
        let profile = shipped("caribbean", "");
        assert_eq!(
            exact_analysis(&profile, Some(1050)).unwrap_err(),
            AnalysisError::Ante { profile: "caribbean".into(), ante: 1050 }
        );
    }

    /// The fixed bonus of `czech` at 20 Kč, from the published category counts: what the
    /// bound gives, and what the exact analysis's player (who never folds a paying bonus) gets.
    #[test]
    fn a_bonus_kept_on_every_hand_bounds_what_any_player_gets() {
        let czech = shipped("czech", "");
        let bound = side_bet_bound(&czech, 2000).unwrap();
        let paid: [(i128, i128); 7] = [
            (54_912, 10_000),
            (10_200, 50_000),
            (5_108, 100_000),
            (3_744, 200_000),
            (624, 600_000),
            (36, 1_000_000),
            (4, 5_000_000),
        ];
        let hands = i128::from(PLAYER_HANDS as u32);
        let net: i128 = paid.iter().map(|(count, pays)| count * pays).sum::<i128>() - hands * 2000;
        assert_eq!(bound.return_per_stake, net as f64 / (hands * 2000) as f64);
        assert_eq!(bound.jackpot_frequency, 0.0);
        let analysed = exact_analysis(&czech, None).unwrap();
        assert!((analysed.bonus_return_per_stake.unwrap() - bound.return_per_stake).abs() < 1e-12);
        // The royal flush wins the standard profile's jackpot: four hands in 2 598 960.
        let standard = shipped("standard", "");
        assert_eq!(side_bet_bound(&standard, 200).unwrap().jackpot_frequency, 4.0 / 2_598_960.0);
        // Judged on the final hand, which an exchange may now improve without forfeiting it.
        assert_eq!(
            side_bet_bound(&shipped("czech-exchange", "[exchange]\nforfeits_bonus = false"), 2000),
            None
        );
        assert!(side_bet_bound(&shipped("czech-exchange", ""), 2000).is_some(), "exchanging forfeits it");
        assert_eq!(side_bet_bound(&shipped("golden-oasis", ""), 60), None, "a privilege fee is no side bet");
    }

    /// A blind box (RULES.md §3.7) plays every hand it is dealt; a box that weighs the bonus
    /// gives up some of the main game for it, one that decides for the main game does not.
    #[test]
    fn a_blind_box_plays_every_hand_and_each_way_of_betting_is_counted() {
        let progress = Progress::new();
        let czech = shipped("czech", "");
        let analysed =
            |profile: &Profile, play| exact_analysis_with_progress(profile, Some(2000), play, &progress);
        let blind = analysed(&czech, BoxPlay::Blind).unwrap();
        assert_eq!((blind.combinations("folded"), blind.play_fraction), (0, 1.0));
        let standard = analysed(&czech, BoxPlay::Standard).unwrap();
        assert!(blind.house_edge > standard.house_edge + 0.05, "folding nothing costs the player");
        let for_main = analysed(&czech, BoxPlay::ForMain).unwrap();
        assert_eq!(for_main.bonus_stake, 2000);
        assert!(for_main.player_net >= standard.player_net, "weighing the bonus only costs the main game");
        // A bonus worth keeping at any price: every hand that wins it plays.
        let rich = shipped("czech", "[bonus.pays]\nAceKing = 100000000");
        let weighed = analysed(&rich, BoxPlay::Standard).unwrap();
        assert!(weighed.player_net < analysed(&rich, BoxPlay::ForMain).unwrap().player_net);
        // A blind box of a profile with exchanges is counted without them (and without the
        // purchases and insurance the round never offers it).
        let exchange = shipped("standard", "");
        assert!(exact_analysis_with_progress(&exchange, None, BoxPlay::Standard, &progress).is_err());
        assert_eq!(
            exact_analysis_with_progress(&exchange, None, BoxPlay::Blind, &progress).unwrap().play_fraction,
            1.0
        );
    }
}
