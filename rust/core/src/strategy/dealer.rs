//! Every hand the dealer may hold, counted against a box hand: the tables of strengths by
//! unseen card and pair of unseen cards, and inclusion–exclusion over the cards a box drew.

use rayon::prelude::*;

use crate::card::DECK_SIZE;
use crate::eval::{evaluator, HandValue};
use crate::profile::Money;
use crate::round::{Round, HAND};

use super::offers::binomial;
use super::player::{mask, unseen, Player};
use super::redraw::RedrawTable;
use super::Effort;

/// How many dealer hands fall in each case against one box hand: qualifying and lower,
/// equal, higher; not qualifying and lower, equal, higher.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Cases {
    pub(super) qualifying: [Money; 3],
    pub(super) not_qualifying: [Money; 3],
    pub(super) total: Money,
}

/// StrengthCounts of a sorted list of dealer strengths against one box hand.
#[derive(Clone, Copy, Debug, Default)]
struct StrengthCounts {
    total: Money,
    /// Below the box's hand.
    below: Money,
    /// Below or equal to the box's hand.
    at_most: Money,
    /// Below the qualifier.
    not_qualifying: Money,
}

impl StrengthCounts {
    /// From how many hands are weaker than each strength, all of them last.
    fn cumulative(below: &[u32], hand: u16, floor: u16) -> StrengthCounts {
        let at = |x: u16| Money::from(below[x as usize]);
        StrengthCounts {
            total: at(HandValue::COUNT),
            below: at(hand),
            at_most: at(hand + 1),
            not_qualifying: at(floor),
        }
    }

    fn of(list: &[u16], hand: u16, floor: u16) -> StrengthCounts {
        let below = |x: u16| list.partition_point(|&s| s < x) as Money;
        StrengthCounts {
            total: list.len() as Money,
            below: below(hand),
            at_most: below(hand + 1),
            not_qualifying: below(floor),
        }
    }

    fn count(&mut self, strength: u16, hand: u16, floor: u16) {
        self.total += 1;
        self.below += Money::from(strength < hand);
        self.at_most += Money::from(strength <= hand);
        self.not_qualifying += Money::from(strength < floor);
    }

    fn add(&mut self, other: StrengthCounts, sign: Money) {
        self.total += sign * other.total;
        self.below += sign * other.below;
        self.at_most += sign * other.at_most;
        self.not_qualifying += sign * other.not_qualifying;
    }

    pub(super) fn cases(self, hand: u16, floor: u16) -> Cases {
        let c = self;
        if hand >= floor {
            Cases {
                qualifying: [c.below - c.not_qualifying, c.at_most - c.below, c.total - c.at_most],
                not_qualifying: [c.not_qualifying, 0, 0],
                total: c.total,
            }
        } else {
            Cases {
                qualifying: [0, 0, c.total - c.not_qualifying],
                not_qualifying: [c.below, c.at_most - c.below, c.not_qualifying - c.at_most],
                total: c.total,
            }
        }
    }
}

const NOT_IN_POOL: u8 = u8::MAX;

/// Entries of a table of how many hands are weaker than each strength, all of them last.
const BELOW_LEN: usize = HandValue::COUNT as usize + 1;

/// Every hand the dealer may hold: his up card and four of the cards the player has not seen.
pub(super) struct DealerTable {
    pub(super) up: u8,
    /// The cards the player has not seen, lowest code first.
    pub(super) pool: Vec<u8>,
    /// A card code's place in `pool`.
    pub(super) place: [u8; DECK_SIZE],
    /// The weakest qualifying strength.
    pub(super) floor: u16,
    /// How many dealer hands are weaker than each strength (and all of them, last).
    pub(super) all_below: Vec<u32>,
    /// The same per unseen card, for the hands holding it, [`BELOW_LEN`] entries each.
    pub(super) single_below: Vec<u32>,
    /// Per pair of unseen cards, the sorted strengths of the hands holding both.
    pub(super) pair: Vec<u16>,
    pub(super) pair_len: usize,
    pub(super) redraw: Option<RedrawTable>,
}

impl DealerTable {
    pub(super) fn new(round: &Round, box_index: usize, effort: Effort) -> DealerTable {
        let profile = round.profile();
        let up = round.dealer_cards()[HAND - 1].code();
        let seen = mask(&round.seen_cards());
        let pool: Vec<u8> = unseen(seen).collect();
        let mut place = [NOT_IN_POOL; DECK_SIZE];
        for (i, &card) in pool.iter().enumerate() {
            place[card as usize] = i as u8;
        }
        let n = pool.len();
        let floor = profile.game.qualifier.lowest().strength();

        // Every hidden four as places in the pool, sorted by strength (a counting sort).
        let mut fours = Vec::with_capacity(binomial(n as u64, 4) as usize);
        for a in 0..n {
            for b in a + 1..n {
                for c in b + 1..n {
                    fours.extend((c + 1..n).map(|d| [a as u8, b as u8, c as u8, d as u8]));
                }
            }
        }
        let hands: Vec<([u8; 4], u16)> = fours
            .into_par_iter()
            .map(|places| {
                let [a, b, c, d] = places.map(|p| pool[p as usize]);
                (places, evaluator().eval5([a, b, c, d, up]).strength())
            })
            .collect();
        let mut starts = vec![0usize; HandValue::COUNT as usize + 1];
        for &(_, s) in &hands {
            starts[s as usize + 1] += 1;
        }
        for s in 1..starts.len() {
            starts[s] += starts[s - 1];
        }
        let mut sorted = vec![([0u8; 4], 0u16); hands.len()];
        for &(places, s) in &hands {
            sorted[starts[s as usize]] = (places, s);
            starts[s as usize] += 1;
        }

        let pair_len = binomial(n as u64 - 2, 2) as usize;
        let mut all_below = vec![0u32; BELOW_LEN];
        let mut single_below = vec![0u32; n * BELOW_LEN];
        let mut pair = vec![0u16; n * n.saturating_sub(1) / 2 * pair_len];
        let mut pair_fill = vec![0usize; n * n.saturating_sub(1) / 2];
        for &(places, s) in &sorted {
            all_below[s as usize + 1] += 1;
            for (i, &a) in places.iter().enumerate() {
                let a = a as usize;
                single_below[a * BELOW_LEN + s as usize + 1] += 1;
                for &b in &places[i + 1..] {
                    let index = pair_index(n, a, b as usize);
                    pair[index * pair_len + pair_fill[index]] = s;
                    pair_fill[index] += 1;
                }
            }
        }
        for below in std::iter::once(&mut all_below[..]).chain(single_below.chunks_exact_mut(BELOW_LEN)) {
            for s in 1..BELOW_LEN {
                below[s] += below[s - 1];
            }
        }
        let mut table =
            DealerTable { up, pool, place, floor, all_below, single_below, pair, pair_len, redraw: None };
        if profile.dealer_redraw().is_some() {
            let player = Player::new(round, box_index);
            let not_qualifying: Vec<[u8; 4]> =
                sorted.iter().take_while(|&&(_, s)| s < floor).map(|&(places, _)| places).collect();
            table.redraw = Some(RedrawTable::new(&table, &not_qualifying, &player, effort));
        }
        table
    }

    /// How many dealer hands without any of the `drawn` cards fall in each case against `hand`:
    /// inclusion–exclusion over the drawn cards the hands hold.
    pub(super) fn cases(&self, hand: HandValue, drawn: u64) -> Cases {
        let (h, floor) = (hand.strength(), self.floor);
        let mut counts = StrengthCounts::cumulative(&self.all_below, h, floor);
        let mut places = [0usize; DECK_SIZE];
        let mut drawn_count = 0;
        for card in unseen(!drawn) {
            places[drawn_count] = self.place[card as usize] as usize;
            drawn_count += 1;
        }
        let places = &places[..drawn_count];
        for (i, &a) in places.iter().enumerate() {
            counts.add(
                StrengthCounts::cumulative(&self.single_below[a * BELOW_LEN..][..BELOW_LEN], h, floor),
                -1,
            );
            for (j, &b) in places.iter().enumerate().skip(i + 1) {
                let index = pair_index(self.pool.len(), a.min(b), a.max(b));
                counts.add(
                    StrengthCounts::of(&self.pair[index * self.pair_len..][..self.pair_len], h, floor),
                    1,
                );
                for (k, &c) in places.iter().enumerate().skip(j + 1) {
                    counts.add(self.enumerated(&[a, b, c], h), -1);
                    for &d in &places[k + 1..] {
                        counts.add(self.enumerated(&[a, b, c, d], h), 1);
                    }
                }
            }
        }
        counts.cases(h, floor)
    }

    /// StrengthCounts of the dealer hands holding every card at these places (three or four), by
    /// evaluating them: few hands, rarely needed.
    fn enumerated(&self, places: &[usize], hand: u16) -> StrengthCounts {
        let mut counts = StrengthCounts::default();
        let mut codes = [self.up; 5];
        for (code, &p) in codes.iter_mut().zip(places) {
            *code = self.pool[p];
        }
        if places.len() == 4 {
            counts.count(evaluator().eval5(codes).strength(), hand, self.floor);
            return counts;
        }
        for (p, &card) in self.pool.iter().enumerate() {
            if !places.contains(&p) {
                codes[3] = card;
                counts.count(evaluator().eval5(codes).strength(), hand, self.floor);
            }
        }
        counts
    }
}

/// The place of the pair (a, b), a < b, among the pairs of `n` places in lexicographic order.
fn pair_index(n: usize, a: usize, b: usize) -> usize {
    a * (2 * n - a - 1) / 2 + (b - a - 1)
}
