//! The strategy's tables that do not depend on the profile: every set of cards by rank, the
//! category of every strength, sums of a value over the hands holding each set of cards, and
//! the rank keys that share one count of the dealer's hands between hands that differ only
//! in suits.

use std::collections::HashMap;
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::analysis::{subset_rank, BINOMIAL};
use crate::card::{for_each_hand, DECK_SIZE};
use crate::eval::{Category, HandValue};

fn sets_by_rank<const K: usize>() -> Vec<[u8; K]> {
    let mut sets = vec![[0u8; K]; BINOMIAL[DECK_SIZE][K] as usize];
    for_each_hand::<K>(|set| sets[subset_rank(&set)] = set);
    sets
}

fn fours() -> &'static [[u8; 4]] {
    static SETS: OnceLock<Vec<[u8; 4]>> = OnceLock::new();
    SETS.get_or_init(sets_by_rank::<4>)
}

pub(super) fn fives() -> &'static [[u8; 5]] {
    static SETS: OnceLock<Vec<[u8; 5]>> = OnceLock::new();
    SETS.get_or_init(sets_by_rank::<5>)
}

/// The category of every strength.
pub(super) fn categories() -> &'static [Category] {
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
pub(super) struct Sums {
    /// Per five-card hand, by rank.
    five: Vec<f32>,
    four: Vec<f64>,
    three: Vec<f64>,
    two: Vec<f64>,
    one: Vec<f64>,
    zero: f64,
}

impl Sums {
    pub(super) fn build(five: Vec<f32>) -> Sums {
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
    pub(super) fn get(&self, set: &[u8]) -> f64 {
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
    pub(super) fn mean(&self, held: &[u8], dead: &[u8]) -> f64 {
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
pub(super) struct RankKeys {
    pub(super) hand_key: Vec<u32>,
    pub(super) representatives: Vec<[u8; 5]>,
}

pub(super) fn rank_keys() -> &'static RankKeys {
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
