//! Cards of the standard 52-card deck, their codes and their text form.
//!
//! A card's code is `4 × (rank − 2) + suit` with suits `c d h s` = 0..3, so `2c` is 0
//! and `As` is 51. The text form is rank then suit (`As`, `Td`, `10d`), either case.

use std::fmt;
use std::str::FromStr;

use crate::error::CardError;

/// Rank characters from deuce (index 0) to ace (index 12).
pub const RANK_CHARS: &[u8; 13] = b"23456789TJQKA";
/// Suit characters: clubs, diamonds, hearts, spades.
pub const SUIT_CHARS: &[u8; 4] = b"cdhs";
/// Cards in a deck.
pub const DECK_SIZE: usize = 52;
/// Rank index of the ace (the highest rank).
pub const ACE: u8 = 12;
/// Rank index of the king.
pub const KING: u8 = 11;

/// One playing card, stored as its code 0..51.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The card with this code, or an error for codes outside 0..51.
    pub fn from_code(code: u8) -> Result<Card, CardError> {
        if (code as usize) < DECK_SIZE {
            Ok(Card(code))
        } else {
            Err(CardError::BadCode(code.into()))
        }
    }

    /// The card of rank index 0..12 (deuce..ace) and suit index 0..3 (c, d, h, s).
    pub fn new(rank: u8, suit: u8) -> Card {
        assert!(rank < 13 && suit < 4, "rank {rank} or suit {suit} out of range");
        Card(rank * 4 + suit)
    }

    /// The card's code 0..51.
    #[inline]
    pub fn code(self) -> u8 {
        self.0
    }

    /// Rank index 0..12, deuce to ace.
    #[inline]
    pub fn rank(self) -> u8 {
        self.0 >> 2
    }

    /// Suit index 0..3: clubs, diamonds, hearts, spades.
    #[inline]
    pub fn suit(self) -> u8 {
        self.0 & 3
    }

    /// All 52 cards in code order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..DECK_SIZE as u8).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rank = RANK_CHARS[self.rank() as usize] as char;
        let suit = SUIT_CHARS[self.suit() as usize] as char;
        write!(f, "{rank}{suit}")
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl FromStr for Card {
    type Err = CardError;

    fn from_str(token: &str) -> Result<Card, CardError> {
        let bad = || CardError::BadToken(token.to_string());
        let (rank_text, suit_text) = token.split_at_checked(token.len().saturating_sub(1)).ok_or_else(bad)?;
        let rank = match rank_text.to_ascii_uppercase().as_str() {
            "10" => 8,
            r if r.len() == 1 => RANK_CHARS.iter().position(|&c| c == r.as_bytes()[0]).ok_or_else(bad)? as u8,
            _ => return Err(bad()),
        };
        let suit_char = suit_text.to_ascii_lowercase();
        let suit = SUIT_CHARS.iter().position(|&c| suit_char.as_bytes() == [c]).ok_or_else(bad)? as u8;
        Ok(Card::new(rank, suit))
    }
}

/// Calls `visit` with every hand of `K` distinct card codes, in lexicographic order
/// (C(52, K) hands: 2 598 960 for five cards).
pub fn for_each_hand<const K: usize>(mut visit: impl FnMut([u8; K])) {
    assert!((1..=DECK_SIZE).contains(&K), "a hand has 1 to 52 cards");
    let mut hand: [u8; K] = std::array::from_fn(|i| i as u8);
    loop {
        // The last card runs through every card above the others: the hot loop.
        for last in hand[K - 1]..DECK_SIZE as u8 {
            hand[K - 1] = last;
            visit(hand);
        }
        // Then the rightmost other card that can still move up moves, the rest just above it.
        let Some(i) = (0..K - 1).rev().find(|&i| usize::from(hand[i]) < DECK_SIZE - K + i) else {
            return;
        };
        hand[i] += 1;
        for j in i + 1..K {
            hand[j] = hand[j - 1] + 1;
        }
    }
}

/// Parses cards separated by white space or commas (`"As Kd, Qh 10c"`), refusing duplicates.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CardError> {
    let cards = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|token| !token.is_empty())
        .map(Card::from_str)
        .collect::<Result<Vec<_>, _>>()?;
    check_distinct(&cards)?;
    Ok(cards)
}

/// Refuses a hand that holds the same card twice, naming the card.
pub fn check_distinct(cards: &[Card]) -> Result<(), CardError> {
    let mut seen = 0u64;
    for &card in cards {
        let bit = 1u64 << card.code();
        if seen & bit != 0 {
            return Err(CardError::Duplicate(card));
        }
        seen |= bit;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_follow_rank_and_suit() {
        assert_eq!("2c".parse::<Card>().unwrap().code(), 0);
        assert_eq!("2d".parse::<Card>().unwrap().code(), 1);
        assert_eq!("3c".parse::<Card>().unwrap().code(), 4);
        assert_eq!("As".parse::<Card>().unwrap().code(), 51);
        assert_eq!("Td".parse::<Card>().unwrap(), "10D".parse::<Card>().unwrap());
        assert_eq!("kH".parse::<Card>().unwrap().to_string(), "Kh");
    }

    #[test]
    fn every_code_round_trips_through_text() {
        for card in Card::all() {
            assert_eq!(card.to_string().parse::<Card>().unwrap(), card);
        }
    }

    #[test]
    fn bad_tokens_are_named() {
        for token in ["1s", "Ax", "A", "", "100s", "AKs", "Tsx", "ä"] {
            match token.parse::<Card>() {
                Err(CardError::BadToken(t)) => assert_eq!(t, token),
                other => panic!("{token:?} gave {other:?}"),
            }
        }
        assert_eq!(Card::from_code(52), Err(CardError::BadCode(52)));
    }

    #[test]
    fn every_hand_is_visited_once_in_order() {
        let mut count = 0u64;
        let mut last = None;
        for_each_hand::<3>(|hand| {
            assert!(hand[0] < hand[1] && hand[1] < hand[2] && usize::from(hand[2]) < DECK_SIZE);
            assert!(last < Some(hand), "lexicographic order");
            last = Some(hand);
            count += 1;
        });
        assert_eq!(count, 52 * 51 * 50 / 6);
    }

    #[test]
    fn duplicates_are_refused() {
        assert_eq!(parse_cards("As Kd as"), Err(CardError::Duplicate("As".parse().unwrap())));
        assert_eq!(parse_cards("As, Kd  10h").unwrap().len(), 3);
    }
}
