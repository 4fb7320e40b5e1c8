//! The dealer's redraw a box may buy after he reveals a hand that does not qualify: every such
//! hand with the draws that make him qualify, and what buying is worth against a box hand.

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use rayon::prelude::*;

use crate::card::Card;
use crate::eval::{evaluator, Category, HandValue};
use crate::profile::{Money, Profile};
use crate::round;
use crate::shuffle::bounded;

use super::dealer::DealerTable;
use super::player::{unseen, HandNets, Player};
use super::Effort;

/// What buying the dealer's redraw is worth against one box hand (insurance aside: it
/// settles on the revealed hand whatever the box buys).
pub(super) struct RedrawPrices {
    pub(super) fee: Money,
    pub(super) nets: HandNets,
}

/// The dealer hands that do not qualify, each with the hands he may draw to if the box buys
/// his redraw: he discards his highest card and draws one of the unseen cards.
pub(super) struct RedrawTable {
    /// Sorted by threshold, so the hands a box hand may buy against are a prefix.
    hands: Vec<NotQualifying>,
    /// Per hand, the weakest box hand for which buying may pay: no weaker hand buys.
    threshold: Vec<u16>,
    /// A seeded uniform sample of the hands, in the same order, and their thresholds.
    sample: Vec<NotQualifying>,
    sample_threshold: Vec<u16>,
    /// Every hand's qualifying draws' strengths, each hand's sorted, at its `start`.
    draw_strength: Vec<u16>,
    draw_card: Vec<u8>,
}

/// The draws that make a dealer qualify: the strength after the draw and the card drawn.
type Draws = Vec<(u16, u8)>;

/// One dealer hand that does not qualify.
#[derive(Clone, Copy, Debug)]
struct NotQualifying {
    /// Bits of the hidden cards.
    hidden: u64,
    /// Bits of the cards whose draw makes him qualify.
    qualifying_draws: u64,
    start: u32,
    len: u32,
}

/// Bits of the cards that may make four cards of distinct ranks better than a high card
/// without A-K: a pair, a straight, a flush, or an ace or a king. Draws of the other cards
/// need no valuing.
fn may_qualify(kept: &[u8; 4]) -> u64 {
    const RANK: u64 = 0b1111;
    let ranks = kept.iter().fold(0u32, |m, &c| m | 1 << (c >> 2));
    let mut cards = (RANK << (4 * 11)) | (RANK << (4 * 12));
    for rank in 0..13 {
        let with = ranks | 1 << rank;
        // Five ranks in a row, or the wheel A-2-3-4-5 (the ace below the two).
        let straight = (0..9).any(|low| with >> low & 0b11111 == 0b11111)
            || with & 0b1_0000_0000_1111 == 0b1_0000_0000_1111;
        if ranks & 1 << rank != 0 || straight {
            cards |= RANK << (4 * rank);
        }
    }
    if kept.iter().all(|&c| c & 3 == kept[0] & 3) {
        cards |= (0..13).fold(0u64, |m, rank| m | 1 << (4 * rank + u64::from(kept[0] & 3)));
    }
    cards
}

/// Most cards a box can draw on any path: every exchange round at its largest, and a sixth card.
fn most_drawn(profile: &Profile) -> u64 {
    let exchanges: usize = profile.exchange.as_ref().map_or(0, |e| {
        e.rounds.iter().map(|r| round::exchange_counts(r, true).last().copied().unwrap_or(0)).sum()
    });
    (exchanges + usize::from(profile.sixth_card.is_some())) as u64
}

impl RedrawTable {
    // Long: the bounds, every hand's draws and the sorted table and sample are built in order.
    pub(super) fn new(
        table: &DealerTable,
        not_qualifying: &[[u8; 4]],
        player: &Player<'_>,
        effort: Effort,
    ) -> RedrawTable {
        let profile = player.profile;
        let floor = table.floor;
        let fee = round::redraw_price(profile, player.ante).unwrap_or(0);
        // Upper bounds of what a bought card can bring, for every hand up to a category.
        let nets: Vec<HandNets> = Category::ALL.iter().map(|c| player.nets(c.lowest())).collect();
        let prefix_max = |of: fn(&HandNets) -> Money| -> Vec<Money> {
            nets.iter()
                .scan(Money::MIN, |best, n| {
                    *best = (*best).max(of(n));
                    Some(*best)
                })
                .collect()
        };
        let won_up = prefix_max(|n| n.won);
        let other_up: Vec<Money> =
            prefix_max(|n| n.push.max(n.lost).max(n.still_not_qualified)).iter().map(|&m| m.max(0)).collect();
        let declined_least = nets.iter().map(|n| n.not_qualified).min().unwrap_or(0);
        let smallest_pool = (table.pool.len() as u64).saturating_sub(4 + most_drawn(profile)).max(1) as Money;

        // Buying may pay only if its best case beats the least a decline brings: with k of
        // the draws below the box's hand, from the least category on (monotone in both).
        let may_pay = |category: usize, wins: Money| {
            let best = -fee * smallest_pool + other_up[category] * smallest_pool + wins * won_up[category];
            best > declined_least * smallest_pool
        };
        let least_category: Vec<Option<usize>> = (0..=table.pool.len() as Money)
            .map(|wins| (0..Category::ALL.len()).find(|&category| may_pay(category, wins)))
            .collect();
        let pool_bits = table.pool.iter().fold(0u64, |m, &c| m | 1 << c);
        let per_hand: Vec<(NotQualifying, u16, Draws)> = not_qualifying
            .par_iter()
            .map(|places| {
                let hidden: [u8; 4] = places.map(|p| table.pool[p as usize]);
                let five = [hidden[0], hidden[1], hidden[2], hidden[3], table.up];
                let discard = round::dealer_discard(&five.map(|c| Card::from_code(c).expect("a deck card")));
                let mut kept = [0u8; 4];
                let others = five.iter().enumerate().filter(|&(i, _)| i != discard);
                for (slot, (_, &card)) in kept.iter_mut().zip(others) {
                    *slot = card;
                }
                let hidden_bits = hidden.iter().fold(0u64, |m, &c| m | 1 << c);
                let mut draws: Vec<(u16, u8)> = unseen(!(may_qualify(&kept) & pool_bits & !hidden_bits))
                    .map(|c| (evaluator().eval5([kept[0], kept[1], kept[2], kept[3], c]).strength(), c))
                    .filter(|&(s, _)| s >= floor)
                    .collect();
                draws.sort_unstable();
                // The weakest box hand with k wins among the draws and a category where buying
                // may pay: at least the category's floor and above the k-th weakest draw.
                let threshold = (0..=draws.len())
                    .filter_map(|k| {
                        let category = least_category[k]?;
                        let above = if k == 0 { 0 } else { draws[k - 1].0 + 1 };
                        Some(Category::ALL[category].lowest().strength().max(above))
                    })
                    .min()
                    .unwrap_or(HandValue::COUNT);
                let hand = NotQualifying {
                    hidden: hidden_bits,
                    qualifying_draws: draws.iter().fold(0, |m, &(_, c)| m | 1 << c),
                    start: 0,
                    len: draws.len() as u32,
                };
                (hand, threshold, draws)
            })
            .collect();
        let mut order: Vec<usize> = (0..per_hand.len()).collect();
        order.sort_by_key(|&i| per_hand[i].1);
        let mut built = RedrawTable {
            hands: Vec::with_capacity(order.len()),
            threshold: Vec::with_capacity(order.len()),
            sample: Vec::new(),
            sample_threshold: Vec::new(),
            draw_strength: Vec::new(),
            draw_card: Vec::new(),
        };
        for i in order {
            let (hand, threshold, draws) = &per_hand[i];
            built.hands.push(NotQualifying { start: built.draw_strength.len() as u32, ..*hand });
            built.threshold.push(*threshold);
            built.draw_strength.extend(draws.iter().map(|&(s, _)| s));
            built.draw_card.extend(draws.iter().map(|&(_, c)| c));
        }
        let mut picks: Vec<usize> = (0..built.hands.len()).collect();
        let mut rng = ChaCha20Rng::seed_from_u64(effort.seed);
        let size = effort.dealer_sample.min(picks.len());
        for i in 0..size {
            let j = i + bounded(&mut rng, (picks.len() - i) as u32) as usize;
            picks.swap(i, j);
        }
        picks.truncate(size);
        picks.sort_unstable();
        built.sample = picks.iter().map(|&i| built.hands[i]).collect();
        built.sample_threshold = picks.iter().map(|&i| built.threshold[i]).collect();
        built
    }

    /// What buying the dealer's redraw adds, summed over the non-qualifying dealer hands without
    /// any drawn card, against the best choice without it: over every hand when `exact`, else
    /// estimated from the sample (each sampled hand stands for its share of all).
    pub(super) fn gain(
        &self,
        hand: HandValue,
        drawn: u64,
        prices: &RedrawPrices,
        table: &DealerTable,
        exact: bool,
    ) -> f64 {
        let (hands, threshold) =
            if exact { (&self.hands, &self.threshold) } else { (&self.sample, &self.sample_threshold) };
        let h = hand.strength();
        let nets = &prices.nets;
        let pool = (table.pool.len() - 4 - drawn.count_ones() as usize) as Money;
        let candidates = threshold.partition_point(|&t| t <= h);
        let mut gain: Money = 0;
        for hand in &hands[..candidates] {
            if hand.hidden & drawn != 0 {
                continue;
            }
            let range = hand.start as usize..(hand.start + hand.len) as usize;
            let strengths = &self.draw_strength[range.clone()];
            let (lower, equal, higher) = if hand.qualifying_draws & drawn == 0 {
                let lower = strengths.partition_point(|&s| s < h) as Money;
                let at_most = strengths.partition_point(|&s| s <= h) as Money;
                (lower, at_most - lower, strengths.len() as Money - at_most)
            } else {
                // A drawn card would have made him qualify: count the others one by one.
                let others =
                    strengths.iter().zip(&self.draw_card[range]).filter(|&(_, &c)| drawn & (1 << c) == 0);
                others.fold((0, 0, 0), |(l, e, g), (&s, _)| {
                    (l + Money::from(s < h), e + Money::from(s == h), g + Money::from(s > h))
                })
            };
            let still = pool - lower - equal - higher;
            let bought = -prices.fee * pool
                + still * nets.still_not_qualified
                + lower * nets.won
                + equal * nets.push
                + higher * nets.lost;
            gain += (bought - nets.not_qualified * pool).max(0);
        }
        gain as f64 / pool as f64 * (self.hands.len() as f64 / hands.len().max(1) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::shipped_profile_text;

    #[test]
    fn the_most_drawn_counts_a_count_offered_only_with_the_bonus() {
        let overrides = "[[exchange.rounds]]\nfees = { 1 = \"1\" }\nwith_bonus = { 3 = \"1\" }";
        let profile =
            Profile::from_toml(&shipped_profile_text("golden-oasis"), "golden-oasis", Some(overrides));
        let profile = profile.unwrap_or_else(|e| panic!("{e}"));
        assert!(profile.sixth_card.is_some());
        assert_eq!(most_drawn(&profile), 3 + 1, "three exchanged with the bonus and a sixth card");
    }
}
