//! The errors of the core. The Python binding maps each kind to one exception class.

use std::fmt;

use crate::card::Card;

/// A card or hand that cannot be read or is not a valid hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardError {
    /// A text token that is not a card.
    BadToken(String),
    /// A card code outside 0..51.
    BadCode(i64),
    /// The same card twice in one hand.
    Duplicate(Card),
    /// A hand of a size the evaluator does not take.
    HandSize(usize),
    /// A flat buffer of hands whose length is not a multiple of the hand size.
    RaggedBatch { len: usize, hand_size: usize },
    /// One hand of a batch is invalid.
    InBatch { hand: usize, error: Box<CardError> },
}

impl fmt::Display for CardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CardError::BadToken(token) => write!(
                f,
                "{token:?} is not a card: write rank then suit, rank one of 23456789TJQKA (or 10), suit one of cdhs"
            ),
            CardError::BadCode(code) => write!(f, "card code {code} is outside 0..51"),
            CardError::Duplicate(card) => write!(f, "card {card} appears twice"),
            CardError::HandSize(n) => write!(f, "a hand has 5, 6 or 7 cards, not {n}"),
            CardError::RaggedBatch { len, hand_size } => write!(
                f,
                "{len} card codes do not divide into hands of {hand_size}"
            ),
            CardError::InBatch { hand, error } => write!(f, "hand {hand}: {error}"),
        }
    }
}

impl std::error::Error for CardError {}

/// The operating system could not provide random bytes for a seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntropyError(pub String);

impl fmt::Display for EntropyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the operating system's random source failed: {}", self.0)
    }
}

impl std::error::Error for EntropyError {}

/// A request the shoe cannot serve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShoeError {
    /// More cards asked for than remain.
    NotEnoughCards { wanted: usize, remaining: usize },
    /// A seed that is not 32 bytes.
    SeedLength(usize),
    /// The cards of a round are not exactly one deck.
    Integrity { missing: Vec<Card>, repeated: Vec<Card> },
}

impl fmt::Display for ShoeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShoeError::NotEnoughCards { wanted, remaining } => {
                write!(f, "{wanted} cards wanted but only {remaining} remain in the shoe")
            }
            ShoeError::SeedLength(n) => write!(f, "a shuffle seed is 32 bytes, not {n}"),
            ShoeError::Integrity { missing, repeated } => {
                write!(f, "card integrity failure: missing {missing:?}, repeated {repeated:?}")
            }
        }
    }
}

impl std::error::Error for ShoeError {}

/// A rule profile that cannot be loaded: which file, which field, why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileError {
    pub source: String,
    pub field: String,
    pub reason: String,
}

impl ProfileError {
    pub fn new(source: &str, field: &str, reason: String) -> ProfileError {
        ProfileError { source: source.to_string(), field: field.to_string(), reason }
    }
}

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.field.as_str() {
            "" => write!(f, "{}: {}", self.source, self.reason),
            field => write!(f, "{}: {}: {}", self.source, field, self.reason),
        }
    }
}

impl std::error::Error for ProfileError {}

/// A round that cannot be set up, an action the rules refuse now, or a record that does
/// not replay. The round is unchanged by any of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoundError {
    /// Bets or credit that cannot start a round.
    Setup(String),
    /// An action that is not legal now.
    Illegal(String),
    /// A journaled round that does not rebuild.
    Record(String),
}

impl fmt::Display for RoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoundError::Setup(reason) | RoundError::Illegal(reason) | RoundError::Record(reason) => {
                f.write_str(reason)
            }
        }
    }
}

impl std::error::Error for RoundError {}

/// Every error the core reports, one variant a kind: what a caller (the Python binding)
/// matches on to tell them apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    Card(CardError),
    Shoe(ShoeError),
    Entropy(EntropyError),
    Profile(ProfileError),
    Round(RoundError),
    Analysis(crate::analysis::AnalysisError),
    Simulation(crate::simulation::SimulationError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Card(error) => error.fmt(f),
            Error::Shoe(error) => error.fmt(f),
            Error::Entropy(error) => error.fmt(f),
            Error::Profile(error) => error.fmt(f),
            Error::Round(error) => error.fmt(f),
            Error::Analysis(error) => error.fmt(f),
            Error::Simulation(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

macro_rules! error_from {
    ($($kind:ident: $error:ty),* $(,)?) => {
        $(impl From<$error> for Error {
            fn from(error: $error) -> Error {
                Error::$kind(error)
            }
        })*
    };
}

error_from!(
    Card: CardError,
    Shoe: ShoeError,
    Entropy: EntropyError,
    Profile: ProfileError,
    Round: RoundError,
    Analysis: crate::analysis::AnalysisError,
    Simulation: crate::simulation::SimulationError,
);
