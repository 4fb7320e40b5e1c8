//! Statistical tests of the shuffle, with fixed seeds so that the suite is deterministic.
//!
//! Each test computes a chi-square statistic and refuses it above the critical value at
//! the significance level `ALPHA` = 0.001: a fair shuffle fails one such test in a thousand
//! seeds, and these seeds are fixed. Each test also runs the same statistic on a known-biased
//! shuffle (swap every card with any position, the classic mistake) to show that the test
//! would catch it.

use oasis_core::shuffle::{bounded, shuffled_deck, Seed};
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};

const SHUFFLES: u64 = 400_000;
/// Upper-tail normal quantile for the significance level 0.001.
const Z_ALPHA: f64 = 3.090_232;

/// The chi-square critical value for `df` degrees of freedom at `ALPHA` (Wilson–Hilferty;
/// accurate to well under 1 % at the hundreds of degrees of freedom used here).
fn critical_value(df: f64) -> f64 {
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + Z_ALPHA * a.sqrt()).powi(3)
}

fn chi_square(observed: &[u64], expected: f64) -> f64 {
    observed.iter().map(|&o| (o as f64 - expected).powi(2) / expected).sum()
}

fn seed(i: u64) -> Seed {
    let mut seed = [0x5a; 32];
    seed[..8].copy_from_slice(&i.to_le_bytes());
    seed
}

/// Decks as codes from the shuffle under test.
fn fair_decks() -> impl Iterator<Item = [u8; 52]> {
    (0..SHUFFLES).map(|i| shuffled_deck(&seed(i)).map(|c| c.code()))
}

/// The naive shuffle that swaps each position with any position: n^n paths onto n!
/// permutations, so some orders are more likely than others.
fn biased_decks() -> impl Iterator<Item = [u8; 52]> {
    (0..SHUFFLES).map(|i| {
        let mut rng = ChaCha20Rng::from_seed(seed(i));
        let mut deck: [u8; 52] = std::array::from_fn(|c| c as u8);
        for position in 0..52 {
            deck.swap(position, bounded(&mut rng, 52) as usize);
        }
        deck
    })
}

/// Card-by-position: 52 × 52 counts, each expected SHUFFLES / 52; rows and columns are
/// fixed totals, so (52 − 1)² degrees of freedom.
fn card_by_position(decks: impl Iterator<Item = [u8; 52]>) -> (f64, f64) {
    let mut counts = vec![0u64; 52 * 52];
    for deck in decks {
        for (position, &card) in deck.iter().enumerate() {
            counts[position * 52 + usize::from(card)] += 1;
        }
    }
    (chi_square(&counts, SHUFFLES as f64 / 52.0), critical_value(51.0 * 51.0))
}

/// Adjacent pairs: how often card b directly follows card a, over the 52 × 51 ordered pairs
/// of different cards, each expected 51 × SHUFFLES / (52 × 51).
fn adjacent_pairs(decks: impl Iterator<Item = [u8; 52]>) -> (f64, f64) {
    let mut counts = vec![0u64; 52 * 52];
    for deck in decks {
        for pair in deck.windows(2) {
            counts[usize::from(pair[0]) * 52 + usize::from(pair[1])] += 1;
        }
    }
    let off_diagonal: Vec<u64> = (0..52 * 52).filter(|i| i / 52 != i % 52).map(|i| counts[i]).collect();
    (chi_square(&off_diagonal, SHUFFLES as f64 / 52.0), critical_value(52.0 * 51.0 - 1.0))
}

/// The first card dealt: 52 counts, each expected SHUFFLES / 52.
fn first_card(decks: impl Iterator<Item = [u8; 52]>) -> (f64, f64) {
    let mut counts = [0u64; 52];
    for deck in decks {
        counts[usize::from(deck[0])] += 1;
    }
    (chi_square(&counts, SHUFFLES as f64 / 52.0), critical_value(51.0))
}

#[test]
fn every_card_is_equally_likely_at_every_position() {
    let (statistic, critical) = card_by_position(fair_decks());
    assert!(statistic < critical, "fair shuffle: chi-square {statistic:.1} >= {critical:.1}");
    let (statistic, critical) = card_by_position(biased_decks());
    assert!(statistic > critical, "the test misses a biased shuffle: {statistic:.1} <= {critical:.1}");
}

#[test]
fn no_card_prefers_a_neighbour() {
    let (statistic, critical) = adjacent_pairs(fair_decks());
    assert!(statistic < critical, "fair shuffle: chi-square {statistic:.1} >= {critical:.1}");
    let (statistic, critical) = adjacent_pairs(biased_decks());
    assert!(statistic > critical, "the test misses a biased shuffle: {statistic:.1} <= {critical:.1}");
}

#[test]
fn the_first_card_is_uniform() {
    let (statistic, critical) = first_card(fair_decks());
    assert!(statistic < critical, "fair shuffle: chi-square {statistic:.1} >= {critical:.1}");
    // The naive shuffle's first card is nearly uniform; a modulo-biased draw is not: taking
    // the low byte of a draw mod 52 favours the first 256 mod 52 = 48 cards.
    let modulo_biased = (0..SHUFFLES).map(|i| {
        let mut deck: [u8; 52] = std::array::from_fn(|c| c as u8);
        let low_byte = ChaCha20Rng::from_seed(seed(i)).next_u32() as u8;
        deck.swap(0, usize::from(low_byte) % 52);
        deck
    });
    let (statistic, critical) = first_card(modulo_biased);
    assert!(statistic > critical, "the test misses a modulo bias: {statistic:.1} <= {critical:.1}");
}
