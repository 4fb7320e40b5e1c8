//! The hand evaluator: five cards, and the best five of six or seven.
//!
//! A hand's strength is its place among the 7 462 distinct five-card poker hands, 0 (7-5-4-3-2
//! off-suit) to 7 461 (royal flush), so comparing strengths compares hands in standard
//! poker order with kickers. Each category of RULES.md §1 is a contiguous range of strengths;
//! `AceKing` is the top of the no-pair range, not a change of order.
//!
//! How it is fast: every card has a 64-bit key holding a 3-bit count for its rank and a
//! 4-bit count for its suit, so the sum of a hand's keys is the hand's rank multiset and
//! its suit counts with no sorting. A suit count of five or more means a flush: the flush
//! suit's rank bits index an 8 192-entry table. Otherwise the rank multiset goes through a
//! perfect hash (multiply, one displacement lookup) into a table of best strengths, one
//! table per hand size, so six and seven cards cost one lookup as five do. The tables,
//! about 300 KB, are built at start-up in a few milliseconds from the class order below.

use std::sync::LazyLock;

use crate::card::{Card, ACE, KING};
use crate::error::CardError;

/// Hand categories, lowest to highest (RULES.md §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[repr(u8)]
pub enum Category {
    HighCard,
    AceKing,
    OnePair,
    TwoPair,
    ThreeOfAKind,
    Straight,
    Flush,
    FullHouse,
    FourOfAKind,
    StraightFlush,
    RoyalFlush,
}

impl Category {
    /// Every category, lowest first.
    pub const ALL: [Category; 11] = [
        Category::HighCard,
        Category::AceKing,
        Category::OnePair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
        Category::RoyalFlush,
    ];

    /// The category's name as RULES.md writes it, e.g. `"AceKing"`.
    pub fn name(self) -> &'static str {
        match self {
            Category::HighCard => "HighCard",
            Category::AceKing => "AceKing",
            Category::OnePair => "OnePair",
            Category::TwoPair => "TwoPair",
            Category::ThreeOfAKind => "ThreeOfAKind",
            Category::Straight => "Straight",
            Category::Flush => "Flush",
            Category::FullHouse => "FullHouse",
            Category::FourOfAKind => "FourOfAKind",
            Category::StraightFlush => "StraightFlush",
            Category::RoyalFlush => "RoyalFlush",
        }
    }

    /// The category of a name written as [`Category::name`] gives it.
    pub fn from_name(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The lowest strength of this category.
    pub fn lowest(self) -> HandValue {
        HandValue(CATEGORY_FLOOR[self as usize])
    }

    /// The highest strength of this category.
    pub fn highest(self) -> HandValue {
        match Category::ALL.get(self as usize + 1) {
            Some(next) => HandValue(CATEGORY_FLOOR[*next as usize] - 1),
            None => HandValue(HandValue::COUNT - 1),
        }
    }
}

/// The lowest strength of each category. Derived from the class counts (no-pair hands
/// without A-K 1 113, A-K 164, pairs 2 860, two pair 858, trips 858, straights 10,
/// flushes 1 277, full houses 156, quads 156, straight flushes 9, royal flush 1) and
/// checked against the enumerated class order when the tables are built.
const CATEGORY_FLOOR: [u16; 11] = [0, 1113, 1277, 4137, 4995, 5853, 5863, 7140, 7296, 7452, 7461];

/// A hand's strength: larger is stronger, equal is a stand-off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HandValue(u16);

impl serde::Serialize for HandValue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut value = serializer.serialize_struct("HandValue", 2)?;
        value.serialize_field("category", self.category().name())?;
        value.serialize_field("strength", &self.0)?;
        value.end()
    }
}

impl HandValue {
    /// Number of distinct strengths.
    pub const COUNT: u16 = 7462;

    /// The strength 0..7461.
    #[inline]
    pub fn strength(self) -> u16 {
        self.0
    }

    /// The value of a strength, if it is one.
    pub fn from_strength(strength: u16) -> Option<HandValue> {
        (strength < Self::COUNT).then_some(HandValue(strength))
    }

    /// The hand's category.
    pub fn category(self) -> Category {
        let index = CATEGORY_FLOOR.iter().rposition(|&floor| floor <= self.0).unwrap_or(0);
        Category::ALL[index]
    }
}

const RANKS: usize = 13;
const RANK_COUNT_BITS: u32 = 3;
/// The rank-count part of a hand key (13 ranks × 3 bits).
const RANK_MASK: u64 = (1 << (RANKS as u32 * RANK_COUNT_BITS)) - 1;
/// Where the four 4-bit suit counts start in a hand key.
const SUIT_SHIFT: u32 = 48;

/// Per-card keys indexed by code; 256 entries so that indexing by a `u8` needs no bounds check.
static CARD_KEY: [u64; 256] = {
    let mut keys = [0u64; 256];
    let mut code = 0;
    while code < 52 {
        let rank = (code >> 2) as u32;
        let suit = (code & 3) as u32;
        keys[code] = (1u64 << (RANK_COUNT_BITS * rank)) | (1u64 << (SUIT_SHIFT + 4 * suit));
        code += 1;
    }
    keys
};

/// One bit per card code; codes beyond the deck share the top bit.
static CARD_BIT: [u64; 256] = {
    let mut bits = [1u64 << 63; 256];
    let mut code = 0;
    while code < 52 {
        bits[code] = 1 << code;
        code += 1;
    }
    bits
};

/// Non-zero when some suit count in the key is five or more: adding 3 to a nibble sets its
/// bit 3 exactly when the count is at least 5 (counts stay below 8, so nothing carries).
#[inline(always)]
fn flush_bits(key: u64) -> u32 {
    (((key >> SUIT_SHIFT) as u32) + 0x3333) & 0x8888
}

/// A perfect hash from rank multisets to values: `slot = (h + displacement[bucket(h)]) mod SLOTS`
/// with `h` the top half of `key × multiplier` (hash-and-displace). Both array lengths are
/// type parameters so that the masked indices need no bounds checks.
struct PerfectHash<T, const BUCKETS: usize, const SLOTS: usize> {
    multiplier: u64,
    displacement: Box<[u16; BUCKETS]>,
    values: Box<[T; SLOTS]>,
}

impl<T: Copy + Default, const BUCKETS: usize, const SLOTS: usize> PerfectHash<T, BUCKETS, SLOTS> {
    const BUCKET_SHIFT: u32 = 32 - BUCKETS.trailing_zeros();

    #[inline(always)]
    fn hash(multiplier: u64, key: u64) -> u32 {
        (key.wrapping_mul(multiplier) >> 32) as u32
    }

    #[inline(always)]
    fn get(&self, key: u64) -> T {
        let h = Self::hash(self.multiplier, key);
        let bucket = (h >> Self::BUCKET_SHIFT) as usize;
        let slot = h.wrapping_add(u32::from(self.displacement[bucket])) as usize & (SLOTS - 1);
        self.values[slot]
    }

    /// Builds the hash for distinct keys, trying multipliers from a fixed sequence until one
    /// places every bucket (usually the first or second), so the tables are the same on
    /// every start.
    fn build(entries: &[(u64, T)]) -> Self {
        assert!(BUCKETS.is_power_of_two() && SLOTS.is_power_of_two() && SLOTS <= 1 << 16);
        assert!(BUCKETS.trailing_zeros() + SLOTS.trailing_zeros() <= 32 && entries.len() <= SLOTS);
        let mut state = 0x6f61_7369_735f_6b69u64; // "oasis_ki"
        for _ in 0..256 {
            let multiplier = splitmix64(&mut state) | 1;
            if let Some(hash) = Self::try_build(multiplier, entries) {
                return hash;
            }
        }
        panic!("no perfect hash found for {} keys in {SLOTS} slots", entries.len());
    }

    fn try_build(multiplier: u64, entries: &[(u64, T)]) -> Option<Self> {
        let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); BUCKETS];
        for (index, &(key, _)) in entries.iter().enumerate() {
            let h = Self::hash(multiplier, key);
            buckets[(h >> Self::BUCKET_SHIFT) as usize].push(index);
        }
        let mut order: Vec<usize> = (0..BUCKETS).collect();
        order.sort_by_key(|&b| std::cmp::Reverse(buckets[b].len()));

        let mask = SLOTS - 1;
        let mut occupied = vec![false; SLOTS];
        let mut displacement: Box<[u16; BUCKETS]> = vec![0u16; BUCKETS].try_into().ok()?;
        let mut values: Box<[T; SLOTS]> = vec![T::default(); SLOTS].try_into().ok()?;
        let mut bases = Vec::new();
        for bucket in order {
            let members = &buckets[bucket];
            if members.is_empty() {
                break;
            }
            bases.clear();
            bases.extend(members.iter().map(|&i| Self::hash(multiplier, entries[i].0) as usize & mask));
            bases.sort_unstable();
            if bases.windows(2).any(|w| w[0] == w[1]) {
                return None;
            }
            let shift = (0..SLOTS).find(|&d| bases.iter().all(|&b| !occupied[(b + d) & mask]))?;
            displacement[bucket] = shift as u16;
            for &i in members {
                let slot = (Self::hash(multiplier, entries[i].0) as usize + shift) & mask;
                occupied[slot] = true;
                values[slot] = entries[i].1;
            }
        }
        Some(PerfectHash { multiplier, displacement, values })
    }
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The evaluator's tables. Build once with [`evaluator`]; every method is then a few
/// additions and one or two table lookups.
pub struct Evaluator {
    /// Five cards: per rank multiset, the strength without and with a flush.
    five: PerfectHash<[u16; 2], 2048, 8192>,
    six: PerfectHash<u16, 8192, 32768>,
    seven: PerfectHash<u16, 16384, 65536>,
    /// Best flush or straight flush among the set bits of a 13-bit rank mask (0 below five bits).
    flush: Box<[u16; 8192]>,
}

static EVALUATOR: LazyLock<Evaluator> = LazyLock::new(Evaluator::build_tables);

/// The process-wide evaluator, built on first use.
pub fn evaluator() -> &'static Evaluator {
    &EVALUATOR
}

impl Evaluator {
    /// The memory the tables take, in bytes.
    pub fn table_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.five.displacement)
            + std::mem::size_of_val(&*self.five.values)
            + std::mem::size_of_val(&*self.six.displacement)
            + std::mem::size_of_val(&*self.six.values)
            + std::mem::size_of_val(&*self.seven.displacement)
            + std::mem::size_of_val(&*self.seven.values)
            + std::mem::size_of_val(&*self.flush)
    }

    /// Strength of five distinct card codes (each below 52; others give a meaningless value).
    #[inline]
    pub fn eval5(&self, c: [u8; 5]) -> HandValue {
        let key = CARD_KEY[c[0] as usize]
            + CARD_KEY[c[1] as usize]
            + CARD_KEY[c[2] as usize]
            + CARD_KEY[c[3] as usize]
            + CARD_KEY[c[4] as usize];
        let flush = usize::from(flush_bits(key) != 0);
        HandValue(self.five.get(key & RANK_MASK)[flush])
    }

    /// Strength of the best five of six distinct card codes.
    #[inline]
    pub fn eval6(&self, c: [u8; 6]) -> HandValue {
        let key = CARD_KEY[c[0] as usize]
            + CARD_KEY[c[1] as usize]
            + CARD_KEY[c[2] as usize]
            + CARD_KEY[c[3] as usize]
            + CARD_KEY[c[4] as usize]
            + CARD_KEY[c[5] as usize];
        match flush_bits(key) {
            0 => HandValue(self.six.get(key & RANK_MASK)),
            bits => self.flush_value(&c, bits),
        }
    }

    /// Strength of the best five of seven distinct card codes.
    #[inline]
    pub fn eval7(&self, c: [u8; 7]) -> HandValue {
        let key = CARD_KEY[c[0] as usize]
            + CARD_KEY[c[1] as usize]
            + CARD_KEY[c[2] as usize]
            + CARD_KEY[c[3] as usize]
            + CARD_KEY[c[4] as usize]
            + CARD_KEY[c[5] as usize]
            + CARD_KEY[c[6] as usize];
        match flush_bits(key) {
            0 => HandValue(self.seven.get(key & RANK_MASK)),
            bits => self.flush_value(&c, bits),
        }
    }

    /// With six or seven cards a flush beats anything the other cards can make (they
    /// cannot hold a full house or quads beside five suited cards), so the flush suit decides.
    #[cold]
    fn flush_value(&self, codes: &[u8], bits: u32) -> HandValue {
        let suit = (bits.trailing_zeros() / 4) as u8;
        let mask = codes
            .iter()
            .filter(|&&code| code & 3 == suit)
            .fold(0usize, |mask, &code| mask | 1 << (code >> 2));
        HandValue(self.flush[mask & 0x1fff])
    }

    /// Strength of 5, 6 or 7 cards without checking that they are distinct: a misdealt hand
    /// still gets a value (meaningless, never a panic) until the integrity check voids it.
    /// Panics on other sizes.
    pub fn evaluate_unchecked(&self, cards: &[Card]) -> HandValue {
        let code = |i: usize| cards[i].code();
        match cards.len() {
            5 => self.eval5(std::array::from_fn(code)),
            6 => self.eval6(std::array::from_fn(code)),
            7 => self.eval7(std::array::from_fn(code)),
            n => panic!("a hand has 5, 6 or 7 cards, not {n}"),
        }
    }

    /// Strength of a hand of 5, 6 or 7 cards, checking its size and that no card repeats.
    pub fn evaluate(&self, cards: &[Card]) -> Result<HandValue, CardError> {
        crate::card::check_distinct(cards)?;
        match cards.len() {
            5..=7 => Ok(self.evaluate_unchecked(cards)),
            n => Err(CardError::HandSize(n)),
        }
    }

    /// Strengths of a flat buffer of hands of `hand_size` card codes each, one per hand.
    /// One bad hand fails the whole batch, with an error that names it.
    pub fn evaluate_batch(&self, codes: &[u8], hand_size: usize) -> Result<Vec<u32>, CardError> {
        let mut out = vec![0; batch_len(codes.len(), hand_size)?];
        self.evaluate_batch_into(codes, hand_size, &mut out)?;
        Ok(out)
    }

    /// [`Evaluator::evaluate_batch`] into `out`, which must hold one value per hand. The
    /// hands are checked as they are evaluated; after an error `out` means nothing.
    pub fn evaluate_batch_into(
        &self,
        codes: &[u8],
        hand_size: usize,
        out: &mut [u32],
    ) -> Result<(), CardError> {
        fn fill<const N: usize>(codes: &[u8], out: &mut [u32], eval: impl Fn([u8; N]) -> HandValue) -> bool {
            let mut faults = false;
            for (hand, strength) in codes.chunks_exact(N).zip(out) {
                let hand: [u8; N] = hand.try_into().expect("chunks are N long");
                faults |= !distinct_cards(&hand);
                *strength = u32::from(eval(hand).strength());
            }
            faults
        }
        let hands = batch_len(codes.len(), hand_size)?;
        assert_eq!(out.len(), hands, "one output per hand");
        let faults = match hand_size {
            5 => fill(codes, out, |h| self.eval5(h)),
            6 => fill(codes, out, |h| self.eval6(h)),
            _ => fill(codes, out, |h| self.eval7(h)),
        };
        if faults {
            check_batch(codes, hand_size)?;
        }
        Ok(())
    }

    /// Builds every table from nothing; [`evaluator`] does this once per process.
    pub fn build_tables() -> Evaluator {
        let classes = five_card_classes();
        let strength_of = |key: u32| classes.binary_search(&key).expect("every hand is a class") as u16;
        for (category, &floor) in Category::ALL.iter().zip(&CATEGORY_FLOOR) {
            assert_eq!(classes[floor as usize] >> 20, *category as u32, "category floors");
        }

        let mut five_entries = Vec::new();
        for_each_rank_multiset(5, &mut |counts| {
            let plain = strength_of(class_key(counts, false));
            let suited =
                if counts.iter().all(|&n| n <= 1) { strength_of(class_key(counts, true)) } else { 0 };
            five_entries.push((multiset_key(counts), [plain, suited]));
        });
        let five = PerfectHash::build(&five_entries);
        // The best five of n+1 cards is the best over dropping each card of the hand, and
        // dropping one card of rank r takes 1 off that rank's count in the key.
        fn one_more_card(hand_size: usize, best_of_fewer: impl Fn(u64) -> u16) -> Vec<(u64, u16)> {
            let mut entries = Vec::new();
            for_each_rank_multiset(hand_size, &mut |counts| {
                let key = multiset_key(counts);
                let best = (0..RANKS)
                    .filter(|&r| counts[r] > 0)
                    .map(|r| best_of_fewer(key - (1 << (RANK_COUNT_BITS * r as u32))))
                    .max();
                entries.push((key, best.unwrap_or(0)));
            });
            entries
        }
        let six = PerfectHash::build(&one_more_card(6, |key| five.get(key)[0]));
        let seven = PerfectHash::build(&one_more_card(7, |key| six.get(key)));

        let mut flush = Box::new([0u16; 8192]);
        for mask in 0..8192usize {
            flush[mask] = match mask.count_ones() {
                0..=4 => 0,
                5 => {
                    let counts: [u8; RANKS] = std::array::from_fn(|r| (mask >> r & 1) as u8);
                    strength_of(class_key(&counts, true))
                }
                // Removing one card leaves a smaller mask, already filled in.
                _ => (0..RANKS)
                    .filter(|r| mask >> r & 1 == 1)
                    .map(|r| flush[mask & !(1 << r)])
                    .max()
                    .unwrap_or(0),
            };
        }

        Evaluator { five, six, seven, flush }
    }
}

/// The number of hands in a flat buffer of `len` codes, if `hand_size` is 5, 6 or 7 and
/// divides it.
pub fn batch_len(len: usize, hand_size: usize) -> Result<usize, CardError> {
    if !(5..=7).contains(&hand_size) {
        return Err(CardError::HandSize(hand_size));
    }
    if len % hand_size != 0 {
        return Err(CardError::RaggedBatch { len, hand_size });
    }
    Ok(len / hand_size)
}

/// Checks a flat buffer of hands: a hand size of 5, 6 or 7, a length that divides into
/// hands, codes below 52 and no card twice in a hand. Returns the number of hands.
pub fn check_batch(codes: &[u8], hand_size: usize) -> Result<usize, CardError> {
    fn check<const N: usize>(codes: &[u8]) -> Result<(), CardError> {
        for (hand, cards) in codes.chunks_exact(N).enumerate() {
            let cards: &[u8; N] = cards.try_into().expect("chunks are N long");
            if !distinct_cards(cards) {
                let in_batch = |error| CardError::InBatch { hand, error: Box::new(error) };
                let cards = cards.iter().map(|&code| Card::from_code(code)).collect::<Result<Vec<_>, _>>();
                crate::card::check_distinct(&cards.map_err(in_batch)?).map_err(in_batch)?;
            }
        }
        Ok(())
    }
    let hands = batch_len(codes.len(), hand_size)?;
    match hand_size {
        5 => check::<5>(codes),
        6 => check::<6>(codes),
        _ => check::<7>(codes),
    }?;
    Ok(hands)
}

/// True when every code is a card (below 52) and none repeats. Distinct cards have distinct
/// bits, whose sum equals their union; codes beyond the deck have the top bit. No branch per
/// card, so it costs little beside an evaluation.
#[inline(always)]
fn distinct_cards<const N: usize>(codes: &[u8; N]) -> bool {
    let (sum, union) = codes.iter().fold((0u64, 0u64), |(sum, union), &code| {
        let bit = CARD_BIT[code as usize];
        (sum.wrapping_add(bit), union | bit)
    });
    sum == union && union >> 52 == 0
}

/// The key of a rank multiset: the sum of its cards' keys without the suit counts.
fn multiset_key(counts: &[u8; RANKS]) -> u64 {
    counts.iter().enumerate().map(|(rank, &n)| u64::from(n) << (RANK_COUNT_BITS * rank as u32)).sum()
}

/// Calls `visit` with every multiset of `size` ranks holding each rank at most four times.
fn for_each_rank_multiset(size: usize, visit: &mut dyn FnMut(&[u8; RANKS])) {
    fn walk(rank: usize, left: usize, counts: &mut [u8; RANKS], visit: &mut dyn FnMut(&[u8; RANKS])) {
        if rank == RANKS {
            if left == 0 {
                visit(counts);
            }
            return;
        }
        for n in 0..=left.min(4) {
            counts[rank] = n as u8;
            walk(rank + 1, left - n, counts, visit);
        }
        counts[rank] = 0;
    }
    walk(0, size, &mut [0; RANKS], visit);
}

/// The order key of a five-card class: category in bits 20.., then the ranks that decide
/// ties, most significant first, four bits each (RULES.md §1).
fn class_key(counts: &[u8; RANKS], flush: bool) -> u32 {
    // Ranks by significance: larger groups first, higher ranks first within a group size.
    let mut ranks: Vec<(u8, u8)> =
        (0..RANKS as u8).rev().filter(|&r| counts[r as usize] > 0).map(|r| (counts[r as usize], r)).collect();
    ranks.sort_by_key(|&(count, _)| std::cmp::Reverse(count));
    let shape: Vec<u8> = ranks.iter().map(|&(n, _)| n).collect();
    let mut tie: Vec<u8> = ranks.iter().map(|&(_, r)| r).collect();

    let straight_top = if shape.len() == 5 {
        let bits = (0..RANKS).filter(|&r| counts[r] > 0).fold(0u32, |m, r| m | 1 << r);
        match bits {
            0b1_0000_0000_1111 => Some(3), // A-2-3-4-5: the five is the top card
            _ if bits >> bits.trailing_zeros() == 0b11111 => Some(31 - bits.leading_zeros() as u8),
            _ => None,
        }
    } else {
        None
    };
    if let Some(top) = straight_top {
        tie = vec![top];
    }
    let category = match (shape.as_slice(), straight_top, flush) {
        (_, Some(top), true) if top == ACE => Category::RoyalFlush,
        (_, Some(_), true) => Category::StraightFlush,
        (_, None, true) => Category::Flush,
        (_, Some(_), false) => Category::Straight,
        ([4, 1], ..) => Category::FourOfAKind,
        ([3, 2], ..) => Category::FullHouse,
        ([3, 1, 1], ..) => Category::ThreeOfAKind,
        ([2, 2, 1], ..) => Category::TwoPair,
        ([2, 1, 1, 1], ..) => Category::OnePair,
        _ if counts[ACE as usize] > 0 && counts[KING as usize] > 0 => Category::AceKing,
        _ => Category::HighCard,
    };
    tie.iter().enumerate().fold((category as u32) << 20, |key, (i, &r)| key | u32::from(r) << (16 - 4 * i))
}

/// Every five-card class key, in ascending order: the strength of a class is its index.
fn five_card_classes() -> Vec<u32> {
    let mut keys = Vec::new();
    for_each_rank_multiset(5, &mut |counts| {
        keys.push(class_key(counts, false));
        if counts.iter().all(|&n| n <= 1) {
            keys.push(class_key(counts, true));
        }
    });
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), HandValue::COUNT as usize);
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_cards;

    fn value(text: &str) -> HandValue {
        evaluator().evaluate(&parse_cards(text).unwrap()).unwrap()
    }

    #[test]
    fn categories_span_their_floors() {
        assert_eq!(HandValue(0).category(), Category::HighCard);
        assert_eq!(HandValue(7461).category(), Category::RoyalFlush);
        assert_eq!(Category::AceKing.lowest().strength(), 1113);
        assert_eq!(Category::RoyalFlush.highest().strength(), 7461);
        assert_eq!(Category::Flush.highest().strength(), 7139);
        for category in Category::ALL {
            assert_eq!(Category::from_name(category.name()), Some(category));
            assert_eq!(category.lowest().category(), category);
            assert_eq!(category.highest().category(), category);
        }
    }

    #[test]
    fn the_tables_stay_small_enough_for_the_cache() {
        let bytes = evaluator().table_bytes();
        assert!(bytes < 320 * 1024, "{bytes} bytes");
    }

    #[test]
    fn extremes() {
        assert_eq!(value("7c 5d 4h 3s 2c").strength(), 0);
        assert_eq!(value("As Ks Qs Js Ts").strength(), 7461);
        assert_eq!(value("Ad Kc Qh Jd 9s").category(), Category::AceKing);
        assert_eq!(value("Ad Kc Qh Jd Ts").category(), Category::Straight);
        assert_eq!(value("Ad Qc Jh 9d 8s").category(), Category::HighCard);
    }

    #[test]
    fn six_and_seven_take_the_best_five() {
        assert_eq!(value("As Ks Qs Js Ts 2c"), value("As Ks Qs Js Ts"));
        assert_eq!(value("2h 3h 4h 5h 6h 7h 8h").category(), Category::StraightFlush);
        assert_eq!(value("Ah Ad Ac Kh Kd Qs Qc"), value("Ah Ad Ac Kh Kd"));
        assert_eq!(value("Ah 2d 3c 4h 5d 9s 9c").category(), Category::Straight);
        assert_eq!(value("Ah Kh 2h 7h 9h 9s 9c").category(), Category::Flush);
    }

    #[test]
    fn evaluate_checks_its_input() {
        let cards = parse_cards("As Ks Qs Js").unwrap();
        assert_eq!(evaluator().evaluate(&cards), Err(CardError::HandSize(4)));
        let twice = [cards[0], cards[1], cards[2], cards[3], cards[0]];
        assert_eq!(evaluator().evaluate(&twice), Err(CardError::Duplicate(cards[0])));
    }

    #[test]
    fn batches_are_checked_whole() {
        let bad = [0, 1, 2, 3, 4, 5, 6, 7, 8, 52];
        let expected = CardError::InBatch { hand: 1, error: Box::new(CardError::BadCode(52)) };
        assert_eq!(evaluator().evaluate_batch(&bad, 5), Err(expected.clone()));
        assert_eq!(check_batch(&bad, 5), Err(expected));
        assert_eq!(check_batch(&[0; 9], 5), Err(CardError::RaggedBatch { len: 9, hand_size: 5 }));
        assert_eq!(check_batch(&[0; 8], 4), Err(CardError::HandSize(4)));
        assert_eq!(evaluator().evaluate_batch(&[0; 0], 8), Err(CardError::HandSize(8)));
        let repeated = [0, 1, 2, 3, 0, 5, 6, 7, 8, 9];
        let expected = CardError::InBatch { hand: 0, error: Box::new(CardError::Duplicate(Card::new(0, 0))) };
        assert_eq!(evaluator().evaluate_batch(&repeated, 5), Err(expected));
        let good = [51, 47, 43, 39, 35, 0, 5, 10, 15, 16];
        let out = evaluator().evaluate_batch(&good, 5).unwrap();
        assert_eq!(out, [7461, u32::from(value("2c 3d 4h 5s 6c").strength())]);
        assert_eq!(check_batch(&good, 5), Ok(2));
    }
}
