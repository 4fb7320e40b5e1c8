//! The evaluator against every hand there is.
//!
//! Five cards: all 2 598 960 hands are classified by an independent, deliberately naive
//! evaluator written here (sort, count, compare lists), and the fast evaluator must put
//! them in exactly the same order. Six and seven cards: the fast table lookups must equal
//! the best of their five-card subsets, and the category counts must be the published ones.

use std::collections::BTreeMap;

use oasis_core::card::for_each_hand;
use oasis_core::{evaluator, Card, Category, HandValue};

/// A naive hand key: category index, then the ranks that decide ties (RULES.md §1).
type NaiveKey = (u8, Vec<u8>);

fn naive_five(cards: &[Card; 5]) -> NaiveKey {
    let mut ranks: Vec<u8> = cards.iter().map(|c| c.rank() + 2).collect();
    ranks.sort_unstable_by(|a, b| b.cmp(a));
    let flush = cards.iter().all(|c| c.suit() == cards[0].suit());
    let mut distinct = ranks.clone();
    distinct.dedup();
    let straight_top = if distinct.len() == 5 && distinct[0] - distinct[4] == 4 {
        Some(distinct[0])
    } else if distinct == [14, 5, 4, 3, 2] {
        Some(5)
    } else {
        None
    };
    // Group by rank: (count, rank), largest group first, then higher rank.
    let mut groups: Vec<(usize, u8)> =
        distinct.iter().map(|&r| (ranks.iter().filter(|&&x| x == r).count(), r)).collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let shape: Vec<usize> = groups.iter().map(|g| g.0).collect();
    let by_group: Vec<u8> = groups.iter().map(|g| g.1).collect();
    let category = match (straight_top, flush, shape.as_slice()) {
        (Some(14), true, _) => Category::RoyalFlush,
        (Some(_), true, _) => Category::StraightFlush,
        (_, _, [4, 1]) => Category::FourOfAKind,
        (_, _, [3, 2]) => Category::FullHouse,
        (_, true, _) => Category::Flush,
        (Some(_), _, _) => Category::Straight,
        (_, _, [3, 1, 1]) => Category::ThreeOfAKind,
        (_, _, [2, 2, 1]) => Category::TwoPair,
        (_, _, [2, 1, 1, 1]) => Category::OnePair,
        _ if ranks.contains(&14) && ranks.contains(&13) => Category::AceKing,
        _ => Category::HighCard,
    };
    let ties = match straight_top {
        Some(top) => vec![top],
        None => by_group,
    };
    (category as u8, ties)
}

fn cards<const N: usize>(codes: [u8; N]) -> [Card; N] {
    codes.map(|code| Card::from_code(code).unwrap())
}

fn best_of_five_subsets<const N: usize>(codes: [u8; N]) -> HandValue {
    let mut best = HandValue::from_strength(0).unwrap();
    for skip_mask in 0u32..1 << N {
        if skip_mask.count_ones() as usize == N - 5 {
            let mut five = [0u8; 5];
            let mut k = 0;
            for (i, &code) in codes.iter().enumerate() {
                if skip_mask >> i & 1 == 0 {
                    five[k] = code;
                    k += 1;
                }
            }
            best = best.max(evaluator().eval5(five));
        }
    }
    best
}

fn counts_by_category(strengths: impl IntoIterator<Item = HandValue>) -> [u64; 11] {
    let mut counts = [0u64; 11];
    for value in strengths {
        counts[value.category() as usize] += 1;
    }
    counts
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

#[test]
fn every_five_card_hand_is_classified_and_ordered_as_the_naive_evaluator_says() {
    let mut fast_counts = [0u64; 11];
    let mut naive_counts = [0u64; 11];
    // Naive key -> the single fast strength every hand of that key must have.
    let mut strength_of_key: BTreeMap<NaiveKey, u16> = BTreeMap::new();
    for_each_hand::<5>(|codes| {
        let value = evaluator().eval5(codes);
        let key = naive_five(&cards(codes));
        fast_counts[value.category() as usize] += 1;
        naive_counts[key.0 as usize] += 1;
        let strength = *strength_of_key.entry(key.clone()).or_insert(value.strength());
        assert_eq!(strength, value.strength(), "{:?} and an equal hand differ", cards(codes));
    });
    assert_eq!(fast_counts, naive_counts);

    // RULES.md §5, plus the split of the no-pair hands: the rank sets holding A and K
    // (C(11,3), less A-K-Q-J-T, a straight) in every suit pattern but the four flushes.
    let ace_king = (binomial(11, 3) - 1) * (4u64.pow(5) - 4);
    let expected =
        [1_302_540 - ace_king, ace_king, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4];
    assert_eq!(fast_counts, expected);
    assert_eq!(fast_counts.iter().sum::<u64>(), binomial(52, 5));

    // The fast order is the naive order: distinct keys ascending give strengths 0, 1, 2...
    let strengths: Vec<u16> = strength_of_key.values().copied().collect();
    assert_eq!(strengths.len(), usize::from(HandValue::COUNT));
    assert!(strengths.iter().enumerate().all(|(i, &s)| usize::from(s) == i));
}

#[test]
fn every_six_card_set_takes_its_best_five() {
    let mut counts = [0u64; 11];
    for_each_hand::<6>(|codes| {
        let value = evaluator().eval6(codes);
        assert_eq!(value, best_of_five_subsets(codes), "{:?}", cards(codes));
        counts[value.category() as usize] += 1;
    });
    let no_pair = counts[Category::HighCard as usize] + counts[Category::AceKing as usize];
    let published = [
        (Category::RoyalFlush, 188),
        (Category::StraightFlush, 1_656),
        (Category::FourOfAKind, 14_664),
        (Category::FullHouse, 165_984),
        (Category::Flush, 205_792),
        (Category::Straight, 361_620),
        (Category::ThreeOfAKind, 732_160),
        (Category::TwoPair, 2_532_816),
        (Category::OnePair, 9_730_740),
    ];
    for (category, count) in published {
        assert_eq!(counts[category as usize], count, "{category:?}");
    }
    assert_eq!(no_pair, 6_612_900);
    assert_eq!(counts.iter().sum::<u64>(), binomial(52, 6));
}

#[test]
fn every_seven_card_set_has_the_published_category_counts() {
    let mut strengths = Vec::with_capacity(1 << 20);
    let mut counts = [0u64; 11];
    let mut compared_with_subsets = 0u32;
    for_each_hand::<7>(|codes| {
        strengths.push(evaluator().eval7(codes));
        // Every 64th hand is compared with the best of its 21 five-card subsets.
        if strengths.len() % 64 == 0 {
            assert_eq!(evaluator().eval7(codes), best_of_five_subsets(codes), "{:?}", cards(codes));
            compared_with_subsets += 1;
        }
        if strengths.len() == strengths.capacity() {
            let batch = counts_by_category(strengths.drain(..));
            counts.iter_mut().zip(batch).for_each(|(total, n)| *total += n);
        }
    });
    let rest = counts_by_category(strengths);
    counts.iter_mut().zip(rest).for_each(|(total, n)| *total += n);
    assert!(compared_with_subsets > 2_000_000);
    let published = [
        (Category::RoyalFlush, 4_324),
        (Category::StraightFlush, 37_260),
        (Category::FourOfAKind, 224_848),
        (Category::FullHouse, 3_473_184),
        (Category::Flush, 4_047_644),
        (Category::Straight, 6_180_020),
        (Category::ThreeOfAKind, 6_461_620),
        (Category::TwoPair, 31_433_400),
        (Category::OnePair, 58_627_800),
    ];
    for (category, count) in published {
        assert_eq!(counts[category as usize], count, "{category:?}");
    }
    let no_pair = counts[Category::HighCard as usize] + counts[Category::AceKing as usize];
    assert_eq!(no_pair, 23_294_460);
    assert_eq!(counts.iter().sum::<u64>(), binomial(52, 7));
}
