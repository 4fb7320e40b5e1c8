//! Monte Carlo simulation of whole rounds of a profile, with its exchanges and purchases,
//! played by a fast near-optimal strategy (docs/simulation.md).
//!
//! **Deals.** The rounds are stratified by the dealer's up card: each of the 13 ranks gets an
//! equal share of the rounds (each has probability 1/13), with that rank's club as the up card
//! (the suits are symmetric). The other cards come from a Fisher–Yates shuffle of the other 51,
//! drawn as needed, from ChaCha8 streams: stream `(rank, chunk)` of the seed for every chunk of
//! [`CHUNK`] rounds, so the result depends on the seed and the round count only, never on the
//! number of threads. Every figure is summed as integers (minor units) and then divided.
//!
//! **Settlement.** A round is played on a fast path that deals, prices and settles with the
//! round engine's own functions (`round::exchange_fee`, `purchase_fee`, `redraw_fee`,
//! `dealer_discard`, `played_outcome`, `main_bets`, `insurance_bet`, `bonus_bet`); a test
//! replays rounds of every profile file at its least and greatest ante on the engine
//! (`Round::act` from a stacked deck) and finds the same actions legal and the same settlement.
//!
//! **Estimate.** The main game's return is not the plain mean of the rounds' nets but, per up
//! card rank, the mean of a difference whose expectation is the same, plus an exact figure:
//! - each round's *conditional net*: its ante, play bet and insurance replaced by their mean
//!   over the dealer's hole cards given every card the player saw (counted, as the strategy
//!   counts them), less what the cards an exchange, a sixth card or the dealer's bought card
//!   brought beyond their mean in the strategy's tables (which has mean zero given what was
//!   seen before them);
//! - less the same conditional net of the profile's play-or-fold game on the dealt hand
//!   (`analysis::base_game`), whose exact mean the exact analysis counts: the anchor.
//!
//! Every expectation is exact, so the estimate is unbiased; most of the round's luck (the
//! dealer's cards, the replacements) is gone from it, and its variance is 60 to 300 times
//! smaller than the plain mean's (`control_variate.variance_reduction`). A profile that is its
//! own play-or-fold game played optimally (caribbean, czech) gets its exact return. The side
//! bet is estimated likewise against the bonus its dealt hand would win, whose mean the
//! hand-category counts give. The return table, the options and the distribution are the
//! plain counts of the rounds.
//!
//! **Strategy.** Per up card, the value of a final hand is computed from the dealer's hands
//! that hold the up card (counted, 249 900 of them, without removing the player's cards), with
//! the best insurance; the value of every exchange is the mean of that
//! value (and, with a second exchange round, of the best next exchange) over every replacement,
//! from sums over the hands holding each set of up to five cards with inclusion–exclusion over
//! the dead cards (the up card and the discards). Where playing and the best other choice are
//! within [`EXACT_MARGIN`] of each other, playing is valued exactly with card removal of every
//! card seen, by the exact analysis's counting tables; insurance and the dealer's redraw
//! (buying his card or the game) are decided exactly. `strategy_gap` measures the distance to the strategy
//! module's optimum.

use crate::progress::Progress;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use rayon::prelude::*;
use serde::Serialize;

use crate::analysis::{self, category_counts, subset_rank, BoxPlay, HoldingTables, BINOMIAL, CUMULATIVE};
use crate::card::{for_each_hand, Card, DECK_SIZE};
use crate::eval::{evaluator, Category, HandValue};
use crate::profile::{BonusKind, JudgedOn, Money, Profile, Redraw};
use crate::round::{self, Action, Outcome, Phase, Round};
use crate::shuffle::{bounded, Seed};
use crate::strategy;

/// Rounds per chunk: one ChaCha stream each.
pub const CHUNK: u64 = 1 << 12;
/// Strata: one per rank of the up card.
const STRATA: usize = 13;
/// The least rounds a simulation plays: two per stratum, for the variance of each.
pub const MIN_ROUNDS: u64 = 2 * STRATA as u64;
/// Where playing and the best other choice are closer than this (in antes), playing is valued
/// exactly, with card removal, instead of from the per-up-card table.
pub const EXACT_MARGIN: f64 = 0.05;
/// Dealer hands holding a given card: C(51, 4).
const HANDS_WITH_UP: i64 = 249_900;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimulationOptions {
    pub rounds: u64,
    pub seed: Seed,
    /// The ante (default: the table's maximum, as the exact analysis).
    pub ante: Option<Money>,
    /// How the box is bet and played (not blind: that is the exact analysis's).
    pub play: BoxPlay,
}

/// Why a simulation did not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimulationError {
    Ante {
        profile: String,
        ante: Money,
    },
    NoRounds,
    /// Fewer than two rounds for some up-card rank: no interval could be estimated.
    TooFewRounds {
        rounds: u64,
    },
    /// A blind box takes no decision: the exact analysis counts it.
    Blind,
    Cancelled,
}

impl fmt::Display for SimulationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimulationError::Ante { profile, ante } => {
                write!(f, "{profile}: {ante} is not an ante the table allows")
            }
            SimulationError::NoRounds => f.write_str("a simulation needs at least one round"),
            SimulationError::TooFewRounds { rounds } => write!(
                f,
                "{rounds} rounds are too few: a simulation needs at least {} (two per rank of the up card) \
                 to estimate its interval",
                MIN_ROUNDS
            ),
            SimulationError::Blind => {
                f.write_str("a blind box takes no decision: the exact analysis counts it (exact_analysis)")
            }
            SimulationError::Cancelled => f.write_str("the simulation was cancelled"),
        }
    }
}

impl std::error::Error for SimulationError {}

// ---------------------------------------------------------------------------------------------
// Sets of cards by rank

fn sets_by_rank<const K: usize>() -> Vec<[u8; K]> {
    let mut sets = vec![[0u8; K]; BINOMIAL[DECK_SIZE][K] as usize];
    for_each_hand::<K>(|set| sets[subset_rank(&set)] = set);
    sets
}

fn fours() -> &'static [[u8; 4]] {
    static SETS: OnceLock<Vec<[u8; 4]>> = OnceLock::new();
    SETS.get_or_init(sets_by_rank::<4>)
}

fn fives() -> &'static [[u8; 5]] {
    static SETS: OnceLock<Vec<[u8; 5]>> = OnceLock::new();
    SETS.get_or_init(sets_by_rank::<5>)
}

/// The category of every strength.
fn categories() -> &'static [Category] {
    static TABLE: OnceLock<Vec<Category>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..HandValue::COUNT).map(|s| HandValue::from_strength(s).expect("a strength").category()).collect()
    })
}

/// `set` (sorted) with `card` (not in it) inserted in order.
fn inserted(set: &[u8], card: u8, out: &mut [u8; 6]) -> usize {
    let mut n = 0;
    let mut placed = false;
    for &c in set {
        if !placed && card < c {
            out[n] = card;
            n += 1;
            placed = true;
        }
        out[n] = c;
        n += 1;
    }
    if !placed {
        out[n] = card;
        n += 1;
    }
    n
}

/// Sums of a value over the five-card hands holding each set of zero to five cards.
struct Sums {
    /// Per five-card hand, by rank.
    five: Vec<f32>,
    four: Vec<f64>,
    three: Vec<f64>,
    two: Vec<f64>,
    one: Vec<f64>,
    zero: f64,
}

impl Sums {
    fn build(five: Vec<f32>) -> Sums {
        // A set of k cards is in 5 − k of the (k + 1)-card sets that hold a hand's cards:
        // each set's value is the sum over the sets one card larger, shared out.
        fn down<const K: usize>(
            sets: &[[u8; K]],
            upper: impl Fn(usize) -> f64 + Sync,
            share: f64,
        ) -> Vec<f64> {
            sets.par_iter()
                .map(|set| {
                    let mut bigger = [0u8; 6];
                    (0..DECK_SIZE as u8)
                        .filter(|c| !set.contains(c))
                        .map(|c| {
                            let n = inserted(set, c, &mut bigger);
                            upper(subset_rank(&bigger[..n]))
                        })
                        .sum::<f64>()
                        / share
                })
                .collect()
        }
        let four = down(fours(), |rank| f64::from(five[rank]), 1.0);
        let three = down(&sets_by_rank::<3>(), |rank| four[rank], 2.0);
        let two = down(&sets_by_rank::<2>(), |rank| three[rank], 3.0);
        let one = down(&sets_by_rank::<1>(), |rank| two[rank], 4.0);
        let zero = one.iter().sum::<f64>() / 5.0;
        Sums { five, four, three, two, one, zero }
    }

    #[inline]
    fn get(&self, set: &[u8]) -> f64 {
        match set.len() {
            0 => self.zero,
            1 => self.one[set[0] as usize],
            2 => self.two[subset_rank(set)],
            3 => self.three[subset_rank(set)],
            4 => self.four[subset_rank(set)],
            _ => f64::from(self.five[subset_rank(set)]),
        }
    }

    /// The mean value of the hands holding `held` (sorted) and none of `dead`.
    fn mean(&self, held: &[u8], dead: &[u8]) -> f64 {
        let k = 5 - held.len();
        let mut total = 0.0;
        let mut set = [0u8; 12];
        for mask in 0u32..1 << dead.len() {
            let t = mask.count_ones() as usize;
            if t > k {
                continue;
            }
            let mut n = held.len();
            set[..n].copy_from_slice(held);
            for (i, &card) in dead.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    let mut j = n;
                    while j > 0 && set[j - 1] > card {
                        set[j] = set[j - 1];
                        j -= 1;
                    }
                    set[j] = card;
                    n += 1;
                }
            }
            let value = self.get(&set[..n]);
            if t % 2 == 0 {
                total += value;
            } else {
                total -= value;
            }
        }
        let available = DECK_SIZE - held.len() - dead.len();
        total / BINOMIAL[available][k] as f64
    }
}

/// Every five-card hand's rank key, as an index into one hand of each key.
struct RankKeys {
    hand_key: Vec<u32>,
    representatives: Vec<[u8; 5]>,
}

fn rank_keys() -> &'static RankKeys {
    static KEYS: OnceLock<RankKeys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let keys: Vec<u32> = fives().par_iter().map(|hand| rank_key(hand)).collect();
        let mut index: HashMap<u32, u32> = HashMap::new();
        let mut representatives = Vec::new();
        let hand_key = keys
            .iter()
            .zip(fives())
            .map(|(&key, hand)| {
                *index.entry(key).or_insert_with(|| {
                    representatives.push(*hand);
                    representatives.len() as u32 - 1
                })
            })
            .collect();
        RankKeys { hand_key, representatives }
    })
}

/// 5^rank: a hand's ranks as a base-5 number of rank counts.
const POW5: [u32; 13] = {
    let mut p = [1u32; 13];
    let mut i = 1;
    while i < 13 {
        p[i] = p[i - 1] * 5;
        i += 1;
    }
    p
};

/// A five-card hand's ranks and whether it is suited: hands with equal keys differ only in
/// suits, which change the dealer's hands little unless they make a flush.
fn rank_key(hand: &[u8]) -> u32 {
    let ranks: u32 = hand.iter().map(|&c| POW5[usize::from(c >> 2)]).sum();
    let suited = hand.iter().all(|&c| c & 3 == hand[0] & 3);
    ranks | u32::from(suited) << 31
}

// ---------------------------------------------------------------------------------------------
// The strategy

/// The ante and play bet's net for each way the round ends, for one category.
#[derive(Clone, Copy, Debug, Default)]
struct Nets {
    won: Money,
    lost: Money,
    push: Money,
    not_qualified: Money,
}

/// Dealer hands by how they end against a box hand that played.
#[derive(Clone, Copy, Debug)]
struct Counts {
    not_qualified: i64,
    lower: i64,
    equal: i64,
    higher: i64,
}

impl Counts {
    fn total(&self) -> i64 {
        self.not_qualified + self.lower + self.equal + self.higher
    }
}

/// The ante and play bet's net of playing a hand with these nets, summed over dealer counts.
fn main_total(nets: &Nets, counts: Counts) -> i128 {
    i128::from(counts.not_qualified) * i128::from(nets.not_qualified)
        + i128::from(counts.lower) * i128::from(nets.won)
        + i128::from(counts.equal) * i128::from(nets.push)
        + i128::from(counts.higher) * i128::from(nets.lost)
}

/// A decision at the box's turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decision {
    Fold,
    Play,
    /// The positions (bits 0–4) to exchange.
    Exchange(u8),
    SixthCard,
}

/// The box as the strategy sees it at a decision.
#[derive(Clone, Copy, Debug)]
struct Node {
    cards: [u8; 6],
    len: usize,
    dealt: Category,
    up: u8,
    /// Cards the box discarded so far.
    discards: [u8; 10],
    discard_count: usize,
    exchanges: usize,
    sixth: bool,
    forfeited: bool,
}

impl Node {
    fn dealt(cards: [u8; 5], up: u8) -> Node {
        let mut six = [0u8; 6];
        six[..5].copy_from_slice(&cards);
        Node {
            cards: six,
            len: 5,
            dealt: evaluator().eval5(cards).category(),
            up,
            discards: [0; 10],
            discard_count: 0,
            exchanges: 0,
            sixth: false,
            forfeited: false,
        }
    }

    fn value(&self) -> HandValue {
        let c = &self.cards;
        match self.len {
            5 => evaluator().eval5([c[0], c[1], c[2], c[3], c[4]]),
            _ => evaluator().eval6(*c),
        }
    }

    /// Every card the player has seen except the up card: the box's cards and its discards.
    fn known(&self, out: &mut [u8; 16]) -> usize {
        out[..self.len].copy_from_slice(&self.cards[..self.len]);
        out[self.len..self.len + self.discard_count].copy_from_slice(&self.discards[..self.discard_count]);
        self.len + self.discard_count
    }
}

/// The strategy's tables for one up card.
struct Stratum {
    up: u8,
    /// The dealer's hands for every five-card hand (by rank), an index into `counts`: counted
    /// exactly for one hand of each rank key (see [`rank_key`]) with its cards removed.
    hand_counts: &'static [u32],
    counts: Vec<Counts>,
    /// The value of a six-card hand by strength (minor units), without card removal.
    six_by_strength: Vec<f64>,
    /// Per exchange round, the sums of the value of the hand after that round's exchange.
    sums: Vec<Sums>,
    /// Where the only decision is to play or fold: whether each five-card hand (by rank) plays.
    plays: Option<Vec<u64>>,
}

/// The fast strategy and the fast path of a round, for one profile, ante and bonus stake.
struct FastPlayer<'a> {
    profile: &'a Profile,
    tables: Arc<HoldingTables>,
    ante: Money,
    play_bet: Money,
    bonus_stake: Money,
    nets: [Nets; 11],
    /// The nets of the profile's play-or-fold game ([`analysis::base_game`]), the control
    /// variate played beside every round.
    base_nets: [Nets; 11],
    /// The bonus stake's net by [forfeited][folded][judged category].
    bonus: [[[Money; 11]; 2]; 2],
    /// The same as the player weighs it when deciding: the net, or nothing for a player who
    /// decides for the main game alone ([`BoxPlay::ForMain`]).
    weighed_bonus: [[[Money; 11]; 2]; 2],
    forfeits_on_exchange: bool,
    must_play_after: bool,
    burn: bool,
    qualifier: u16,
}

impl<'a> FastPlayer<'a> {
    /// The strategy for `profile` at `ante` with the box bet and played as `play` says (not
    /// blind); builds the exact analysis's counting tables (under a second, about 95 MiB).
    pub fn new(profile: &'a Profile, ante: Money, play: BoxPlay) -> FastPlayer<'a> {
        let tables = Arc::new(HoldingTables::build(profile.game.qualifier));
        FastPlayer::with_tables(profile, ante, play, tables)
    }

    /// As [`FastPlayer::new`], with counting tables already built for the profile's qualifier.
    fn with_tables(
        profile: &'a Profile,
        ante: Money,
        play: BoxPlay,
        tables: Arc<HoldingTables>,
    ) -> FastPlayer<'a> {
        assert_eq!(tables.qualifier, profile.game.qualifier.lowest().strength());
        let bonus_stake = play.stake(profile, ante);
        let play_bet = profile.play_bet(ante);
        let nets_of = |profile: &Profile| {
            Category::ALL.map(|c| {
                let net = |outcome| {
                    let (_, a, p) = round::main_bets(profile, c.lowest(), ante, play_bet, outcome);
                    a.net() + p.net()
                };
                Nets {
                    won: if profile.odds(c).is_some() { net(Outcome::Won) } else { net(Outcome::Lost) },
                    lost: net(Outcome::Lost),
                    push: net(Outcome::Push),
                    not_qualified: net(Outcome::DealerNotQualified),
                }
            })
        };
        let nets = nets_of(profile);
        let base_nets = nets_of(&analysis::base_game(profile));
        let mut bonus = [[[0; 11]; 2]; 2];
        for (forfeited, by_fold) in bonus.iter_mut().enumerate() {
            for (folded, by_category) in by_fold.iter_mut().enumerate() {
                for (c, net) in by_category.iter_mut().enumerate() {
                    let judged = || Category::ALL[c].lowest();
                    *net =
                        round::bonus_bet(profile, bonus_stake, forfeited == 1, folded == 1, judged).0.net();
                }
            }
        }
        let weighed_bonus = if play.weighs_bonus() { bonus } else { [[[0; 11]; 2]; 2] };
        let exchange = profile.exchange.as_ref();
        FastPlayer {
            profile,
            tables,
            ante,
            play_bet,
            bonus_stake,
            nets,
            base_nets,
            bonus,
            weighed_bonus,
            forfeits_on_exchange: exchange.is_some_and(|e| e.forfeits_bonus),
            must_play_after: exchange.is_some_and(|e| e.must_play_after),
            burn: exchange.is_some_and(|e| e.burn),
            qualifier: profile.game.qualifier.lowest().strength(),
        }
    }

    /// The control variates' exact means at this ante and stake.
    fn anchors(&self) -> Anchors {
        let base_return = self.base_return();
        let side_return = match self.bonus_stake {
            0 => 0.0,
            stake => {
                let total: i128 = category_counts()
                    .iter()
                    .zip(Category::ALL)
                    .map(|(&count, c)| i128::from(count) * i128::from(self.bonus_net(false, false, c)))
                    .sum();
                total as f64 / (fives().len() as f64 * stake as f64)
            }
        };
        Anchors { base_return, side_return }
    }

    /// The exact return per ante of the profile's play-or-fold game at this ante, counted
    /// once per game and ante in a process (the profiles of one house share it).
    fn base_return(&self) -> f64 {
        static KNOWN: OnceLock<Mutex<HashMap<(String, Money), f64>>> = OnceLock::new();
        let base = analysis::base_game(self.profile);
        let key = (base.digest(), self.ante);
        let known = KNOWN.get_or_init(Mutex::default);
        if let Some(&value) = known.lock().expect("no panic while it is held").get(&key) {
            return value;
        }
        let exact =
            analysis::analyse(&base, self.ante, BoxPlay::WithoutBonus, &self.tables, &Progress::new())
                .expect("the play-or-fold game is analysed at any ante its profile allows");
        let value = exact.player_net as f64 / (exact.total_combinations as f64 * self.ante as f64);
        known.lock().expect("no panic while it is held").insert(key, value);
        value
    }

    fn has_bonus(&self, forfeited: bool) -> bool {
        self.bonus_stake > 0 && !forfeited
    }

    /// Exchange fees by card count in exchange round `round`, for a box with or without the bonus.
    fn exchange_fees(&self, exchange_round: usize, has_bonus: bool) -> [Option<Money>; 6] {
        let mut fees = [None; 6];
        if let Some(r) = self.profile.exchange.as_ref().and_then(|e| e.rounds.get(exchange_round)) {
            for (n, fee) in fees.iter_mut().enumerate().skip(1) {
                *fee = round::exchange_fee(r, n, has_bonus).and_then(|f| f.of(self.ante));
            }
        }
        fees
    }

    /// The sixth card's fee for a box with or without the bonus, if it is offered to it.
    fn sixth_card_fee(&self, has_bonus: bool) -> Option<Money> {
        let sixth = self.profile.sixth_card.as_ref();
        round::purchase_fee(self.profile, sixth, "the sixth card", self.ante, has_bonus, (1, DECK_SIZE), None)
            .ok()
    }

    fn exchange_rounds(&self) -> usize {
        self.profile.exchange.as_ref().map_or(0, |e| e.rounds.len())
    }

    /// The dealer's hands holding the up card, none of the player's cards removed.
    fn approximate_counts(&self, up: u8, strength: u16) -> Counts {
        let below = &self.tables.one[usize::from(up) * CUMULATIVE..][..CUMULATIVE];
        let q = usize::from(self.qualifier);
        let not_qualified = i64::from(below[q]);
        if strength < self.qualifier {
            return Counts { not_qualified, lower: 0, equal: 0, higher: HANDS_WITH_UP - not_qualified };
        }
        let s = usize::from(strength);
        Counts {
            not_qualified,
            lower: i64::from(below[s]) - not_qualified,
            equal: i64::from(below[s + 1] - below[s]),
            higher: HANDS_WITH_UP - i64::from(below[s + 1]),
        }
    }

    /// The dealer's hands holding the up card and none of the `known` cards, exactly, by
    /// inclusion–exclusion over the known cards.
    fn exact_counts(&self, known: &[u8], up: u8, strength: u16) -> Counts {
        let player = (strength >= self.qualifier).then_some(strength);
        let mut sums = [0i64; 3];
        let mut held = [0u8; 5];
        for mask in 0u32..1 << known.len() {
            let t = mask.count_ones() as usize;
            if t > 4 {
                continue;
            }
            let mut n = 0;
            for (i, &card) in known.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    held[n] = card;
                    n += 1;
                }
            }
            held[n] = up;
            n += 1;
            held[..n].sort_unstable();
            let counts = self.tables.count(&held[..n], player);
            let sign = if t % 2 == 0 { 1 } else { -1 };
            for (sum, count) in sums.iter_mut().zip(counts) {
                *sum += sign * count;
            }
        }
        let total = BINOMIAL[DECK_SIZE - 1 - known.len()][4] as i64;
        match player {
            None => Counts { not_qualified: sums[0], lower: 0, equal: 0, higher: total - sums[0] },
            Some(_) => Counts {
                not_qualified: sums[0],
                lower: sums[1] - sums[0],
                equal: sums[2] - sums[1],
                higher: total - sums[2],
            },
        }
    }

    /// The insurance a box playing a hand of `category` takes against these dealer counts:
    /// none, the least or the most, whichever is worth most (the value is linear in the amount).
    fn insurance(&self, category: Category, counts: Counts) -> (Money, i128) {
        let limits =
            round::insurance_limits(self.profile, category.lowest(), self.ante, self.play_bet, None, 0);
        let Ok((least, most)) = limits else { return (0, 0) };
        let per_unit = i128::from(counts.not_qualified - counts.lower);
        [least, most].into_iter().map(|x| (x, i128::from(x) * per_unit)).fold((0, 0), |best, option| {
            if option.1 > best.1 {
                option
            } else {
                best
            }
        })
    }

    /// Playing a hand, summed over the dealer counts: ante and play bet, and the best
    /// insurance (minor units × hands). The dealer's redraw is left out of this valuation
    /// (it is decided exactly at the reveal, and pays only to hands that play anyway).
    fn play_total(&self, strength: u16, counts: Counts) -> i128 {
        let category = categories()[usize::from(strength)];
        main_total(&self.nets[category as usize], counts) + self.insurance(category, counts).1
    }

    /// The conditional nets of a round given every card the player saw (see
    /// [`RoundResult::conditional_net`]): the profile's, from the box as it ended (`finish`,
    /// its `main` net as settled, `known` its cards and discards), and the play-or-fold
    /// game's on the dealt hand. The dealer's hole cards are, to the player, any four of the
    /// cards he has not seen, so each expectation is a count of the dealer's hands.
    fn conditional_nets(
        &self,
        finish: &Finish,
        main: Money,
        known: &[u8],
        (dealt, up, revealed): (&[u8; 5], u8, HandValue),
    ) -> (f64, f64) {
        let dealt_counts = self.exact_counts(dealt, up, finish.dealt.strength());
        let total = dealt_counts.total() as f64;
        let base_play = main_total(&self.base_nets[finish.dealt.category() as usize], dealt_counts) as f64;
        let base = (base_play / total).max(-self.ante as f64);
        if !finish.played {
            return (main as f64, base);
        }
        // The realized ante, play bet and insurance against the hand the dealer revealed
        // (a bought redraw's gain over declining is taken as it was) give way to their
        // expectation over his hole cards.
        let realized = self.bets_against(finish.hand, finish.insurance, revealed);
        let expected = self.expected_bets(finish.hand, finish.insurance, known, up);
        ((main - realized) as f64 + expected, base)
    }

    /// The ante, play bet and insurance's net of a box that played `hand` against a dealer
    /// who revealed `revealed`, no redraw bought.
    fn bets_against(&self, hand: HandValue, insurance: Money, revealed: HandValue) -> Money {
        let outcome = round::played_outcome(self.profile, hand, revealed, false);
        let (_, ante, play) = round::main_bets(self.profile, hand, self.ante, self.play_bet, outcome);
        let qualifies = round::qualifies(self.profile, revealed);
        ante.net() + play.net() + round::insurance_bet(insurance, qualifies, hand > revealed).net()
    }

    /// The mean of [`FastPlayer::bets_against`] over the dealer's hands that hold the up card
    /// and none of the `known` cards.
    fn expected_bets(&self, hand: HandValue, insurance: Money, known: &[u8], up: u8) -> f64 {
        let counts = self.exact_counts(known, up, hand.strength());
        let total = main_total(&self.nets[hand.category() as usize], counts)
            + i128::from(insurance) * i128::from(counts.not_qualified - counts.lower);
        total as f64 / counts.total() as f64
    }

    fn bonus_net(&self, forfeited: bool, folded: bool, judged: Category) -> Money {
        self.bonus[usize::from(forfeited)][usize::from(folded)][judged as usize]
    }

    /// What the bonus weighs in a decision (see [`FastPlayer::weighed_bonus`]).
    fn weighed_bonus(&self, forfeited: bool, folded: bool, judged: Category) -> Money {
        self.weighed_bonus[usize::from(forfeited)][usize::from(folded)][judged as usize]
    }

    fn judged(&self, dealt: Category, hand: Category) -> Category {
        match self.profile.bonus.as_ref().map(|b| b.judged_on) {
            Some(JudgedOn::Dealt) => dealt,
            _ => hand,
        }
    }

    /// The value of a final hand (best of folding, where allowed, and playing), in minor units.
    fn final_value(
        &self,
        strength: u16,
        counts: Counts,
        judged: Category,
        forfeited: bool,
        fold_allowed: bool,
    ) -> f64 {
        let play = self.play_total(strength, counts) as f64 / counts.total() as f64
            + self.weighed_bonus(forfeited, false, judged) as f64;
        let fold = (-self.ante + self.weighed_bonus(forfeited, true, judged)) as f64;
        if fold_allowed {
            play.max(fold)
        } else {
            play
        }
    }

    fn stratum(&self, up: u8) -> Stratum {
        // One exact count of the dealer's hands per rank key.
        let keys = rank_keys();
        let hand_counts = &keys.hand_key;
        let representatives: Vec<[u8; 5]> = keys
            .representatives
            .iter()
            .map(|hand| {
                // A suit permutation keeps the key: one that avoids the up card, where one does.
                (0..4u8)
                    .map(|suit| {
                        hand.map(|c| match c & 3 {
                            s if s == up & 3 => (c & !3) | suit,
                            s if s == suit => (c & !3) | (up & 3),
                            _ => c,
                        })
                    })
                    .find(|h| !h.contains(&up))
                    .unwrap_or(*hand)
            })
            .collect();
        let counts: Vec<Counts> = representatives
            .par_iter()
            .map(|hand| {
                let strength = evaluator().eval5(*hand).strength();
                match hand.contains(&up) {
                    // Never a box's hand with this up card: any counts do.
                    true => self.approximate_counts(up, strength),
                    false => self.exact_counts(hand, up, strength),
                }
            })
            .collect();
        let six_by_strength = (0..HandValue::COUNT)
            .map(|s| {
                self.final_value(s, self.approximate_counts(up, s), categories()[usize::from(s)], false, true)
            })
            .collect();
        let mut stratum = Stratum {
            up,
            hand_counts: hand_counts.as_slice(),
            counts,
            six_by_strength,
            sums: Vec::new(),
            plays: None,
        };
        if self.exchange_rounds() == 0 && self.profile.sixth_card.is_none() {
            // The decision of every hand, made once: a bit per hand.
            let plays: Vec<u64> = fives()
                .par_chunks(64)
                .map(|hands| {
                    hands.iter().enumerate().fold(0u64, |bits, (i, hand)| {
                        let plays = !hand.contains(&up)
                            && self.decide(&stratum, &Node::dealt(*hand, up)) == Decision::Play;
                        bits | u64::from(plays) << i
                    })
                })
                .collect();
            stratum.plays = Some(plays);
            return stratum;
        }
        let forfeited = self.forfeits_on_exchange;
        let fold_allowed = !self.must_play_after;
        let finals: Vec<f32> = fives()
            .par_iter()
            .zip(stratum.hand_counts)
            .map(|(hand, &i)| {
                let value = evaluator().eval5(*hand);
                let judged = value.category();
                self.final_value(
                    value.strength(),
                    stratum.counts[i as usize],
                    judged,
                    forfeited,
                    fold_allowed,
                ) as f32
            })
            .collect();
        let rounds = self.exchange_rounds();
        let mut sums: Vec<Sums> = Vec::with_capacity(rounds);
        // The last round's hands are final; each earlier round's hand may exchange again.
        for r in (0..rounds).rev() {
            if r + 1 == rounds {
                sums.push(Sums::build(finals.clone()));
            } else {
                let next = sums.last().expect("the later round's sums");
                let fees = self.exchange_fees(r + 1, self.has_bonus(forfeited));
                let five: Vec<f32> = fives()
                    .par_iter()
                    .zip(&finals)
                    .map(|(hand, &own)| {
                        if hand.contains(&up) {
                            return own;
                        }
                        let best = self.best_exchange(hand, &[up], &fees, next);
                        f64::from(own).max(best.1) as f32
                    })
                    .collect();
                sums.push(Sums::build(five));
            }
        }
        sums.reverse();
        stratum.sums = sums;
        stratum
    }

    /// The best exchange of a five-card hand (positions, value) from `sums`, with `dead` cards
    /// (the up card and earlier discards) besides the discarded ones.
    fn best_exchange(
        &self,
        hand: &[u8; 5],
        dead: &[u8],
        fees: &[Option<Money>; 6],
        sums: &Sums,
    ) -> (u8, f64) {
        let mut best = (0u8, f64::NEG_INFINITY);
        for mask in 1u8..32 {
            let k = mask.count_ones() as usize;
            let Some(fee) = fees[k] else { continue };
            let mut held = [0u8; 5];
            let mut all_dead = [0u8; 12];
            all_dead[..dead.len()].copy_from_slice(dead);
            let (mut h, mut d) = (0, dead.len());
            for (i, &card) in hand.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    all_dead[d] = card;
                    d += 1;
                } else {
                    held[h] = card;
                    h += 1;
                }
            }
            held[..h].sort_unstable();
            let value = sums.mean(&held[..h], &all_dead[..d]) - fee as f64;
            if value > best.1 {
                best = (mask, value);
            }
        }
        best
    }

    /// The value of a six-card hand in the strategy's table.
    fn six_card_value(stratum: &Stratum, six: [u8; 6]) -> f64 {
        stratum.six_by_strength[usize::from(evaluator().eval6(six).strength())]
    }

    /// The mean value of the first five cards of `six` with a sixth card, over every card
    /// neither in them nor the up card.
    fn sixth_card_mean(stratum: &Stratum, six: &[u8; 6]) -> f64 {
        let mut seen = 1u64 << stratum.up;
        for &c in &six[..5] {
            seen |= 1 << c;
        }
        let mut other = *six;
        let (mut sum, mut n) = (0.0, 0u32);
        for c in (0..DECK_SIZE as u8).filter(|c| seen & (1 << c) == 0) {
            other[5] = c;
            sum += Self::six_card_value(stratum, other);
            n += 1;
        }
        sum / f64::from(n)
    }

    /// The strategy's decision at a node.
    fn decide(&self, stratum: &Stratum, node: &Node) -> Decision {
        if let Some(plays) = &stratum.plays {
            let mut sorted = [node.cards[0], node.cards[1], node.cards[2], node.cards[3], node.cards[4]];
            sorted.sort_unstable();
            let rank = subset_rank(&sorted);
            return if plays[rank / 64] >> (rank % 64) & 1 == 1 { Decision::Play } else { Decision::Fold };
        }
        let hand = node.value();
        let strength = hand.strength();
        let category = hand.category();
        let judged = self.judged(node.dealt, category);
        let has_bonus = self.has_bonus(node.forfeited);
        let fold_allowed = !(node.exchanges > 0 && self.must_play_after);
        let fold = (-self.ante + self.weighed_bonus(node.forfeited, true, judged)) as f64;
        let play_bonus = self.weighed_bonus(node.forfeited, false, judged);
        let approximate = match node.len {
            5 => {
                let mut sorted = [node.cards[0], node.cards[1], node.cards[2], node.cards[3], node.cards[4]];
                sorted.sort_unstable();
                stratum.counts[stratum.hand_counts[subset_rank(&sorted)] as usize]
            }
            _ => self.approximate_counts(node.up, strength),
        };
        let mut play =
            self.play_total(strength, approximate) as f64 / approximate.total() as f64 + play_bonus as f64;

        // The other choices: exchanges and the sixth card.
        let mut other: Option<(Decision, f64)> = None;
        let exchanges_left = node.exchanges < self.exchange_rounds() && !node.sixth;
        if exchanges_left && node.len == 5 {
            let fees = self.exchange_fees(node.exchanges, has_bonus);
            let mut dead = [0u8; 12];
            dead[0] = node.up;
            dead[1..1 + node.discard_count].copy_from_slice(&node.discards[..node.discard_count]);
            let hand5 = [node.cards[0], node.cards[1], node.cards[2], node.cards[3], node.cards[4]];
            let (mask, value) = self.best_exchange(
                &hand5,
                &dead[..1 + node.discard_count],
                &fees,
                &stratum.sums[node.exchanges],
            );
            if mask != 0 {
                other = Some((Decision::Exchange(mask), value));
            }
        }
        if node.exchanges == 0 && !node.sixth {
            if let Some(fee) = self.sixth_card_fee(has_bonus) {
                let value = Self::sixth_card_mean(stratum, &node.cards) - fee as f64;
                if other.is_none_or(|(_, v)| value > v) {
                    other = Some((Decision::SixthCard, value));
                }
            }
        }
        let best_other = other.map_or(fold, |(_, v)| v.max(fold));
        let mut plays = play >= fold;
        if (play - best_other).abs() < EXACT_MARGIN * self.ante as f64 {
            let mut known = [0u8; 16];
            let n = node.known(&mut known);
            let counts = self.exact_counts(&known[..n], node.up, strength);
            let total = i128::from(counts.total());
            let play_total = self.play_total(strength, counts) + total * i128::from(play_bonus);
            plays = play_total >= total * fold as i128;
            play = play_total as f64 / total as f64;
        }
        let (decision, value) =
            if plays || !fold_allowed { (Decision::Play, play) } else { (Decision::Fold, fold) };
        match other {
            Some((choice, v)) if v > value => choice,
            _ => decision,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The fast path of a round

/// The other 51 cards, shuffled as they are drawn.
struct Deck {
    cards: [u8; DECK_SIZE],
    next: usize,
}

impl Deck {
    fn new(up: u8) -> Deck {
        let mut cards: [u8; DECK_SIZE] = std::array::from_fn(|c| c as u8);
        cards.swap(usize::from(up), DECK_SIZE - 1);
        Deck { cards, next: 0 }
    }

    /// The next card: Fisher–Yates one step at a time over the 51 cards below the up card.
    #[inline]
    fn draw(&mut self, rng: &mut ChaCha8Rng) -> u8 {
        let j = self.next + bounded(rng, (DECK_SIZE - 1 - self.next) as u32) as usize;
        self.cards.swap(self.next, j);
        self.next += 1;
        self.cards[self.next - 1]
    }
}

/// How a round went, for the tallies and the engine comparison.
#[derive(Clone, Debug, Default)]
struct RoundResult {
    outcome_slot: usize,
    net: Money,
    side: Money,
    wager: Money,
    played: bool,
    bonus_hit: Option<Category>,
    jackpot_hit: Option<Category>,
    /// Card counts exchanged in each round (0 for none).
    exchanged: [usize; 2],
    exchange_fees: Money,
    sixth: Option<Money>,
    insurance: Option<(Money, Money)>,
    /// (gain over the counterfactual) of options taken.
    exchange_gain: Money,
    sixth_gain: Money,
    redraw_gain: Option<Money>,
    /// The main game's net in expectation over the dealer's hole cards, given every card the
    /// player saw and every decision (a bought redraw's gain as realized): its mean is the
    /// main game's, its variance smaller.
    conditional_net: f64,
    /// The same for the play-or-fold game on the dealt hand, whose mean the exact analysis
    /// knows: the control variate.
    base_conditional_net: f64,
    /// The side bet's net had the dealt hand kept it (never exchanged or folded): a control
    /// variate whose mean the hand-category counts give.
    base_side: Money,
}

/// Cards dealt and actions taken, to replay the round on the engine.
#[derive(Clone, Debug, Default)]
struct Trace {
    drawn: Vec<u8>,
    actions: Vec<Action>,
}

/// The settlement-relevant state of the box at the end.
#[derive(Clone, Copy, Debug)]
struct Finish {
    hand: HandValue,
    dealt: HandValue,
    played: bool,
    forfeited: bool,
    insurance: Money,
    fees: Money,
    bought_redraw: bool,
}

/// Outcome slots: 0–10 won by category, then these.
const NOT_QUALIFIED: usize = 11;
const STILL_NOT_QUALIFIED: usize = 12;
const PUSH: usize = 13;
const PROTECTED: usize = 14;
const FOLDED: usize = 15;
const LOST: usize = 16;
const SLOTS: usize = 17;

impl FastPlayer<'_> {
    /// The box's settlement as `round::settle_box` makes it, against the dealer's hand as he
    /// revealed it and as it is now (after a redraw): (outcome slot, box net, side bet's net).
    fn settle(
        &self,
        f: &Finish,
        (revealed, dealer_now): (HandValue, HandValue),
        jackpot: &mut Option<Category>,
        hit: &mut Option<Category>,
    ) -> (usize, Money, Money) {
        let outcome = match (f.played, f.bought_redraw) {
            (false, _) => Outcome::Folded,
            (true, true) => round::played_outcome(self.profile, f.hand, dealer_now, true),
            (true, false) => round::played_outcome(self.profile, f.hand, revealed, false),
        };
        let play = if f.played { self.play_bet } else { 0 };
        let (outcome, ante, play) = round::main_bets(self.profile, f.hand, self.ante, play, outcome);
        let insurance =
            round::insurance_bet(f.insurance, round::qualifies(self.profile, revealed), f.hand > revealed);
        let judged = match self.profile.bonus.as_ref().map(|b| b.judged_on) {
            Some(JudgedOn::Dealt) => f.dealt,
            _ => f.hand,
        };
        let (bonus, won_jackpot) =
            round::bonus_bet(self.profile, self.bonus_stake, f.forfeited, !f.played, || judged);
        let net = ante.net() + play.net() + bonus.net() + insurance.net() - f.fees;
        let side = match self.profile.bonus.as_ref().map(|b| b.kind) {
            Some(BonusKind::Fixed | BonusKind::Odds) => bonus.net(),
            _ => 0,
        };
        *jackpot = won_jackpot.map(|w| w.category);
        *hit = (bonus.returned > 0).then(|| judged.category());
        let slot = match outcome {
            Outcome::Won => f.hand.category() as usize,
            Outcome::DealerNotQualified => NOT_QUALIFIED,
            Outcome::DealerStillNotQualified => STILL_NOT_QUALIFIED,
            Outcome::Push => PUSH,
            Outcome::Protected => PROTECTED,
            Outcome::Folded => FOLDED,
            Outcome::Lost | Outcome::Void => LOST,
        };
        (slot, net, side)
    }

    /// After playing: the insurance the strategy takes (exact counts).
    fn insure(&self, cards: &[u8], discards: &[u8], up: u8, hand: HandValue) -> Money {
        let category = hand.category();
        if self.profile.insurance.as_ref().is_none_or(|i| category < i.min_category) {
            return 0;
        }
        let mut known = [0u8; 16];
        known[..cards.len()].copy_from_slice(cards);
        known[cards.len()..cards.len() + discards.len()].copy_from_slice(discards);
        let counts = self.exact_counts(&known[..cards.len() + discards.len()], up, hand.strength());
        self.insurance(category, counts).0
    }

    /// The box's net against a dealer who revealed `revealed` and holds `dealer_now`.
    fn net_against(&self, f: &Finish, revealed: HandValue, dealer_now: HandValue) -> Money {
        self.settle(f, (revealed, dealer_now), &mut None, &mut None).1
    }

    /// Whether a box that played `f` buys the dealer's redraw after he revealed `dealer`, a
    /// hand that does not qualify: the house's name for it and its fee, if the engine offers
    /// it and its mean over the dealer's draws from the cards not `seen` beats declining.
    /// Its fee and the mean gain of buying over declining are returned with it.
    fn buys_redraw(&self, f: &Finish, dealer: [u8; 5], seen: u64) -> Option<(Redraw, Money, f64)> {
        let has_bonus = self.has_bonus(f.forfeited);
        let (redraw, fee) =
            round::redraw_fee(self.profile, f.hand, self.ante, has_bonus, DECK_SIZE, None).ok()?;
        let revealed = evaluator().eval5(dealer);
        let declined = self.net_against(f, revealed, revealed);
        let bought = Finish { bought_redraw: true, fees: f.fees + fee, ..*f };
        let highest = round::dealer_discard(&dealer.map(|c| Card::from_code(c).expect("a card")));
        let (mut sum, mut n) = (0i64, 0i64);
        let mut again = dealer;
        for c in (0..DECK_SIZE as u8).filter(|c| seen & (1 << c) == 0) {
            again[highest] = c;
            sum += self.net_against(&bought, revealed, evaluator().eval5(again));
            n += 1;
        }
        (sum > declined * n).then(|| (redraw, fee, (sum - declined * n) as f64 / n as f64))
    }

    /// Plays one round with up card `stratum.up`, drawing from `deck`.
    fn play_round(
        &self,
        stratum: &Stratum,
        deck: &mut Deck,
        rng: &mut ChaCha8Rng,
        mut trace: Option<&mut Trace>,
    ) -> RoundResult {
        deck.next = 0;
        let up = stratum.up;
        let mut draw = |deck: &mut Deck, trace: &mut Option<&mut Trace>| {
            let card = deck.draw(rng);
            if let Some(t) = trace.as_deref_mut() {
                t.drawn.push(card);
            }
            card
        };
        let mut dealt = [0u8; 5];
        for card in dealt.iter_mut() {
            *card = draw(deck, &mut trace);
        }
        let mut dealer = [0u8; 5];
        for card in dealer[..4].iter_mut() {
            *card = draw(deck, &mut trace);
        }
        dealer[4] = up;
        let mut node = Node::dealt(dealt, up);
        let mut result = RoundResult::default();
        let act = |trace: &mut Option<&mut Trace>, action: Action| {
            if let Some(t) = trace.as_deref_mut() {
                t.actions.push(action);
            }
        };
        let mut fees: Money = 0;
        // What the cards the options drew, and the dealer's bought card, gave beyond their
        // mean as the strategy's tables value them: each has mean 0 given what the player had
        // seen before, so it is taken out of the conditional net.
        let mut luck = 0.0;
        let played = loop {
            match self.decide(stratum, &node) {
                Decision::Fold => {
                    act(&mut trace, Action::Fold { box_index: 0 });
                    break false;
                }
                Decision::Play => {
                    act(&mut trace, Action::Play { box_index: 0 });
                    break true;
                }
                Decision::Exchange(mask) => {
                    let has_bonus = self.has_bonus(node.forfeited);
                    let k = mask.count_ones() as usize;
                    let fee = self.exchange_fees(node.exchanges, has_bonus)[k].expect("an offered exchange");
                    let positions: Vec<usize> = (0..5).filter(|i| mask >> i & 1 == 1).collect();
                    act(&mut trace, Action::Exchange { box_index: 0, positions: positions.clone() });
                    if self.burn {
                        draw(deck, &mut trace);
                    }
                    let mut held = [0u8; 5];
                    let kept = (0..5).filter(|i| mask >> i & 1 == 0).map(|i| node.cards[i]);
                    let h = held.iter_mut().zip(kept).map(|(slot, card)| *slot = card).count();
                    held[..h].sort_unstable();
                    for &p in &positions {
                        node.discards[node.discard_count] = node.cards[p];
                        node.discard_count += 1;
                        node.cards[p] = draw(deck, &mut trace);
                    }
                    let mut dead = [0u8; 11];
                    dead[0] = up;
                    dead[1..=node.discard_count].copy_from_slice(&node.discards[..node.discard_count]);
                    let sums = &stratum.sums[node.exchanges];
                    let mut now = [node.cards[0], node.cards[1], node.cards[2], node.cards[3], node.cards[4]];
                    now.sort_unstable();
                    luck += sums.get(&now) - sums.mean(&held[..h], &dead[..=node.discard_count]);
                    if node.exchanges < 2 {
                        result.exchanged[node.exchanges] = k;
                    }
                    node.exchanges += 1;
                    node.forfeited |= self.forfeits_on_exchange;
                    fees += fee;
                    result.exchange_fees += fee;
                }
                Decision::SixthCard => {
                    let fee =
                        self.sixth_card_fee(self.has_bonus(node.forfeited)).expect("an offered sixth card");
                    act(&mut trace, Action::BuySixthCard { box_index: 0 });
                    node.cards[5] = draw(deck, &mut trace);
                    luck += Self::six_card_value(stratum, node.cards)
                        - Self::sixth_card_mean(stratum, &node.cards);
                    node.len = 6;
                    node.sixth = true;
                    fees += fee;
                    result.sixth = Some(fee);
                }
            }
        };
        let hand = node.value();
        let dealt_value = evaluator().eval5(dealt);
        let discards = &node.discards[..node.discard_count];
        let mut finish = Finish {
            hand,
            dealt: dealt_value,
            played,
            forfeited: node.forfeited,
            insurance: 0,
            fees,
            bought_redraw: false,
        };
        let has_bonus = self.has_bonus(node.forfeited);
        if played
            && self.profile.insurance.is_some()
            && round::insurance_limits(self.profile, hand, self.ante, self.play_bet, None, 0).is_ok()
        {
            finish.insurance = self.insure(&node.cards[..node.len], discards, up, hand);
            act(
                &mut trace,
                match finish.insurance {
                    0 => Action::Decline { box_index: 0 },
                    amount => Action::Insure { box_index: 0, amount },
                },
            );
        }
        let revealed = evaluator().eval5(dealer);
        let mut dealer_value = revealed;
        if played && revealed.strength() < self.qualifier && self.profile.dealer_redraw().is_some() {
            let mut seen = 0u64;
            for &c in node.cards[..node.len].iter().chain(discards).chain(&dealer) {
                seen |= 1 << c;
            }
            match self.buys_redraw(&finish, dealer, seen) {
                Some((redraw, fee, mean_gain)) => {
                    let declined = self.net_against(&finish, revealed, revealed);
                    act(
                        &mut trace,
                        match redraw {
                            Redraw::DealerCard => Action::BuyDealerCard { box_index: 0 },
                            Redraw::Game => Action::BuyGame { box_index: 0 },
                        },
                    );
                    let highest = round::dealer_discard(&dealer.map(|c| Card::from_code(c).expect("a card")));
                    dealer[highest] = draw(deck, &mut trace);
                    dealer_value = evaluator().eval5(dealer);
                    finish.bought_redraw = true;
                    finish.fees += fee;
                    let gain = self.net_against(&finish, revealed, dealer_value) - declined;
                    result.redraw_gain = Some(gain);
                    luck += gain as f64 - mean_gain;
                }
                None => {
                    if round::redraw_fee(self.profile, hand, self.ante, has_bonus, DECK_SIZE, None).is_ok() {
                        act(&mut trace, Action::Decline { box_index: 0 });
                    }
                }
            }
        }
        let (slot, net, side) =
            self.settle(&finish, (revealed, dealer_value), &mut result.jackpot_hit, &mut result.bonus_hit);
        let mut known = [0u8; 16];
        let seen = node.known(&mut known);
        (result.conditional_net, result.base_conditional_net) =
            self.conditional_nets(&finish, net - side, &known[..seen], (&dealt, up, revealed));
        result.conditional_net -= luck;
        if self.profile.bonus.as_ref().is_some_and(|b| b.kind != BonusKind::Privilege) {
            result.base_side = self.bonus_net(false, false, dealt_value.category());
        }
        result.outcome_slot = slot;
        result.net = net;
        result.side = side;
        result.played = played;
        result.wager = self.ante
            + if played { self.play_bet } else { 0 }
            + finish.insurance
            + finish.fees
            + match self.profile.bonus.as_ref().map(|b| b.kind) {
                Some(BonusKind::Privilege) => self.bonus_stake,
                _ => 0,
            };
        if finish.insurance > 0 {
            let won = round::insurance_bet(
                finish.insurance,
                revealed.strength() >= self.qualifier,
                hand > revealed,
            );
            result.insurance = Some((finish.insurance, won.net()));
        }
        if node.exchanges > 0 || node.sixth {
            // What the box would have had without the exchange or the card: the dealt hand,
            // played or folded by the strategy, insured and buying the dealer's redraw as it
            // would, the redraw then being the next card of the same deck.
            let first = Node::dealt(dealt, up);
            let plays = matches!(self.decide_without_options(stratum, &first), Decision::Play);
            let mut base = Finish {
                hand: dealt_value,
                dealt: dealt_value,
                played: plays,
                forfeited: false,
                insurance: 0,
                fees: 0,
                bought_redraw: false,
            };
            if plays
                && self.profile.insurance.is_some()
                && round::insurance_limits(self.profile, dealt_value, self.ante, self.play_bet, None, 0)
                    .is_ok()
            {
                base.insurance = self.insure(&dealt, &[], up, dealt_value);
            }
            let mut dealt_dealer = dealer_as_dealt(deck, up);
            let revealed_as_dealt = evaluator().eval5(dealt_dealer);
            let mut dealer_then = revealed_as_dealt;
            if plays && revealed_as_dealt.strength() < self.qualifier {
                let seen = dealt.iter().chain(&dealt_dealer).fold(0u64, |m, &c| m | 1 << c);
                if let Some((_, fee, _)) = self.buys_redraw(&base, dealt_dealer, seen) {
                    let highest =
                        round::dealer_discard(&dealt_dealer.map(|c| Card::from_code(c).expect("a card")));
                    dealt_dealer[highest] = deck.cards[DEALT_CARDS];
                    dealer_then = evaluator().eval5(dealt_dealer);
                    base.bought_redraw = true;
                    base.fees += fee;
                }
            }
            let without = self.net_against(&base, revealed_as_dealt, dealer_then);
            if node.sixth {
                result.sixth_gain = net - without;
            } else {
                result.exchange_gain = net - without;
            }
        }
        result
    }

    /// Play or fold only (for the counterfactual of an option taken).
    fn decide_without_options(&self, stratum: &Stratum, node: &Node) -> Decision {
        let hand = node.value();
        let judged = self.judged(node.dealt, hand.category());
        let fold = -self.ante + self.weighed_bonus(false, true, judged);
        let mut known = [0u8; 16];
        let n = node.known(&mut known);
        let counts = self.exact_counts(&known[..n], stratum.up, hand.strength());
        let total = i128::from(counts.total());
        let play = self.play_total(hand.strength(), counts)
            + total * i128::from(self.weighed_bonus(false, false, judged));
        if play >= total * i128::from(fold) {
            Decision::Play
        } else {
            Decision::Fold
        }
    }
}

/// Cards dealt before the first card an option draws: the box's five and the dealer's four.
const DEALT_CARDS: usize = 9;

/// The dealer's five cards as dealt, before a bought card replaced his highest: the deck's
/// draws 5 to 8 and the up card.
fn dealer_as_dealt(deck: &Deck, up: u8) -> [u8; 5] {
    [deck.cards[5], deck.cards[6], deck.cards[7], deck.cards[8], up]
}

// ---------------------------------------------------------------------------------------------
// Tallies and the report

/// A multiplicative hash for the histogram's few integer keys.
#[derive(Clone, Copy, Debug, Default)]
struct BuildFast;

#[derive(Default)]
struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
    fn write_i64(&mut self, n: i64) {
        self.0 = (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
}

impl std::hash::BuildHasher for BuildFast {
    type Hasher = FastHasher;
    fn build_hasher(&self) -> FastHasher {
        FastHasher::default()
    }
}

/// The units of [`Moments`]: a figure is summed as a whole number of 2⁻⁴⁰ parts, so that
/// sums are exact and the same in whatever order the threads add them.
const FIXED_POINT: f64 = (1u64 << 40) as f64;

/// The count, sum and sum of squares of a per-round figure (of a few hundred at most).
#[derive(Clone, Copy, Debug, Default)]
struct Moments {
    n: u64,
    sum: i128,
    sum_sq: i128,
}

impl Moments {
    fn add(&mut self, x: f64) {
        let units = (x * FIXED_POINT).round() as i128;
        self.n += 1;
        self.sum += units;
        self.sum_sq += units * units;
    }

    fn merge(self, other: Moments) -> Moments {
        Moments { n: self.n + other.n, sum: self.sum + other.sum, sum_sq: self.sum_sq + other.sum_sq }
    }

    fn mean(&self) -> f64 {
        self.sum as f64 / FIXED_POINT / self.n as f64
    }

    /// The variance of the mean (the sample variance over n).
    fn variance_of_mean(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as i128;
        let squares = (n * self.sum_sq - self.sum * self.sum) as f64 / (FIXED_POINT * FIXED_POINT);
        (squares / (n * (n - 1)) as f64).max(0.0) / self.n as f64
    }
}

/// The stratified mean of a figure, each up-card rank weighted 1/13 as it is dealt, and its
/// 95 % half-interval (every stratum has [`MIN_ROUNDS`] / 13 rounds or more).
fn stratified(strata: &[Moments; STRATA]) -> Estimate {
    let weight = 1.0 / STRATA as f64;
    let value = strata.iter().map(|m| weight * m.mean()).sum();
    let variance: f64 = strata.iter().map(|m| weight * weight * m.variance_of_mean()).sum();
    Estimate { value, ci95: Z95 * variance.sqrt() }
}

#[derive(Clone, Debug, Default)]
struct Tally {
    /// Per up-card rank: the main game's conditional net less the control variate's, in
    /// antes, and the side bet's net less its control variate's, in stakes.
    controlled: [Moments; STRATA],
    side_controlled: [Moments; STRATA],
    rounds: u64,
    net: i128,
    net_sq: i128,
    wager: i128,
    wager_sq: i128,
    played: u64,
    outcomes: [u64; SLOTS],
    outcome_net: [i128; SLOTS],
    bonus_hits: [u64; 11],
    jackpot_hits: [u64; 11],
    exchanges: [[u64; 6]; 2],
    exchanged_rounds: u64,
    exchange_fees: i128,
    exchange_gain: i128,
    sixth: u64,
    sixth_fees: i128,
    sixth_gain: i128,
    insurance: u64,
    insurance_staked: i128,
    insurance_net: i128,
    redraw: u64,
    redraw_gain: i128,
    histogram: HashMap<Money, u64, BuildFast>,
}

impl Tally {
    fn add(&mut self, r: &RoundResult, rank: usize, (ante, stake): (Money, Money)) {
        self.controlled[rank].add((r.conditional_net - r.base_conditional_net) / ante as f64);
        if stake > 0 {
            self.side_controlled[rank].add((r.side - r.base_side) as f64 / stake as f64);
        }
        let main = i128::from(r.net - r.side);
        let wager = i128::from(r.wager);
        self.rounds += 1;
        self.net += main;
        self.net_sq += main * main;
        self.wager += wager;
        self.wager_sq += wager * wager;
        self.played += u64::from(r.played);
        self.outcomes[r.outcome_slot] += 1;
        self.outcome_net[r.outcome_slot] += main;
        if let Some(c) = r.bonus_hit {
            self.bonus_hits[c as usize] += 1;
        }
        if let Some(c) = r.jackpot_hit {
            self.jackpot_hits[c as usize] += 1;
        }
        for (round, &k) in r.exchanged.iter().enumerate() {
            self.exchanges[round][k] += u64::from(k > 0);
        }
        if r.exchanged[0] > 0 {
            self.exchanged_rounds += 1;
            self.exchange_fees += i128::from(r.exchange_fees);
            self.exchange_gain += i128::from(r.exchange_gain);
        }
        if let Some(fee) = r.sixth {
            self.sixth += 1;
            self.sixth_fees += i128::from(fee);
            self.sixth_gain += i128::from(r.sixth_gain);
        }
        if let Some((staked, net)) = r.insurance {
            self.insurance += 1;
            self.insurance_staked += i128::from(staked);
            self.insurance_net += i128::from(net);
        }
        if let Some(gain) = r.redraw_gain {
            self.redraw += 1;
            self.redraw_gain += i128::from(gain);
        }
        *self.histogram.entry(r.net - r.side).or_default() += 1;
    }

    fn merge(mut self, other: Tally) -> Tally {
        for rank in 0..STRATA {
            self.controlled[rank] = self.controlled[rank].merge(other.controlled[rank]);
            self.side_controlled[rank] = self.side_controlled[rank].merge(other.side_controlled[rank]);
        }
        self.rounds += other.rounds;
        self.net += other.net;
        self.net_sq += other.net_sq;
        self.wager += other.wager;
        self.wager_sq += other.wager_sq;
        self.played += other.played;
        for i in 0..SLOTS {
            self.outcomes[i] += other.outcomes[i];
            self.outcome_net[i] += other.outcome_net[i];
        }
        for i in 0..11 {
            self.bonus_hits[i] += other.bonus_hits[i];
            self.jackpot_hits[i] += other.jackpot_hits[i];
        }
        for round in 0..2 {
            for k in 0..6 {
                self.exchanges[round][k] += other.exchanges[round][k];
            }
        }
        self.exchanged_rounds += other.exchanged_rounds;
        self.exchange_fees += other.exchange_fees;
        self.exchange_gain += other.exchange_gain;
        self.sixth += other.sixth;
        self.sixth_fees += other.sixth_fees;
        self.sixth_gain += other.sixth_gain;
        self.insurance += other.insurance;
        self.insurance_staked += other.insurance_staked;
        self.insurance_net += other.insurance_net;
        self.redraw += other.redraw;
        self.redraw_gain += other.redraw_gain;
        for (net, count) in other.histogram {
            *self.histogram.entry(net).or_default() += count;
        }
        self
    }
}

/// A map serialised in the order of its entries.
#[derive(Clone, Debug, PartialEq)]
pub struct Ordered<T>(pub Vec<(String, T)>);

impl<T: Serialize> Serialize for Ordered<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl<T> Ordered<T> {
    pub fn get(&self, key: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// A mean with the half-width of its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub value: f64,
    pub ci95: f64,
}

/// 1.96: the two-sided 95 % quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The exactly known means of the control variates: the play-or-fold game's return per ante
/// (the exact analysis) and the side bet's per stake on the dealt hand (the hand counts).
#[derive(Clone, Copy, Debug)]
struct Anchors {
    base_return: f64,
    side_return: f64,
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

/// The mean of a per-round amount and its 95 % interval, in units of `unit`.
fn mean_estimate(sum: i128, sum_sq: i128, n: u64, unit: f64) -> Estimate {
    let n_f = n as f64;
    let mean = sum as f64 / n_f;
    let variance = if n > 1 { ((sum_sq as f64) - (sum as f64) * mean) / (n_f - 1.0) } else { 0.0 };
    Estimate { value: mean / unit, ci95: Z95 * (variance.max(0.0) / n_f).sqrt() / unit }
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
    /// How the box is bet and played ([`BoxPlay::name`]).
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

fn outcome_name(slot: usize) -> String {
    match slot {
        NOT_QUALIFIED => "dealer_not_qualified".into(),
        STILL_NOT_QUALIFIED => "dealer_still_not_qualified".into(),
        PUSH => "push".into(),
        PROTECTED => "protected".into(),
        FOLDED => "folded".into(),
        LOST => "lost".into(),
        c => format!("won_{}", Category::ALL[c].name()),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn report(player: &FastPlayer<'_>, options: &SimulationOptions, anchors: Anchors, t: Tally) -> Simulation {
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
    let outcomes = Ordered(order.iter().map(|&s| (outcome_name(s), t.outcomes[s])).collect());
    let outcome_return =
        Ordered(order.iter().map(|&s| (outcome_name(s), t.outcome_net[s] as f64 / n_f / a)).collect());
    let side_controlled = stratified(&t.side_controlled);
    let side = match profile.bonus.as_ref().map(|b| b.kind) {
        Some(BonusKind::Fixed | BonusKind::Odds) if stake > 0 => {
            Estimate { value: anchors.side_return + side_controlled.value, ci95: side_controlled.ci95 }
        }
        _ => Estimate { value: 0.0, ci95: 0.0 },
    };
    let bonus = profile.bonus.as_ref().filter(|_| stake > 0).map(|b| {
        let hit = |hits: u64, pays: String| BonusHit { hits, frequency: hits as f64 / n_f, pays };
        let hits = Ordered(
            b.pays
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
                .collect(),
        );
        let jackpot_hits = Ordered(
            b.jackpot
                .iter()
                .map(|j| {
                    (
                        j.category.name().to_string(),
                        hit(t.jackpot_hits[j.category as usize], j.share.to_string()),
                    )
                })
                .collect(),
        );
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
    if let Some((redraw, p)) = profile.dealer_redraw() {
        let fee = i128::from(p.fee.of(ante).unwrap_or(0));
        let name = match redraw {
            Redraw::DealerCard => "buy_dealer_card",
            Redraw::Game => "buy_game",
        };
        option_rows.push((name.to_string(), figures(t.redraw, fee * i128::from(t.redraw), t.redraw_gain)));
    }
    let mut exchanges = Vec::new();
    if let Some(e) = &profile.exchange {
        for (r, round) in e.rounds.iter().enumerate().take(2) {
            for &k in round.fees.keys() {
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
        seed: hex(&options.seed),
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
        options: Ordered(option_rows),
        exchanges: Ordered(exchanges),
        distribution,
    }
}

// ---------------------------------------------------------------------------------------------
// Running it

/// The ante a simulation plays, if the table allows it and the rounds are enough.
fn checked_ante(profile: &Profile, options: &SimulationOptions) -> Result<Money, SimulationError> {
    let ante = options.ante.unwrap_or(profile.table.ante_max);
    if !profile.allows_ante(ante) {
        return Err(SimulationError::Ante { profile: profile.id.clone(), ante });
    }
    if options.rounds < MIN_ROUNDS {
        return Err(SimulationError::TooFewRounds { rounds: options.rounds });
    }
    if options.play == BoxPlay::Blind {
        return Err(SimulationError::Blind);
    }
    Ok(ante)
}

/// The rounds of stratum `rank` (up card: that rank's club) of a simulation of `rounds`.
fn stratum_share(rounds: u64, rank: usize) -> u64 {
    rounds / STRATA as u64 + u64::from((rank as u64) < rounds % STRATA as u64)
}

/// Plays `share` rounds with the stratum's up card, chunk by chunk on every core.
fn run_stratum(
    player: &FastPlayer<'_>,
    stratum: &Stratum,
    rank: usize,
    share: u64,
    seed: &Seed,
    progress: &Progress,
) -> Tally {
    (0..share.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let mut t = Tally::default();
            if progress.is_cancelled() {
                return t;
            }
            let size = CHUNK.min(share - chunk * CHUNK);
            let mut rng = ChaCha8Rng::from_seed(*seed);
            rng.set_stream((rank as u64) << 40 | chunk);
            let mut deck = Deck::new(stratum.up);
            for _ in 0..size {
                t.add(
                    &player.play_round(stratum, &mut deck, &mut rng, None),
                    rank,
                    (player.ante, player.bonus_stake),
                );
            }
            progress.advance(size);
            t
        })
        .reduce(Tally::default, Tally::merge)
}

/// Simulates `options.rounds` rounds of one box (see the module's documentation).
pub fn simulate(profile: &Profile, options: &SimulationOptions) -> Result<Simulation, SimulationError> {
    simulate_with_progress(profile, options, &Progress::new())
}

/// [`simulate`], reporting to `progress` and stopping when it is cancelled. The strategy's
/// tables are built for one up card at a time and dropped after its rounds.
pub fn simulate_with_progress(
    profile: &Profile,
    options: &SimulationOptions,
    progress: &Progress,
) -> Result<Simulation, SimulationError> {
    if options.rounds == 0 {
        return Err(SimulationError::NoRounds);
    }
    let ante = checked_ante(profile, options)?;
    progress.start(options.rounds);
    let player = FastPlayer::new(profile, ante, options.play);
    let anchors = player.anchors();
    let mut tally = Tally::default();
    for rank in 0..STRATA {
        let share = stratum_share(options.rounds, rank);
        if share == 0 || progress.is_cancelled() {
            continue;
        }
        let stratum = player.stratum((4 * rank) as u8);
        tally = tally.merge(run_stratum(&player, &stratum, rank, share, &options.seed, progress));
    }
    if progress.is_cancelled() {
        return Err(SimulationError::Cancelled);
    }
    Ok(report(&player, options, anchors, tally))
}

/// A profile ready to simulate, with the strategy's tables for every up card built once (for
/// benchmarks and repeated runs; up to about 25 MB per up card with exchanges).
pub struct Simulator<'a> {
    player: FastPlayer<'a>,
    strata: Vec<Stratum>,
    options: SimulationOptions,
    anchors: Anchors,
}

impl<'a> Simulator<'a> {
    /// `options.rounds` and `options.seed` are those `run` uses unless it is given others.
    pub fn new(profile: &'a Profile, options: SimulationOptions) -> Result<Simulator<'a>, SimulationError> {
        let ante = checked_ante(profile, &options)?;
        let player = FastPlayer::new(profile, ante, options.play);
        let strata = (0..STRATA).map(|rank| player.stratum((4 * rank) as u8)).collect();
        let anchors = player.anchors();
        Ok(Simulator { player, strata, options, anchors })
    }

    /// Simulates `rounds` rounds from `seed`: the same figures as [`simulate`].
    pub fn run(&self, rounds: u64, seed: Seed) -> Simulation {
        assert!(rounds >= MIN_ROUNDS, "a simulation plays at least {MIN_ROUNDS} rounds");
        let progress = Progress::new();
        let tally = (0..STRATA)
            .map(|rank| {
                let share = stratum_share(rounds, rank);
                run_stratum(&self.player, &self.strata[rank], rank, share, &seed, &progress)
            })
            .fold(Tally::default(), Tally::merge);
        let options = SimulationOptions { rounds, seed, ..self.options.clone() };
        report(&self.player, &options, self.anchors, tally)
    }
}

// ---------------------------------------------------------------------------------------------
// How near the optimum

/// The fast strategy's first decision against the strategy module's advice on random deals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StrategyGap {
    pub profile: String,
    pub situations: usize,
    /// Situations where the fast strategy took advise's best choice.
    pub agreed: usize,
    /// The mean and largest expected loss against advise's best choice, in antes.
    pub mean_gap: f64,
    pub max_gap: f64,
    /// Situations where every choice advise valued was exact (not sampled).
    pub exact: usize,
}

/// Deals `situations` random rounds (from `seed`) at the table's maximum ante with the standard
/// bonus stake, and values the fast strategy's first decision by `strategy::advise`.
pub fn strategy_gap(profile: &std::sync::Arc<Profile>, situations: usize, seed: u64) -> StrategyGap {
    let ante = profile.table.ante_max;
    let stake = BoxPlay::Standard.stake(profile, ante);
    let player = FastPlayer::new(profile, ante, BoxPlay::Standard);
    let mut strata: HashMap<u8, Stratum> = HashMap::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut agreed, mut exact, mut sum, mut max) = (0, 0, 0.0f64, 0.0f64);
    for _ in 0..situations {
        let mut deal_seed = [0u8; 32];
        rng.fill_bytes(&mut deal_seed);
        let bonus: Vec<Money> = if stake > 0 { vec![stake] } else { vec![] };
        let round =
            Round::new(profile.clone(), &[ante], &bonus, Some(deal_seed), None).expect("a round deals");
        let up = round.dealer_cards()[4];
        // Suits are symmetric: relabel so that the up card is a club.
        let swap = |c: Card| {
            let suit = match c.suit() {
                s if s == up.suit() => 0,
                0 => up.suit(),
                s => s,
            };
            Card::new(c.rank(), suit).code()
        };
        let cards: Vec<Card> = round.visible_box_cards(0).expect("box 1 is looked at").to_vec();
        let hand = [swap(cards[0]), swap(cards[1]), swap(cards[2]), swap(cards[3]), swap(cards[4])];
        let up_code = swap(up);
        let stratum = strata.entry(up_code).or_insert_with(|| player.stratum(up_code));
        let decision = player.decide(stratum, &Node::dealt(hand, up_code));
        let action = match decision {
            Decision::Fold => Action::Fold { box_index: 0 },
            Decision::Play => Action::Play { box_index: 0 },
            Decision::Exchange(mask) => {
                Action::Exchange { box_index: 0, positions: (0..5).filter(|i| mask >> i & 1 == 1).collect() }
            }
            Decision::SixthCard => Action::BuySixthCard { box_index: 0 },
        };
        let advice = strategy::advise(&round, 0).expect("box 1 decides");
        let best = advice.best().ev;
        let ours = advice.choices.iter().find(|c| c.action == action).expect("the fast choice is legal").ev;
        let gap = (best - ours) / ante as f64;
        sum += gap;
        max = max.max(gap);
        agreed += usize::from(gap <= 1e-9);
        exact += usize::from(advice.choices.iter().all(|c| c.exact));
        debug_assert!(matches!(round.phase(), Phase::Decision { .. }));
    }
    StrategyGap {
        profile: profile.id.clone(),
        situations,
        agreed,
        mean_gap: sum / situations.max(1) as f64,
        max_gap: max,
        exact,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{shipped_profile_text, SHIPPED_PROFILES};

    pub(super) fn load(id: &str) -> Arc<Profile> {
        Arc::new(Profile::from_toml(&shipped_profile_text(id), id, None).expect("a valid profile"))
    }

    /// The per-rank-key counts of the dealer's hands against exact card removal, where a hand's
    /// value is near folding's (at most one ante): within a fifth of the margin at which the
    /// decision is made exactly.
    #[test]
    fn rank_key_counts_are_near_exact_where_decisions_are_close() {
        let profile = load("caribbean");
        let player = FastPlayer::new(&profile, profile.table.ante_max, BoxPlay::WithoutBonus);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut worst, mut close) = (0.0f64, 0);
        for up in [0u8, 48, 45, 22] {
            let stratum = player.stratum(up);
            for _ in 0..20_000 {
                let mut deck = Deck::new(up);
                let mut hand: [u8; 5] = std::array::from_fn(|_| deck.draw(&mut rng));
                hand.sort_unstable();
                let s = evaluator().eval5(hand).strength();
                let approximate = stratum.counts[stratum.hand_counts[subset_rank(&hand)] as usize];
                let exact = player.exact_counts(&hand, up, s);
                let value = |c: Counts| player.play_total(s, c) as f64 / c.total() as f64 / 10_000.0;
                if value(exact) <= 1.0 {
                    close += 1;
                    worst = worst.max((value(approximate) - value(exact)).abs());
                }
            }
        }
        assert!(close > 40_000, "{close}");
        assert!(worst < EXACT_MARGIN / 4.0, "{worst}");
        assert!(worst > 0.0, "the rank keys ignore suits: some error is expected");
    }

    /// The cards not in `seen`, in order.
    fn unseen(seen: &[u8]) -> Vec<u8> {
        (0..DECK_SIZE as u8).filter(|c| !seen.contains(c)).collect()
    }

    /// The conditional net is unbiased: the expected ante, play bet and insurance equal their
    /// mean over every set of the dealer's hole cards, for hands that win, push, lose, are
    /// protected and are insured.
    #[test]
    fn expected_bets_are_the_mean_over_every_hole_card_set() {
        let profile = load("golden-oasis");
        let ante = 5_000;
        let player = FastPlayer::new(&profile, ante, BoxPlay::Standard);
        let cards = |text: &str| -> Vec<u8> {
            text.split_whitespace().map(|t| t.parse::<Card>().expect("a card").code()).collect()
        };
        for (hand, discards, insurance) in [
            ("9h 10h Jh Qh Kh", "", 20_000),
            ("7c 7d 7s 2h 9d", "3c Kd", 5_000),
            ("Ac Kd 4s 6h 9c", "", 0),
            ("2c 3d 5s 8h 9c", "", 0),
            ("Qc Qd 5s 5h 9c 2d", "", 0),
        ] {
            let hand = cards(hand);
            let mut known = hand.clone();
            known.extend(cards(discards));
            let up = 51; // the ace of spades
            let value = evaluator()
                .evaluate_unchecked(&hand.iter().map(|&c| Card::from_code(c).unwrap()).collect::<Vec<_>>());
            let mut seen = known.clone();
            seen.push(up);
            let pool = unseen(&seen);
            let (mut sum, mut n) = (0i128, 0i128);
            for_each_hand::<4>(|set| {
                if set.iter().all(|&i| usize::from(i) < pool.len()) {
                    let [a, b, c, d] = set.map(|i| pool[usize::from(i)]);
                    let dealer = evaluator().eval5([a, b, c, d, up]);
                    sum += i128::from(player.bets_against(value, insurance, dealer));
                    n += 1;
                }
            });
            let mean = sum as f64 / n as f64;
            let expected = player.expected_bets(value, insurance, &known, up);
            assert!((mean - expected).abs() < 1e-6, "{hand:?}: {mean} against {expected}");
        }
    }

    /// What an exchange's cards gave beyond their mean (taken out of the conditional net) has
    /// mean zero: the table's mean over every replacement is the one inclusion–exclusion gives.
    #[test]
    fn an_exchange_tables_mean_is_the_mean_over_every_replacement() {
        let profile = load("stand-b");
        let player = FastPlayer::new(&profile, profile.table.ante_min, BoxPlay::WithoutBonus);
        let up = 22; // a seven
        let stratum = player.stratum(up);
        let held = [3u8, 17, 40];
        let dead = [up, 5, 30];
        let mut seen = held.to_vec();
        seen.extend(dead);
        let pool = unseen(&seen);
        let (mut sum, mut n) = (0.0, 0u32);
        for_each_hand::<2>(|pair| {
            if pair.iter().all(|&i| usize::from(i) < pool.len()) {
                let mut hand =
                    [held[0], held[1], held[2], pool[usize::from(pair[0])], pool[usize::from(pair[1])]];
                hand.sort_unstable();
                sum += stratum.sums[0].get(&hand);
                n += 1;
            }
        });
        let mean = stratum.sums[0].mean(&held, &dead);
        assert!(
            (sum / f64::from(n) - mean).abs() < 1e-6 * mean.abs().max(1.0),
            "{} against {mean}",
            sum / f64::from(n)
        );
    }

    /// Every profile file the package ships, found in its folder (not from a list).
    fn profile_files() -> Vec<Arc<Profile>> {
        let folder = format!("{}/../../oasis_kiosk/profiles", env!("CARGO_MANIFEST_DIR"));
        let mut paths: Vec<_> = std::fs::read_dir(folder)
            .expect("the profiles' folder")
            .map(|entry| entry.expect("a folder entry").path())
            .filter(|path| path.extension().is_some_and(|e| e == "toml"))
            .collect();
        paths.sort();
        paths
            .iter()
            .map(|path| {
                let text = std::fs::read_to_string(path).expect("a profile file");
                Arc::new(
                    Profile::from_toml(&text, &path.display().to_string(), None).expect("a valid profile"),
                )
            })
            .collect()
    }

    /// Plays rounds of every profile file at its least and its greatest ante on the fast path
    /// with a trace, replays each on the round engine from a stacked deck with the same
    /// actions (each one the engine must find legal), and compares the settlements.
    #[test]
    fn fast_path_settles_as_the_engine() {
        let mut actions_seen = std::collections::BTreeSet::new();
        let tables = Arc::new(HoldingTables::build(Category::AceKing));
        let profiles = profile_files();
        assert!(profiles.len() >= SHIPPED_PROFILES.len());
        // The standard bonus at both antes; without it, and bet but not weighed, at one each.
        let plays = |p: &Profile| {
            let (least, greatest) = (p.table.ante_min, p.table.ante_max);
            [
                (least, BoxPlay::Standard),
                (greatest, BoxPlay::Standard),
                (least, BoxPlay::WithoutBonus),
                (greatest, BoxPlay::ForMain),
            ]
        };
        for (profile, (ante, bonus)) in profiles.iter().flat_map(|p| plays(p).map(|play| (p, play))) {
            let (id, profile) = (profile.id.as_str(), profile.clone());
            let stake = bonus.stake(&profile, ante);
            let player = FastPlayer::with_tables(&profile, ante, bonus, tables.clone());
            for (i, up) in [48u8, 20, 1].into_iter().enumerate() {
                let stratum = player.stratum(up);
                let mut rng = ChaCha8Rng::seed_from_u64(i as u64 + 99);
                let mut deck = Deck::new(up);
                for _ in 0..if id == "czech-exchange" || id == "golden-oasis" { 3000 } else { 400 } {
                    let mut trace = Trace::default();
                    let result = player.play_round(&stratum, &mut deck, &mut rng, Some(&mut trace));
                    let mut top: Vec<Card> =
                        trace.drawn[..9].iter().map(|&c| Card::from_code(c).unwrap()).collect();
                    top.push(Card::from_code(up).unwrap());
                    top.extend(trace.drawn[9..].iter().map(|&c| Card::from_code(c).unwrap()));
                    let bonus: Vec<Money> = if stake > 0 { vec![stake] } else { vec![] };
                    let mut engine = Round::stacked(profile.clone(), &[ante], &bonus, &top, None).unwrap();
                    for action in &trace.actions {
                        actions_seen
                            .insert(format!("{id} {}", serde_json::to_value(action).unwrap()["action"]));
                        engine
                            .act(action.clone())
                            .unwrap_or_else(|e| panic!("{id}: {action:?}: {e} {trace:?}"));
                    }
                    let settlement =
                        engine.settlement().unwrap_or_else(|| panic!("{id}: not settled {trace:?}"));
                    let settled = &settlement.boxes[0];
                    assert_eq!(settled.net, result.net, "{id}: {trace:?} {settled:?}");
                    let side = match profile.bonus.as_ref().map(|b| b.kind) {
                        Some(BonusKind::Fixed | BonusKind::Odds) => settled.bonus.net(),
                        _ => 0,
                    };
                    assert_eq!(side, result.side, "{id}");
                    assert_eq!(settled.jackpot.map(|j| j.category), result.jackpot_hit, "{id}");
                    let slot = match settled.outcome {
                        Outcome::Won => settled.hand.category() as usize,
                        Outcome::DealerNotQualified => NOT_QUALIFIED,
                        Outcome::DealerStillNotQualified => STILL_NOT_QUALIFIED,
                        Outcome::Push => PUSH,
                        Outcome::Protected => PROTECTED,
                        Outcome::Folded => FOLDED,
                        Outcome::Lost | Outcome::Void => LOST,
                    };
                    assert_eq!(slot, result.outcome_slot, "{id}: {trace:?}");
                    assert_eq!(
                        settlement.collected - settled.bonus.stake
                            + i64::from(stake > 0 && side == 0) * stake,
                        result.wager,
                        "{id}"
                    );
                }
            }
        }
        // Every kind of decision was taken somewhere.
        for expected in [
            "czech-exchange \"buy_dealer_card\"",
            "czech-exchange \"exchange\"",
            "golden-oasis \"buy_sixth_card\"",
            "golden-oasis \"buy_game\"",
            "golden-oasis \"insure\"",
            "golden-oasis \"decline\"",
            "stand-c \"exchange\"",
            "caribbean \"fold\"",
            "caribbean \"play\"",
        ] {
            assert!(actions_seen.contains(expected), "{expected} not in {actions_seen:?}");
        }
    }
}
/// `GAP_SITUATIONS=400 cargo test -p oasis-core --release --lib every_gap -- --ignored --nocapture`
/// (`GAP_PROFILES=a,b` for some): the figures of docs/simulation.md.
#[cfg(test)]
mod gap_report {
    #[test]
    #[ignore = "prints the strategy gap of every exchange profile (minutes)"]
    fn every_gap() {
        let n: usize = std::env::var("GAP_SITUATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
        let only = std::env::var("GAP_PROFILES").unwrap_or_default();
        for id in [
            "czech-buy-card",
            "czech-exchange",
            "standard",
            "russian-three-box",
            "golden-oasis",
            "stand-a",
            "stand-b",
            "stand-c",
        ] {
            if !only.is_empty() && !only.split(',').any(|p| p == id) {
                continue;
            }
            let profile = super::tests::load(id);
            let started = std::time::Instant::now();
            let gap = super::strategy_gap(&profile, if id == "stand-c" { n / 4 } else { n }, 2024);
            println!("{id:20} {:?} {}", started.elapsed(), serde_json::to_string(&gap).unwrap());
        }
    }
}
