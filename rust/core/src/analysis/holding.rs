//! Counting the dealer's hands instead of dealing them: for every set of one to four cards, the
//! strengths of the five-card hands that hold it, and inclusion–exclusion over a player's
//! cards; the player's hands up to a permutation of suits.

use rayon::prelude::*;

use crate::card::{for_each_hand, DECK_SIZE};
use crate::eval::{evaluator, Category};

use super::{subset_rank, BINOMIAL, CUMULATIVE, HANDS_HOLDING, HOLE_CARD_SETS, STRENGTHS};

/// Calls `visit` with every K-element subset of `0..n`, ascending.
pub(super) fn for_each_combination<const K: usize>(n: usize, mut visit: impl FnMut([u8; K])) {
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
    pub(super) fn bytes(&self) -> usize {
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
    pub(super) fn dealer_counts(&self, player: &[u8; 5], up: u8, strength: u16) -> DealerCounts {
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
pub(super) fn player_classes() -> Vec<([u8; 5], u8)> {
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
