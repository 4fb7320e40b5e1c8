//! The fast strategy for one up card: its tables (the dealer's hands per rank key, the value
//! of every final hand, the sums an exchange is valued from) and the decisions made from them.

use rayon::prelude::*;

use crate::analysis::subset_rank;
use crate::card::DECK_SIZE;
use crate::eval::{evaluator, Category, HandValue};
use crate::profile::Money;

use super::fast::{FastPlayer, ShowdownCounts};
use super::tables::{categories, fives, rank_keys, Sums};
use super::EXACT_MARGIN;

/// A decision at the box's turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Move {
    Fold,
    Play,
    /// The positions (bits 0–4) to exchange.
    Exchange(u8),
    SixthCard,
}

/// The box as the strategy sees it at a decision.
#[derive(Clone, Copy, Debug)]
pub(super) struct BoxView {
    pub(super) cards: [u8; 6],
    pub(super) len: usize,
    pub(super) dealt: Category,
    pub(super) up: u8,
    /// Cards the box discarded so far.
    pub(super) discards: [u8; 10],
    pub(super) discard_count: usize,
    pub(super) exchanges: usize,
    pub(super) sixth: bool,
    pub(super) forfeited: bool,
}

impl BoxView {
    pub(super) fn dealt(cards: [u8; 5], up: u8) -> BoxView {
        let mut six = [0u8; 6];
        six[..5].copy_from_slice(&cards);
        BoxView {
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

    pub(super) fn value(&self) -> HandValue {
        let c = &self.cards;
        match self.len {
            5 => evaluator().eval5([c[0], c[1], c[2], c[3], c[4]]),
            _ => evaluator().eval6(*c),
        }
    }

    /// Every card the player has seen except the up card: the box's cards and its discards.
    pub(super) fn known(&self, out: &mut [u8; 16]) -> usize {
        out[..self.len].copy_from_slice(&self.cards[..self.len]);
        out[self.len..self.len + self.discard_count].copy_from_slice(&self.discards[..self.discard_count]);
        self.len + self.discard_count
    }
}

/// The strategy's tables for one up card.
pub(super) struct Stratum {
    pub(super) up: u8,
    /// The dealer's hands for every five-card hand (by rank), an index into `counts`: counted
    /// exactly for one hand of each rank key (see [`rank_key`](super::tables::rank_key)) with its cards removed.
    pub(super) hand_counts: &'static [u32],
    pub(super) counts: Vec<ShowdownCounts>,
    /// The value of a six-card hand by strength (minor units), without card removal.
    six_by_strength: Vec<f64>,
    /// Per exchange round, the sums of the value of the hand after that round's exchange.
    pub(super) sums: Vec<Sums>,
    /// Where the only decision is to play or fold: whether each five-card hand (by rank) plays.
    plays: Option<Vec<u64>>,
}

impl FastPlayer<'_> {
    /// The strategy's tables for the up card `up`.
    // Long: an up card's tables are built in order, each from the ones before it.
    pub(super) fn stratum(&self, up: u8) -> Stratum {
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
        let counts: Vec<ShowdownCounts> = representatives
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
                            && self.decide(&stratum, &BoxView::dealt(*hand, up)) == Move::Play;
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
    pub(super) fn six_card_value(stratum: &Stratum, six: [u8; 6]) -> f64 {
        stratum.six_by_strength[usize::from(evaluator().eval6(six).strength())]
    }

    /// The mean value of the first five cards of `six` with a sixth card, over every card
    /// neither in them nor the up card.
    pub(super) fn sixth_card_mean(stratum: &Stratum, six: &[u8; 6]) -> f64 {
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
    pub(super) fn decide(&self, stratum: &Stratum, node: &BoxView) -> Move {
        if let Some(plays) = &stratum.plays {
            let mut sorted = [node.cards[0], node.cards[1], node.cards[2], node.cards[3], node.cards[4]];
            sorted.sort_unstable();
            let rank = subset_rank(&sorted);
            return if plays[rank / 64] >> (rank % 64) & 1 == 1 { Move::Play } else { Move::Fold };
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
        let mut other: Option<(Move, f64)> = None;
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
                other = Some((Move::Exchange(mask), value));
            }
        }
        if node.exchanges == 0 && !node.sixth {
            if let Some(fee) = self.sixth_card_fee(has_bonus) {
                let value = Self::sixth_card_mean(stratum, &node.cards) - fee as f64;
                if other.is_none_or(|(_, v)| value > v) {
                    other = Some((Move::SixthCard, value));
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
        let (decision, value) = if plays || !fold_allowed { (Move::Play, play) } else { (Move::Fold, fold) };
        match other {
            Some((choice, v)) if v > value => choice,
            _ => decision,
        }
    }
}
