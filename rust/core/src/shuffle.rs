//! The secure shuffle and the shoe a round is dealt from (RULES.md §6).
//!
//! Every round gets a fresh 52-card deck permuted by Fisher–Yates, driven by ChaCha20
//! keyed with a 32-byte seed. The seed comes from the operating system (`getrandom`) in
//! play, or is given explicitly to replay a journaled round: the same seed deals the same
//! deck on every platform, since only 32-bit draws and an exact bounded method are used.

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};

use crate::card::{Card, DECK_SIZE};
use crate::error::{EntropyError, ShoeError};

/// The 32 bytes that determine a shuffle.
pub type Seed = [u8; 32];

/// A fresh seed from the operating system's random source.
pub fn os_seed() -> Result<Seed, EntropyError> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| EntropyError(e.to_string()))?;
    Ok(seed)
}

/// A seed from a byte slice, which must be exactly 32 bytes long.
pub fn seed_from_slice(bytes: &[u8]) -> Result<Seed, ShoeError> {
    bytes.try_into().map_err(|_| ShoeError::SeedLength(bytes.len()))
}

/// A uniform integer in `0..bound` (Lemire's multiply-and-reject: the draws that would
/// make some results more likely than others are rejected, so there is no modulo bias).
pub fn bounded<R: Rng + ?Sized>(rng: &mut R, bound: u32) -> u32 {
    assert!(bound > 0, "bounded() needs a positive bound");
    let mut product = u64::from(rng.next_u32()) * u64::from(bound);
    if (product as u32) < bound {
        // 2^32 mod bound: the low words below it belong to an over-represented result.
        let threshold = bound.wrapping_neg() % bound;
        while (product as u32) < threshold {
            product = u64::from(rng.next_u32()) * u64::from(bound);
        }
    }
    (product >> 32) as u32
}

/// Fisher–Yates: every permutation of `items` equally likely given a uniform `rng`.
pub fn shuffle<T, R: Rng + ?Sized>(items: &mut [T], rng: &mut R) {
    for i in (1..items.len()).rev() {
        let j = bounded(rng, (i + 1) as u32) as usize;
        items.swap(i, j);
    }
}

/// The deck that a seed deals, first card first.
pub fn shuffled_deck(seed: &Seed) -> [Card; DECK_SIZE] {
    let mut deck: [Card; DECK_SIZE] = std::array::from_fn(|code| Card::new(code as u8 >> 2, code as u8 & 3));
    shuffle(&mut deck, &mut ChaCha20Rng::from_seed(*seed));
    deck
}

/// Checks that `cards` are the 52 cards of one deck, each exactly once.
pub fn check_complete_deck(cards: impl IntoIterator<Item = Card>) -> Result<(), ShoeError> {
    let mut count = [0u8; DECK_SIZE];
    for card in cards {
        count[card.code() as usize] = count[card.code() as usize].saturating_add(1);
    }
    let with = |n: fn(u8) -> bool| Card::all().filter(|c| n(count[c.code() as usize])).collect::<Vec<_>>();
    let (missing, repeated) = (with(|n| n == 0), with(|n| n > 1));
    if missing.is_empty() && repeated.is_empty() {
        Ok(())
    } else {
        Err(ShoeError::Integrity { missing, repeated })
    }
}

/// One round's shoe: a freshly shuffled deck dealt from the top.
#[derive(Clone, Debug)]
pub struct Shoe {
    seed: Option<Seed>,
    deck: Vec<Card>,
    dealt: usize,
}

impl Shoe {
    /// The shoe that `seed` shuffles: use it to replay a round.
    pub fn new(seed: Seed) -> Shoe {
        Shoe { seed: Some(seed), deck: shuffled_deck(&seed).to_vec(), dealt: 0 }
    }

    /// A shoe shuffled from a fresh operating-system seed.
    pub fn from_os() -> Result<Shoe, EntropyError> {
        Ok(Shoe::new(os_seed()?))
    }

    /// A stacked shoe for tests and analysis: `top` first, then every other card in code
    /// order. Nothing checks `top`: a repeated card makes a deck of 53, as a misdeal
    /// would, and only the end-of-round integrity check catches it.
    pub fn stacked(top: &[Card]) -> Shoe {
        let rest = Card::all().filter(|card| !top.contains(card));
        Shoe { seed: None, deck: top.iter().copied().chain(rest).collect(), dealt: 0 }
    }

    /// The seed that shuffled this shoe (journal it to replay the round); none if stacked.
    pub fn seed(&self) -> Option<&Seed> {
        self.seed.as_ref()
    }

    /// Deals `n` cards from the top, or none if fewer remain.
    pub fn deal(&mut self, n: usize) -> Result<&[Card], ShoeError> {
        if n > self.remaining() {
            return Err(ShoeError::NotEnoughCards { wanted: n, remaining: self.remaining() });
        }
        self.dealt += n;
        Ok(&self.deck[self.dealt - n..self.dealt])
    }

    /// Cards still in the shoe.
    pub fn remaining(&self) -> usize {
        self.deck.len() - self.dealt
    }

    /// Cards dealt so far (including burnt ones), in order.
    pub fn dealt(&self) -> &[Card] {
        &self.deck[..self.dealt]
    }

    /// The cards not yet dealt, next card first.
    pub fn undealt(&self) -> &[Card] {
        &self.deck[self.dealt..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A generator that replays fixed words, to drive `bounded` into its rejection path.
    struct Words(Vec<u32>);

    impl rand_core::TryRng for Words {
        type Error = std::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.0.remove(0))
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            unreachable!("the shuffle draws 32-bit words only")
        }
        fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
            unreachable!("the shuffle draws 32-bit words only")
        }
    }

    #[test]
    fn bounded_rejects_the_over_represented_draws() {
        // bound 3: 2^32 mod 3 = 1, so the draw whose low word is 0 must be rejected.
        let mut rng = Words(vec![0, u32::MAX]);
        assert_eq!(bounded(&mut rng, 3), 2);
        assert!(rng.0.is_empty(), "the first draw was rejected, the second used");
        let mut rng = Words(vec![0x5555_5556]);
        assert_eq!(bounded(&mut rng, 3), 1);
    }

    #[test]
    fn bounded_is_exactly_uniform_on_a_small_word() {
        // Over every 32-bit word whose draw is accepted, each result of 0..7 must be produced
        // by the same number of words. Sampled along a stride to keep the test short.
        let bound = 7u32;
        let threshold = bound.wrapping_neg() % bound;
        let mut counts = [0u64; 7];
        for word in (0..=u32::MAX).step_by(4099) {
            let product = u64::from(word) * u64::from(bound);
            if (product as u32) >= threshold {
                counts[(product >> 32) as usize] += 1;
            }
        }
        let (min, max) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
        assert!(max - min <= 1, "{counts:?}");
    }

    #[test]
    fn the_generator_is_chacha20() {
        // RFC 7539 §2.3.2 test vector: all-zero key and nonce, first block of the keystream.
        let mut rng = ChaCha20Rng::from_seed([0; 32]);
        let first = rng.next_u32().to_le_bytes();
        assert_eq!(first, [0x76, 0xb8, 0xe0, 0xad]);
    }

    #[test]
    fn a_seed_always_deals_the_same_deck() {
        let seed: Seed = std::array::from_fn(|i| i as u8);
        let deck = shuffled_deck(&seed);
        assert_eq!(deck, shuffled_deck(&seed));
        // Pinned so that a change of generator or method, which would break the replay of
        // journaled rounds, fails here rather than in the field.
        let top: Vec<String> = deck[..8].iter().map(|c| c.to_string()).collect();
        assert_eq!(top.join(" "), PINNED_TOP_EIGHT);
        check_complete_deck(deck).unwrap();
        assert_ne!(deck, shuffled_deck(&[0; 32]));
    }
    const PINNED_TOP_EIGHT: &str = "Kd 8h Ac 3s 2c Kh Ts 7h";

    #[test]
    fn the_shoe_deals_from_the_top_and_never_past_the_bottom() {
        let mut shoe = Shoe::new([7; 32]);
        let order = shuffled_deck(&[7; 32]);
        assert_eq!(shoe.deal(5).unwrap(), &order[..5]);
        assert_eq!(shoe.deal(1).unwrap(), &order[5..6]);
        assert_eq!(shoe.remaining(), 46);
        assert_eq!(shoe.deal(47), Err(ShoeError::NotEnoughCards { wanted: 47, remaining: 46 }));
        assert_eq!(shoe.remaining(), 46, "a refused deal takes nothing");
        assert_eq!(shoe.dealt(), &order[..6]);
        assert_eq!(shoe.undealt(), &order[6..]);
        assert_ne!(Shoe::from_os().unwrap().seed(), Shoe::from_os().unwrap().seed());
    }

    #[test]
    fn integrity_names_missing_and_repeated_cards() {
        let mut cards: Vec<Card> = Card::all().collect();
        cards[0] = cards[1];
        assert_eq!(
            check_complete_deck(cards),
            Err(ShoeError::Integrity { missing: vec![Card::new(0, 0)], repeated: vec![Card::new(0, 1)] })
        );
        assert_eq!(seed_from_slice(&[0; 31]), Err(ShoeError::SeedLength(31)));
    }
}
